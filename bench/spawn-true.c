/*
 * The per-exec benchmark driver of bench/preload.sh (compiled by it):
 * fork + execve /bin/true N times, waiting for each, and print the
 * elapsed microseconds per exec.
 *
 *	spawn-true N
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

int
main(int argc, char **argv)
{
	char		*av[] = { (char *)"true", NULL };
	struct timespec	 a, b;
	pid_t		 pid;
	int		 i, n, st;

	if (argc != 2 || (n = atoi(argv[1])) <= 0)
		return 2;
	clock_gettime(CLOCK_MONOTONIC, &a);
	for (i = 0; i < n; i++) {
		if ((pid = fork()) == 0) {
			execve("/bin/true", av, environ);
			_exit(127);
		}
		if (pid == -1 || waitpid(pid, &st, 0) != pid ||
		    !WIFEXITED(st) || WEXITSTATUS(st) != 0)
			return 1;
	}
	clock_gettime(CLOCK_MONOTONIC, &b);
	printf("%.1f\n", ((double)(b.tv_sec - a.tv_sec) * 1e6 +
	    (double)(b.tv_nsec - a.tv_nsec) / 1e3) / n);
	return 0;
}
