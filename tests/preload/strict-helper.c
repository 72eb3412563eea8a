/*
 * Helpers for t0506 (strict mode), built by the test with cc:
 *
 *   exec MARK		execv /bin/true MARK in a child (built -static, its
 *			exec is invisible to the LD_PRELOAD shim)
 *   storm N MARK	N children each exec /bin/true MARK-I while a
 *			thread floods them with SIGWINCH (handled, default
 *			ignore after exec); every exec must be seen once
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static pid_t	main_tid;

static void
on_sig(int sig)
{
	(void)sig;
}

static void *
storm(void *arg)
{
	(void)arg;
	for (;;)
		syscall(SYS_tgkill, getpid(), main_tid, SIGWINCH);
	return NULL;
}

static int
run(const char *mark)
{
	char	*argv[] = { (char *)"true", (char *)mark, NULL };
	pid_t	 pid;
	int	 st;

	if ((pid = fork()) == 0) {
		execv("/bin/true", argv);
		_exit(127);
	}
	waitpid(pid, &st, 0);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 1;
}

int
main(int argc, char **argv)
{
	struct sigaction	sa;
	pthread_t		t;
	char			mark[64];
	pid_t			pid;
	int			i, n, st, bad = 0;

	if (argc == 3 && strcmp(argv[1], "exec") == 0)
		return run(argv[2]);
	if (argc != 4 || strcmp(argv[1], "storm") != 0)
		return 2;
	n = atoi(argv[2]);
	for (i = 0; i < n; i++) {
		snprintf(mark, sizeof mark, "%s-%d", argv[3], i);
		if ((pid = fork()) == 0) {
			char *av[] = { (char *)"true", mark, NULL };

			memset(&sa, 0, sizeof sa);
			sa.sa_handler = on_sig;
			sa.sa_flags = SA_RESTART;
			sigaction(SIGWINCH, &sa, NULL);
			main_tid = (pid_t)syscall(SYS_gettid);
			pthread_create(&t, NULL, storm, NULL);
			usleep(1000);
			execv("/bin/true", av);
			_exit(127);
		}
		waitpid(pid, &st, 0);
		if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
			bad++;
	}
	return bad != 0;
}
