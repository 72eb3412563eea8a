/*
 * The redaction engine.
 *
 * Rules come from redaction-rules/ (see redaction-rules/README.md).  Each
 * rule is one PCRE2 pattern, compiled once in byte mode and JIT-compiled,
 * with a named group "secret" for the bytes to replace.  One Aho-Corasick
 * automaton over every rule keyword selects, per input, the rules worth
 * running; keyword-less rules always run.  Every candidate span is then
 * filtered (placeholders, our own markers, allow-lists, entropy), overlaps
 * are resolved (longest span first, then rule order) and the input is
 * rewritten once.
 *
 * Commands are cut into words by a small quote-aware lexer that keeps the
 * byte span of every word, so the labels in args are exactly those of
 * fullCommand.  At standard, a command line is rewritten by the rules
 * first; then that text is lexed again and every argument word is typed
 * (flags, shell syntax, labels and words of the vocabulary stay, other
 * values become [FILE], [ARG] ...), and fullCommand and args are both
 * built from the typed words.
 */
#include "redact.h"

#define PCRE2_CODE_UNIT_WIDTH 8

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <pcre2.h>
#include <pwd.h>
#include <sodium.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "acmatch.h"
#include "buf.h"
#include "rulefile.h"
#include "valuemodel.h"
#include "xmalloc.h"

#define REDACT_JIT_STACK_MIN	(32 * 1024)
#define REDACT_JIT_STACK_MAX	(1024 * 1024)
#define REDACT_DEPTH_LIMIT	5000
#define REDACT_HEAP_LIMIT	(8 * 1024)	/* KiB, interpreter only */
#define REDACT_MAX_SECRET_NAMES	64

enum rewrite {
	REWRITE_LABEL,		/* replace the secret by the label */
	REWRITE_PATH,		/* anonymise a path: [HOME]/[PROJECT]/... */
};

/*
 * A rule's shape (key "shape"): a test in C that every line it can match
 * passes, run before the pattern.  mixed-word: a run of 8 to 40 password
 * characters ([A-Za-z0-9@$!#*_?+^~-]) with an upper-case letter, a
 * lower-case letter and a digit (password-shaped-word runs on every line
 * and cost 7% of the instructions per line).
 */
enum { SHAPE_NONE, SHAPE_MIXED_WORD };

struct rrule {
	char		*id;
	char		*type;
	char		*label;
	enum anon_level	 level;
	enum rewrite	 rewrite;
	double		 entropy;	/* minimum, 0 = none */
	pcre2_code	*re;		/* NULL for built-in rules */
	uint32_t	 groups[REDACT_MAX_SECRET_NAMES];
	size_t		 ngroups;
	pcre2_code	**allow;
	unsigned char	*allow_jit;	/* per allow: 0 untried, 1 JIT, 2 not */
	size_t		 nallow;
	pcre2_code	*decoded;	/* a base64 secret's decoding must match */
	int		 decoded_text;	/* ... and be text (decoded-text) */
	char		**keywords;
	size_t		 nkeywords;
	int		 prio;		/* wins ties of equal length */
	int		 shape;		/* SHAPE_*: a cheap test the line must pass */
	int		 jit;		/* compiled by the JIT: pcre2_jit_match */
	int		 jit_tried;	/* JIT compilation was attempted */
	struct wordmodel *model;	/* key "model": the value model */
};

/* The vocabulary: lower-case words, open addressing. */
struct vocab {
	char	**slot;
	size_t	  cap, n;
};

struct redactor {
	struct rrule		*rules;
	size_t			 nrules;	/* file rules */
	size_t			 total;		/* plus built-in rules */
	size_t			 user_rule;	/* index of the username rule */
	size_t			 home_rule;	/* the user's home directory */
	size_t			 arg_rule;	/* typed argument values */
	size_t			 ntypes;
	struct acmatch		*ac;
	uint64_t		*run;		/* scratch: rules whose keywords occur */
	uint64_t		*always;	/* rules without keywords */
	size_t			 nwords;	/* of both bit sets */
	pcre2_match_data	*md;
	pcre2_match_context	*mctx;
	pcre2_jit_stack		*jstack;
	char			*username;
	char			*homes[REDACT_MAX_HOMES];
	size_t			 nhomes;
	struct vocab		 vocab;
};

struct span {
	size_t	 start, end;
	size_t	 rule;
	int	 prio;			/* the rule's */
	size_t	 homelen;		/* home-directory: prefix length */
	char	*repl;			/* computed replacement, or NULL */
};

struct spans {
	struct span	*v;
	size_t		 n, alloc;
};

/* A lexed word or operator of a command line. */
struct lextok {
	size_t	 start, end;
	int	 op;			/* operator or redirection */
	int	 cmd;			/* the command name of a simple command */
	int	 assign;		/* NAME=value before the command name */
};

struct lexed {
	struct lextok	*v;
	size_t		 n, alloc;
};

/*
 * The value macro: a single- or double-quoted string, a string quoted
 * with escaped double quotes inside an outer one (-DPASS=\"x\"), a bare
 * shell word, or a single-quoted string still open at the end of the
 * input, each alternative capturing "secret".
 */
static const char *const redact_macros[][2] = {
	{ "%VAL%", "(?:\\$'(?<secret>[^'\\n]{1,4096})'"
	    "|'(?<secret>[^'\\n]{1,4096})'"
	    "|\"(?<secret>(?:[^\"\\\\\\n]++|\\\\.)++)\""
	    "|\\\\\"(?<secret>[^\"\\\\\\n]{1,4096})\\\\\""
	    "|(?!#(?!\\S))(?<secret>[^\\s'\"|;&<>()`]{1,4096})"
	    /* A quote left open at the end: the value goes on. */
	    "|'(?<secret>[^'\\s]{1,4096})$)" },
	{ "%END%", "(?![A-Za-z0-9])" },
	{ "%ARGS%", "[^\\n;&|]{0,300}?(?:(?:'[^'\\n]{0,256}+'|\"[^\"\\n]{0,256}+\")"
	    "[^\\n;&|]{0,300}?){0,3}" },
	{ "%B%", "(?<![A-Za-z0-9_])" },
};
#define NMACROS	(sizeof redact_macros / sizeof redact_macros[0])

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

static char *
macro_expand(const char *pat)
{
	struct buf	 b = BUF_INIT;
	const char	*p = pat;
	size_t		 i, n;

	while (*p != '\0') {
		/* Every macro starts with '%' (584,000 strncmp calls else). */
		for (i = *p == '%' ? 0 : NMACROS; i < NMACROS; i++) {
			n = strlen(redact_macros[i][0]);
			if (strncmp(p, redact_macros[i][0], n) == 0)
				break;
		}
		if (i < NMACROS) {
			buf_adds(&b, redact_macros[i][1]);
			p += n;
		} else if (*p == '\\' && p[1] != '\0') {
			buf_add(&b, p, 2);
			p += 2;
		} else
			buf_addc(&b, *p++);
	}
	return buf_detach(&b, NULL);
}

/* Skip a bracketed class starting at p ('['); returns the byte after. */
static const char *
lint_skip_class(const char *p)
{
	p++;
	if (*p == '^')
		p++;
	if (*p == ']')
		p++;
	while (*p != '\0' && *p != ']') {
		if (*p == '\\' && p[1] != '\0')
			p++;
		p++;
	}
	return *p == ']' ? p + 1 : p;
}

/* Skip a group starting at p ('('); returns the byte after ')'. */
static const char *
lint_skip_group(const char *p)
{
	int	depth = 0;

	while (*p != '\0') {
		if (*p == '\\' && p[1] != '\0')
			p += 2;
		else if (*p == '[')
			p = lint_skip_class(p);
		else {
			if (*p == '(')
				depth++;
			else if (*p == ')' && --depth == 0)
				return p + 1;
			p++;
		}
	}
	return p;
}

/*
 * Reject a pattern whose first atom (after option settings, anchors and
 * lookarounds) is repeated with a minimum of zero: in a backtracking
 * engine that costs the whole repeat at every start position.
 */
static int
lint_leading_repeat(const char *pat)
{
	const char	*p = pat, *q;

	for (;;) {
		if (p[0] == '(' && p[1] == '?' && (isalpha((unsigned char)p[2])
		    || p[2] == '-' || p[2] == '^')) {
			q = p + 2;
			while (isalpha((unsigned char)*q) || *q == '-' ||
			    *q == '^')
				q++;
			if (*q == ')') {
				p = q + 1;
				continue;
			}
		}
		if (strncmp(p, "(?<=", 4) == 0 || strncmp(p, "(?<!", 4) == 0 ||
		    strncmp(p, "(?=", 3) == 0 || strncmp(p, "(?!", 3) == 0) {
			p = lint_skip_group(p);
			continue;
		}
		if (*p == '^') {
			p++;
			continue;
		}
		if (p[0] == '\\' && strchr("bBAG", p[1]) != NULL &&
		    p[1] != '\0') {
			p += 2;
			continue;
		}
		break;
	}
	if (*p == '\0')
		return -1;
	if (*p == '(')
		q = lint_skip_group(p);
	else if (*p == '[')
		q = lint_skip_class(p);
	else if (*p == '\\' && p[1] != '\0') {
		q = p + 2;
		if ((p[1] == 'x' || p[1] == 'p' || p[1] == 'P') && *q == '{') {
			while (*q != '\0' && *q != '}')
				q++;
			if (*q == '}')
				q++;
		}
	} else
		q = p + 1;
	if (*q == '*' || *q == '?')
		return -1;
	if (q[0] == '{' && (q[1] == ',' || (q[1] == '0' &&
	    (q[2] == ',' || q[2] == '}'))))
		return -1;
	return 0;
}

static void
rule_release(struct rrule *ru)
{
	size_t	i;

	free(ru->id);
	free(ru->type);
	free(ru->label);
	if (ru->re != NULL)
		pcre2_code_free(ru->re);
	for (i = 0; i < ru->nallow; i++)
		pcre2_code_free(ru->allow[i]);
	free(ru->allow_jit);
	free(ru->allow);
	if (ru->decoded != NULL)
		pcre2_code_free(ru->decoded);
	wordmodel_free(ru->model);
	for (i = 0; i < ru->nkeywords; i++)
		free(ru->keywords[i]);
	free(ru->keywords);
}

static pcre2_code *
rule_pcre(const char *pat, int lint, char **errmsg)
{
	pcre2_code	*re;
	char		*exp;
	int		 err;
	PCRE2_SIZE	 off;
	PCRE2_UCHAR	 msg[256];

	exp = macro_expand(pat);
	re = pcre2_compile((PCRE2_SPTR)exp, PCRE2_ZERO_TERMINATED,
	    PCRE2_DUPNAMES, &err, &off, NULL);
	if (re == NULL) {
		pcre2_get_error_message(err, msg, sizeof msg);
		xasprintf(errmsg, "bad pattern at offset %zu: %s", (size_t)off,
		    (char *)msg);
		free(exp);
		return NULL;
	}
	if (lint && lint_leading_repeat(exp) != 0) {
		xasprintf(errmsg, "pattern begins with a repeat that can "
		    "match empty");
		pcre2_code_free(re);
		free(exp);
		return NULL;
	}
	free(exp);
	/*
	 * A rule's pattern is JIT-compiled when it first runs (rule_run():
	 * most of start-up was JIT compilation, and a short run needs few
	 * rules); so is an allow pattern, tried on a found value only
	 * (rule_allows()).
	 */
	return re;
}

static int
rule_secret_groups(struct rrule *ru)
{
	uint32_t	 count, size, i;
	PCRE2_SPTR	 table;

	pcre2_pattern_info(ru->re, PCRE2_INFO_NAMECOUNT, &count);
	pcre2_pattern_info(ru->re, PCRE2_INFO_NAMEENTRYSIZE, &size);
	pcre2_pattern_info(ru->re, PCRE2_INFO_NAMETABLE, &table);
	for (i = 0; i < count; i++) {
		const unsigned char *e = table + (size_t)i * size;

		if (strcmp((const char *)e + 2, "secret") != 0)
			continue;
		/* More would be ignored: the pattern is refused instead. */
		if (ru->ngroups == REDACT_MAX_SECRET_NAMES)
			return -1;
		ru->groups[ru->ngroups++] = ((uint32_t)e[0] << 8) | e[1];
	}
	return ru->ngroups == 0 ? -1 : 0;
}

static void
rule_add_keywords(struct rrule *ru, const char *list)
{
	const char	*p = list, *e;
	size_t		 n;

	while (*p != '\0') {
		while (*p == ' ' || *p == '\t' || *p == ',')
			p++;
		e = p;
		while (*e != '\0' && *e != ',')
			e++;
		n = (size_t)(e - p);
		while (n > 0 && (p[n - 1] == ' ' || p[n - 1] == '\t'))
			n--;
		if (n > 0) {
			ru->keywords = xreallocarray(ru->keywords,
			    ru->nkeywords + 1, sizeof *ru->keywords);
			ru->keywords[ru->nkeywords++] = xstrndup(p, n);
		}
		p = e;
	}
}

static const char *const rule_keys[] = {
	"type", "pattern", "label", "keywords", "entropy", "level", "allow",
	"example", "negative", "rewrite", "description", "shape", "decoded",
	"decoded-text", "model", NULL
};

/*
 * Load the model file NAME of a rule in FILE: a plain name, read from the
 * rules' own directory (a model elsewhere is refused, as a rule cannot
 * name one).
 */
static int
rule_model(const char *file, const char *name, struct wordmodel **ret,
    char **msg)
{
	const char	*slash = strrchr(file, '/');
	char		*path, *cause = NULL;
	int		 error;

	if (*name == '\0' || strchr(name, '/') != NULL || name[0] == '.') {
		xasprintf(msg, "model '%s' is not a file name in the rules "
		    "directory", name);
		return -EINVAL;
	}
	if (slash != NULL)
		xasprintf(&path, "%.*s/%s", (int)(slash - file), file, name);
	else
		path = xstrdup(name);
	error = wordmodel_load(path, ret, &cause);
	free(path);
	if (error != 0) {
		xasprintf(msg, "model: %s", cause);
		free(cause);
	}
	return error;
}

static int
rule_load(const struct rule_stanza *st, struct rrule *ru, char **cause)
{
	const char	*v, *pat;
	char		*msg = NULL, *end;
	size_t		 i, pos, j;

	memset(ru, 0, sizeof *ru);
	if (strcmp(st->kind, "rule") != 0) {
		xasprintf(cause, "%s:%d: unknown stanza kind '%s'", st->file,
		    st->line, st->kind);
		return -EINVAL;
	}
	ru->id = xstrdup(st->id);
	for (i = 0; i < st->nkv; i++) {
		for (j = 0; rule_keys[j] != NULL; j++) {
			if (strcmp(st->kv[i].key, rule_keys[j]) == 0)
				break;
		}
		if (rule_keys[j] == NULL) {
			xasprintf(&msg, "unknown key '%s'", st->kv[i].key);
			goto fail;
		}
	}
	if ((v = rule_get(st, "type")) == NULL || *v == '\0') {
		msg = xstrdup("missing type");
		goto fail;
	}
	ru->type = xstrdup(v);
	if ((v = rule_get(st, "rewrite")) == NULL || strcmp(v, "label") == 0)
		ru->rewrite = REWRITE_LABEL;
	else if (strcmp(v, "path") == 0)
		ru->rewrite = REWRITE_PATH;
	else {
		xasprintf(&msg, "unknown rewrite '%s'", v);
		goto fail;
	}
	if ((v = rule_get(st, "label")) != NULL)
		ru->label = xstrdup(v);
	else if (ru->rewrite == REWRITE_PATH)
		ru->label = xstrdup("[PATH]");
	else {
		msg = xstrdup("missing label");
		goto fail;
	}
	if ((v = rule_get(st, "level")) == NULL)
		ru->level = ANON_MINIMAL;
	else if (anon_level_parse(v, &ru->level) != 0) {
		xasprintf(&msg, "bad level '%s'", v);
		goto fail;
	}
	if ((v = rule_get(st, "entropy")) != NULL) {
		ru->entropy = strtod(v, &end);
		if (*end != '\0' || ru->entropy < 0 || ru->entropy > 8) {
			xasprintf(&msg, "bad entropy '%s'", v);
			goto fail;
		}
	}
	if ((v = rule_get(st, "shape")) != NULL) {
		if (strcmp(v, "mixed-word") != 0) {
			xasprintf(&msg, "unknown shape '%s'", v);
			goto fail;
		}
		ru->shape = SHAPE_MIXED_WORD;
	}
	pos = 0;
	while ((v = rule_next(st, "keywords", &pos)) != NULL)
		rule_add_keywords(ru, v);
	for (i = 0; i < ru->nkeywords; i++) {
		for (j = 0; ru->keywords[i][j] != '\0'; j++) {
			if (isupper((unsigned char)ru->keywords[i][j])) {
				xasprintf(&msg, "keyword '%s' is not lower-case",
				    ru->keywords[i]);
				goto fail;
			}
		}
	}
	if (rule_get(st, "example") == NULL) {
		msg = xstrdup("no example");
		goto fail;
	}
	if (rule_get(st, "negative") == NULL) {
		msg = xstrdup("no negative");
		goto fail;
	}
	if ((v = rule_get(st, "model")) != NULL) {
		if (rule_get(st, "pattern") != NULL || ru->nkeywords != 0) {
			msg = xstrdup("a model rule has no pattern and no "
			    "keywords");
			goto fail;
		}
		if (rule_model(st->file, v, &ru->model, &msg) != 0)
			goto fail;
	} else if ((pat = rule_get(st, "pattern")) == NULL) {
		msg = xstrdup("missing pattern");
		goto fail;
	} else if ((ru->re = rule_pcre(pat, 1, &msg)) == NULL)
		goto fail;
	if (ru->model == NULL && rule_secret_groups(ru) != 0) {
		msg = ru->ngroups == 0 ?
		    xstrdup("pattern has no (?<secret>...) group") :
		    xstrdup("pattern has too many (?<secret>...) groups (64 at "
		    "most; %VAL% has six)");
		goto fail;
	}
	pos = 0;
	while ((v = rule_next(st, "allow", &pos)) != NULL) {
		ru->allow = xreallocarray(ru->allow, ru->nallow + 1,
		    sizeof *ru->allow);
		ru->allow_jit = xreallocarray(ru->allow_jit, ru->nallow + 1,
		    sizeof *ru->allow_jit);
		ru->allow_jit[ru->nallow] = 0;
		if ((ru->allow[ru->nallow] = rule_pcre(v, 0, &msg)) == NULL) {
			char *m = msg;

			xasprintf(&msg, "allow: %s", m);
			free(m);
			goto fail;
		}
		ru->nallow++;
	}
	if ((v = rule_get(st, "decoded-text")) != NULL)
		ru->decoded_text = 1;
	else
		v = rule_get(st, "decoded");
	if (v != NULL && (ru->decoded = rule_pcre(v, 0, &msg)) == NULL) {
		char *m = msg;

		xasprintf(&msg, "decoded: %s", m);
		free(m);
		goto fail;
	}
	return 0;

fail:
	xasprintf(cause, "%s:%d: rule %s: %s", st->file, st->line, st->id, msg);
	free(msg);
	rule_release(ru);
	memset(ru, 0, sizeof *ru);
	return -EINVAL;
}

