/* The kernel command line parameters Duplex knows, and the boot log's report on a line:
 * each bad word, and the parameters no part of the kernel reads (Linux's
 * "Unknown kernel command line parameters", init/main.c print_unknown_bootoptions). */
#ifndef DUPLEX_BOOT_PARAMETERS_H
#define DUPLEX_BOOT_PARAMETERS_H

#include <stdbool.h>

#include "kernel/cmdline/cmdline.h"

/* True if some part of the kernel reads parameter `key`. Any context. */
bool boot_parameter_known(const char *key);

/* Log every problem cmdline_parse recorded and, in one line, the unknown parameters;
 * nothing is logged for a clean line. Boot hart, kernel_main, once the log can print
 * (it may still be buffered); never sleeps. */
void boot_parameters_report(const struct cmdline *line);

#endif
