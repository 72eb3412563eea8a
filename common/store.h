/*
 * The dataset on disk: learning-data/current/YYYY-MM-DD.ndjson files that
 * only the daemon appends to, and learning-data/metadata.json.
 *
 * Each entry is written with one write() of the whole line under
 * O_APPEND, so readers never see a partial line; a short write (ENOSPC)
 * is cut back with ftruncate() so no torn line stays behind.
 */
#ifndef STORE_H
#define STORE_H

#include <stddef.h>
#include <stdint.h>

struct json_object;

struct store_stats {
	int64_t		 total;		/* entries ever written (metadata) */
	int64_t		 corrections;
	double		 sum_ms;	/* processing time of those entries */
	int64_t		 created_ms;
	struct json_object *commands;	/* name -> count */
};

struct store {
	char			*data;	/* learning-data */
	char			*current;
	int			 fd;	/* today's file, or -1 */
	char			 day[11];
	int64_t			 today;	/* lines in today's file */
	struct store_stats	 st;
	int			 dirty;	/* metadata needs writing */
	int			 repaired; /* torn lines cut at open */
};

/*
 * Open the store under datadir, creating the directories 0700, and load
 * the statistics from metadata.json (or recount the files when it is
 * missing or unreadable).  Returns 0 or -errno with *cause.
 */
int	store_open(struct store *, const char *datadir, char **cause);
void	store_close(struct store *);

/*
 * Cut a torn last line off every .ndjson file of dir (moving it to
 * datadir/quarantine/), so no partial line stays in the dataset.  Returns
 * the number of files repaired.
 */
int	store_repair(const char *dir, const char *datadir);

/*
 * Append one line (without its newline) to the file of day.  Returns 0,
 * or a negative errno (-ENOSPC ...) with nothing written.
 */
int	store_append(struct store *, const char *day, const char *line,
	    size_t len);

/*
 * Append one annotation line (without its newline) to
 * current/DAY.annotations.ndjson (0600, one write() under O_APPEND, a
 * short write cut back).  Returns 0 or a negative errno.
 */
int	store_annotate(struct store *, const char *day, const char *line,
	    size_t len);

/* Count an appended entry in the statistics. */
void	store_count(struct store *, const char *command, double total_ms,
	    int correction);

/*
 * Write metadata.json atomically (temp file, fsync, rename), with the
 * given anonymization level and retention.  Returns 0 or -errno.
 */
int	store_write_metadata(struct store *, const char *level,
	    int retention_days);

/* Whether the file of day already holds an entry with this id. */
int	store_has_id(struct store *, const char *day, const char *id);

/* Count the lines of a file; -errno on failure. */
int64_t	store_count_lines(const char *path);

/* Forget the open file, so the next append reopens (after a purge). */
void	store_reopen(struct store *);

#endif
