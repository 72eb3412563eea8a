/*
 * A test driver for libdeliberate.so, built by the t05* scripts with cc
 * (not by the Makefile).  Each mode exercises one property of the shim:
 *
 *   all TAG		the 13 exec-family functions, once each; every exec
 *			runs /bin/true with "TAG-FUNCTION" (system and popen
 *			run the builtin ": TAG-FUNCTION", so /bin/sh execs
 *			nothing)
 *   errno DIR		failed execs: prints "name return errno" lines, which
 *			must be identical with and without the shim
 *   threads N TAG	N threads fork and exec /bin/true TAG-I at once
 *   vfork TAG		vfork + execv, and a vfork child calling execvp
 *   fds N		N failed execs in this process, then re-exec self as
 *			"fdlist"; prints the socket fds that survive
 *   fdlist		print every open fd that is a socket
 *   huge BYTES		exec /bin/true with about BYTES of arguments
 *   odd		degenerate argv: NULL argv, empty strings, newlines,
 *			control characters and invalid UTF-8
 *   loop N PATH	fork + execv PATH N times (the daemon-down tests)
 *   execvp FILE ARGS	execvp(FILE, ARGS) in this process
 *   dlopen SHIM TAG	load the shim with dlopen and exec /bin/true TAG in
 *			a child through the shim's execv (the AT_SECURE test:
 *			LD_PRELOAD is ignored for setuid programs); prints
 *			"secure N" with getauxval(AT_SECURE)
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define TRUE_BIN	"/bin/true"

static char	tag_buf[64][128];

static char *
tag(int i, const char *t, const char *fn)
{
	snprintf(tag_buf[i], sizeof tag_buf[i], "%s-%s", t, fn);
	return tag_buf[i];
}

static int
wait_child(pid_t pid)
{
	int	st;

	while (waitpid(pid, &st, 0) == -1)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static int
mode_all(const char *t)
{
	static const char *const fns[] = { "execve", "execv", "execvp",
	    "execvpe", "execl", "execlp", "execle", "fexecve", "execveat" };
	char		*argv[3], cmd[256], buf[64];
	size_t		 i;
	pid_t		 pid;
	FILE		*f;
	int		 fd, failed = 0;

	for (i = 0; i < sizeof fns / sizeof fns[0]; i++) {
		argv[0] = (char *)"true";
		argv[1] = tag((int)i, t, fns[i]);
		argv[2] = NULL;
		if ((pid = fork()) == 0) {
			switch (i) {
			case 0: execve(TRUE_BIN, argv, environ); break;
			case 1: execv(TRUE_BIN, argv); break;
			case 2: execvp("true", argv); break;
			case 3: execvpe("true", argv, environ); break;
			case 4: execl(TRUE_BIN, "true", argv[1], (char *)NULL);
				break;
			case 5: execlp("true", "true", argv[1], (char *)NULL);
				break;
			case 6: execle(TRUE_BIN, "true", argv[1], (char *)NULL,
				    environ);
				break;
			case 7:
				fd = open(TRUE_BIN, O_RDONLY | O_CLOEXEC);
				fexecve(fd, argv, environ);
				break;
			case 8: execveat(AT_FDCWD, TRUE_BIN, argv, environ, 0);
				break;
			}
			_exit(127);
		}
		if (wait_child(pid) != 0) {
			fprintf(stderr, "%s failed\n", fns[i]);
			failed = 1;
		}
	}
	argv[0] = (char *)"true";
	argv[1] = tag(20, t, "posix_spawn");
	argv[2] = NULL;
	if (posix_spawn(&pid, TRUE_BIN, NULL, NULL, argv, environ) != 0 ||
	    wait_child(pid) != 0)
		failed = 1;
	argv[1] = tag(21, t, "posix_spawnp");
	if (posix_spawnp(&pid, "true", NULL, NULL, argv, environ) != 0 ||
	    wait_child(pid) != 0)
		failed = 1;
	snprintf(cmd, sizeof cmd, ": %s-system", t);
	if (system(cmd) != 0)
		failed = 1;
	snprintf(cmd, sizeof cmd, ": %s-popen; echo popen-ok", t);
	if ((f = popen(cmd, "r")) == NULL ||
	    fgets(buf, sizeof buf, f) == NULL ||
	    strcmp(buf, "popen-ok\n") != 0 || pclose(f) != 0)
		failed = 1;
	return failed;
}

static void
show(const char *name, int r, int e)
{
	printf("%s %d %s\n", name, r, r == -1 || r > 0 ? strerror(e) : "-");
}

/* Run one exec variant in a child; the child reports rc and errno. */
static void
child_exec(const char *name, int which, const char *path, char *const *argv)
{
	int	p[2], r, e;
	pid_t	pid;
	char	buf[64];
	ssize_t	n;

	if (pipe(p) == -1)
		exit(2);
	if ((pid = fork()) == 0) {
		close(p[0]);
		switch (which) {
		case 0: r = execve(path, argv, environ); break;
		case 1: r = execv(path, argv); break;
		case 2: r = execvp(path, argv); break;
		default: r = execl(path, path, (char *)NULL); break;
		}
		e = errno;
		n = snprintf(buf, sizeof buf, "%d %d", r, e);
		(void)!write(p[1], buf, (size_t)n);
		_exit(0);
	}
	close(p[1]);
	n = read(p[0], buf, sizeof buf - 1);
	close(p[0]);
	wait_child(pid);
	buf[n > 0 ? n : 0] = '\0';
	if (sscanf(buf, "%d %d", &r, &e) != 2) {
		printf("%s exec-succeeded\n", name);
		return;
	}
	show(name, r, e);
}