static int
word_in_list(const char *s, size_t n, const char *const *list)
{
	size_t	i;

	for (i = 0; list[i] != NULL; i++) {
		if (strlen(list[i]) == n && memcmp(list[i], s, n) == 0)
			return 1;
	}
	return 0;
}

static int
type_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static char	*username;	/* the real user's name, looked up once */
static char	*home_pw;	/* and its home directory, and $HOME */
static char	*home_env;
static int	 homes_looked_up;

#define VOCAB_MAX_WORD	64

static uint32_t
vocab_hash(const char *s, size_t n)
{
	uint32_t	h = 2166136261u;
	size_t		i;

	for (i = 0; i < n; i++) {
		h ^= (unsigned char)tolower((unsigned char)s[i]);
		h *= 16777619u;
	}
	return h;
}

static void
vocab_insert(struct vocab *v, const char *w, size_t n)
{
	size_t	i, j;
	char	**old;
	size_t	 oldcap;

	if (v->n * 2 >= v->cap) {
		old = v->slot;
		oldcap = v->cap;
		v->cap = v->cap == 0 ? 1024 : v->cap * 2;
		v->slot = xcalloc(v->cap, sizeof *v->slot);
		v->n = 0;
		for (i = 0; i < oldcap; i++) {
			if (old[i] == NULL)
				continue;
			j = vocab_hash(old[i], strlen(old[i])) & (v->cap - 1);
			while (v->slot[j] != NULL)
				j = (j + 1) & (v->cap - 1);
			v->slot[j] = old[i];
			v->n++;
		}
		free(old);
	}
	j = vocab_hash(w, n) & (v->cap - 1);
	while (v->slot[j] != NULL) {
		if (strlen(v->slot[j]) == n && strncasecmp(v->slot[j], w, n) ==
		    0)
			return;
		j = (j + 1) & (v->cap - 1);
	}
	v->slot[j] = xstrndup(w, n);
	for (i = 0; i < n; i++)
		v->slot[j][i] = (char)tolower((unsigned char)v->slot[j][i]);
	v->n++;
}

static int
vocab_has(const struct vocab *v, const char *w, size_t n)
{
	size_t	j;

	if (v->cap == 0 || n == 0 || n > VOCAB_MAX_WORD)
		return 0;
	j = vocab_hash(w, n) & (v->cap - 1);
	while (v->slot[j] != NULL) {
		/* Lengths first: w may hold a NUL before n. */
		if (strnlen(v->slot[j], n + 1) == n &&
		    strncasecmp(v->slot[j], w, n) == 0 &&
		    memchr(w, '\0', n) == NULL)
			return 1;
		j = (j + 1) & (v->cap - 1);
	}
	return 0;
}

static void
vocab_release(struct vocab *v)
{
	size_t	i;

	for (i = 0; i < v->cap; i++)
		free(v->slot[i]);
	free(v->slot);
	memset(v, 0, sizeof *v);
}

/*
 * Read the vocabulary: words separated by blanks, '#' starts a comment.
 * A missing file is an empty vocabulary (every free value is typed).
 */
static int
vocab_load(struct vocab *v, const char *dir, char **cause)
{
	char	*path, *line = NULL, *p, *e;
	size_t	 cap = 0;
	int	 lineno = 0;
	FILE	*fp;

	xasprintf(&path, "%s/%s", dir, REDACT_SAFE_WORDS);
	if ((fp = fopen(path, "re")) == NULL) {
		free(path);
		return 0;
	}
	while (getline(&line, &cap, fp) != -1) {
		lineno++;
		if ((p = strchr(line, '#')) != NULL)
			*p = '\0';
		for (p = line; *p != '\0'; p = e) {
			while (isspace((unsigned char)*p))
				p++;
			for (e = p; *e != '\0' && !isspace((unsigned char)*e);
			    e++)
				;
			if (e == p)
				break;
			if ((size_t)(e - p) > VOCAB_MAX_WORD) {
				xasprintf(cause, "%s:%d: word longer than %d "
				    "bytes", path, lineno, VOCAB_MAX_WORD);
				free(line);
				fclose(fp);
				free(path);
				return -EINVAL;
			}
			vocab_insert(v, p, (size_t)(e - p));
		}
	}
	free(line);
	fclose(fp);
	free(path);
	return 0;
}

/* Load a redactor. */
int
redactor_load(const char *dir, struct redactor **ret, char **cause)
{
	struct rule_set	 set = RULE_SET_INIT;
	struct redactor	*r;
	struct rrule	*ru;
	const char	**types;
	size_t		 i, j;
	int		 error;
	struct passwd	*pw;

	if ((error = rulefile_parse_dir(dir, &set, cause)) != 0)
		return error;
	if (set.n == 0) {
		xasprintf(cause, "%s: no rules", dir);
		rule_set_release(&set);
		return -ENOENT;
	}
	r = xcalloc(1, sizeof *r);
	r->rules = xcalloc(set.n + 3, sizeof *r->rules);
	for (i = 0; i < set.n; i++) {
		for (j = 0; j < r->nrules; j++) {
			if (strcmp(r->rules[j].id, set.v[i].id) == 0) {
				xasprintf(cause, "%s:%d: duplicate rule id "
				    "'%s'", set.v[i].file, set.v[i].line,
				    set.v[i].id);
				error = -EINVAL;
				goto fail;
			}
		}
		if ((error = rule_load(&set.v[i], &r->rules[r->nrules],
		    cause)) != 0)
			goto fail;
		r->nrules++;
	}
	rule_set_release(&set);

	/* The built-in rules (standard): user name, home, typed values. */
	r->user_rule = r->nrules;
	ru = &r->rules[r->nrules];
	ru->id = xstrdup("current-username");
	ru->type = xstrdup("user");
	ru->label = xstrdup("[REDACTED_USER]");
	ru->level = ANON_STANDARD;
	r->home_rule = r->nrules + 1;
	ru = &r->rules[r->home_rule];
	ru->id = xstrdup("home-directory");
	ru->type = xstrdup("path");
	ru->label = xstrdup("[HOME]");
	ru->level = ANON_STANDARD;
	ru->rewrite = REWRITE_PATH;
	ru->prio = 1;
	r->arg_rule = r->nrules + 2;
	ru = &r->rules[r->arg_rule];
	ru->id = xstrdup(REDACT_ARG_RULE);
	ru->type = xstrdup(REDACT_ARG_TYPE);
	ru->label = xstrdup("[ARG]");
	ru->level = ANON_STANDARD;
	r->total = r->nrules + 3;
	if ((error = vocab_load(&r->vocab, dir, cause)) != 0) {
		redactor_free(r);
		return error;
	}

	types = xreallocarray(NULL, r->total, sizeof *types);
	for (i = 0; i < r->total; i++)
		types[i] = r->rules[i].type;
	qsort(types, r->total, sizeof *types, type_cmp);
	for (i = 0; i < r->total; i++) {
		if (i == 0 || strcmp(types[i], types[i - 1]) != 0)
			r->ntypes++;
	}
	free(types);

	r->ac = acmatch_create();
	for (i = 0; i < r->nrules; i++) {
		for (j = 0; j < r->rules[i].nkeywords; j++)
			acmatch_add(r->ac, r->rules[i].keywords[j],
			    strlen(r->rules[i].keywords[j]), (unsigned)i);
	}
	acmatch_build(r->ac);
	r->nwords = (r->nrules + 63) / 64;
	r->run = xcalloc(r->nwords + 1, sizeof *r->run);
	r->always = xcalloc(r->nwords + 1, sizeof *r->always);
	for (i = 0; i < r->nrules; i++) {
		if (r->rules[i].nkeywords == 0)
			r->always[i / 64] |= (uint64_t)1 << (i % 64);
	}

	r->md = pcre2_match_data_create(64, NULL);
	r->mctx = pcre2_match_context_create(NULL);
	pcre2_set_match_limit(r->mctx, REDACT_MATCH_LIMIT);
	pcre2_set_depth_limit(r->mctx, REDACT_DEPTH_LIMIT);
	pcre2_set_heap_limit(r->mctx, REDACT_HEAP_LIMIT);
	r->jstack = pcre2_jit_stack_create(REDACT_JIT_STACK_MIN,
	    REDACT_JIT_STACK_MAX, NULL);
	if (r->md == NULL || r->mctx == NULL) {
		xasprintf(cause, "cannot allocate PCRE2 match data");
		redactor_free(r);
		return -ENOMEM;
	}
	if (r->jstack != NULL)
		pcre2_jit_stack_assign(r->mctx, NULL, r->jstack);

	/*
	 * Look the name up once per process: a reload runs inside the
	 * daemon's sandbox, where an NSS module must not be asked again.
	 */
	if (!homes_looked_up) {
		homes_looked_up = 1;
		if ((pw = getpwuid(getuid())) != NULL) {
			username = xstrdup(pw->pw_name);
			if (pw->pw_dir != NULL)
				home_pw = xstrdup(pw->pw_dir);
		}
		if (getenv("HOME") != NULL)
			home_env = xstrdup(getenv("HOME"));
	}
	if (username != NULL)
		redactor_set_username(r, username);
	if (home_pw != NULL)
		redactor_add_home(r, home_pw);
	if (home_env != NULL)
		redactor_add_home(r, home_env);
	*ret = r;
	return 0;

fail:
	rule_set_release(&set);
	for (i = 0; i < r->nrules; i++)
		rule_release(&r->rules[i]);
	free(r->rules);
	free(r);
	return error;
}

/* Free a redactor. */
struct redactor *
redactor_free(struct redactor *r)
{
	size_t	i;

	if (r == NULL)
		return NULL;
	for (i = 0; i < r->total; i++)
		rule_release(&r->rules[i]);
	free(r->rules);
	acmatch_free(r->ac);
	free(r->run);
	free(r->always);
	if (r->md != NULL)
		pcre2_match_data_free(r->md);
	if (r->mctx != NULL)
		pcre2_match_context_free(r->mctx);
	if (r->jstack != NULL)
		pcre2_jit_stack_free(r->jstack);
	free(r->username);
	redactor_clear_homes(r);
	vocab_release(&r->vocab);
	free(r);
	return NULL;
}

/* Number of rules. */
size_t
redactor_nrules(const struct redactor *r)
{
	return r->nrules;
}

/* Number of distinct types. */
size_t
redactor_ntypes(const struct redactor *r)
{
	return r->ntypes;
}

/* Set the login name to redact. */
void
redactor_set_username(struct redactor *r, const char *name)
{
	free(r->username);
	r->username = NULL;
	if (name == NULL || strlen(name) < 3 || strcmp(name, "root") == 0)
		return;
	r->username = xstrdup(name);
}

/* Forget the home directories. */
void
redactor_clear_homes(struct redactor *r)
{
	size_t	i;

	for (i = 0; i < r->nhomes; i++)
		free(r->homes[i]);
	r->nhomes = 0;
}

/* Add a home directory to redact as [HOME]. */
void
redactor_add_home(struct redactor *r, const char *dir)
{
	static const char *const roots[] = {
		"/tmp", "/var", "/usr", "/etc", "/opt", "/srv", "/bin",
		"/sbin", "/lib", "/lib64", "/dev", "/proc", "/sys", "/run",
		"/boot", "/mnt", "/media", "/var/tmp", "/var/lib", "/usr/local",
		"/home", "/Users", "/nonexistent", "/var/empty", "/snap",
		"/nix", NULL
	};
	size_t	n, i;

	if (dir == NULL || dir[0] != '/' || r->nhomes >= REDACT_MAX_HOMES)
		return;
	n = strlen(dir);
	while (n > 1 && dir[n - 1] == '/')
		n--;
	if (n < 2 || word_in_list(dir, n, roots))
		return;
	for (i = 0; i < n; i++) {
		if (isspace((unsigned char)dir[i]))
			return;
	}
	for (i = 0; i < r->nhomes; i++) {
		if (strlen(r->homes[i]) == n && memcmp(r->homes[i], dir, n) == 0)
			return;
	}
	r->homes[r->nhomes++] = xstrndup(dir, n);
}

/* Number of vocabulary words. */
size_t
redactor_nsafe(const struct redactor *r)
{
	return r->vocab.n;
}

/* Shannon entropy in bits per byte. */
static double
entropy_of(const char *s, size_t n)
{
	unsigned	count[256];	/* only the bytes of s are set */
	double		sum = 0;
	size_t		i;
	unsigned char	c;

	if (n == 0)
		return 0;
	/*
	 * H = log2(n) - sum(c * log2(c)) / n over the byte counts c.  The
	 * counts of the bytes that occur are zeroed, counted and summed in
	 * three passes over s, instead of clearing and scanning 256
	 * counters (a memset and a log2 per byte value were 2% of the
	 * instructions per line).
	 */
	for (i = 0; i < n; i++)
		count[(unsigned char)s[i]] = 0;
	for (i = 0; i < n; i++)
		count[(unsigned char)s[i]]++;
	for (i = 0; i < n; i++) {
		c = (unsigned char)s[i];
		if (count[c] > 1)
			sum += count[c] * log2((double)count[c]);
		count[c] = 0;
	}
	return log2((double)n) - sum / (double)n;
}

static const char *const own_markers[] = {
	"[HOME]", "[PROJECT]", "[SUBDIR]", "[FILE]", "[PATH]", "[DIR]",
	"[ARG]", "[STRING]", "[JSON]", "[HASH]", "[UUID]", "[NUMBER]",
	"[MESSAGE]", "[FLAG]", NULL
};

/*
 * Lookups of the environment in inline code: the value read is not in the
 * command (os.environ['X'], os.getenv("X"), process.env.X, ENV['X'],
 * ENV.fetch("X"), System.getenv("X"), Sys.getenv("X"), os.Getenv("X")).
 */
static const char *const env_lookups[] = {
	"os.environ", "os.getenv", "os.Getenv", "process.env", "ENV",
	"ENV.fetch", "System.getenv", "Sys.getenv", "getenv", "Deno.env.get",
	"Environment.GetEnvironmentVariable", "std::env::var", "env::var",
	"env",		/* jq: env.NAME */
	NULL
};

/*
 * Words of an upper-case placeholder name: PASSWORD, DB_PASSWORD, API_KEY,
 * ACCESS_TOKEN (postgresql://USER:PASSWORD@localhost in an .env.example).
 */
/* Whether s[0..n) is one of the words of v, in any case. */
static int
is_word_of(const char *const *v, const char *s, size_t n)
{
	size_t	w;

	for (w = 0; v[w] != NULL; w++) {
		if (strlen(v[w]) == n && strncasecmp(s, v[w], n) == 0)
			return 1;
	}
	return 0;
}

static const char *const placeholder_words[] = {
	"PASSWORD", "PASSWD", "PASSPHRASE", "PASS", "PWD", "PW", "SECRET",
	"TOKEN", "KEY", "APIKEY", "CREDENTIAL", "CREDENTIALS", "REDACTED",
	"GENERATE", "CHANGEME", "RANDOM", "TEST", NULL
};

/*
 * One of the words above as an _-separated part of an A-Z_ name, or of an
 * all lower-case a-z_ name with at least one _ (client_secret, api_key in
 * curl -u "client_id:client_secret").
 */
