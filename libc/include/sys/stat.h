/* Duplex additions to picolibc's <sys/stat.h>: lstat(), which picolibc declares only for
 * a few targets (libc/stat.c defines it). */
#ifndef DUPLEX_SYS_STAT_H
#define DUPLEX_SYS_STAT_H

#include_next <sys/stat.h>

int lstat(const char *__restrict path, struct stat *__restrict status);

#endif
