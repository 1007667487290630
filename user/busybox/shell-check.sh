#!/bin/sh
# /etc/shell-check.sh of USERLAND=busybox: what a shell script needs from the kernel,
# checked line by line (tests/test_busybox.py runs it on both console backends, 1 and 4
# harts): pipelines, redirections, command substitution, external programs started with
# fork and execve, background jobs and wait, the working directory, files in the tmpfs at
# /tmp, the wall clock and the user. Argument: the build's time (seconds since the epoch).
# Prints "ok NAME" or "FAIL NAME: expected [...], got [...]" per check, then a count.
passed=0
failed=0
check() {
	if [ "$2" = "$3" ]; then
		echo "ok $1"
		passed=$((passed + 1))
	else
		echo "FAIL $1: expected [$2], got [$3]"
		failed=$((failed + 1))
	fi
}

check pipeline "1000 999 998" "$(seq 1000 | sort -rn | head -3 | tr '\n' ' ' | sed 's/ $//')"
check substitution-nested "inner" "$(echo $(echo inner))"
check external-program "hi there" "$(/bin/echo hi there)"
/bin/false
check external-exit-status 1 "$?"
sh -c 'exit 7'
check child-shell-exit-status 7 "$?"
cd /tmp && check cd-pwd /tmp "$(pwd)"
echo first > /tmp/file
echo second >> /tmp/file
check write-append "first second" "$(cat /tmp/file | tr '\n' ' ' | sed 's/ $//')"
check read-redirect 2 "$(wc -l < /tmp/file)"
check stderr-to-stdout 1 "$(ls /no/such/file 2>&1 | grep -c 'No such file')"
check stderr-to-null "" "$(ls /no/such/file 2>/dev/null)"
rm /tmp/file
check removed no "$([ -e /tmp/file ] && echo yes || echo no)"
mkdir -p /tmp/a/b/c
check mkdir-p yes "$([ -d /tmp/a/b/c ] && echo yes || echo no)"
(sleep 1; exit 3) &
job=$!
wait $job
check background-wait 3 "$?"
seq 5 > /tmp/a/n &
wait
check background-output 15 "$(awk '{ s += $1 } END { print s }' /tmp/a/n)"
check date-after-build yes "$([ "$(date +%s)" -ge "$1" ] && echo yes || echo no)"
check id-root "0 root" "$(id -u) $(id -un)"
rm -r /tmp/a
check tmp-empty "" "$(ls /tmp)"
echo "shell-check: $passed passed, $failed failed"
exit $failed