static int
is_placeholder_name(const char *s, size_t n)
{
	size_t	i, j;
	int	lower = 0, under = 0;

	for (i = 0; i < n; i++) {
		if (s[i] == '_')
			under = 1;
		else if (islower((unsigned char)s[i]))
			lower = 1;
		else if (!isupper((unsigned char)s[i]))
			return 0;
	}
	if (lower) {
		for (i = 0; i < n; i++) {
			if (isupper((unsigned char)s[i]))
				return 0;
		}
		if (!under)
			return 0;
	}
	for (i = 0; i < n; i = j + 1) {
		for (j = i; j < n && s[j] != '_'; j++)
			;
		if (is_word_of(placeholder_words, s + i, j - i))
			return 1;
	}
	return 0;
}

/*
 * An absolute or relative path of a file: only path characters, and a
 * known top directory (or ~/, ./, ../) or a slash and a known file
 * extension (config/master.key).  Base64 may start with a slash, but not
 * with /root/ or /etc/, and does not end in .key.
 */
static int
is_file_path(const char *s, size_t n)
{
	static const char *const tops[] = {
		"/tmp/", "/run/", "/var/", "/private/", "/dev/", "/etc/",
		"/usr/", "/opt/", "/home/", "/Users/", "/root/", "/mnt/",
		"/srv/", "/media/", "/nix/", "/snap/", "/Library/", "/Volumes/",
		"~/", "./", "../", NULL
	};
	static const char *const exts[] = {
		".key", ".pem", ".json", ".p8", ".p12", ".pfx", ".crt", ".txt",
		".yml", ".yaml", ".conf", ".cfg", ".ini", ".toml", NULL
	};
	size_t	i, k;

	for (i = 0; i < n; i++) {
		if (!isalnum((unsigned char)s[i]) && strchr("_./@+-", s[i]) ==
		    NULL)
			return 0;
	}
	for (i = 0; tops[i] != NULL; i++) {
		k = strlen(tops[i]);
		if (n > k && memcmp(s, tops[i], k) == 0)
			return 1;
	}
	/* config/master.key, /data/tls/x.pem: a file of a known kind. */
	if (memchr(s, '/', n) == NULL)
		return 0;
	for (i = 0; exts[i] != NULL; i++) {
		k = strlen(exts[i]);
		if (n > k + 1 && memcmp(s + n - k, exts[i], k) == 0)
			return 1;
	}
	return 0;
}

/*
 * //host.example/path: a URL after its scheme, with no user or password
 * before the host.
 */
static int
is_bare_url(const char *s, size_t n)
{
	size_t	i;
	int	dot = 0;

	if (n < 5 || s[0] != '/' || s[1] != '/')
		return 0;
	for (i = 2; i < n && s[i] != '/'; i++) {
		if (s[i] == '.')
			dot = 1;
		else if (!isalnum((unsigned char)s[i]) && s[i] != '-')
			return 0;
	}
	return dot && i < n && i > 3;
}

/*
 * An Adyen client key, test_ or live_ and 32 capitals and digits, is
 * public: it ships in the checkout page.  (Mollie's secret live_ keys
 * are 30 characters of mixed case.)
 */
static int
is_adyen_client_key(const char *s, size_t n)
{
	size_t	i;

	if (n != 37 || (strncmp(s, "test_", 5) != 0 &&
	    strncmp(s, "live_", 5) != 0))
		return 0;
	for (i = 5; i < n; i++) {
		if (!isupper((unsigned char)s[i]) &&
		    !isdigit((unsigned char)s[i]))
			return 0;
	}
	return 1;
}

/*
 * sk_test_<your key here> cut at the blank: a "<" and a placeholder word
 * that runs to the end of the value.
 */
static int
has_open_placeholder(const char *s, size_t n)
{
	static const char *const words[] = { "your", "the", "insert", "paste",
	    "put", "replace", "enter", "generate", "add", "my", "key", "token",
	    "secret", "api", "value", "password", NULL };
	const char	*lt;
	size_t		 i, w, rest;

	if ((lt = memchr(s, '<', n)) == NULL || lt == s)
		return 0;
	rest = n - (size_t)(lt + 1 - s);
	for (i = 0; i < rest; i++) {
		if (!isalpha((unsigned char)lt[1 + i]) && lt[1 + i] != '_' &&
		    lt[1 + i] != '-' && !(lt[1 + i] == '>' && i + 1 == rest))
			return 0;
	}
	for (w = 0; words[w] != NULL; w++) {
		if (rest >= strlen(words[w]) &&
		    strncasecmp(lt + 1, words[w], strlen(words[w])) == 0)
			return 1;
	}
	return 0;
}

/*
 * An elided or template value: a short provider prefix then "..."
 * (sk-..., sk-proj-...), a regular expression that starts with .* or .+
 * (sed 's/^KEY=.*$/KEY=x/'), letters with a "your" part (ck_your_key, sk_live_YOUR_KEY_HERE), or a
 * PowerShell prompt or lookup cmdlet ($env:X = Read-Host -AsSecureString).
 */
static int
is_template_value(const char *s, size_t n)
{
	static const char *const cmdlets[] = {
		"Read-", "Get-", "ConvertTo-", "ConvertFrom-", "Import-",
		"Invoke-", NULL
	};
	size_t	i, j, k;

	/* .*, .*$/NAME= (the replacement's value comes after, as <x>) */
	if (n >= 2 && s[0] == '.' && (s[1] == '*' || s[1] == '+')) {
		i = 2;
		if (i < n && s[i] == '$')
			i++;
		if (i < n && s[i] == '/') {
			for (i++; i < n && (isalnum((unsigned char)s[i]) ||
			    s[i] == '_' || s[i] == '.' || s[i] == '-'); i++)
				;
			if (i < n && s[i] == '=')
				i++;
			/* an empty replacement (KEY= then the closing /) */
			if (i < n && s[i] == '/' && i > 3 && s[i - 1] == '=')
				for (i++; i < n && isalpha((unsigned char)s[i]);
				    i++)
					;
		}
		if (i == n)
			return 1;
	}
	/* sk-...your-key-here...: a short prefix, then "..." */
	for (i = 0; i < n && i < 12 && (islower((unsigned char)s[i]) ||
	    s[i] == '-' || s[i] == '_'); i++)
		;
	if (i > 1 && i + 3 < n && memcmp(s + i, "...", 3) == 0 &&
	    (s[i - 1] == '-' || s[i - 1] == '_'))
		return 1;
	if (n >= 4 && n <= 24 && memcmp(s + n - 3, "...", 3) == 0) {
		for (i = 0; i + 3 < n; i++) {
			if (!isalnum((unsigned char)s[i]) && s[i] != '-' &&
			    s[i] != '_')
				break;
		}
		if (i + 3 == n)
			return 1;
	}
	for (i = 0; i < n; i++) {
		if (!isalpha((unsigned char)s[i]) && s[i] != '-' && s[i] != '_')
			break;
	}
	if (i == n) {
		for (i = 0; i < n; i = j + 1) {
			for (j = i; j < n && s[j] != '-' && s[j] != '_'; j++)
				;
			if (j - i == 4 && strncasecmp(s + i, "your", 4) == 0)
				return 1;
		}
	}
	for (k = 0; cmdlets[k] != NULL; k++) {
		j = strlen(cmdlets[k]);
		if (n < j + 3 || memcmp(s, cmdlets[k], j) != 0 ||
		    !isupper((unsigned char)s[j]))
			continue;
		for (i = j + 1; i < n && isalpha((unsigned char)s[i]); i++)
			;
		if (i == n)
			return 1;
	}
	return 0;
}

/*
 * A masked token after a provider prefix: sk-xxxxxxxx..., ghp_XXXX...,
 * sk-proj-xxxx..., AKIAXXXXXXXXXXXXXXXX.  The value ends with one of x, X,
 * * or # repeated at least 8 times and twice as long as the prefix
 * (separators - _ . / allowed in the run); the prefix is letters and
 * digits with - or _.
 */
static int
is_masked_token(const char *s, size_t n)
{
	size_t	i, k;
	char	c;

	if (n < 8)
		return 0;
	c = s[n - 1];
	if (c != 'x' && c != 'X' && c != '*' && c != '#')
		return 0;
	for (i = n, k = 0; i > 0; i--) {
		if (s[i - 1] == c)
			k++;
		else if (s[i - 1] != '-' && s[i - 1] != '_' &&
		    s[i - 1] != '.' && s[i - 1] != '/')
			break;
	}
	if (k < 8 || k < 2 * i)
		return 0;
	for (k = 0; k < i; k++) {
		if (!isalnum((unsigned char)s[k]) && s[k] != '-' &&
		    s[k] != '_')
			return 0;
	}
	return 1;
}

/*
 * REPLACE_ME, CHANGE-ME, changeme, fill_me_in: a name that asks to be
 * replaced.
 */
static int
is_replace_me(const char *s, size_t n)
{
	static const char *const verbs[] = { "replace", "change", "fill",
	    NULL };
	size_t	i, k;

	for (k = 0; verbs[k] != NULL; k++) {
		i = strlen(verbs[k]);
		if (n < i + 2 || strncasecmp(s, verbs[k], i) != 0)
			continue;
		if (s[i] == '_' || s[i] == '-')
			i++;
		if (n < i + 2 || strncasecmp(s + i, "me", 2) != 0)
			continue;
		i += 2;
		if (i == n)
			return 1;
		if (n == i + 3 && (s[i] == '_' || s[i] == '-') &&
		    strncasecmp(s + i + 1, "in", 2) == 0)
			return 1;
	}
	return 0;
}

/*
 * fake-api-key, dummy_token, example-secret: lower-case words, one of
 * which says the value is not real.
 */
static int
is_fake_words(const char *s, size_t n)
{
	static const char *const fakes[] = { "fake", "dummy", "placeholder",
	    "example", "sample", "redacted", NULL };
	size_t	i, j;

	for (i = 0; i < n; i++) {
		if (!islower((unsigned char)s[i]) && s[i] != '-' && s[i] != '_')
			return 0;
	}
	for (i = 0; i < n; i = j + 1) {
		for (j = i; j < n && s[j] != '-' && s[j] != '_'; j++)
			;
		if (is_word_of(fakes, s + i, j - i))
			return 1;
	}
	return 0;
}

/*
 * gitlab-runner-token, db-credentials: the name of a secret object (a
 * Kubernetes Secret, a vault entry), lower-case words joined by "-"
 * whose last word says what it holds (not -key or -password: those
 * are passphrases as often as names, ssh-keygen -N 'pi-cluster-key').
 * An ARN names a resource, even a secret's.
 */
static int
is_secret_name(const char *s, size_t n)
{
	static const char *const lasts[] = { "token", "tokens", "secret",
	    "secrets", "credentials", "creds", NULL };
	size_t	i, last = 0, parts = 1;

	if (n > 8 && (strncmp(s, "arn:aws:", 8) == 0 ||
	    strncmp(s, "arn:aws-", 8) == 0))
		return 1;
	if (n == 0 || !islower((unsigned char)s[0]))
		return 0;
	for (i = 0; i < n; i++) {
		if (s[i] == '-') {
			if (i + 1 == n || s[i + 1] == '-')
				return 0;
			last = i + 1;
			parts++;
		} else if (!islower((unsigned char)s[i]) &&
		    !isdigit((unsigned char)s[i]))
			return 0;
	}
	if (parts < 2)
		return 0;
	return is_word_of(lasts, s + last, n - last);
}

/*
 * {API_KEY}, {token}: one name in single braces (a format placeholder).
 */
static int
is_brace_name(const char *s, size_t n)
{
	size_t	i;
	int	upper = 0, lower = 0;

	if (n < 3 || s[0] != '{' || s[n - 1] != '}' ||
	    !isalpha((unsigned char)s[1]))
		return 0;
	for (i = 1; i + 1 < n; i++) {
		if (isupper((unsigned char)s[i]))
			upper = 1;
		else if (islower((unsigned char)s[i]))
			lower = 1;
		else if (!isdigit((unsigned char)s[i]) && s[i] != '_' &&
		    s[i] != '-')
			return 0;
	}
	return !(upper && lower);
}

/*
 * A masked path: three or more trailing /-separated segments that are each
 * one character repeated (3+ times, after an optional upper-case letter:
 * T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX, services/XXX/YYY/ZZZ),
 * preceded by nothing or by a segment of letters only.
 */
static int
is_masked_path(const char *s, size_t n)
{
	size_t	e = n, b, i, segs = 0;

	while (e > 0) {
		for (b = e; b > 0 && s[b - 1] != '/'; b--)
			;
		i = b;
		if (e - i >= 4 && isupper((unsigned char)s[i]) &&
		    s[i + 1] != s[i])
			i++;
		if (e - i < 3)
			break;
		for (i++; i < e && s[i] == s[i - 1]; i++)
			;
		if (i != e || !isalnum((unsigned char)s[e - 1]))
			break;
		segs++;
		if (b == 0)
			return segs >= 3;
		e = b - 1;
	}
	if (segs < 3)
		return 0;
	for (b = e; b > 0 && s[b - 1] != '/'; b--) {
		if (!isalpha((unsigned char)s[b - 1]))
			return 0;
	}
	return e > b;
}

/*
 * Is this secret a reference or a placeholder rather than a value: $VAR,
 * ${VAR}, $(cmd), `cmd`, <...>, {{ }}, %VAR%, @keychain:NAME, an
 * environment lookup in code, ***, xxxx, sk-xxxx..., PASSWORD, or one of
 * our markers?
 */
