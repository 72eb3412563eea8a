/*
 * The strict-mode supervisor (deliberate run --strict).  The child sets
 * no_new_privs, installs a seccomp filter that turns execve and execveat
 * into user notifications, passes the listener fd to the parent over a
 * socketpair (SCM_RIGHTS) and execs the command.  The parent answers
 * every notification: it reads the path and argv from /proc/PID/mem,
 * checks that the notification is still valid, reports the exec to the
 * daemon (an event, or a check in enforce mode) and lets the exec
 * continue or fails it with EACCES.
 *
 * The filter is loaded with SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV when
 * the kernel has it (5.19+): once a notification is received, non-fatal
 * signals no longer interrupt the exec, so a signal storm (the Go runtime's
 * preemption signals) cannot make an exec restart and be recorded twice.
 * On older kernels a signal can interrupt a pending exec: the respond then
 * fails with ENOENT, which is ignored, and the restarted exec is reported
 * again.
 *
 * If the supervisor dies, the kernel fails every later exec of the tree
 * with ENOSYS (a clear "Function not implemented" error, never a hang).
 * The supervisor ignores SIGINT and SIGQUIT (they reach the tree from the
 * terminal) and passes SIGTERM and SIGHUP on to the command.  When the
 * command exits while other processes of the tree still run, a copy of
 * the supervisor keeps serving them in the background, with its standard
 * streams on /dev/null, until the last one is gone.
 */
#include "strict.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <elf.h>
#include <json-c/json.h>
#include <seccomp.h>

#include "cli.h"
#include "client.h"
#include "clock.h"
#include "proto.h"
#include "xmalloc.h"
#include "../preload/jsonw.h"

/* Budget for pushing one event into the daemon's socket. */
#define SEND_BUDGET_MS	50
/* Monitor events are sent together, at most this late. */
#define OUT_DELAY_MS	2
#define OUT_SIZE	(64 * 1024)
/* A reply to a check is at most this long. */
#define REPLY_MAX	16384
/* One argument is read up to this many bytes. */
#define ARG_READ_MAX	(128 * 1024)

struct memrd;

struct sup {
	const struct strict_opts *o;
	int			  lfd;		/* seccomp listener */
	int			  conn;		/* daemon connection or -1 */
	int			  nr_execve, nr_execveat;
	int			  nr32_execve, nr32_execveat;
	char			 *msg;		/* PROTO_MAX_MSG bytes */
	char			 *out;		/* OUT_SIZE bytes of events */
	size_t			  outlen, outev;
	double			  out_due;	/* flush time, or 0 */
	struct memrd		 *mr;		/* the target's memory */
	int64_t			  uid;		/* ours, if /proc says nothing */
	pid_t			  denied_pid;	/* the last refusal */
	uint64_t		  denied_hash;
};

static volatile sig_atomic_t	forward_pid;

static void
forward_signal(int sig)
{
	if (forward_pid > 0)
		kill((pid_t)forward_pid, sig);
}

/* Append n bytes (n drops) to the drop counter file. */
static void
count_drops(const char *drops, char reason, size_t n)
{
	char	buf[256];
	size_t	k;
	int	fd;

	if (drops == NULL || n == 0)
		return;
	fd = open(drops, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC |
	    O_NOFOLLOW | O_NOCTTY, 0600);
	if (fd == -1)
		return;
	memset(buf, reason, sizeof buf);
	for (; n > 0; n -= k) {
		k = n < sizeof buf ? n : sizeof buf;
		if (write(fd, buf, k) != (ssize_t)k)
			break;
	}
	close(fd);
}

/* Append one byte to the drop counter file. */
void
strict_count_drop(const char *drops, char reason)
{
	count_drops(drops, reason, 1);
}

static char *
search_path(const char *file)
{
	const char	*p, *end;
	char		*cand;
	struct stat	 st;

	if (strchr(file, '/') != NULL)
		return xstrdup(file);
	if ((p = getenv("PATH")) == NULL)
		p = "/bin:/usr/bin";
	for (;;) {
		end = strchrnul(p, ':');
		xasprintf(&cand, "%.*s/%s", end == p ? 1 : (int)(end - p),
		    end == p ? "." : p, file);
		if (stat(cand, &st) == 0 && S_ISREG(st.st_mode) &&
		    access(cand, X_OK) == 0)
			return cand;
		free(cand);
		if (*end == '\0')
			return NULL;
		p = end + 1;
	}
}

/* Whether argv0 needs privileges that no_new_privs takes away. */
int
strict_needs_privs(const char *argv0)
{
	const char	*base = strrchr(argv0, '/');
	char		*path;
	struct stat	 st;
	int		 r = 0;

	base = base != NULL ? base + 1 : argv0;
	if (strcmp(base, "sudo") == 0 || strcmp(base, "su") == 0 ||
	    strcmp(base, "doas") == 0 || strcmp(base, "pkexec") == 0)
		return 1;
	if ((path = search_path(argv0)) != NULL) {
		if (stat(path, &st) == 0 && (st.st_mode & (S_ISUID | S_ISGID)))
			r = 1;
		free(path);
	}
	return r;
}

