/*
 * The daemon client of libdeliberate.so: configuration (read once, in the
 * constructor), fire-and-forget events in monitor mode, checks with a
 * short time budget in enforce mode, and the drop counter.
 *
 * A monitor event that fits in one chunk goes out as one datagram to the
 * daemon's SOCK_DGRAM socket (PATH.dgram): socket, sendto, close, and no
 * accept in the daemon.  Anything else, and any event the datagram socket
 * does not take (no such socket, an older daemon, a full queue, another
 * uid), goes over the stream socket as before: one connection per exec.
 *
 * Exec paths run in vfork children, in children of threaded programs and
 * in signal handlers, so nothing here allocates, locks or uses stdio:
 * stack buffers and system calls only.
 *
 * The drop counter is the file $DELIBERATE_HOME/run/preload-drops: every
 * event that could not be delivered appends one byte naming the reason
 * (O_APPEND writes are atomic, need no lock and cost one open, write and
 * close on the failure path only).  The count is the file's size.  See
 * docs/preload.md for the reason letters.
 */
#include "shim.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "jsonw.h"
#include "proto.h"

/* Room for the first chunk of a message; most events fit in one. */
#define CHUNK_SIZE		8192
/* Most time spent pushing one event into a slow socket. */
#define SEND_BUDGET_MS		50
/* The reply to a check is read into this much stack. */
#define REPLY_SIZE		8192
/* The counter file stops growing here (the count is then "at least"). */
#define DROPS_MAX		(16 * 1024 * 1024)
#define DEFAULT_TIMEOUT_MS	200

/* Reasons recorded in the drop counter file. */
#define DROP_CONNECT	'c'	/* no daemon: no socket, refused, stale */
#define DROP_BLOCKED	'b'	/* connect or send would block */
#define DROP_SEND	's'	/* send failed or the message was cut off */
#define DROP_TIMEOUT	't'	/* enforce: no reply within the budget */
#define DROP_REPLY	'r'	/* enforce: an error or unreadable reply */

static struct {
	int	inited;
	int	secure;		/* AT_SECURE: never record */
	int	enforce;
	int	fail_closed;
	int	sudo;
	int	timeout_ms;
	char	sock[sizeof ((struct sockaddr_un *)0)->sun_path];
	struct sockaddr_un dgram;	/* sock + ".dgram" */
	socklen_t dgram_len;		/* 0: no datagram socket */
	char	rundir[PATH_MAX];
	char	drops[PATH_MAX];
} cfg;

/*
 * The last refusal in this process.  Shells and execvp try the next PATH
 * entry after EACCES; the same argv from the same process within
 * DENY_REPEAT_MS is refused again without a second check or message.  A
 * plain static: a lost or torn update only costs one more check.
 */
#define DENY_REPEAT_MS		1000
static struct {
	pid_t		pid;
	uint64_t	hash;
	double		when;
} last_deny;

static int
copy_path(char *dst, size_t size, const char *a, const char *b)
{
	size_t	la = strlen(a), lb = strlen(b);

	if (la + lb + 1 > size)
		return -1;
	memcpy(dst, a, la);
	memcpy(dst + la, b, lb + 1);
	return 0;
}

static int
parse_ms(const char *s, int def)
{
	long	v = 0;

	if (s == NULL || *s == '\0')
		return def;
	for (; *s >= '0' && *s <= '9'; s++) {
		v = v * 10 + (*s - '0');
		if (v > 600000)
			return 600000;
	}
	if (*s != '\0' || v <= 0)
		return def;
	return (int)v;
}

/*
 * The first non-empty of two variables.  `deliberate run` and `wrap` pin
 * the shim's destination in DELIBERATE_PRELOAD_* so that a program of the
 * tree that points DELIBERATE_SOCKET or DELIBERATE_MODE elsewhere (a test
 * suite starting daemons of its own) does not move the recording.
 */
