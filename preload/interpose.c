/*
 * The thirteen exec-family entry points of libdeliberate.so.  Each one
 * reports the call once (with the path resolved the way the real function
 * will resolve it), then calls the real function found with
 * dlsym(RTLD_NEXT) in the constructor, so return values and errno are
 * exactly the real function's.  In enforce mode a refused call returns
 * -1/EACCES (posix_spawn: EACCES; popen: NULL/EACCES) without running.
 *
 * glibc's exec functions, system() and popen() reach the kernel through
 * internal aliases that do not come back through these symbols, so one
 * call is one event.  A thread-local guard (initial-exec TLS: no
 * allocation, async-signal-safe) also silences any exec that another C
 * library would route back here from inside system, popen or posix_spawn.
 * The guard is never held across a real exec: in a vfork child it would
 * stay set in the parent.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "shim.h"

#define EXPORT		__attribute__((visibility("default")))
/* execl-family argv up to this many entries live on the stack. */
#define SMALL_ARGV	256

typedef int	(*execve_fn)(const char *, char *const [], char *const []);
typedef int	(*execv_fn)(const char *, char *const []);
typedef int	(*execveat_fn)(int, const char *, char *const [],
		    char *const [], int);
typedef int	(*fexecve_fn)(int, char *const [], char *const []);
typedef int	(*spawn_fn)(pid_t *, const char *,
		    const posix_spawn_file_actions_t *,
		    const posix_spawnattr_t *, char *const [], char *const []);
typedef int	(*system_fn)(const char *);
typedef FILE	*(*popen_fn)(const char *, const char *);

static struct {
	execve_fn	execve;
	execv_fn	execv;
	execv_fn	execvp;
	execve_fn	execvpe;
	fexecve_fn	fexecve;
	execveat_fn	execveat;
	spawn_fn	posix_spawn;
	spawn_fn	posix_spawnp;
	system_fn	system;
	popen_fn	popen;
} real;

static __thread int in_spawn __attribute__((tls_model("initial-exec")));

static void
resolve(void)
{
	real.execve = (execve_fn)dlsym(RTLD_NEXT, "execve");
	real.execv = (execv_fn)dlsym(RTLD_NEXT, "execv");
	real.execvp = (execv_fn)dlsym(RTLD_NEXT, "execvp");
	real.execvpe = (execve_fn)dlsym(RTLD_NEXT, "execvpe");
	real.fexecve = (fexecve_fn)dlsym(RTLD_NEXT, "fexecve");
	real.execveat = (execveat_fn)dlsym(RTLD_NEXT, "execveat");
	real.posix_spawn = (spawn_fn)dlsym(RTLD_NEXT, "posix_spawn");
	real.posix_spawnp = (spawn_fn)dlsym(RTLD_NEXT, "posix_spawnp");
	real.system = (system_fn)dlsym(RTLD_NEXT, "system");
	real.popen = (popen_fn)dlsym(RTLD_NEXT, "popen");
}

/*
 * Resolve the real functions before main, while dlsym is still safe to
 * call; a priority runs it before the constructors of later libraries.
 */
__attribute__((constructor(101))) static void
interpose_init(void)
{
	resolve();
}

/*
 * An exec from a constructor that ran before ours: resolve late (dlsym is
 * not async-signal-safe, but this is before main and before threads).
 */
static void
ensure(void *fn)
{
	if (fn == NULL)
		resolve();
}

static int
recording(void)
{
	return in_spawn == 0 && shim_active();
}

static int
denied(void)
{
	errno = EACCES;
	return -1;
}

/* An argv vector of the variadic execl family, on the stack or mmap'd. */
struct lvec {
	char	*small[SMALL_ARGV];
	char	**v;
	size_t	 bytes;		/* mapped size, 0 when on the stack */
};

