/*
 * The risk classifier.  A classifier is compiled once from
 * risk-rules/NAME.rules; it keeps a verdict cache keyed on the normalized
 * command, so it is used by one thread at a time.
 */
#ifndef CLASSIFY_H
#define CLASSIFY_H

#include <stddef.h>

struct buf;
struct classifier;
struct json_object;

enum risk {
	RISK_SAFE = 0,
	RISK_MODERATE = 1,
	RISK_DANGEROUS = 2,
};

/* What the caller knows about where the command runs. */
struct classify_ctx {
	const char	*shell;		/* "bash", "zsh", "sh" or NULL */
	int		 interactive;
	int		 tty;		/* stdin is a terminal */
	const char	*parent;	/* parent process name or NULL */
	int		 exe_static;	/* the daemon found the executable is
					   statically linked (the preload
					   shim cannot see its children) */
};

struct verdict {
	enum risk		 risk;
	double			 confidence;	/* 0..1 */
	const char		*rule_id;	/* the deciding rule, or NULL */
	const char		*rule_name;
	const char		*description;
	const char		*alternative;
	int			 bypass;	/* a bypass technique was seen */
	int			 cache_hit;
	int			 fast_path;
	double			 classify_ms;	/* stage times */
	double			 bypass_ms;
	struct json_object	*classification;/* the seed's
						   ClassificationResult;
						   owned by the verdict */
};

const char	*risk_name(enum risk);
int		 risk_parse(const char *, enum risk *ret_risk);

/*
 * Load the rules under dir (may be NULL for the built-in safe default).
 * Returns 0 or a negative errno with *cause set (caller frees).
 */
int		 classifier_load(const char *dir, struct classifier **ret,
		    char **cause);
struct classifier *classifier_free(struct classifier *);

/* Classify a command line.  ctx may be NULL.  Fills *ret; never fails. */
void		 classify_command(struct classifier *, const char *line,
		    size_t len, const struct classify_ctx *ctx,
		    struct verdict *ret);

void		 verdict_release(struct verdict *);

/* A loaded rule, for listing ("deliberate rules") and for tests. */
struct risk_rule_info {
	const char	*id;		/* "group:name" */
	const char	*name;
	const char	*category;
	enum risk	 risk;
	double		 confidence;
	const char	*description;
	const char	*alternative;	/* may be NULL */
	int		 overridable;	/* 0 for catastrophic rules */
	const char	*file;		/* where it was defined */
	int		 line;
	char		**match;	/* should-match examples */
	size_t		 nmatch;
	char		**nomatch;	/* should-not-match examples */
	size_t		 nnomatch;
	int		 line_scope;	/* scope = line */
	const char *const *keywords;	/* keywords = ... */
	size_t		 nkeywords;
};

/* Number of loaded rules. */
size_t		 classifier_nrules(const struct classifier *);

/* Rule i (0 <= i < classifier_nrules()), or NULL. */
const struct risk_rule_info *classifier_rule(const struct classifier *,
		    size_t i);

/*
 * Whether rule i matched anywhere in line (in any simple command,
 * after unwrapping); used to check a rule's examples.
 */
int		 classifier_rule_matches(struct classifier *, size_t i,
		    const char *line);

/*
 * The words that can make a line non-safe: every command name of a rule
 * (NAME* prefix names kept with the '*'), every `via` wrapper, every
 * input_from command, every keyword of a rule with no command, and every
 * command the bypass detection or the unwrapping logic treats specially
 * (env, busybox, toybox, interpreters such as python*, perl, ruby, node,
 * sh/bash/zsh/dash/ksh, eval, alias, function, command, builtin, exec,
 * xargs, find, ssh, watch, sudo, doas, ...).  Learned overrides are
 * applied by the daemon, not here: words already in out (learn_triggers()
 * of learn.h) are merged in.  out is replaced by the set, space-separated,
 * sorted and unique.  Returns 0.  See risk-rules/README.md, "Trigger
 * words and the hooks' fast path".
 */
int		 classify_triggers(const struct classifier *, struct buf *out);

/*
 * Whether line is trigger-free for the set triggers (as made by
 * classify_triggers()): (1) it has only the characters
 * [A-Za-z0-9 _./:,@%+-], and (2) no space-separated word's basename (the
 * text after its last '/') is in the set or starts with a prefix entry
 * ("mkfs*").  The shell hooks mirror this, and also require that the
 * first word is not an alias or function.  A trigger-free line always
 * classifies safe with no bypass.
 */
int		 classify_trigger_free(const char *line, const char *triggers);

#endif
