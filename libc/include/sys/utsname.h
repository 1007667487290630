/* uname(): the name and version of the running system. */
#ifndef DUPLEX_SYS_UTSNAME_H
#define DUPLEX_SYS_UTSNAME_H

/* Linux's field size (65 = 64 characters + NUL). */
#define UTSNAME_LENGTH 65

struct utsname {
	char sysname[UTSNAME_LENGTH];    /* "Duplex" */
	char nodename[UTSNAME_LENGTH];   /* host name */
	char release[UTSNAME_LENGTH];    /* kernel release */
	char version[UTSNAME_LENGTH];    /* kernel build */
	char machine[UTSNAME_LENGTH];    /* "riscv64" */
	char domainname[UTSNAME_LENGTH]; /* NIS domain (GNU extension) */
};

int uname(struct utsname *name);

#endif
