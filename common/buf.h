/*
 * A growable byte buffer, always NUL-terminated.  BUF_INIT gives an empty
 * buffer that owns nothing; buf_release() frees the contents and leaves
 * the buffer reusable; buf_detach() hands the malloc'd string to the
 * caller and leaves the buffer empty.
 */
#ifndef BUF_H
#define BUF_H

#include <stdarg.h>
#include <stddef.h>

struct buf {
	char	*data;
	size_t	 len;
	size_t	 alloc;
};

#define BUF_INIT { NULL, 0, 0 }

void	 buf_init(struct buf *);
void	 buf_release(struct buf *);
void	 buf_reset(struct buf *);
char	*buf_detach(struct buf *, size_t *);
void	 buf_grow(struct buf *, size_t);
void	 buf_add(struct buf *, const void *, size_t);
void	 buf_adds(struct buf *, const char *);
void	 buf_addc(struct buf *, char);
void	 buf_addf(struct buf *, const char *, ...)
	    __attribute__((format(printf, 2, 3)));
void	 buf_vaddf(struct buf *, const char *, va_list)
	    __attribute__((format(printf, 2, 0)));
void	 buf_consume(struct buf *, size_t);
const char *buf_str(const struct buf *);

#endif
