/*
 * The seccomp sandbox backend: PR_SET_NO_NEW_PRIVS, then a libseccomp
 * allow-list of the system calls the daemon needs after start-up.
 *
 * Three groups:
 *
 *	allowed	  what the event loop, the store, rule reloads (PCRE2 JIT
 *		  needs mmap/mprotect with PROT_EXEC), log rotation, gzip
 *		  and purge, libsodium and glibc use;
 *	EACCES	  harmless probes a library may make (ioctl, including
 *		  isatty()'s, which then says "not a terminal", prctl,
 *		  chown, setuid, pipe, inotify, kill ...): they fail and
 *		  the caller copes;
 *	the rest  the default action: kill the whole process with SIGSYS
 *		  (execve, execveat, fork/clone, ptrace, socket for any
 *		  family but AF_UNIX, mount, bpf, kexec, module loading,
 *		  process_vm_*, perf_event_open, keyctl, unshare ...).
 *
 * In trap mode the default action is SCMP_ACT_TRAP: a SIGSYS handler
 * writes "sandbox: trapped system call N (name)" to stderr with write(2)
 * and makes the call fail with ENOSYS, so one run of the test suite
 * lists everything missing.  In log mode the kernel allows and audits.
 */
#include "sandbox.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <ucontext.h>
#include <unistd.h>

#include <seccomp.h>

#include "xmalloc.h"

#define TRAP_NAMES	512

/* Allowed with any arguments. */
static const char *const allowed[] = {
	/* I/O on held descriptors. */
	"read", "write", "readv", "writev", "pread64", "pwrite64", "lseek",
	"close", "close_range", "dup", "dup2", "dup3", "fcntl",
	/* Files: store, rotation, gzip, purge, rule reloads, config. */
	"open", "openat", "openat2", "creat", "stat", "fstat", "lstat",
	"newfstatat", "statx", "access", "faccessat", "faccessat2",
	"readlink", "readlinkat", "getdents", "getdents64", "mkdir",
	"mkdirat", "rename", "renameat", "renameat2", "unlink", "unlinkat",
	"rmdir", "chmod", "fchmod", "fchmodat", "fsync", "fdatasync",
	"ftruncate", "flock", "fadvise64", "fallocate", "utimensat",
	"statfs", "fstatfs", "umask", "getcwd",
	/* The event loop and its descriptors. */
	"epoll_create", "epoll_create1", "epoll_ctl", "epoll_wait",
	"epoll_pwait", "epoll_pwait2", "poll", "ppoll", "select", "pselect6",
	"timerfd_create", "timerfd_settime", "timerfd_gettime", "signalfd",
	"signalfd4", "eventfd2",
	/* Sockets that already exist (only AF_UNIX ones can: see below). */
	"accept", "accept4", "bind", "listen", "connect", "getsockopt",
	"setsockopt", "getsockname", "getpeername", "recvfrom", "recvmsg",
	"recvmmsg", "sendto", "sendmsg", "shutdown",
	/* Time, identity, accounting. */
	"clock_gettime", "clock_getres", "gettimeofday", "time",
	"nanosleep", "clock_nanosleep", "getrusage", "sysinfo", "uname",
	"getpid", "gettid", "getppid", "getuid", "geteuid", "getgid",
	"getegid", "getgroups", "getrlimit", "sched_yield",
	"sched_getaffinity",
	/* Memory: malloc, PCRE2 JIT (PROT_EXEC), libsodium guard pages. */
	"brk", "mmap", "munmap", "mprotect", "mremap", "madvise", "mlock",
	"munlock", "futex", "getrandom",
	/* Signals and the way out. */
	"rt_sigaction", "rt_sigprocmask", "rt_sigreturn", "sigaltstack",
	"restart_syscall", "exit", "exit_group",
};

/* Harmless probes: they fail with EACCES. */
static const char *const denied[] = {
	"prctl", "chown", "fchown", "fchownat", "lchown", "setuid",
	"setgid", "setreuid", "setregid", "setresuid", "setresgid",
	"setfsuid", "setfsgid", "setgroups", "capset", "capget", "chdir",
	"fchdir", "chroot", "pipe", "pipe2", "memfd_create", "link",
	"linkat", "symlink", "symlinkat", "mknod", "mknodat",
	"inotify_init", "inotify_init1", "inotify_add_watch",
	"sched_setaffinity", "setpriority", "getpriority", "personality",
	"kill", "sync", "syncfs", "ioctl", "setrlimit", "mlockall", "munlockall",
};

static const char *trap_names[TRAP_NAMES];

static void
put(char *buf, size_t *len, size_t size, const char *s)
{
	while (*s != '\0' && *len < size)
		buf[(*len)++] = *s++;
}

