/*
 * Reading the dataset: every DatasetEntry line of learning-data/archive/
 * (YYYY-MM-DD.ndjson.gz, read through zlib) and learning-data/current/
 * (YYYY-MM-DD.ndjson), file by file in date order and, within a file, in
 * append order, which is chronological.  Memory is constant: the reader
 * streams through one buffer of DATASET_LINE_MAX plus a read chunk.
 *
 * The reader holds a shared flock on learning-data/.rotate.lock from
 * dataset_open() to dataset_free(), so rotation and purge (exclusive)
 * never rewrite a file under it.  A day in both archive/ and current/
 * (late lines, or a rotation stopped before it removed its source) is
 * read from the archive and then from current/ minus the lines already
 * archived; only then does memory grow, by 8 bytes a line of that day.
 * Names that are not YYYY-MM-DD.ndjson(.gz) are ignored.
 *
 * Lines are handed out raw, without their newline, and stay valid until
 * the next call.  Parsing them is the caller's business; dataset_parse()
 * does it with json-c and runs the normalizer of the entry's
 * schemaVersion major, so a 2.0 adds one function to the table in
 * dataset.c and every reader sees 1.x-shaped entries.
 */
#ifndef DATASET_H
#define DATASET_H

#include <stddef.h>
#include <stdint.h>

struct json_object;
struct dataset;

#define DATASET_LINE_MAX	(1024 * 1024)	/* longer lines are skipped */
#define DATASET_NO_SINCE	INT64_MIN
#define DATASET_NO_UNTIL	INT64_MAX

/* Which entries to yield: since_ms <= timestamp <= until_ms. */
struct dataset_filter {
	int64_t		 since_ms;
	int64_t		 until_ms;
};

/* One line from dataset_next(). */
struct dataset_line {
	const char	*path;		/* the file it came from */
	size_t		 file;		/* index of that file, from 0 */
	int64_t		 lineno;	/* from 1; 1 for a .json document */
	const char	*data;		/* not NUL-terminated at len */
	size_t		 len;
	int64_t		 ts_ms;		/* INT64_MIN when not parsed */
};

/* Progress: bytes of (compressed) input consumed, of total. */
struct dataset_progress {
	uint64_t	 done;
	uint64_t	 total;
	size_t		 files;
	size_t		 nfiles;
};

/*
 * Open the dataset under datadir (learning-data).  filter may be NULL.
 * A missing archive/ or current/ is empty, not an error.  Returns 0 and
 * sets *ret, or -errno with *cause.
 */
int	dataset_open(const char *datadir, const struct dataset_filter *filter,
	    struct dataset **ret, char **cause);

/*
 * Open explicit paths (for validation): a .ndjson, .ndjson.gz or .json
 * file, or a directory searched (recursively, in name order, one level of
 * archive/ current/ ...) for .ndjson and .ndjson.gz files.  A .json file
 * is one document, which may span lines.  No filter applies.  Returns 0,
 * -EINVAL for a file of another type, or -errno when a path cannot be
 * read, with *cause naming it.
 */
int	dataset_open_paths(char *const *paths, size_t npaths,
	    struct dataset **ret, char **cause);

/*
 * The next line.  Returns 1 and fills *ret, 0 at the end, -EFBIG for a
 * line longer than DATASET_LINE_MAX (skipped; *ret names where, and the
 * next call goes on after it), or another -errno when a file cannot be
 * read (the reader moves to the next file).  *cause is set on errors.
 * With a filter, lines whose timestamp is out of range are not returned;
 * lines without a readable timestamp are returned only when unfiltered.
 */
int	dataset_next(struct dataset *ds, struct dataset_line *ret,
	    char **cause);

/* How far the reader is. */
void	dataset_progress(const struct dataset *ds,
	    struct dataset_progress *ret);

/* Close the reader; returns NULL. */
struct dataset *dataset_free(struct dataset *ds);

/*
 * Find the top-level "timestamp" of a raw entry line without parsing the
 * rest (nested keys of the same name are skipped).  Returns 0 and sets
 * *ret_ms, or -EINVAL.
 */
int	dataset_timestamp(const char *line, size_t len, int64_t *ret_ms);

/*
 * Parse one line into an entry normalized to the 1.x shape (caller puts
 * it).  Unknown fields are kept and missing optional ones stay missing.
 * Returns 0, -EINVAL for a line that is not a JSON object, or -ENOTSUP
 * for an unknown schemaVersion major, with *cause.
 */
int	dataset_parse(const char *line, size_t len, struct json_object **ret,
	    char **cause);

/*
 * Parse one line as strict JSON (UTF-8 checked) that must be an object,
 * without normalizing it.  Returns 0 or -EINVAL with *cause.
 */
int	dataset_parse_raw(const char *line, size_t len,
	    struct json_object **ret, char **cause);

/*
 * Normalize an entry in place to the 1.x shape, dispatching on the major
 * of its "schemaVersion".  Returns 0 or -ENOTSUP (missing or unknown
 * version) with *cause naming it.
 */
int	dataset_normalize(struct json_object *entry, char **cause);

/*
 * Fill *ret from the --since and --until arguments (either may be NULL):
 * YYYY-MM-DD (local midnight; for until, the end of that day) or an ISO
 * 8601 time.  Returns 0 or -EINVAL with *cause.
 */
int	dataset_filter_parse(const char *since, const char *until,
	    struct dataset_filter *ret, char **cause);

/*
 * Annotations (docs/annotations.md): the reader loads the annotation
 * records of the day it is reading (DAY.annotations.ndjson next to the day
 * file, and its .gz in archive/) into a small map, once per day.
 * dataset_annotated() says whether the entry of line l has any;
 * dataset_annotate() merges them into entry, parsed from l: the feedback
 * and correction objects and the outcome's exitStatus and durationMs go
 * into userDecision, the last record of a kind winning.  Returns 1 if
 * something was merged.
 */
int	dataset_annotated(struct dataset *ds, const struct dataset_line *l);
int	dataset_annotate(struct dataset *ds, const struct dataset_line *l,
	    struct json_object *entry);

/* The category of a patternId: its text before ':' or '.'. */
char	*dataset_category(const char *pattern_id);

#endif