/* Load the filter; returns the listener fd or -1 with errno. */
static int
load_filter(void)
{
	scmp_filter_ctx		 ctx;
	struct sock_fprog	 prog;
	struct stat		 st;
	void			*bpf = MAP_FAILED;
	int			 mfd = -1, lfd = -1, r;
	unsigned long		 flags;

	if ((ctx = seccomp_init(SCMP_ACT_ALLOW)) == NULL) {
		errno = ENOMEM;
		return -1;
	}
	/* Programs of another architecture are not supervised. */
	seccomp_attr_set(ctx, SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_ALLOW);
#if defined(__x86_64__)
	seccomp_arch_add(ctx, SCMP_ARCH_X86);
#endif
	if ((r = seccomp_rule_add(ctx, SCMP_ACT_NOTIFY, SCMP_SYS(execve),
	    0)) != 0 || (r = seccomp_rule_add(ctx, SCMP_ACT_NOTIFY,
	    SCMP_SYS(execveat), 0)) != 0) {
		seccomp_release(ctx);
		errno = -r;
		return -1;
	}
	/*
	 * libseccomp 2.5 cannot ask for WAIT_KILLABLE_RECV: export the
	 * program and load it with seccomp(2) directly.
	 */
	mfd = memfd_create("deliberate-bpf", MFD_CLOEXEC);
	if (mfd != -1 && seccomp_export_bpf(ctx, mfd) == 0 &&
	    fstat(mfd, &st) == 0 && st.st_size > 0 &&
	    (bpf = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, mfd,
	    0)) != MAP_FAILED) {
		prog.len = (unsigned short)(st.st_size /
		    (off_t)sizeof(struct sock_filter));
		prog.filter = bpf;
		flags = SECCOMP_FILTER_FLAG_NEW_LISTENER;
#ifdef SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV
		lfd = (int)syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER,
		    flags | SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV, &prog);
#endif
		if (lfd == -1)
			lfd = (int)syscall(SYS_seccomp,
			    SECCOMP_SET_MODE_FILTER, flags, &prog);
		munmap(bpf, (size_t)st.st_size);
	}
	if (mfd != -1)
		close(mfd);
	if (lfd == -1) {
		if ((r = seccomp_load(ctx)) != 0) {
			seccomp_release(ctx);
			errno = -r;
			return -1;
		}
		lfd = seccomp_notify_fd(ctx);
	}
	if (lfd >= 0)
		fcntl(lfd, F_SETFD, FD_CLOEXEC);
	return lfd;
}

static int
send_fd(int sock, int fd)
{
	struct msghdr	 mh;
	struct iovec	 iov;
	struct cmsghdr	*cm;
	char		 c = 'F';
	union {
		char		buf[CMSG_SPACE(sizeof(int))];
		struct cmsghdr	align;
	} u;

	memset(&mh, 0, sizeof mh);
	memset(&u, 0, sizeof u);
	iov.iov_base = &c;
	iov.iov_len = 1;
	mh.msg_iov = &iov;
	mh.msg_iovlen = 1;
	mh.msg_control = u.buf;
	mh.msg_controllen = sizeof u.buf;
	cm = CMSG_FIRSTHDR(&mh);
	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_RIGHTS;
	cm->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(cm), &fd, sizeof fd);
	return sendmsg(sock, &mh, MSG_NOSIGNAL) == 1 ? 0 : -1;
}

static int
recv_fd(int sock)
{
	struct msghdr	 mh;
	struct iovec	 iov;
	struct cmsghdr	*cm;
	char		 c;
	int		 fd = -1;
	union {
		char		buf[CMSG_SPACE(sizeof(int))];
		struct cmsghdr	align;
	} u;

	memset(&mh, 0, sizeof mh);
	iov.iov_base = &c;
	iov.iov_len = 1;
	mh.msg_iov = &iov;
	mh.msg_iovlen = 1;
	mh.msg_control = u.buf;
	mh.msg_controllen = sizeof u.buf;
	while (recvmsg(sock, &mh, MSG_CMSG_CLOEXEC) == -1)
		if (errno != EINTR)
			return -1;
	cm = CMSG_FIRSTHDR(&mh);
	if (cm != NULL && cm->cmsg_level == SOL_SOCKET &&
	    cm->cmsg_type == SCM_RIGHTS)
		memcpy(&fd, CMSG_DATA(cm), sizeof fd);
	return fd;
}

static void __attribute__((noreturn))
child(char **argv, int sock)
{
	char	*path;
	int	 lfd, e;

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == -1 ||
	    (lfd = load_filter()) == -1) {
		e = errno;
		cli_error("cannot install the seccomp filter: %s",
		    strerror(e));
		_exit(126);
	}
	/* The tree must not hold the listener: it would wait on itself. */
	if (send_fd(sock, lfd) == -1)
		_exit(126);
	close(lfd);
	close(sock);
	/* One exec, not one per PATH candidate (each would be judged). */
	if ((path = search_path(argv[0])) != NULL)
		execv(path, argv);
	else
		execvp(argv[0], argv);
	e = errno;
	cli_error("cannot run '%s': %s", argv[0], strerror(e));
	_exit(e == ENOENT ? 127 : 126);
}

/*
 * The target's memory, read with process_vm_readv a page at a time into a
 * few cached pages: the path, argv's pointer array and its strings
 * usually sit on two or three pages, each read once per exec (the target
 * is stopped), and the pages of all argv strings are read together in one
 * call.  Where process_vm_readv is not allowed (some container seccomp
 * profiles), /proc/PID/mem is read instead.
 */
