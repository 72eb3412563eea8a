/*
 * The redaction engine.  A redactor is a rule set compiled once (PCRE2
 * with JIT) from redaction-rules/NAME.rules; after loading it is read-only.
 * Matching state lives in the redactor too, so one redactor must be used
 * by one thread at a time.
 *
 * Levels (privacy.retention.anonymizationLevel):
 *   minimal	credentials only
 *   standard	credentials, paths (the user's own home directory wherever
 *		it lives), users, domains, emails, IPs; and in a command
 *		line (redact_command(), redact_line()) every argument value
 *		that is not a flag, shell syntax or a word of the vocabulary
 *		redaction-rules/safe-words.txt becomes a type ([FILE], [ARG],
 *		[STRING] ...).  Free text (redact_text()) is not typed.
 *   maximum	only the command name and the shape of its arguments
 */
#ifndef REDACT_H
#define REDACT_H

#include <stddef.h>

/*
 * Each field is redacted over at most this many bytes; the rest is
 * replaced by REDACT_TRUNCATED and never stored raw.
 */
#define REDACT_MAX_FIELD	(64 * 1024)
#define REDACT_TRUNCATED	"[TRUNCATED]"

/* PCRE2 match limit per match call; on overflow the engine fails closed. */
#define REDACT_MATCH_LIMIT	200000

struct buf;
struct redactor;

enum anon_level {
	ANON_MINIMAL = 0,
	ANON_STANDARD = 1,
	ANON_MAXIMUM = 2,
};

/* One redacted span of the input. */
struct redact_finding {
	const char	*rule_id;	/* owned by the redactor */
	const char	*type;		/* "api_key", "password", "path" ... */
	const char	*label;		/* "[REDACTED_API_KEY]" */
	size_t		 start, end;	/* byte span in the input */
};

struct redact_findings {
	struct redact_finding	*v;
	size_t			 n;
	size_t			 alloc;
};

#define REDACT_FINDINGS_INIT { NULL, 0, 0 }

/*
 * What was redacted, accumulated over every field of one entry.  rule_ids
 * and types are unique and sorted; the strings are owned by the redactor.
 */
struct redact_stats {
	size_t		  count;
	const char	**rule_ids;
	size_t		  nrule_ids;
	const char	**types;
	size_t		  ntypes;
	int		  limit_hit;	/* a match limit fired; redacted
					   conservatively */
	size_t		  sensitive;	/* spans found by rules (count minus
					   typed argument values) */
};

#define REDACT_STATS_INIT { 0, NULL, 0, NULL, 0, 0, 0 }

/*
 * Typing a free argument value at standard is counted in count, under the
 * rule id REDACT_ARG_RULE; its type REDACT_ARG_TYPE is not put in types
 * (that list names sensitive data found by rules) nor in sensitive.
 */
#define REDACT_ARG_RULE		"argument-type"
#define REDACT_ARG_TYPE		"argument"

/* The vocabulary file, in the rule directory; optional. */
#define REDACT_SAFE_WORDS	"safe-words.txt"

/* A command line redacted as fullCommand, command and args. */
struct redacted_cmd {
	char	 *full;		/* redacted fullCommand */
	char	 *command;	/* the command name (never a secret) */
	char	**args;		/* redacted arguments, without the name */
	size_t	  nargs;
};

int		 anon_level_parse(const char *, enum anon_level *ret_level);
const char	*anon_level_name(enum anon_level);

/*
 * Load and compile every rule under dir.  Returns 0 or a negative errno
 * with *cause set (caller frees), naming the file, line and rule.
 */
int		 redactor_load(const char *dir, struct redactor **ret,
		    char **cause);
struct redactor	*redactor_free(struct redactor *);
size_t		 redactor_nrules(const struct redactor *);

/* Number of distinct rule types ("api_key", "aws_access_key" ...). */
size_t		 redactor_ntypes(const struct redactor *);

/*
 * Set the login name redacted as [REDACTED_USER] at standard and above
 * (NULL or a name shorter than 3 bytes, or "root", disables it).  The
 * default is the name of the real user id.
 */
void		 redactor_set_username(struct redactor *, const char *);

/*
 * Home directories redacted as [HOME] at standard and above, wherever
 * they live (/var/lib/jenkins, /srv/users/bob ...), besides the patterns
 * /home/USER, /Users/USER, /root, /var/home/USER, /export/home/USER, ~
 * and $HOME.  The default is the home of the real user id (passwd) and
 * $HOME, looked up once per process.  "/", a system root ("/tmp", "/var"
 * ...) and relative paths are ignored.  At most REDACT_MAX_HOMES.
 */
#define REDACT_MAX_HOMES	4
void		 redactor_clear_homes(struct redactor *);
void		 redactor_add_home(struct redactor *, const char *dir);

/* Number of words in the vocabulary (safe-words.txt). */
size_t		 redactor_nsafe(const struct redactor *);

/*
 * Run only rule id over in, with its allow-lists and entropy gate, and
 * return the byte span of the first secret it finds.  For tests and
 * "deliberate rules test".  Returns 0, -ENOENT for no match, -EINVAL for
 * an unknown id.
 */
int		 redactor_rule_match(struct redactor *, const char *id,
		    const char *in, size_t len, size_t *ret_start,
		    size_t *ret_end);

/*
 * Redact free text (a comment, a modified command, a line on stdin) into
 * out (appended).  findings and stats may be NULL; when given, they are
 * appended to.  Returns 0, or a negative errno.
 */
int	redact_text(struct redactor *, enum anon_level, const char *in,
	    size_t len, struct buf *out, struct redact_findings *findings,
	    struct redact_stats *stats);

/*
 * Redact one command line as fullCommand is redacted (at standard, free
 * argument values become types) into out (appended); for "deliberate
 * redact" and a modified command.  findings and stats as in redact_text();
 * a typed value is reported as rule REDACT_ARG_RULE with the span of its
 * word in the input.
 */
int	redact_line(struct redactor *, enum anon_level, const char *in,
	    size_t len, struct buf *out, struct redact_findings *findings,
	    struct redact_stats *stats);

/*
 * Redact a command line into fullCommand, command and args, so that the
 * same secret or value gets the same label everywhere.  stats may be NULL.
 */
int	redact_command(struct redactor *, enum anon_level, const char *line,
	    size_t len, struct redacted_cmd *ret, struct redact_stats *stats);

void	redacted_cmd_release(struct redacted_cmd *);
void	redact_findings_release(struct redact_findings *);
void	redact_stats_release(struct redact_stats *);

#endif