static int
is_placeholder(const char *s, size_t n)
{
	const char *p;
	size_t	i, k, sep;

	while (n > 0 && (*s == '"' || *s == '\'')) {
		s++;
		n--;
	}
	while (n > 0 && (s[n - 1] == '"' || s[n - 1] == '\''))
		n--;
	/* One character hides nothing (curl -u KEY:X, Freshdesk's dummy). */
	if (n <= 1)
		return 1;
	/*
	 * Words that say the value is a stand-in: password=test, apikey=demo
	 * (a provider's documented demo key); android is the published
	 * password of Android's debug keystore.
	 */
	if ((n == 4 && (memcmp(s, "test", 4) == 0 ||
	    memcmp(s, "demo", 4) == 0)) ||
	    (n >= 8 && n <= 9 && strncasecmp(s, "redacted", 8) == 0 &&
	    (n == 8 || !isalnum((unsigned char)s[8]))) ||
	    (n == 7 && memcmp(s, "testing", 7) == 0) ||
	    (n == 8 && memcmp(s, "password", 8) == 0) ||
	    (n == 6 && memcmp(s, "secret", 6) == 0) ||
	    (n == 8 && memcmp(s, "changeme", 8) == 0) ||
	    (n == 10 && strncasecmp(s, "!changeme!", 10) == 0) ||
	    (n == 7 && memcmp(s, "android", 7) == 0))
		return 1;
	/* hydra's form markers: user=^USER^&pass=^PASS^ */
	if (n >= 6 && (strncmp(s, "^PASS^", 6) == 0 ||
	    strncmp(s, "^USER^", 6) == 0))
		return 1;
	if (s[0] == '$' && n > 1 && (s[1] == '{' || s[1] == '(' ||
	    s[1] == '_' || isalpha((unsigned char)s[1])))
		return 1;
	/* \$(op read ...) written into a file: still a reference. */
	if (n >= 2 && s[0] == '\\' && s[1] == '$' && (n == 2 ||
	    s[2] == '{' || s[2] == '(' || s[2] == '_' ||
	    isalpha((unsigned char)s[2])))
		return 1;
	/*
	 * anthropic=$ANTHROPIC_API_KEY, root@pam!monitoring=$PVE_SECRET:
	 * names bound to a reference.
	 */
	for (i = 0; i < n && i < 80 && (isalnum((unsigned char)s[i]) ||
	    strchr("_-.@!:=", s[i]) != NULL); i++)
		;
	if (i > 0 && i + 2 < n && s[i] == '$' && (s[i - 1] == '=' ||
	    s[i - 1] == ':') && (s[i + 1] == '{' || s[i + 1] == '_' ||
	    isalpha((unsigned char)s[i + 1]))) {
		for (k = i + 1; k < n && (isalnum((unsigned char)s[k]) ||
		    s[k] == '_' || s[k] == '{' || s[k] == '}'); k++)
			;
		if (k == n)
			return 1;
	}
	if (s[0] == '`')
		return 1;
	/* A printf conversion, the value comes as an argument: %s, %s\n. */
	if (n >= 2 && s[0] == '%') {
		for (i = 1; i < n && strchr("-+ #0123456789.", s[i]) != NULL;
		    i++)
			;
		if (i < n && strchr("sdiuxXfgcqb", s[i]) != NULL) {
			for (i++; i + 1 < n && s[i] == '\\'; i += 2)
				;
			if (i == n)
				return 1;
		}
	}
	/* %NPM_TOKEN% (Windows cmd) */
	if (n >= 3 && s[0] == '%' && s[n - 1] == '%' &&
	    (isalpha((unsigned char)s[1]) || s[1] == '_')) {
		for (i = 2; i + 1 < n; i++) {
			if (!isalnum((unsigned char)s[i]) && s[i] != '_')
				break;
		}
		if (i + 1 == n)
			return 1;
	}
	/*
	 * A Stripe or Supabase publishable key, a PostHog project key and an
	 * Adyen client key ship in web pages, and Mailgun's pubkey-
	 * validation key is public: public by design.
	 */
	if ((n > 8 && (strncmp(s, "pk_test_", 8) == 0 ||
	    strncmp(s, "pk_live_", 8) == 0)) ||
	    (n > 15 && strncmp(s, "sb_publishable_", 15) == 0) ||
	    (n > 4 && strncmp(s, "phc_", 4) == 0) ||
	    (n > 7 && strncmp(s, "pubkey-", 7) == 0) ||
	    is_adyen_client_key(s, n))
		return 1;
	/*
	 * The DER header of a public key in base64 (SubjectPublicKeyInfo:
	 * EC P-256 and P-384, RSA, Ed25519): public by definition.
	 */
	if ((n > 20 && strncmp(s, "MFkwEwYHKoZIzj0CAQYI", 20) == 0) ||
	    (n > 20 && strncmp(s, "MHYwEAYHKoZIzj0CAQYF", 20) == 0) ||
	    (n > 20 && strncmp(s, "MIIBIjANBgkqhkiG9w0B", 20) == 0) ||
	    (n > 12 && strncmp(s, "MCowBQYDK2Vw", 12) == 0))
		return 1;
	/*
	 * ENC[...]: an encrypted value (hiera-eyaml's ENC[PKCS7,...]) or a
	 * secret backend's handle (the Datadog Agent's ENC[name]), never the
	 * secret itself.
	 */
	if (n > 5 && strncmp(s, "ENC[", 4) == 0 && s[n - 1] == ']' &&
	    memchr(s, ' ', n) == NULL)
		return 1;
	/* GitHub's fixed password words for a token given as the user. */
	if ((n == 13 && strncmp(s, "x-oauth-basic", 13) == 0) ||
	    (n == 14 && strncmp(s, "x-access-token", 14) == 0))
		return 1;
	/* A secret reference: op://vault/item/field (1Password). */
	if (n > 5 && strncmp(s, "op://", 5) == 0)
		return 1;
	/* A Secret Manager reference: NAME:latest (gcloud --set-secrets). */
	if (n > 7 && memcmp(s + n - 7, ":latest", 7) == 0 &&
	    strspn(s, "abcdefghijklmnopqrstuvwxyz0123456789_-") == n - 7)
		return 1;
	/* A regex fragment in a sed expression: s/(token = ")[^"]+/.../ */
	if ((n >= 2 && s[0] == ')' && s[1] == '[') ||
	    (n >= 2 && s[0] == '[' && s[1] == '^'))
		return 1;
	/* A file the secret is read from: /dev/shm/X, /run/secrets/X, /dev/fd/N. */
	if ((n > 9 && strncmp(s, "/dev/shm/", 9) == 0) ||
	    (n > 13 && strncmp(s, "/run/secrets/", 13) == 0) ||
	    (n > 8 && strncmp(s, "/dev/fd/", 8) == 0) ||
	    (n == 10 && strncmp(s, "/dev/stdin", 10) == 0))
		return 1;
	/*
	 * A file the value is read from (--deployment-key /root/key.json),
	 * or the rest of a URL without credentials (azurekeyvault://HOST/
	 * keys/NAME cut after the scheme).
	 */
	if (is_file_path(s, n) || is_bare_url(s, n))
		return 1;
	/* Home Assistant's reference to secrets.yaml: !secret NAME. */
	if (n > 7 && strncmp(s, "!secret", 7) == 0)
		return 1;
	/* Azure App Service's Key Vault reference. */
	if (n > 20 && strncmp(s, "@Microsoft.KeyVault(", 20) == 0)
		return 1;
	/* A boolean or a null (bUsePassword=False, --create-password false). */
	if ((n == 4 && (strncasecmp(s, "true", 4) == 0 ||
	    strncasecmp(s, "null", 4) == 0 || strncasecmp(s, "none", 4) == 0)) ||
	    (n == 5 && strncasecmp(s, "false", 5) == 0))
		return 1;
	/*
	 * @keychain:AC_PASSWORD, @env:AC_PASSWORD (altool, notarytool),
	 * @file:PATH (codemagic's app-store-connect), @PATH (curl -d @F).
	 */
	if ((n > 10 && strncmp(s, "@keychain:", 10) == 0) ||
	    (n > 5 && strncmp(s, "@env:", 5) == 0) ||
	    (n > 6 && strncmp(s, "@file:", 6) == 0) ||
	    (n > 2 && s[0] == '@' && is_file_path(s + 1, n - 1)))
		return 1;
	for (i = 0; env_lookups[i] != NULL; i++) {
		k = strlen(env_lookups[i]);
		if (n >= k && memcmp(s, env_lookups[i], k) == 0 &&
		    (n == k || s[k] == '[' || s[k] == '(' || s[k] == '.'))
			return 1;
	}
	/* __FILL_ME_IN__, and CHANGE_ME/ before a sed delimiter */
	{
		size_t	b = 0, e = n;

		if (e > 1 && s[e - 1] == '/')
			e--;
		while (b < e && s[b] == '_')
			b++;
		while (e > b && s[e - 1] == '_')
			e--;
		if ((b > 0 || e < n) && is_replace_me(s + b, e - b))
			return 1;
	}
	if (is_placeholder_name(s, n) || is_masked_token(s, n) ||
	    is_template_value(s, n) || is_replace_me(s, n) ||
	    is_brace_name(s, n) || is_masked_path(s, n) ||
	    is_fake_words(s, n) || is_secret_name(s, n) ||
	    has_open_placeholder(s, n))
		return 1;
	if (s[0] == '<' && s[n - 1] == '>')
		return 1;
	/* [hidden], [masked]: a bracketed word standing for the value. */
	if (n >= 3 && s[0] == '[' && s[n - 1] == ']') {
		for (i = 1; i + 1 < n && (isalpha((unsigned char)s[i]) ||
		    s[i] == '_' || s[i] == '-' || s[i] == ' '); i++)
			;
		if (i + 1 == n)
			return 1;
	}
	/* <from user-secrets>: the start of a placeholder cut at a blank. */
	if (n >= 3 && s[0] == '<') {
		for (i = 1; i < n && (isalpha((unsigned char)s[i]) ||
		    s[i] == '-' || s[i] == '_'); i++)
			;
		if (i == n)
			return 1;
	}
	/* sk_test_REPLACE_ME: a provider prefix before a stand-in. */
	for (i = 1; i + 2 < n; i++) {
		if ((s[i - 1] == '_' || s[i - 1] == '-') &&
		    is_replace_me(s + i, n - i))
			return 1;
	}
	/* WordPress's wp-config-sample.php: 'put your unique phrase here' */
	if (n >= 27 && memchr(s, ' ', n) != NULL &&
	    memmem(s, n, "put your unique phrase here", 27) != NULL)
		return 1;
	/* YOUR_API_KEY, your-token-here, YourApiKeyToken (Etherscan's) */
	if (n > 5 && strncasecmp(s, "your", 4) == 0 && (s[4] == '-' ||
	    s[4] == '_'))
		return 1;
	if (n > 5 && strncmp(s, "Your", 4) == 0 &&
	    isupper((unsigned char)s[4])) {
		for (i = 5; i < n && isalpha((unsigned char)s[i]); i++)
			;
		if (i == n)
			return 1;
	}
	if (n > 5 && (strncasecmp(s + n - 5, "-here", 5) == 0 ||
	    strncasecmp(s + n - 5, "_here", 5) == 0))
		return 1;
	/*
	 * {{ .Values.x }}: a template when it opens the value or is closed
	 * ("l59*4G{{cmE<v=}k" is a password).
	 */
	if (memchr(s, '{', n) != NULL && (p = memmem(s, n, "{{", 2)) !=
	    NULL && (p == s || memmem(p + 2, n - (size_t)(p + 2 - s), "}}",
	    2) != NULL))
		return 1;
	if (memchr(s, '$', n) != NULL && (memmem(s, n, "${", 2) != NULL ||
	    memmem(s, n, "$(", 2) != NULL))
		return 1;
	if (memchr(s, '[', n) != NULL && (memmem(s, n, "[REDACTED", 9) !=
	    NULL || memmem(s, n, REDACT_TRUNCATED,
	    strlen(REDACT_TRUNCATED)) != NULL))
		return 1;
	/* Our path and type markers: [HOME]/.config/x, [ARG]=ops. */
	for (i = 0; memchr(s, '[', n) != NULL && own_markers[i] != NULL; i++) {
		if (memmem(s, n, own_markers[i], strlen(own_markers[i])) != NULL)
			return 1;
	}
	if (s[0] == '[' && s[n - 1] == ']') {
		for (i = 1; i + 1 < n; i++) {
			if (!isupper((unsigned char)s[i]) && s[i] != '_')
				break;
		}
		if (i + 1 == n)
			return 1;
	}
	/* ***, xxxx, XXXX/XXXX/XXXX, xxxx-xxxx: masked values. */
	for (i = 0, k = 0, sep = 0; i < n; i++) {
		if (s[i] == '*' || s[i] == 'x' || s[i] == 'X')
			k++;
		else if (s[i] == '/' || s[i] == '-' || s[i] == '_')
			sep++;
		else if (s[i] != '.')
			break;
	}
	if (i == n && ((sep == 0 && n >= 3) || k >= 3))
		return 1;
	return 0;
}

static int
rule_allows(struct redactor *r, struct rrule *ru, const char *s,
    size_t n)
{
	size_t	i;
	int	rc;

	for (i = 0; i < ru->nallow; i++) {
		/* JIT-compiled on first use, as the rules are (rule_run()). */
		if (ru->allow_jit[i] == 0)
			ru->allow_jit[i] = getenv("DELIBERATE_NO_JIT") == NULL &&
			    pcre2_jit_compile(ru->allow[i],
			    PCRE2_JIT_COMPLETE) == 0 ? 1 : 2;
		if (ru->allow_jit[i] == 1)
			rc = pcre2_jit_match(ru->allow[i], (PCRE2_SPTR)s, n,
			    0, 0, r->md, r->mctx);
		else
			rc = pcre2_match(ru->allow[i], (PCRE2_SPTR)s, n, 0, 0,
			    r->md, r->mctx);
		if (rc >= 0)
			return 1;
	}
	return 0;
}

/*
 * A rule's decoded pattern: a base64 secret whose decoding is text is kept
 * only when that text matches (echo '{"region":"eu-west-1"}' in base64 |
 * base64 -d is a config, not a credential).  What does not decode, or
 * decodes to binary (a raw key), is kept, unless the rule says
 * decoded-text: then only matching text is.
 */
static int
decoded_matches(struct redactor *r, struct rrule *ru, const char *s,
    size_t n)
{
	unsigned char	*bin;
	size_t		 binlen, b64len = n, i;
	int		 keep;

	while (b64len > 0 && s[b64len - 1] == '=')
		b64len--;
	bin = xmalloc(b64len / 4 * 3 + 3);
	if (sodium_base642bin(bin, b64len / 4 * 3 + 3, s, b64len, NULL,
	    &binlen, NULL, sodium_base64_VARIANT_ORIGINAL_NO_PADDING) != 0) {
		free(bin);
		return !ru->decoded_text;
	}
	for (i = 0; i < binlen; i++) {
		if ((bin[i] < 0x20 && !isspace(bin[i])) || bin[i] == 0x7f)
			break;
	}
	if (i < binlen)		/* bytes, not text */
		keep = !ru->decoded_text;
	else
		keep = pcre2_match(ru->decoded, bin, binlen, 0, 0, r->md,
		    r->mctx) >= 0;
	sodium_memzero(bin, binlen);
	free(bin);
	return keep;
}

static void
spans_add(struct spans *sp, size_t start, size_t end, size_t rule)
{
	if (sp->n == sp->alloc) {
		sp->alloc = sp->alloc == 0 ? 16 : sp->alloc * 2;
		sp->v = xreallocarray(sp->v, sp->alloc, sizeof *sp->v);
	}
	sp->v[sp->n].start = start;
	sp->v[sp->n].end = end;
	sp->v[sp->n].rule = rule;
	sp->v[sp->n].prio = 0;
	sp->v[sp->n].homelen = 0;
	sp->v[sp->n].repl = NULL;
	sp->n++;
}

static void
spans_release(struct spans *sp)
{
	size_t	i;

	for (i = 0; i < sp->n; i++)
		free(sp->v[i].repl);
	free(sp->v);
	memset(sp, 0, sizeof *sp);
}

static int
is_tokchar(int c)
{
	return c != ' ' && c != '\t' && c != '\n' && c != '\r' && c != '\0';
}

/*
 * Fail closed for a rule whose match hit a limit: redact the token after
 * each occurrence of one of its keywords (or the whole input for a
 * keyword-less rule).
 */
static void
rule_fail_closed(const struct rrule *ru, size_t idx, const char *in,
    size_t len, struct spans *sp)
{
	size_t	 i, k, klen, s, e;

	if (ru->nkeywords == 0) {
		if (len > 0)
			spans_add(sp, 0, len, idx);
		return;
	}
	for (k = 0; k < ru->nkeywords; k++) {
		klen = strlen(ru->keywords[k]);
		for (i = 0; i + klen <= len; i++) {
			if (strncasecmp(in + i, ru->keywords[k], klen) != 0)
				continue;
			s = i + klen;
			while (s < len && (in[s] == '=' || in[s] == ':' ||
			    in[s] == ' ' || in[s] == '\t' || in[s] == '\'' ||
			    in[s] == '"'))
				s++;
			e = s;
			while (e < len && is_tokchar((unsigned char)in[e]))
				e++;
			if (e > s)
				spans_add(sp, s, e, idx);
			i = e > i ? e - 1 : i;
		}
	}
}

/*
 * '$Maple2026pepper' in single quotes is a literal, not a reference; an
 * all-capitals '$NAME' still reads as a placeholder.
 */
static int
single_quoted_literal(const char *in, size_t len, size_t s, size_t e)
{
	size_t	i;

	if (s == 0 || e >= len || in[s - 1] != '\'' || in[e] != '\'' ||
	    in[s] != '$' || e - s < 2 || in[s + 1] == '(' || in[s + 1] == '{')
		return 0;
	for (i = s + 1; i < e; i++) {
		if (islower((unsigned char)in[i]))
			return 1;
	}
	return 0;
}

/*
 * The quote that encloses position pos of a shell line ('\'' or '"'), or
 * 0: a plain scan from the start, with backslash escapes outside single
 * quotes.
 */
static int
quote_at(const char *in, size_t pos)
{
	size_t	i;
	int	q = 0;

	for (i = 0; i < pos; i++) {
		if (q != '\'' && in[i] == '\\') {
			i++;
			continue;
		}
		if (q == 0 && (in[i] == '\'' || in[i] == '"'))
			q = in[i];
		else if (q != 0 && in[i] == q)
			q = 0;
	}
	return q;
}

/* A function's name, maybe dotted: getpass.getpass, os.getenv. */
static int
is_call_name(const char *s, size_t n)
{
	size_t	i;

	if (n == 0 || !(isalpha((unsigned char)s[0]) || s[0] == '_'))
		return 0;
	for (i = 1; i < n; i++) {
		if (!isalnum((unsigned char)s[i]) && s[i] != '_' &&
		    s[i] != '.')
			return 0;
	}
	return 1;
}

/* Whether in[i..] is NAME( : a call's first argument is another call. */
static int
nested_call(const char *in, size_t len, size_t i)
{
	size_t	k;

	for (k = i; k < len && k - i < 64 && (isalnum((unsigned char)in[k]) ||
	    in[k] == '_' || in[k] == '.'); k++)
		;
	return k < len && in[k] == '(' && is_call_name(in + i, k - i);
}

/*
 * A bare value stops at a shell operator (| ; & < > ( )), but inside a
 * quoted string those are only characters: -e 'db_password=j|(!iNA...'
 * and 'neighbor X password 2<gD,d^@s#;0bY' go on to the next blank or
 * the closing quote.  Returns the new end.
 */
static size_t
extend_in_quotes(const char *in, size_t len, size_t s, size_t e)
{
	int	q;

	size_t	i;

	/* Not &: in a quoted URL it ends the query parameter. */
	if (e >= len || strchr("<>|;()", in[e]) == NULL || in[e] == '\0' ||
	    (q = quote_at(in, s)) == 0)
		return e;
	/* </Password>: the value's closing XML tag. */
	if (in[e] == '<' && e + 1 < len && in[e + 1] == '/')
		return e;
	/* 's|^token: .*|token: X|g': the last delimiter of sed's s|||. */
	if (in[e] == '|') {
		for (i = e + 1; i < len && in[i] != '\0' &&
		    strchr("gIip0123456789", in[i]) != NULL; i++)
			;
		if (i < len && in[i] == q)
			return e;
	}
	/* <your-key> is a placeholder, not more of the value. */
	if (in[e] == '<') {
		for (i = e + 1; i < len && (isalnum((unsigned char)in[i]) ||
		    in[i] == '-' || in[i] == '_'); i++)
			;
		if (i < len && in[i] == '>' && i > e + 1)
			return e;
	}
	while (e < len && in[e] != q && in[e] != ' ' && in[e] != '\t' &&
	    in[e] != '\n') {
		if (q == '"' && in[e] == '\\' && e + 1 < len)
			e++;
		e++;
	}
	return e;
}

/*
 * Run the value model over in (rule key "model"): each value no earlier
 * rule has hidden, any part of it, is scored, and one at or over the
 * model's threshold is a secret unless it is a placeholder, under the
 * rule's entropy or allowed by it.  The model rule is loaded last, so
 * that every pattern rule has run.
 */
static void
value_run(struct redactor *r, size_t idx, const char *in, size_t len,
    struct spans *sp, int first_only)
{
	struct rrule	*ru = &r->rules[idx];
	struct vm_tok	 toks[VALUEMODEL_MAXTOK];
	size_t		 ntok, k, i, s, e;
	double		 th = wordmodel_threshold(ru->model);