#define MR_SLOTS	8
#define MR_PAGE		4096

struct memrd {
	pid_t		 pid;
	int		 memfd;		/* /proc/PID/mem, opened if needed */
	int		 use_mem;	/* process_vm_readv refused */
	unsigned	 next;		/* slot to replace next */
	uint64_t	 page[MR_SLOTS];	/* address, or UINT64_MAX */
	size_t		 len[MR_SLOTS];		/* bytes valid */
	unsigned char	 buf[MR_SLOTS][MR_PAGE];
};

static int	s_test_procmem;

static void
mr_init(struct memrd *m, pid_t pid)
{
	unsigned	i;

	m->pid = pid;
	m->memfd = -1;
	/* Tests take the /proc/PID/mem path this way (docs/security.md). */
	m->use_mem = s_test_procmem;
	m->next = 0;
	for (i = 0; i < MR_SLOTS; i++)
		m->page[i] = UINT64_MAX;
}

static void
mr_done(struct memrd *m)
{
	if (m->memfd != -1)
		close(m->memfd);
	m->memfd = -1;
}

static int
mr_slot(struct memrd *m, uint64_t page)
{
	unsigned	i;

	for (i = 0; i < MR_SLOTS; i++)
		if (m->page[i] == page)
			return (int)i;
	return -1;
}

/* One page through /proc/PID/mem into slot i. */
static void
mr_pread(struct memrd *m, unsigned i, uint64_t page)
{
	char	path[64];
	ssize_t	n;

	if (m->memfd == -1) {
		snprintf(path, sizeof path, "/proc/%d/mem", (int)m->pid);
		if ((m->memfd = open(path, O_RDONLY | O_CLOEXEC)) == -1)
			return;
	}
	if ((n = pread(m->memfd, m->buf[i], MR_PAGE, (off_t)page)) > 0) {
		m->page[i] = page;
		m->len[i] = (size_t)n;
	}
}

/*
 * Read the pages holding addrs[0..n) that are not cached yet, in one
 * system call (at most MR_SLOTS pages; an unmapped page and the ones after
 * it stay unread, and a later lookup reads them alone).
 */
static void
mr_fetch(struct memrd *m, const uint64_t *addrs, size_t n)
{
	struct iovec	 local[MR_SLOTS], remote[MR_SLOTS];
	uint64_t	 pages[MR_SLOTS], page;
	unsigned	 slots[MR_SLOTS];
	size_t		 i, k, cnt = 0;
	ssize_t		 got;

	for (i = 0; i < n && cnt < MR_SLOTS; i++) {
		page = addrs[i] & ~(uint64_t)(MR_PAGE - 1);
		if (mr_slot(m, page) >= 0)
			continue;
		for (k = 0; k < cnt && pages[k] != page; k++)
			;
		if (k < cnt)
			continue;
		pages[cnt] = page;
		slots[cnt] = m->next;
		m->next = (m->next + 1) % MR_SLOTS;
		m->page[slots[cnt]] = UINT64_MAX;
		local[cnt].iov_base = m->buf[slots[cnt]];
		local[cnt].iov_len = MR_PAGE;
		remote[cnt].iov_base = (void *)(uintptr_t)page;
		remote[cnt].iov_len = MR_PAGE;
		cnt++;
	}
	if (cnt == 0)
		return;
	if (!m->use_mem) {
		got = process_vm_readv(m->pid, local, cnt, remote, cnt, 0);
		if (got == -1 && (errno == EPERM || errno == ENOSYS))
			m->use_mem = 1;
		for (k = 0; got > 0 && k < cnt; k++) {
			m->page[slots[k]] = pages[k];
			m->len[slots[k]] = (size_t)got >= MR_PAGE ? MR_PAGE :
			    (size_t)got;
			got -= (ssize_t)m->len[slots[k]];
		}
		if (!m->use_mem)
			return;
	}
	for (k = 0; k < cnt; k++)
		mr_pread(m, slots[k], pages[k]);
}

/* The bytes from addr to the end of its page: *p, returns their count. */
static ssize_t
mem_span(struct memrd *m, uint64_t addr, const unsigned char **p)
{
	uint64_t	page = addr & ~(uint64_t)(MR_PAGE - 1);
	int		i;

	if ((i = mr_slot(m, page)) < 0) {
		mr_fetch(m, &addr, 1);
		if ((i = mr_slot(m, page)) < 0)
			return -1;
	}
	if (addr - page >= m->len[i])
		return -1;
	*p = m->buf[i] + (addr - page);
	return (ssize_t)(m->len[i] - (addr - page));
}

/* Read size bytes at addr (across pages).  0 or -1. */
static int
mem_read(struct memrd *m, uint64_t addr, void *out, size_t size)
{
	const unsigned char	*p;
	ssize_t			 n;
	size_t			 done = 0;

	while (done < size) {
		if ((n = mem_span(m, addr + done, &p)) < 0)
			return -1;
		if ((size_t)n > size - done)
			n = (ssize_t)(size - done);
		memcpy((char *)out + done, p, (size_t)n);
		done += (size_t)n;
	}
	return 0;
}