static int
lvec_build(struct lvec *lv, const char *arg, va_list ap, char ***envp)
{
	va_list	 cp;
	size_t	 n = 1, i;

	va_copy(cp, ap);
	if (arg != NULL)
		while (va_arg(cp, char *) != NULL)
			n++;
	va_end(cp);
	lv->bytes = 0;
	lv->v = lv->small;
	if (n + 1 > SMALL_ARGV) {
		if (n > (size_t)INT_MAX) {
			errno = E2BIG;
			return -1;
		}
		lv->bytes = (n + 1) * sizeof *lv->v;
		lv->v = mmap(NULL, lv->bytes, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (lv->v == MAP_FAILED) {
			errno = ENOMEM;
			return -1;
		}
	}
	lv->v[0] = (char *)(uintptr_t)arg;
	for (i = 1; arg != NULL && i < n; i++)
		lv->v[i] = va_arg(ap, char *);
	lv->v[arg != NULL ? n : 0] = NULL;
	if (envp != NULL) {
		if (arg != NULL)
			(void)va_arg(ap, char *);
		*envp = va_arg(ap, char **);
	}
	return 0;
}

static void
lvec_free(struct lvec *lv)
{
	int	saved = errno;

	if (lv->bytes != 0)
		munmap(lv->v, lv->bytes);
	errno = saved;
}

/* Interposed execve(2). */
EXPORT int
execve(const char *path, char *const argv[], char *const envp[])
{
	ensure((void *)real.execve);
	if (recording() && shim_report(path, argv) == SHIM_DENY)
		return denied();
	return real.execve(path, argv, envp);
}

/* Interposed execv(3). */
EXPORT int
execv(const char *path, char *const argv[])
{
	ensure((void *)real.execv);
	if (recording() && shim_report(path, argv) == SHIM_DENY)
		return denied();
	return real.execv(path, argv);
}

/* Interposed execvp(3): one event with the PATH-resolved file. */
EXPORT int
execvp(const char *file, char *const argv[])
{
	char	buf[PATH_MAX];

	ensure((void *)real.execvp);
	if (recording() && shim_report(shim_resolve(file, buf, sizeof buf),
	    argv) == SHIM_DENY)
		return denied();
	return real.execvp(file, argv);
}

/* Interposed execvpe(3). */
EXPORT int
execvpe(const char *file, char *const argv[], char *const envp[])
{
	char	buf[PATH_MAX];

	ensure((void *)real.execvpe);
	if (recording() && shim_report(shim_resolve(file, buf, sizeof buf),
	    argv) == SHIM_DENY)
		return denied();
	return real.execvpe(file, argv, envp);
}

/* Interposed execl(3). */
EXPORT int
execl(const char *path, const char *arg, ...)
{
	struct lvec	lv;
	va_list		ap;
	int		r;

	ensure((void *)real.execve);
	va_start(ap, arg);
	r = lvec_build(&lv, arg, ap, NULL);
	va_end(ap);
	if (r == -1)
		return -1;
	if (recording() && shim_report(path, lv.v) == SHIM_DENY)
		r = denied();
	else
		r = real.execve(path, lv.v, environ);
	lvec_free(&lv);
	return r;
}

/* Interposed execle(3). */
EXPORT int
execle(const char *path, const char *arg, ...)
{
	struct lvec	  lv;
	va_list		  ap;
	char		**envp;
	int		  r;

	ensure((void *)real.execve);
	va_start(ap, arg);
	r = lvec_build(&lv, arg, ap, &envp);
	va_end(ap);
	if (r == -1)
		return -1;
	if (recording() && shim_report(path, lv.v) == SHIM_DENY)
		r = denied();
	else
		r = real.execve(path, lv.v, envp);
	lvec_free(&lv);
	return r;
}

/* Interposed execlp(3). */
EXPORT int
execlp(const char *file, const char *arg, ...)
{
	struct lvec	lv;
	va_list		ap;
	char		buf[PATH_MAX];
	int		r;

	ensure((void *)real.execvp);
	va_start(ap, arg);
	r = lvec_build(&lv, arg, ap, NULL);
	va_end(ap);
	if (r == -1)
		return -1;
	if (recording() && shim_report(shim_resolve(file, buf, sizeof buf),
	    lv.v) == SHIM_DENY)
		r = denied();
	else
		r = real.execvp(file, lv.v);
	lvec_free(&lv);
	return r;
}

/* Interposed fexecve(3): the path is what the fd points at. */
EXPORT int
fexecve(int fd, char *const argv[], char *const envp[])
{
	char	buf[PATH_MAX];

	ensure((void *)real.fexecve);
	if (recording() && shim_report(shim_fd_path(fd, buf, sizeof buf),
	    argv) == SHIM_DENY)
		return denied();
	return real.fexecve(fd, argv, envp);
}

static const char *
at_path(int dirfd, const char *path, int flags, char *buf, size_t size)
{
	char	dir[PATH_MAX];
	size_t	dl, pl;

	if (path == NULL)
		return NULL;
	if (path[0] == '/')
		return path;
	if (path[0] == '\0' && (flags & AT_EMPTY_PATH))
		return shim_fd_path(dirfd, buf, size);
	if (dirfd == AT_FDCWD) {
		if (getcwd(dir, sizeof dir) == NULL)
			return path;
	} else if (shim_fd_path(dirfd, dir, sizeof dir) == NULL)
		return path;
	dl = strlen(dir);
	pl = strlen(path);
	if (dl + 1 + pl + 1 > size)
		return path;
	memcpy(buf, dir, dl);
	buf[dl] = '/';
	memcpy(buf + dl + 1, path, pl + 1);
	return buf;
}

/* Interposed execveat(2). */
EXPORT int
execveat(int dirfd, const char *path, char *const argv[],
    char *const envp[], int flags)
{
	char	buf[PATH_MAX];

	ensure((void *)real.execveat);
	if (recording() && shim_report(at_path(dirfd, path, flags, buf,
	    sizeof buf), argv) == SHIM_DENY)
		return denied();
	if (real.execveat == NULL)
		return (int)syscall(SYS_execveat, dirfd, path, argv, envp,
		    flags);
	return real.execveat(dirfd, path, argv, envp, flags);
}

/* Interposed posix_spawn(3). */
EXPORT int
posix_spawn(pid_t *pid, const char *path,
    const posix_spawn_file_actions_t *fa, const posix_spawnattr_t *attr,
    char *const argv[], char *const envp[])
{
	int	r;

	ensure((void *)real.posix_spawn);
	if (recording() && shim_report(path, argv) == SHIM_DENY)
		return EACCES;
	in_spawn++;
	r = real.posix_spawn(pid, path, fa, attr, argv, envp);
	in_spawn--;
	return r;
}

/* Interposed posix_spawnp(3). */
EXPORT int
posix_spawnp(pid_t *pid, const char *file,
    const posix_spawn_file_actions_t *fa, const posix_spawnattr_t *attr,
    char *const argv[], char *const envp[])
{
	char	buf[PATH_MAX];
	int	r;

	ensure((void *)real.posix_spawnp);
	if (recording() && shim_report(shim_resolve(file, buf, sizeof buf),
	    argv) == SHIM_DENY)
		return EACCES;
	in_spawn++;
	r = real.posix_spawnp(pid, file, fa, attr, argv, envp);
	in_spawn--;
	return r;
}

/* Interposed system(3): one event for "sh -c COMMAND". */
EXPORT int
system(const char *command)
{
	char	*argv[4], sh[] = "sh", dashc[] = "-c";
	int	 r;

	ensure((void *)real.system);
	/* system(NULL) only asks whether a shell exists. */
	if (command != NULL && recording()) {
		argv[0] = sh;
		argv[1] = dashc;
		argv[2] = (char *)(uintptr_t)command;
		argv[3] = NULL;
		if (shim_report("/bin/sh", argv) == SHIM_DENY)
			return denied();
	}
	in_spawn++;
	r = real.system(command);
	in_spawn--;
	return r;
}

static int
popen_mode_ok(const char *type)
{
	if (type == NULL || (type[0] != 'r' && type[0] != 'w'))
		return 0;
	for (type++; *type != '\0'; type++)
		if (*type != 'e')
			return 0;
	return 1;
}

/* Interposed popen(3): one event for "sh -c COMMAND". */
EXPORT FILE *
popen(const char *command, const char *type)
{
	char	*argv[4], sh[] = "sh", dashc[] = "-c";
	FILE	*f;

	ensure((void *)real.popen);
	/* An invalid mode fails with EINVAL before any exec. */
	if (command != NULL && popen_mode_ok(type) && recording()) {
		argv[0] = sh;
		argv[1] = dashc;
		argv[2] = (char *)(uintptr_t)command;
		argv[3] = NULL;
		if (shim_report("/bin/sh", argv) == SHIM_DENY) {
			errno = EACCES;
			return NULL;
		}
	}
	in_spawn++;
	f = real.popen(command, type);
	in_spawn--;
	return f;
}
