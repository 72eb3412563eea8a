/*
 * The datagram socket: fire-and-forget events of the preload shim.
 *
 * Next to the stream socket PATH the daemon binds a SOCK_DGRAM socket
 * PATH.dgram (PROTO_DGRAM_SUFFIX), in the same 0700 directory, mode 0600.
 * A datagram is one protocol-v1 "event" line and gets no reply, so a
 * sender pays for socket, sendto and close only: no connect, no accept,
 * no per-client state in the daemon.  The daemon reads batches with
 * recvmmsg from the epoll loop.
 *
 * SO_PASSCRED makes the kernel attach the sender's pid, uid and gid to
 * every datagram (SCM_CREDENTIALS); a datagram from another uid, or one
 * without credentials, is refused and counted like a peer the stream
 * socket refuses.  Anything the sender could not put here (a full queue,
 * a larger message, no such socket) it sends over the stream socket
 * instead, so the datagram path never loses what the stream path would
 * have kept.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "daemon.h"
#include "log.h"
#include "proto.h"
#include "xmalloc.h"

/* Datagrams read per recvmmsg call. */
#define DGRAM_BATCH	16
/* Batches per wakeup before the loop serves the others again. */
#define DGRAM_ROUNDS	8

static struct {
	struct mmsghdr	 msgs[DGRAM_BATCH];
	struct iovec	 iov[DGRAM_BATCH];
	union {
		char		buf[CMSG_SPACE(sizeof(struct ucred))];
		struct cmsghdr	align;
	}		 ctl[DGRAM_BATCH];
	char		*data;		/* DGRAM_BATCH * PROTO_MAX_DGRAM */
} rx;

/* Bind the datagram socket next to the stream socket (see daemon.h). */
int
dgram_listen(struct daemon *d, char **cause)
{
	struct sockaddr_un	sun;
	mode_t			old;
	int			fd, one = 1;

	d->dgram_fd = -1;
	xasprintf(&d->dgram_path, "%s%s", d->paths.socket,
	    PROTO_DGRAM_SUFFIX);
	memset(&sun, 0, sizeof sun);
	sun.sun_family = AF_UNIX;
	if (strlen(d->dgram_path) >= sizeof sun.sun_path) {
		xasprintf(cause, "socket path too long: '%s'", d->dgram_path);
		return -ENAMETOOLONG;
	}
	strcpy(sun.sun_path, d->dgram_path);
	/* The stream socket was free, so this one is stale if it exists. */
	if (unlink(d->dgram_path) == -1 && errno != ENOENT) {
		xasprintf(cause, "cannot remove '%s': %s", d->dgram_path,
		    strerror(errno));
		return -errno;
	}
	fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd == -1) {
		xasprintf(cause, "socket: %s", strerror(errno));
		return -errno;
	}
	if (setsockopt(fd, SOL_SOCKET, SO_PASSCRED, &one, sizeof one) == -1) {
		xasprintf(cause, "cannot ask for credentials on '%s': %s",
		    d->dgram_path, strerror(errno));
		close(fd);
		return -EIO;
	}
	old = umask(0177);
	if (bind(fd, (struct sockaddr *)&sun, sizeof sun) == -1) {
		umask(old);
		xasprintf(cause, "cannot bind '%s': %s", d->dgram_path,
		    strerror(errno));
		close(fd);
		return -EADDRINUSE;
	}
	umask(old);
	if (chmod(d->dgram_path, 0600) == -1) {
		xasprintf(cause, "cannot chmod '%s': %s", d->dgram_path,
		    strerror(errno));
		unlink(d->dgram_path);
		close(fd);
		return -EIO;
	}
	rx.data = xreallocarray(NULL, DGRAM_BATCH, PROTO_MAX_DGRAM);
	d->dgram_fd = fd;
	return 0;
}

static int
dgram_cred(struct msghdr *mh, struct ucred *ret_cred)
{
	struct cmsghdr	*cm;

	for (cm = CMSG_FIRSTHDR(mh); cm != NULL; cm = CMSG_NXTHDR(mh, cm)) {
		if (cm->cmsg_level == SOL_SOCKET &&
		    cm->cmsg_type == SCM_CREDENTIALS &&
		    cm->cmsg_len >= CMSG_LEN(sizeof *ret_cred)) {
			memcpy(ret_cred, CMSG_DATA(cm), sizeof *ret_cred);
			return 0;
		}
	}
	return -1;
}

static void
dgram_refuse(struct daemon *d, const struct ucred *cred, int have)
{
	d->refused++;
	d->dgram_refused++;
	/* A flood of them must not flood the log. */
	if (d->dgram_refused != 1 && d->dgram_refused % 1000 != 0)
		return;
	if (have)
		log_warnx("refused a datagram from uid %ld (pid %ld): not our "
		    "uid %ld (%lld so far)", (long)cred->uid, (long)cred->pid,
		    (long)d->uid, (long long)d->dgram_refused);
	else
		log_warnx("refused a datagram without credentials (%lld so "
		    "far)", (long long)d->dgram_refused);
}

/* Read and handle the datagrams that are queued (see daemon.h). */
int
dgram_read(struct daemon *d)
{
	struct ucred	 cred;
	struct msghdr	*mh;
	int		 n, i, round, have, total = 0;

	for (round = 0; round < DGRAM_ROUNDS; round++) {
		for (i = 0; i < DGRAM_BATCH; i++) {
			rx.iov[i].iov_base = rx.data + (size_t)i *
			    PROTO_MAX_DGRAM;
			rx.iov[i].iov_len = PROTO_MAX_DGRAM;
			mh = &rx.msgs[i].msg_hdr;
			memset(mh, 0, sizeof *mh);
			mh->msg_iov = &rx.iov[i];
			mh->msg_iovlen = 1;
			mh->msg_control = rx.ctl[i].buf;
			mh->msg_controllen = sizeof rx.ctl[i].buf;
		}
		/* Passed fds, if any, find no room and are closed. */
		n = recvmmsg(d->dgram_fd, rx.msgs, DGRAM_BATCH, MSG_DONTWAIT |
		    MSG_CMSG_CLOEXEC, NULL);
		if (n == -1) {
			if (errno != EAGAIN && errno != EINTR)
				log_warn("recvmmsg, ignoring");
			return total;
		}
		d->dgram_batches++;
		total += n;
		for (i = 0; i < n; i++) {
			mh = &rx.msgs[i].msg_hdr;
			d->dgram_received++;
			have = dgram_cred(mh, &cred) == 0;
			if (!have || cred.uid != d->uid) {
				dgram_refuse(d, &cred, have);
				continue;
			}
			if (mh->msg_flags & (MSG_TRUNC | MSG_CTRUNC)) {
				d->received++;
				d->bad_requests++;
				log_debug("a datagram from pid %ld was too "
				    "large, dropped", (long)cred.pid);
				continue;
			}
			server_datagram(d, cred.uid, cred.pid,
			    rx.iov[i].iov_base, rx.msgs[i].msg_len);
		}
		if (n < DGRAM_BATCH)
			return total;
	}
	return total;
}

/* Close and remove the datagram socket. */
void
dgram_close(struct daemon *d)
{
	if (d->dgram_fd >= 0) {
		close(d->dgram_fd);
		unlink(d->dgram_path);
		d->dgram_fd = -1;
	}
	free(d->dgram_path);
	d->dgram_path = NULL;
	free(rx.data);
	rx.data = NULL;
}
