/*
 * Placeholder redactor: every argument becomes a type placeholder and the
 * full command keeps only the command name and those placeholders, so
 * that no raw value reaches disk.  The PCRE2 rule engine replaces this.
 */
#include "redact.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "xmalloc.h"

struct redactor {
	int	unused;
};

/* Parse a level name. */
int
anon_level_parse(const char *s, enum anon_level *ret_level)
{
	if (strcmp(s, "minimal") == 0)
		*ret_level = ANON_MINIMAL;
	else if (strcmp(s, "standard") == 0)
		*ret_level = ANON_STANDARD;
	else if (strcmp(s, "maximum") == 0)
		*ret_level = ANON_MAXIMUM;
	else
		return -EINVAL;
	return 0;
}

/* Name of a level. */
const char *
anon_level_name(enum anon_level l)
{
	switch (l) {
	case ANON_MINIMAL:
		return "minimal";
	case ANON_MAXIMUM:
		return "maximum";
	default:
		return "standard";
	}
}

/* Load a redactor. */
int
redactor_load(const char *dir, struct redactor **ret, char **cause)
{
	(void)dir;
	(void)cause;
	*ret = xcalloc(1, sizeof **ret);
	return 0;
}

/* Free a redactor; returns NULL. */
struct redactor *
redactor_free(struct redactor *r)
{
	free(r);
	return NULL;
}

/* Number of rules. */
size_t
redactor_nrules(const struct redactor *r)
{
	(void)r;
	return 0;
}

static const char *
arg_type(const char *w)
{
	if (w[0] == '-')
		return NULL;
	if (strchr(w, '/') != NULL || w[0] == '~' || w[0] == '.')
		return "[PATH]";
	return "[ARG]";
}

/* Redact free text. */
int
redact_text(struct redactor *r, enum anon_level level, const char *in,
    size_t len, struct buf *out, struct redact_findings *findings,
    struct redact_stats *stats)
{
	(void)r;
	(void)level;
	(void)in;
	(void)findings;
	if (len > 0) {
		buf_adds(out, "[REDACTED_TEXT]");
		if (stats != NULL)
			stats->count++;
	}
	return 0;
}

/* Redact a command line. */
int
redact_command(struct redactor *r, enum anon_level level, const char *line,
    size_t len, struct redacted_cmd *ret, struct redact_stats *stats)
{
	struct buf	 full = BUF_INIT;
	char		*copy, *w, *save = NULL;
	const char	*t;
	int		 first = 1;

	(void)r;
	(void)level;
	memset(ret, 0, sizeof *ret);
	copy = xstrndup(line, len);
	for (w = strtok_r(copy, " \t\n", &save); w != NULL;
	    w = strtok_r(NULL, " \t\n", &save)) {
		if (first) {
			t = strrchr(w, '/');
			ret->command = xstrdup(t != NULL ? t + 1 : w);
			buf_adds(&full, ret->command);
			first = 0;
			continue;
		}
		t = arg_type(w);
		if (t != NULL && stats != NULL)
			stats->count++;
		ret->args = xreallocarray(ret->args, ret->nargs + 1,
		    sizeof *ret->args);
		ret->args[ret->nargs++] = xstrdup(t != NULL ? t : w);
		buf_addc(&full, ' ');
		buf_adds(&full, t != NULL ? t : w);
	}
	if (ret->command == NULL)
		ret->command = xstrdup("");
	ret->full = buf_detach(&full, NULL);
	free(copy);
	return 0;
}

/* Release a redacted command. */
void
redacted_cmd_release(struct redacted_cmd *c)
{
	size_t	i;

	for (i = 0; i < c->nargs; i++)
		free(c->args[i]);
	free(c->args);
	free(c->full);
	free(c->command);
	memset(c, 0, sizeof *c);
}

/* Release findings. */
void
redact_findings_release(struct redact_findings *f)
{
	free(f->v);
	f->v = NULL;
	f->n = f->alloc = 0;
}

/* Release stats. */
void
redact_stats_release(struct redact_stats *s)
{
	free(s->rule_ids);
	free(s->types);
	memset(s, 0, sizeof *s);
}
