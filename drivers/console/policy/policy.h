/* The console's TX policies (struct console_policy, drivers/console/port/port.h): the
 * core chooses one per port from the command line (console=polling|async[,options]). */
#ifndef DUPLEX_CONSOLE_POLICY_H
#define DUPLEX_CONSOLE_POLICY_H

#include "drivers/console/port/port.h"

/* write() spins until every byte is in the UART (policy/polling.c). */
extern const struct console_policy console_polling_policy;
/* write() fills the port's ring; the TX interrupt refills the FIFO (policy/async.c). */
extern const struct console_policy console_async_policy;
/* The same ring, but a kernel task, the copier, refills the FIFO; the TX interrupt only
 * wakes it (policy/async_thread.c). */
extern const struct console_policy console_async_thread_policy;

#endif
