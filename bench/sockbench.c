/*
 * Socket benchmarks for bench/daemon.sh and bench/hooks.sh:
 *
 *   sockbench echo N             round trips to an in-process echo server
 *   sockbench check SOCK N       check round trips to the daemon
 *   sockbench ingest SOCK K M    K clients send M acked events each
 *   sockbench floor N            what one blocking wait costs the waiter
 *
 * Prints "median_us p99_us" for the latency modes, "entries_per_s" for
 * ingest, and "spawn rtt sleep" for floor (see wait_floor()).
 */
#include <sys/resource.h>
#include <sys/wait.h>

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static double
clock_us(clockid_t id)
{
	struct timespec	ts;

	clock_gettime(id, &ts);
	return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static double
now_us(void)
{
	return clock_us(CLOCK_MONOTONIC);
}

/* This process's CPU time. */
static double
cpu_us(void)
{
	return clock_us(CLOCK_PROCESS_CPUTIME_ID);
}

static int
dial(const char *path)
{
	struct sockaddr_un	sun;
	int			fd;

	memset(&sun, 0, sizeof sun);
	sun.sun_family = AF_UNIX;
	snprintf(sun.sun_path, sizeof sun.sun_path, "%s", path);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd == -1 || connect(fd, (struct sockaddr *)&sun, sizeof sun) == -1) {
		perror(path);
		exit(1);
	}
	return fd;
}

/* Send a line and read one reply line; the connection is per request. */
static double
round_trip(const char *path, const char *msg, size_t len)
{
	char	buf[65536];
	ssize_t	n;
	size_t	got = 0;
	double	t0 = now_us();
	int	fd = dial(path);

	if (write(fd, msg, len) != (ssize_t)len)
		exit(1);
	while ((n = read(fd, buf + got, sizeof buf - got)) > 0) {
		got += (size_t)n;
		if (memchr(buf, '\n', got) != NULL)
			break;
	}
	close(fd);
	return now_us() - t0;
}

static int
cmpd(const void *a, const void *b)
{
	double	x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static void
report(double *v, int n)
{
	qsort(v, (size_t)n, sizeof *v, cmpd);
	printf("%.1f %.1f\n", v[n / 2], v[(int)((double)n * 0.99)]);
}

static char	 echo_path[108];

static void *
echo_server(void *arg)
{
	struct sockaddr_un	sun;
	char			buf[65536];
	ssize_t			n;
	int			lfd, fd;

	(void)arg;
	memset(&sun, 0, sizeof sun);
	sun.sun_family = AF_UNIX;
	snprintf(sun.sun_path, sizeof sun.sun_path, "%s", echo_path);
	lfd = socket(AF_UNIX, SOCK_STREAM, 0);
	unlink(echo_path);
	if (bind(lfd, (struct sockaddr *)&sun, sizeof sun) == -1 ||
	    listen(lfd, 64) == -1)
		exit(1);
	for (;;) {
		if ((fd = accept(lfd, NULL, NULL)) == -1)
			continue;
		while ((n = read(fd, buf, sizeof buf)) > 0) {
			if (write(fd, buf, (size_t)n) != n)
				break;
			if (memchr(buf, '\n', (size_t)n) != NULL)
				break;
		}
		close(fd);
	}
	return NULL;
}

struct ingest {
	const char	*path;
	int		 m;
	int		 id;
};

static void *
ingest_client(void *arg)
{
	struct ingest	*in = arg;
	char		 msg[512], buf[4096];
	ssize_t		 n;
	int		 fd, i, len;

	fd = dial(in->path);
	for (i = 0; i < in->m; i++) {
		len = snprintf(msg, sizeof msg, "{\"v\":1,\"type\":\"event\","
		    "\"source\":\"cli\",\"line\":\"make -j4 target%d-%d\","
		    "\"cwd\":\"/tmp\"}\n", in->id, i);
		if (write(fd, msg, (size_t)len) != len)
			exit(1);
		/* Wait for the ack: a writer that cares about loss does. */
		while ((n = read(fd, buf, sizeof buf)) > 0)
			if (memchr(buf, '\n', (size_t)n) != NULL)
				break;
		if (n <= 0)
			exit(1);
	}
	close(fd);
	return NULL;
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
floor_echo(int fd)
{
	char	buf[512];
	ssize_t	n;

	while ((n = read(fd, buf, sizeof buf)) > 0) {
		if (write(fd, buf, (size_t)n) != n)
			break;
	}
	_exit(0);
}

/*
 * The floor under any hook that waits for an answer (bench/hooks.sh): in
 * CPU time, means over n iterations, printed as "spawn rtt sleep":
 *   spawn  fork + execve of /bin/true and the wait, in the CPU of this
 *          process and its children;
 *   rtt    one blocking round trip of 300 bytes to an echo process over a
 *          Unix socket pair (send, poll, recv), in this process's CPU;
 *   sleep  one nanosleep of 50 us, in this process's CPU.
 * On a virtual machine the sleep alone can cost tens of microseconds:
 * the time from the wake-up to running again is charged to the sleeper.
 */
static int
wait_floor(int n)
{
	char		*av[] = { (char *)"true", NULL };
	char		 buf[512];
	struct pollfd	 pfd;
	struct timespec	 nap = { 0, 50 * 1000 };
	double		 c0 = 0, k0, spawn, rtt, sleep;
	pid_t		 pid;
	int		 i, st, sv[2];

	if (n <= 0)
		return 2;
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) != 0)
		return 1;
	if ((pid = fork()) == 0) {
		close(sv[0]);
		floor_echo(sv[1]);
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

int
main(int argc, char **argv)
{
	pthread_t	 t, *ts;
	struct ingest	*ins;
	double		*v, t0;
	int		 n, i, k, m;
	const char	*echo = "{\"v\":1,\"type\":\"check\",\"line\":\"ls -la\"}\n";

	if (argc >= 3 && strcmp(argv[1], "echo") == 0) {
		n = atoi(argv[2]);
		snprintf(echo_path, sizeof echo_path, "/tmp/sockbench.%d",
		    (int)getpid());
		pthread_create(&t, NULL, echo_server, NULL);
		usleep(100000);
		v = calloc((size_t)n, sizeof *v);
		for (i = 0; i < n; i++)
			v[i] = round_trip(echo_path, echo, strlen(echo));
		report(v, n);
		unlink(echo_path);
		return 0;
	}
	if (argc >= 4 && strcmp(argv[1], "check") == 0) {
		n = atoi(argv[3]);
		v = calloc((size_t)n, sizeof *v);
		for (i = 0; i < n; i++)
			v[i] = round_trip(argv[2], echo, strlen(echo));
		report(v, n);
		return 0;
	}
	if (argc >= 5 && strcmp(argv[1], "ingest") == 0) {
		k = atoi(argv[3]);
		m = atoi(argv[4]);
		ts = calloc((size_t)k, sizeof *ts);
		ins = calloc((size_t)k, sizeof *ins);
		t0 = now_us();
		for (i = 0; i < k; i++) {
			ins[i].path = argv[2];
			ins[i].m = m;
			ins[i].id = i;
			pthread_create(&ts[i], NULL, ingest_client, &ins[i]);
		}
		for (i = 0; i < k; i++)
			pthread_join(ts[i], NULL);
		printf("%.0f\n", (double)k * m / ((now_us() - t0) / 1e6));
		return 0;
	}
	if (argc >= 3 && strcmp(argv[1], "floor") == 0)
		return wait_floor(atoi(argv[2]));
	fprintf(stderr, "usage: sockbench echo N | check SOCK N | "
	    "ingest SOCK K M | floor N\n");
	return 2;
}
