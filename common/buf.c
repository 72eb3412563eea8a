#include "buf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xmalloc.h"

/* Make an empty buffer that owns nothing. */
void
buf_init(struct buf *b)
{
	b->data = NULL;
	b->len = b->alloc = 0;
}

/* Free the contents; the buffer can be used again. */
void
buf_release(struct buf *b)
{
	free(b->data);
	buf_init(b);
}

/* Empty the buffer but keep its memory. */
void
buf_reset(struct buf *b)
{
	b->len = 0;
	if (b->data != NULL)
		b->data[0] = '\0';
}

/* Hand the string to the caller, who frees it; the buffer is left empty. */
char *
buf_detach(struct buf *b, size_t *ret_len)
{
	char	*s;

	if (b->data == NULL)
		buf_grow(b, 0);
	s = b->data;
	if (ret_len != NULL)
		*ret_len = b->len;
	buf_init(b);
	return s;
}

/* Make room for at least n more bytes plus the terminating NUL. */
void
buf_grow(struct buf *b, size_t n)
{
	size_t	need, na;

	if (n > (size_t)-1 - b->len - 1)
		abort();
	need = b->len + n + 1;
	if (need <= b->alloc)
		return;
	na = b->alloc < 64 ? 64 : b->alloc;
	while (na < need)
		na = na * 2 < na ? need : na * 2;
	b->data = xreallocarray(b->data, na, 1);
	if (b->alloc == 0)
		b->data[0] = '\0';
	b->alloc = na;
}

/* Append n bytes. */
void
buf_add(struct buf *b, const void *p, size_t n)
{
	buf_grow(b, n);
	if (n != 0)
		memcpy(b->data + b->len, p, n);
	b->len += n;
	b->data[b->len] = '\0';
}

/* Append a string. */
void
buf_adds(struct buf *b, const char *s)
{
	buf_add(b, s, strlen(s));
}

/* Append one byte. */
void
buf_addc(struct buf *b, char c)
{
	buf_add(b, &c, 1);
}

/* Append formatted text. */
void
buf_vaddf(struct buf *b, const char *fmt, va_list ap)
{
	va_list	ap2;
	int	n;

	va_copy(ap2, ap);
	n = vsnprintf(NULL, 0, fmt, ap2);
	va_end(ap2);
	if (n < 0)
		return;
	buf_grow(b, (size_t)n);
	vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
	b->len += (size_t)n;
}

/* Append formatted text. */
void
buf_addf(struct buf *b, const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	buf_vaddf(b, fmt, ap);
	va_end(ap);
}

/* Drop the first n bytes. */
void
buf_consume(struct buf *b, size_t n)
{
	if (n >= b->len) {
		buf_reset(b);
		return;
	}
	memmove(b->data, b->data + n, b->len - n);
	b->len -= n;
	b->data[b->len] = '\0';
}

/* The contents as a string, "" when empty. */
const char *
buf_str(const struct buf *b)
{
	return b->data != NULL ? b->data : "";
}