static const char *
env_pinned(const char *pinned, const char *plain)
{
	const char	*s;

	if ((s = getenv(pinned)) != NULL && *s != '\0')
		return s;
	return getenv(plain);
}

/*
 * Read the configuration from the environment, once.  Under AT_SECURE
 * (setuid, setgid, file capabilities) the environment is not trusted at
 * all and nothing is recorded.
 */
static void
shim_init(void)
{
	const char	*s, *home, *dhome;
	char		 tmp[PATH_MAX];

	if (cfg.inited)
		return;
	cfg.timeout_ms = DEFAULT_TIMEOUT_MS;
	if (getauxval(AT_SECURE) != 0) {
		cfg.secure = 1;
		cfg.inited = 1;
		return;
	}
	s = env_pinned("DELIBERATE_PRELOAD_MODE", "DELIBERATE_MODE");
	cfg.enforce = s != NULL && strcmp(s, "enforce") == 0;
	s = getenv("DELIBERATE_FAIL_CLOSED");
	cfg.fail_closed = s != NULL && strcmp(s, "1") == 0;
	cfg.timeout_ms = parse_ms(getenv("DELIBERATE_ENFORCE_TIMEOUT_MS"),
	    DEFAULT_TIMEOUT_MS);
	cfg.sudo = getenv("SUDO_UID") != NULL;

	home = getenv("HOME");
	dhome = getenv("DELIBERATE_HOME");
	if (dhome != NULL && *dhome == '/')
		copy_path(tmp, sizeof tmp, dhome, "");
	else if (home != NULL && *home == '/')
		copy_path(tmp, sizeof tmp, home, "/.deliberate");
	else
		tmp[0] = '\0';
	if ((s = getenv("DELIBERATE_PRELOAD_DROPS")) != NULL && *s == '/' &&
	    copy_path(cfg.drops, sizeof cfg.drops, s, "") == 0) {
		copy_path(cfg.rundir, sizeof cfg.rundir, s, "");
		*strrchr(cfg.rundir, '/') = '\0';
	} else if (tmp[0] != '\0' &&
	    copy_path(cfg.rundir, sizeof cfg.rundir, tmp, "/run") == 0)
		copy_path(cfg.drops, sizeof cfg.drops, cfg.rundir,
		    "/preload-drops");

	s = env_pinned("DELIBERATE_PRELOAD_SOCKET", "DELIBERATE_SOCKET");
	if (s != NULL && *s != '\0')
		copy_path(cfg.sock, sizeof cfg.sock, s, "");
	else if ((s = getenv("XDG_RUNTIME_DIR")) != NULL && *s == '/')
		copy_path(cfg.sock, sizeof cfg.sock, s, "/deliberate/sock");
	else if (cfg.rundir[0] != '\0')
		copy_path(cfg.sock, sizeof cfg.sock, cfg.rundir, "/sock");
	cfg.dgram.sun_family = AF_UNIX;
	if (cfg.sock[0] != '\0' && copy_path(cfg.dgram.sun_path,
	    sizeof cfg.dgram.sun_path, cfg.sock, PROTO_DGRAM_SUFFIX) == 0)
		cfg.dgram_len = (socklen_t)(offsetof(struct sockaddr_un,
		    sun_path) + strlen(cfg.dgram.sun_path) + 1);
	cfg.inited = 1;
}

/* The constructor: read the environment before main and threads exist. */
__attribute__((constructor)) static void
shim_constructor(void)
{
	shim_init();
}

/* Whether exec reporting is active in this process. */
int
shim_active(void)
{
	shim_init();
	return !cfg.secure;
}

