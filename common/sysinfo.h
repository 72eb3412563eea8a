/*
 * Readings from /proc and the file system for DatasetEntry context and
 * performance fields.  None of these ever fails: missing data reads as 0.
 */
#ifndef SYSINFO_H
#define SYSINFO_H

#include <stddef.h>
#include <sys/types.h>

struct sysstate {
	double	load[3];
	double	mem_percent;
	double	disk_percent;
};

/* Load average, memory and disk use of the file system holding path. */
void	sysinfo_state(const char *path, struct sysstate *ret);

/* The command name of a process (/proc/PID/comm), "" when unknown. */
void	sysinfo_comm(pid_t pid, char *buf, size_t len);

/* This process's resident set in MiB. */
double	sysinfo_rss_mb(void);

/*
 * This process's CPU use in percent of one core since the previous call
 * (or since start on the first call).
 */
double	sysinfo_cpu_percent(void);

#endif
