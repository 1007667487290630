"""Files in the tmpfs are dated by the wall clock (issue #41): the Goldfish RTC sets
CLOCK_REALTIME at boot, and a file's times come from it, as Linux's current_time()
does, where they once were the time since boot (a file made now said 1970). Typed at a
shell's prompt as a person would. Under busybox (its date and stat): a file's mtime
lies between two readings of the wall clock taken before and after it was written,
both after the image was built. Under Duplex's sh: `ls -l` dates a new file in a year
no earlier than the image's build. Both readings are guest time: nothing compares with
the host's clock.
"""

import datetime


from test_busybox import busybox_image  # noqa: F401  (the module fixture: fetch + build)


def test_busybox_file_times_are_wall_clock_times(busybox_image, guest_factory):  # noqa: F811
    guest = guest_factory(busybox_image, smp=2, icount=True,
                          append="console=async init=/bin/sh -- -c /etc/init.sh").start()
    guest.wait_for(rb"# ", timeout=120)
    guest.send(b"date +%s; echo x > /tmp/f; stat -c %X.%Y.%Z /tmp/f; sleep 1; "
               b"touch /tmp/f; stat -c %Y /tmp/f; date +%s\n")
    match = guest.wait_for(rb"\r\n(\d+)\r\n(\d+)\.(\d+)\.(\d+)\r\n(\d+)\r\n(\d+)\r\n",
                           timeout=60)
    before, access, modify, change, touched, after = (int(v) for v in match.groups())
    built = int(busybox_image.stat().st_mtime)
    assert built <= before <= access == modify == change <= touched <= after, match.groups()
    assert touched >= modify + 1  # touch after `sleep 1` moved it on
    guest.send(b"exit 0\n")
    assert guest.wait_exit(timeout=60) == 0


def test_ls_l_dates_a_new_file_by_the_wall_clock(image, guest_factory):
    guest = guest_factory(image, smp=2, icount=True, append="console=async init=/bin/sh").start()
    guest.wait_for(rb"\$ ", timeout=120)
    guest.send(b"echo x > /tmp/f; ls -l /tmp/f\r")
    year = int(guest.wait_for(rb"\r\n-rw-r--r--        2 (\d{4})-\d\d-\d\d \d\d:\d\d /tmp/f\r\n",
                              timeout=60).group(1))
    built = datetime.datetime.fromtimestamp(image.stat().st_mtime, datetime.timezone.utc)
    assert year >= built.year > 1970
