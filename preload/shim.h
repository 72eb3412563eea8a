/*
 * Internal interface of libdeliberate.so between the interposers
 * (interpose.c) and the daemon client (client.c).  Nothing here is
 * exported: the library is built with -fvisibility=hidden and only the
 * thirteen exec-family interposers are marked visible.
 *
 * Everything reachable from an interposer is async-signal-safe: stack
 * buffers, plain system calls, no malloc, no locks, no stdio.
 */
#ifndef SHIM_H
#define SHIM_H

#include <stddef.h>

/* What shim_report() decided. */
#define SHIM_ALLOW	0
#define SHIM_DENY	1

/*
 * Report one exec attempt to the daemon.  path is the resolved
 * executable (may be NULL), argv the argument vector (may be NULL).  In
 * monitor mode this sends a fire-and-forget event and returns SHIM_ALLOW;
 * in enforce mode it sends a check and returns SHIM_DENY when the daemon
 * refuses (after printing one line to stderr) or, with fail-closed, when
 * it cannot get an answer.  Never changes errno.
 */
int	shim_report(const char *path, char *const argv[]);

/* Whether exec reporting is active in this process (not AT_SECURE). */
int	shim_active(void);

/*
 * Resolve file along PATH the way execvp does, into buf[size]: the first
 * candidate that is an executable regular file, else the first one that
 * exists, else file itself.
 */
const char *shim_resolve(const char *file, char *buf, size_t size);

/* The path behind an open fd (/proc/self/fd/N), into buf[size]. */
const char *shim_fd_path(int fd, char *buf, size_t size);

#endif
