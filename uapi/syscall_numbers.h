/* System call numbers: riscv64 Linux's (include/uapi/asm-generic/unistd.h) for the calls
 * Duplex implements, plus two of its own in a range Linux does not use. Shared with user
 * space: libc's <sys/syscall.h> includes this file, so the two cannot drift apart. Plain
 * macros only. */
#ifndef DUPLEX_SYSCALL_NUMBERS_H
#define DUPLEX_SYSCALL_NUMBERS_H

#define SYS_getcwd            17
#define SYS_dup               23
#define SYS_dup3              24
#define SYS_fcntl             25
#define SYS_ioctl             29
#define SYS_mkdirat           34
#define SYS_unlinkat          35
#define SYS_symlinkat         36
#define SYS_truncate          45
#define SYS_ftruncate         46
#define SYS_faccessat         48
#define SYS_chdir             49
#define SYS_fchdir            50
#define SYS_fchmod            52
#define SYS_fchmodat          53
#define SYS_openat            56
#define SYS_close             57
#define SYS_pipe2             59
#define SYS_getdents64        61
#define SYS_lseek             62
#define SYS_read              63
#define SYS_write             64
#define SYS_readv             65
#define SYS_writev            66
#define SYS_sendfile          71
#define SYS_pselect6          72
#define SYS_ppoll             73
#define SYS_readlinkat        78
#define SYS_newfstatat        79
#define SYS_fstat             80
#define SYS_utimensat         88
#define SYS_exit              93
#define SYS_exit_group        94
#define SYS_set_tid_address   96
#define SYS_set_robust_list   99
#define SYS_nanosleep         101
#define SYS_clock_settime     112
#define SYS_clock_gettime     113
#define SYS_clock_getres      114
#define SYS_clock_nanosleep   115
#define SYS_syslog            116
#define SYS_sched_setaffinity 122
#define SYS_sched_getaffinity 123
#define SYS_sched_yield       124
#define SYS_kill              129
#define SYS_tkill             130
#define SYS_tgkill            131
#define SYS_sigaltstack       132
#define SYS_rt_sigsuspend     133
#define SYS_setpgid           154
#define SYS_getpgid           155
#define SYS_getsid            156
#define SYS_setsid            157
#define SYS_rt_sigaction      134
#define SYS_rt_sigprocmask    135
#define SYS_rt_sigpending     136
#define SYS_rt_sigtimedwait   137
#define SYS_rt_sigreturn      139
#define SYS_setgid            144
#define SYS_setuid            146
#define SYS_getresuid         148
#define SYS_getresgid         150
#define SYS_getgroups         158
#define SYS_uname             160
#define SYS_getrlimit         163
#define SYS_setrlimit         164
#define SYS_prctl             167
#define SYS_gettimeofday      169
#define SYS_settimeofday      170
#define SYS_getpid            172
#define SYS_getppid           173
#define SYS_getuid            174
#define SYS_geteuid           175
#define SYS_getgid            176
#define SYS_getegid           177
#define SYS_gettid            178
#define SYS_sysinfo           179
#define SYS_brk               214
#define SYS_munmap            215
#define SYS_clone             220
#define SYS_execve            221
#define SYS_mmap              222
#define SYS_mprotect          226
#define SYS_riscv_hwprobe     258
#define SYS_wait4             260
#define SYS_prlimit64         261
#define SYS_renameat2         276
#define SYS_getrandom         278
#define SYS_rseq              293
#define SYS_clone3            435
#define SYS_faccessat2        439

#include "uapi/duplex_syscalls.h"

#endif