static int
mode_errno(const char *dir)
{
	char	 noexec[512], script[512], path[2048], *argv[2];
	pid_t	 pid;
	int	 r, fd;

	snprintf(noexec, sizeof noexec, "%s/noexec", dir);
	snprintf(script, sizeof script, "%s/script", dir);
	fd = open(noexec, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	(void)!write(fd, "#!/bin/sh\n", 10);
	close(fd);
	fd = open(script, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0755);
	(void)!write(fd, "\x7f" "ELF-not-really", 15);
	close(fd);
	argv[0] = (char *)"x";
	argv[1] = NULL;

	child_exec("execve-enoent", 0, "/nonexistent/x", argv);
	child_exec("execve-eacces", 0, noexec, argv);
	child_exec("execve-enoexec", 0, script, argv);
	child_exec("execv-enotdir", 1, "/etc/passwd/x", argv);
	child_exec("execve-dir", 0, "/", argv);
	child_exec("execl-enoent", 3, "/nonexistent/y", argv);
	child_exec("execvp-enoent", 2, "no-such-command-dlb", argv);
	/* EACCES in the middle of PATH, then ENOENT: execvp says EACCES. */
	snprintf(path, sizeof path, "/nonexistent:%s:/also-nonexistent", dir);
	setenv("PATH", path, 1);
	child_exec("execvp-eacces-mid-path", 2, "noexec", argv);
	setenv("PATH", "/usr/bin:/bin", 1);
	r = posix_spawn(&pid, "/nonexistent/z", NULL, NULL, argv, environ);
	show("posix_spawn-enoent", r, r);
	if (r == 0)
		wait_child(pid);
	r = posix_spawnp(&pid, "no-such-command-dlb", NULL, NULL, argv,
	    environ);
	show("posix_spawnp-enoent", r, r);
	if (r == 0)
		wait_child(pid);
	errno = 0;
	r = system("exit 3");
	printf("system-exit3 %d %d\n", r, errno);
	errno = 1234;
	r = system(NULL);
	printf("system-null %d %d\n", r, errno);
	errno = 0;
	printf("popen-bad-mode %s %d\n", popen(":", "x") == NULL ? "NULL" :
	    "FILE", errno);
	errno = 4321;
	r = posix_spawn(&pid, TRUE_BIN, NULL, NULL, argv, environ);
	printf("posix_spawn-ok %d errno-kept=%d\n", r, errno == 4321);
	if (r == 0)
		wait_child(pid);
	return 0;
}

struct thr {
	int		 i;
	const char	*tag;
	int		 rc;
};

static void *
thr_run(void *arg)
{
	struct thr	*t = arg;
	char		 mark[64], *argv[3];
	pid_t		 pid;

	snprintf(mark, sizeof mark, "%s-%d", t->tag, t->i);
	argv[0] = (char *)"true";
	argv[1] = mark;
	argv[2] = NULL;
	if ((pid = fork()) == 0) {
		execv(TRUE_BIN, argv);
		_exit(127);
	}
	t->rc = pid == -1 ? -1 : wait_child(pid);
	return NULL;
}

static int
mode_threads(int n, const char *t)
{
	pthread_t	*tid = calloc((size_t)n, sizeof *tid);
	struct thr	*a = calloc((size_t)n, sizeof *a);
	int		 i, bad = 0;

	for (i = 0; i < n; i++) {
		a[i].i = i;
		a[i].tag = t;
		if (pthread_create(&tid[i], NULL, thr_run, &a[i]) != 0)
			return 2;
	}
	for (i = 0; i < n; i++) {
		pthread_join(tid[i], NULL);
		if (a[i].rc != 0)
			bad++;
	}
	free(tid);
	free(a);
	return bad != 0;
}

static int
mode_vfork(const char *t)
{
	char	*argv[3];
	pid_t	 pid;
	int	 bad = 0;

	argv[0] = (char *)"true";
	argv[1] = tag(0, t, "vfork-execv");
	argv[2] = NULL;
	if ((pid = vfork()) == 0) {
		execv(TRUE_BIN, argv);
		_exit(127);
	}
	bad |= wait_child(pid) != 0;
	argv[1] = tag(1, t, "vfork-execvp");
	if ((pid = vfork()) == 0) {
		execvp("true", argv);
		_exit(127);
	}
	bad |= wait_child(pid) != 0;
	/* A failed exec in a vfork child, then the parent execs again. */
	argv[1] = tag(2, t, "vfork-fail");
	if ((pid = vfork()) == 0) {
		execv("/nonexistent/true", argv);
		_exit(42);
	}
	bad |= wait_child(pid) != 42;
	argv[1] = tag(3, t, "after-vfork");
	if ((pid = fork()) == 0) {
		execv(TRUE_BIN, argv);
		_exit(127);
	}
	bad |= wait_child(pid) != 0;
	return bad;
}

static int
count_fds(void)
{
	char	p[64];
	int	fd, n = 0;

	for (fd = 0; fd < 1024; fd++) {
		snprintf(p, sizeof p, "/proc/self/fd/%d", fd);
		if (access(p, F_OK) == 0)
			n++;
	}
	return n;
}

static int
mode_fdlist(void)
{
	char	p[64], l[256];
	ssize_t	n;
	int	fd, socks = 0;

	for (fd = 0; fd < 1024; fd++) {
		snprintf(p, sizeof p, "/proc/self/fd/%d", fd);
		if ((n = readlink(p, l, sizeof l - 1)) <= 0)
			continue;
		l[n] = '\0';
		if (strncmp(l, "socket:", 7) == 0) {
			printf("leaked fd %d: %s\n", fd, l);
			socks++;
		}
	}
	printf("sockets %d\n", socks);
	return socks != 0;
}

static int
mode_fds(int n, const char *self)
{
	char	*argv[3];
	int	 before, after, i;

	argv[0] = (char *)"x";
	argv[1] = NULL;
	before = count_fds();
	for (i = 0; i < n; i++)
		execv("/nonexistent/x", argv);
	after = count_fds();
	printf("fds before %d after %d\n", before, after);
	fflush(stdout);
	argv[0] = (char *)self;
	argv[1] = (char *)"fdlist";
	argv[2] = NULL;
	execv("/proc/self/exe", argv);
	return 1;
}

static int
mode_huge(long bytes)
{
	long	 per = 1000, n = bytes / per, i;
	char	**argv = calloc((size_t)n + 3, sizeof *argv);
	char	*arg = malloc((size_t)per + 1);
	pid_t	 pid;

	memset(arg, 'a', (size_t)per);
	arg[per] = '\0';
	argv[0] = (char *)"true";
	argv[1] = (char *)"huge-mark";
	for (i = 0; i < n; i++)
		argv[i + 2] = arg;
	argv[n + 2] = NULL;
	if ((pid = fork()) == 0) {
		execv(TRUE_BIN, argv);
		printf("execv: %s\n", strerror(errno));
		_exit(127);
	}
	return wait_child(pid);
}

static int
mode_odd(void)
{
	char	*argv[8], **volatile nullv = NULL;
	pid_t	 pid;
	int	 bad = 0;

	if ((pid = fork()) == 0) {
		execve(TRUE_BIN, nullv, nullv);
		_exit(127);
	}
	bad |= wait_child(pid) != 0;
	argv[0] = NULL;
	if ((pid = fork()) == 0) {
		execv(TRUE_BIN, argv);
		_exit(127);
	}
	bad |= wait_child(pid) != 0;
	argv[0] = (char *)"true";
	argv[1] = (char *)"odd-mark";
	argv[2] = (char *)"";
	argv[3] = (char *)"line1\nline2\t\"quoted\" back\\slash";
	argv[4] = (char *)"bad-utf8-\xff\xfe-\xc3(-\xe2\x82-\xed\xa0\x80-ok-\xc3\xa9";
	argv[5] = (char *)"ctl-\x01\x1b[31m-\x7f";
	argv[6] = (char *)"emoji-\xf0\x9f\x98\x80";
	argv[7] = NULL;
	if ((pid = fork()) == 0) {
		execv(TRUE_BIN, argv);
		_exit(127);
	}
	bad |= wait_child(pid) != 0;
	return bad;
}

static int
mode_loop(int n, const char *path)
{
	char	*argv[3];
	pid_t	 pid;
	int	 i, bad = 0;

	argv[0] = (char *)path;
	argv[1] = (char *)"loop-mark";
	argv[2] = NULL;
	for (i = 0; i < n; i++) {
		if ((pid = fork()) == 0) {
			execv(path, argv);
			_exit(127);
		}
		if (wait_child(pid) != 0)
			bad++;
	}
	return bad != 0;
}

static int
mode_dlopen(const char *shim, const char *t)
{
	int	(*fn)(const char *, char *const []);
	void	*h;
	char	*argv[3];
	pid_t	 pid;

	printf("secure %lu\n", getauxval(AT_SECURE));
	if ((h = dlopen(shim, RTLD_NOW | RTLD_LOCAL)) == NULL) {
		printf("dlopen: %s\n", dlerror());
		return 1;
	}
	*(void **)&fn = dlsym(h, "execv");
	argv[0] = (char *)"true";
	argv[1] = (char *)t;
	argv[2] = NULL;
	if ((pid = fork()) == 0) {
		fn(TRUE_BIN, argv);
		_exit(127);
	}
	return wait_child(pid);
}

int
main(int argc, char **argv)
{
	if (argc < 2)
		return 2;
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (strcmp(argv[1], "all") == 0 && argc == 3)
		return mode_all(argv[2]);
	if (strcmp(argv[1], "errno") == 0 && argc == 3)
		return mode_errno(argv[2]);
	if (strcmp(argv[1], "threads") == 0 && argc == 4)
		return mode_threads(atoi(argv[2]), argv[3]);
	if (strcmp(argv[1], "vfork") == 0 && argc == 3)
		return mode_vfork(argv[2]);
	if (strcmp(argv[1], "fds") == 0 && argc == 3)
		return mode_fds(atoi(argv[2]), argv[0]);
	if (strcmp(argv[1], "fdlist") == 0)
		return mode_fdlist();
	if (strcmp(argv[1], "huge") == 0 && argc == 3)
		return mode_huge(atol(argv[2]));
	if (strcmp(argv[1], "odd") == 0)
		return mode_odd();
	if (strcmp(argv[1], "execvp") == 0 && argc >= 4) {
		execvp(argv[2], argv + 3);
		perror("execvp");
		return 127;
	}
	if (strcmp(argv[1], "dlopen") == 0 && argc == 4)
		return mode_dlopen(argv[2], argv[3]);
	if (strcmp(argv[1], "loop") == 0 && argc == 4)
		return mode_loop(atoi(argv[2]), argv[3]);
	return 2;
}
