/*
 * Local learning: overrides learned from the user's corrections.  A
 * command line is reduced to its shape (command names, flags and the kind
 * of each other word, see learn_shape()); corrections are counted per
 * shape in $DELIBERATE_HOME/learned.json, and a shape the user marked a
 * false positive learnThreshold times (or a false negative once) gets its
 * corrected risk at the next check.  Rules that are not overridable
 * (catastrophic ones) are never learned away.
 */
#ifndef LEARN_H
#define LEARN_H

#include <stddef.h>
#include <stdint.h>

#include "classify.h"

struct buf;

struct learned_shape {
	char		 id[32];	/* "learned:" + 16 hex */
	char		*shape;
	enum risk	 risk;		/* the corrected risk */
	int		 count;		/* corrections to that risk in a row */
	int64_t		 updated_ms;
};

struct learned {
	struct learned_shape	*v;
	size_t			 n;
	int			 threshold;	/* learnThreshold */
	const struct classifier	*cls;		/* for overridable, or NULL */
};

#define LEARN_MAX	4096	/* shapes kept; the oldest go first */

/* The shape of a command line (caller frees). */
char	*learn_shape(const char *line);

/*
 * Load path into a new table (a missing file is an empty table).
 * Returns 0 and sets *ret, or -errno with *cause.
 */
int	learn_load(const char *path, int threshold, struct learned **ret,
	    char **cause);

/* Write the table to path atomically, mode 0600.  Returns 0 or -errno. */
int	learn_save(const struct learned *, const char *path);

struct learned *learn_free(struct learned *);

/*
 * Count one correction of the command shape to risk.  Returns the shape's
 * record (valid until the table changes).
 */
const struct learned_shape *learn_count(struct learned *, const char *shape,
	    enum risk risk);

/* The record of a shape id or shape text, or NULL. */
const struct learned_shape *learn_find(const struct learned *,
	    const char *id_or_shape);

/* Remove the record with this id; returns 0 or -ENOENT. */
int	learn_forget(struct learned *, const char *id);

/*
 * The override for line, or NULL when none is in force for a verdict of
 * risk from_risk.
 */
const struct learned_shape *learn_lookup(const struct learned *,
	    const char *line, enum risk from_risk);

/*
 * Rewrite the verdict of line when a learned override applies: its risk,
 * confidence, rule and description, and a learned pattern appended to
 * v->classification.  Returns 1 if it did.  l may be NULL.
 */
int	learn_apply(struct learned *, const char *line, struct verdict *v);

/*
 * Append to out, space-separated, the command names of the learned
 * shapes whose corrected risk is not safe: a trigger-free line (see
 * classify_triggers()) can only take such an override if its shape names
 * one of them.  A name cut at the shape's 64-byte limit is appended as a
 * prefix entry, NAME*.  l may be NULL.  Returns the number of words.
 */
size_t	learn_triggers(const struct learned *, struct buf *out);

#endif
