/*
 * The data lifecycle, writing side: every finished day's
 * current/YYYY-MM-DD.ndjson becomes archive/YYYY-MM-DD.ndjson.gz, the
 * weekly and monthly aggregates are recomputed, and data past its
 * retention is deleted.  docs/lifecycle.md describes the crash-safety
 * argument and the crash points.
 *
 * Every step that changes learning-data/ runs under an exclusive flock on
 * learning-data/.rotate.lock (rotation and purge alike).  Today's file is
 * never touched by rotation, so the daemon may keep appending to it.
 */
#ifndef ROTATE_H
#define ROTATE_H

#include <stddef.h>
#include <stdint.h>

#include "buf.h"

struct json_object;
struct store;

struct rotate_opts {
	const char	*data;		/* learning-data */
	int		 retention_days;
	int		 dry_run;
	int		 wait;		/* block on the lock, else -EAGAIN */
	int64_t		 now_ms;	/* 0: clock_now_ms() */
	/*
	 * When set, metadata.json is rewritten through it at the end; the
	 * daemon passes its own store so only one writer exists.
	 */
	struct store	*store;
	const char	*level;		/* anonymization level, for metadata */
	/* Called before each day is handled (may be NULL). */
	void		(*progress)(void *arg, const char *day, size_t i,
			    size_t n);
	void		*progress_arg;
};

struct rotate_report {
	int		 archived;	/* days compressed */
	int		 appended;	/* late lines merged into an archive */
	int		 recovered;	/* leftover sources verified, removed */
	int64_t		 entries;	/* lines written into archives */
	int64_t		 expired;	/* lines dropped (expiresAt passed) */
	int64_t		 bytes_in;
	int64_t		 bytes_out;
	int		 aggregates;	/* aggregate files written */
	int		 pruned;	/* detailed files deleted */
	int		 pruned_aggregates;
	int		 stale_temps;	/* leftover temp files removed */
	struct buf	 log;		/* one line per action */
};

/*
 * Rotate, aggregate and prune under opts->data.  Fills *ret (which the
 * caller releases with rotate_report_release) and returns 0, -EAGAIN when
 * another rotation holds the lock and opts->wait is 0, or another -errno
 * with *cause.  Progress already made is kept on failure.
 */
int	rotate_run(const struct rotate_opts *opts, struct rotate_report *ret,
	    char **cause);

void	rotate_report_release(struct rotate_report *);

/* The report as a JSON object (caller puts). */
struct json_object *rotate_report_json(const struct rotate_report *);

/*
 * Take the exclusive lifecycle lock on data/.rotate.lock.  Returns 0 and
 * the fd in *ret_fd, -EAGAIN when busy and !wait, or -errno.
 */
int	rotate_lock(const char *data, int wait, int *ret_fd);
void	rotate_unlock(int fd);

/*
 * Test hook: when $DELIBERATE_CRASH_AT equals step, _exit(99) at once.
 * The steps are listed in docs/lifecycle.md.
 */
void	rotate_crash_point(const char *step);

/*
 * A filter over the lines of a data file: return 1 to keep the line, 0
 * to drop it, or a negative errno to stop.
 */
typedef int (*rotate_filter_fn)(void *arg, const char *line, size_t len);

/*
 * Call fn on every line (without its newline) of path, plain or gzip
 * (detected from the content).  Returns 0, fn's negative value, or -errno
 * (-EBADMSG for a corrupt gzip stream).
 */
int	rotate_each_line(const char *path, rotate_filter_fn fn, void *arg);

/*
 * Rewrite path (a .ndjson or a .ndjson.gz) atomically with only the lines
 * fn keeps: temp file in the same directory, fsync, rename, fsync of the
 * directory.  A file left with no line is removed.  Sets *ret_kept and
 * *ret_dropped.  Returns 0 or -errno with *cause.
 */
int	rotate_rewrite(const char *path, rotate_filter_fn fn, void *arg,
	    int64_t *ret_kept, int64_t *ret_dropped, char **cause);

/*
 * Recompute the aggregates of the weeks and months containing the given
 * days (YYYY-MM-DD) from every entry on disk; an aggregate left with no
 * entry is removed.  Returns the number of files written, or -errno.
 */
int	rotate_aggregate(const char *data, char (*days)[11], size_t ndays,
	    char **cause);

#endif
