#include "client.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <json-c/json.h>

#include "buf.h"
#include "clock.h"
#include "proto.h"
#include "xmalloc.h"

/* Write everything, retrying on EINTR and short writes. */
int
fd_write_all(int fd, const void *p, size_t len)
{
	const char	*s = p;
	ssize_t		 n;

	while (len > 0) {
		n = send(fd, s, len, MSG_NOSIGNAL);
		if (n == -1 && errno == ENOTSOCK)
			n = write(fd, s, len);
		if (n == -1) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		s += n;
		len -= (size_t)n;
	}
	return 0;
}

static int
wait_fd(int fd, short ev, double deadline)
{
	struct pollfd	pfd = { .fd = fd, .events = ev };
	double		left;
	int		n;

	for (;;) {
		left = deadline - clock_mono_ms();
		if (left <= 0)
			return -ETIMEDOUT;
		n = poll(&pfd, 1, (int)left + 1);
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1)
			return -errno;
		if (n == 0)
			return -ETIMEDOUT;
		return 0;
	}
}

/* Connect to a Unix socket within a time budget. */
int
client_connect(const char *path, int timeout_ms)
{
	struct sockaddr_un	sun;
	int			fd, err;
	socklen_t		len = sizeof err;
	double			deadline = clock_mono_ms() + timeout_ms;

	memset(&sun, 0, sizeof sun);
	sun.sun_family = AF_UNIX;
	if (strlen(path) >= sizeof sun.sun_path)
		return -ENAMETOOLONG;
	strcpy(sun.sun_path, path);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd == -1)
		return -errno;
	if (connect(fd, (struct sockaddr *)&sun, sizeof sun) == -1) {
		if (errno != EINPROGRESS && errno != EAGAIN) {
			err = -errno;
			close(fd);
			return err;
		}
		if ((err = wait_fd(fd, POLLOUT, deadline)) != 0) {
			close(fd);
			return err;
		}
		if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) == -1 ||
		    err != 0) {
			close(fd);
			return err != 0 ? -err : -EIO;
		}
	}
	return fd;
}

/* One request, one reply. */
int
client_call(const char *path, struct json_object *req, int timeout_ms,
    struct json_object **ret, char **cause)
{
	struct buf	 out = BUF_INIT, in = BUF_INIT;
	double		 deadline = clock_mono_ms() + timeout_ms;
	char		 chunk[4096], *nl;
	ssize_t		 n;
	size_t		 off = 0;
	int		 fd, r;

	if ((fd = client_connect(path, timeout_ms)) < 0) {
		if (cause != NULL)
			xasprintf(cause, "cannot connect to '%s': %s", path,
			    strerror(-fd));
		return fd;
	}
	proto_append(&out, req);
	while (off < out.len) {
		n = send(fd, out.data + off, out.len - off, MSG_NOSIGNAL);
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1 && errno == EAGAIN) {
			if ((r = wait_fd(fd, POLLOUT, deadline)) != 0)
				goto fail;
			continue;
		}
		if (n == -1) {
			r = -errno;
			goto fail;
		}
		off += (size_t)n;
	}
	for (;;) {
		if ((nl = memchr(in.data != NULL ? in.data : "", '\n',
		    in.len)) != NULL)
			break;
		if (in.len > PROTO_MAX_MSG) {
			r = -EMSGSIZE;
			goto fail;
		}
		n = recv(fd, chunk, sizeof chunk, 0);
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1 && errno == EAGAIN) {
			if ((r = wait_fd(fd, POLLIN, deadline)) != 0)
				goto fail;
			continue;
		}
		if (n == -1) {
			r = -errno;
			goto fail;
		}
		if (n == 0) {
			r = -ECONNRESET;
			goto fail;
		}
		buf_add(&in, chunk, (size_t)n);
	}
	*nl = '\0';
	*ret = json_tokener_parse(in.data);
	if (*ret == NULL) {
		r = -EBADMSG;
		goto fail;
	}
	close(fd);
	buf_release(&out);
	buf_release(&in);
	return 0;
fail:
	if (cause != NULL)
		xasprintf(cause, "talking to '%s': %s", path, strerror(-r));
	close(fd);
	buf_release(&out);
	buf_release(&in);
	return r;
}