static double
mono_ms(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int64_t
real_ms(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Count one undelivered event; silently does nothing if it cannot. */
static void
count_drop(char reason)
{
	struct stat	st;
	int		fd;

	if (cfg.drops[0] == '\0')
		return;
	fd = open(cfg.drops, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC |
	    O_NOFOLLOW | O_NOCTTY, 0600);
	if (fd == -1 && errno == ENOENT) {
		/* Only the last component; DELIBERATE_HOME must exist. */
		if (mkdir(cfg.rundir, 0700) == -1 && errno != EEXIST)
			return;
		fd = open(cfg.drops, O_WRONLY | O_APPEND | O_CREAT |
		    O_CLOEXEC | O_NOFOLLOW | O_NOCTTY, 0600);
	}
	if (fd == -1)
		return;
	if (fstat(fd, &st) == 0 && st.st_size < DROPS_MAX)
		(void)!write(fd, &reason, 1);
	close(fd);
}

static int
sock_connect(char *reason)
{
	struct sockaddr_un	sun;
	size_t			len = strlen(cfg.sock);
	int			fd;

	*reason = DROP_CONNECT;
	if (len == 0 || len >= sizeof sun.sun_path)
		return -1;
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd == -1)
		return -1;
	memset(&sun, 0, sizeof sun);
	sun.sun_family = AF_UNIX;
	memcpy(sun.sun_path, cfg.sock, len);
	while (connect(fd, (struct sockaddr *)&sun, sizeof sun) == -1) {
		if (errno == EINTR)
			continue;
		/* A full backlog: the daemon is not accepting. */
		if (errno == EAGAIN || errno == EINPROGRESS)
			*reason = DROP_BLOCKED;
		close(fd);
		return -1;
	}
	return fd;
}

/*
 * Send a whole message as one datagram; 0 if the daemon's queue took it.
 * The socket is unbound: the kernel still tells the daemon our uid and
 * pid (it asked with SO_PASSCRED).
 */
static int
dgram_send(const char *buf, size_t len)
{
	ssize_t	n;
	int	fd;

	if (cfg.dgram_len == 0 || len > PROTO_MAX_DGRAM)
		return -1;
	fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd == -1)
		return -1;
	do {
		n = sendto(fd, buf, len, MSG_NOSIGNAL | MSG_DONTWAIT,
		    (const struct sockaddr *)&cfg.dgram, cfg.dgram_len);
	} while (n == -1 && errno == EINTR);
	close(fd);
	return n == (ssize_t)len ? 0 : -1;
}

struct sender {
	int	fd;		/* the stream connection, or -1 */
	double	deadline;
	char	reason;
};

/*
 * Flush callback of the JSON writer: send the chunk over the stream
 * connection, made now if there is none yet, or give up.
 */
static int
send_chunk(struct jsonw *w)
{
	struct sender	*s = w->arg;
	struct pollfd	 pfd;
	size_t		 off = 0;
	ssize_t		 n;
	double		 left;

	if (s->fd == -1 && (s->fd = sock_connect(&s->reason)) == -1)
		return -1;
	while (off < w->len) {
		n = send(s->fd, w->buf + off, w->len - off,
		    MSG_NOSIGNAL | MSG_DONTWAIT);
		if (n > 0) {
			off += (size_t)n;
			continue;
		}
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
			left = s->deadline - mono_ms();
			if (left <= 0) {
				s->reason = DROP_BLOCKED;
				return -1;
			}
			pfd.fd = s->fd;
			pfd.events = POLLOUT;
			if (poll(&pfd, 1, (int)left + 1) == -1 &&
			    errno != EINTR) {
				s->reason = DROP_SEND;
				return -1;
			}
			continue;
		}
		s->reason = DROP_SEND;
		return -1;
	}
	return 0;
}

/* Skip a JSON value at s[*i]; returns 0 or -1 on malformed input. */
static int
skip_value(const char *s, size_t n, size_t *i)
{
	int	depth = 0, instr = 0;

	for (; *i < n; (*i)++) {
		char c = s[*i];

		if (instr) {
			if (c == '\\')
				(*i)++;
			else if (c == '"') {
				instr = 0;
				if (depth == 0) {
					(*i)++;
					return 0;
				}
			}
			continue;
		}
		if (c == '"')
			instr = 1;
		else if (c == '{' || c == '[')
			depth++;
		else if (c == '}' || c == ']') {
			if (depth == 0)
				return 0;
			if (--depth == 0) {
				(*i)++;
				return 0;
			}
		} else if (c == ',' && depth == 0)
			return 0;
	}
	return -1;
}

