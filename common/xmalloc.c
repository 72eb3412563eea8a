#include "xmalloc.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void __attribute__((noreturn))
xmalloc_die(const char *what, size_t n)
{
	fprintf(stderr, "deliberate: %s: out of memory (%zu bytes)\n", what, n);
	abort();
}

/* Allocate n bytes or die. */
void *
xmalloc(size_t n)
{
	void	*p;

	if (n == 0)
		n = 1;
	if ((p = malloc(n)) == NULL)
		xmalloc_die("xmalloc", n);
	return p;
}

/* Allocate a zeroed array or die. */
void *
xcalloc(size_t nmemb, size_t size)
{
	void	*p;

	if (nmemb == 0 || size == 0)
		nmemb = size = 1;
	if ((p = calloc(nmemb, size)) == NULL)
		xmalloc_die("xcalloc", nmemb * size);
	return p;
}

/* Resize an array, checking nmemb * size for overflow. */
void *
xreallocarray(void *old, size_t nmemb, size_t size)
{
	void	*p;

	if (size != 0 && nmemb > SIZE_MAX / size)
		xmalloc_die("xreallocarray overflow", SIZE_MAX);
	if (nmemb == 0 || size == 0)
		nmemb = size = 1;
	if ((p = realloc(old, nmemb * size)) == NULL)
		xmalloc_die("xreallocarray", nmemb * size);
	return p;
}

/* Duplicate a string or die. */
char *
xstrdup(const char *s)
{
	char	*p;

	if ((p = strdup(s)) == NULL)
		xmalloc_die("xstrdup", strlen(s));
	return p;
}

/* Duplicate at most n bytes of a string, always terminated. */
char *
xstrndup(const char *s, size_t n)
{
	char	*p;

	if ((p = strndup(s, n)) == NULL)
		xmalloc_die("xstrndup", n);
	return p;
}

/* Format into a newly allocated string; returns its length. */
int
xasprintf(char **ret, const char *fmt, ...)
{
	va_list	 ap;
	int	 n;

	va_start(ap, fmt);
	n = vasprintf(ret, fmt, ap);
	va_end(ap);
	if (n < 0)
		xmalloc_die("xasprintf", 0);
	return n;
}
