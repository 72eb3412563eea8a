/*
 * The CLI's side of the protocol: connect to the daemon and exchange one
 * request for one reply, within a time budget.
 */
#ifndef CLIENT_H
#define CLIENT_H

#include <stddef.h>

struct buf;
struct json_object;

/*
 * Connect to the socket at path, waiting at most timeout_ms.  Returns a
 * SOCK_CLOEXEC fd, or a negative errno (-ENOENT, -ECONNREFUSED, -ETIMEDOUT).
 */
int	client_connect(const char *path, int timeout_ms);

/*
 * Send req and read one reply line into *ret (caller puts), within
 * timeout_ms in all.  Returns 0, or a negative errno with *cause.
 */
int	client_call(const char *path, struct json_object *req, int timeout_ms,
	    struct json_object **ret, char **cause);

/* Write all of len bytes to fd, retrying on EINTR; 0 or -errno. */
int	fd_write_all(int fd, const void *p, size_t len);

#endif