/* Read a NUL-terminated string of the target at addr. */
static int
read_str(struct memrd *m, uint64_t addr, char *buf, size_t size, int *cut)
{
	const unsigned char	*p, *nul;
	size_t			 len = 0, want;
	ssize_t			 n;

	*cut = 0;
	while (len + 1 < size) {
		if ((n = mem_span(m, addr + len, &p)) < 0)
			return -1;
		want = (size_t)n;
		if (want > size - 1 - len)
			want = size - 1 - len;
		if ((nul = memchr(p, '\0', want)) != NULL) {
			memcpy(buf + len, p, (size_t)(nul - p));
			len += (size_t)(nul - p);
			buf[len] = '\0';
			return (int)len;
		}
		memcpy(buf + len, p, want);
		len += want;
	}
	buf[len] = '\0';
	*cut = 1;
	return (int)len;
}

static ssize_t
proc_link(pid_t pid, const char *what, char *buf, size_t size)
{
	char	p[64];
	ssize_t	n;

	snprintf(p, sizeof p, "/proc/%d/%s", (int)pid, what);
	if ((n = readlink(p, buf, size - 1)) < 0)
		return -1;
	buf[n] = '\0';
	return n;
}

/*
 * The command name, parent and uids of pid from /proc/PID/status: one
 * file instead of comm and status, read with one read, no stdio.
 */
static void
proc_status(pid_t pid, char *comm, size_t size, int64_t *ppid,
    int64_t *uid, int64_t *euid)
{
	char		 p[64], buf[2048], *line, *nl, *end;
	ssize_t		 n;
	size_t		 len;
	long long	 a, b;
	int		 fd;

	snprintf(p, sizeof p, "/proc/%d/status", (int)pid);
	if ((fd = open(p, O_RDONLY | O_CLOEXEC)) == -1)
		return;
	n = read(fd, buf, sizeof buf - 1);
	close(fd);
	if (n <= 0)
		return;
	buf[n] = '\0';
	for (line = buf; line != NULL && *line != '\0'; line = nl) {
		if ((nl = strchr(line, '\n')) != NULL)
			*nl++ = '\0';
		if (strncmp(line, "Name:\t", 6) == 0) {
			len = strlen(line + 6);
			if (len >= size)
				len = size - 1;
			memcpy(comm, line + 6, len);
			comm[len] = '\0';
		} else if (strncmp(line, "PPid:", 5) == 0)
			*ppid = strtoll(line + 5, NULL, 10);
		else if (strncmp(line, "Uid:", 4) == 0) {
			a = strtoll(line + 4, &end, 10);
			b = strtoll(end, NULL, 10);
			*uid = a;
			*euid = b;
			break;	/* the last line we need */
		}
	}
}

/*
 * 1 if the ELF file has no PT_INTERP (static), 0 if it has, -1 unknown.
 * The header and the program headers usually fit in the first 1 KiB,
 * read at once; the rest is read a header at a time.
 */
static int
elf_static(int fd)
{
	union {
		Elf64_Ehdr	e64;
		Elf32_Ehdr	e32;
		unsigned char	b[1024];
	}		 h;
	Elf64_Phdr	 p64;
	Elf32_Phdr	 p32;
	unsigned	 i, n;
	off_t		 off, at;
	size_t		 sz, want;
	ssize_t		 got;
	uint32_t	 type;
	int		 is64;

	if ((got = pread(fd, h.b, sizeof h.b, 0)) < (ssize_t)sizeof h.e32 ||
	    memcmp(h.e64.e_ident, ELFMAG, SELFMAG) != 0)
		return -1;
	is64 = h.e64.e_ident[EI_CLASS] == ELFCLASS64;
	if (is64 && got < (ssize_t)sizeof h.e64)
		return -1;
	if (is64) {
		n = h.e64.e_phnum;
		off = (off_t)h.e64.e_phoff;
		sz = h.e64.e_phentsize;
	} else {
		n = h.e32.e_phnum;
		off = (off_t)h.e32.e_phoff;
		sz = h.e32.e_phentsize;
	}
	if (is64 ? h.e64.e_type != ET_EXEC && h.e64.e_type != ET_DYN :
	    h.e32.e_type != ET_EXEC && h.e32.e_type != ET_DYN)
		return -1;
	want = is64 ? sizeof p64 : sizeof p32;
	for (i = 0; i < n && i < 256; i++) {
		at = off + (off_t)(i * sz);
		if (at >= 0 && at + (off_t)want <= got) {
			if (is64)
				memcpy(&p64, h.b + at, sizeof p64);
			else
				memcpy(&p32, h.b + at, sizeof p32);
		} else if (pread(fd, is64 ? (void *)&p64 : (void *)&p32, want,
		    at) != (ssize_t)want)
			return -1;
		type = is64 ? p64.p_type : p32.p_type;
		if (type == PT_INTERP)
			return 0;
	}
	return 1;
}