/* SIGSYS in trap mode: say which call, make it fail with ENOSYS. */
static void
trap_handler(int sig, siginfo_t *si, void *arg)
{
	char		 buf[160], num[16];
	size_t		 len = 0, n = 0;
	unsigned int	 nr;
	int		 saved = errno;

	(void)sig;
	nr = (unsigned int)si->si_syscall;
	do {
		num[n++] = (char)('0' + nr % 10);
		nr /= 10;
	} while (nr != 0 && n < sizeof num);
	put(buf, &len, sizeof buf, "deliberated: sandbox: trapped system "
	    "call ");
	while (n > 0 && len < sizeof buf)
		buf[len++] = num[--n];
	put(buf, &len, sizeof buf, " (");
	put(buf, &len, sizeof buf, si->si_syscall >= 0 &&
	    si->si_syscall < TRAP_NAMES && trap_names[si->si_syscall] != NULL ?
	    trap_names[si->si_syscall] : "?");
	put(buf, &len, sizeof buf, ")\n");
	(void)!write(STDERR_FILENO, buf, len);
#if defined(__x86_64__)
	((ucontext_t *)arg)->uc_mcontext.gregs[REG_RAX] = -ENOSYS;
#elif defined(__aarch64__)
	((ucontext_t *)arg)->uc_mcontext.regs[0] = (unsigned long long)-ENOSYS;
#else
	(void)arg;
#endif
	errno = saved;
}

static int
trap_install(char **cause)
{
	struct sigaction	sa;
	sigset_t		set;
	int			i;

	for (i = 0; i < TRAP_NAMES; i++)
		trap_names[i] = seccomp_syscall_resolve_num_arch(
		    SCMP_ARCH_NATIVE, i);
	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = trap_handler;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGSYS, &sa, NULL) == -1) {
		xasprintf(cause, "cannot catch SIGSYS: %s", strerror(errno));
		return -errno;
	}
	sigemptyset(&set);
	sigaddset(&set, SIGSYS);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	return 0;
}

static int
add(scmp_filter_ctx ctx, uint32_t action, const char *name,
    unsigned int narg, const struct scmp_arg_cmp *arg, char **cause)
{
	int	nr, r;

	if ((nr = seccomp_syscall_resolve_name(name)) == __NR_SCMP_ERROR)
		return 0;	/* not on this architecture */
	r = seccomp_rule_add_array(ctx, action, nr, narg, arg);
	if (r < 0 && r != -EOPNOTSUPP) {
		xasprintf(cause, "cannot add a seccomp rule for %s: %s", name,
		    strerror(-r));
		return r;
	}
	return 0;
}

static int
rules_add(scmp_filter_ctx ctx, char **cause)
{
	struct scmp_arg_cmp	a;
	size_t			i;
	int			r;

	for (i = 0; i < sizeof allowed / sizeof allowed[0]; i++)
		if ((r = add(ctx, SCMP_ACT_ALLOW, allowed[i], 0, NULL,
		    cause)) != 0)
			return r;
	for (i = 0; i < sizeof denied / sizeof denied[0]; i++)
		if ((r = add(ctx, SCMP_ACT_ERRNO(EACCES), denied[i], 0, NULL,
		    cause)) != 0)
			return r;

	/* New sockets: AF_UNIX only (readiness, NSS to nscd/userdb). */
	a = SCMP_A0(SCMP_CMP_EQ, AF_UNIX);
	if ((r = add(ctx, SCMP_ACT_ALLOW, "socket", 1, &a, cause)) != 0 ||
	    (r = add(ctx, SCMP_ACT_ALLOW, "socketpair", 1, &a, cause)) != 0)
		return r;

	/* abort() signals itself; getrlimit through prlimit64 only reads. */
	a = SCMP_A0(SCMP_CMP_EQ, (scmp_datum_t)getpid());
	if ((r = add(ctx, SCMP_ACT_ALLOW, "tgkill", 1, &a, cause)) != 0)
		return r;
	a = SCMP_A2(SCMP_CMP_EQ, 0);
	if ((r = add(ctx, SCMP_ACT_ALLOW, "prlimit64", 1, &a, cause)) != 0)
		return r;
	return 0;
}

static int
seccomp_enter(enum sandbox_mode mode, char **cause)
{
	scmp_filter_ctx	 ctx;
	uint32_t	 def;
	int		 r;

	switch (mode) {
	case SANDBOX_TRAP:
		def = SCMP_ACT_TRAP;
		if ((r = trap_install(cause)) != 0)
			return r;
		break;
	case SANDBOX_LOG:
		def = SCMP_ACT_LOG;
		break;
	default:
		def = SCMP_ACT_KILL_PROCESS;
		break;
	}
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == -1) {
		r = -errno;
		xasprintf(cause, "cannot set no_new_privs: %s", strerror(-r));
		return r;
	}
	if ((ctx = seccomp_init(def)) == NULL) {
		xasprintf(cause, "cannot initialise seccomp");
		return -ENOMEM;
	}
	if ((r = rules_add(ctx, cause)) != 0)
		goto fail;
	if ((r = seccomp_load(ctx)) < 0) {
		xasprintf(cause, "cannot load the seccomp filter: %s",
		    strerror(-r));
		goto fail;
	}
	r = 0;
fail:
	seccomp_release(ctx);
	return r;
}

const struct sandbox_ops sandbox_seccomp_ops = { "seccomp", seccomp_enter };