/*
 * Copy the top-level string member key of the one-line JSON object s
 * into out[size] (escapes other than \uXXXX resolved, \uXXXX becomes '?').
 * Returns 0, or -1 when absent or not a string.
 */
static int
reply_get(const char *s, size_t n, const char *key, char *out, size_t size)
{
	size_t	i = 0, ks, kl, o;
	int	match;

	while (i < n && s[i] != '{')
		i++;
	for (i++; i < n; i++) {
		if (s[i] == ' ' || s[i] == ',')
			continue;
		if (s[i] != '"')
			return -1;
		ks = ++i;
		while (i < n && s[i] != '"')
			i += s[i] == '\\' ? 2 : 1;
		if (i >= n)
			return -1;
		kl = i - ks;
		match = kl == strlen(key) && memcmp(s + ks, key, kl) == 0;
		for (i++; i < n && (s[i] == ' ' || s[i] == ':'); i++)
			;
		if (!match) {
			if (skip_value(s, n, &i) != 0)
				return -1;
			if (i < n && s[i] == '}')
				return -1;
			i--;
			continue;
		}
		if (i >= n || s[i] != '"')
			return -1;
		for (i++, o = 0; i < n && s[i] != '"'; i++) {
			char c = s[i];

			if (c == '\\' && i + 1 < n) {
				c = s[++i];
				if (c == 'n' || c == 't' || c == 'r')
					c = ' ';
				else if (c == 'u') {
					c = '?';
					i += 4;
				}
			}
			if (o + 1 < size)
				out[o++] = c;
		}
		out[o < size ? o : size - 1] = '\0';
		return 0;
	}
	return -1;
}

static void
put(char *buf, size_t size, size_t *len, const char *s, size_t n)
{
	if (*len + n >= size)
		n = size - 1 - *len;
	memcpy(buf + *len, s, n);
	*len += n;
}

/* One line on stderr: deliberate: refused 'CMD': WHY */
static void
say_refused(char *const argv[], const char *path, const char *why)
{
	char	line[1024], cmd[200];
	size_t	len = 0, clen = 0, i, j;
	int	more = 0;

	for (i = 0; argv != NULL && argv[i] != NULL && !more; i++) {
		if (i > 0)
			put(cmd, sizeof cmd, &clen, " ", 1);
		for (j = 0; argv[i][j] != '\0'; j++) {
			if (clen + 4 >= sizeof cmd) {
				more = 1;
				break;
			}
			cmd[clen++] = (unsigned char)argv[i][j] < 0x20 ? '?' :
			    argv[i][j];
		}
	}
	if (clen == 0 && path != NULL)
		put(cmd, sizeof cmd, &clen, path, strlen(path));
	if (more)
		put(cmd, sizeof cmd, &clen, "...", 3);
	cmd[clen] = '\0';
	put(line, sizeof line, &len, "deliberate: refused '", 21);
	put(line, sizeof line, &len, cmd, clen);
	put(line, sizeof line, &len, "': ", 3);
	put(line, sizeof line, &len, why, strlen(why));
	line[len++] = '\n';
	(void)!write(STDERR_FILENO, line, len);
}