	ntok = valuemodel_tokens(in, len, toks, VALUEMODEL_MAXTOK);
	for (k = 0; k < ntok; k++) {
		s = toks[k].start;
		e = toks[k].end;
		if (!valuemodel_candidate(in + s, e - s))
			continue;
		for (i = 0; i < sp->n && (sp->v[i].end <= s ||
		    sp->v[i].start >= e); i++)
			;
		/* <your-token>, {{TOKEN}}: a placeholder's inside. */
		if (s > 0 && e < len && ((in[s - 1] == '<' && in[e] == '>') ||
		    (in[s - 1] == '{' && in[e] == '}')))
			continue;
		if (i < sp->n ||
		    valuemodel_score(ru->model, in, toks, ntok, k) < th ||
		    is_placeholder(in + s, e - s) ||
		    (ru->entropy > 0 && entropy_of(in + s, e - s) <
		    ru->entropy) || rule_allows(r, ru, in + s, e - s))
			continue;
		spans_add(sp, s, e, idx);
		if (first_only)
			break;
	}
}

/*
 * Run one rule over in and append its accepted secret spans.  Returns 0,
 * or -1 when a match limit fired (spans were then added conservatively).
 */
static int
rule_run(struct redactor *r, size_t idx, const char *in, size_t len,
    struct spans *sp, int first_only)
{
	struct rrule		*ru = &r->rules[idx];
	PCRE2_SIZE		*ov, off = 0, s, e, ms, me;
	const char		*nl;
	size_t			 g;
	int			 rc;

	if (ru->model != NULL) {
		value_run(r, idx, in, len, sp, first_only);
		return 0;
	}

	/*
	 * JIT-compile on first use.  Without JIT support, the interpreter
	 * and its limits are used; DELIBERATE_NO_JIT asks for them (memcheck
	 * runs).
	 */
	if (!ru->jit_tried) {
		ru->jit_tried = 1;
		ru->jit = getenv("DELIBERATE_NO_JIT") == NULL &&
		    pcre2_jit_compile(ru->re, PCRE2_JIT_COMPLETE) == 0;
	}
	while (off <= len) {
		/*
		 * The JIT's own entry skips pcre2_match()'s checks of the
		 * options and the subject (4% of the instructions per line of
		 * bench/redact.sh's corpus).  It honours the match limit.
		 */
		if (ru->jit)
			rc = pcre2_jit_match(ru->re, (PCRE2_SPTR)in, len, off,
			    0, r->md, r->mctx);
		else
			rc = pcre2_match(ru->re, (PCRE2_SPTR)in, len, off, 0,
			    r->md, r->mctx);
		if (rc == PCRE2_ERROR_NOMATCH)
			break;
		if (rc < 0) {
			rule_fail_closed(ru, idx, in, len, sp);
			return -1;
		}
		ov = pcre2_get_ovector_pointer(r->md);
		ms = ov[0];
		me = ov[1];
		s = e = PCRE2_UNSET;
		for (g = 0; g < ru->ngroups; g++) {
			if ((uint32_t)rc > ru->groups[g] &&
			    ov[2 * ru->groups[g]] != PCRE2_UNSET) {
				s = ov[2 * ru->groups[g]];
				e = ov[2 * ru->groups[g] + 1];
				break;
			}
		}
		off = me > ms ? me : ms + 1;
		if (s == PCRE2_UNSET || e <= s)
			continue;
		/*
		 * password=getpass.getpass(): a call gives the value; so does
		 * user_pass=MD5(CONCAT(user_login, ...)), a call of a call.
		 */
		if (e + 1 < len && in[e] == '(' && is_call_name(in + s, e - s) &&
		    (in[e + 1] == ')' || in[e + 1] == '\'' || in[e + 1] == '"' ||
		    memchr(in + s, '.', e - s) != NULL || nested_call(in, len,
		    e + 1)))
			continue;
		/*
		 * echo 'A_KEY=' >> .env && echo 'B_KEY=': the quote after the
		 * '=' closes the string the name is in, and what follows it is
		 * shell, not a quoted value.
		 */
		if (ru->rewrite != REWRITE_PATH && s > 0 && in[s - 1] == '\'' &&
		    quote_at(in, s - 1) == '\'')
			continue;
		e = extend_in_quotes(in, len, s, e);
		/*
		 * printf 'A_KEY=sk-...\nB_KEY=...': a placeholder ends at the
		 * literal \n, and the text after it is searched again.
		 */
		if (ru->rewrite != REWRITE_PATH && e - s > 2 &&
		    (nl = memmem(in + s + 1, e - s - 1, "\\n", 2)) != NULL &&
		    is_placeholder(in + s, (size_t)(nl - (in + s)))) {
			off = (size_t)(nl - in) + 2;
			continue;
		}
		/*
		 * printf 'A_SECRET=\nB_SECRET=\n': an empty value, then the
		 * next line of the file.
		 */
		if (ru->rewrite != REWRITE_PATH && e - s >= 2 &&
		    in[s] == '\\' && in[s + 1] == 'n')
			continue;
		/*
		 * sed 's/KEY: .*\/KEY: VALUE/': a value that starts with .* is
		 * the regular expression; the search goes on after it, to the
		 * replacement.
		 */
		if (ru->rewrite != REWRITE_PATH && e - s > 2 && in[s] == '.' &&
		    (in[s + 1] == '*' || in[s + 1] == '+')) {
			off = s + 2;
			continue;
		}
		if (ru->rewrite != REWRITE_PATH && is_placeholder(in + s, e - s) &&
		    !single_quoted_literal(in, len, s, e))
			continue;
		/*
		 * STRIPE_SECRET=sk_live_<your-secret-key>: the value stops at
		 * the '<' of a placeholder that finishes it.
		 */
		if (ru->rewrite != REWRITE_PATH && e < len && in[e] == '<') {
			size_t	w = e;

			while (w < len && w - e < 64 &&
			    !isspace((unsigned char)in[w]) && in[w] != '"' &&
			    in[w] != '\'')
				w++;
			if (has_open_placeholder(in + s, w - s))
				continue;
		}
		if (ru->entropy > 0 && entropy_of(in + s, e - s) < ru->entropy)
			continue;
		if (rule_allows(r, ru, in + s, e - s))
			continue;
		if (ru->decoded != NULL && !decoded_matches(r, ru, in + s, e - s))
			continue;
		spans_add(sp, s, e, idx);
		if (first_only)
			break;
	}
	return 0;
}

static void
redact_ac_hit(unsigned id, size_t end, void *arg)
{
	struct redactor	*r = arg;

	(void)end;
	r->run[id / 64] |= (uint64_t)1 << (id % 64);
}

static int
is_userchar(int c)
{
	return isalnum(c) || c == '_' || c == '-' || c == '.';
}

static void
username_spans(struct redactor *r, const char *in, size_t len,
    struct spans *sp)
{
	size_t	 n, i;

	if (r->username == NULL)
		return;
	n = strlen(r->username);
	for (i = 0; i + n <= len; i++) {
		if (memcmp(in + i, r->username, n) != 0)
			continue;
		if (i > 0 && is_userchar((unsigned char)in[i - 1]))
			continue;
		if (i + n < len && is_userchar((unsigned char)in[i + n]))
			continue;
		spans_add(sp, i, i + n, r->user_rule);
	}
}

static int
is_pathend(int c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\'' ||
	    c == '"' || c == '|' || c == ';' || c == '&' || c == '<' ||
	    c == '>' || c == '(' || c == ')' || c == '`';
}

/*
 * The user's own home directories, wherever they live: a whole path
 * component sequence starting at a word boundary, up to the end of the
 * path.  They win ties against the rules (other-abs-path's [PATH]).
 */
static void
home_spans(struct redactor *r, const char *in, size_t len, struct spans *sp)
{
	const char	*h, *p;
	size_t		 k, n, i, e;
	int		 c;

	for (k = 0; k < r->nhomes; k++) {
		h = r->homes[k];
		n = strlen(h);
		for (i = 0; i + n <= len; i = (size_t)(p - in) + 1) {
			if ((p = memmem(in + i, len - i, h, n)) == NULL)
				break;
			if (p > in) {
				c = (unsigned char)p[-1];
				if (isalnum(c) || strchr("_.~/]$@-", c) != NULL)
					continue;
			}
			e = (size_t)(p - in) + n;
			if (e < len && in[e] != '/' && in[e] != ':' &&
			    in[e] != ',' && !is_pathend((unsigned char)in[e]))
				continue;
			while (e < len && in[e] != ':' && in[e] != ',' &&
			    !is_pathend((unsigned char)in[e]))
				e++;
			spans_add(sp, (size_t)(p - in), e, r->home_rule);
			sp->v[sp->n - 1].prio = 1;
			sp->v[sp->n - 1].homelen = n;
		}
	}
}

static int
span_prio_cmp(const void *a, const void *b)
{
	const struct span	*x = a, *y = b;
	size_t			 lx = x->end - x->start, ly = y->end - y->start;

	if (lx != ly)
		return lx > ly ? -1 : 1;
	if (x->prio != y->prio)
		return x->prio > y->prio ? -1 : 1;
	if (x->rule != y->rule)
		return x->rule < y->rule ? -1 : 1;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return 0;
}

static int
span_pos_cmp(const void *a, const void *b)
{
	const struct span	*x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return 0;
}

/* Keep the winning spans: longest first, then lowest rule order. */
static void
spans_resolve(struct spans *sp, size_t len)
{
	unsigned char	*used;
	size_t		 i, j, n = 0;

	if (sp->n == 0)
		return;
	qsort(sp->v, sp->n, sizeof *sp->v, span_prio_cmp);
	used = xcalloc(len + 1, 1);
	for (i = 0; i < sp->n; i++) {
		for (j = sp->v[i].start; j < sp->v[i].end; j++) {
			if (used[j])
				break;
		}
		if (j < sp->v[i].end) {
			free(sp->v[i].repl);
			continue;
		}
		memset(used + sp->v[i].start, 1, sp->v[i].end - sp->v[i].start);
		sp->v[n++] = sp->v[i];
	}
	free(used);
	sp->n = n;
	qsort(sp->v, sp->n, sizeof *sp->v, span_pos_cmp);
}

static const char *const home_keep[] = {
	"Desktop", "Documents", "Downloads", "Music", "Pictures", "Public",
	"Templates", "Videos", "bin", "tmp", NULL
};

static const char *const home_containers[] = {
	"projects", "Projects", "project", "src", "code", "Code", "repos",
	"repo", "git", "work", "workspace", "workspaces", "dev", "Developer",
	"development", "go", "sources", "github", "gitlab", NULL
};

static const char *const known_files[] = {
	"id_rsa", "id_rsa.pub", "id_ed25519", "id_ed25519.pub", "id_ecdsa",
	"id_ecdsa.pub", "id_dsa", "authorized_keys", "known_hosts", "config",
	"credentials", "kubeconfig", NULL
};

static int
word_in(const char *s, size_t n, const char *const *list)
{
	size_t	i;

	for (i = 0; list[i] != NULL; i++) {
		if (strlen(list[i]) == n && memcmp(list[i], s, n) == 0)
			return 1;
	}
	return 0;
}

/*
 * Anonymise a path (see redaction-rules/README.md): the home prefix
 * becomes [HOME]; under it, a project container and the next component
 * (or the first unknown component) become [PROJECT], dot-files and the
 * standard home directories stay, middle components become [SUBDIR] and
 * the last one [FILE] unless it is a dot-file or a well-known file name.
 * Any other absolute path becomes [PATH].
 */
static char *
path_anon(const char *p, size_t n, size_t homelen)
{
	struct buf	 b = BUF_INIT;
	const char	*c[64], *q, *e = p + n;
	size_t		 cl[64], nc = 0, i = 0, j, k;
	int		 trailing;

	k = n > 10 && strncmp(p, "/var/home/", 10) == 0 ? 10 :
	    n > 13 && strncmp(p, "/export/home/", 13) == 0 ? 13 : 0;
	if (homelen > 0)
		q = p + homelen;
	else if (k > 0)
		q = memchr(p + k, '/', n - k);
	else if (n > 1 && p[0] == '~')
		q = memchr(p, '/', n);
	else if (n >= 5 && strncmp(p, "$HOME", 5) == 0)
		q = p + 5;
	else if (n >= 7 && strncmp(p, "${HOME}", 7) == 0)
		q = p + 7;
	else if (n >= 5 && strncmp(p, "/root", 5) == 0 &&
	    (n == 5 || p[5] == '/'))
		q = p + 5;
	else if ((n > 6 && strncmp(p, "/home/", 6) == 0) ||
	    (n > 7 && strncmp(p, "/Users/", 7) == 0))
		q = memchr(p + 6 + (p[1] == 'U'), '/', n - 6 - (p[1] == 'U'));
	else if (p[0] == '~')
		q = p + 1;
	else
		return xstrdup("[PATH]");
	if (q == NULL)
		q = e;
	buf_adds(&b, "[HOME]");
	trailing = n > 0 && e[-1] == '/' && q < e;
	while (q < e && nc < 64) {
		while (q < e && *q == '/')
			q++;
		if (q == e)
			break;
		c[nc] = q;
		while (q < e && *q != '/')
			q++;
		cl[nc] = (size_t)(q - c[nc]);
		nc++;
	}
	if (nc > 0) {
		if (word_in(c[0], cl[0], home_containers) && nc >= 2) {
			buf_adds(&b, "/[PROJECT]");
			i = 2;
		} else if (c[0][0] == '.' || word_in(c[0], cl[0], home_keep)) {
			buf_addc(&b, '/');
			buf_add(&b, c[0], cl[0]);
			i = 1;
		} else if (nc >= 2) {
			buf_adds(&b, "/[PROJECT]");
			i = 1;
		}
	}
	for (j = i; j < nc; j++) {
		if (j + 1 < nc || trailing)
			buf_adds(&b, "/[SUBDIR]");
		else if (c[j][0] == '.' || word_in(c[j], cl[j], known_files)) {
			buf_addc(&b, '/');
			buf_add(&b, c[j], cl[j]);
		} else
			buf_adds(&b, "/[FILE]");
	}
	if (trailing)
		buf_addc(&b, '/');
	return buf_detach(&b, NULL);
}

static int
is_pwchar(int c)
{
	switch (c) {
	case '@': case '$': case '!': case '#': case '*': case '_': case '-':
	case '?': case '+': case '^': case '~':
		return 1;
	}
	return isalnum(c);
}

/* Does in have a word of the mixed-word shape (see SHAPE_MIXED_WORD)? */
static int
has_mixed_word(const char *in, size_t len)
{
	size_t	i = 0, b;
	int	up, lo, dg, c;

	while (i < len) {
		while (i < len && !is_pwchar((unsigned char)in[i]))
			i++;
		b = i;
		up = lo = dg = 0;
		for (; i < len && is_pwchar(c = (unsigned char)in[i]); i++) {
			up |= isupper(c);
			lo |= islower(c);
			dg |= isdigit(c);
		}
		if (i - b >= 8 && i - b <= 40 && up && lo && dg)
			return 1;
	}
	return 0;
}

/*
 * A credential kept after overlaps are resolved is hidden wherever else
 * it occurs in the line (a sed script that writes the same token after a
 * USER: and after a PASSWORD: setting, where only one of the names says
 * secret).  Only token-like values are chased: 8 bytes or more with a
 * letter and a digit, or 16 and more (not "postgres", "creds.txt").  At
 * most REPEAT_MAX spans are looked for, so a hostile line costs at most
 * REPEAT_MAX passes over it.  Returns whether spans were added.
 */
#define REPEAT_MIN	8
#define REPEAT_MAX	32
static int
repeat_spans(struct redactor *r, const char *in, size_t len,
    struct spans *sp)
{
	size_t		 i, n0 = sp->n, n = sp->n, k, slen, j;
	const char	*p, *from;
	int		 added = 0, alpha, digit;

	if (n > REPEAT_MAX)
		n = REPEAT_MAX;
	for (i = 0; i < n; i++) {
		/* Copies: spans_add may move sp->v. */
		size_t	start = sp->v[i].start, rule = sp->v[i].rule;

		slen = sp->v[i].end - start;
		/* printf 'PASSWORD=X\n': the \n is not part of X. */
		while (slen >= 2 && in[start + slen - 2] == '\\' &&
		    in[start + slen - 1] == 'n')
			slen -= 2;
		if (slen < REPEAT_MIN || r->rules[rule].level != ANON_MINIMAL)
			continue;
		for (j = 0, alpha = digit = 0; j < slen; j++) {
			alpha |= isalpha((unsigned char)in[start + j]) != 0;
			digit |= isdigit((unsigned char)in[start + j]) != 0;
		}
		if (!(alpha && digit) && slen < 16)
			continue;
		for (k = 0, from = in; (p = memmem(from, len -
		    (size_t)(from - in), in + start, slen)) != NULL;
		    from = p + slen) {
			size_t	at = (size_t)(p - in);

			/* The first n0 spans are resolved: sorted, apart. */
			while (k < n0 && sp->v[k].end <= at)
				k++;
			if (k == n0 || sp->v[k].start > at ||
			    sp->v[k].end < at + slen) {
				spans_add(sp, at, at + slen, rule);
				added = 1;
			}
		}
	}
	return added;
}

/*
 * Find and resolve every span of in at level.  Returns the number of
 * rules that hit a limit.
 */
