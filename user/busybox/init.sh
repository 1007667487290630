#!/bin/sh
# /etc/init.sh of USERLAND=busybox: the start-up shape of the StarryOS benchmark image
# (the kernel starts `/bin/sh -c /etc/init.sh`, the script starts the work). Here the
# work is an interactive busybox shell; `bench` or any program can be started instead.
echo "Duplex: busybox userland, /etc/init.sh"
exec /bin/sh
