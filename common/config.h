/*
 * The user's configuration, $DELIBERATE_HOME/config: "key = value" lines,
 * '#' comments.  See man/deliberate.conf.5 for every key.
 */
#ifndef CONFIG_H
#define CONFIG_H

#include <stddef.h>

#include "redact.h"

struct buf;

#define CONFIG_MAX_ANALYZERS	16

enum mode {
	MODE_MONITOR = 0,	/* record only */
	MODE_PROMPT = 1,	/* ask before dangerous commands */
	MODE_ENFORCE = 2,	/* refuse dangerous commands */
};

struct config {
	int		 retention_days;
	enum anon_level	 level;
	int		 collection_consent;
	int		 sharing_consent;
	int		 improvement_consent;
	enum mode	 mode;
	int		 prompt_timeout;	/* seconds */
	int		 moderate_note;		/* print a note on moderate */
	int		 enforce_timeout_ms;	/* shim verdict budget */
	int		 fail_open;		/* allow when no verdict */
	char		**exclude;		/* program names not recorded */
	size_t		 nexclude;
	char		**analyzers;		/* "/path [args]", repeatable */
	size_t		 nanalyzers;
	int		 analyzer_timeout_ms;	/* AI analysis budget */
	int		 learn_threshold;	/* corrections to learn */
};

/* Defaults for every key. */
void		 config_init(struct config *);
void		 config_release(struct config *);

/*
 * Read path into cfg (over the defaults already there).  A missing file
 * is not an error.  Each bad line is appended to errors (may be NULL) as
 * "path:line: reason\n" and skipped.  Returns the number of bad lines, or
 * a negative errno when the file cannot be read.
 */
int		 config_load(const char *path, struct config *cfg,
		    struct buf *errors);

/* Set one key from a string; returns 0 or -EINVAL with *cause. */
int		 config_set(struct config *, const char *key,
		    const char *value, char **cause);

const char	*mode_name(enum mode);
int		 mode_parse(const char *, enum mode *ret_mode);

/* Whether a program name is excluded from capture. */
int		 config_excluded(const struct config *, const char *name);

#endif
