/* Turning the machine off with an exit status.
 * On QEMU the status reaches the host (QEMU's exit code) through the sifive,test0
 * finisher, which a driver registers as the exit hook; otherwise SBI SRST shuts down
 * and the status is only logged. */
#ifndef DUPLEX_POWER_H
#define DUPLEX_POWER_H

/* Status the kernel exits with after a panic (documented in README.md). */
#define POWER_STATUS_PANIC 100

/* A driver that can end the machine with a status; returns only if it failed. */
typedef void (*power_exit_hook)(int status);
void power_set_exit_hook(power_exit_hook hook);

/* Any context; never returns. Other harts are not stopped here (panic does that). */
void power_off(int status) __attribute__((noreturn));

#endif
