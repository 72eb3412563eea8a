/*
 * The floor under any hook that waits for an answer, for bench/hooks.sh
 * (compiled by it): what one blocking wait costs the waiting process in
 * CPU time on this machine, next to what one spawn costs.
 *
 *	waitfloor N
 *
 * Prints "spawn rtt sleep", microseconds of CPU per iteration, each the
 * mean of N iterations:
 *   spawn  fork + execve of /bin/true and the wait, in the CPU of this
 *          process and its children;
 *   rtt    one blocking round trip of 300 bytes to an echo process over a
 *          Unix socket pair (send, poll, recv), in this process's CPU;
 *   sleep  one nanosleep of 50 us, in this process's CPU.
 * On a virtual machine the sleep alone can cost tens of microseconds:
 * the time from the wake-up to running again is charged to the sleeper.
 */
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static double
cpu_us(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static double
children_us(void)
{
	struct rusage	ru;

	getrusage(RUSAGE_CHILDREN, &ru);
	return (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e6 +
	    (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec);
}

static void
echo_loop(int fd)
{
	char	buf[512];
	ssize_t	n;

	while ((n = read(fd, buf, sizeof buf)) > 0) {
		if (write(fd, buf, (size_t)n) != n)
			break;
	}
	_exit(0);
}

int
main(int argc, char **argv)
{
	char		*av[] = { (char *)"true", NULL };
	char		 buf[512];
	struct pollfd	 pfd;
	struct timespec	 nap = { 0, 50 * 1000 };
	double		 c0 = 0, k0, spawn, rtt, sleep;
	pid_t		 pid;
	int		 i, n, st, sv[2];

	if (argc != 2 || (n = atoi(argv[1])) <= 0)
		return 2;
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) != 0)
		return 1;
	if ((pid = fork()) == 0) {
		close(sv[0]);
		echo_loop(sv[1]);
	}
	close(sv[1]);
	memset(buf, 'x', sizeof buf);
	pfd.fd = sv[0];
	pfd.events = POLLIN;
	for (i = -n / 10; i < n; i++) {		/* a tenth to warm up */
		if (i == 0)
			c0 = cpu_us();
		if (write(sv[0], buf, 300) != 300 || poll(&pfd, 1, -1) != 1 ||
		    read(sv[0], buf, sizeof buf) <= 0)
			return 1;
	}
	rtt = (cpu_us() - c0) / n;
	close(sv[0]);
	waitpid(pid, &st, 0);

	c0 = cpu_us();
	for (i = 0; i < n; i++)
		nanosleep(&nap, NULL);
	sleep = (cpu_us() - c0) / n;

	c0 = cpu_us();
	k0 = children_us();
	for (i = 0; i < n; i++) {
		if ((pid = fork()) == 0) {
			execve("/bin/true", av, environ);
			_exit(127);
		}
		if (pid < 0 || waitpid(pid, &st, 0) != pid)
			return 1;
	}
	spawn = (cpu_us() - c0 + children_us() - k0) / n;
	printf("%.1f %.1f %.1f\n", spawn, rtt, sleep);
	return 0;
}
