/* The kernel's event tracer (uapi/trace_record.h), for /bin/trace. */
#include <duplex.h>

#include "internal.h"

/* One trace_control call (TRACE_OP_*); the result, or -1 with errno. */
long trace_control(int op, unsigned long argument, void *buffer, unsigned long size)
{
	return libc_result(
	    syscall4(SYS_trace_control, op, (long)argument, (long)buffer, (long)size));
}
