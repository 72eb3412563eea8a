/*
 * The stanza format shared by redaction-rules/NAME.rules and risk-rules/NAME.rules:
 *
 *	# comment
 *	[rule some-id]
 *	key = value
 *	key = another value        (keys may repeat)
 *
 * A value is the rest of the line after "=", trimmed of surrounding blanks.
 * A line ending in a backslash continues on the next line.  Each stanza
 * keeps the file and line it came from, for error messages.
 */
#ifndef RULEFILE_H
#define RULEFILE_H

#include <stddef.h>

struct rule_kv {
	char	*key;
	char	*value;
	int	 line;
};

struct rule_stanza {
	char		*kind;		/* "rule" in "[rule id]" */
	char		*id;
	char		*file;
	int		 line;
	struct rule_kv	*kv;
	size_t		 nkv;
};

struct rule_set {
	struct rule_stanza	*v;
	size_t			 n;
	size_t			 alloc;
};

#define RULE_SET_INIT { NULL, 0, 0 }

/*
 * Parse one file and append its stanzas to set.  Returns 0, or a negative
 * errno with *cause set (caller frees) to "file:line: reason".
 */
int	 rulefile_parse(const char *path, struct rule_set *set, char **cause);

/*
 * Parse every ".rules" file in dir, in name order.  Same returns.
 */
int	 rulefile_parse_dir(const char *dir, struct rule_set *set, char **cause);

/* First value of key, or NULL. */
const char *rule_get(const struct rule_stanza *, const char *key);

/*
 * Iterate the values of key: start with *pos = 0; returns NULL at the end.
 */
const char *rule_next(const struct rule_stanza *, const char *key,
	    size_t *pos);

void	 rule_set_release(struct rule_set *);

#endif
