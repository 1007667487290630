/* klogctl(): glibc's name for syslog(2), which reads the kernel log buffer. Actions are
 * Linux's SYSLOG_ACTION_* numbers (Duplex has 0, 1, 3, 4, 5 and 10; see
 * kernel/syscall/sys_log.c). */
#ifndef DUPLEX_SYS_KLOG_H
#define DUPLEX_SYS_KLOG_H

#define SYSLOG_ACTION_CLOSE       0
#define SYSLOG_ACTION_OPEN        1
#define SYSLOG_ACTION_READ_ALL    3
#define SYSLOG_ACTION_READ_CLEAR  4
#define SYSLOG_ACTION_CLEAR       5
#define SYSLOG_ACTION_SIZE_BUFFER 10

int klogctl(int type, char *buffer, int length);

#endif
