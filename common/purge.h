/*
 * The right to erasure: remove every entry (and archive, aggregate and
 * the statistics), the entries before a date, or one entry by id.  Files
 * are rewritten atomically (temp, fsync, rename), gzip archives by
 * decompressing, filtering and recompressing.  The work runs under the
 * lifecycle lock of rotate.h.
 *
 * Whoever owns metadata.json and the hashing key (the daemon when it
 * runs, else the CLI) applies the report to its store and, for "all",
 * rotates the key; purge_run touches neither.
 */
#ifndef PURGE_H
#define PURGE_H

#include <stdint.h>

#include "buf.h"

struct json_object;
struct store_stats;

enum purge_what {
	PURGE_ALL = 1,
	PURGE_BEFORE,
	PURGE_ENTRY,
};

struct purge_opts {
	const char	*data;		/* learning-data */
	enum purge_what	 what;
	int64_t		 before_ms;	/* PURGE_BEFORE */
	const char	*entry_id;	/* PURGE_ENTRY, a lower-case UUID */
	int		 wait;		/* block on the lock, else -EAGAIN */
};

struct purge_report {
	int64_t			 removed;	/* entries */
	int			 files;		/* files rewritten or removed */
	int			 aggregates;	/* aggregates removed */
	struct json_object	*per_file;	/* "current/D.ndjson" -> n */
	/* What the removed entries had added to the statistics. */
	struct json_object	*commands;	/* name -> count */
	int64_t			 corrections;
	double			 sum_ms;
};

/*
 * Purge.  Returns 0 with *ret filled (release it with
 * purge_report_release), -ENOENT when PURGE_ENTRY found no such entry,
 * -EAGAIN when the lock is busy and !wait, or -errno with *cause.
 */
int	purge_run(const struct purge_opts *, struct purge_report *ret,
	    char **cause);

void	purge_report_release(struct purge_report *);

/* The report as JSON (caller puts). */
struct json_object *purge_report_json(const struct purge_report *);

/* Take the removed entries out of the statistics (not for PURGE_ALL). */
void	purge_adjust_stats(struct store_stats *, const struct purge_report *);

/* Whether s looks like an entry id (a UUID). */
int	purge_valid_id(const char *s);

#endif