static int
redact_collect(struct redactor *r, enum anon_level level, const char *in,
    size_t len, struct spans *sp)
{
	uint64_t	bits;
	size_t		i, w;
	int		limits = 0, mixed = -1;

	/*
	 * Only the rules whose keywords occur, and those without keywords,
	 * are visited, in load order (which breaks ties): a loop over every
	 * rule cost 14% of the instructions per line, and sorting a list of
	 * the rules hit 2%; the bits of a set come out in order.
	 */
	acmatch_scan(r->ac, in, len, redact_ac_hit, r);
	for (w = 0; w < r->nwords; w++) {
		bits = r->run[w] | r->always[w];
		r->run[w] = 0;
		for (; bits != 0; bits &= bits - 1) {
			i = w * 64 + (size_t)__builtin_ctzll(bits);
			if (r->rules[i].level > level)
				continue;
			if (r->rules[i].shape == SHAPE_MIXED_WORD) {
				if (mixed < 0)
					mixed = has_mixed_word(in, len);
				if (!mixed)
					continue;
			}
			if (rule_run(r, i, in, len, sp, 0) != 0)
				limits++;
		}
	}
	if (level >= ANON_STANDARD) {
		username_spans(r, in, len, sp);
		home_spans(r, in, len, sp);
	}
	spans_resolve(sp, len);
	if (repeat_spans(r, in, len, sp))
		spans_resolve(sp, len);
	for (i = 0; i < sp->n; i++) {
		if (r->rules[sp->v[i].rule].rewrite == REWRITE_PATH)
			sp->v[i].repl = path_anon(in + sp->v[i].start,
			    sp->v[i].end - sp->v[i].start, sp->v[i].homelen);
	}
	return limits;
}

static const char *
span_text(const struct redactor *r, const struct span *s)
{
	return s->repl != NULL ? s->repl : r->rules[s->rule].label;
}

static void
stats_insert(const char ***v, size_t *n, const char *s)
{
	size_t	lo = 0, hi = *n, mid;
	int	c;

	while (lo < hi) {
		mid = (lo + hi) / 2;
		c = strcmp((*v)[mid], s);
		if (c == 0)
			return;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	*v = xreallocarray(*v, *n + 1, sizeof **v);
	memmove(*v + lo + 1, *v + lo, (*n - lo) * sizeof **v);
	(*v)[lo] = s;
	(*n)++;
}

static void
stats_add(const struct redactor *r, const struct spans *sp, int limits,
    struct redact_stats *stats)
{
	size_t	i;

	if (stats == NULL)
		return;
	if (limits > 0)
		stats->limit_hit = 1;
	for (i = 0; i < sp->n; i++) {
		const struct rrule *ru = &r->rules[sp->v[i].rule];

		stats->count++;
		stats->sensitive++;
		stats_insert(&stats->rule_ids, &stats->nrule_ids, ru->id);
		stats_insert(&stats->types, &stats->ntypes, ru->type);
	}
}

/* Count typed argument values: not sensitive data found, see redact.h. */
static void
stats_add_typed(const struct redactor *r, size_t n, struct redact_stats *st)
{
	if (st == NULL || n == 0)
		return;
	st->count += n;
	stats_insert(&st->rule_ids, &st->nrule_ids, r->rules[r->arg_rule].id);
}

/*
 * The length to process: at most REDACT_MAX_FIELD, cut back to a blank
 * so that a secret is never split at the cap.
 */
static size_t
redact_cap(const char *in, size_t len)
{
	size_t	n;

	if (len <= REDACT_MAX_FIELD)
		return len;
	n = REDACT_MAX_FIELD;
	while (n > 0 && is_tokchar((unsigned char)in[n - 1]))
		n--;
	return n;
}

static void
rewrite_range(const struct redactor *r, const char *in, size_t from,
    size_t to, const struct spans *sp, struct buf *out)
{
	size_t	i, at = from;

	for (i = 0; i < sp->n; i++) {
		const struct span *s = &sp->v[i];

		if (s->end <= from || s->start >= to)
			continue;
		if (s->start > at)
			buf_add(out, in + at, s->start - at);
		buf_adds(out, span_text(r, s));
		at = s->end < to ? s->end : to;
	}
	if (to > at)
		buf_add(out, in + at, to - at);
}

static void
lex_add(struct lexed *lx, size_t start, size_t end, int op)
{
	if (lx->n == lx->alloc) {
		lx->alloc = lx->alloc == 0 ? 16 : lx->alloc * 2;
		lx->v = xreallocarray(lx->v, lx->alloc, sizeof *lx->v);
	}
	lx->v[lx->n].start = start;
	lx->v[lx->n].end = end;
	lx->v[lx->n].op = op;
	lx->v[lx->n].cmd = 0;
	lx->v[lx->n].assign = 0;
	lx->n++;
}

/* Length of an operator or redirection at p, or 0. */
static size_t
lex_op(const char *p, size_t n)
{
	static const char *const ops[] = {
		"&>>", "<<<", "<<-", ">>", "<<", "&&", "||", "|&", ";;", ">&",
		"<&", "<>", ">|", "&>", "|", "&", ";", "(", ")", "<", ">",
		"\n", NULL
	};
	size_t	i, l, d = 0;

	while (d < n && isdigit((unsigned char)p[d]))
		d++;
	/* The common case, and the lexer asks at every byte. */
	if (d == n || p[d] == '\0' || strchr("&<>|;()\n", p[d]) == NULL)
		return 0;
	for (i = 0; ops[i] != NULL; i++) {
		l = strlen(ops[i]);
		if (d > 0 && ops[i][0] != '<' && ops[i][0] != '>')
			continue;
		if (d + l <= n && memcmp(p + d, ops[i], l) == 0)
			return d + l;
	}
	return 0;
}

/*
 * Split a command line into words and operators, with quotes, escapes
 * and $( ) / ` ` / ${ } nesting honoured, and mark leading assignments
 * and the command name of each simple command.
 */
static void
lex_line(const char *in, size_t len, struct lexed *lx)
{
	size_t	 i = 0, s, k, depth;
	int	 at_cmd = 1;
	char	 q;

	while (i < len) {
		if (in[i] == ' ' || in[i] == '\t' || in[i] == '\r') {
			i++;
			continue;
		}
		if (in[i] == '\\' && i + 1 < len && in[i + 1] == '\n') {
			i += 2;
			continue;
		}
		if ((k = lex_op(in + i, len - i)) > 0) {
			lex_add(lx, i, i + k, 1);
			if (in[i] != '<' && in[i] != '>' &&
			    !isdigit((unsigned char)in[i]) &&
			    strncmp(in + i, "&>", 2) != 0 &&
			    strncmp(in + i, ">&", 2) != 0)
				at_cmd = 1;
			i += k;
			continue;
		}
		s = i;
		depth = 0;
		while (i < len) {
			if (depth == 0 && (in[i] == ' ' || in[i] == '\t' ||
			    in[i] == '\r' || lex_op(in + i, len - i) > 0) &&
			    !(isdigit((unsigned char)in[i]) && i > s))
				break;
			if (in[i] == '\\' && i + 1 < len) {
				i += 2;
				continue;
			}
			if (in[i] == '\'' || in[i] == '"' || in[i] == '`') {
				q = in[i++];
				while (i < len && in[i] != q) {
					if (q != '\'' && in[i] == '\\' &&
					    i + 1 < len)
						i++;
					i++;
				}
				if (i < len)
					i++;
				continue;
			}
			if (in[i] == '$' && i + 1 < len &&
			    (in[i + 1] == '(' || in[i + 1] == '{')) {
				depth++;
				i += 2;
				continue;
			}
			if (depth > 0 && (in[i] == '(' || in[i] == '{'))
				depth++;
			else if (depth > 0 && (in[i] == ')' || in[i] == '}'))
				depth--;
			i++;
		}
		if (i == s) {
			i++;
			continue;
		}
		lex_add(lx, s, i, 0);
		if (at_cmd) {
			for (k = s; k < i && (isalnum((unsigned char)in[k]) ||
			    in[k] == '_'); k++)
				;
			if (k > s && !isdigit((unsigned char)in[s]) && k < i &&
			    (in[k] == '=' || (in[k] == '+' && k + 1 < i &&
			    in[k + 1] == '=')))
				lx->v[lx->n - 1].assign = 1;
			else {
				lx->v[lx->n - 1].cmd = 1;
				at_cmd = 0;
			}
		}
	}
}

/* Remove shell quoting from a redacted word (no expansion). */
static char *
unquote(const char *s, size_t n)
{
	struct buf	b = BUF_INIT;
	size_t		i = 0;

	buf_add(&b, "", 0);
	while (i < n) {
		if (s[i] == '\\' && i + 1 < n) {
			buf_addc(&b, s[i + 1]);
			i += 2;
		} else if (s[i] == '\'' || (s[i] == '$' && i + 1 < n &&
		    s[i + 1] == '\'')) {
			i += s[i] == '$' ? 2 : 1;
			while (i < n && s[i] != '\'')
				buf_addc(&b, s[i++]);
			i++;
		} else if (s[i] == '"') {
			i++;
			while (i < n && s[i] != '"') {
				if (s[i] == '\\' && i + 1 < n &&
				    strchr("\"\\$`", s[i + 1]) != NULL)
					i++;
				buf_addc(&b, s[i++]);
			}
			i++;
		} else
			buf_addc(&b, s[i++]);
	}
	return buf_detach(&b, NULL);
}

static int
is_label(const char *s)
{
	size_t	n = strlen(s), i;

	if (n < 3 || s[0] != '[' || s[n - 1] != ']')
		return 0;
	for (i = 1; i + 1 < n; i++) {
		if (!isupper((unsigned char)s[i]) && s[i] != '_')
			return 0;
	}
	return 1;
}

/*
 * The shape of a redacted word at maximum: labels stay, a flag keeps its
 * name (its value becomes [ARG]), an assignment keeps its name, paths
 * become [PATH] and everything else [ARG].
 */
static char *
word_shape(const char *w, int assign)
{
	const char	*eq;
	size_t		 i;

	if (is_label(w))
		return xstrdup(w);
	eq = strchr(w, '=');
	if (eq != NULL && is_label(eq + 1)) {
		if (w[0] == '-' || assign)
			return xstrdup(w);
	}
	if (assign && eq != NULL) {
		char *ret;

		xasprintf(&ret, "%.*s=[ARG]", (int)(eq - w), w);
		return ret;
	}
	if (w[0] == '-' && w[1] != '\0') {
		for (i = 1; w[i] != '\0' && w[i] != '='; i++) {
			if (!isalnum((unsigned char)w[i]) && w[i] != '-' &&
			    w[i] != '_')
				break;
		}
		if (w[i] == '\0')
			return xstrdup(w);
		if (w[i] == '=') {
			char *ret;

			xasprintf(&ret, "%.*s=[ARG]", (int)i, w);
			return ret;
		}
		return xstrdup("[FLAG]");
	}
	if (strchr(w, '/') != NULL || w[0] == '~' || w[0] == '.' ||
	    strncmp(w, "[HOME]", 6) == 0)
		return xstrdup("[PATH]");
	return xstrdup("[ARG]");
}

/*
 * Typing argument values at standard.  The input is a command line
 * already rewritten by the rules, so labels ([REDACTED_*], [HOME] ...)
 * are in place and are kept.  Flags, operators, quotes, variable
 * references, small numbers and words of the vocabulary stay; any other
 * value becomes one of the labels below.  Every output is a fixed point
 * (typing it again changes nothing), so redaction stays idempotent.
 */
#define T_FILE		"[FILE]"	/* name.ext, last component of a path */
#define T_DIR		"[DIR]"		/* other component of a path */
#define T_PATH		"[PATH]"	/* the path of a URL */
#define T_NUMBER	"[NUMBER]"	/* a number of more than 5 digits */
#define T_HASH		"[HASH]"	/* hex of 7+ digits: git SHAs, digests */
#define T_UUID		"[UUID]"
#define T_STRING	"[STRING]"	/* quoted text of several free words */
#define T_JSON		"[JSON]"	/* a quoted JSON document */
#define T_ARG		"[ARG]"		/* any other value */

#define TYPE_MAX_DEPTH	4

enum role {
	ROLE_ARG,		/* an argument */
	ROLE_PROGRAM,		/* the program run by a wrapper (sudo X) */
};

struct typer {
	const struct redactor	*r;
	size_t			 ntyped;	/* labels emitted */
	const char		*first;		/* first label, per word */
	int			 depth;		/* $( ) nesting */
};

static void	type_text(struct typer *, const char *, size_t, struct buf *);
static size_t	segment_end(const char *, size_t, size_t);
static size_t	special_at(const char *, size_t);
static void	type_word(struct typer *, const char *, size_t, enum role,
		    struct buf *);

static void
type_emit(struct typer *t, struct buf *b, const char *label)
{
	buf_adds(b, label);
	t->ntyped++;
	if (t->first == NULL)
		t->first = label;
}

static int
is_label_n(const char *s, size_t n)
{
	size_t	i;

	if (n < 3 || s[0] != '[' || s[n - 1] != ']')
		return 0;
	for (i = 1; i + 1 < n; i++) {
		if (!isupper((unsigned char)s[i]) && s[i] != '_')
			return 0;
	}
	return 1;
}

/* A label, or labels and the separators of a typed path or compound. */
static int
is_labels(const char *s, size_t n)
{
	size_t	i = 0, j;

	while (i < n) {
		if (s[i] == '[') {
			for (j = i + 1; j < n && s[j] != ']'; j++)
				;
			if (j == n || !is_label_n(s + i, j + 1 - i))
				return 0;
			i = j + 1;
		} else if (strchr("/@:,=.", s[i]) != NULL)
			i++;
		else
			return 0;
	}
	return n > 0;
}

/* $VAR, ${VAR}, $1, $@ ... (not ${VAR:-default}). */
static int
is_varref(const char *s, size_t n)
{
	size_t	i, e;

	if (n < 2 || s[0] != '$')
		return 0;
	if (n == 2 && strchr("0123456789@#?$!*-_", s[1]) != NULL)
		return 1;
	i = 1;
	e = n;
	if (s[1] == '{') {
		if (s[n - 1] != '}')
			return 0;
		i = 2;
		e = n - 1;
		if (e > i && s[i] == '#')
			i++;
	}
	if (i >= e || !(isalpha((unsigned char)s[i]) || s[i] == '_'))
		return 0;
	for (; i < e; i++) {
		if (!isalnum((unsigned char)s[i]) && s[i] != '_')
			return 0;
	}
	return 1;
}

/* HEAD, HEAD~3, HEAD^^, @{u}, HEAD@{2}: relative git refs. */
static int
is_gitref(const char *s, size_t n)
{
	size_t	i;

	if (n >= 4 && strncmp(s, "HEAD", 4) == 0)
		i = 4;
	else if (n >= 1 && s[0] == '@')
		i = 1;
	else
		return 0;
	while (i < n) {
		if (s[i] == '~' || s[i] == '^')
			i++;
		else if (isdigit((unsigned char)s[i]))
			i++;
		else if (s[i] == '@' || s[i] == '{' || s[i] == '}' ||
		    isalnum((unsigned char)s[i]))
			i++;
		else
			return 0;
	}
	return 1;
}

/* *, *.log, **, *.tar.gz: a glob with no name in it. */
static int
is_glob_ext(const char *s, size_t n)
{
	size_t	i = 0;

	while (i < n && (s[i] == '*' || s[i] == '?'))
		i++;
	if (i == 0)
		return 0;
	while (i < n) {
		if (s[i] != '.')
			return 0;
		i++;
		if (i == n || !isalnum((unsigned char)s[i]))
			return 0;
		while (i < n && isalnum((unsigned char)s[i]) && i < 64)
			i++;
	}
	return 1;
}

static int
is_uuid(const char *s, size_t n)
{
	size_t	i;

	if (n != 36)
		return 0;
	for (i = 0; i < n; i++) {
		if (i == 8 || i == 13 || i == 18 || i == 23) {
			if (s[i] != '-')
				return 0;
		} else if (!isxdigit((unsigned char)s[i]))
			return 0;
	}
	return 1;
}

/*
 * A numeric literal: 0 (keep), 1 ([NUMBER]: long), or -1 (not one).
 * Integers (signed), decimals, versions (v1.2.3), sizes and durations
 * (10s, 512M, 1.5G, 80%), small hex (0x1f).
 */
static int
numeric(const char *s, size_t n)
{
	size_t	i = 0, d = 0, dots = 0, u;

	if (n > 0 && (s[0] == '+' || s[0] == '-'))
		i++;
	else if (n > 1 && (s[0] == 'v' || s[0] == 'V') &&
	    isdigit((unsigned char)s[1]))
		i++;
	if (n > i + 2 && s[i] == '0' && (s[i + 1] == 'x' || s[i + 1] ==
	    'X')) {
		for (u = i + 2; u < n && isxdigit((unsigned char)s[u]); u++)
			;
		if (u != n)
			return -1;
		return n - i - 2 <= 8 ? 0 : 1;
	}
	for (; i < n; i++) {
		if (isdigit((unsigned char)s[i]))
			d++;
		else if (s[i] == '.' && d > 0 && i + 1 < n &&
		    isdigit((unsigned char)s[i + 1]))
			dots++;
		else
			break;
	}
	if (d == 0)
		return -1;
	u = n - i;
	if (u > 3)
		return -1;
	for (; i < n; i++) {
		if (!isalpha((unsigned char)s[i]) && s[i] != '%')
			return -1;
	}
	if (dots == 0 && u == 0)
		return d <= 5 ? 0 : 1;
	return n <= 12 ? 0 : 1;
}

/* Hex of 7 or more digits with at least one digit and one letter. */
static int
is_hash(const char *s, size_t n)
{
	size_t	i, dig = 0, let = 0;

	if (n < 7)
		return 0;
	for (i = 0; i < n; i++) {
		if (isdigit((unsigned char)s[i]))
			dig++;
		else if (isxdigit((unsigned char)s[i]))
			let++;
		else
			return 0;
	}
	return dig > 0 && let > 0;
}

/* name.ext: a stem, a dot, and an extension with a letter. */
static int
is_filename(const char *s, size_t n)
{
	const char	*dot = NULL;
	size_t		 i, alpha = 0;

	for (i = 0; i < n; i++) {
		if (s[i] == '.')
			dot = s + i;
	}
	if (dot == NULL || dot == s || (size_t)(s + n - dot - 1) == 0 ||
	    s + n - dot - 1 > 10)
		return 0;
	for (i = (size_t)(dot - s) + 1; i < n; i++) {
		if (!isalnum((unsigned char)s[i]) && s[i] != '_' && s[i] != '-')
			return 0;
		if (isalpha((unsigned char)s[i]))
			alpha++;
	}
	return alpha > 0;
}

static int
vocab_word(const struct typer *t, const char *s, size_t n)
{
	return vocab_has(&t->r->vocab, s, n);
}

/* Is an atom (no separators) kept as it is? */
static int
atom_kept(const struct typer *t, const char *s, size_t n)
{
	if (n == 0 || is_label_n(s, n) || vocab_word(t, s, n) ||
	    is_varref(s, n) || is_gitref(s, n) || is_glob_ext(s, n))
		return 1;
	if (n == 1 && (isalnum((unsigned char)s[0]) ||
	    strchr("*?.+-_%^~!", s[0]) != NULL))
		return 1;
	return numeric(s, n) == 0;
}

/* One atom: kept, or typed. */
static void
type_atom(struct typer *t, const char *s, size_t n, struct buf *b)
{
	if (atom_kept(t, s, n))
		buf_add(b, s, n);
	else if (is_uuid(s, n))
		type_emit(t, b, T_UUID);
	else if (numeric(s, n) == 1)
		type_emit(t, b, T_NUMBER);
	else if (is_hash(s, n) || (n > 9 && s[0] == '0' && s[1] == 'x' &&
	    is_hash(s + 2, n - 2)))
		type_emit(t, b, T_HASH);
	else if (is_filename(s, n))
		type_emit(t, b, T_FILE);
	else
		type_emit(t, b, T_ARG);
}

/*
 * A value with separators (user@host, key=value,key=value, host:port,
 * pkg@1.2): each atom is typed; when none is kept, the whole is one [ARG].
 */
static void
type_compound(struct typer *t, const char *s, size_t n, struct buf *b)
{
	struct buf	 tmp = BUF_INIT;
	size_t		 i, a = 0, kept = 0, atoms = 0, before = t->ntyped;
	const char	*first = t->first;

	for (i = 0; i <= n; i++) {
		if (i < n && strchr("@:,=&", s[i]) == NULL)
			continue;
		if (i > a) {
			atoms++;
			if (atom_kept(t, s + a, i - a))
				kept++;
			type_atom(t, s + a, i - a, &tmp);
		}
		if (i < n)
			buf_addc(&tmp, s[i]);
		a = i + 1;
	}
	if (kept == 0 && atoms > 1) {
		t->ntyped = before;
		t->first = first;
		type_emit(t, b, T_ARG);
	} else
		buf_add(b, tmp.data != NULL ? tmp.data : "", tmp.len);
	buf_release(&tmp);
}

/*
 * A path: ".", "..", "~", labels, variables, globs and words of the
 * vocabulary stay; the last other component is [FILE] ([DIR] with a
 * trailing slash), the others [DIR].
 */
static void
type_path(struct typer *t, const char *s, size_t n, struct buf *b)
{
	size_t	i, a = 0;
	int	last;

	for (i = 0; i <= n; i++) {
		if (i < n && s[i] != '/')
			continue;
		last = i == n;
		if (i > a) {
			if (atom_kept(t, s + a, i - a) ||
			    (i - a <= 2 && s[a] == '.' && s[i - 1] == '.'))
				buf_add(b, s + a, i - a);
			else if (last)
				type_emit(t, b, T_FILE);
			else
				type_emit(t, b, T_DIR);
		}
		if (i < n)
			buf_addc(b, '/');
		a = i + 1;
	}
}

/* scheme://authority/path: the authority stays (rules typed it). */
static int
url_scheme_len(const char *s, size_t n)
{
	size_t	i;

	if (n < 4 || !isalpha((unsigned char)s[0]))
		return 0;
	for (i = 1; i < n && i < 32 && (isalnum((unsigned char)s[i]) ||
	    s[i] == '+' || s[i] == '.' || s[i] == '-'); i++)
		;
	if (i + 3 <= n && memcmp(s + i, "://", 3) == 0)
		return (int)i + 3;
	return 0;
}

static void
type_url(struct typer *t, const char *s, size_t n, size_t sch,
    struct buf *b)
{
	size_t	i;

	for (i = sch; i < n && s[i] != '/' && s[i] != '?' && s[i] != '#';
	    i++)
		;
	buf_add(b, s, i);
	if (i == n || (i + 1 == n && s[i] == '/'))
		buf_add(b, s + i, n - i);
	else if (is_labels(s + i + 1, n - i - 1) && s[i] == '/')
		buf_add(b, s + i, n - i);
	else {
		if (s[i] == '/')
			buf_addc(b, '/');
		type_emit(t, b, T_PATH);
	}
}

/* +%Y-%m-%d, %H:%M: a date or printf format with no words in it. */
static int
is_datefmt(const char *s, size_t n)
{
	size_t	i, pct = 0;

	for (i = 0; i < n; i++) {
		if (s[i] == '%') {
			if (i + 1 == n || !isalpha((unsigned char)s[i + 1]))
				return 0;
			pct++;
			i++;
		} else if (strchr("+-:/_. ,T", s[i]) == NULL)
			return 0;
	}
	return pct > 0;
}

/* a..b, a...b: git ranges; each end is typed. */
static void
type_range(struct typer *t, const char *s, size_t n, struct buf *b)
{
	size_t	i = 0, a = 0;

	while (i <= n) {
		if (i < n && !(s[i] == '.' && i + 1 < n && s[i + 1] == '.')) {
			i++;
			continue;
		}
		if (i > a)
			type_compound(t, s + a, i - a, b);
		while (i < n && s[i] == '.')
			buf_addc(b, s[i++]);
		a = i;
		if (i == n)
			break;
	}
}

/* A bare value: no quotes, no blanks. */
static void
type_value(struct typer *t, const char *s, size_t n, struct buf *b)
{
	size_t	sch, i;

	if (n == 0)
		return;
	if (atom_kept(t, s, n) || is_labels(s, n)) {
		buf_add(b, s, n);
		return;
	}
	if ((sch = (size_t)url_scheme_len(s, n)) > 0) {
		type_url(t, s, n, sch, b);
		return;
	}
	if (memchr(s, '/', n) != NULL || s[0] == '~') {
		/* host:path and user@host:path (scp, rsync, git) */
		for (i = 0; i < n && s[i] != '/' && s[i] != ':'; i++)
			;
		if (i > 0 && i + 1 < n && s[i] == ':') {
			type_compound(t, s, i, b);
			buf_addc(b, ':');
			type_path(t, s + i + 1, n - i - 1, b);
		} else
			type_path(t, s, n, b);
		return;
	}
	if (is_datefmt(s, n)) {
		buf_add(b, s, n);
		return;
	}
	if (n > 4 && memmem(s, n, "..", 2) != NULL) {
		type_range(t, s, n, b);
		return;
	}
	/* key=value inside a value (--from-literal=user=x): the key stays. */
	for (i = 0; i < n && i <= 64 && (isalnum((unsigned char)s[i]) ||
	    s[i] == '_' || s[i] == '.' || s[i] == '-'); i++)
		;
	if (i > 0 && i + 1 < n && s[i] == '=' && s[i + 1] != '=' &&
	    isalpha((unsigned char)s[0])) {
		buf_add(b, s, i + 1);
		type_value(t, s + i + 1, n - i - 1, b);
		return;
	}
	for (i = 0; i < n; i++) {
		if (strchr("@:,=&", s[i]) != NULL) {
			type_compound(t, s, n, b);
			return;
		}
	}
	type_atom(t, s, n, b);
}

/* A JSON document in quotes: {..} or [..] that is not a label. */
static int
is_json(const char *s, size_t n)
{
	while (n > 0 && isspace((unsigned char)*s)) {
		s++;
		n--;
	}
	if (n < 2)
		return 0;
	if (s[0] == '{') {
		for (n--, s++; n > 0 && isspace((unsigned char)*s); n--, s++)
			;
		return n > 0 && (*s == '"' || *s == '}');
	}
	return s[0] == '[' && strchr("{[\"0123456789]-", s[1]) != NULL;
}

/*
 * The inside of quotes: split on blanks and typed word by word; when no
 * word is kept and there are several, the whole is [STRING].
 */
static void
type_quoted(struct typer *t, const char *s, size_t n, struct buf *b)
{
	struct buf	 tmp = BUF_INIT, one = BUF_INIT;
	size_t		 i = 0, w, lo, hi, words = 0, kept = 0;
	size_t		 before = t->ntyped;
	const char	*first = t->first;

	if (n == 0)
		return;
	if (is_json(s, n) && !is_labels(s, n)) {
		type_emit(t, b, T_JSON);
		return;
	}
	if (special_at(s, n) == 0 && segment_end(s, n, 0) == n &&
	    s[0] != '\'' && s[0] != '"') {
		type_word(t, s, n, ROLE_ARG, b);	/* "$(cmd)" */
		return;
	}
	while (i < n) {
		if (isspace((unsigned char)s[i])) {
			buf_addc(&tmp, s[i++]);
			continue;
		}
		for (w = i; i < n && !isspace((unsigned char)s[i]); i++)
			;
		/*
		 * Operators at the edges stay (the text may be a script for
		 * sh -c): "b.txt;" is [FILE]; and "(cd" keeps its "(".
		 */
		for (lo = w; lo < i && s[lo] == '('; lo++)
			;
		for (hi = i; hi > lo && strchr(";&|)", s[hi - 1]) != NULL; hi--)
			;
		words++;
		buf_add(&tmp, s + w, lo - w);
		buf_reset(&one);
		if (hi > lo)
			type_word(t, s + lo, hi - lo, ROLE_ARG, &one);
		if (one.len == hi - lo && (hi == lo ||
		    memcmp(one.data, s + lo, hi - lo) == 0))
			kept++;
		buf_add(&tmp, one.data != NULL ? one.data : "", one.len);
		buf_add(&tmp, s + hi, i - hi);
	}
	if (kept == 0 && words > 1) {
		t->ntyped = before;
		t->first = first;
		type_emit(t, b, T_STRING);
	} else
		buf_add(b, tmp.data != NULL ? tmp.data : "", tmp.len);
	buf_release(&tmp);
	buf_release(&one);
}

/*
 * The end of a quoted or substituted segment starting at s[i] (a quote,
 * "$'", "$(" or "`"), just past its closing byte; or (size_t)-1 when it
 * is not closed.
 */
static size_t
segment_end(const char *s, size_t n, size_t i)
{
	size_t	depth;
	char	q;

	if (s[i] == '$' && i + 1 < n && s[i + 1] == '\'') {
		for (i += 2; i < n && s[i] != '\''; i++) {
			if (s[i] == '\\' && i + 1 < n)
				i++;
		}
		return i < n ? i + 1 : (size_t)-1;
	}
	if (s[i] == '$' && i + 1 < n && s[i + 1] == '(') {
		depth = 1;
		for (i += 2; i < n && depth > 0; i++) {
			if (s[i] == '\\' && i + 1 < n)
				i++;
			else if (s[i] == '\'' || s[i] == '"') {
				q = s[i];
				for (i++; i < n && s[i] != q; i++) {
					if (q == '"' && s[i] == '\\' &&
					    i + 1 < n)
						i++;
				}
			} else if (s[i] == '(')
				depth++;
			else if (s[i] == ')')
				depth--;
		}
		return depth == 0 ? i : (size_t)-1;
	}
	q = s[i];
	for (i++; i < n && s[i] != q; i++) {
		if (q != '\'' && s[i] == '\\' && i + 1 < n)
			i++;
	}
	return i < n ? i + 1 : (size_t)-1;
}

/* Does the word need quote-aware typing? */
static size_t
special_at(const char *s, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++) {
		if (s[i] == '\'' || s[i] == '"' || s[i] == '`' ||
		    (s[i] == '$' && i + 1 < n && (s[i + 1] == '(' ||
		    s[i + 1] == '\'')))
			return i;
	}
	return n;
}