/* Read the reply to a check; returns SHIM_ALLOW, SHIM_DENY or -1. */
static int
read_verdict(int fd, double deadline, char *const argv[], const char *path,
    char *reason)
{
	char		reply[REPLY_SIZE], action[16], id[128], desc[256];
	char		why[400];
	struct pollfd	pfd;
	size_t		len = 0, wl = 0;
	ssize_t		n;
	double		left;

	while (len < sizeof reply && memchr(reply, '\n', len) == NULL) {
		left = deadline - mono_ms();
		if (left <= 0) {
			*reason = DROP_TIMEOUT;
			return -1;
		}
		pfd.fd = fd;
		pfd.events = POLLIN;
		if (poll(&pfd, 1, (int)left + 1) <= 0)
			continue;
		n = read(fd, reply + len, sizeof reply - len);
		if (n == -1 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	*reason = DROP_REPLY;
	if (len == 0 || reply_get(reply, len, "action", action,
	    sizeof action) != 0)
		return -1;
	if (strcmp(action, "deny") != 0)
		return SHIM_ALLOW;
	if (reply_get(reply, len, "patternId", id, sizeof id) != 0)
		strcpy(id, "dangerous command");
	put(why, sizeof why, &wl, id, strlen(id));
	if (reply_get(reply, len, "description", desc, sizeof desc) == 0 &&
	    desc[0] != '\0') {
		put(why, sizeof why, &wl, " (", 2);
		put(why, sizeof why, &wl, desc, strlen(desc));
		put(why, sizeof why, &wl, ")", 1);
	}
	why[wl] = '\0';
	say_refused(argv, path, why);
	return SHIM_DENY;
}

static const char *
tty_name(char *buf, size_t size)
{
	char	link[32] = "/proc/self/fd/0";
	ssize_t	n;
	int	fd;

	for (fd = 0; fd <= 2; fd++) {
		if (!isatty(fd))
			continue;
		link[14] = (char)('0' + fd);
		n = readlink(link, buf, size - 1);
		if (n <= 0)
			break;
		buf[n] = '\0';
		return buf;
	}
	return "";
}

static int
deliver(const char *path, char *const argv[], char *reason)
{
	struct jsonw	 w;
	struct jw_event	 ev;
	struct sender	 s;
	char		 chunk[CHUNK_SIZE], cwd[PATH_MAX], tty[64], comm[17];
	size_t		 argc = 0;
	double		 t0 = mono_ms();
	int		 fd = -1, verdict = SHIM_ALLOW;

	/* A check needs the stream; an event tries a datagram first. */
	if (cfg.enforce && (fd = sock_connect(reason)) == -1)
		return -1;
	memset(&ev, 0, sizeof ev);
	ev.type = cfg.enforce ? "check" : "event";
	ev.mode = cfg.enforce ? "enforce" : NULL;
	ev.source = "preload";
	ev.path = path;
	while (argv != NULL && argv[argc] != NULL)
		argc++;
	ev.argv = (const char *const *)argv;
	ev.argc = argc;
	ev.cwd = getcwd(cwd, sizeof cwd);
	ev.is_tty = isatty(STDIN_FILENO);
	ev.tty = tty_name(tty, sizeof tty);
	memset(comm, 0, sizeof comm);
	if (prctl(PR_GET_NAME, comm, 0, 0, 0) == 0)
		ev.parent = comm;
	ev.pid = getpid();
	ev.ppid = getppid();
	ev.uid = getuid();
	ev.euid = geteuid();
	ev.sudo = cfg.sudo;
	ev.is_static = -1;
	ev.ts_ms = real_ms();
	ev.intercept_ms = mono_ms() - t0;

	s.fd = fd;
	s.deadline = t0 + SEND_BUDGET_MS;
	s.reason = DROP_SEND;
	/* The message and its newline stay within PROTO_MAX_MSG. */
	jw_init(&w, chunk, sizeof chunk, PROTO_MAX_MSG, send_chunk, &s);
	jw_event_write(&w, &ev);
	/* The whole event is in the chunk: try the datagram socket. */
	if (!w.err && s.fd == -1 && !cfg.enforce && dgram_send(w.buf,
	    w.len) == 0)
		return SHIM_ALLOW;
	if (!w.err && w.len > 0 && send_chunk(&w) != 0)
		w.err = 1;
	if (w.err) {
		*reason = s.reason;
		if (s.fd != -1)
			close(s.fd);
		return -1;
	}
	if (cfg.enforce)
		verdict = read_verdict(s.fd, t0 + cfg.timeout_ms, argv, path,
		    reason);
	close(s.fd);
	return verdict;
}

static uint64_t
argv_hash(char *const argv[])
{
	uint64_t	 h = 1469598103934665603ULL;
	const char	*p;
	size_t		 i;

	for (i = 0; argv != NULL && argv[i] != NULL; i++) {
		for (p = argv[i]; *p != '\0'; p++)
			h = (h ^ (unsigned char)*p) * 1099511628211ULL;
		h = (h ^ 0xff) * 1099511628211ULL;
	}
	return h;
}

/* Report one exec attempt (see shim.h). */
int
shim_report(const char *path, char *const argv[])
{
	int		saved = errno, r;
	char		reason = DROP_SEND;
	pid_t		pid;
	uint64_t	hash = 0;

	shim_init();
	if (cfg.secure)
		return SHIM_ALLOW;
	if (cfg.enforce) {
		pid = getpid();
		hash = argv_hash(argv);
		if (last_deny.pid == pid && last_deny.hash == hash &&
		    mono_ms() - last_deny.when < DENY_REPEAT_MS) {
			errno = saved;
			return SHIM_DENY;
		}
	}
	r = deliver(path, argv, &reason);
	if (r == -1) {
		count_drop(reason);
		r = SHIM_ALLOW;
		if (cfg.enforce && cfg.fail_closed) {
			say_refused(argv, path, "no verdict from the daemon "
			    "(DELIBERATE_FAIL_CLOSED=1)");
			r = SHIM_DENY;
		}
	}
	if (r == SHIM_DENY) {
		last_deny.pid = getpid();
		last_deny.hash = hash;
		last_deny.when = mono_ms();
	}
	errno = saved;
	return r;
}

static int
is_exec_file(const char *p)
{
	struct stat	st;

	return stat(p, &st) == 0 && S_ISREG(st.st_mode) &&
	    faccessat(AT_FDCWD, p, X_OK, AT_EACCESS) == 0;
}

/* Resolve file along PATH like execvp (see shim.h). */
const char *
shim_resolve(const char *file, char *buf, size_t size)
{
	const char	*p, *end, *dir;
	struct stat	 st;
	size_t		 dl, fl = strlen(file);
	int		 have_exists = 0;
	char		 exists[PATH_MAX];

	if (strchr(file, '/') != NULL || fl == 0)
		return file;
	if ((p = getenv("PATH")) == NULL)
		p = "/bin:/usr/bin";
	for (;;) {
		end = strchr(p, ':');
		if (end == NULL)
			end = p + strlen(p);
		dir = p;
		dl = (size_t)(end - p);
		if (dl == 0) {
			dir = ".";
			dl = 1;
		}
		if (dl + 1 + fl + 1 <= size) {
			memcpy(buf, dir, dl);
			buf[dl] = '/';
			memcpy(buf + dl + 1, file, fl + 1);
			if (is_exec_file(buf))
				return buf;
			if (!have_exists && stat(buf, &st) == 0 &&
			    dl + fl + 2 <= sizeof exists) {
				memcpy(exists, buf, dl + fl + 2);
				have_exists = 1;
			}
		}
		if (*end == '\0')
			break;
		p = end + 1;
	}
	if (have_exists && strlen(exists) < size) {
		memcpy(buf, exists, strlen(exists) + 1);
		return buf;
	}
	return file;
}

/* The path behind an open fd (see shim.h). */
const char *
shim_fd_path(int fd, char *buf, size_t size)
{
	char	link[32] = "/proc/self/fd/";
	char	digits[12], *d = digits + sizeof digits;
	size_t	l = 14;
	ssize_t	n;
	unsigned u = fd < 0 ? 0 : (unsigned)fd;

	if (fd < 0)
		return NULL;
	*--d = '\0';
	do {
		*--d = (char)('0' + u % 10);
		u /= 10;
	} while (u != 0);
	memcpy(link + l, d, strlen(d) + 1);
	n = readlink(link, buf, size - 1);
	if (n <= 0)
		return NULL;
	buf[n] = '\0';
	return buf;
}