/* Send buf, which holds nev events; a failure counts nev drops. */
static int
conn_send(struct sup *s, const char *buf, size_t len, size_t nev)
{
	struct pollfd	pfd;
	double		deadline = clock_mono_ms() + SEND_BUDGET_MS, left;
	ssize_t		n;
	int		fd;

	if (s->conn == -1) {
		if ((fd = client_connect(s->o->socket, SEND_BUDGET_MS)) < 0) {
			count_drops(s->o->drops, 'c', nev);
			return -1;
		}
		s->conn = fd;
		fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
	}
	while (len > 0) {
		n = send(s->conn, buf, len, MSG_NOSIGNAL | MSG_DONTWAIT);
		if (n > 0) {
			buf += n;
			len -= (size_t)n;
			continue;
		}
		if (n == -1 && errno == EINTR)
			continue;
		left = deadline - clock_mono_ms();
		if (n == -1 && errno == EAGAIN && left > 0) {
			pfd.fd = s->conn;
			pfd.events = POLLOUT;
			poll(&pfd, 1, (int)left + 1);
			continue;
		}
		/* A half-sent message poisons the stream: start over. */
		close(s->conn);
		s->conn = -1;
		count_drops(s->o->drops, n == -1 && errno == EAGAIN ?
		    'b' : 's', nev);
		return -1;
	}
	return 0;
}

/*
 * Monitor events wait in s->out for at most OUT_DELAY_MS and go out
 * together: a burst of execs costs one send and one wake-up of the daemon
 * per interval.  The buffer is flushed when it is due, when it is full,
 * and before the supervisor exits or goes to the background.
 */
static void
out_flush(struct sup *s)
{
	if (s->outlen > 0)
		(void)conn_send(s, s->out, s->outlen, s->outev);
	s->outlen = 0;
	s->outev = 0;
	s->out_due = 0;
}

static void
out_add(struct sup *s, const char *buf, size_t len)
{
	if (s->outlen + len > OUT_SIZE)
		out_flush(s);
	if (len > OUT_SIZE) {
		(void)conn_send(s, buf, len, 1);
		return;
	}
	memcpy(s->out + s->outlen, buf, len);
	s->outlen += len;
	s->outev++;
	if (s->out_due == 0)
		s->out_due = clock_mono_ms() + OUT_DELAY_MS;
}

/* The poll timeout: def, or until the buffer is due. */
static int
out_timeout(struct sup *s, int def)
{
	double	left;

	if (s->out_due == 0)
		return def;
	left = s->out_due - clock_mono_ms();
	if (left <= 0)
		return 0;
	if (def >= 0 && def < (int)left + 1)
		return def;
	return (int)left + 1;
}

static void
out_tick(struct sup *s)
{
	if (s->out_due != 0 && clock_mono_ms() >= s->out_due)
		out_flush(s);
}