/*
 * A word with quotes or substitutions: a head that is a flag or NAME=
 * followed by one quoted segment keeps the head and the quotes; $( ) and
 * backquotes are typed as command lines; anything more mixed is [ARG].
 */
static void
type_special(struct typer *t, const char *s, size_t n, size_t at,
    struct buf *b)
{
	size_t	e, h;
	int	ok_head;

	e = segment_end(s, n, at);
	/* The head: empty, a flag, a flag with '=', or NAME=. */
	ok_head = at == 0;
	if (at > 0 && s[0] == '-') {
		for (h = 1; h < at && (isalnum((unsigned char)s[h]) ||
		    s[h] == '-' || s[h] == '_' || s[h] == '.'); h++)
			;
		ok_head = h == at || (h + 1 == at && s[h] == '=');
	} else if (at > 1 && s[at - 1] == '=') {
		for (h = 0; h < at - 1 && (isalnum((unsigned char)s[h]) ||
		    s[h] == '_' || s[h] == '.'); h++)
			;
		ok_head = h == at - 1 && !isdigit((unsigned char)s[0]);
	}
	if (!ok_head || e != n) {
		type_emit(t, b, T_ARG);
		return;
	}
	buf_add(b, s, at);
	if (s[at] == '$' && s[at + 1] == '(') {
		buf_add(b, "$(", 2);
		if (t->depth < TYPE_MAX_DEPTH && n - at >= 3) {
			t->depth++;
			type_text(t, s + at + 2, n - at - 3, b);
			t->depth--;
			buf_addc(b, ')');
		} else {
			type_emit(t, b, T_ARG);
			buf_addc(b, ')');
		}
	} else if (s[at] == '`') {
		buf_addc(b, '`');
		if (t->depth < TYPE_MAX_DEPTH && n - at >= 2) {
			t->depth++;
			type_text(t, s + at + 1, n - at - 2, b);
			t->depth--;
		} else
			type_emit(t, b, T_ARG);
		buf_addc(b, '`');
	} else {
		h = s[at] == '$' ? 2 : 1;
		if (n - at < h + 1) {
			type_emit(t, b, T_ARG);
			return;
		}
		buf_add(b, s + at, h);
		type_quoted(t, s + at + h, n - at - h - 1, b);
		buf_addc(b, s[n - 1]);
	}
}

/* A flag: its name stays; a value after '=' (or glued on) is typed. */
static void
type_flag(struct typer *t, const char *s, size_t n, struct buf *b)
{
	size_t	i, st;

	st = s[1] == '-' ? 2 : 1;
	for (i = st; i < n && (isalnum((unsigned char)s[i]) || s[i] == '-' ||
	    s[i] == '_' || (st == 2 && s[i] == '.')); i++)
		;
	if (i == n) {
		buf_add(b, s, n);
		return;
	}
	if (s[i] == '=' && i > st) {
		buf_add(b, s, i + 1);
		type_value(t, s + i + 1, n - i - 1, b);
		return;
	}
	if (st == 1 && i > st)
		i = 2;		/* -I/usr/include, -o./out: a glued value */
	buf_add(b, s, i);
	type_value(t, s + i, n - i, b);
}

/* One word of a command line (with its quotes). */
static void
type_word(struct typer *t, const char *s, size_t n, enum role role,
    struct buf *b)
{
	size_t	i, at;

	if (n == 0)
		return;
	if (vocab_word(t, s, n) || is_label_n(s, n)) {
		buf_add(b, s, n);
		return;
	}
	if ((at = special_at(s, n)) < n) {
		type_special(t, s, n, at, b);
		return;
	}
	if (role == ROLE_PROGRAM) {
		if (memchr(s, '/', n) != NULL)
			type_path(t, s, n, b);
		else
			buf_add(b, s, n);
		return;
	}
	if (s[0] == '-' && n > 1 && s[1] != '/' && s[1] != '.') {
		type_flag(t, s, n, b);
		return;
	}
	/* NAME=value: the name stays. */
	for (i = 0; i < n && (isalnum((unsigned char)s[i]) || s[i] == '_' ||
	    s[i] == '.'); i++)
		;
	if (i > 0 && i <= 64 && i + 1 < n && s[i] == '=' && s[i + 1] != '=' &&
	    !isdigit((unsigned char)s[0])) {
		buf_add(b, s, i + 1);
		type_value(t, s + i + 1, n - i - 1, b);
		return;
	}
	type_value(t, s, n, b);
}

