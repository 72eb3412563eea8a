/*
 * Allocation wrappers for the daemon, the CLI and the tests.  Each one
 * calls abort() with a message on failure or on size overflow, so callers
 * never check for NULL.  The preload shim must not use these.
 */
#ifndef XMALLOC_H
#define XMALLOC_H

#include <stddef.h>

void	*xmalloc(size_t);
void	*xcalloc(size_t, size_t);
void	*xreallocarray(void *, size_t, size_t);
char	*xstrdup(const char *);
char	*xstrndup(const char *, size_t);
int	 xasprintf(char **, const char *, ...)
	    __attribute__((format(printf, 2, 3)));

#endif
