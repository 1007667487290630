#!/bin/sh
# /etc/init.sh of USERLAND=busybox: the start-up shape of the StarryOS benchmark image
# (the kernel starts `/bin/sh -c /etc/init.sh`, the script starts the work). Here the
# work is an interactive busybox shell; `bench` or any program can be started instead.
#
# The interactive shell is not this script's process (pid 1) but a child in a session
# of its own that takes the console as its controlling terminal (`setsid -c`: setsid(),
# then ioctl TIOCSCTTY with 1, taking the terminal from pid 1's session). Its jobs' groups
# then have a parent (the shell) in another group of their session, so they are not
# orphaned and ^Z stops them: the kernel discards SIGTSTP to an orphaned group (POSIX;
# Linux kernel/exit.c will_become_orphaned_pgrp does not count init as a parent that
# keeps a group alive), and busybox init and getty keep the shell off pid 1 the same way.
# pid 1 waits and ends the run with the shell's status.
echo "Duplex: busybox userland, /etc/init.sh"
setsid -c /bin/sh