/* Wrappers whose first non-option word is the program they run. */
static const struct wrapper {
	const char	*name;
	const char	*valopts;	/* short options that take a value */
} wrappers[] = {
	{ "sudo", "ugCDhprtTU" }, { "doas", "uC" }, { "env", "uCS" },
	{ "nice", "n" }, { "ionice", "cnp" }, { "nohup", "" },
	{ "time", "fo" }, { "timeout", "sk" }, { "exec", "a" },
	{ "command", "" }, { "builtin", "" }, { "xargs", "IndPLsEa" },
	{ "watch", "nd" }, { "strace", "opeusS" }, { "ltrace", "oseu" },
	{ "stdbuf", "ioe" }, { "chrt", "" }, { "taskset", "" },
	{ "setsid", "" }, { "unbuffer", "" }, { "flock", "wE" },
	{ "caffeinate", "t" }, { "torsocks", "" }, { "proxychains", "f" },
	{ "proxychains4", "f" }, { "runuser", "ug" }, { "firejail", "" },
	{ "systemd-run", "pu" }, { "chroot", "" }, { "unshare", "" },
	{ "nsenter", "t" }, { "faketime", "" }, { "catchsegv", "" },
	{ NULL, NULL }
};

static const struct wrapper *
wrapper_find(const char *s, size_t n)
{
	const char	*sl;
	size_t		 i;

	for (sl = s + n; sl > s && sl[-1] != '/'; sl--)
		;
	n -= (size_t)(sl - s);
	for (i = 0; wrappers[i].name != NULL; i++) {
		if (strlen(wrappers[i].name) == n &&
		    memcmp(wrappers[i].name, sl, n) == 0)
			return &wrappers[i];
	}
	return NULL;
}

/*
 * Type every token of a lexed (rule-redacted) line; returns one malloc'd
 * text per token.  Command names stay (a relative or absolute path is
 * typed like a path); so does the program a wrapper runs.  If ret_first
 * is given, it gets each token's first label (or NULL).
 */
static char **
type_tokens(struct typer *t, const char *in, const struct lexed *lx,
    const char **ret_first)
{
	const struct wrapper	*wr = NULL;
	struct buf		 b = BUF_INIT;
	char			**tt;
	const char		*s;
	size_t			 i, n;
	int			 vnext = 0;

	tt = xcalloc(lx->n + 1, sizeof *tt);
	for (i = 0; i < lx->n; i++) {
		s = in + lx->v[i].start;
		n = lx->v[i].end - lx->v[i].start;
		buf_reset(&b);
		buf_add(&b, "", 0);
		t->first = NULL;
		if (lx->v[i].op) {
			buf_add(&b, s, n);
			wr = NULL;
			vnext = 0;
		} else if (lx->v[i].cmd) {
			if (memchr(s, '/', n) != NULL && special_at(s, n) == n)
				type_path(t, s, n, &b);
			else
				buf_add(&b, s, n);
			wr = wrapper_find(s, n);
			vnext = 0;
		} else if (wr != NULL && !vnext && s[0] != '-' &&
		    !lx->v[i].assign && numeric(s, n) != 0 &&
		    memchr(s, '=', n) == NULL) {
			type_word(t, s, n, ROLE_PROGRAM, &b);
			wr = wrapper_find(s, n);
		} else {
			type_word(t, s, n, ROLE_ARG, &b);
			vnext = wr != NULL && n == 2 && s[0] == '-' &&
			    strchr(wr->valopts, s[1]) != NULL;
		}
		if (ret_first != NULL)
			ret_first[i] = t->first;
		tt[i] = buf_detach(&b, NULL);
	}
	buf_release(&b);
	return tt;
}

/* Put typed tokens back between the original gaps. */
static void
stitch(const char *in, size_t len, const struct lexed *lx, char **tt,
    struct buf *out)
{
	size_t	i, at = 0;

	for (i = 0; i < lx->n; i++) {
		if (lx->v[i].start > at)
			buf_add(out, in + at, lx->v[i].start - at);
		buf_adds(out, tt[i]);
		at = lx->v[i].end;
	}
	if (len > at)
		buf_add(out, in + at, len - at);
}

/* Type a whole (nested) command line. */
static void
type_text(struct typer *t, const char *in, size_t len, struct buf *out)
{
	struct lexed	  lx = { NULL, 0, 0 };
	char		**tt;
	size_t		  i;

	lex_line(in, len, &lx);
	tt = type_tokens(t, in, &lx, NULL);
	stitch(in, len, &lx, tt, out);
	for (i = 0; i < lx.n; i++)
		free(tt[i]);
	free(tt);
	free(lx.v);
}

/* The redacted text of token t: spans overlapping it become labels. */
static char *
token_text(const struct redactor *r, const char *in, const struct lextok *t,
    const struct spans *sp)
{
	struct buf	 b = BUF_INIT;

	buf_add(&b, "", 0);
	rewrite_range(r, in, t->start, t->end, sp, &b);
	return buf_detach(&b, NULL);
}

static char *
basename_of(const char *w)
{
	const char	*s = strrchr(w, '/');

	return xstrdup(s != NULL && s[1] != '\0' ? s + 1 : w);
}

/*
 * Build the words of a redacted line (unquoted, labels applied, shaped at
 * maximum); *ret_cmd is the index of the first command name or -1.
 */
static char **
redact_words(const struct redactor *r, enum anon_level level, const char *in,
    const struct lexed *lx, const struct spans *sp, size_t *ret_cmd)
{
	char	**w, *raw, *tmp;
	size_t	  i;

	*ret_cmd = (size_t)-1;
	w = xcalloc(lx->n + 1, sizeof *w);
	for (i = 0; i < lx->n; i++) {
		raw = token_text(r, in, &lx->v[i], sp);
		if (lx->v[i].op) {
			w[i] = raw;
			continue;
		}
		w[i] = unquote(raw, strlen(raw));
		free(raw);
		if (lx->v[i].cmd) {
			if (*ret_cmd == (size_t)-1)
				*ret_cmd = i;
			if (!is_label(w[i])) {
				tmp = basename_of(w[i]);
				if (level == ANON_MAXIMUM) {
					free(w[i]);
					w[i] = tmp;
				} else
					free(tmp);
			}
			continue;
		}
		if (level == ANON_MAXIMUM) {
			tmp = word_shape(w[i], lx->v[i].assign);
			free(w[i]);
			w[i] = tmp;
		}
	}
	return w;
}

static void
redact_findings_add(const struct redactor *r, const struct spans *sp,
    struct redact_findings *f)
{
	size_t	i;

	if (f == NULL)
		return;
	for (i = 0; i < sp->n; i++) {
		const struct rrule *ru = &r->rules[sp->v[i].rule];

		if (f->n == f->alloc) {
			f->alloc = f->alloc == 0 ? 8 : f->alloc * 2;
			f->v = xreallocarray(f->v, f->alloc, sizeof *f->v);
		}
		f->v[f->n].rule_id = ru->id;
		f->v[f->n].type = ru->type;
		f->v[f->n].label = ru->label;
		f->v[f->n].start = sp->v[i].start;
		f->v[f->n].end = sp->v[i].end;
		f->n++;
	}
}

/* Redact free text. */
int
redact_text(struct redactor *r, enum anon_level level, const char *in,
    size_t len, struct buf *out, struct redact_findings *findings,
    struct redact_stats *stats)
{
	struct spans	 sp = { NULL, 0, 0 };
	struct lexed	 lx = { NULL, 0, 0 };
	size_t		 n, i, cmd;
	char		**w;
	int		 limits;

	if (r == NULL || (in == NULL && len > 0))
		return -EINVAL;
	buf_add(out, "", 0);
	n = redact_cap(in, len);
	limits = redact_collect(r, level, in, n, &sp);
	if (level == ANON_MAXIMUM) {
		lex_line(in, n, &lx);
		w = redact_words(r, level, in, &lx, &sp, &cmd);
		for (i = 0; i < lx.n; i++) {
			if (i > 0)
				buf_addc(out, ' ');
			buf_adds(out, w[i]);
			free(w[i]);
		}
		free(w);
		free(lx.v);
	} else
		rewrite_range(r, in, 0, n, &sp, out);
	if (n < len) {
		if (n > 0)
			buf_addc(out, ' ');
		buf_adds(out, REDACT_TRUNCATED);
	}
	redact_findings_add(r, &sp, findings);
	stats_add(r, &sp, limits, stats);
	spans_release(&sp);
	return 0;
}

/*
 * A command line at standard: the rules' rewrite, lexed again and typed.
 * Fills the typed text of every token (and its first label and input
 * span, for findings) and the typed line.
 */
struct typed_line {
	struct buf	  red;		/* the rules' rewrite */
	struct lexed	  lx;		/* its tokens */
	char		**tt;		/* typed text per token */
	const char	**first;	/* first typing label per token */
	struct buf	  full;		/* the typed line */
	size_t		  ntyped;
};

static void
typed_line_build(struct redactor *r, const char *in, size_t n,
    const struct spans *sp, struct typed_line *tl)
{
	struct typer	t = { r, 0, NULL, 0 };

	memset(tl, 0, sizeof *tl);
	buf_add(&tl->red, "", 0);
	rewrite_range(r, in, 0, n, sp, &tl->red);
	lex_line(tl->red.data, tl->red.len, &tl->lx);
	tl->first = xcalloc(tl->lx.n + 1, sizeof *tl->first);
	tl->tt = type_tokens(&t, tl->red.data, &tl->lx, tl->first);
	buf_add(&tl->full, "", 0);
	stitch(tl->red.data, tl->red.len, &tl->lx, tl->tt, &tl->full);
	tl->ntyped = t.ntyped;
}

static void
typed_line_release(struct typed_line *tl)
{
	size_t	i;

	for (i = 0; i < tl->lx.n; i++)
		free(tl->tt[i]);
	free(tl->tt);
	free(tl->first);
	free(tl->lx.v);
	buf_release(&tl->red);
	buf_release(&tl->full);
}

/*
 * The input span of a byte range of the rules' rewrite: bytes outside
 * the spans map one to one, a label maps to its whole span.
 */
static void
map_back(const struct redactor *r, const struct spans *sp, size_t rs,
    size_t re, size_t *ret_s, size_t *ret_e)
{
	size_t	i, in_at = 0, out_at = 0, l, s = (size_t)-1, e = 0;

	for (i = 0; i <= sp->n; i++) {
		size_t gs = i < sp->n ? sp->v[i].start : (size_t)-1;
		size_t gap = gs - in_at;

		/* the copied gap [out_at, out_at + gap) */
		if (i < sp->n || rs < re) {
			size_t a = rs > out_at ? rs : out_at;
			size_t z = i < sp->n ? (re < out_at + gap ? re :
			    out_at + gap) : re;

			if (a < z) {
				if (s == (size_t)-1)
					s = in_at + (a - out_at);
				e = in_at + (z - out_at);
			}
		}
		if (i == sp->n)
			break;
		out_at += gap;
		l = strlen(span_text(r, &sp->v[i]));
		if (rs < out_at + l && re > out_at) {
			if (s == (size_t)-1)
				s = sp->v[i].start;
			e = sp->v[i].end;
		}
		out_at += l;
		in_at = sp->v[i].end;
	}
	*ret_s = s == (size_t)-1 ? 0 : s;
	*ret_e = e;
}

/* Redact one command line as fullCommand. */
int
redact_line(struct redactor *r, enum anon_level level, const char *in,
    size_t len, struct buf *out, struct redact_findings *findings,
    struct redact_stats *stats)
{
	struct spans		 sp = { NULL, 0, 0 };
	struct typed_line	 tl;
	struct redact_finding	*f;
	size_t			 n, i;
	int			 limits;

	if (level != ANON_STANDARD)
		return redact_text(r, level, in, len, out, findings, stats);
	if (r == NULL || (in == NULL && len > 0))
		return -EINVAL;
	buf_add(out, "", 0);
	n = redact_cap(in, len);
	limits = redact_collect(r, level, in, n, &sp);
	typed_line_build(r, in, n, &sp, &tl);
	buf_add(out, tl.full.data, tl.full.len);
	if (n < len) {
		if (tl.full.len > 0)
			buf_addc(out, ' ');
		buf_adds(out, REDACT_TRUNCATED);
	}
	redact_findings_add(r, &sp, findings);
	for (i = 0; findings != NULL && i < tl.lx.n; i++) {
		if (tl.first[i] == NULL)
			continue;
		if (findings->n == findings->alloc) {
			findings->alloc = findings->alloc == 0 ? 8 :
			    findings->alloc * 2;
			findings->v = xreallocarray(findings->v,
			    findings->alloc, sizeof *findings->v);
		}
		f = &findings->v[findings->n++];
		f->rule_id = r->rules[r->arg_rule].id;
		f->type = r->rules[r->arg_rule].type;
		f->label = tl.first[i];
		map_back(r, &sp, tl.lx.v[i].start, tl.lx.v[i].end, &f->start,
		    &f->end);
	}
	stats_add(r, &sp, limits, stats);
	stats_add_typed(r, tl.ntyped, stats);
	typed_line_release(&tl);
	spans_release(&sp);
	return 0;
}

static int
redact_command_std(struct redactor *r, const char *line, size_t len,
    struct redacted_cmd *ret, struct redact_stats *stats)
{
	struct spans		 sp = { NULL, 0, 0 };
	struct typed_line	 tl;
	struct buf		 full = BUF_INIT;
	size_t			 n, i, cmd = (size_t)-1;
	char			*w;
	int			 limits;

	n = redact_cap(line, len);
	limits = redact_collect(r, ANON_STANDARD, line, n, &sp);
	typed_line_build(r, line, n, &sp, &tl);
	buf_add(&full, tl.full.data, tl.full.len);
	if (n < len) {
		if (full.len > 0)
			buf_addc(&full, ' ');
		buf_adds(&full, REDACT_TRUNCATED);
	}
	ret->full = buf_detach(&full, NULL);
	ret->args = xcalloc(tl.lx.n + 2, sizeof *ret->args);
	for (i = 0; i < tl.lx.n; i++) {
		if (tl.lx.v[i].op)
			w = xstrdup(tl.tt[i]);
		else
			w = unquote(tl.tt[i], strlen(tl.tt[i]));
		if (tl.lx.v[i].cmd && cmd == (size_t)-1) {
			cmd = i;
			ret->command = basename_of(w);
			free(w);
			continue;
		}
		ret->args[ret->nargs++] = w;
	}
	if (ret->command == NULL)
		ret->command = xstrdup("");
	if (n < len)
		ret->args[ret->nargs++] = xstrdup(REDACT_TRUNCATED);
	stats_add(r, &sp, limits, stats);
	stats_add_typed(r, tl.ntyped, stats);
	typed_line_release(&tl);
	spans_release(&sp);
	return 0;
}

/* Redact a command line. */
int
redact_command(struct redactor *r, enum anon_level level, const char *line,
    size_t len, struct redacted_cmd *ret, struct redact_stats *stats)
{
	struct spans	 sp = { NULL, 0, 0 };
	struct lexed	 lx = { NULL, 0, 0 };
	struct buf	 full = BUF_INIT;
	size_t		 n, i, cmd;
	char		**w;
	int		 limits;

	memset(ret, 0, sizeof *ret);
	if (r == NULL || (line == NULL && len > 0))
		return -EINVAL;
	if (level == ANON_STANDARD)
		return redact_command_std(r, line, len, ret, stats);
	n = redact_cap(line, len);
	limits = redact_collect(r, level, line, n, &sp);
	lex_line(line, n, &lx);
	w = redact_words(r, level, line, &lx, &sp, &cmd);

	buf_add(&full, "", 0);
	if (level == ANON_MAXIMUM) {
		for (i = 0; i < lx.n; i++) {
			if (i > 0)
				buf_addc(&full, ' ');
			buf_adds(&full, w[i]);
		}
	} else
		rewrite_range(r, line, 0, n, &sp, &full);
	if (n < len) {
		if (full.len > 0)
			buf_addc(&full, ' ');
		buf_adds(&full, REDACT_TRUNCATED);
	}
	ret->full = buf_detach(&full, NULL);
	ret->command = cmd != (size_t)-1 ? basename_of(w[cmd]) : xstrdup("");
	ret->args = xcalloc(lx.n + 2, sizeof *ret->args);
	for (i = 0; i < lx.n; i++) {
		if (i == cmd) {
			free(w[i]);
			continue;
		}
		ret->args[ret->nargs++] = w[i];
	}
	if (n < len)
		ret->args[ret->nargs++] = xstrdup(REDACT_TRUNCATED);
	free(w);
	free(lx.v);
	stats_add(r, &sp, limits, stats);
	spans_release(&sp);
	return 0;
}

/* Run one rule and report its first secret span. */
int
redactor_rule_match(struct redactor *r, const char *id, const char *in,
    size_t len, size_t *ret_start, size_t *ret_end)
{
	struct spans	sp = { NULL, 0, 0 };
	size_t		i;
	int		error = -ENOENT;

	for (i = 0; i < r->nrules; i++) {
		if (strcmp(r->rules[i].id, id) == 0)
			break;
	}
	if (i == r->nrules)
		return -EINVAL;
	rule_run(r, i, in, len, &sp, 1);
	if (sp.n > 0) {
		*ret_start = sp.v[0].start;
		*ret_end = sp.v[0].end;
		error = 0;
	}
	spans_release(&sp);
	return error;
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