/* Read one reply line; returns its length or -1 (connection dropped). */
static int
conn_reply(struct sup *s, char *buf, size_t size)
{
	struct pollfd	pfd;
	double		deadline = clock_mono_ms() + s->o->timeout_ms, left;
	size_t		len = 0;
	ssize_t		n;

	while (len + 1 < size) {
		left = deadline - clock_mono_ms();
		if (left <= 0)
			break;
		pfd.fd = s->conn;
		pfd.events = POLLIN;
		if (poll(&pfd, 1, (int)left + 1) <= 0)
			continue;
		n = read(s->conn, buf + len, 1);
		if (n == -1 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (n <= 0)
			break;
		if (buf[len] == '\n') {
			buf[len] = '\0';
			return (int)len;
		}
		len++;
	}
	/* A late reply would answer the wrong request: reconnect. */
	close(s->conn);
	s->conn = -1;
	strict_count_drop(s->o->drops, len == 0 ? 't' : 'r');
	return -1;
}

static void
say_refused(pid_t pid, char **argv, size_t argc, const char *why)
{
	char	cmd[200];
	size_t	clen = 0, i, j = 0;
	int	fd, pfd;

	for (i = 0; i < argc && clen + 4 < sizeof cmd; i++) {
		if (i > 0)
			cmd[clen++] = ' ';
		for (j = 0; argv[i][j] != '\0' && clen + 4 < sizeof cmd; j++)
			cmd[clen++] = (unsigned char)argv[i][j] < 0x20 ? '?' :
			    argv[i][j];
	}
	if (i < argc || (argc > 0 && argv[argc - 1][j] != '\0')) {
		memcpy(cmd + clen, "...", 3);
		clen += 3;
	}
	cmd[clen] = '\0';
	/*
	 * The target's own stderr (a duplicate, sharing its file offset),
	 * else ours.
	 */
	fd = -1;
	if ((pfd = (int)syscall(SYS_pidfd_open, pid, 0)) != -1) {
		fd = (int)syscall(SYS_pidfd_getfd, pfd, STDERR_FILENO, 0);
		close(pfd);
	}
	if (fd == -1)
		fd = dup(STDERR_FILENO);
	if (fd != -1) {
		dprintf(fd, "deliberate: refused '%s': %s\n", cmd, why);
		close(fd);
	}
}

/* The verdict of a check reply: 1 deny, 0 allow, -1 none. */
static int
verdict(struct sup *s, pid_t pid, char **argv, size_t argc)
{
	struct json_object	*rep, *o, *id, *desc;
	char			 line[REPLY_MAX], *why;
	int			 r = -1;

	if (conn_reply(s, line, sizeof line) < 0)
		return -1;
	if ((rep = json_tokener_parse(line)) == NULL) {
		strict_count_drop(s->o->drops, 'r');
		return -1;
	}
	if (json_object_object_get_ex(rep, "action", &o) &&
	    json_object_is_type(o, json_type_string)) {
		r = strcmp(json_object_get_string(o), "deny") == 0;
		if (r == 1) {
			json_object_object_get_ex(rep, "patternId", &id);
			json_object_object_get_ex(rep, "description", &desc);
			if (desc != NULL)
				xasprintf(&why, "%s (%s)", id != NULL ?
				    json_object_get_string(id) :
				    "dangerous command",
				    json_object_get_string(desc));
			else
				why = xstrdup(id != NULL ?
				    json_object_get_string(id) :
				    "dangerous command");
			say_refused(pid, argv, argc, why);
			free(why);
		}
	} else
		strict_count_drop(s->o->drops, 'r');
	json_object_put(rep);
	return r;
}

static uint64_t
argv_hash(char **argv, size_t argc)
{
	uint64_t	h = 1469598103934665603ULL;
	size_t		i;
	const char	*p;

	for (i = 0; i < argc; i++) {
		for (p = argv[i]; *p != '\0'; p++)
			h = (h ^ (unsigned char)*p) * 1099511628211ULL;
		h = (h ^ 0xff) * 1099511628211ULL;
	}
	return h;
}

static void
respond(struct sup *s, const struct seccomp_notif *req,
    struct seccomp_notif_resp *resp, int deny)
{
	memset(resp, 0, sizeof *resp);
	resp->id = req->id;
	if (deny)
		resp->error = -EACCES;
	else
		resp->flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE;
	/* ENOENT: the target died or a signal interrupted the exec. */
	(void)seccomp_notify_respond(s->lfd, resp);
}

/*
 * Judge one notification and answer it.  Execs of files that do not
 * exist (execvp's PATH candidates) are let through unreported: the kernel
 * fails them.  In monitor mode the exec goes on as soon as everything
 * that only the waiting target can tell (its memory, cwd, name, parent,
 * uids, root) has been read; the event is written and sent while it runs.
 * In enforce mode the answer waits for the daemon's verdict.
 */
static void
judge(struct sup *s, const struct seccomp_notif *req,
    struct seccomp_notif_resp *resp)
{
	struct jsonw	 w;
	struct jw_event	 ev;
	char		 path[PATH_MAX], abspath[PATH_MAX + 16];
	char		 base[PATH_MAX], cwd[PATH_MAX], tty[128], comm[64];
	char		 fdname[32];
	char		 rooted[PATH_MAX + 64], **argv = NULL, *strs = NULL;
	uint64_t	 pathp, argvp, ptr, hash;
	size_t		 argc = 0, used = 0, cap = 0, budget, i;
	pid_t		 pid = (pid_t)req->pid;
	int		 fd = -1, cut, n, is32, at, flags = 0, deny = 0;
	struct memrd	*mr;
	uint64_t	 want[MR_SLOTS];
	size_t		 nwant;
	int		 truncated = 0, r, answered = 0;
	double		 t0 = clock_mono_ms();
	struct stat	 st;

	is32 = req->data.arch == SCMP_ARCH_X86;
	at = (int)req->data.nr == (is32 ? s->nr32_execveat : s->nr_execveat);
	pathp = req->data.args[at ? 1 : 0];
	argvp = req->data.args[at ? 2 : 1];
	if (at)
		flags = (int)req->data.args[4];

	mr = s->mr;
	mr_init(mr, pid);
	/* The path's page and the pointer array's page in one read. */
	want[0] = pathp;
	want[1] = argvp;
	mr_fetch(mr, want, argvp != 0 ? 2 : 1);
	if (read_str(mr, pathp, path, sizeof path, &cut) < 0)
		path[0] = '\0';
	/* Then the pages of the first strings, together. */
	for (nwant = 0; argvp != 0 && nwant < MR_SLOTS; nwant++) {
		ptr = 0;
		if (mem_read(mr, argvp + nwant * (is32 ? 4 : 8), &ptr,
		    is32 ? 4 : 8) != 0 || ptr == 0)
			break;
		want[nwant] = ptr;
	}
	mr_fetch(mr, want, nwant);
	/* argv: the strings packed in strs, offsets in argv, then fixed. */
	budget = PROTO_MAX_MSG / 2;
	for (i = 0; argvp != 0 && i < 1 << 20; i++) {
		ptr = 0;
		if (mem_read(mr, argvp + i * (is32 ? 4 : 8), &ptr,
		    is32 ? 4 : 8) != 0 || ptr == 0)
			break;
		if (used + ARG_READ_MAX > cap) {
			cap = used + ARG_READ_MAX + cap;
			strs = xreallocarray(strs, cap, 1);
		}
		argv = xreallocarray(argv, argc + 1, sizeof *argv);
		n = read_str(mr, ptr, strs + used, ARG_READ_MAX, &cut);
		if (n < 0)
			break;
		argv[argc++] = (char *)(uintptr_t)used;
		used += (size_t)n + 1;
		if (cut || used > budget) {
			truncated = 1;
			break;
		}
	}
	mr_done(mr);
	for (i = 0; i < argc; i++)
		argv[i] = strs + (uintptr_t)argv[i];
	/* Reading raced with the target; the id tells if it is still ours. */
	if (seccomp_notify_id_valid(s->lfd, req->id) != 0)
		goto done;

	cwd[0] = '\0';
	proc_link(pid, "cwd", cwd, sizeof cwd);
	if (path[0] == '/')
		snprintf(abspath, sizeof abspath, "%s", path);
	else {
		base[0] = '\0';
		if (!at || (int)req->data.args[0] == AT_FDCWD)
			snprintf(base, sizeof base, "%s", cwd);
		else {
			snprintf(fdname, sizeof fdname, "fd/%d",
			    (int)req->data.args[0]);
			proc_link(pid, fdname, base, sizeof base);
		}
		if (path[0] == '\0' && (flags & AT_EMPTY_PATH))
			snprintf(abspath, sizeof abspath, "%s", base);
		else if (snprintf(abspath, sizeof abspath, "%s/%s", base,
		    path) >= (int)sizeof abspath)
			abspath[sizeof abspath - 1] = '\0';	/* cut, flagged */
	}
	/*
	 * execvp retries the next PATH candidate after EACCES: the same
	 * argv from the same process right after a refusal is refused
	 * again without a second record or message.
	 */
	hash = argv_hash(argv, argc);
	if (pid == s->denied_pid && hash == s->denied_hash) {
		deny = 1;
		goto done;
	}

	/*
	 * Look at the file as the target sees it (chroot, namespaces).  The
	 * open fd stays valid once the target has gone on.
	 */
	snprintf(rooted, sizeof rooted, "/proc/%d/root%s", (int)pid, abspath);
	if ((fd = open(rooted, O_RDONLY | O_CLOEXEC | O_NOCTTY)) == -1 &&
	    (errno == ENOENT || errno == ENOTDIR))
		goto done;
	if (fd == -1 && stat(rooted, &st) == -1 &&
	    (errno == ENOENT || errno == ENOTDIR))
		goto done;

	memset(&ev, 0, sizeof ev);
	ev.is_static = -1;
	ev.type = s->o->enforce ? "check" : "event";
	ev.mode = s->o->enforce ? "enforce" : NULL;
	ev.source = "strict";
	ev.path = abspath;
	ev.argv = (const char *const *)argv;
	ev.argc = argc;
	ev.cwd = cwd[0] != '\0' ? cwd : NULL;
	ev.tty = "";
	if (proc_link(pid, "fd/0", tty, sizeof tty) > 0 &&
	    (strncmp(tty, "/dev/pts/", 9) == 0 ||
	    strncmp(tty, "/dev/tty", 8) == 0)) {
		ev.tty = tty;
		ev.is_tty = 1;
	}
	comm[0] = '\0';
	ev.parent = comm;
	ev.pid = pid;
	ev.ppid = 0;
	ev.uid = ev.euid = s->uid;
	proc_status(pid, comm, sizeof comm, &ev.ppid, &ev.uid, &ev.euid);
	ev.sudo = 0;
	ev.ts_ms = clock_now_ms();
	ev.intercept_ms = clock_mono_ms() - t0;
	if (!s->o->enforce) {
		respond(s, req, resp, 0);
		answered = 1;
	}
	/*
	 * All of /proc/PID was read before the exec went on: its name
	 * changes with the exec, and the process may be gone soon after.
	 */
	if (fd != -1)
		ev.is_static = elf_static(fd);

	jw_init(&w, s->msg, PROTO_MAX_MSG, PROTO_MAX_MSG, NULL, NULL);
	if (jw_event_write(&w, &ev))
		truncated = 1;
	if (truncated && !w.err && w.len > 2 && w.buf[w.len - 3] == ']') {
		/* Cut while reading: flag it like the writer would. */
		w.len -= 2;
		w.total -= 2;
		jw_lit(&w, ",\"truncated\":true}\n");
	}
	if (w.err) {
		strict_count_drop(s->o->drops, 's');
		r = -1;
	} else if (!s->o->enforce) {
		out_add(s, w.buf, w.len);
		r = 0;
	} else if ((r = conn_send(s, w.buf, w.len, 1)) == 0)
		r = verdict(s, pid, argv, argc);
	if (r == 1) {
		deny = 1;
		s->denied_pid = pid;
		s->denied_hash = hash;
	} else if (r == -1 && s->o->enforce && s->o->fail_closed) {
		say_refused(pid, argv, argc, "no verdict from the daemon "
		    "(DELIBERATE_FAIL_CLOSED=1)");
		deny = 1;
	}
done:
	if (!answered)
		respond(s, req, resp, deny);
	if (fd != -1)
		close(fd);
	free(argv);
	free(strs);
}

static void
serve_one(struct sup *s, struct seccomp_notif *req,
    struct seccomp_notif_resp *resp)
{
	memset(req, 0, sizeof *req);
	if (seccomp_notify_receive(s->lfd, req) != 0)
		return;
	judge(s, req, resp);
}

static int
exit_status(int st)
{
	if (WIFEXITED(st))
		return WEXITSTATUS(st);
	if (WIFSIGNALED(st))
		return 128 + WTERMSIG(st);
	return EXIT_FAIL;
}

/* Keep serving the rest of the tree in the background. */
static void
linger(struct sup *s, struct seccomp_notif *req,
    struct seccomp_notif_resp *resp)
{
	struct pollfd	pfd;
	int		null;

	out_flush(s);
	if (fork() != 0)
		return;
	if ((null = open("/dev/null", O_RDWR | O_CLOEXEC)) != -1) {
		dup2(null, STDIN_FILENO);
		dup2(null, STDOUT_FILENO);
		dup2(null, STDERR_FILENO);
		close(null);
	}
	signal(SIGTERM, SIG_IGN);
	signal(SIGHUP, SIG_IGN);
	for (;;) {
		pfd.fd = s->lfd;
		pfd.events = POLLIN;
		pfd.revents = 0;
		if (poll(&pfd, 1, out_timeout(s, -1)) == -1 && errno != EINTR)
			break;
		if (pfd.revents & POLLIN)
			serve_one(s, req, resp);
		else if (pfd.revents & (POLLHUP | POLLERR | POLLNVAL))
			break;
		out_tick(s);
	}
	out_flush(s);
	_exit(0);
}

static int
supervise(struct sup *s, pid_t pid)
{
	struct seccomp_notif		*req;
	struct seccomp_notif_resp	*resp;
	struct pollfd			 pfd[2];
	int				 pidfd, st, status = -1, n;

	if (seccomp_notify_alloc(&req, &resp) != 0) {
		cli_error("cannot allocate seccomp notifications");
		kill(pid, SIGKILL);
		waitpid(pid, &st, 0);
		return EXIT_FAIL;
	}
	pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
	for (;;) {
		pfd[0].fd = s->lfd;
		pfd[0].events = POLLIN;
		pfd[1].fd = pidfd;
		pfd[1].events = POLLIN;
		n = poll(pfd, status == -1 && pidfd != -1 ? 2 : 1,
		    out_timeout(s, pidfd == -1 && status == -1 ? 100 : -1));
		if (n == -1 && errno != EINTR)
			break;
		if (n > 0 && (pfd[0].revents & POLLIN))
			serve_one(s, req, resp);
		out_tick(s);
		/* The command's exit: the pidfd says so (no pidfd: ask). */
		if (status == -1 && (pidfd == -1 || (n > 0 &&
		    (pfd[1].revents & POLLIN))) &&
		    waitpid(pid, &st, WNOHANG) == pid) {
			status = exit_status(st);
			forward_pid = 0;
		}
		if (n > 0 && !(pfd[0].revents & POLLIN) &&
		    (pfd[0].revents & (POLLHUP | POLLERR | POLLNVAL))) {
			/* No process of the tree is left. */
			if (status == -1 && waitpid(pid, &st, 0) == pid)
				status = exit_status(st);
			break;
		}
		if (status != -1) {
			/* The command is done; others may remain. */
			pfd[0].events = POLLIN;
			if (poll(pfd, 1, 0) == 1 &&
			    !(pfd[0].revents & POLLIN))
				break;
			linger(s, req, resp);
			break;
		}
	}
	out_flush(s);
	if (pidfd != -1)
		close(pidfd);
	seccomp_notify_free(req, resp);
	return status == -1 ? EXIT_FAIL : status;
}

/* Run argv under the supervisor. */
int
strict_run(char **argv, const struct strict_opts *o)
{
	struct sup		s;
	struct sigaction	sa;
	int			sv[2], lfd, st, r;
	pid_t			pid;

	memset(&s, 0, sizeof s);
	s.o = o;
	s.conn = -1;
	s.nr_execve = SCMP_SYS(execve);
	s.nr_execveat = SCMP_SYS(execveat);
	s.nr32_execve = seccomp_syscall_resolve_name_arch(SCMP_ARCH_X86,
	    "execve");
	s.nr32_execveat = seccomp_syscall_resolve_name_arch(SCMP_ARCH_X86,
	    "execveat");
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) == -1) {
		cli_error("socketpair: %s", strerror(errno));
		return EXIT_FAIL;
	}
	fflush(NULL);
	if ((pid = fork()) == -1) {
		cli_error("fork: %s", strerror(errno));
		return EXIT_FAIL;
	}
	if (pid == 0) {
		close(sv[0]);
		child(argv, sv[1]);
	}
	close(sv[1]);
	lfd = recv_fd(sv[0]);
	close(sv[0]);
	if (lfd < 0) {
		/* The child said why. */
		while (waitpid(pid, &st, 0) == -1 && errno == EINTR)
			;
		return exit_status(st);
	}
	s.lfd = lfd;
	s.msg = xmalloc(PROTO_MAX_MSG);
	s.mr = xmalloc(sizeof *s.mr);
	s_test_procmem = getenv("DELIBERATE_TEST_HOOKS") != NULL &&
	    strcmp(getenv("DELIBERATE_TEST_HOOKS"), "1") == 0;
	s.out = xmalloc(OUT_SIZE);
	s.uid = getuid();

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = SIG_IGN;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGQUIT, &sa, NULL);
	sigaction(SIGPIPE, &sa, NULL);
	forward_pid = pid;
	sa.sa_handler = forward_signal;
	sa.sa_flags = SA_RESTART;
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);

	r = supervise(&s, pid);
	close(lfd);
	if (s.conn != -1)
		close(s.conn);
	free(s.msg);
	free(s.mr);
	free(s.out);
	return r;
}
