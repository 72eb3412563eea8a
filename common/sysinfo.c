#include "sysinfo.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "clock.h"

static ssize_t
read_small(const char *path, char *buf, size_t len)
{
	int	fd;
	ssize_t	n;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1)
		return -1;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	return n;
}

/* Sample load, memory and disk. */
void
sysinfo_state(const char *path, struct sysstate *ret)
{
	char		 buf[4096], *p;
	unsigned long	 total = 0, avail = 0;
	struct statvfs	 sv;

	memset(ret, 0, sizeof *ret);
	if (read_small("/proc/loadavg", buf, sizeof buf) > 0)
		sscanf(buf, "%lf %lf %lf", &ret->load[0], &ret->load[1],
		    &ret->load[2]);
	if (read_small("/proc/meminfo", buf, sizeof buf) > 0) {
		if ((p = strstr(buf, "MemTotal:")) != NULL)
			total = strtoul(p + 9, NULL, 10);
		if ((p = strstr(buf, "MemAvailable:")) != NULL)
			avail = strtoul(p + 13, NULL, 10);
		if (total > 0 && avail <= total)
			ret->mem_percent = 100.0 * (double)(total - avail) /
			    (double)total;
	}
	if (path != NULL && statvfs(path, &sv) == 0 && sv.f_blocks > 0)
		ret->disk_percent = 100.0 * (double)(sv.f_blocks -
		    sv.f_bfree) / (double)(sv.f_blocks - sv.f_bfree +
		    sv.f_bavail);
}

/* A process's command name. */
void
sysinfo_comm(pid_t pid, char *buf, size_t len)
{
	char	path[64], tmp[64];
	ssize_t	n;

	buf[0] = '\0';
	if (pid <= 0 || len == 0)
		return;
	snprintf(path, sizeof path, "/proc/%ld/comm", (long)pid);
	if ((n = read_small(path, tmp, sizeof tmp)) <= 0)
		return;
	while (n > 0 && tmp[n - 1] == '\n')
		tmp[--n] = '\0';
	snprintf(buf, len, "%s", tmp);
}

/* Resident set size in MiB. */
double
sysinfo_rss_mb(void)
{
	char	buf[256];
	long	size, rss;

	if (read_small("/proc/self/statm", buf, sizeof buf) <= 0 ||
	    sscanf(buf, "%ld %ld", &size, &rss) != 2)
		return 0;
	return (double)rss * (double)sysconf(_SC_PAGESIZE) / 1048576.0;
}

/* CPU percent since the previous call. */
double
sysinfo_cpu_percent(void)
{
	static double	 last_cpu, last_wall;
	static int	 init;
	struct rusage	 ru;
	double		 cpu, wall, pct = 0;

	getrusage(RUSAGE_SELF, &ru);
	cpu = (double)ru.ru_utime.tv_sec * 1000.0 +
	    (double)ru.ru_utime.tv_usec / 1000.0 +
	    (double)ru.ru_stime.tv_sec * 1000.0 +
	    (double)ru.ru_stime.tv_usec / 1000.0;
	wall = clock_mono_ms();
	if (init && wall - last_wall > 0)
		pct = 100.0 * (cpu - last_cpu) / (wall - last_wall);
	if (!init || wall - last_wall >= 1000) {
		last_cpu = cpu;
		last_wall = wall;
		init = 1;
	}
	return pct < 0 ? 0 : pct;
}
