/*
 * The rule-driven, structure-aware risk classifier.
 *
 * A line is tokenized (shtok.h) and split into simple commands.  Each
 * simple command is unwrapped (assignments, sudo, env, nice, xargs,
 * busybox ...) down to the command that really runs, then judged against
 * the rules indexed under that command's name (risk-rules/README.md).
 * Text that is executed is judged recursively: sh -c strings, ssh remote
 * payloads, eval, $(...) and <(...) bodies, find -exec, watch, here-docs
 * and echo/printf/base64 data piped into a shell.  Arguments of other
 * commands are data.  The worst verdict of all the commands wins; a bypass
 * technique raises it one level.
 */
#include "classify.h"

#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#define PCRE2_CODE_UNIT_WIDTH 8
#include <json-c/json.h>
#include <pcre2.h>

#include "../shell-hooks/hookfast.h"
#include "buf.h"
#include "rulefile.h"
#include "shtok.h"
#include "wordmodel.h"
#include "xmalloc.h"

#define CLASSIFY_MAX_DEPTH	8	/* nesting of sh -c, eval, $(...) */
#define CLASSIFY_BUDGET		4096	/* simple commands judged per line */
#define CLASSIFY_CACHE_SIZE	4096	/* verdict cache slots */
#define CLASSIFY_CACHE_MAXKEY	4096	/* longer lines are not cached */

/* Bypass techniques, in the order they are reported. */
enum technique {
	TECH_LD_PRELOAD,
	TECH_DIRECT_EXECUTION,
	TECH_OBFUSCATION,
	TECH_INLINE_SCRIPT,
	TECH_SHADOWING,
	TECH_STATIC_BINARY,
	TECH_AUTOMATION_TOOL,
	TECH_COUNT
};

static const struct {
	const char	*name;
	double		 confidence;
	const char	*description;	/* when no rule says more */
} techniques[TECH_COUNT] = {
	{ "ld_preload", 0.9, "bypass: the preload guard is set, unset or "
	    "emptied (LD_PRELOAD, env -i)" },
	{ "direct_execution", 0.7, "bypass: the program is run by path, by "
	    "the loader or as a busybox applet, past a guard" },
	{ "obfuscation", 0.9, "bypass: the command is encoded, split or "
	    "quoted so that it does not read as itself" },
	{ "inline_script", 0.8, "bypass: an inline script runs commands or "
	    "deletes files" },
	{ "shadowing", 0.75, "bypass: an alias, a function, command or a "
	    "backslash can dodge a wrapper" },
	{ "static_binary", 0.6, "bypass: a statically linked program, which "
	    "a preload guard cannot see" },
	{ "automation_tool", 0.7, "bypass: input is typed by a program, not "
	    "a person" },
};

/* One required flag: any of its spellings. */
struct flagreq {
	char	**alt;
	size_t	  nalt;
};

/* A compiled rule. */
struct risk_rule {
	struct risk_rule_info	 info;
	char			**cmds;
	size_t			  ncmds;
	struct flagreq		 *sub;		/* subcommand words */
	size_t			  nsub;
	struct flagreq		 *flags;	/* all required */
	size_t			  nflags;
	struct flagreq		  noflags;	/* none may be present */
	char			**via;		/* a wrapper that must be seen */
	size_t			  nvia;
	char			**input;	/* commands feeding stdin */
	size_t			  ninput;
	pcre2_code		 *args;
	pcre2_code		 *pattern;
	pcre2_code		 *unless;
	pcre2_code		 *redirect;
	int			  line_scope;	/* pattern on the raw line */
	int			  wildcard;	/* no command: every segment */
	char			**keywords;	/* trigger words of a rule
						   with no command */
	size_t			  nkeywords;
	int			  check;	/* CHECK_*: a built-in test */
	struct wordmodel	 *model;	/* model = FILE: the word model */
};

/* Built-in tests a rule can name with check = NAME. */
enum {
	CHECK_NONE,
	CHECK_MASS,	/* mass-scope: destructive verb + everything */
	CHECK_PROD,	/* prod-target: destructive verb + production */
	CHECK_SQLARG,	/* sql-arg: args regex on each quoted word */
};

/* Per-command knowledge from [command NAME] stanzas. */
struct cmdinfo {
	char		 *name;
	char		**valopts;	/* options that take a value */
	size_t		  nvalopts;
	char		**alias_from;	/* flag aliases */
	char		**alias_to;
	size_t		  nalias;
};

struct index_ent {
	const char	*name;
	size_t		 rule;
};

struct cache_ent {
	char			*key;
	enum risk		 risk;
	double			 confidence;
	ssize_t			 rule;
	int			 bypass;
	int			 fast_path;
	struct json_object	*classification;
};

struct classifier {
	struct risk_rule	*rules;
	size_t			 nrules;
	struct cmdinfo		*cmds;
	size_t			 ncmds;
	struct index_ent	*index;		/* exact names, sorted */
	size_t			 nindex;
	struct index_ent	*prefix;	/* "mkfs*" style names */
	size_t			 nprefix;
	size_t			*wild;		/* rules without a command */
	size_t			 nwild;
	size_t			*linerules;	/* rules on the raw line */
	size_t			 nlinerules;
	unsigned char		*state;		/* per call: 1 seen 2 matched */
	pcre2_match_data	*md;
	struct cache_ent	*cache;
	ssize_t			 only;		/* judge only this rule */
	int			 only_hit;
	ssize_t			 model_rule;	/* the rule with model =, or -1 */
	char			*triggers;	/* the rules' trigger words */
};

/* The judgement of one line in progress. */
struct judge {
	struct classifier		*c;
	const struct classify_ctx	*ctx;
	enum risk			 risk;
	double				 confidence;
	ssize_t				 rule;
	int				 matched_any;
	unsigned			 tech;
	int				 budget;
	double				 bypass_ms;
	size_t				 segs;		/* judged at this depth */
	size_t				 noop_segs;	/* of which no-op forms */
};

/* What unwrapping a simple command found. */
struct segment {
	char		**argv;		/* words after unwrapping */
	size_t		  argc;
	unsigned	 *wflags;	/* SHW_* of each word, 0 if synthetic */
	const char	 *name;		/* basename of argv[0] */
	const char	 *via[16];
	size_t		  nvia;
	char		 *redirs[32];	/* output redirection targets */
	size_t		  nredirs;
	const char	 *input[16];	/* names of commands feeding stdin */
	size_t		  ninput;
	int		  indirect;	/* reached through unwrapping */
	const char	 *stdin_text;	/* here-doc, here-string or echoed
					   text fed to stdin, if any */
	char		 *xbuf;		/* words xargs appends (owned) */
	const char	 *xrepl;	/* xargs -I STR: replaced, not
					   appended */
	char		 *xown[8];	/* arguments with STR replaced */
	size_t		  nxown;
	/* Set by judge_segment for its rules: */
	int		  noop;		/* a help or dry-run form */
	int		  verb;		/* seg_verb: 0 not yet, 1 none, 2 a
					   verb, 3 a verb on everything */
};

static void	judge_line(struct judge *, const char *, size_t, int);

/* Commands that are read-only and never dangerous on their own. */
static const char *fast_safe[] = {
	"[", "alias", "apropos", "awk", "basename", "bat", "bc", "cal", "cat",
	"cd", "clear", "cmp", "column", "comm", "date", "df", "diff", "dig",
	"dirname", "dirs", "du", "echo", "egrep", "exit", "expr", "fd", "fgrep",
	"file", "free", "grep", "groups", "head", "help", "history", "host",
	"hostname", "id", "info", "jobs", "jq", "last", "less", "ls", "lsblk",
	"lscpu", "lsof", "man", "md5sum", "more", "nl", "nproc", "nslookup",
	"od", "popd", "printenv", "printf", "ps", "pushd", "pwd", "readlink",
	"realpath", "rg", "seq", "sha1sum", "sha256sum", "sort", "stat",
	"tail", "tac", "test", "top", "touch", "tr", "tree", "true", "false",
	"type", "uname", "uniq", "uptime", "w", "wc", "whatis", "whereis",
	"which", "who", "whoami", "yq", "ag", "htop", "env", "cut", "paste",
	"column", "sleep", "vim", "vi", "nano", "emacs", "code", "make",
	"ping", "tldr", "zcat", "zless", "xxd", "hexdump", "strings",
};

static const char *fast_git[] = {
	"blame", "branch", "diff", "fetch", "log", "ls-files", "remote",
	"rev-parse", "shortlog", "show", "status", "tag", "describe",
	"reflog", "stash", "config",
};

/* Tools commonly wrapped or shadowed by guards. */
static const char *guarded[] = {
	"chmod", "chown", "cp", "dd", "docker", "find", "git", "kill",
	"kubectl", "mkfs", "mv", "rm", "rmdir", "shred", "sudo", "truncate",
	"wipefs", "fdisk", "reboot", "shutdown",
};

static const char *shells[] = {
	"ash", "bash", "dash", "fish", "ksh", "mksh", "sh", "zsh",
};

static const char *interpreters[] = {
	"node", "perl", "php", "python", "python2", "python3", "ruby",
	"nodejs", "deno", "bun",
};

static int
in_list(const char *s, const char **v, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++) {
		if (strcmp(s, v[i]) == 0)
			return 1;
	}
	return 0;
}

#define IN(s, a) in_list((s), (a), sizeof (a) / sizeof (a)[0])
#ifndef nitems
#define nitems(a) (sizeof (a) / sizeof (a)[0])
#endif

static double
now_ms(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* Name of a risk level. */
const char *
risk_name(enum risk r)
{
	switch (r) {
	case RISK_MODERATE:
		return "moderate";
	case RISK_DANGEROUS:
		return "dangerous";
	default:
		return "safe";
	}
}

/* Parse a risk level name. */
int
risk_parse(const char *s, enum risk *ret_risk)
{
	if (strcmp(s, "safe") == 0)
		*ret_risk = RISK_SAFE;
	else if (strcmp(s, "moderate") == 0)
		*ret_risk = RISK_MODERATE;
	else if (strcmp(s, "dangerous") == 0)
		*ret_risk = RISK_DANGEROUS;
	else
		return -EINVAL;
	return 0;
}

static char *
trim_dup(const char *s, size_t len)
{
	while (len > 0 && isspace((unsigned char)*s)) {
		s++;
		len--;
	}
	while (len > 0 && isspace((unsigned char)s[len - 1]))
		len--;
	return xstrndup(s, len);
}

/* Split "a, b, c" (on sep) into trimmed, non-empty strings. */
static void
split_list(const char *s, int sep, char ***ret, size_t *n)
{
	const char	*p;

	while (*s != '\0') {
		p = strchr(s, sep);
		if (p == NULL)
			p = s + strlen(s);
		if (p > s) {
			char *w = trim_dup(s, p - s);

			if (*w != '\0') {
				*ret = xreallocarray(*ret, *n + 1,
				    sizeof **ret);
				(*ret)[(*n)++] = w;
			} else
				free(w);
		}
		s = (*p == '\0') ? p : p + 1;
	}
}

static void
strv_free(char **v, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

static void
flagreq_release(struct flagreq *f)
{
	strv_free(f->alt, f->nalt);
	f->alt = NULL;
	f->nalt = 0;
}

static pcre2_code *
regex_compile(const char *re, const struct rule_stanza *st, const char *key,
    char **cause)
{
	pcre2_code	*code;
	int		 err;
	PCRE2_SIZE	 off;
	PCRE2_UCHAR	 msg[256];

	code = pcre2_compile((PCRE2_SPTR)re, PCRE2_ZERO_TERMINATED,
	    PCRE2_UTF | PCRE2_NO_UTF_CHECK | PCRE2_MATCH_INVALID_UTF, &err,
	    &off, NULL);
	if (code == NULL) {
		pcre2_get_error_message(err, msg, sizeof msg);
		xasprintf(cause, "%s:%d: rule %s: %s: %s at offset %zu",
		    st->file, st->line, st->id, key, (char *)msg, (size_t)off);
		return NULL;
	}
	/* DELIBERATE_NO_JIT: the interpreter, for memcheck runs. */
	if (getenv("DELIBERATE_NO_JIT") == NULL)
		(void)pcre2_jit_compile(code, PCRE2_JIT_COMPLETE);
	return code;
}

static int
regex_match(struct classifier *c, pcre2_code *code, const char *s,
    size_t len)
{
	int	rc;

	rc = pcre2_match(code, (PCRE2_SPTR)s, len, 0, 0, c->md, NULL);
	return rc >= 0;
}

static struct cmdinfo *
cmdinfo_find(struct classifier *c, const char *name)
{
	size_t	i;

	for (i = 0; i < c->ncmds; i++) {
		if (strcmp(c->cmds[i].name, name) == 0)
			return &c->cmds[i];
	}
	return NULL;
}

static int
load_command(struct classifier *c, const struct rule_stanza *st,
    char **cause)
{
	struct cmdinfo	*ci;
	const char	*v;
	size_t		 pos, i;
	char		**pairs = NULL, *colon;
	size_t		 npairs = 0;

	c->cmds = xreallocarray(c->cmds, c->ncmds + 1, sizeof *c->cmds);
	ci = &c->cmds[c->ncmds++];
	memset(ci, 0, sizeof *ci);
	ci->name = xstrdup(st->id);
	pos = 0;
	while ((v = rule_next(st, "value_options", &pos)) != NULL)
		split_list(v, ',', &ci->valopts, &ci->nvalopts);
	pos = 0;
	while ((v = rule_next(st, "flag_alias", &pos)) != NULL)
		split_list(v, ',', &pairs, &npairs);
	for (i = 0; i < npairs; i++) {
		colon = strchr(pairs[i], ':');
		if (colon == NULL) {
			xasprintf(cause, "%s:%d: command %s: flag_alias "
			    "'%s' is not LONG:SHORT", st->file, st->line,
			    st->id, pairs[i]);
			strv_free(pairs, npairs);
			return -EINVAL;
		}
		*colon = '\0';
		ci->alias_from = xreallocarray(ci->alias_from, ci->nalias + 1,
		    sizeof *ci->alias_from);
		ci->alias_to = xreallocarray(ci->alias_to, ci->nalias + 1,
		    sizeof *ci->alias_to);
		ci->alias_from[ci->nalias] = trim_dup(pairs[i],
		    strlen(pairs[i]));
		ci->alias_to[ci->nalias] = trim_dup(colon + 1,
		    strlen(colon + 1));
		ci->nalias++;
	}
	strv_free(pairs, npairs);
	return 0;
}

/* Parse "a|b|c, d|e" into required flags. */
static void
parse_flagreqs(const char *v, struct flagreq **ret, size_t *n)
{
	char	**groups = NULL;
	size_t	  ngroups = 0, i;

	split_list(v, ',', &groups, &ngroups);
	for (i = 0; i < ngroups; i++) {
		*ret = xreallocarray(*ret, *n + 1, sizeof **ret);
		memset(&(*ret)[*n], 0, sizeof **ret);
		split_list(groups[i], '|', &(*ret)[*n].alt, &(*ret)[*n].nalt);
		(*n)++;
	}
	strv_free(groups, ngroups);
}

/* Add the aliases of a command to a flag requirement. */
static void
flagreq_expand(struct flagreq *f, const struct cmdinfo *ci)
{
	size_t	i, j, n = f->nalt;

	for (i = 0; i < n; i++) {
		for (j = 0; j < ci->nalias; j++) {
			if (strcmp(ci->alias_to[j], f->alt[i]) != 0)
				continue;
			f->alt = xreallocarray(f->alt, f->nalt + 1,
			    sizeof *f->alt);
			f->alt[f->nalt++] = xstrdup(ci->alias_from[j]);
		}
	}
}

static int
load_rule(struct classifier *c, const struct rule_stanza *st, char **cause)
{
	struct risk_rule	*r;
	const char		*v, *base;
	size_t			 pos, i, j;
	char			*cat, *dot;
	struct cmdinfo		*ci;

	c->rules = xreallocarray(c->rules, c->nrules + 1, sizeof *c->rules);
	r = &c->rules[c->nrules++];
	memset(r, 0, sizeof *r);
	r->info.id = xstrdup(st->id);
	r->info.file = xstrdup(st->file);
	r->info.line = st->line;
	r->info.overridable = 1;
	r->info.confidence = 0.9;

	v = rule_get(st, "name");
	r->info.name = xstrdup(v != NULL ? v : st->id);
	if ((v = rule_get(st, "category")) != NULL)
		cat = xstrdup(v);
	else {
		base = strrchr(st->file, '/');
		cat = xstrdup(base != NULL ? base + 1 : st->file);
		if ((dot = strrchr(cat, '.')) != NULL)
			*dot = '\0';
	}
	r->info.category = cat;
	if ((v = rule_get(st, "risk")) == NULL ||
	    risk_parse(v, &r->info.risk) != 0) {
		xasprintf(cause, "%s:%d: rule %s: missing or bad risk",
		    st->file, st->line, st->id);
		return -EINVAL;
	}
	if ((v = rule_get(st, "confidence")) != NULL) {
		char *end;

		r->info.confidence = strtod(v, &end);
		if (*end != '\0' || r->info.confidence < 0 ||
		    r->info.confidence > 1) {
			xasprintf(cause, "%s:%d: rule %s: bad confidence",
			    st->file, st->line, st->id);
			return -EINVAL;
		}
	}
	v = rule_get(st, "description");
	r->info.description = xstrdup(v != NULL ? v : r->info.name);
	if ((v = rule_get(st, "alternative")) != NULL)
		r->info.alternative = xstrdup(v);
	if ((v = rule_get(st, "overridable")) != NULL && strcmp(v, "no") == 0)
		r->info.overridable = 0;

	pos = 0;
	while ((v = rule_next(st, "command", &pos)) != NULL)
		split_list(v, ',', &r->cmds, &r->ncmds);
	if ((v = rule_get(st, "subcommand")) != NULL) {
		char	**words = NULL;
		size_t	  nwords = 0;

		split_list(v, ' ', &words, &nwords);
		r->sub = xcalloc(nwords, sizeof *r->sub);
		for (i = 0; i < nwords; i++)
			split_list(words[i], '|', &r->sub[i].alt,
			    &r->sub[i].nalt);
		r->nsub = nwords;
		strv_free(words, nwords);
	}
	pos = 0;
	while ((v = rule_next(st, "flags", &pos)) != NULL)
		parse_flagreqs(v, &r->flags, &r->nflags);
	pos = 0;
	while ((v = rule_next(st, "noflags", &pos)) != NULL) {
		for (i = 0; v[i] != '\0'; i++)
			;
		{
			char	**alts = NULL;
			size_t	  nalts = 0, k;

			split_list(v, ',', &alts, &nalts);
			for (k = 0; k < nalts; k++)
				split_list(alts[k], '|', &r->noflags.alt,
				    &r->noflags.nalt);
			strv_free(alts, nalts);
		}
	}
	pos = 0;
	while ((v = rule_next(st, "via", &pos)) != NULL)
		split_list(v, ',', &r->via, &r->nvia);
	pos = 0;
	while ((v = rule_next(st, "input_from", &pos)) != NULL)
		split_list(v, ',', &r->input, &r->ninput);
	if ((v = rule_get(st, "scope")) != NULL && strcmp(v, "line") == 0)
		r->line_scope = 1;
	pos = 0;
	while ((v = rule_next(st, "keywords", &pos)) != NULL)
		split_list(v, ',', &r->keywords, &r->nkeywords);
	if ((v = rule_get(st, "check")) != NULL) {
		if (strcmp(v, "mass-scope") == 0)
			r->check = CHECK_MASS;
		else if (strcmp(v, "prod-target") == 0)
			r->check = CHECK_PROD;
		else if (strcmp(v, "sql-arg") == 0)
			r->check = CHECK_SQLARG;
		else {
			xasprintf(cause, "%s:%d: rule %s: unknown check %s",
			    st->file, st->line, st->id, v);
			return -EINVAL;
		}
	}
	r->info.line_scope = r->line_scope;
	r->info.keywords = (const char *const *)r->keywords;
	r->info.nkeywords = r->nkeywords;

#define RX(key, field) do {						\
	if ((v = rule_get(st, key)) != NULL &&				\
	    (r->field = regex_compile(v, st, key, cause)) == NULL)	\
		return -EINVAL;						\
} while (0)
	RX("args", args);
	RX("pattern", pattern);
	RX("unless", unless);
	RX("redirect", redirect);
#undef RX

	pos = 0;
	while ((v = rule_next(st, "match", &pos)) != NULL) {
		r->info.match = xreallocarray(r->info.match,
		    r->info.nmatch + 1, sizeof *r->info.match);
		r->info.match[r->info.nmatch++] = xstrdup(v);
	}
	pos = 0;
	while ((v = rule_next(st, "nomatch", &pos)) != NULL) {
		r->info.nomatch = xreallocarray(r->info.nomatch,
		    r->info.nnomatch + 1, sizeof *r->info.nomatch);
		r->info.nomatch[r->info.nnomatch++] = xstrdup(v);
	}

	if ((v = rule_get(st, "model")) != NULL) {
		char	*path, *why = NULL;
		int	 e;

		if (strchr(v, '/') != NULL || v[0] == '.') {
			xasprintf(cause, "%s:%d: rule %s: model must be a file "
			    "name in the rules directory", st->file, st->line,
			    st->id);
			return -EINVAL;
		}
		base = strrchr(st->file, '/');
		xasprintf(&path, "%.*s%s", base != NULL ? (int)(base -
		    st->file + 1) : 0, st->file, v);
		e = wordmodel_load(path, &r->model, &why);
		free(path);
		if (e != 0) {
			xasprintf(cause, "%s:%d: rule %s: %s", st->file,
			    st->line, st->id, why);
			free(why);
			return e;
		}
	}
	if (r->line_scope && r->pattern == NULL) {
		xasprintf(cause, "%s:%d: rule %s: scope = line needs a "
		    "pattern", st->file, st->line, st->id);
		return -EINVAL;
	}
	if (r->line_scope && r->ncmds == 0 && r->nkeywords == 0 &&
	    r->info.risk != RISK_SAFE) {
		xasprintf(cause, "%s:%d: rule %s: scope = line needs "
		    "keywords (its trigger words)", st->file, st->line,
		    st->id);
		return -EINVAL;
	}
	if (!r->line_scope && r->ncmds == 0 && r->nvia == 0 &&
	    r->redirect == NULL && r->check == CHECK_NONE &&
	    r->model == NULL) {
		xasprintf(cause, "%s:%d: rule %s: needs command, via, "
		    "redirect, check or scope = line", st->file, st->line,
		    st->id);
		return -EINVAL;
	}
	r->wildcard = (r->ncmds == 0 && !r->line_scope && r->model == NULL);

	/* Expand flag aliases of the rule's commands. */
	for (i = 0; i < r->ncmds; i++) {
		if ((ci = cmdinfo_find(c, r->cmds[i])) == NULL)
			continue;
		for (j = 0; j < r->nflags; j++)
			flagreq_expand(&r->flags[j], ci);
		flagreq_expand(&r->noflags, ci);
	}
	return 0;
}

static int
index_cmp(const void *a, const void *b)
{
	const struct index_ent	*x = a, *y = b;
	int			 d;

	if ((d = strcmp(x->name, y->name)) != 0)
		return d;
	return (x->rule > y->rule) - (x->rule < y->rule);
}

static void
build_index(struct classifier *c)
{
	struct risk_rule	*r;
	size_t			 i, j, len;

	for (i = 0; i < c->nrules; i++) {
		r = &c->rules[i];
		if (r->model != NULL)
			continue;
		if (r->line_scope) {
			c->linerules = xreallocarray(c->linerules,
			    c->nlinerules + 1, sizeof *c->linerules);
			c->linerules[c->nlinerules++] = i;
			continue;
		}
		if (r->wildcard) {
			c->wild = xreallocarray(c->wild, c->nwild + 1,
			    sizeof *c->wild);
			c->wild[c->nwild++] = i;
			continue;
		}
		for (j = 0; j < r->ncmds; j++) {
			len = strlen(r->cmds[j]);
			if (len > 1 && r->cmds[j][len - 1] == '*') {
				c->prefix = xreallocarray(c->prefix,
				    c->nprefix + 1, sizeof *c->prefix);
				c->prefix[c->nprefix].name = r->cmds[j];
				c->prefix[c->nprefix++].rule = i;
			} else {
				c->index = xreallocarray(c->index,
				    c->nindex + 1, sizeof *c->index);
				c->index[c->nindex].name = r->cmds[j];
				c->index[c->nindex++].rule = i;
			}
		}
	}
	if (c->nindex > 0)
		qsort(c->index, c->nindex, sizeof *c->index, index_cmp);
}

/* Load a classifier from the rules in dir (NULL: built-in fast path only). */
int
classifier_load(const char *dir, struct classifier **ret, char **cause)
{
	struct classifier	*c;
	struct rule_set		 set = RULE_SET_INIT;
	size_t			 i;
	int			 r = 0;

	c = xcalloc(1, sizeof *c);
	c->only = -1;
	c->model_rule = -1;
	c->md = pcre2_match_data_create(16, NULL);
	c->cache = xcalloc(CLASSIFY_CACHE_SIZE, sizeof *c->cache);
	if (dir != NULL) {
		if ((r = rulefile_parse_dir(dir, &set, cause)) != 0)
			goto fail;
		/* Command stanzas first: rules use their aliases. */
		for (i = 0; i < set.n; i++) {
			if (strcmp(set.v[i].kind, "command") == 0 &&
			    (r = load_command(c, &set.v[i], cause)) != 0)
				goto fail;
		}
		for (i = 0; i < set.n; i++) {
			if (strcmp(set.v[i].kind, "command") == 0)
				continue;
			if (strcmp(set.v[i].kind, "rule") != 0) {
				xasprintf(cause, "%s:%d: unknown stanza [%s]",
				    set.v[i].file, set.v[i].line,
				    set.v[i].kind);
				r = -EINVAL;
				goto fail;
			}
			if ((r = load_rule(c, &set.v[i], cause)) != 0)
				goto fail;
		}
		for (i = 0; i + 1 < c->nrules; i++) {
			size_t j;

			for (j = i + 1; j < c->nrules; j++) {
				if (strcmp(c->rules[i].info.id,
				    c->rules[j].info.id) != 0)
					continue;
				xasprintf(cause, "%s:%d: duplicate rule %s",
				    c->rules[j].info.file,
				    c->rules[j].info.line,
				    c->rules[j].info.id);
				r = -EINVAL;
				goto fail;
			}
		}
	}
	for (i = 0; i < c->nrules; i++) {
		if (c->rules[i].model != NULL && c->model_rule != -1) {
			xasprintf(cause, "%s:%d: rule %s: a second model rule",
			    c->rules[i].info.file, c->rules[i].info.line,
			    c->rules[i].info.id);
			r = -EINVAL;
			goto fail;
		}
		if (c->rules[i].model != NULL)
			c->model_rule = (ssize_t)i;
	}
	build_index(c);
	c->state = xcalloc(c->nrules + 1, 1);
	{
		struct buf	tb = BUF_INIT;

		classify_triggers(c, &tb);
		c->triggers = buf_detach(&tb, NULL);
	}
	rule_set_release(&set);
	*ret = c;
	return 0;

fail:
	rule_set_release(&set);
	classifier_free(c);
	return r;
}

static void
free_const(const void *p)
{
	free((void *)(uintptr_t)p);
}

static void
cache_clear_ent(struct cache_ent *e)
{
	free(e->key);
	e->key = NULL;
	if (e->classification != NULL)
		json_object_put(e->classification);
	e->classification = NULL;
}

/* Free a classifier; returns NULL. */
struct classifier *
classifier_free(struct classifier *c)
{
	size_t			 i, j;
	struct risk_rule	*r;

	if (c == NULL)
		return NULL;
	for (i = 0; i < c->nrules; i++) {
		r = &c->rules[i];
		free_const(r->info.id);
		free_const(r->info.name);
		free_const(r->info.category);
		free_const(r->info.description);
		free_const(r->info.alternative);
		free_const(r->info.file);
		strv_free(r->info.match, r->info.nmatch);
		strv_free(r->info.nomatch, r->info.nnomatch);
		strv_free(r->cmds, r->ncmds);
		for (j = 0; j < r->nsub; j++)
			flagreq_release(&r->sub[j]);
		free(r->sub);
		for (j = 0; j < r->nflags; j++)
			flagreq_release(&r->flags[j]);
		free(r->flags);
		flagreq_release(&r->noflags);
		strv_free(r->via, r->nvia);
		strv_free(r->input, r->ninput);
		strv_free(r->keywords, r->nkeywords);
		pcre2_code_free(r->args);
		pcre2_code_free(r->pattern);
		pcre2_code_free(r->unless);
		pcre2_code_free(r->redirect);
		wordmodel_free(r->model);
	}
	free(c->rules);
	free(c->triggers);
	for (i = 0; i < c->ncmds; i++) {
		free(c->cmds[i].name);
		strv_free(c->cmds[i].valopts, c->cmds[i].nvalopts);
		strv_free(c->cmds[i].alias_from, c->cmds[i].nalias);
		strv_free(c->cmds[i].alias_to, c->cmds[i].nalias);
	}
	free(c->cmds);
	free(c->index);
	free(c->prefix);
	free(c->wild);
	free(c->linerules);
	free(c->state);
	if (c->md != NULL)
		pcre2_match_data_free(c->md);
	if (c->cache != NULL) {
		for (i = 0; i < CLASSIFY_CACHE_SIZE; i++)
			cache_clear_ent(&c->cache[i]);
		free(c->cache);
	}
	free(c);
	return NULL;
}

/* Number of loaded rules. */
size_t
classifier_nrules(const struct classifier *c)
{
	return c->nrules;
}

/* Rule i, or NULL. */
const struct risk_rule_info *
classifier_rule(const struct classifier *c, size_t i)
{
	if (i >= c->nrules)
		return NULL;
	return &c->rules[i].info;
}

static int
has_rules(const struct classifier *c, const char *name)
{
	size_t	lo = 0, hi = c->nindex, mid;
	int	d;

	while (lo < hi) {
		mid = (lo + hi) / 2;
		d = strcmp(name, c->index[mid].name);
		if (d == 0)
			return 1;
		if (d < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return 0;
}

/* ---- flags and positionals of a simple command ---- */

static int
is_valopt(const struct cmdinfo *ci, const char *w)
{
	size_t	i;

	if (ci == NULL)
		return 0;
	for (i = 0; i < ci->nvalopts; i++) {
		if (strcmp(ci->valopts[i], w) == 0)
			return 1;
	}
	return 0;
}

/*
 * The short options of some common commands that take a value, which may
 * be attached: in a cluster, the letters after one are its value.
 */
static const char *
short_valued(const char *name)
{
	static const struct {
		const char	*name;
		const char	*letters;
	} t[] = {
		{ "curl", "AbcCdDeEFHKmoPQrtTuUwxXyYz" },
		{ "wget", "aBeiOoPQTtUw" },
		{ "ssh", "BbcDEeFIiJLlmOopQRSWw" },
		{ "scp", "cDFiJloPS" },
		{ "tar", "bCfFgHIKLNTVX" },
		{ "mysql", "DehPpSu" },
		{ "psql", "cdfhLopPUv" },
	};
	size_t	 i;

	if (name == NULL)
		return NULL;
	for (i = 0; i < sizeof t / sizeof t[0]; i++)
		if (strcmp(t[i].name, name) == 0)
			return t[i].letters;
	return NULL;
}

static int
flag_present(struct segment *s, const char *alt)
{
	size_t		 i, len;
	const char	*w;
	int		 dashdash = 0;

	for (i = 1; i < s->argc; i++) {
		w = s->argv[i];
		if (dashdash || w[0] != '-' || w[1] == '\0')
			continue;
		if (strcmp(w, "--") == 0) {
			dashdash = 1;
			continue;
		}
		if (strcmp(w, alt) == 0)
			return 1;
		if (alt[0] == '-' && alt[1] == '-') {
			len = strlen(alt);
			if (strncmp(w, alt, len) == 0 && w[len] == '=')
				return 1;
			continue;
		}
		/*
		 * A short flag in a cluster: -rf, -fr, -xfd.  A letter that
		 * takes a value ends the cluster: curl's -XPOST is -X POST,
		 * not -T.
		 */
		if (alt[0] == '-' && alt[1] != '\0' && alt[2] == '\0' &&
		    w[1] != '-' && strchr(w + 1, alt[1]) != NULL) {
			const char *p, *valued = short_valued(s->name);

			for (p = w + 1; *p != '\0'; p++) {
				if (!isalpha((unsigned char)*p))
					break;
			}
			if (*p != '\0')
				continue;
			for (p = w + 1; *p != '\0'; p++) {
				if (*p == alt[1])
					return 1;
				if (valued != NULL && strchr(valued, *p) != NULL)
					break;
			}
		}
	}
	return 0;
}

static int
flagreq_ok(struct segment *s, const struct flagreq *f)
{
	size_t	i;

	for (i = 0; i < f->nalt; i++) {
		if (flag_present(s, f->alt[i]))
			return 1;
	}
	return 0;
}

/* Indices (into argv) of the positional words. */
static size_t
positionals(struct classifier *c, struct segment *s, size_t *ret, size_t max)
{
	const struct cmdinfo	*ci;
	size_t			 i, n = 0;
	int			 dashdash = 0;
	const char		*w;

	ci = cmdinfo_find(c, s->name);
	for (i = 1; i < s->argc && n < max; i++) {
		w = s->argv[i];
		if (!dashdash && strcmp(w, "--") == 0) {
			dashdash = 1;
			continue;
		}
		if (!dashdash && w[0] == '-' && w[1] != '\0') {
			if (is_valopt(ci, w))
				i++;
			continue;
		}
		ret[n++] = i;
	}
	return n;
}

/*
 * A no-op form: the command only prints its help or says what it would
 * do.  Its own rules are not applied (rules without a command, like the
 * sudo and redirection ones, still are; so are the catastrophic rules
 * marked overridable = no, and code it executes).
 *
 * Everywhere: --help; "help" as the first positional (git help push,
 * cargo help publish) or, for aws, as the last word (aws s3 rb help);
 * -h as the last word of a command with a subcommand; --dry-run (not
 * --dry-run=none|false|server-side apply), --dry_run, --dryrun,
 * --what-if, --whatif, -WhatIf, --simulate, --just-print, --no-act,
 * --recon, --assumeno, --noop, --why-run.
 * Per tool (the flag means a dry run there and something else
 * elsewhere): -n for zfs, zpool, rsync, make, restic, borg, rclone and
 * git push|clean|rm|mv|add; -s for apt-get and apt; -C (--check) for
 * ansible and ansible-playbook; -p and --print for hg purge.
 */
static const char *noop_long[] = {
	"--help", "--dry-run", "--dry_run", "--dryrun", "--what-if",
	"--whatif", "--simulate", "--just-print", "--no-act", "--recon",
	"--assumeno", "--noop", "--why-run",
};

static int
short_cluster_has(const char *w, int ch)
{
	const char	*p;

	if (w[0] != '-' || w[1] == '-' || w[1] == '\0')
		return 0;
	for (p = w + 1; *p != '\0'; p++) {
		if (!isalpha((unsigned char)*p))
			return 0;
	}
	return strchr(w + 1, ch) != NULL;
}

static int
segment_noop(const struct segment *s)
{
	static const char	*n_tools[] = {
		"zfs", "zpool", "rsync", "make", "restic", "borg", "rclone",
	};
	static const char	*n_git[] = { "push", "clean", "rm", "mv", "add" };
	static const char	*no_h[] = {
		"chown", "chgrp", "chmod", "ln", "cp", "mv", "rm", "ssh", "scp",
		"sort", "du", "df", "ls", "tar", "find", "kill", "grep",
	};
	const char		*w, *eq, *first = NULL;
	size_t			 i, npos = 0;
	int			 dashdash = 0;

	for (i = 1; i < s->argc; i++) {
		w = s->argv[i];
		if (dashdash)
			break;
		if (strcmp(w, "--") == 0) {
			dashdash = 1;
			continue;
		}
		if (w[0] != '-') {
			if (npos++ == 0)
				first = w;
			continue;
		}
		if (IN(w, noop_long))
			return 1;
		if ((eq = strchr(w, '=')) != NULL) {
			size_t	len = (size_t)(eq - w);

			if ((len == 9 && strncmp(w, "--dry-run", 9) == 0) ||
			    (len == 9 && strncmp(w, "--dry_run", 9) == 0)) {
				if (strcmp(eq + 1, "none") != 0 &&
				    strcmp(eq + 1, "false") != 0 &&
				    strcmp(eq + 1, "0") != 0 &&
				    strcmp(eq + 1, "no") != 0)
					return 1;
			}
			continue;
		}
		if (strcasecmp(w, "-WhatIf") == 0)
			return 1;
		if (IN(s->name, n_tools) && short_cluster_has(w, 'n'))
			return 1;
		if (strcmp(s->name, "git") == 0 && first != NULL &&
		    IN(first, n_git) && short_cluster_has(w, 'n'))
			return 1;
		if ((strcmp(s->name, "apt-get") == 0 ||
		    strcmp(s->name, "apt") == 0) && short_cluster_has(w, 's'))
			return 1;
		if ((strcmp(s->name, "ansible") == 0 ||
		    strcmp(s->name, "ansible-playbook") == 0) &&
		    (strcmp(w, "-C") == 0 || strcmp(w, "--check") == 0))
			return 1;
		if (strcmp(s->name, "hg") == 0 && first != NULL &&
		    strcmp(first, "purge") == 0 &&
		    (strcmp(w, "-p") == 0 || strcmp(w, "--print") == 0))
			return 1;
	}
	if (first != NULL && strcmp(first, "help") == 0)
		return 1;
	if (s->argc > 2 && !dashdash) {
		w = s->argv[s->argc - 1];
		if (strcmp(w, "help") == 0 && strcmp(s->name, "aws") == 0)
			return 1;
		if (strcmp(w, "-h") == 0 && npos > 0 && !IN(s->name, no_h) &&
		    first != NULL && strspn(first,
		    "abcdefghijklmnopqrstuvwxyz-") == strlen(first))
			return 1;
	}
	return 0;
}

/* ---- rule evaluation ---- */

static void
segment_text(struct segment *s, struct buf *b)
{
	size_t	i;

	buf_reset(b);
	buf_adds(b, s->name);
	for (i = 1; i < s->argc; i++) {
		buf_addc(b, ' ');
		buf_adds(b, s->argv[i]);
	}
	for (i = 0; i < s->nredirs; i++) {
		buf_addc(b, ' ');
		buf_adds(b, s->redirs[i]);
	}
	if (s->stdin_text != NULL) {
		buf_adds(b, " <<< ");
		buf_adds(b, s->stdin_text);
	}
	if (b->data == NULL)
		buf_adds(b, "");
}

/*
 * Whether word w is keyword kw ("NAME*" is a prefix).  Like the hooks,
 * the word's basename is the text after its last '/'.
 */
static int
keyword_is(const char *w, const char *kw)
{
	const char	*sl = strrchr(w, '/');
	size_t		 len = strlen(kw);

	if (sl != NULL)
		w = sl + 1;

	if (len > 1 && kw[len - 1] == '*')
		return strncmp(w, kw, len - 1) == 0;
	return strcmp(w, kw) == 0;
}


/* ---- built-in checks (check = NAME) ---- */

/*
 * Verbs that delete, stop or empty what they name.  They are matched as
 * a word or as a part of one between . : - _ (delete-cache, ecto.drop,
 * Order.delete_all, Stop-Process), in lower case, Capitalized or UPPER
 * case; classify_triggers() lists all three spellings, so a line that
 * names one is never trigger-free.
 */
static const char *gen_verbs[] = {
	"delete", "remove", "rm", "del", "drop", "destroy", "purge", "kill",
	"stop", "revoke", "truncate", "wipe", "erase", "clean", "empty",
	"flush", "reset", "nuke", "uninstall", "expunge", "cancel",
	"terminate", "unregister", "deregister", "undefine", "prune", "rmi",
	"rb", "removeacct", "deleteall", "deletes", "removeall", "dropall",
	"flushall", "killall", "stopall", "purgeall", "wipeall", "obliterate",
};

/* Migration verbs: they undo schema changes (and drop their data). */
static const char *gen_migverbs[] = {
	"down", "rollback", "revert", "redo", "downgrade", "fresh", "undo",
};

/*
 * Option verbs: single-dash (hdfs dfs -rm -r, hadoop fs -rmr) always;
 * long ones (plesk bin database --remove NAME) only with a container.
 */
static const char *gen_optverbs[] = {
	"-rm", "-rmr", "-rmdir", "-delete", "-expunge", "-deleteUser",
	"-purge",
};
static const char *gen_longverbs[] = {
	"--remove", "--delete", "--drop", "--destroy", "--purge",
};

/*
 * Containers: a verb on one of these deletes everything inside it
 * (delete_database, removeacct, delete_repo, database --remove).
 */
static const char *gen_containers[] = {
	"database", "databases", "db", "repo", "repository", "acct",
	"account", "cluster", "bucket", "zone", "domain", "site", "project",
	"keyspace", "vhost", "tenant", "subscription", "dataset", "datasets",
	"warehouse", "schema", "tablespace", "org", "organization",
	"workspace", "space", "mailbox", "volume", "pool", "vault",
};

/*
 * The same containers as a positional of their own, next to a deleting
 * verb (supabase projects delete REF, sacctmgr delete account NAME,
 * neonctl projects delete ID): the verb deletes the whole container.
 * Only verbs that delete count here (not reset, stop, clean or the
 * migration verbs: supabase db reset stays moderate).
 */
static const char *gen_containers_pos[] = {
	"database", "databases", "db", "dbs", "repo", "repos", "repository",
	"repositories", "account", "accounts", "cluster", "clusters",
	"bucket", "buckets", "zone", "zones", "domain", "domains", "site",
	"sites", "project", "projects", "keyspace", "keyspaces", "vhost",
	"vhosts", "tenant", "tenants", "subscription", "subscriptions",
	"dataset", "datasets", "warehouse", "warehouses", "schema",
	"schemas", "tablespace", "org", "orgs", "organization",
	"organizations", "workspace", "workspaces", "mailbox", "mailboxes",
	"volume", "volumes", "pool", "pools", "vault", "vaults",
};
static const char *gen_delverbs[] = {
	"delete", "remove", "rm", "del", "drop", "destroy", "purge", "wipe",
	"erase", "nuke", "expunge", "terminate", "obliterate", "deleteall",
};

/*
 * Regenerable things: a verb on a cache, the dependencies or a build
 * tree is cleanup, even with --all (mix deps.clean --all, poetry cache
 * clear --all).
 */
static const char *gen_regen[] = {
	"cache", "caches", "deps", "build", "builds", "tmp", "temp",
	"artifacts", "dist",
};

/*
 * Commands whose rules judge their own deletes (git, kubectl, docker,
 * the package managers, rm), and commands that only print, search or
 * edit text: an argument naming a verb is data there.
 */
static const char *gen_exempt[] = {
	"watchman",	/* watch-del-all drops file watches, not files */
	"echo", "printf", "grep", "egrep", "fgrep", "rg", "ag", "ack", "sed",
	"awk", "gawk", "cat", "less", "more", "head", "tail", "man", "tldr",
	"jq", "yq", "git", "kubectl", "oc", "docker", "podman", "nerdctl",
	"docker-compose", "helm", "npm", "pnpm", "yarn", "pip", "pip3", "pipx",
	"uv", "apt", "apt-get", "aptitude", "dnf", "yum", "zypper", "pacman",
	"apk", "brew", "conda", "mamba", "cargo", "gem", "go", "rm", "rmdir",
	"unlink", "find", "make", "cmake", "ninja", "gradle", "gradlew", "mvn",
	"bazel", "ccache", "sccache", "xcodebuild", "nix-collect-garbage",
	"journalctl", "deliberate", "cp", "mv", "ln", "ls", "touch", "mkdir",
	"chmod", "chown", "tar", "zip", "unzip", "vim", "vi", "nano", "emacs",
	"code", "test", "[", "cd", "kill", "pkill", "killall", "which", "type",
	"notify-send", "logger", "say", "wc", "sort", "diff", "xargs",
	"terraform", "pulumi", "aws", "gcloud", "az", "gh", "glab", "jira",
	"tmux", "screen", "history", "ps", "pgrep", "lsof", "flatpak", "snap",
	"rustup", "nvm", "pyenv", "rbenv", "asdf", "mise", "sdk", "trash",
	"trash-put", "gio", "shred", "systemd-tmpfiles", "tee",
	/* test runners: -k, -t and -run take test names */
	"pytest", "py.test", "jest", "vitest", "mocha", "rspec", "phpunit",
	"tox", "nox", "ctest",
};

/* Commands that only print, search or edit text (for check = sql-arg). */
static const char *gen_textonly[] = {
	"echo", "printf", "grep", "egrep", "fgrep", "rg", "ag", "ack", "sed",
	"awk", "gawk", "cat", "less", "more", "head", "tail", "man", "tldr",
	"jq", "yq", "git", "deliberate", "notify-send", "logger", "say", "tee",
	"gh", "glab", "jira", "sqlfluff", "pg_format", "sql-formatter",
	"vim", "vi", "nano", "emacs", "code", "history", "tmux", "screen",
	"xargs", "test", "[",
};

static const char *gen_exts[] = {
	"txt", "log", "sql", "json", "yaml", "yml", "md", "py", "rb", "sh",
	"js", "ts", "csv", "conf", "cfg", "ini", "xml", "html", "tf", "lock",
	"bak", "dump", "gz", "tar", "zip", "rs", "go", "c", "h", "java",
};

/* Whether part p (len bytes) is one of v in lower, Capital or UPPER case. */
static int
part_in(const char *p, size_t len, const char **v, size_t n)
{
	size_t	i, k;
	int	lower, upper, cap;

	for (i = 0; i < n; i++) {
		if (strlen(v[i]) != len || strncasecmp(p, v[i], len) != 0)
			continue;
		lower = upper = cap = 1;
		for (k = 0; k < len; k++) {
			if (p[k] != v[i][k])
				lower = 0;
			if (p[k] != toupper((unsigned char)v[i][k]))
				upper = 0;
			if (p[k] != (k == 0 ? toupper((unsigned char)v[i][k]) :
			    v[i][k]))
				cap = 0;
		}
		if (lower || upper || cap)
			return 1;
	}
	return 0;
}
#define PART_IN(p, len, a) part_in((p), (len), (a), sizeof (a) / sizeof (a)[0])

/*
 * Whether word w names a verb of v (n entries): the text after its last
 * '/' (as the trigger check sees it), whole or a part between . : - _.
 * With compound set, only a word with a separator counts (argv[0]:
 * Stop-Process yes, rm no).  *all is set when another part is "all".
 */
static int
word_verb(const char *w, const char **v, size_t n, int compound, int *all)
{
	const char	*b, *q, *e, *end, *dot;
	int		 found = 0, hasall = 0, cont = 0;

	if ((b = strrchr(w, '/')) != NULL)
		w = b + 1;
	if (*w == '\0' || *w == '-')
		return 0;
	end = w + strlen(w);
	if (compound && strpbrk(w, ".:-_") == NULL)
		return 0;
	/* A file name (delete.sql, reset_db.py) is not a verb. */
	if ((dot = strrchr(w, '.')) != NULL && dot[1] != '\0' &&
	    IN(dot + 1, gen_exts))
		return 0;
	if (part_in(w, (size_t)(end - w), v, n))
		found = 1;
	for (q = w; q < end; q = e + 1) {
		for (e = q; e < end && strchr(".:-_", *e) == NULL; e++)
			;
		if (e > q && part_in(q, (size_t)(e - q), v, n))
			found = 1;
		else if (e - q == 3 && strncasecmp(q, "all", 3) == 0)
			hasall = 1;
		else if (e > q && PART_IN(q, (size_t)(e - q), gen_containers))
			cont = 1;
		if (e == end)
			break;
	}
	/* Verb and container in one word (removeacct is one already). */
	if (found && (cont || strcasecmp(w, "removeacct") == 0))
		hasall = 1;
	if (found && hasall && all != NULL)
		*all = 1;
	return found;
}

static const char *helpcmds[] = {
	"Get-Help", "get-help", "Get-Command", "help", "man", "tldr",
	"apropos", "whatis", "info",
};

static const char *regen_tasks[] = {
	"phx.digest.clean", "deps.clean", "assets:clean", "assets:clobber",
	"tmp:clear", "cache:clear", "view:clear", "route:clear",
	"config:clear", "optimize:clear", "clean-build",
};

static int	prod_word(const char *);

/*
 * The destructive verb of a segment: in its compound name (Stop-Process),
 * one of its first four positionals, or a single-dash option (-rm).
 */
static int
segment_verb(struct segment *s, const size_t *pos, size_t npos, int *all)
{
	static const char	*readverbs[] = { "get", "GET", "list", "ls",
	    "show", "describe", "cat", "info", "INFO", "exists", "EXISTS",
	    "status", "view", "read", "hget", "HGET", "hgetall", "HGETALL",
	    "ttl", "TTL", "type", "TYPE", "keys", "KEYS", "scan", "SCAN",
	    "logs", "search" };
	size_t			 i;

	/* Get-Help Remove-Mailbox, man git-rm: documentation. */
	if (IN(s->name, helpcmds))
		return 0;
	/*
	 * A read names what it reads: redis-cli GET flushall:last_run,
	 * kubectl get job delete-old-logs, openstack server list --name
	 * delete-me.  Words after a read verb in the first three are not
	 * verbs.
	 */
	for (i = 0; i < npos && i < 3; i++) {
		if (IN(s->argv[pos[i]], readverbs)) {
			npos = i;
			break;
		}
	}
	/* WordPress caches: wp transient delete --all, wp cache flush. */
	if (npos > 0 && strcmp(s->name, "wp") == 0 &&
	    (strcmp(s->argv[pos[0]], "transient") == 0 ||
	    strcmp(s->argv[pos[0]], "cache") == 0))
		return 0;
	/*
	 * Build tasks that delete only what a build makes again: mix
	 * phx.digest.clean and deps.clean, rake assets:clean|clobber.
	 */
	for (i = 0; i < npos && i < 2; i++) {
		if (IN(s->argv[pos[i]], regen_tasks))
			return 0;
	}
	/* A container next to a deleting verb: projects delete REF. */
	for (i = 0; i < npos && i < 4; i++) {
		if (!IN(s->argv[pos[i]], gen_delverbs))
			continue;
		if ((i > 0 && IN(s->argv[pos[i - 1]], gen_containers_pos)) ||
		    (i + 1 < npos && IN(s->argv[pos[i + 1]],
		    gen_containers_pos))) {
			if (all != NULL)
				*all = 1;
			return 1;
		}
	}
	if (word_verb(s->argv[0], gen_verbs, nitems(gen_verbs), 1, all))
		return 1;
	for (i = 0; i < npos && i < 4; i++) {
		if (word_verb(s->argv[pos[i]], gen_verbs, nitems(gen_verbs),
		    0, all))
			return 1;
		/*
		 * turso db shell fresh-listings-prod: a name with a
		 * production part is the target, not a migration verb
		 * (migrate:fresh is one).
		 */
		if (!prod_word(s->argv[pos[i]]) &&
		    word_verb(s->argv[pos[i]], gen_migverbs,
		    nitems(gen_migverbs), 0, all))
			return 1;
	}
	for (i = 1; i < s->argc; i++) {
		if (strcmp(s->argv[i], "--") == 0)
			break;
		if (IN(s->argv[i], gen_optverbs))
			return 1;
	}
	/* A long option verb counts on a container: database --remove. */
	for (i = 1; i < s->argc; i++) {
		size_t	k;

		if (strcmp(s->argv[i], "--") == 0 ||
		    !IN(s->argv[i], gen_longverbs))
			continue;
		for (k = 0; k < npos && k < 4; k++) {
			if (IN(s->argv[pos[k]], gen_containers)) {
				if (all != NULL)
					*all = 1;
				return 1;
			}
		}
	}
	return 0;
}

/* segment_verb, once per segment whatever the number of check rules. */
static int
seg_verb(struct segment *s, const size_t *pos, size_t npos, int *all)
{
	int	a = 0;

	if (s->verb == 0)
		s->verb = !segment_verb(s, pos, npos, &a) ? 1 : a ? 3 : 2;
	if (s->verb == 3)
		*all = 1;
	return s->verb >= 2;
}

/*
 * A deleting cmdlet fed by a listing of a whole kind (Get-Process |
 * Stop-Process, Get-LocalUser | ... | Remove-LocalUser): every object.
 */
static int
fed_by_listing(const struct segment *s)
{
	size_t	i;

	for (i = 0; i < s->ninput; i++) {
		if (strncasecmp(s->input[i], "Get-", 4) == 0 &&
		    strcasecmp(s->input[i], "Get-ChildItem") != 0 &&
		    strcasecmp(s->input[i], "Get-Item") != 0 &&
		    strcasecmp(s->input[i], "Get-Content") != 0)
			return 1;
	}
	return 0;
}

/* A word that widens a command to everything. */
static int
mass_word(const char *w, int positional)
{
	size_t		 len = strlen(w);
	const char	*sl;

	/* Every file of a kind in a directory: /lustre/x/STAR.bam. */
	if (positional && (sl = strrchr(w, '/')) != NULL && sl[1] == '*' &&
	    strchr(sl + 2, '/') == NULL && strpbrk(w, "$`") == NULL)
		return 1;
	if (positional)
		return strcmp(w, "all") == 0 || strcmp(w, "ALL") == 0 ||
		    strcmp(w, "*") == 0 || strcmp(w, "'*'") == 0 ||
		    (len >= 2 && (strcmp(w + len - 2, "/*") == 0 ||
		    strcmp(w + len - 2, ":*") == 0));
	return strcmp(w, "--all") == 0 || strcmp(w, "-all") == 0 ||
	    strcmp(w, "/all") == 0 || strcmp(w, "-All") == 0 ||
	    strncmp(w, "--all-", 6) == 0;
}

/* A word naming production: a part (between non-alphanumerics) */
static int
prod_word(const char *w)
{
	static const char	*prod[] = { "prod", "production", "prd", "live" };
	const char		*q, *e;

	for (q = w; *q != '\0'; q = e) {
		while (*q != '\0' && !isalnum((unsigned char)*q))
			q++;
		for (e = q; isalnum((unsigned char)*e); e++)
			;
		if (e > q && part_in(q, (size_t)(e - q), prod, nitems(prod)))
			return 1;
	}
	return 0;
}

static const char *base_name(const char *);

/* A verb on a cache, the dependencies or a build tree (deps.clean). */
static int
regen_target(const struct segment *s, const size_t *pos, size_t npos)
{
	const char	*w, *q, *e, *end;
	size_t		 i;

	for (i = 0; i <= npos && i < 5; i++) {
		w = i == 0 ? base_name(s->argv[0]) : s->argv[pos[i - 1]];
		end = w + strlen(w);
		for (q = w; q < end; q = e + 1) {
			for (e = q; e < end && strchr(".:-_", *e) == NULL; e++)
				;
			if (e > q && PART_IN(q, (size_t)(e - q), gen_regen))
				return 1;
			if (e == end)
				break;
		}
	}
	return 0;
}

/*
 * For an interpreter (python*, node, perl, ruby ...), the index of the
 * first option listed in opts (" -c -e ", skip_opts() style) that has a
 * word after it: the program text.  0 when there is none.
 */
static size_t
interp_code_opt(const struct segment *s, const char *opts)
{
	char	key[64];
	size_t	i;

	if (!IN(s->name, interpreters) && strncmp(s->name, "python", 6) != 0)
		return 0;
	for (i = 1; i + 1 < s->argc; i++) {
		snprintf(key, sizeof key, " %.60s ", s->argv[i]);
		if (strstr(opts, key) != NULL)
			return i;
	}
	return 0;
}

static int
check_applies(struct classifier *c, struct risk_rule *r, struct segment *s,
    const size_t *pos, size_t npos)
{
	size_t		 i;
	int		 all = 0, dashdash = 0;
	const char	*w, *eq;

	if (s->noop || (r->check == CHECK_SQLARG ?
	    IN(s->name, gen_textonly) : IN(s->name, gen_exempt)))
		return 0;
	/*
	 * python -c CODE, node -e CODE: the code is one word, not a verb and
	 * its "all" target; what it runs is judged by the inline-script
	 * checks (session 16: load('tests/fixtures/drop_all_tables.yaml')).
	 * A production name in it still counts (check prod-target).
	 */
	if (r->check == CHECK_MASS && interp_code_opt(s, " -c -e -E ") != 0)
		return 0;
	switch (r->check) {
	case CHECK_MASS:
		if (!seg_verb(s, pos, npos, &all))
			return 0;
		if (regen_target(s, pos, npos))
			return 0;
		if (all)
			return 1;
		if (word_verb(s->argv[0], gen_verbs, nitems(gen_verbs), 1,
		    NULL) && fed_by_listing(s))
			return 1;
		for (i = 1; i < s->argc; i++) {
			w = s->argv[i];
			if (!dashdash && strcmp(w, "--") == 0) {
				dashdash = 1;
				continue;
			}
			if (mass_word(w, dashdash || w[0] != '-'))
				return 1;
		}
		return 0;
	case CHECK_PROD:
		if (!seg_verb(s, pos, npos, &all))
			return 0;
		for (i = 1; i < s->argc; i++) {
			if (prod_word(s->argv[i]))
				return 1;
		}
		return 0;
	case CHECK_SQLARG:
		/*
		 * A quoted word (one with a space: a trigger-free line has
		 * none) that is a destructive statement, or an option's
		 * value (--sql="DROP ...").
		 */
		if (r->args == NULL)
			return 0;
		/*
		 * SQL given on stdin (echo 'TRUNCATE ...' | npx prisma db
		 * execute --stdin): the command reads it as statements.
		 */
		if (s->stdin_text != NULL && strchr(s->stdin_text, ' ') !=
		    NULL && regex_match(c, r->args, s->stdin_text,
		    strlen(s->stdin_text)))
			return 1;
		for (i = 1; i < s->argc; i++) {
			w = s->argv[i];
			if (strchr(w, ' ') == NULL)
				continue;
			if (w[0] == '-' && (eq = strchr(w, '=')) != NULL &&
			    eq < strchr(w, ' '))
				w = eq + 1;
			if (regex_match(c, r->args, w, strlen(w)))
				return 1;
		}
		return 0;
	}
	return 0;
}

static int
rule_applies(struct classifier *c, struct risk_rule *r, struct segment *s,
    struct buf *text)
{
	size_t	pos[256], npos, i, j, k;
	int	ok;

	/*
	 * A rule with keywords needs one of them as a word (its basename):
	 * that is what lets the trigger set list the keywords instead of
	 * the rule's commands.
	 */
	if (r->nkeywords > 0) {
		for (i = 0, ok = 0; i < s->argc && !ok; i++) {
			for (k = 0; k < r->nkeywords && !ok; k++)
				ok = keyword_is(s->argv[i], r->keywords[k]);
		}
		if (!ok)
			return 0;
	}

	for (i = 0; i < r->nflags; i++) {
		if (!flagreq_ok(s, &r->flags[i]))
			return 0;
	}
	if (r->noflags.nalt > 0 && flagreq_ok(s, &r->noflags))
		return 0;
	for (i = 0; i < r->nvia; i++) {
		for (j = 0; j < s->nvia; j++) {
			if (strcmp(r->via[i], s->via[j]) == 0)
				break;
		}
		if (j < s->nvia)
			break;
	}
	if (r->nvia > 0 && i == r->nvia)
		return 0;
	for (i = 0; i < r->ninput; i++) {
		for (j = 0; j < s->ninput; j++) {
			if (strcmp(r->input[i], s->input[j]) == 0)
				break;
		}
		if (j < s->ninput)
			break;
	}
	if (r->ninput > 0 && i == r->ninput)
		return 0;
	npos = positionals(c, s, pos, sizeof pos / sizeof pos[0]);
	if (r->nsub > 0) {
		if (npos < r->nsub)
			return 0;
		for (i = 0; i < r->nsub; i++) {
			for (k = 0; k < r->sub[i].nalt; k++) {
				if (strcmp(r->sub[i].alt[k],
				    s->argv[pos[i]]) == 0)
					break;
			}
			if (k == r->sub[i].nalt)
				return 0;
		}
	}
	if (r->redirect != NULL) {
		for (i = 0; i < s->nredirs; i++) {
			if (regex_match(c, r->redirect, s->redirs[i],
			    strlen(s->redirs[i])))
				break;
		}
		if (i == s->nredirs)
			return 0;
	}
	if (r->args != NULL && r->check != CHECK_SQLARG) {
		/*
		 * Risky rules: any target matches.  Safe exceptions: every
		 * target matches (and there is one).
		 */
		if (r->info.risk == RISK_SAFE) {
			if (npos <= r->nsub)
				return 0;
			for (i = r->nsub; i < npos; i++) {
				if (!regex_match(c, r->args, s->argv[pos[i]],
				    strlen(s->argv[pos[i]])))
					return 0;
			}
		} else {
			ok = 0;
			for (i = r->nsub; i < npos && !ok; i++)
				ok = regex_match(c, r->args, s->argv[pos[i]],
				    strlen(s->argv[pos[i]]));
			if (!ok)
				return 0;
		}
	}
	if (r->pattern != NULL || r->unless != NULL) {
		if (text->len == 0)
			segment_text(s, text);
		if (r->pattern != NULL &&
		    !regex_match(c, r->pattern, text->data, text->len))
			return 0;
		if (r->unless != NULL &&
		    regex_match(c, r->unless, text->data, text->len))
			return 0;
	}
	if (r->check != CHECK_NONE)
		return check_applies(c, r, s, pos, npos);
	return 1;
}

static void
judge_offer(struct judge *j, size_t rule, enum risk risk, double conf)
{
	if (risk > j->risk || (risk == j->risk && (j->rule == -1 ||
	    conf > j->confidence))) {
		j->risk = risk;
		j->confidence = conf;
		j->rule = rule;
	}
	j->matched_any = 1;
}

/* Judge one unwrapped simple command against the rules. */
static void
judge_segment(struct judge *j, struct segment *s, int depth)
{
	struct classifier	*c = j->c;
	struct buf		 text = BUF_INIT;
	size_t			 cand[512], ncand = 0, i, lo, hi, mid;
	unsigned char		 hit[512];
	struct risk_rule	*r;
	double			 factor;

	s->noop = segment_noop(s);
	s->verb = 0;
	/* Candidates: exact name, prefix names, wildcard rules. */
	lo = 0;
	hi = c->nindex;
	while (lo < hi) {
		mid = (lo + hi) / 2;
		if (strcmp(c->index[mid].name, s->name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (i = lo; i < c->nindex && ncand < 480; i++) {
		if (strcmp(c->index[i].name, s->name) != 0)
			break;
		cand[ncand++] = c->index[i].rule;
	}
	for (i = 0; i < c->nprefix && ncand < 496; i++) {
		if (strncmp(c->prefix[i].name, s->name,
		    strlen(c->prefix[i].name) - 1) == 0)
			cand[ncand++] = c->prefix[i].rule;
	}
	for (i = 0; i < c->nwild && ncand < 512; i++)
		cand[ncand++] = c->wild[i];

	factor = 1.0;
	if (s->indirect)
		factor *= 0.95;
	for (i = 0; i < (size_t)depth; i++)
		factor *= 0.92;

	memset(hit, 0, sizeof hit);
	for (i = 0; i < ncand; i++) {
		r = &c->rules[cand[i]];
		if (c->only != -1 && (size_t)c->only != cand[i])
			continue;
		if (!r->wildcard && c->state[cand[i]] == 0)
			c->state[cand[i]] = 1;
		if (rule_applies(c, r, s, &text)) {
			hit[i] = 1;
			if (r->wildcard && c->state[cand[i]] == 0)
				c->state[cand[i]] = 1;
		}
	}
	/* A help or dry-run form runs nothing its command rules fear. */
	if (s->noop) {
		j->noop_segs++;
		for (i = 0; i < ncand; i++) {
			if (hit[i] && !c->rules[cand[i]].wildcard &&
			    c->rules[cand[i]].info.overridable &&
			    c->rules[cand[i]].info.risk != RISK_SAFE)
				hit[i] = 0;
		}
	}
	j->segs++;
	/* Safe exceptions cancel the overridable rules of their category. */
	for (i = 0; i < ncand; i++) {
		size_t k;

		r = &c->rules[cand[i]];
		if (!hit[i] || r->info.risk != RISK_SAFE)
			continue;
		for (k = 0; k < ncand; k++) {
			struct risk_rule *o = &c->rules[cand[k]];

			if (hit[k] && k != i && o->info.overridable &&
			    o->info.risk != RISK_SAFE &&
			    strcmp(o->info.category, r->info.category) == 0)
				hit[k] = 0;
		}
	}
	for (i = 0; i < ncand; i++) {
		if (!hit[i])
			continue;
		r = &c->rules[cand[i]];
		c->state[cand[i]] = 2;
		if (c->only != -1)
			c->only_hit = 1;
		judge_offer(j, cand[i], r->info.risk,
		    r->info.confidence * factor);
	}
	buf_release(&text);
}

/* ---- unwrapping ---- */

static const char *
base_name(const char *s)
{
	const char	*p = strrchr(s, '/');

	return (p != NULL && p[1] != '\0') ? p + 1 : s;
}

static void
tech_add(struct judge *j, enum technique t)
{
	j->tech |= 1U << t;
}

static int
is_ld_var(const char *s)
{
	return strncmp(s, "LD_PRELOAD", 10) == 0 ||
	    strncmp(s, "LD_AUDIT", 8) == 0 ||
	    strncmp(s, "LD_LIBRARY_PATH", 15) == 0;
}

/* Skip options of a wrapper: returns the index of the wrapped command. */
static size_t
skip_opts(struct segment *s, size_t i, const char *valopts, int stop_num)
{
	const char	*w;
	char		 key[64];

	for (i++; i < s->argc; i++) {
		w = s->argv[i];
		if (strcmp(w, "--") == 0)
			return i + 1;
		if (w[0] != '-' || w[1] == '\0') {
			if (stop_num)
				return i;
			return i;
		}
		/* -n, --name, and -np or -hostfile (mpirun) if listed. */
		if (strchr(w, '=') == NULL) {
			snprintf(key, sizeof key, " %.60s ", w);
			if (strstr(valopts, key) != NULL)
				i++;
		}
	}
	return i;
}

static void
judge_string(struct judge *j, const char *s, int depth)
{
	if (depth >= CLASSIFY_MAX_DEPTH || j->budget <= 0)
		return;
	judge_line(j, s, strlen(s), depth + 1);
}

/* Join argv[from..] with spaces and judge it as a command line. */
static void
judge_joined(struct judge *j, struct segment *s, size_t from, int depth)
{
	struct buf	b = BUF_INIT;
	size_t		i;

	for (i = from; i < s->argc; i++) {
		if (i > from)
			buf_addc(&b, ' ');
		buf_adds(&b, s->argv[i]);
	}
	if (b.len > 0)
		judge_string(j, b.data, depth);
	buf_release(&b);
}

/*
 * Judge argv[from..to) as a command that runs with these words as its
 * argv (docker exec, systemd-run): joined, each word that needs it quoted.
 */
static void
judge_argv_range(struct judge *j, struct segment *s, size_t from, size_t to,
    int depth)
{
	struct buf	 b = BUF_INIT;
	const char	*p;
	size_t		 i;

	for (i = from; i < to; i++) {
		if (i > from)
			buf_addc(&b, ' ');
		p = s->argv[i];
		if (*p != '\0' && strpbrk(p, " \t\n'\"\\$`;&|<>(){}*?[]#!")
		    == NULL) {
			buf_adds(&b, p);
			continue;
		}
		buf_addc(&b, '\'');
		for (; *p != '\0'; p++) {
			if (*p == '\'')
				buf_adds(&b, "'\\''");
			else
				buf_addc(&b, *p);
		}
		buf_addc(&b, '\'');
	}
	if (b.len > 0)
		judge_string(j, b.data, depth);
	buf_release(&b);
}

static void
judge_argv(struct judge *j, struct segment *s, size_t from, int depth)
{
	judge_argv_range(j, s, from, s->argc, depth);
}

/*
 * The words of a PowerShell script block, { ... } (Invoke-Command
 * -ScriptBlock, icm, Start-Job): the braces may stand alone or touch
 * the first and last words ({Remove-Item C:\x -Recurse}).  A ( ... )
 * inside the block ends the segment early: then the block runs to the
 * end of the words.
 */
static void
judge_script_block(struct judge *j, struct segment *s, int depth)
{
	struct segment	 t;
	char		*first = NULL, *last = NULL;
	size_t		 open = 0, close, i, n;

	for (i = 1; i < s->argc && open == 0; i++) {
		if (s->argv[i][0] == '{')
			open = i;
	}
	if (open == 0)
		return;
	close = s->argc;
	for (i = open; i < s->argc; i++) {
		n = strlen(s->argv[i]);
		if (n > 0 && s->argv[i][n - 1] == '}' && (i > open || n > 1)) {
			close = i + 1;
			break;
		}
	}
	t = *s;
	t.argv = xreallocarray(NULL, s->argc, sizeof *t.argv);
	memcpy(t.argv, s->argv, s->argc * sizeof *t.argv);
	/* Strip the braces: "{" alone is dropped, "{word" loses it. */
	first = xstrdup(s->argv[open] + 1);
	t.argv[open] = first;
	n = strlen(t.argv[close - 1]);
	if (n > 0 && t.argv[close - 1][n - 1] == '}') {
		last = xstrdup(t.argv[close - 1]);
		last[n - 1] = '\0';
		t.argv[close - 1] = last;
	}
	i = open;
	while (i < close && t.argv[i][0] == '\0')
		i++;
	n = close;
	while (n > i && t.argv[n - 1][0] == '\0')
		n--;
	if (n > i)
		judge_argv_range(j, &t, i, n, depth);
	free(first);
	free(last);
	free(t.argv);
}

static int
code_executes(const char *code)
{
	static const char *calls[] = {
		"os.system", "subprocess", "os.remove", "os.unlink",
		"os.rmdir", "shutil.rmtree", "os.popen", "os.exec",
		"unlink", "rmSync", "rmdirSync", "child_process", "execSync",
		"spawn", "system(", "system ", "exec(", "exec ", "`",
		"File.delete", "FileUtils.rm", "rmtree", "Popen", "file.remove",
		"shell_exec", "passthru", "proc_open", "rimraf", "eval(",
		"os.execute", "io.popen", "removeSync", "Deno.run",
		"Deno.Command", "remove_tree", "rmdir", "unlink(",
		"b64decode", "decode_base64", "atob(", "pack(",
		"dbutils.fs.rm",
	};
	const char	*p;
	size_t		 i;

	for (i = 0; i < sizeof calls / sizeof calls[0]; i++) {
		if ((p = strstr(code, calls[i])) == NULL)
			continue;
		/*
		 * Perl's pack("H*", ...) decodes; Python's struct.unpack()
		 * reads a header (session 16, heldout101).
		 */
		if (strcmp(calls[i], "pack(") == 0) {
			for (; p != NULL; p = strstr(p + 1, "pack(")) {
				if (p == code || !isalpha((unsigned char)p[-1]))
					return 1;
			}
			continue;
		}
		return 1;
	}
	return 0;
}

/*
 * The parenthesis that closes the call whose arguments start at p (after
 * its opening one), skipping nested calls and strings; NULL if none.
 */
static const char *
call_close(const char *p)
{
	int	depth = 0;
	char	q = 0;

	for (; *p != '\0'; p++) {
		if (q != 0) {
			if (*p == '\\' && p[1] != '\0')
				p++;
			else if (*p == q)
				q = 0;
		} else if (*p == '\'' || *p == '"')
			q = *p;
		else if (*p == '(')
			depth++;
		else if (*p == ')' && depth-- == 0)
			return p;
	}
	return NULL;
}

/*
 * An inline script's deletion calls are judged as the rm they amount to:
 * shutil.rmtree('/srv') as "rm -rf /srv", unlink glob "/etc/x*" as
 * "rm -f /etc/x*".  The argument must be a literal or the home directory
 * (a relative one only for a recursive call).
 */
/*
 * A literal that starts with the home directory as code writes it inside
 * a string ("$ENV{HOME}/src", "${HOME}/x"): the same path with ~.  Takes
 * and returns an allocated string.
 */
static char *
home_literal(char *lit)
{
	static const char *heads[] = { "$ENV{HOME}", "${HOME}", "$HOME",
	    "%USERPROFILE%", "$env:HOME" };
	size_t	k, n;
	char	*r;

	for (k = 0; k < nitems(heads); k++) {
		n = strlen(heads[k]);
		if (strncmp(lit, heads[k], n) == 0 && (lit[n] == '/' ||
		    lit[n] == '\0')) {
			xasprintf(&r, "~%s", lit + n);
			free(lit);
			return r;
		}
	}
	return lit;
}

/* The literal of the first glob.glob('...') or iglob("...") in code. */
static char *
glob_literal(const char *code)
{
	const char	*g, *q;

	if ((g = strstr(code, "glob.glob(")) != NULL)
		g += 10;
	else if ((g = strstr(code, "glob.iglob(")) != NULL)
		g += 11;
	else
		return NULL;
	while (*g == ' ')
		g++;
	if ((*g != '\'' && *g != '"') || (q = strchr(g + 1, *g)) == NULL ||
	    q == g + 1)
		return NULL;
	return xstrndup(g + 1, q - g - 1);
}

static void
judge_deletes(struct judge *j, const char *code, int depth)
{
	static const struct {
		const char	*call;
		int		 recursive;
	} calls[] = {
		{ "rmtree", 1 }, { "rm_rf", 1 }, { "rm_r", 1 },
		{ "rmSync", 1 }, { "rmdirSync", 1 }, { "rimraf", 1 },
		{ "remove_tree", 1 }, { "remove_dir_all", 1 },
		{ "FileUtils.remove_dir", 1 }, { "rmdir", 1 },
		{ "removeSync", 1 }, { "Deno.remove", 1 },
		{ "unlinkSync", 0 }, { "unlink", 0 }, { "os.remove", 0 },
		{ "File.delete", 0 }, { "FileUtils.rm", 0 },
		{ "remove_file", 0 }, { "file.remove", 0 },
		{ "dbutils.fs.rm", 1 },
	};
	static const char *homes[] = {
		"process.env.HOME", "os.homedir()", "Path.home()",
		"require('os').homedir()", "require(\"os\").homedir()",
		"os.path.expanduser('~')", "os.path.expanduser(\"~\")",
		"os.environ['HOME']", "os.environ[\"HOME\"]",
		"__import__('os').path.expanduser('~')",
		"__import__(\"os\").path.expanduser(\"~\")",
		"Sys.getenv(\"HOME\")", "Sys.getenv('HOME')", "path.expand(\"~\")",
		"os.getenv('HOME')", "os.getenv(\"HOME\")", "ENV['HOME']",
		"ENV[\"HOME\"]", "Dir.home", "$ENV{HOME}", "$ENV{'HOME'}",
	};
	const char	*p, *e, *close;
	char		*arg, *cmd;
	size_t		 i, k, n;
	int		 rec, contents;

	for (i = 0; i < sizeof calls / sizeof calls[0]; i++) {
		n = strlen(calls[i].call);
		for (p = strstr(code, calls[i].call); p != NULL;
		    p = strstr(p + 1, calls[i].call)) {
			e = p + n;
			/* The call itself, not a longer name. */
			if (isalnum((unsigned char)*e) || *e == '_')
				continue;
			while (*e == ' ' || *e == '(')
				e++;
			if (strncmp(e, "glob", 4) == 0) {
				e += 4;
				while (*e == ' ' || *e == '(')
					e++;
			}
			/* R: file.remove(list.files("DIR", ...)) empties DIR. */
			contents = strncmp(e, "list.files", 10) == 0;
			if (contents) {
				e += 10;
				while (*e == ' ' || *e == '(')
					e++;
			}
			arg = NULL;
			if (*e == '\'' || *e == '"') {
				const char *q = strchr(e + 1, *e);

				if (q != NULL && q > e + 1)
					arg = home_literal(xstrndup(e + 1,
					    q - e - 1));
			} else {
				for (k = 0; k < sizeof homes / sizeof homes[0];
				    k++) {
					if (strncmp(e, homes[k],
					    strlen(homes[k])) == 0) {
						arg = xstrdup("~");
						break;
					}
				}
			}
			/*
			 * A name bound by a loop over a glob: [os.remove(f)
			 * for f in glob.glob('/data/x/STAR.h5')].
			 */
			if (arg == NULL && (isalpha((unsigned char)*e) ||
			    *e == '_'))
				arg = glob_literal(code);
			if (arg == NULL)
				continue;
			/* R's unlink(x, recursive = TRUE), and the like. */
			rec = calls[i].recursive;
			if (!rec && (close = call_close(e)) != NULL)
				rec = memmem(e, close - e, "recursive", 9) != NULL;
			/*
			 * A recursive call on a relative literal too:
			 * rmtree('.') is rm -rf ., rmtree('checkpoints')
			 * rm -rf checkpoints.
			 */
			if (arg[0] == '/' || arg[0] == '~' ||
			    (rec && arg[0] != '-' &&
			    arg[0] != '$' && strpbrk(arg, "{}%") == NULL)) {
				xasprintf(&cmd, "rm %s %s%s", rec ? "-rf" : "-f",
				    arg, contents ? "/*" : "");
				judge_string(j, cmd, depth);
				free(cmd);
			}
			free(arg);
		}
	}
}

/*
 * An argv list literal, ['git', 'push', '-f'], is the command it names:
 * judge its elements joined.  p is at '['; returns where the list ends.
 */
static const char *
judge_argv_list(struct judge *j, const char *p, int depth)
{
	struct buf	 b = BUF_INIT;
	const char	*e;
	int		 n = 0;
	char		 q;

	for (p++;;) {
		while (*p == ' ')
			p++;
		if (*p != '\'' && *p != '"')
			break;
		q = *p;
		if ((e = strchr(p + 1, q)) == NULL)
			break;
		if (n++ > 0)
			buf_addc(&b, ' ');
		buf_add(&b, p + 1, e - p - 1);
		p = e + 1;
		while (*p == ' ')
			p++;
		if (*p != ',')
			break;
		p++;
	}
	if (n >= 2 && *p == ']')
		judge_string(j, b.data, depth);
	buf_release(&b);
	return p;
}

static char	*b64_decode(const char *);
static char	*b64_bytes(const char *, size_t *, int);

/*
 * A literal that the code decodes before it runs it: base64, hex or
 * rot13, as the code's own calls say.  Its text is judged as a command
 * line and as code.  Only the first level: a decoded literal is not
 * decoded again.
 */
static void
judge_decoded(struct judge *j, const char *code, const char *lit, int depth)
{
	static const char	 hexd[] = "0123456789abcdefABCDEF";
	struct buf		 b = BUF_INIT;
	char			*dec = NULL;
	size_t			 i, n = strlen(lit);

	if (n < 8 || depth >= CLASSIFY_MAX_DEPTH - 1)
		return;
	if ((strstr(code, "b64decode") != NULL ||
	    strstr(code, "decode_base64") != NULL ||
	    strstr(code, "atob(") != NULL || strstr(code, "base64") != NULL) &&
	    strspn(lit, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	    "0123456789+/=") == n)
		dec = b64_decode(lit);
	else if ((strstr(code, "pack(") != NULL ||
	    strstr(code, "fromhex") != NULL ||
	    strstr(code, "unhexlify") != NULL) && n % 2 == 0 &&
	    strspn(lit, hexd) == n) {
		for (i = 0; i < n; i += 2)
			buf_addc(&b, (char)((strchr(hexd, tolower(
			    (unsigned char)lit[i])) - hexd) * 16 +
			    (strchr(hexd, tolower((unsigned char)lit[i + 1])) -
			    hexd)));
		dec = buf_detach(&b, NULL);
	} else if (strstr(code, "rot13") != NULL ||
	    strstr(code, "rot_13") != NULL) {
		dec = xstrdup(lit);
		for (i = 0; i < n; i++) {
			if (isalpha((unsigned char)dec[i]))
				dec[i] = (char)((islower((unsigned char)dec[i]) ?
				    'a' : 'A') + (tolower((unsigned char)dec[i])
				    - 'a' + 13) % 26);
		}
	}
	if (dec == NULL)
		return;
	for (i = 0; dec[i] != '\0'; i++) {
		if (!isprint((unsigned char)dec[i]) && !isspace(
		    (unsigned char)dec[i]))
			break;
	}
	if (dec[i] == '\0' && i > 0) {
		tech_add(j, TECH_OBFUSCATION);
		judge_string(j, dec, depth + 1);
		judge_deletes(j, dec, depth + 1);
	}
	free(dec);
}

/* Judge the string literals of an inline script that runs commands. */
/*
 * A command string that ends with the home directory added in code:
 * os.system('rm -rf ' + os.path.expanduser('~')) is judged as
 * "rm -rf ~".
 */
static void
judge_home_concat(struct judge *j, const char *code, int depth)
{
	static const char *homes[] = {
		"os.path.expanduser('~')", "os.path.expanduser(\"~\")",
		"os.environ['HOME']", "os.environ[\"HOME\"]",
		"os.getenv('HOME')", "os.getenv(\"HOME\")", "str(Path.home())",
		"os.homedir()", "process.env.HOME", "ENV['HOME']",
		"ENV[\"HOME\"]", "Dir.home", "$ENV{HOME}", "getenv(\"HOME\")",
		"getenv('HOME')", "$_SERVER['HOME']", "$_ENV['HOME']",
	};
	const char	*p, *q, *open, *close;
	char		*cmd;
	size_t		 k;

	/* + in Python, JavaScript and Ruby; . in PHP and Perl. */
	for (p = code; (p = strpbrk(p, "+.")) != NULL; p++) {
		/* 'LITERAL' + HOME: close is the literal's closing quote. */
		for (close = p; close > code && close[-1] == ' '; close--)
			;
		if (close == code || (close[-1] != '\'' && close[-1] != '"'))
			continue;
		close--;
		for (open = close - 1; open >= code && *open != *close; open--)
			;
		if (open < code || close - open < 3)
			continue;
		for (q = p + 1; *q == ' '; q++)
			;
		for (k = 0; k < nitems(homes); k++) {
			if (strncmp(q, homes[k], strlen(homes[k])) == 0)
				break;
		}
		if (k == nitems(homes))
			continue;
		xasprintf(&cmd, "%.*s~", (int)(close - open - 1), open + 1);
		judge_string(j, cmd, depth);
		free(cmd);
	}
}

static void
judge_literals(struct judge *j, const char *code, int depth)
{
	const char	*p, *e;
	char		*lit;
	char		 q;

	judge_deletes(j, code, depth);
	judge_home_concat(j, code, depth);
	for (p = code; *p != '\0'; p++) {
		if (*p == '[') {
			judge_argv_list(j, p, depth);
			continue;
		}
		if (*p != '\'' && *p != '"' && *p != '`')
			continue;
		q = *p;
		for (e = p + 1; *e != '\0' && *e != q; e++) {
			if (*e == '\\' && e[1] != '\0')
				e++;
		}
		if (*e == '\0')
			break;
		if (e - p > 2 && strchr("/~$", p[1]) == NULL) {
			lit = xstrndup(p + 1, e - p - 1);
			judge_string(j, lit, depth);
			judge_decoded(j, code, lit, depth);
			free(lit);
		}
		p = e;
	}
}

/*
 * Project and secret runners that run their arguments as a command:
 * "bundle exec CMD", "poetry run CMD", "doppler run -- CMD".  The index
 * of the command after the runner at i, or i when argv[i] is none.
 */
static size_t
runner_skip(const struct segment *s, size_t i)
{
	static const struct {
		const char	*name;
		const char	*sub;		/* NULL: none */
		int		 dashdash;	/* the command follows "--" */
		int		 args;		/* positionals before CMD */
	} runners[] = {
		{ "bundle", "exec", 0, 0 }, { "poetry", "run", 0, 0 },
		{ "pipenv", "run", 0, 0 }, { "uv", "run", 0, 0 },
		{ "pdm", "run", 0, 0 }, { "hatch", "run", 0, 0 },
		{ "rye", "run", 0, 0 }, { "npm", "exec", 0, 0 },
		{ "pnpm", "exec", 0, 0 }, { "yarn", "exec", 0, 0 },
		{ "pnpm", "dlx", 0, 0 }, { "yarn", "dlx", 0, 0 },
		{ "conda", "run", 0, 0 }, { "mamba", "run", 0, 0 },
		{ "mise", "exec", 1, 0 }, { "mise", "x", 1, 0 },
		{ "asdf", "exec", 0, 0 }, { "op", "run", 1, 0 },
		{ "doppler", "run", 1, 0 }, { "infisical", "run", 1, 0 },
		{ "aws-vault", "exec", 1, 1 }, { "dotenv", NULL, 1, 0 },
		{ "direnv", "exec", 0, 1 }, { "nix", "develop", 1, 0 },
		{ "devbox", "run", 0, 0 }, { "pixi", "run", 0, 0 },
		{ "heroku", "run", 1, 0 },
	};
	/*
	 * pnpm and yarn run a package's binary given as their first word
	 * (pnpm prisma migrate reset) when it is not one of their own
	 * commands or a script (scripts are not known here, and unwrapping
	 * one only shows its name to the rules).
	 */
	static const char	*const pm_own[] = {
		"add", "audit", "bin", "cache", "config", "create", "dedupe",
		"deploy", "dlx", "env", "exec", "fetch", "help", "import",
		"info", "init", "install", "i", "licenses", "link", "list",
		"ls", "outdated", "pack", "patch", "patch-commit", "prune",
		"publish", "rebuild", "remove", "rm", "root", "run", "server",
		"setup", "store", "test", "t", "unlink", "update", "up",
		"upgrade", "upgrade-interactive", "why", "workspace",
		"workspaces", "version", "versions", "login", "logout",
		"owner", "tag", "team", "npm", "plugin", "constraints",
		"explain", "node", "set", "start", "check", "global",
		NULL
	};
	const char	*n = base_name(s->argv[i]);
	size_t		 r, k;

	if ((strcmp(n, "pnpm") == 0 || strcmp(n, "yarn") == 0) &&
	    i + 1 < s->argc && s->argv[i + 1][0] != '-') {
		for (r = 0; pm_own[r] != NULL; r++) {
			if (strcmp(s->argv[i + 1], pm_own[r]) == 0)
				break;
		}
		if (pm_own[r] == NULL)
			return i + 1;
	}
	for (r = 0; r < sizeof runners / sizeof runners[0]; r++) {
		if (strcmp(n, runners[r].name) != 0)
			continue;
		k = i + 1;
		if (runners[r].sub != NULL) {
			if (k >= s->argc || strcmp(s->argv[k],
			    runners[r].sub) != 0)
				continue;
			k++;
		}
		if (runners[r].dashdash) {
			for (; k < s->argc; k++) {
				if (strcmp(s->argv[k], "--") == 0)
					break;
			}
			if (k >= s->argc)
				return i;
			return k + 1 < s->argc ? k + 1 : i;
		}
		/* Options of the runner (conda run -n ENV takes a value). */
		while (k < s->argc && s->argv[k][0] == '-') {
			if ((strcmp(s->argv[k], "-n") == 0 ||
			    strcmp(s->argv[k], "--name") == 0 ||
			    strcmp(s->argv[k], "-p") == 0 ||
			    strcmp(s->argv[k], "--env") == 0 ||
			    strcmp(s->argv[k], "-e") == 0 ||
			    strcmp(s->argv[k], "--directory") == 0) &&
			    k + 1 < s->argc)
				k++;
			k++;
		}
		k += (size_t)runners[r].args;
		return k < s->argc ? k : i;
	}
	return i;
}

/*
 * Unwrap s in place: advance past assignments and wrappers to the
 * command that runs.  Returns 0 if there is nothing left to judge.
 */
static int
unwrap(struct judge *j, struct segment *s, int depth)
{
	size_t		 i = 0, k, last;
	const char	*w, *n;
	int		 changed;

	do {
		changed = 0;
		if (i >= s->argc)
			return 0;
		last = i;
		w = s->argv[i];
		n = base_name(w);
		if (strchr(w, '=') != NULL && w[0] != '=' && w[0] != '-' &&
		    (isalpha((unsigned char)w[0]) || w[0] == '_')) {
			const char *p = w;

			while (isalnum((unsigned char)*p) || *p == '_')
				p++;
			if (*p == '=' || (p[0] == '+' && p[1] == '=')) {
				if (is_ld_var(w))
					tech_add(j, TECH_LD_PRELOAD);
				i++;
				changed = 1;
				continue;
			}
		}
		if (s->nvia >= sizeof s->via / sizeof s->via[0])
			break;
		if (strcmp(n, "sudo") == 0 || strcmp(n, "doas") == 0 ||
		    strcmp(n, "pkexec") == 0 || strcmp(n, "run0") == 0) {
			s->via[s->nvia++] = "sudo";
			i = skip_opts(s, i, " -u -g -C -D -h -p -r -t -U -T "
			    "--user --group --host --prompt --chdir "
			    "--close-from --role --type --other-user ", 0);
			changed = 1;
		} else if (strcmp(n, "env") == 0) {
			s->via[s->nvia++] = "env";
			for (k = i + 1; k < s->argc; k++) {
				w = s->argv[k];
				if (strcmp(w, "-i") == 0 ||
				    strcmp(w, "--ignore-environment") == 0 ||
				    strcmp(w, "-") == 0)
					tech_add(j, TECH_LD_PRELOAD);
				else if ((strcmp(w, "-u") == 0 ||
				    strcmp(w, "--unset") == 0) &&
				    k + 1 < s->argc) {
					if (is_ld_var(s->argv[k + 1]))
						tech_add(j, TECH_LD_PRELOAD);
					k++;
				} else if (strncmp(w, "-u", 2) == 0 &&
				    is_ld_var(w + 2))
					tech_add(j, TECH_LD_PRELOAD);
				else if (strncmp(w, "--unset=", 8) == 0 &&
				    is_ld_var(w + 8))
					tech_add(j, TECH_LD_PRELOAD);
				else if ((strcmp(w, "-C") == 0 ||
				    strcmp(w, "--chdir") == 0) &&
				    k + 1 < s->argc)
					k++;
				else if ((strcmp(w, "-S") == 0 ||
				    strcmp(w, "--split-string") == 0) &&
				    k + 1 < s->argc) {
					judge_joined(j, s, k + 1, depth);
					return 0;
				} else if (w[0] == '-')
					continue;
				else if (strchr(w, '=') != NULL) {
					if (is_ld_var(w))
						tech_add(j, TECH_LD_PRELOAD);
				} else
					break;
			}
			i = k;
			changed = 1;
		} else if (strcmp(n, "nice") == 0) {
			s->via[s->nvia++] = "nice";
			i = skip_opts(s, i, " -n --adjustment ", 0);
			changed = 1;
		} else if (strcmp(n, "ionice") == 0) {
			s->via[s->nvia++] = "ionice";
			i = skip_opts(s, i, " -c -n -p -P -u --class "
			    "--classdata ", 0);
			changed = 1;
		} else if (strcmp(n, "nohup") == 0 || strcmp(n, "time") == 0 ||
		    strcmp(n, "builtin") == 0 || strcmp(n, "setsid") == 0 ||
		    strcmp(n, "unbuffer") == 0 || strcmp(n, "caffeinate") == 0 ||
		    strcmp(n, "strace") == 0 || strcmp(n, "ltrace") == 0 ||
		    strcmp(n, "fakeroot") == 0 || strcmp(n, "torsocks") == 0 ||
		    strcmp(n, "proxychains") == 0) {
			s->via[s->nvia++] = n;
			i = skip_opts(s, i, " -o -e -p -s -f ", 0);
			changed = 1;
		} else if (strcmp(n, "command") == 0) {
			if (i + 1 < s->argc && (strcmp(s->argv[i + 1], "-v")
			    == 0 || strcmp(s->argv[i + 1], "-V") == 0))
				return 0;
			s->via[s->nvia++] = "command";
			tech_add(j, TECH_SHADOWING);
			i = skip_opts(s, i, " ", 0);
			changed = 1;
		} else if (strcmp(n, "npx") == 0 || strcmp(n, "bunx") == 0 ||
		    strcmp(n, "pnpx") == 0) {
			s->via[s->nvia++] = "npx";
			i = skip_opts(s, i, " -p --package -c --call ", 0);
			changed = 1;
		} else if (strcmp(n, "exec") == 0) {
			s->via[s->nvia++] = "exec";
			i = skip_opts(s, i, " -a ", 0);
			changed = 1;
		} else if (strcmp(n, "timeout") == 0) {
			s->via[s->nvia++] = "timeout";
			i = skip_opts(s, i, " -s -k --signal --kill-after ",
			    0);
			i++;		/* the duration */
			changed = 1;
		} else if ((k = runner_skip(s, i)) > i) {
			/* bundle exec, poetry run, doppler run --, ... */
			s->via[s->nvia++] = "runner";
			i = k;
			changed = 1;
		} else if (strcmp(n, "mpirun") == 0 ||
		    strcmp(n, "mpiexec") == 0 || strcmp(n, "orterun") == 0 ||
		    strcmp(n, "srun") == 0) {
			/* MPI and Slurm launchers: the command on N ranks. */
			s->via[s->nvia++] = "mpirun";
			i = skip_opts(s, i, " -n -np -N -c -H -x -p -t -J "
			    "-A -w -o -e -f -ppn -host -hosts -hostfile "
			    "-machinefile --host --hostfile --machinefile "
			    "--map-by --bind-to --rank-by --partition --time "
			    "--ntasks --nodes --job-name --account --nodelist "
			    "--output --error --mem --gres --cpus-per-task "
			    "--mca -mca ", 0);
			changed = 1;
		} else if (strcmp(n, "stdbuf") == 0) {
			s->via[s->nvia++] = "stdbuf";
			i = skip_opts(s, i, " -i -o -e ", 0);
			changed = 1;
		} else if (strcmp(n, "chroot") == 0) {
			s->via[s->nvia++] = "chroot";
			i = skip_opts(s, i, " --userspec --groups ", 0);
			i++;		/* the new root */
			if (i >= s->argc)
				return 1;
			changed = 1;
		} else if (strcmp(n, "flock") == 0) {
			s->via[s->nvia++] = "flock";
			i = skip_opts(s, i, " -w -E --timeout ", 0);
			i++;		/* the lock file */
			changed = 1;
		} else if (strcmp(n, "busybox") == 0 ||
		    strcmp(n, "toybox") == 0) {
			s->via[s->nvia++] = "busybox";
			tech_add(j, TECH_DIRECT_EXECUTION);
			i++;
			changed = 1;
		} else if (strncmp(n, "ld-linux", 8) == 0 ||
		    strcmp(n, "ld.so") == 0 || strncmp(n, "ld-musl", 7) == 0) {
			s->via[s->nvia++] = "ld.so";
			tech_add(j, TECH_DIRECT_EXECUTION);
			i = skip_opts(s, i, " --library-path --preload "
			    "--argv0 --audit --inhibit-rpath ", 0);
			changed = 1;
		} else if (strcmp(n, "xargs") == 0) {
			s->via[s->nvia++] = "xargs";
			for (k = i + 1; k < s->argc && s->argv[k][0] == '-';
			    k++) {
				if (strcmp(s->argv[k], "-I") == 0 &&
				    k + 1 < s->argc)
					s->xrepl = s->argv[++k];
				else if (strncmp(s->argv[k], "-I", 2) == 0)
					s->xrepl = s->argv[k] + 2;
				else if (strcmp(s->argv[k], "-i") == 0 ||
				    strcmp(s->argv[k], "--replace") == 0)
					s->xrepl = "{}";
				else if (strncmp(s->argv[k], "--replace=",
				    10) == 0)
					s->xrepl = s->argv[k] + 10;
			}
			if (s->xrepl != NULL && *s->xrepl == '\0')
				s->xrepl = NULL;
			i = skip_opts(s, i, " -n -I -L -P -d -E -s -a "
			    "--max-args --max-procs --delimiter --arg-file "
			    "--max-lines --replace ", 0);
			s->indirect = 1;
			changed = 1;
		} else if (strcmp(n, "parallel") == 0) {
			s->via[s->nvia++] = "xargs";
			i = skip_opts(s, i, " -j -S --jobs --sshlogin "
			    "--delay --timeout ", 0);
			/* CMD ::: A B: judged as CMD A B, as xargs. */
			for (k = i, last = i; k < s->argc; k++) {
				if (strncmp(s->argv[k], ":::", 3) == 0)
					continue;
				s->argv[last] = s->argv[k];
				s->wflags[last++] = s->wflags[k];
			}
			s->argc = last;
			last = i;
			s->indirect = 1;
			changed = 1;
		}
		/* A wrapper with nothing to run is the command itself. */
		if (changed && i >= s->argc) {
			i = last;
			break;
		}
	} while (changed);
	if (i >= s->argc)
		return 0;
	if (i > 0) {
		memmove(s->argv, s->argv + i, (s->argc - i) * sizeof *s->argv);
		memmove(s->wflags, s->wflags + i,
		    (s->argc - i) * sizeof *s->wflags);
		s->argc -= i;
		s->indirect = 1;
	}
	return 1;
}

/* The options of ssh that take a value. */
static const char ssh_valopts[] = " -b -c -D -E -e -F -I -i -J -L -l -m "
    "-O -o -p -Q -R -S -W -w -B ";

static int
has_short_opt(const char *w, int ch)
{
	if (w[0] != '-' || w[1] == '-' || w[1] == '\0')
		return 0;
	return strchr(w + 1, ch) != NULL;
}

/* A find test that narrows what it matches: -name, -path, -mtime ... */
static int
find_narrows(const char *w)
{
	static const char	*tests[] = { "-name", "-iname", "-path",
	    "-ipath", "-regex", "-iregex", "-wholename", "-iwholename",
	    "-newer", "-mtime", "-mmin", "-size", "-empty", "-user" };

	return IN(w, tests);
}

/* Whether find's tests before word end select by name or path. */
static int
find_filtered(const struct segment *s, size_t end)
{
	size_t	i;

	for (i = 1; i < end && i < s->argc; i++) {
		if (find_narrows(s->argv[i]))
			return 1;
	}
	return 0;
}

/* Any other test that picks files: -type, -perm, -links, -maxdepth... */
static int
has_find_test(const struct segment *s)
{
	static const char	*tests[] = { "-type", "-perm", "-links",
	    "-group", "-nouser", "-nogroup", "-atime", "-amin", "-ctime",
	    "-cmin", "-inum", "-samefile", "-lname", "-ilname", "-xtype",
	    "-readable", "-writable", "-executable", "-fstype", "-uid",
	    "-gid", "-depth", "-prune", "-o", "-or", "!", "-not", "(" };
	size_t			 i;

	for (i = 2; i < s->argc; i++) {
		if (IN(s->argv[i], tests))
			return 1;
	}
	return 0;
}

/*
 * The one literal name find matches before argument end (-name
 * node_modules), or NULL: a glob, several names, or none.
 */
static const char *
find_literal_name(const struct segment *s, size_t end)
{
	const char	*name = NULL;
	size_t		 i;

	for (i = 1; i + 1 < end && i + 1 < s->argc; i++) {
		if (strcmp(s->argv[i], "-name") != 0)
			continue;
		if (name != NULL || strpbrk(s->argv[i + 1], "*?[/") != NULL ||
		    s->argv[i + 1][0] == '\0')
			return NULL;
		name = s->argv[++i];
	}
	return name;
}

/* A recursive flag: -r, -R, -rf, --recursive. */
static int
has_flag_r(const struct segment *s)
{
	size_t	i;

	for (i = 1; i < s->argc; i++) {
		if (strcmp(s->argv[i], "--recursive") == 0 ||
		    (s->argv[i][0] == '-' && s->argv[i][1] != '-' &&
		    strpbrk(s->argv[i] + 1, "rR") != NULL))
			return 1;
	}
	return 0;
}

/* docker/podman run options that take a value. */
static const char run_valopts[] = " -a -c -e -h -l -m -p -u -v -w "
    "--add-host --attach --cap-add --cap-drop --cgroup-parent --cidfile "
    "--cpus --cpu-shares --cpuset-cpus --device --dns --entrypoint --env "
    "--env-file --expose --gpus --group-add --health-cmd --hostname "
    "--ipc --label --link --log-driver --log-opt --mac-address --memory "
    "--mount --name --network --net --pid --platform --publish --pull "
    "--restart --runtime --security-opt --shm-size --stop-signal --tmpfs "
    "--ulimit --user --userns --uts --volume --volumes-from --workdir ";

/* Whether a container run gets the host's devices (after index from). */
static int
host_devices(const struct segment *s, size_t from)
{
	size_t	i;

	for (i = from + 1; i < s->argc; i++) {
		const char *w = s->argv[i];

		if (strcmp(w, "--privileged") == 0 ||
		    strncmp(w, "--device", 8) == 0 ||
		    strcmp(w, "--pid=host") == 0)
			return 1;
		if ((strcmp(w, "-v") == 0 || strcmp(w, "--volume") == 0) &&
		    i + 1 < s->argc && strncmp(s->argv[i + 1], "/dev:", 5) == 0)
			return 1;
		if (w[0] != '-' && (i == from + 1 || s->argv[i - 1][0] != '-'))
			break;	/* the image */
	}
	return 0;
}

/*
 * PowerShell's -EncodedCommand: base64 of UTF-16LE text.  Returns the
 * text (the ASCII of it), or NULL when it is not that.
 */
static char *
ps_decode(const char *b64)
{
	char	*raw, *text;
	size_t	 n, i, k = 0;

	if ((raw = b64_bytes(b64, &n, 1)) == NULL)
		return NULL;
	text = xmalloc(n / 2 + 1);
	for (i = 0; i + 1 < n; i += 2) {
		if (raw[i + 1] != 0 || raw[i] == 0) {
			/* Not UTF-16LE of ASCII text. */
			free(raw);
			free(text);
			return NULL;
		}
		text[k++] = raw[i];
	}
	text[k] = '\0';
	free(raw);
	if (k == 0) {
		free(text);
		return NULL;
	}
	return text;
}

/* Consoles that run the string given to one of their options. */
struct opt_console {
	const char	*name, *sub1, *sub2;	/* sub: NULL for any */
	const char	*opt, *opt2;		/* opt2: NULL for none */
};
static const struct opt_console opt_consoles[] = {
	{ "fly", "ssh", "console", "--command", "-C" },
	{ "flyctl", "ssh", "console", "--command", "-C" },
	{ "gcloud", "compute", "ssh", "--command", NULL },
	{ "gcloud", "cloud-shell", "ssh", "--command", NULL },
	{ "az", "vm", "run-command", "--scripts", NULL },
	{ "doctl", "compute", "ssh", "--ssh-command", NULL },
	{ "eb", "ssh", NULL, "--command", "-c" },
	{ "lando", "ssh", NULL, "--command", "-c" },
	{ "nix-shell", NULL, NULL, "--run", "--command" },
	{ "railway", "ssh", NULL, "--command", NULL },
	{ "copilot", "svc", "exec", "--command", "-c" },
	{ "copilot", "task", "exec", "--command", "-c" },
	{ "aws", "ecs", "execute-command", "--command", NULL },
	{ "az", "aks", "command", "--command", "-c" },
};

/* Judge the text that a command executes (sh -c, ssh, eval, ...). */
static void
judge_payloads(struct judge *j, struct segment *s, int depth)
{
	const char	*n = s->name;
	size_t		 i, k;

	if (IN(n, shells) || strcmp(n, "su") == 0 || strcmp(n, "runuser")
	    == 0) {
		for (i = 1; i < s->argc; i++) {
			if ((strcmp(s->argv[i], "-c") == 0 ||
			    strcmp(s->argv[i], "--command") == 0 ||
			    (s->argv[i][1] != '-' &&
			    has_short_opt(s->argv[i], 'c') &&
			    strcmp(n, "su") != 0)) && i + 1 < s->argc) {
				judge_string(j, s->argv[i + 1], depth);
				/*
				 * Android's su (adb shell su -c setenforce
				 * 0) runs all the words after -c; util-linux
				 * takes the next as a user name, harmless to
				 * judge as a command too.
				 */
				if (strcmp(n, "su") == 0 && i + 2 < s->argc &&
				    strchr(s->argv[i + 1], ' ') == NULL)
					judge_joined(j, s, i + 1, depth);
				return;
			}
		}
		return;
	}
	if (strcmp(n, "ssh") == 0) {
		i = skip_opts(s, 0, ssh_valopts, 0);
		/* ssh parses options after the destination too (-t). */
		if (i < s->argc)
			i = skip_opts(s, i, ssh_valopts, 0);
		if (i < s->argc && i > 0)
			judge_joined(j, s, i, depth);
		return;
	}
	/*
	 * heroku run CMD ... runs CMD in a one-off dyno of the app (with
	 * "--" the runner list unwraps it); its options may come anywhere.
	 */
	if (strcmp(n, "heroku") == 0 && s->argc > 2 &&
	    strcmp(s->argv[1], "run") == 0) {
		k = skip_opts(s, 1, " -a -r -s -e --app --remote --size --env "
		    "--type ", 0);
		if (k < s->argc)
			judge_joined(j, s, k, depth);
		return;
	}
	/*
	 * platform ssh [-e ENV] [--] CMD (Platform.sh, also as upsun) runs
	 * CMD in the environment's container (session 16, heldout105).
	 */
	if ((strcmp(n, "platform") == 0 || strcmp(n, "upsun") == 0) &&
	    s->argc > 2 && strcmp(s->argv[1], "ssh") == 0) {
		k = skip_opts(s, 1, " -e -p -A -I --environment --project "
		    "--app --worker --instance --identity-file ", 0);
		if (k < s->argc)
			judge_joined(j, s, k, depth);
		return;
	}
	/*
	 * PowerShell's Invoke-Command -ScriptBlock { ... } (also icm, and
	 * Start-Job): the words between the braces run, here or remotely.
	 */
	if (strcasecmp(n, "Invoke-Command") == 0 || strcasecmp(n, "icm") ==
	    0 || strcasecmp(n, "Start-Job") == 0) {
		judge_script_block(j, s, depth);
		return;
	}
	/*
	 * Greenplum's gpssh [OPTIONS] 'CMD' runs CMD on every listed host;
	 * Zowe's zos-uss issue ssh [OPTIONS] 'CMD' runs it in z/OS UNIX.
	 */
	if (strcmp(n, "gpssh") == 0) {
		/* gpssh {-f FILE | -h HOST} [-s] [-e] [-v] [COMMAND] */
		k = skip_opts(s, 0, " -f -h -d -t -u -D ", 0);
		if (k < s->argc)
			judge_joined(j, s, k, depth);
		return;
	}
	if (strcmp(n, "zowe") == 0 && s->argc > 4 &&
	    (strcmp(s->argv[1], "zos-uss") == 0 ||
	    strcmp(s->argv[1], "uss") == 0) &&
	    strcmp(s->argv[2], "issue") == 0 &&
	    strcmp(s->argv[3], "ssh") == 0) {
		/* Its options (--cwd DIR, --ssh-p PROFILE) take a value. */
		for (k = 4; k < s->argc && s->argv[k][0] == '-'; k++) {
			if (strchr(s->argv[k], '=') == NULL)
				k++;
		}
		if (k < s->argc)
			judge_string(j, s->argv[k], depth);
		return;
	}
	/*
	 * balena ssh DEVICE [SERVICE] 'CMD': the last word, when it is a
	 * command line, runs on the device.
	 */
	if (strcmp(n, "balena") == 0 && s->argc > 3 &&
	    strcmp(s->argv[1], "ssh") == 0 &&
	    s->argv[s->argc - 1][0] != '-' &&
	    strchr(s->argv[s->argc - 1], ' ') != NULL) {
		judge_string(j, s->argv[s->argc - 1], depth);
		return;
	}
	/*
	 * Remote and sandbox consoles that run a command string given to an
	 * option: fly ssh console -C CMD, gcloud compute ssh H --command=CMD,
	 * az vm run-command invoke --scripts CMD, doctl compute ssh H
	 * --ssh-command CMD, eb ssh -c CMD, lando ssh -c CMD, nix-shell
	 * --run CMD, copilot svc exec -c CMD, aws ecs execute-command
	 * --command CMD, az aks command invoke --command CMD.
	 */
	for (k = 0; k < nitems(opt_consoles); k++) {
		const struct opt_console *oc = &opt_consoles[k];
		size_t			  a, ol;

		if (strcmp(n, oc->name) != 0)
			continue;
		if (oc->sub1 != NULL && (s->argc < 2 ||
		    strcmp(s->argv[1], oc->sub1) != 0))
			continue;
		if (oc->sub2 != NULL && (s->argc < 3 ||
		    strcmp(s->argv[2], oc->sub2) != 0))
			continue;
		ol = strlen(oc->opt);
		for (a = 1; a < s->argc; a++) {
			const char *w = s->argv[a];

			if (strncmp(w, oc->opt, ol) == 0 && w[ol] == '=' &&
			    oc->opt[1] == '-') {
				judge_string(j, w + ol + 1, depth);
				return;
			}
			if ((strcmp(w, oc->opt) == 0 || (oc->opt2 != NULL &&
			    strcmp(w, oc->opt2) == 0)) && a + 1 < s->argc) {
				judge_string(j, s->argv[a + 1], depth);
				return;
			}
		}
		return;
	}
	/*
	 * Configuration-management runners that run a shell command on
	 * their targets: bolt command run CMD, knife ssh QUERY CMD, puppet
	 * apply -e CODE is judged by the rules (its resources are not
	 * shell).
	 */
	if (strcmp(n, "bolt") == 0 && s->argc > 3 &&
	    strcmp(s->argv[1], "command") == 0 &&
	    strcmp(s->argv[2], "run") == 0) {
		judge_string(j, s->argv[3], depth);
		return;
	}
	if (strcmp(n, "knife") == 0 && s->argc > 3 &&
	    strcmp(s->argv[1], "ssh") == 0 && s->argv[2][0] != '-' &&
	    s->argv[3][0] != '-') {
		judge_string(j, s->argv[3], depth);
		return;
	}
	/*
	 * Container and VM managers that run the argv after "--": pct exec
	 * 105 -- CMD, lxc|incus exec NAME -- CMD, multipass exec NAME --
	 * CMD, qm guest exec 101 -- CMD, distrobox enter NAME -- CMD.
	 */
	if ((strcmp(n, "pct") == 0 || strcmp(n, "lxc") == 0 ||
	    strcmp(n, "incus") == 0 || strcmp(n, "multipass") == 0 ||
	    strcmp(n, "qm") == 0 || strcmp(n, "distrobox") == 0) &&
	    s->argc > 1 && (strcmp(s->argv[1], "exec") == 0 ||
	    strcmp(s->argv[1], "guest") == 0 ||
	    strcmp(s->argv[1], "enter") == 0)) {
		for (k = 2; k < s->argc; k++) {
			if (strcmp(s->argv[k], "--") == 0) {
				judge_argv(j, s, k + 1, depth);
				break;
			}
		}
		return;
	}
	/*
	 * HPC: apptainer|singularity exec IMAGE CMD... runs CMD on the
	 * host's bound directories; sbatch --wrap=CMD is a batch job's
	 * script.
	 */
	if ((strcmp(n, "apptainer") == 0 || strcmp(n, "singularity") == 0) &&
	    s->argc > 2 && strcmp(s->argv[1], "exec") == 0) {
		k = skip_opts(s, 1, " -B -H -W -e --bind --home --workdir "
		    "--env --env-file --mount --overlay --pwd --security ", 0);
		if (k + 1 < s->argc)
			judge_argv(j, s, k + 1, depth);
		return;
	}
	if (strcmp(n, "sbatch") == 0) {
		for (k = 1; k < s->argc; k++) {
			if (strncmp(s->argv[k], "--wrap=", 7) == 0) {
				judge_string(j, s->argv[k] + 7, depth);
				break;
			}
			if (strcmp(s->argv[k], "--wrap") == 0 &&
			    k + 1 < s->argc) {
				judge_string(j, s->argv[k + 1], depth);
				break;
			}
		}
		return;
	}
	/* repo forall -c SCRIPT and vagrant ssh -c SCRIPT run a script. */
	if ((strcmp(n, "repo") == 0 || strcmp(n, "vagrant") == 0) &&
	    s->argc > 1 && (strcmp(s->argv[1], "forall") == 0 ||
	    strcmp(s->argv[1], "ssh") == 0)) {
		for (k = 2; k + 1 < s->argc; k++) {
			if (strcmp(s->argv[k], "-c") == 0 ||
			    strcmp(s->argv[k], "--command") == 0) {
				judge_string(j, s->argv[k + 1], depth);
				break;
			}
		}
		return;
	}
	/*
	 * docker exec CONTAINER CMD..., kubectl exec POD -- CMD..., kubectl
	 * debug NODE -- CMD...: an argv, run without a shell.  docker run
	 * IMAGE sh -c '...': the script of a shell among the arguments.
	 */
	if (strcmp(n, "docker") == 0 || strcmp(n, "podman") == 0 ||
	    strcmp(n, "nerdctl") == 0 || strcmp(n, "docker-compose") == 0 ||
	    strcmp(n, "kubectl") == 0 || strcmp(n, "oc") == 0) {
		size_t	pos[8], np;

		np = positionals(j->c, s, pos, 8);
		for (i = 0; i < np && i < 3; i++) {
			if (strcmp(s->argv[pos[i]], "exec") == 0 ||
			    strcmp(s->argv[pos[i]], "debug") == 0)
				break;
			if (strcmp(s->argv[pos[i]], "run") == 0 &&
			    (strcmp(n, "docker-compose") == 0 || (i > 0 &&
			    strcmp(s->argv[pos[i - 1]], "compose") == 0))) {
				/*
				 * docker compose run SERVICE CMD...: the
				 * service's container, with its volumes and
				 * its database: the argv is judged.
				 */
				k = skip_opts(s, pos[i], " -e -u -w -p -v -l "
				    "--env --user --workdir --publish --volume "
				    "--label --name --entrypoint --env-file ",
				    0);
				if (k + 1 < s->argc)
					judge_argv(j, s, k + 1, depth);
				return;
			}
			if (strcmp(s->argv[pos[i]], "run") == 0) {
				for (k = pos[i] + 1; k + 2 < s->argc; k++) {
					if (IN(base_name(s->argv[k]), shells) &&
					    strcmp(s->argv[k + 1], "-c") == 0) {
						judge_string(j, s->argv[k + 2],
						    depth);
						return;
					}
				}
				/*
				 * A privileged container, or one given the
				 * host's devices, runs its argv on the host's
				 * disks: docker run --privileged -v /dev:/dev
				 * alpine dd of=/dev/nvme0n1.
				 */
				if (host_devices(s, pos[i])) {
					k = skip_opts(s, pos[i], run_valopts,
					    0);
					if (k + 1 < s->argc)
						judge_argv(j, s, k + 1, depth);
				}
				return;
			}
		}
		if (i == np || i == 3)
			return;
		for (k = pos[i] + 1; k < s->argc; k++) {
			if (strcmp(s->argv[k], "--") == 0) {
				judge_argv(j, s, k + 1, depth);
				return;
			}
		}
		if (strcmp(n, "kubectl") == 0 || strcmp(n, "oc") == 0)
			k = skip_opts(s, pos[i], " -c -n -f --container "
			    "--namespace --filename --context "
			    "--pod-running-timeout --image ", 0);
		else
			k = skip_opts(s, pos[i], " -e -u -w --env --user "
			    "--workdir --env-file --detach-keys --index ", 0);
		if (k + 1 < s->argc)
			judge_argv(j, s, k + 1, depth);
		return;
	}
	/* ansible HOSTS -m shell|command|raw -a 'CMD': CMD on every host. */
	if (strcmp(n, "ansible") == 0) {
		const char	*mod = NULL, *arg = NULL;

		for (i = 1; i + 1 < s->argc; i++) {
			if (strcmp(s->argv[i], "-m") == 0 ||
			    strcmp(s->argv[i], "--module-name") == 0)
				mod = s->argv[i + 1];
			else if (strcmp(s->argv[i], "-a") == 0 ||
			    strcmp(s->argv[i], "--args") == 0)
				arg = s->argv[i + 1];
		}
		/* ansible.builtin.shell is shell. */
		if (mod != NULL && strrchr(mod, '.') != NULL)
			mod = strrchr(mod, '.') + 1;
		if (arg != NULL && (mod == NULL ||
		    strcmp(base_name(mod), "shell") == 0 ||
		    strcmp(base_name(mod), "command") == 0 ||
		    strcmp(base_name(mod), "raw") == 0))
			judge_string(j, arg, depth);
		return;
	}
	/*
	 * aws ssm send-command --parameters 'commands=["CMD", ...]' (the
	 * AWS-RunShellScript document): each CMD on the instances.
	 */
	if (strcmp(n, "aws") == 0 && s->argc > 2 &&
	    strcmp(s->argv[1], "ssm") == 0 &&
	    strcmp(s->argv[2], "send-command") == 0) {
		for (k = 3; k < s->argc; k++) {
			const char	*p = NULL, *q;
			char		*cmd;

			if (strcmp(s->argv[k], "--parameters") == 0 &&
			    k + 1 < s->argc)
				p = s->argv[k + 1];
			else if (strncmp(s->argv[k], "--parameters=", 13) == 0)
				p = s->argv[k] + 13;
			if (p == NULL || (p = strstr(p, "commands=")) == NULL)
				continue;
			for (p += 9; *p != '\0'; p = q + 1) {
				while (*p == '[' || *p == ',' || *p == ' ')
					p++;
				if (*p != '"' && *p != '\'')
					break;
				if ((q = strchr(p + 1, *p)) == NULL)
					break;
				cmd = xstrndup(p + 1, (size_t)(q - p - 1));
				judge_string(j, cmd, depth);
				free(cmd);
			}
		}
		return;
	}
	/* cmd.exe /c CMD (from WSL or Git Bash): the rest is CMD. */
	if (strcasecmp(n, "cmd") == 0 || strcasecmp(n, "cmd.exe") == 0) {
		for (k = 1; k < s->argc; k++) {
			if (strcasecmp(s->argv[k], "/c") == 0 ||
			    strcasecmp(s->argv[k], "/k") == 0) {
				judge_joined(j, s, k + 1, depth);
				break;
			}
		}
		return;
	}
	/* wsl.exe [-d DISTRO] [-u USER] [-e|--] CMD: CMD in the distro. */
	if (strcmp(n, "wsl") == 0 || strcmp(n, "wsl.exe") == 0) {
		k = skip_opts(s, 0, " -d -u --distribution --user --cd ", 0);
		if (k < s->argc && (strcmp(s->argv[k], "-e") == 0 ||
		    strcmp(s->argv[k], "--exec") == 0))
			k++;
		if (k > 0 && k < s->argc)
			judge_joined(j, s, k, depth);
		return;
	}
	/* adb [-s SERIAL] shell CMD...: CMD on the device's shell. */
	if (strcmp(n, "adb") == 0) {
		k = skip_opts(s, 0, " -s -t -H -P -L ", 0);
		if (k < s->argc && strcmp(s->argv[k], "shell") == 0 &&
		    k + 1 < s->argc)
			judge_joined(j, s, k + 1, depth);
		return;
	}
	/* osascript -e '... do shell script "CMD" ...'. */
	if (strcmp(n, "osascript") == 0) {
		const char	*p, *e;
		char		*cmd;

		for (i = 1; i < s->argc; i++) {
			if ((p = strstr(s->argv[i], "do shell script \"")) ==
			    NULL)
				continue;
			p += strlen("do shell script \"");
			for (e = p; *e != '\0' && *e != '"'; e++) {
				if (*e == '\\' && e[1] != '\0')
					e++;
			}
			cmd = xstrndup(p, (size_t)(e - p));
			tech_add(j, TECH_INLINE_SCRIPT);
			judge_string(j, cmd, depth);
			free(cmd);
		}
		return;
	}
	/* script -c CMD: runs CMD with sh -c. */
	if (strcmp(n, "script") == 0) {
		for (i = 1; i + 1 < s->argc; i++) {
			if (strcmp(s->argv[i], "--command") == 0 ||
			    (s->argv[i][1] != '-' &&
			    has_short_opt(s->argv[i], 'c'))) {
				judge_string(j, s->argv[i + 1], depth);
				return;
			}
		}
		return;
	}
	/*
	 * tmux new-session/new-window/split-window [opts] CMD... runs CMD
	 * with sh -c; send-keys types its words into a shell.
	 */
	if (strcmp(n, "tmux") == 0) {
		static const char *starts[] = { "new", "new-session", "neww",
		    "new-window", "splitw", "split-window", "respawn-pane",
		    "respawnp", "respawn-window", "respawnw" };
		static const char *keys[] = { "Enter", "C-m", "KPEnter",
		    "C-j", "\n" };

		for (i = 1; i < s->argc && s->argv[i][0] == '-'; i++)
			if (strchr("LSf", s->argv[i][1]) != NULL &&
			    s->argv[i][2] == '\0')
				i++;
		if (i >= s->argc)
			return;
		if (IN(s->argv[i], starts)) {
			k = skip_opts(s, i, " -c -e -F -n -s -t -x -y -l -p "
			    "-f ", 0);
			if (k < s->argc)
				judge_joined(j, s, k, depth);
		} else if (strcmp(s->argv[i], "send-keys") == 0 ||
		    strcmp(s->argv[i], "send") == 0) {
			struct buf	b = BUF_INIT;

			k = skip_opts(s, i, " -t -N ", 0);
			for (; k < s->argc; k++) {
				if (IN(s->argv[k], keys))
					continue;
				if (b.len > 0)
					buf_addc(&b, ' ');
				buf_adds(&b, s->argv[k]);
			}
			if (b.len > 0)
				judge_string(j, b.data, depth);
			buf_release(&b);
		}
		return;
	}
	/* screen -dmS NAME CMD..., systemd-run [opts] CMD...: an argv. */
	if (strcmp(n, "screen") == 0 || strcmp(n, "systemd-run") == 0) {
		if (strcmp(n, "screen") == 0) {
			/* -dmS NAME: a bundle whose last flag takes a value. */
			for (k = 1; k < s->argc && s->argv[k][0] == '-'; k++) {
				size_t l = strlen(s->argv[k]);

				if (l >= 2 && strchr("SceEhpTtsX",
				    s->argv[k][l - 1]) != NULL)
					k++;
			}
		} else
			k = skip_opts(s, 0, " -u --unit -p --property -E "
			    "--setenv -M --machine --slice --description "
			    "--uid --gid --nice -H --host --working-directory "
			    "--on-active --on-boot --on-calendar "
			    "--on-unit-active --timer-property ", 0);
		if (k < s->argc)
			judge_argv(j, s, k, depth);
		return;
	}
	/*
	 * PowerShell: -c/-Command SCRIPT, and -EncodedCommand B64 (any
	 * prefix of it from -e, or -ec): base64 of UTF-16LE, judged decoded.
	 */
	if (strcmp(n, "pwsh") == 0 || strcmp(n, "powershell") == 0 ||
	    strcmp(n, "powershell.exe") == 0 || strcmp(n, "pwsh.exe") == 0) {
		for (i = 1; i + 1 < s->argc; i++) {
			const char	*w = s->argv[i];
			size_t		 wl = strlen(w);

			if (strcasecmp(w, "-c") == 0 ||
			    strcasecmp(w, "-command") == 0) {
				judge_joined(j, s, i + 1, depth);
				return;
			}
			if (wl >= 2 && (strcasecmp(w, "-ec") == 0 ||
			    strncasecmp(w, "-encodedcommand", wl) == 0)) {
				char	*dec = ps_decode(s->argv[i + 1]);

				if (dec != NULL) {
					judge_string(j, dec, depth);
					free(dec);
				}
				return;
			}
		}
		return;
	}
	/* awk 'BEGIN { system("...") }': the program's literals. */
	if (strcmp(n, "awk") == 0 || strcmp(n, "gawk") == 0 ||
	    strcmp(n, "mawk") == 0 || strcmp(n, "nawk") == 0) {
		k = skip_opts(s, 0, " -F -v -f -i -l ", 0);
		if (k < s->argc && (strstr(s->argv[k], "system") != NULL ||
		    strstr(s->argv[k], "| getline") != NULL ||
		    strstr(s->argv[k], "|getline") != NULL)) {
			tech_add(j, TECH_INLINE_SCRIPT);
			judge_literals(j, s->argv[k], depth);
		}
		return;
	}
	/* lua -e CODE, Rscript -e CODE, deno eval CODE. */
	if (strcmp(n, "lua") == 0 || strncmp(n, "lua5", 4) == 0 ||
	    strcmp(n, "luajit") == 0 || strcmp(n, "Rscript") == 0 ||
	    strcmp(n, "R") == 0 || strcmp(n, "deno") == 0 ||
	    strcmp(n, "bun") == 0) {
		for (i = 1; i + 1 < s->argc; i++) {
			if (strcmp(s->argv[i], "-e") == 0 ||
			    strcmp(s->argv[i], "eval") == 0 ||
			    strcmp(s->argv[i], "--eval") == 0) {
				if (code_executes(s->argv[i + 1])) {
					tech_add(j, TECH_INLINE_SCRIPT);
					judge_literals(j, s->argv[i + 1],
					    depth);
				}
				return;
			}
		}
		return;
	}
	/* The same command on many hosts. */
	if (strcmp(n, "parallel-ssh") == 0 || strcmp(n, "pssh") == 0 ||
	    strcmp(n, "pdsh") == 0 || strcmp(n, "clush") == 0) {
		i = skip_opts(s, 0, " -h -H -l -p -t -o -e -x -X -O -P -w -g "
		    "-f -u -R --hosts --host --user --par --timeout ", 0);
		if (i < s->argc)
			judge_joined(j, s, i, depth);
		return;
	}
	/* rimraf and del-cli are rm -rf: npx rimraf ~/projects/STAR. */
	if ((strcmp(n, "rimraf") == 0 || strcmp(n, "del-cli") == 0 ||
	    ((strcmp(n, "srm") == 0 || strcmp(n, "wipe") == 0) &&
	    has_flag_r(s))) && s->argc > 1) {
		struct buf	b = BUF_INIT;

		buf_adds(&b, "rm -rf");
		for (i = 1; i < s->argc; i++) {
			if (s->argv[i][0] == '-')
				continue;
			buf_addc(&b, ' ');
			buf_adds(&b, s->argv[i]);
		}
		judge_string(j, b.data, depth);
		buf_release(&b);
		return;
	}
	if (strcmp(n, "eval") == 0 || strcmp(n, "watch") == 0) {
		i = 0;
		if (strcmp(n, "watch") == 0)
			i = skip_opts(s, 0, " -n -d --interval "
			    "--differences ", 0);
		else
			i = 1;
		judge_joined(j, s, i, depth);
		return;
	}
	if (strcmp(n, "find") == 0) {
		/*
		 * find ROOT -delete with no test that narrows it deletes
		 * the whole tree: rm -rf ROOT (find ~/projects/app -delete).
		 */
		for (i = 1; i < s->argc; i++) {
			if (strcmp(s->argv[i], "-delete") == 0)
				break;
		}
		if (i < s->argc && !find_filtered(s, s->argc) && s->argc > 1 &&
		    s->argv[1][0] != '-' && !has_find_test(s)) {
			char	*cmd;

			xasprintf(&cmd, "rm -rf %s", strcmp(s->argv[1],
			    "$HOME") == 0 ? "~" : s->argv[1]);
			judge_string(j, cmd, depth);
			free(cmd);
		}
		for (i = 1; i < s->argc; i++) {
			if (strcmp(s->argv[i], "-exec") == 0 ||
			    strcmp(s->argv[i], "-execdir") == 0 ||
			    strcmp(s->argv[i], "-ok") == 0 ||
			    strcmp(s->argv[i], "-okdir") == 0) {
				struct buf	b = BUF_INIT;
				const char	*root = ".", *lit;
				char		*m = NULL;

				if (s->argc > 1 && s->argv[1][0] != '-')
					root = s->argv[1];
				/*
				 * {} is every file under the root (ROOT/ and a glob)
				 * unless a name filter narrows it (ROOT/MATCH);
				 * from / or the home directory, any file of
				 * the system or of the user.
				 */
				if (find_filtered(s, i) &&
				    strcmp(root, "/") != 0 &&
				    strcmp(root, "~") != 0 &&
				    strcmp(root, "~/") != 0 &&
				    strcmp(root, "$HOME") != 0)
					xasprintf(&m, "%s%s%s", root,
					    root[strlen(root) - 1] == '/' ?
					    "" : "/", (lit = find_literal_name(s,
					    i)) != NULL ? lit : "MATCH");
				else
					xasprintf(&m, "%s%s*", root,
					    root[strlen(root) - 1] == '/' ?
					    "" : "/");
				root = m;
				for (k = i + 1; k < s->argc; k++) {
					if (strcmp(s->argv[k], ";") == 0 ||
					    strcmp(s->argv[k], "+") == 0)
						break;
					if (b.len > 0)
						buf_addc(&b, ' ');
					if (strcmp(s->argv[k], "{}") == 0)
						buf_adds(&b, root);
					else
						buf_adds(&b, s->argv[k]);
					/* find walks the tree: rm -r, in effect. */
					if (k == i + 1 && strcmp(base_name(
					    s->argv[k]), "rm") == 0)
						buf_adds(&b, " -r");
				}
				if (b.len > 0)
					judge_string(j, b.data, depth);
				buf_release(&b);
				free(m);
				i = k;
			}
		}
		return;
	}
	if ((i = interp_code_opt(s, " -c -e -r -E --eval -pe -ne ")) != 0 &&
	    code_executes(s->argv[i + 1])) {
		tech_add(j, TECH_INLINE_SCRIPT);
		judge_literals(j, s->argv[i + 1], depth);
	}
}

/*
 * The bytes of base64 text, blanks and padding skipped; *ret_len is set
 * when not NULL.  At a character outside the alphabet it stops, or with
 * strict returns NULL.  The result is NUL-terminated (it may hold NULs).
 */
static char *
b64_bytes(const char *in, size_t *ret_len, int strict)
{
	static const char	 al[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	    "abcdefghijklmnopqrstuvwxyz0123456789+/";
	struct buf		 b = BUF_INIT;
	unsigned		 acc = 0;
	int			 bits = 0;
	const char		*p, *q;

	for (p = in; *p != '\0'; p++) {
		if (*p == '=' || isspace((unsigned char)*p))
			continue;
		if ((q = strchr(al, *p)) == NULL) {
			if (!strict)
				break;
			buf_release(&b);
			return NULL;
		}
		acc = (acc << 6) | (unsigned)(q - al);
		bits += 6;
		if (bits >= 8) {
			bits -= 8;
			buf_addc(&b, (char)((acc >> bits) & 0xff));
		}
	}
	if (b.data == NULL)
		buf_adds(&b, "");
	return buf_detach(&b, ret_len);
}

static char *
b64_decode(const char *in)
{
	return b64_bytes(in, NULL, 0);
}

/* ---- segments from the token list ---- */

static void
segment_release(struct segment *s)
{
	size_t	i;

	for (i = 0; i < s->nredirs; i++)
		free(s->redirs[i]);
	free(s->xbuf);
	for (i = 0; i < s->nxown; i++)
		free(s->xown[i]);
	free(s->argv);
	free(s->wflags);
	memset(s, 0, sizeof *s);
}

static int
is_out_redir(const struct shtok_token *t)
{
	return strchr(t->text, '>') != NULL && !(t->flags & SHR_DUP);
}

static int
token_in(const size_t *v, size_t n, size_t t)
{
	size_t	i;

	for (i = 0; i < n; i++) {
		if (v[i] == t)
			return 1;
	}
	return 0;
}

/* The here-document body belonging to redirection token t. */
static const char *
heredoc_body(const struct shtok_list *l, size_t t)
{
	size_t	i, nth = 0, k = 0;

	for (i = 0; i < t; i++) {
		if (l->v[i].kind == SHTOK_REDIR &&
		    strncmp(l->v[i].text, "<<", 2) == 0 &&
		    strcmp(l->v[i].text, "<<<") != 0)
			nth++;
	}
	for (i = 0; i < l->n; i++) {
		if (l->v[i].kind != SHTOK_HEREDOC)
			continue;
		if (k++ == nth)
			return l->v[i].text;
	}
	return NULL;
}

/* Data (heredoc, here-string) given to the command's stdin, if any. */
static const char *
stdin_data(const struct shtok_list *l, const struct shtok_cmd *cmd)
{
	size_t		 t;
	const char	*op;

	for (t = cmd->first; t < cmd->first + cmd->n && t < l->n; t++) {
		if (l->v[t].kind != SHTOK_REDIR)
			continue;
		op = l->v[t].text;
		if (strcmp(op, "<<<") == 0 && t + 1 < l->n &&
		    l->v[t + 1].kind == SHTOK_WORD)
			return l->v[t + 1].text;
		if (strncmp(op, "<<", 2) == 0)
			return heredoc_body(l, t);
	}
	return NULL;
}

/*
 * Judge what printf FORMAT ARGS... writes: %s and %b take the arguments
 * (%b with their escapes), and \n, \t, \xHH and \NNN are decoded, so
 * printf '\162\155 -rf /' | sh is seen as rm -rf /.
 */
static void
judge_printf(struct judge *j, struct segment *e, size_t k, int depth)
{
	struct buf	 t = BUF_INIT, b = BUF_INIT;
	const char	*p, *fmt = e->argv[k];
	size_t		 next = k + 1;
	int		 v, n, any = 0, hidden = 0;

	for (p = fmt; *p != '\0'; p++) {
		if (p[0] == '%' && (p[1] == 's' || p[1] == 'b') &&
		    next < e->argc) {
			buf_adds(&t, e->argv[next++]);
			p++;
			any = 1;
		} else
			buf_addc(&t, *p);
	}
	for (; next < e->argc; next++) {
		buf_addc(&t, ' ');
		buf_adds(&t, e->argv[next]);
	}
	if (t.data == NULL || (strchr(t.data, '\\') == NULL && !any)) {
		buf_release(&t);
		return;
	}
	for (p = t.data; *p != '\0'; p++) {
		if (p[0] != '\\' || p[1] == '\0') {
			buf_addc(&b, *p);
			continue;
		}
		p++;
		if (*p == 'n' || *p == 't') {
			buf_addc(&b, *p == 'n' ? '\n' : ' ');
		} else if (*p == 'x' && isxdigit((unsigned char)p[1])) {
			for (v = 0, n = 0; n < 2 && isxdigit((unsigned char)p[1]);
			    n++, p++)
				v = v * 16 + (isdigit((unsigned char)p[1]) ?
				    p[1] - '0' : tolower((unsigned char)p[1]) -
				    'a' + 10);
			buf_addc(&b, (char)v);
			hidden = 1;
		} else if (*p >= '0' && *p <= '7') {
			if (*p == '0' && p[1] >= '0' && p[1] <= '7')
				p++;
			for (v = 0, n = 0; n < 3 && *p >= '0' && *p <= '7';
			    n++, p++)
				v = v * 8 + (*p - '0');
			p--;
			buf_addc(&b, (char)v);
			hidden = 1;
		} else
			buf_addc(&b, *p);
	}
	if (b.len > 0) {
		if (hidden)
			tech_add(j, TECH_OBFUSCATION);
		judge_string(j, b.data, depth);
	}
	buf_release(&b);
	buf_release(&t);
}

/* Whether a shell or interpreter reads its program from stdin. */
static int
reads_program_from_stdin(struct segment *s)
{
	size_t	i;

	if (strcmp(s->name, "source") == 0 || strcmp(s->name, ".") == 0)
		return s->argc < 2 || strcmp(s->argv[1], "/dev/stdin") == 0 ||
		    strcmp(s->argv[1], "-") == 0;
	/* at and batch read the job's commands from stdin. */
	if (strcmp(s->name, "at") == 0 || strcmp(s->name, "batch") == 0) {
		for (i = 1; i < s->argc; i++) {
			if (strcmp(s->argv[i], "-f") == 0 ||
			    strcmp(s->argv[i], "-l") == 0 ||
			    strcmp(s->argv[i], "-r") == 0 ||
			    strcmp(s->argv[i], "-d") == 0 ||
			    strcmp(s->argv[i], "-c") == 0)
				return 0;
		}
		return 1;
	}
	/* A root shell with nothing to run reads its commands from stdin. */
	if (strcmp(s->name, "sudo") == 0 || strcmp(s->name, "doas") == 0 ||
	    strcmp(s->name, "run0") == 0) {
		for (i = 1; i < s->argc; i++) {
			if (strcmp(s->argv[i], "-s") == 0 ||
			    strcmp(s->argv[i], "-i") == 0 ||
			    strcmp(s->argv[i], "--shell") == 0 ||
			    strcmp(s->argv[i], "--login") == 0)
				return 1;
		}
		return 0;
	}
	if (strcmp(s->name, "su") == 0 || strcmp(s->name, "runuser") == 0) {
		for (i = 1; i < s->argc; i++) {
			if (strcmp(s->argv[i], "-c") == 0 ||
			    strcmp(s->argv[i], "--command") == 0)
				return 0;
		}
		return 1;
	}
	/*
	 * ssh with no remote command, or a shell as the remote command:
	 * echo "wp db reset --yes" | ssh host bash.
	 */
	if (strcmp(s->name, "ssh") == 0) {
		size_t	d, r;

		for (i = 1; i < s->argc && s->argv[i][0] == '-'; i++) {
			if (s->argv[i][1] != '-' && has_short_opt(s->argv[i],
			    'n'))
				return 0;
		}
		d = skip_opts(s, 0, ssh_valopts, 0);
		if (d >= s->argc)
			return 0;
		r = skip_opts(s, d, ssh_valopts, 0);
		if (r >= s->argc)
			return 1;
		if (!IN(base_name(s->argv[r]), shells))
			return 0;
		for (i = r + 1; i < s->argc; i++) {
			if (s->argv[i][0] != '-' || has_short_opt(s->argv[i],
			    'c'))
				return 0;
		}
		return 1;
	}
	if (!IN(s->name, shells) && !IN(s->name, interpreters) &&
	    strncmp(s->name, "python", 6) != 0)
		return 0;
	for (i = 1; i < s->argc; i++) {
		if (strcmp(s->argv[i], "-") == 0 ||
		    strcmp(s->argv[i], "/dev/stdin") == 0 ||
		    strcmp(s->argv[i], "-s") == 0)
			return 1;
		if (s->argv[i][0] != '-')
			return 0;
		if (has_short_opt(s->argv[i], 'c') ||
		    strcmp(s->argv[i], "-e") == 0 ||
		    strcmp(s->argv[i], "-m") == 0)
			return 0;
	}
	return 1;
}

static void
add_input(struct segment *s, const char *name)
{
	if (s->ninput < sizeof s->input / sizeof s->input[0])
		s->input[s->ninput++] = name;
}

/*
 * The program whose output a process or command substitution is:
 * bash <(curl ...), sh <<< "$(base64 -d ...)".  Only the names input_from
 * rules ask about are kept (the segment holds pointers, not copies).
 */
static const char *
add_body_input(struct segment *s, const char *body)
{
	static const char *const producers[] = { "curl", "wget", "fetch",
	    "aria2c", "http", "xh", "lwp-request", "GET", "base64", "base32",
	    "basenc", "xxd", "openssl", "uudecode", "gunzip", "gzip", "zcat",
	    "bzcat", "xzcat", "zstdcat", "rev", "gpg" };
	const char	*b = body;
	size_t		 i, n;

	/* The first word of the body. */
	while (*b != '\0' && (*b == '<' || *b == '$' || *b == '(' ||
	    *b == '`' || isspace((unsigned char)*b) || *b == '"'))
		b++;
	for (i = 0; i < sizeof producers / sizeof producers[0]; i++) {
		n = strlen(producers[i]);
		if (strncmp(b, producers[i], n) == 0 && (b[n] == '\0' ||
		    isspace((unsigned char)b[n]) || b[n] == ')' ||
		    b[n] == '|')) {
			add_input(s, producers[i]);
			return producers[i];
		}
	}
	return NULL;
}

/* Whether the command's here-string is a command substitution. */
static int
herestring_sub(const struct shtok_list *l, const struct shtok_cmd *cmd)
{
	size_t	t;

	for (t = cmd->first; t < cmd->first + cmd->n && t + 1 < l->n; t++) {
		if (l->v[t].kind == SHTOK_REDIR &&
		    strcmp(l->v[t].text, "<<<") == 0)
			return (l->v[t + 1].flags & SHW_CMDSUB) != 0;
	}
	return 0;
}

/* Bypass checks that look at one simple command. */
/*
 * alias rm='rm -i': the same command with only the options that make it
 * ask first or refuse more (-i, -I, --interactive, --preserve-root) hides
 * nothing from a guard.
 */
static int
alias_only_asks(const char *name, const char *value)
{
	static const char	*safer[] = { "-i", "-I", "--interactive",
	    "--interactive=always", "--interactive=once", "--preserve-root",
	    "--one-file-system", "-v", "--verbose" };
	char			*copy, *w, *save;
	int			 first = 1, ok = 1;

	copy = xstrdup(value);
	for (w = strtok_r(copy, " \t", &save); w != NULL;
	    w = strtok_r(NULL, " \t", &save)) {
		if (first) {
			ok = strcmp(w, name) == 0;
			first = 0;
		} else if (!IN(w, safer))
			ok = 0;
		if (!ok)
			break;
	}
	free(copy);
	return ok && !first;
}

/*
 * Whether alias name=value hides a guarded command: it names one (or
 * runs rm -...), unless it only adds options that ask first, or is a
 * short name the rules know for the one command it runs (alias
 * k=kubectl; not rm=shred, rm being guarded itself).
 */
static int
alias_shadows(const struct classifier *c, const char *name,
    const char *value)
{
	if (alias_only_asks(name, value))
		return 0;
	if (!IN(name, guarded) && has_rules(c, name) &&
	    strchr(value, ' ') == NULL && has_rules(c, value))
		return 0;
	return IN(name, guarded) || has_rules(c, name) ||
	    strstr(value, "rm -") != NULL;
}

static void
bypass_segment(struct judge *j, const struct shtok_list *l,
    const struct shtok_cmd *cmd, struct segment *s, unsigned w0flags,
    const char *w0)
{
	double	t0 = now_ms();
	size_t	i;

	if (w0flags & SHW_LEADBSLASH)
		tech_add(j, TECH_SHADOWING);
	if ((w0flags & (SHW_SQUOTE | SHW_DQUOTE | SHW_ANSIC | SHW_ESCAPE)) &&
	    !(w0flags & (SHW_VAR | SHW_CMDSUB | SHW_LEADBSLASH)) &&
	    (has_rules(j->c, s->name) || IN(s->name, guarded) ||
	    IN(s->name, shells)))
		tech_add(j, TECH_OBFUSCATION);
	/*
	 * By path, a guarded tool escapes PATH shims.  (Any command with
	 * rules run as ./NAME used to count too; it is judged by its rules
	 * like any other, and the hooks' trigger set names subcommands,
	 * not every command that has one.)
	 */
	if (strchr(w0, '/') != NULL && IN(s->name, guarded))
		tech_add(j, TECH_DIRECT_EXECUTION);
	if (strcmp(s->name, "unset") == 0 || strcmp(s->name, "export") == 0) {
		for (i = 1; i < s->argc; i++) {
			if (is_ld_var(s->argv[i]))
				tech_add(j, TECH_LD_PRELOAD);
		}
	}
	for (i = 0; i < cmd->nassign; i++) {
		if (is_ld_var(l->v[cmd->assign[i]].text))
			tech_add(j, TECH_LD_PRELOAD);
	}
	if (strcmp(s->name, "alias") == 0) {
		for (i = 1; i < s->argc; i++) {
			char *eq = strchr(s->argv[i], '=');
			char *nm;

			if (eq == NULL)
				continue;
			nm = xstrndup(s->argv[i], eq - s->argv[i]);
			if (alias_shadows(j->c, nm, eq + 1))
				tech_add(j, TECH_SHADOWING);
			free(nm);
		}
	}
	if (strcmp(s->name, "expect") == 0 || strcmp(s->name, "xdotool") == 0 ||
	    strcmp(s->name, "autoexpect") == 0 || strcmp(s->name, "ydotool") ==
	    0 || (strcmp(s->name, "yes") == 0 && strcmp(cmd->sep, "|") == 0))
		tech_add(j, TECH_AUTOMATION_TOOL);
	j->bypass_ms += now_ms() - t0;
}

/*
 * The text a command pipes into the next one when it is a here-document
 * fed to cat, or the arguments of echo or printf; *tofree gets any
 * allocation.
 */
static const char *
echoed_text(const struct shtok_list *l, const struct shtok_cmd *pc,
    char **tofree)
{
	const char	*pn = base_name(l->v[pc->argv[0]].text);
	struct buf	 b = BUF_INIT;
	size_t		 k;

	if (strcmp(pn, "cat") == 0)
		return stdin_data(l, pc);
	if (strcmp(pn, "echo") != 0 && strcmp(pn, "printf") != 0)
		return NULL;
	for (k = 1; k < pc->nargv; k++) {
		if (b.len > 0)
			buf_addc(&b, ' ');
		buf_adds(&b, l->v[pc->argv[k]].text);
	}
	if (b.data == NULL)
		buf_adds(&b, "");
	*tofree = buf_detach(&b, NULL);
	return *tofree;
}

/* Whether unwrapping went through wrapper name. */
static int
segment_via(const struct segment *s, const char *name)
{
	size_t	i;

	for (i = 0; i < s->nvia; i++) {
		if (strcmp(s->via[i], name) == 0)
			return 1;
	}
	return 0;
}

/* Append the words of text to the arguments, as xargs does. */
static void
xargs_append(struct segment *s, const char *text)
{
	char	*p, *w;
	size_t	 n = 0;

	if (s->xbuf != NULL)
		return;
	s->xbuf = xstrdup(text);
	if (s->xrepl != NULL) {
		/* -I STR: each input line replaces STR; judge the first. */
		size_t	 k, rl = strlen(s->xrepl);
		char	*line = s->xbuf, *at;
		struct buf b;

		line[strcspn(line, "\n")] = '\0';
		for (k = 1; k < s->argc && s->nxown < nitems(s->xown); k++) {
			if ((at = strstr(s->argv[k], s->xrepl)) == NULL)
				continue;
			buf_init(&b);
			buf_add(&b, s->argv[k], (size_t)(at - s->argv[k]));
			buf_adds(&b, line);
			buf_adds(&b, at + rl);
			s->argv[k] = s->xown[s->nxown++] = buf_detach(&b, NULL);
		}
		return;
	}
	for (p = s->xbuf; n < 64; ) {
		while (*p != '\0' && isspace((unsigned char)*p))
			p++;
		if (*p == '\0')
			break;
		w = p;
		while (*p != '\0' && !isspace((unsigned char)*p))
			p++;
		if (*p != '\0')
			*p++ = '\0';
		s->argv = xreallocarray(s->argv, s->argc + 1,
		    sizeof *s->argv);
		s->wflags = xreallocarray(s->wflags, s->argc + 1,
		    sizeof *s->wflags);
		s->argv[s->argc] = w;
		s->wflags[s->argc++] = 0;
		n++;
	}
}

/* Whether a command writes its output to a file (not /dev/null). */
static int
writes_file(const struct segment *s)
{
	size_t	i;

	for (i = 0; i < s->nredirs; i++) {
		if (strstr(s->redirs[i], "/dev/null") == NULL)
			return 1;
	}
	return 0;
}

/*
 * Judge text written to a file: a dangerous script staged for later
 * is moderate, never dangerous, since nothing runs it yet.
 */
static void
judge_staged(struct judge *j, const char *data, int depth)
{
	struct judge	sub = *j;

	sub.risk = RISK_SAFE;
	sub.confidence = 0;
	sub.rule = -1;
	sub.matched_any = 0;
	sub.tech = 0;
	judge_string(&sub, data, depth);
	j->budget = sub.budget;
	j->bypass_ms = sub.bypass_ms;
	if (sub.risk == RISK_DANGEROUS && sub.rule != -1)
		judge_offer(j, (size_t)sub.rule, RISK_MODERATE,
		    sub.confidence * 0.8);
}

/*
 * What a line assigns and stages, so that a later command can be seen
 * for what it runs: "a=rm; $a -rf /", "IFS=,; c=rm,-rf,/; $c",
 * "echo 'rm -rf ~' > x.sh && bash x.sh".
 */
struct linestate {
	const char	*var[32];	/* NAME=value texts */
	size_t		 nvar;
	int		 ifs;		/* a one-character IFS, or 0 */
	char		*file[8];	/* scripts written by echo/cat */
	char		*text[8];
	size_t		 nfile;
};

static void
linestate_release(struct linestate *ls)
{
	size_t	i;

	for (i = 0; i < ls->nfile; i++) {
		free(ls->file[i]);
		free(ls->text[i]);
	}
	memset(ls, 0, sizeof *ls);
}

/* The value assigned to the variable named by name[0..len), or NULL. */
static const char *
linestate_var(const struct linestate *ls, const char *name, size_t len)
{
	size_t	i;

	for (i = ls->nvar; i > 0; i--) {
		if (strncmp(ls->var[i - 1], name, len) == 0 &&
		    ls->var[i - 1][len] == '=')
			return ls->var[i - 1] + len + 1;
	}
	return NULL;
}

/*
 * Append word w to b with a variable assigned in this line, or the
 * output of $(echo ...), put in its place.  Returns 1 if it did.
 */
static int
expand_word(const struct linestate *ls, const char *w, struct buf *b)
{
	const char	*v, *p, *e = NULL, *q;
	size_t		 len = strlen(w), n;
	int		 did = 0;

	if (w[0] != '`' && (w[0] != '$' || w[1] != '(')) {
		/* $NAME and ${NAME}, also inside a word (of=$DEV). */
		for (p = w; *p != '\0'; p++) {
			if (*p != '$' || (q = p + 1 + (p[1] == '{'),
			    !isalpha((unsigned char)*q) && *q != '_')) {
				buf_addc(b, *p);
				continue;
			}
			for (n = 0; isalnum((unsigned char)q[n]) ||
			    q[n] == '_'; n++)
				;
			if (q != p + 1 && q[n] != '}') {
				buf_addc(b, *p);
				continue;
			}
			if ((v = linestate_var(ls, q, n)) == NULL) {
				buf_addc(b, *p);
				continue;
			}
			for (; *v != '\0'; v++)
				buf_addc(b, ls->ifs != 0 && *v == ls->ifs ?
				    ' ' : *v);
			p = q + n - (q == p + 1);
			did = 1;
		}
		return did;
	}
	if (strncmp(w, "$(", 2) == 0 && w[len - 1] == ')')
		p = w + 2, e = w + len - 1;
	else if (w[0] == '`' && len > 1 && w[len - 1] == '`')
		p = w + 1, e = w + len - 1;
	else
		return 0;
	while (p < e && *p == ' ')
		p++;
	if (strncmp(p, "echo ", 5) == 0)
		p += 5;
	else if (strncmp(p, "printf ", 7) == 0)
		p += 7;
	else
		return 0;
	/* $(echo QkFTRTY0 | base64 -d): the decoded text. */
	if ((q = strstr(p, "| base64")) != NULL && q < e &&
	    (strstr(q, " -d") != NULL || strstr(q, "--decode") != NULL ||
	    strstr(q, " -D") != NULL)) {
		char	*lit = xstrndup(p, (size_t)(q - p)), *dec;
		size_t	 k, m = 0;

		for (k = 0; lit[k] != '\0'; k++) {
			if (lit[k] != '\'' && lit[k] != '"' && lit[k] != ' ' &&
			    lit[k] != '-' && !(lit[k] == 'n' && k > 0 &&
			    lit[k - 1] == '-'))
				lit[m++] = lit[k];
		}
		lit[m] = '\0';
		dec = b64_decode(lit);
		for (k = 0; dec[k] != '\0'; k++) {
			if (!isprint((unsigned char)dec[k]))
				break;
		}
		if (dec[0] != '\0' && dec[k] == '\0') {
			buf_adds(b, dec);
			free(dec);
			free(lit);
			return 1;
		}
		free(dec);
		free(lit);
	}
	for (; p < e; p++) {
		if (*p != '\'' && *p != '"')
			buf_addc(b, *p);
	}
	return 1;
}

/*
 * Judge the command with one level of brace expansion done on its words:
 * /{home,etc} is /home /etc.  Ranges ({1..3}) and nested braces are left
 * as they are.
 */
static void
judge_braces(struct judge *j, const struct segment *s, int depth)
{
	struct buf	 b = BUF_INIT;
	const char	*w, *o, *c, *p, *q;
	size_t		 i;

	for (i = 0; i < s->argc; i++) {
		w = s->argv[i];
		if (i > 0)
			buf_addc(&b, ' ');
		if (!(s->wflags[i] & SHW_BRACE) ||
		    (o = strchr(w, '{')) == NULL ||
		    (c = strchr(o, '}')) == NULL || memchr(o, ',', c - o) ==
		    NULL || memchr(o + 1, '{', c - o - 1) != NULL) {
			buf_adds(&b, w);
			continue;
		}
		for (p = o + 1;; p = q + 1) {
			for (q = p; q < c && *q != ','; q++)
				;
			if (p > o + 1)
				buf_addc(&b, ' ');
			buf_add(&b, w, (size_t)(o - w));
			buf_add(&b, p, (size_t)(q - p));
			buf_adds(&b, c + 1);
			if (q >= c)
				break;
		}
	}
	if (b.len > 0)
		judge_string(j, b.data, depth);
	buf_release(&b);
}

/* $SHELL, ${SHELL}, $BASH: a shell whatever the environment says. */
static int
login_shell_var(const char *w)
{
	return strcmp(w, "$SHELL") == 0 || strcmp(w, "${SHELL}") == 0 ||
	    strcmp(w, "$BASH") == 0 || strcmp(w, "${BASH}") == 0;
}

/*
 * Judge a command whose name or arguments are variables assigned earlier
 * on the line ("DEV=/dev/sdb; dd if=x of=$DEV"), or $(echo ...),
 * expanded.  A name hidden that way is obfuscation.
 */
static void
judge_expanded(struct judge *j, const struct linestate *ls,
    struct segment *s, int depth)
{
	struct buf	b = BUF_INIT;
	size_t		i;
	int		n = 0, named = 0;

	for (i = 0; i < s->argc && !(s->wflags[i] & SHW_CMDSUB); i++)
		;
	if (ls->nvar == 0 && i == s->argc && !login_shell_var(s->argv[0]))
		return;
	for (i = 0; i < s->argc; i++) {
		if (i > 0)
			buf_addc(&b, ' ');
		if (i == 0 && login_shell_var(s->argv[0])) {
			/* "${SHELL}" <(curl ...): the user's shell. */
			buf_adds(&b, "sh");
			n++;
		} else if (s->wflags[i] & (SHW_VAR | SHW_CMDSUB)) {
			if (expand_word(ls, s->argv[i], &b)) {
				n++;
				named |= i == 0;
			}
		} else if (strpbrk(s->argv[i], " \t\n") != NULL &&
		    strchr(s->argv[i], '\'') == NULL &&
		    strncmp(s->argv[i], "<(", 2) != 0 &&
		    strncmp(s->argv[i], ">(", 2) != 0) {
			/* A quoted argument stays one word: -c "rm -rf /". */
			buf_addc(&b, '\'');
			buf_adds(&b, s->argv[i]);
			buf_addc(&b, '\'');
		} else
			buf_adds(&b, s->argv[i]);
	}
	if (n > 0 && b.len > 0) {
		const char *w = b.data;
		char *name;

		while (*w == ' ')
			w++;
		name = xstrndup(w, strcspn(w, " "));
		if (named && (has_rules(j->c, base_name(name)) ||
		    IN(base_name(name), guarded) ||
		    IN(base_name(name), shells)))
			tech_add(j, TECH_OBFUSCATION);
		free(name);
		judge_string(j, b.data, depth);
	}
	buf_release(&b);
}

/* Remember a script that echo, printf or cat <<EOF writes to a file. */
static void
stage_script(struct linestate *ls, const struct segment *s,
    const char *heredoc)
{
	struct buf	b = BUF_INIT;
	size_t		i, k;

	if (s->nredirs == 0 || ls->nfile >= sizeof ls->file /
	    sizeof ls->file[0])
		return;
	if (strcmp(s->name, "cat") == 0 && heredoc != NULL)
		buf_adds(&b, heredoc);
	else if (strcmp(s->name, "echo") == 0 ||
	    strcmp(s->name, "printf") == 0) {
		for (k = 1; k < s->argc && s->argv[k][0] == '-'; k++)
			;
		for (i = k; i < s->argc; i++) {
			if (i > k)
				buf_addc(&b, ' ');
			buf_adds(&b, s->argv[i]);
		}
	}
	if (b.len == 0) {
		buf_release(&b);
		return;
	}
	for (i = 0; i < s->nredirs; i++) {
		const char *t = strchr(s->redirs[i], ' ');

		if (t == NULL || ls->nfile >= sizeof ls->file /
		    sizeof ls->file[0])
			continue;
		ls->file[ls->nfile] = xstrdup(t + 1);
		ls->text[ls->nfile++] = xstrdup(b.data);
	}
	buf_release(&b);
}

/* Judge a staged script when this command runs it. */
static void
judge_staged_run(struct judge *j, const struct linestate *ls,
    const struct segment *s, int depth)
{
	const char	*f = NULL;
	size_t		 i;

	if (ls->nfile == 0)
		return;
	if (IN(s->name, shells) || strcmp(s->name, "source") == 0 ||
	    strcmp(s->name, ".") == 0) {
		for (i = 1; i < s->argc && s->argv[i][0] == '-'; i++)
			;
		if (i < s->argc)
			f = s->argv[i];
	} else
		f = s->argv[0];
	for (i = 0; f != NULL && i < ls->nfile; i++) {
		if (strcmp(ls->file[i], f) == 0 || (strncmp(f, "./", 2) == 0
		    && strcmp(ls->file[i], f + 2) == 0))
			judge_string(j, ls->text[i], depth);
	}
}

/* Judge every simple command of a tokenized line. */
static void
judge_list(struct judge *j, const struct shtok_list *l, int depth)
{
	struct shtok_cmds	 cmds = SHTOK_CMDS_INIT;
	struct shtok_cmd	*cmd;
	struct segment		 s;
	size_t			 ci, k, t, pstart = 0, p;
	char			**subs;
	size_t			 nsubs;
	const char		*data, *w0;
	unsigned		 w0flags;
	static char		 empty[1];
	static char		 exportw[] = "export";
	char			*echoed = NULL;
	struct linestate	 ls;

	shtok_commands(l, &cmds);
	memset(&ls, 0, sizeof ls);
	for (ci = 0; ci < cmds.n; ci++) {
		for (k = 0; k < cmds.v[ci].nassign &&
		    ls.nvar < sizeof ls.var / sizeof ls.var[0]; k++) {
			const char *a = l->v[cmds.v[ci].assign[k]].text;

			ls.var[ls.nvar++] = a;
			if (strncmp(a, "IFS=", 4) == 0 && a[4] != '\0' &&
			    a[5] == '\0')
				ls.ifs = (unsigned char)a[4];
		}
	}

	/* Function definitions named like a guarded command shadow it. */
	for (k = 0; k < cmds.nfuncs; k++) {
		const char *fn;

		if (cmds.funcs[k] >= l->n)
			continue;
		fn = base_name(l->v[cmds.funcs[k]].text);
		if (IN(fn, guarded) || has_rules(j->c, fn))
			tech_add(j, TECH_SHADOWING);
	}
	for (ci = 0; ci < cmds.n && j->budget > 0; ci++) {
		cmd = &cmds.v[ci];
		j->budget--;
		if (!cmd->piped_in)
			pstart = ci;

		/* Substitutions anywhere in the command are executed. */
		for (t = cmd->first; t < cmd->first + cmd->n && t < l->n;
		    t++) {
			if (l->v[t].kind != SHTOK_WORD || !(l->v[t].flags &
			    (SHW_CMDSUB | SHW_PROCSUB)))
				continue;
			subs = NULL;
			nsubs = 0;
			shtok_substitutions(&l->v[t], &subs, &nsubs);
			for (k = 0; k < nsubs; k++) {
				judge_string(j, subs[k], depth);
				free(subs[k]);
			}
			free(subs);
		}
		if (cmd->nargv == 0) {
			/*
			 * Redirections only: "> /etc/passwd".  Assignments
			 * only ("HISTFILE=/dev/null") are judged as export.
			 */
			memset(&s, 0, sizeof s);
			s.name = "";
			s.argv = xcalloc(cmd->nassign + 1, sizeof *s.argv);
			s.wflags = xcalloc(cmd->nassign + 1,
			    sizeof *s.wflags);
			s.argv[0] = cmd->nassign > 0 ? exportw : empty;
			for (k = 0; k < cmd->nassign; k++)
				s.argv[k + 1] = l->v[cmd->assign[k]].text;
			s.argc = cmd->nassign + 1;
		} else {
			memset(&s, 0, sizeof s);
			s.argv = xcalloc(cmd->nargv, sizeof *s.argv);
			s.wflags = xcalloc(cmd->nargv, sizeof *s.wflags);
			for (k = 0; k < cmd->nargv; k++) {
				s.argv[k] = l->v[cmd->argv[k]].text;
				s.wflags[k] = l->v[cmd->argv[k]].flags;
			}
			s.argc = cmd->nargv;
			if (!unwrap(j, &s, depth)) {
				for (k = 0; k < cmd->nassign; k++) {
					if (is_ld_var(
					    l->v[cmd->assign[k]].text))
						tech_add(j, TECH_LD_PRELOAD);
				}
				segment_release(&s);
				continue;
			}
		}
		w0 = s.argv[0];
		w0flags = s.wflags[0];
		s.name = base_name(w0);
		/* Output redirection targets. */
		for (t = cmd->first; t < cmd->first + cmd->n && t + 1 < l->n;
		    t++) {
			if (l->v[t].kind != SHTOK_REDIR ||
			    !is_out_redir(&l->v[t]) ||
			    l->v[t + 1].kind != SHTOK_WORD ||
			    token_in(cmd->argv, cmd->nargv, t + 1) ||
			    s.nredirs >= sizeof s.redirs / sizeof s.redirs[0])
				continue;
			xasprintf(&s.redirs[s.nredirs++], "%s %s",
			    strstr(l->v[t].text, ">>") != NULL ? ">>" : ">",
			    l->v[t + 1].text);
		}
		/* What feeds this command's stdin. */
		if (cmd->piped_in) {
			for (p = pstart; p < ci; p++) {
				if (cmds.v[p].nargv > 0)
					add_input(&s, base_name(
					    l->v[cmds.v[p].argv[0]].text));
			}
		}
		/* Text given on stdin, for rules about client programs. */
		s.stdin_text = stdin_data(l, cmd);
		for (k = 0; k <= s.argc; k++) {
			const char *src = NULL;

			if (k < s.argc && (s.wflags[k] & (SHW_PROCSUB |
			    SHW_CMDSUB)) && k > 0)
				src = add_body_input(&s, s.argv[k]);
			/* sh <<< "$(curl ...)": the here-string is curl's
			 * output. */
			else if (k == s.argc && s.stdin_text != NULL &&
			    herestring_sub(l, cmd))
				src = add_body_input(&s, s.stdin_text);
			/* bash <(base64 -d <<< ...): a hidden program. */
			if (src != NULL && IN(s.name, shells) &&
			    (strncmp(src, "base", 4) == 0 ||
			    strcmp(src, "xxd") == 0 || strcmp(src, "rev") == 0 ||
			    strcmp(src, "uudecode") == 0 ||
			    strcmp(src, "openssl") == 0))
				tech_add(j, TECH_OBFUSCATION);
		}
		bypass_segment(j, l, cmd, &s, w0flags, w0);
		if (s.stdin_text == NULL && cmd->piped_in && ci > 0 &&
		    cmds.v[ci - 1].nargv > 0)
			s.stdin_text = echoed_text(l, &cmds.v[ci - 1], &echoed);
		/* xargs appends the words it reads to the command. */
		if (s.stdin_text != NULL && segment_via(&s, "xargs"))
			xargs_append(&s, s.stdin_text);
		else if (segment_via(&s, "xargs") && cmd->piped_in && ci > 0 &&
		    cmds.v[ci - 1].nargv > 0 && strcmp(base_name(l->v[
		    cmds.v[ci - 1].argv[0]].text), "ls") == 0) {
			/* ls lists the entries of its directories. */
			struct shtok_cmd	*pc = &cmds.v[ci - 1];
			struct buf		 lb = BUF_INIT;
			const char		*a;

			for (k = 1; k < pc->nargv; k++) {
				a = l->v[pc->argv[k]].text;
				if (a[0] == '-')
					continue;
				/*
				 * With -I each listed name is the one word:
				 * a directory's entries (DIR/) are bare
				 * names, a file argument (/dev/sd[bc]) is
				 * listed as given.
				 */
				if (s.xrepl != NULL) {
					buf_adds(&lb, a[strlen(a) - 1] == '/' ?
					    "*" : a);
					break;
				}
				buf_addf(&lb, "%s%s%s ", a,
				    a[strlen(a) - 1] == '/' ? "" : "/", "*");
			}
			if (lb.len == 0)
				buf_adds(&lb, "*");
			xargs_append(&s, lb.data);
			buf_release(&lb);
		} else if (segment_via(&s, "xargs") && cmd->piped_in &&
		    ci > 0 && cmds.v[ci - 1].nargv > 1 && strcmp(base_name(
		    l->v[cmds.v[ci - 1].argv[0]].text), "find") == 0) {
			/*
			 * find ROOT ... -print0 | xargs -0 rm: every file
			 * under ROOT (ROOT/MATCH when a test narrows it).
			 */
			struct shtok_cmd	*pc = &cmds.v[ci - 1];
			const char		*root = l->v[pc->argv[1]].text;
			char			*w;
			int			 narrowed = 0;

			for (k = 2; k < pc->nargv; k++) {
				if (find_narrows(l->v[pc->argv[k]].text))
					narrowed = 1;
			}
			if (root[0] != '-') {
				if (strcmp(root, "$HOME") == 0)
					root = "~";
				xasprintf(&w, "%s%s%s", root,
				    root[strlen(root) - 1] == '/' ? "" : "/",
				    narrowed ? "MATCH" : "*");
				xargs_append(&s, w);
				free(w);
			}
		}
		/* A command named by a variable or $(echo ...), or given
		 * one as an argument. */
		for (k = 0; k < s.argc && !(s.wflags[k] &
		    (SHW_VAR | SHW_CMDSUB)); k++)
			;
		if (k < s.argc)
			judge_expanded(j, &ls, &s, depth);
		/* rm -rf /{home,etc,var}: the words the braces make. */
		for (k = 1; k < s.argc && !(s.wflags[k] & SHW_BRACE); k++)
			;
		if (k < s.argc)
			judge_braces(j, &s, depth);
		judge_staged_run(j, &ls, &s, depth);
		stage_script(&ls, &s, stdin_data(l, cmd));
		/* Dangerous text staged into a file by a here-document. */
		if (!reads_program_from_stdin(&s) &&
		    (data = stdin_data(l, cmd)) != NULL &&
		    writes_file(&s))
			judge_staged(j, data, depth);

		/* An interpreter's program on stdin: its deletion calls. */
		if ((strncmp(s.name, "python", 6) == 0 ||
		    strcmp(s.name, "perl") == 0 || strcmp(s.name, "ruby") == 0 ||
		    strcmp(s.name, "node") == 0) && (s.argc == 1 ||
		    strcmp(s.argv[s.argc - 1], "-") == 0) &&
		    (data = stdin_data(l, cmd)) != NULL)
			judge_deletes(j, data, depth);
		/* Programs given to a shell on stdin. */
		if (reads_program_from_stdin(&s)) {
			if ((data = stdin_data(l, cmd)) != NULL)
				judge_string(j, data, depth);
			if (cmd->piped_in && ci > 0) {
				struct shtok_cmd *pc = &cmds.v[ci - 1];
				const char *pn = "";

				if (pc->nargv > 0)
					pn = base_name(
					    l->v[pc->argv[0]].text);
				if ((data = stdin_data(l, pc)) != NULL &&
				    strcmp(pn, "cat") == 0)
					judge_string(j, data, depth);
				if (strcmp(pn, "echo") == 0 ||
				    strcmp(pn, "printf") == 0) {
					struct segment e;

					memset(&e, 0, sizeof e);
					e.argc = pc->nargv;
					e.argv = xcalloc(e.argc,
					    sizeof *e.argv);
					e.wflags = xcalloc(e.argc,
					    sizeof *e.wflags);
					for (k = 0; k < e.argc; k++)
						e.argv[k] = l->v[
						    pc->argv[k]].text;
					for (k = 1; k < e.argc &&
					    e.argv[k][0] == '-'; k++)
						;
					judge_joined(j, &e, k, depth);
					if (strcmp(pn, "printf") == 0 &&
					    k < e.argc)
						judge_printf(j, &e, k, depth);
					segment_release(&e);
				}
				for (p = pstart; p < ci; p++) {
					const char *dn;
					struct shtok_cmd *dc = &cmds.v[p];

					if (dc->nargv == 0)
						continue;
					dn = base_name(
					    l->v[dc->argv[0]].text);
					if (strcmp(dn, "base64") == 0 ||
					    strcmp(dn, "xxd") == 0 ||
					    strcmp(dn, "rev") == 0 ||
					    strcmp(dn, "openssl") == 0 ||
					    strcmp(dn, "uudecode") == 0 ||
					    strcmp(dn, "gunzip") == 0 ||
					    strcmp(dn, "zcat") == 0 ||
					    strcmp(dn, "tr") == 0)
						tech_add(j,
						    TECH_OBFUSCATION);
					if (strcmp(dn, "printf") == 0 &&
					    dc->nargv > 1 && strstr(l->v[
					    dc->argv[1]].raw, "\\x") != NULL)
						tech_add(j,
						    TECH_OBFUSCATION);
					if (strcmp(dn, "base64") == 0 &&
					    p > pstart &&
					    cmds.v[p - 1].nargv > 1) {
						struct shtok_cmd *ec =
						    &cmds.v[p - 1];
						char *dec = b64_decode(
						    l->v[ec->argv[
						    ec->nargv - 1]].text);

						judge_string(j, dec, depth);
						free(dec);
					}
				}
			}
		}
		judge_payloads(j, &s, depth);
		judge_segment(j, &s, depth);
		segment_release(&s);
		free(echoed);
		echoed = NULL;
	}
	linestate_release(&ls);
	shtok_cmds_release(&cmds);
}

/* Judge a line again with $IFS and ${IFS} (and ${IFS%??}) as spaces. */
static void
judge_ifs(struct judge *j, const char *line, size_t len, int depth)
{
	struct buf	 b = BUF_INIT;
	size_t		 i = 0;
	const char	*e;

	while (i < len) {
		if (line[i] == '$' && i + 4 <= len &&
		    strncmp(line + i, "$IFS", 4) == 0) {
			buf_addc(&b, ' ');
			i += 4;
		} else if (line[i] == '$' && i + 5 <= len &&
		    strncmp(line + i, "${IFS", 5) == 0 &&
		    (e = memchr(line + i, '}', len - i)) != NULL) {
			buf_addc(&b, ' ');
			i = e - line + 1;
		} else
			buf_addc(&b, line[i++]);
	}
	if (b.len > 0)
		judge_string(j, b.data, depth);
	buf_release(&b);
}

/* Blank word t in *m, a copy of line made on first use. */
static void
inert_blank(char **m, const char *line, size_t len,
    const struct shtok_token *t)
{
	if (t->end > len || t->start >= t->end)
		return;
	if (*m == NULL) {
		*m = xmalloc(len + 1);
		memcpy(*m, line, len);
		(*m)[len] = '\0';
	}
	memset(*m + t->start, ' ', t->end - t->start);
}

/*
 * Is c a tee (without other commands after it) whose every file is a
 * document, or a .txt it appends to: echo 'note' | tee -a runbook.md?
 */
static int
tee_to_docs(const struct shtok_list *l, const struct shtok_cmd *c,
    const char **docs, size_t ndocs)
{
	const char	*w;
	size_t		 k, d, n, dl, files = 0;
	int		 append = 0, ok;

	if (c->nargv < 2 || strcmp(base_name(l->v[c->argv[0]].text),
	    "tee") != 0 || (c->sep != NULL && strcmp(c->sep, "|") == 0) ||
	    c->nredir > 0)
		return 0;
	for (k = 1; k < c->nargv; k++) {
		w = l->v[c->argv[k]].text;
		if (strcmp(w, "-a") == 0 || strcmp(w, "--append") == 0)
			append = 1;
	}
	for (k = 1; k < c->nargv; k++) {
		w = l->v[c->argv[k]].text;
		if (w[0] == '-')
			continue;
		n = strlen(w);
		ok = append && n > 4 && strcmp(w + n - 4, ".txt") == 0;
		for (d = 0; !ok && d < ndocs; d++) {
			dl = strlen(docs[d]);
			ok = n > dl && strcmp(w + n - dl, docs[d]) == 0;
		}
		if (!ok)
			return 0;
		files++;
	}
	return files > 0;
}

/*
 * Is c a clipboard command at the end of a pipe: echo 'cmd' | pbcopy?
 */
static int
to_clipboard(const struct shtok_list *l, const struct shtok_cmd *c)
{
	static const char	*clips[] = { "pbcopy", "xclip", "xsel",
	    "wl-copy", "clip.exe", "clip" };

	return c->nargv >= 1 && IN(base_name(l->v[c->argv[0]].text), clips) &&
	    (c->sep == NULL || strcmp(c->sep, "|") != 0) && c->nredir == 0;
}

/*
 * Short options combined and ending in m (git commit -am MSG, -qm, -sm):
 * the next word is the message (session 16, heldout108).
 */
static int
short_opts_end_m(const char *w)
{
	size_t	n = strlen(w), i;

	if (n < 3 || w[0] != '-' || w[1] == '-' || w[n - 1] != 'm')
		return 0;
	for (i = 1; i < n; i++) {
		if (!isalpha((unsigned char)w[i]))
			return 0;
	}
	return 1;
}

/*
 * Does echo's word t put a secret's value in the text: "$NPM_TOKEN",
 * "$(cat config/master.key)"?  Such a note in a document is the secret
 * itself, so it is not blanked (session 18).
 */
static int
expands_secret(const struct shtok_token *t)
{
	static const char	*names[] = { "TOKEN", "SECRET", "PASS", "_KEY",
	    "APIKEY", "CREDENTIAL" };
	const char		*p;
	size_t			 i, n;

	if (t->flags & SHW_CMDSUB)
		return 1;
	if (!(t->flags & SHW_VAR))
		return 0;
	for (p = strchr(t->raw, '$'); p != NULL; p = strchr(p + 1, '$')) {
		const char *v = p + 1 + (p[1] == '{');

		for (n = 0; isalnum((unsigned char)v[n]) || v[n] == '_'; n++)
			;
		for (i = 0; i < nitems(names); i++) {
			if (memmem(v, n, names[i], strlen(names[i])) != NULL)
				return 1;
		}
	}
	return 0;
}

/*
 * The line as the line rules see it: the words that are only text to
 * the command that gets them blanked out, so that a rule written for a
 * whole line does not fire on a commit message (git commit -m "remove
 * the diskpart clean step"), a grep pattern, or an echo to the terminal
 * or into a document (echo 'Stop-Computer is blocked' >> runbook.md).
 * cmds is l's command list when the caller has it, or NULL.  Returns NULL
 * when nothing is blanked.
 */
static char *
inert_text(const struct shtok_list *l, const struct shtok_cmds *cmds,
    const char *line, size_t len)
{
	static const char	*greps[] = { "grep", "egrep", "fgrep", "zgrep",
	    "rg", "ag", "ack", "git-grep" };
	static const char	*docs[] = { ".md", ".rst", ".adoc", ".org",
	    ".log", ".html" };
	struct shtok_cmds	 own = SHTOK_CMDS_INIT;
	const struct shtok_cmd	*c;
	const struct shtok_token *t;
	const char		*name, *w;
	char			*m = NULL;
	size_t			 i, k, from, n, pat0;
	int			 text, git;

	if (cmds == NULL) {
		shtok_commands(l, &own);
		cmds = &own;
	}
	for (i = 0; i < cmds->n; i++) {
		c = &cmds->v[i];
		if (c->nargv < 2)
			continue;
		name = base_name(l->v[c->argv[0]].text);
		git = strcmp(name, "git") == 0;
		text = 0;
		if (strcmp(name, "echo") == 0 || strcmp(name, "printf") == 0) {
			/* Text for the terminal, a document or the clipboard. */
			text = c->sep == NULL || strcmp(c->sep, "|") != 0 ||
			    (i + 1 < cmds->n && (tee_to_docs(l, &cmds->v[i + 1],
			    docs, nitems(docs)) || to_clipboard(l,
			    &cmds->v[i + 1])));
			for (k = c->first; text && k < c->first + c->n; k++) {
				t = &l->v[k];
				if (t->kind != SHTOK_REDIR || !is_out_redir(t) ||
				    k + 1 >= c->first + c->n)
					continue;
				w = l->v[k + 1].text;
				n = strlen(w);
				/* Notes appended to a text file: >> todo.txt */
				if (strcmp(t->text, ">>") == 0 && n > 4 &&
				    strcmp(w + n - 4, ".txt") == 0)
					continue;
				for (text = 0, from = 0; from < nitems(docs);
				    from++) {
					size_t dl = strlen(docs[from]);

					if (n > dl && strcmp(w + n - dl,
					    docs[from]) == 0)
						text = 1;
				}
			}
			for (k = 1; text && k < c->nargv; k++) {
				if (expands_secret(&l->v[c->argv[k]]))
					text = 0;
			}
		}
		/* git grep PATTERN: a grep too. */
		pat0 = git && c->nargv > 2 && strcmp(l->v[c->argv[1]].text,
		    "grep") == 0 ? 2 : 1;
		if (IN(name, greps) || pat0 == 2) {
			/* The pattern only: the files still count. */
			for (k = pat0; k < c->nargv; k++) {
				w = l->v[c->argv[k]].text;
				if ((strcmp(w, "-e") == 0 ||
				    strcmp(w, "--regexp") == 0) &&
				    k + 1 < c->nargv)
					break;
				if (w[0] != '-')
					break;
			}
			if (k < c->nargv && w[0] == '-')
				k++;
			if (k < c->nargv)
				inert_blank(&m, line, len, &l->v[c->argv[k]]);
			continue;
		}
		for (k = 1; k < c->nargv; k++) {
			t = &l->v[c->argv[k]];
			w = t->text;
			if (git && k + 1 < c->nargv && (strcmp(w, "-m") == 0 ||
			    strcmp(w, "--message") == 0 || short_opts_end_m(w))) {
				t = &l->v[c->argv[++k]];
			} else if (git && !(strncmp(w, "--message=", 10) == 0 ||
			    (w[0] == '-' && w[1] == 'm' && w[2] != '\0')))
				continue;
			else if (!git && !text)
				break;
			inert_blank(&m, line, len, t);
		}
	}
	shtok_cmds_release(&own);
	return m;
}

/*
 * The line with each \n escape (printf 'a\nb', echo -e) turned into two
 * blanks, or NULL when it has none: a line rule is tried on both, so a
 * setting that starts a printed line (printf 'x\nallow_anonymous true')
 * starts a word, and offsets stay the same.  Lines over 4 KiB are left
 * as they are (the second try costs a pass of every line rule).
 */
static char *
newlines_as_blanks(const char *text, size_t len)
{
	char	*u, *p;

	/* Typed lines, not a hostile 64 KiB one: each try costs a pass. */
	if (len > 4096 || memmem(text, len, "\\n", 2) == NULL)
		return NULL;
	u = xmalloc(len + 1);
	memcpy(u, text, len);
	u[len] = '\0';
	for (p = u; (p = memmem(p, len - (size_t)(p - u), "\\n", 2)) !=
	    NULL; p += 2)
		p[0] = p[1] = ' ';
	return u;
}

static void
judge_line(struct judge *j, const char *line, size_t len, int depth)
{
	struct shtok_list	 l = SHTOK_LIST_INIT;
	struct classifier	*c = j->c;
	size_t			 i, segs, noop;
	double			 t0;
	int			 allnoop, masked = 0;
	char			*inert = NULL, *unescaped = NULL;

	if (depth > CLASSIFY_MAX_DEPTH || j->budget <= 0)
		return;
	shtok_split(line, len, &l);
	t0 = now_ms();
	if (memmem(line, len, "${IFS", 5) != NULL ||
	    memmem(line, len, "$IFS", 4) != NULL) {
		tech_add(j, TECH_OBFUSCATION);
		judge_ifs(j, line, len, depth);
	}
	j->bypass_ms += now_ms() - t0;
	segs = j->segs;
	noop = j->noop_segs;
	j->segs = j->noop_segs = 0;
	judge_list(j, &l, depth);
	/*
	 * Line rules see the raw line; when every command of it is a help
	 * or dry-run form (terraform destroy --help), the risky ones do not
	 * apply.
	 */
	allnoop = j->segs > 0 && j->segs == j->noop_segs;
	j->segs = segs;
	j->noop_segs = noop;
	for (i = 0; i < c->nlinerules; i++) {
		struct risk_rule *r = &c->rules[c->linerules[i]];
		const char	 *text;

		if (c->only != -1 && (size_t)c->only != c->linerules[i])
			continue;
		if (allnoop && r->info.risk != RISK_SAFE)
			continue;
		if (!masked) {
			inert = inert_text(&l, NULL, line, len);
			unescaped = newlines_as_blanks(inert != NULL ? inert :
			    line, len);
			masked = 1;
		}
		text = inert != NULL ? inert : line;
		if ((regex_match(c, r->pattern, text, len) ||
		    (unescaped != NULL && regex_match(c, r->pattern,
		    unescaped, len))) && (r->unless == NULL ||
		    !regex_match(c, r->unless, line, len))) {
			c->state[c->linerules[i]] = 2;
			if (c->only != -1)
				c->only_hit = 1;
			judge_offer(j, c->linerules[i], r->info.risk,
			    r->info.confidence);
		}
	}
	free(inert);
	free(unescaped);
	shtok_list_release(&l);
}

/* ---- fast path ---- */

static int
fast_path(struct classifier *c, const char *line, size_t len, char *name,
    size_t namesize)
{
	struct shtok_list	 l = SHTOK_LIST_INIT;
	struct shtok_cmds	 cmds = SHTOK_CMDS_INIT;
	size_t			 i, k;
	const char		*n, *w;
	int			 ok = 1;

	shtok_split(line, len, &l);
	if (l.flags & (SHL_CMDSUB | SHL_UNTERMINATED | SHL_TRUNCATED |
	    SHL_HEREDOC | SHL_VAR))
		ok = 0;
	for (i = 0; ok && i < l.n; i++) {
		if (l.v[i].kind == SHTOK_REDIR && (is_out_redir(&l.v[i]) ||
		    strncmp(l.v[i].text, "<<", 2) == 0)) {
			/* Only "> /dev/null" is harmless. */
			if (i + 1 < l.n && l.v[i + 1].kind == SHTOK_WORD &&
			    strcmp(l.v[i + 1].text, "/dev/null") == 0)
				continue;
			ok = 0;
		}
		if (l.v[i].kind == SHTOK_WORD && (l.v[i].flags &
		    (SHW_ANSIC | SHW_LEADBSLASH | SHW_ASSIGN | SHW_PROCSUB)))
			ok = 0;
	}
	if (ok) {
		shtok_commands(&l, &cmds);
		if (cmds.n == 0 || cmds.nfuncs > 0)
			ok = 0;
	}
	for (i = 0; ok && i < cmds.n; i++) {
		if (cmds.v[i].nargv == 0 || cmds.v[i].nassign > 0) {
			ok = 0;
			break;
		}
		n = l.v[cmds.v[i].argv[0]].text;
		if (l.v[cmds.v[i].argv[0]].flags != 0 || strchr(n, '/'))
			ok = 0;
		else if (strcmp(n, "git") == 0) {
			if (cmds.v[i].nargv < 2 || !IN(l.v[cmds.v[i].argv[1]].text,
			    fast_git))
				ok = 0;
			for (k = 1; ok && k < cmds.v[i].nargv; k++) {
				w = l.v[cmds.v[i].argv[k]].text;
				if (strcmp(w, "-D") == 0 || strcmp(w, "-d") == 0 ||
				    strcmp(w, "--delete") == 0 ||
				    strcmp(w, "-f") == 0 || strcmp(w, "-m") == 0
				    || strcmp(w, "-M") == 0 ||
				    strcmp(w, "--force") == 0 ||
				    strcmp(w, "expire") == 0 ||
				    strcmp(w, "drop") == 0 ||
				    strcmp(w, "clear") == 0 ||
				    strcmp(w, "rm") == 0 ||
				    strcmp(w, "remove") == 0 ||
				    strcmp(w, "set-url") == 0 ||
				    strcmp(w, "--unset") == 0 ||
				    strcmp(w, "--unset-all") == 0 ||
				    strcmp(w, "pop") == 0 ||
				    strcmp(w, "--prune") == 0 ||
				    strcmp(w, "--output") == 0 ||
				    strcmp(w, "--ext-diff") == 0)
					ok = 0;
				/* A cluster such as -df or -fD. */
				if (w[0] == '-' && w[1] != '-' &&
				    strpbrk(w + 1, "dDfmM") != NULL)
					ok = 0;
			}
			if (ok && cmds.v[i].nargv > 2 && (strcmp(l.v[
			    cmds.v[i].argv[1]].text, "stash") == 0 ||
			    strcmp(l.v[cmds.v[i].argv[1]].text, "config")
			    == 0 || strcmp(l.v[cmds.v[i].argv[1]].text,
			    "tag") == 0))
				ok = 0;
		} else if (!IN(n, fast_safe) || has_rules(c, n))
			ok = 0;
		else if ((strcmp(n, "history") == 0 ||
		    strcmp(n, "env") == 0 || strcmp(n, "alias") == 0 ||
		    strcmp(n, "xxd") == 0 || strcmp(n, "make") == 0) &&
		    cmds.v[i].nargv > 1)
			ok = 0;
		if (ok && cmds.v[i].piped_in && (strcmp(n, "awk") == 0))
			ok = 0;
		/* yq -i edits the file in place, as sed -i does. */
		for (k = 1; ok && strcmp(n, "yq") == 0 &&
		    k < cmds.v[i].nargv; k++) {
			w = l.v[cmds.v[i].argv[k]].text;
			if (strcmp(w, "-i") == 0 ||
			    strncmp(w, "--inplace", 9) == 0)
				ok = 0;
		}
		if (ok && strcmp(n, "awk") == 0) {
			for (k = 1; k < cmds.v[i].nargv; k++) {
				if (strstr(l.v[cmds.v[i].argv[k]].text,
				    "system") != NULL ||
				    strchr(l.v[cmds.v[i].argv[k]].text, '|'))
					ok = 0;
			}
		}
		if (ok && i == 0)
			snprintf(name, namesize, "%.64s", n);
	}
	shtok_cmds_release(&cmds);
	shtok_list_release(&l);
	return ok;
}

/* ---- the verdict ---- */

static struct json_object *
build_classification(struct classifier *c, enum risk risk, double conf,
    unsigned tech, const char *fast_reason)
{
	struct json_object	*o, *pats, *p, *bd, *tv;
	size_t			 i, t;
	double			 bconf = 0;

	o = json_object_new_object();
	json_object_object_add(o, "riskLevel",
	    json_object_new_string(risk_name(risk)));
	json_object_object_add(o, "confidence", json_object_new_double(
	    (double)(long)(conf * 1000 + 0.5) / 1000));
	pats = json_object_new_array();
	for (i = 0; i < c->nrules; i++) {
		if (c->state[i] == 0)
			continue;
		p = json_object_new_object();
		json_object_object_add(p, "patternId",
		    json_object_new_string(c->rules[i].info.id));
		json_object_object_add(p, "patternName",
		    json_object_new_string(c->rules[i].info.name));
		json_object_object_add(p, "matched",
		    json_object_new_boolean(c->state[i] == 2));
		json_object_array_add(pats, p);
	}
	json_object_object_add(o, "patterns", pats);
	bd = json_object_new_object();
	json_object_object_add(bd, "detected",
	    json_object_new_boolean(tech != 0));
	tv = json_object_new_array();
	for (t = 0; t < TECH_COUNT; t++) {
		if (!(tech & (1U << t)))
			continue;
		json_object_array_add(tv,
		    json_object_new_string(techniques[t].name));
		if (techniques[t].confidence > bconf)
			bconf = techniques[t].confidence;
	}
	json_object_object_add(bd, "techniques", tv);
	json_object_object_add(bd, "confidence", json_object_new_double(bconf));
	json_object_object_add(o, "bypassDetection", bd);
	json_object_object_add(o, "fastPathEligible",
	    json_object_new_boolean(fast_reason != NULL));
	if (fast_reason != NULL)
		json_object_object_add(o, "fastPathReason",
		    json_object_new_string(fast_reason));
	return o;
}

/*
 * Whether the shell hooks may record line without a verdict by their
 * fixed list (hook_fast_path() in shell-hooks/hookcore.c: plain word
 * characters, and a first word such as echo, ls, cat or git).  Wider than
 * the hooks' test on purpose; test-classify checks that every line they
 * let through classifies safe.
 */
static int
hook_may_skip(const char *line, size_t len)
{
	static const char	*first[] = { HOOK_FAST_SAFE, HOOK_FAST_READERS,
	    "history", "git" };
	char			 w[16];
	size_t			 i, n;

	for (i = 0; i < len; i++) {
		if (line[i] == '\0' || strchr(HOOK_PLAIN_CHARS, line[i]) == NULL)
			return 0;
	}
	for (i = 0; i < len && line[i] == ' '; i++)
		;
	for (n = 0; i < len && line[i] != ' ' && n + 1 < sizeof w; i++)
		w[n++] = line[i];
	w[n] = '\0';
	return IN(w, first);
}

/*
 * alias NAME='BODY': the body runs when the alias is used, and the hooks
 * judge it then, expanded; defining it runs nothing, so the model does not
 * read it (the rules still do: alias rm='rm -rf' is a decision of theirs).
 */
static void
model_blank_aliases(const struct shtok_list *l, const struct shtok_cmds *cmds,
    char **inert, const char *line, size_t len)
{
	const struct shtok_cmd	*c;
	size_t			 i, k;

	for (i = 0; i < cmds->n; i++) {
		c = &cmds->v[i];
		if (c->nargv < 2 ||
		    strcmp(l->v[c->argv[0]].text, "alias") != 0)
			continue;
		for (k = 1; k < c->nargv; k++)
			inert_blank(inert, line, len, &l->v[c->argv[k]]);
	}
}

/*
 * Rule model:words, after every other rule: a line that no rule calls
 * dangerous is, when its words score over the model's threshold.  The
 * words are the ones the line rules see (a commit message, a grep
 * pattern or an echo's text blanked).  A line the hooks let through
 * without a verdict (trigger-free, or by their fixed list) is not asked
 * about: the daemon must agree with them.
 */
static void
judge_words(struct judge *j, const char *line, size_t len)
{
	struct classifier	*c = j->c;
	struct risk_rule	*r;
	struct shtok_list	 l = SHTOK_LIST_INIT;
	struct shtok_cmds	 cmds = SHTOK_CMDS_INIT;
	char			*copy, *inert;
	double			 p;
	size_t			 i;
	int			 skip;

	if (c->model_rule < 0 || j->risk == RISK_DANGEROUS ||
	    (c->only != -1 && c->only != c->model_rule) ||
	    hook_may_skip(line, len))
		return;
	r = &c->rules[c->model_rule];
	copy = xmalloc(len + 1);
	memcpy(copy, line, len);
	copy[len] = '\0';
	skip = c->triggers != NULL && strlen(copy) == len &&
	    classify_trigger_free(copy, c->triggers);
	free(copy);
	if (skip)
		return;
	shtok_split(line, len, &l);
	shtok_commands(&l, &cmds);
	/*
	 * One simple command that a safe rule answered for (rm -rf of a
	 * cache under home): the rules' exception is a decision, not a gap.
	 */
	if (c->only == -1) {
		for (i = 0; cmds.n == 1 && i < c->nrules; i++) {
			if (c->state[i] == 2 &&
			    c->rules[i].info.risk == RISK_SAFE) {
				shtok_cmds_release(&cmds);
				shtok_list_release(&l);
				return;
			}
		}
	}
	c->state[c->model_rule] = 1;
	inert = inert_text(&l, &cmds, line, len);
	/*
	 * A here-document's body is data: the rules judge it where a shell
	 * reads it, and the words of a note written to a file do not count.
	 */
	for (i = 0; i < l.n; i++) {
		if (l.v[i].kind == SHTOK_HEREDOC)
			inert_blank(&inert, line, len, &l.v[i]);
	}
	model_blank_aliases(&l, &cmds, &inert, line, len);
	shtok_cmds_release(&cmds);
	shtok_list_release(&l);
	p = wordmodel_score(r->model, inert != NULL ? inert : line, len);
	free(inert);
	if (p < wordmodel_threshold(r->model))
		return;
	c->state[c->model_rule] = 2;
	if (c->only == c->model_rule)
		c->only_hit = 1;
	j->risk = RISK_DANGEROUS;
	j->rule = c->model_rule;
	j->confidence = p < r->info.confidence ? p : r->info.confidence;
	j->matched_any = 1;
}

static void
verdict_fill_rule(struct classifier *c, ssize_t rule, struct verdict *v)
{
	const struct risk_rule_info	*ri;

	if (rule < 0 || (size_t)rule >= c->nrules)
		return;
	ri = &c->rules[rule].info;
	v->rule_id = ri->id;
	v->rule_name = ri->name;
	v->description = ri->description;
	v->alternative = ri->alternative;
}

static char *
cache_key(const char *line, size_t len, const struct classify_ctx *ctx)
{
	struct buf	b = BUF_INIT;
	size_t		i;
	int		sp = 0;

	buf_addc(&b, (char)('A' + ((ctx != NULL && ctx->interactive &&
	    !ctx->tty) ? 1 : 0) + ((ctx != NULL && ctx->exe_static) ? 2 : 0)));
	for (i = 0; i < len && line[i] != '\0'; i++) {
		if (line[i] == ' ' || line[i] == '\t') {
			sp = 1;
			continue;
		}
		if (sp && b.len > 1)
			buf_addc(&b, ' ');
		sp = 0;
		buf_addc(&b, line[i]);
	}
	return buf_detach(&b, NULL);
}

static uint32_t
hash_str(const char *s)
{
	uint32_t	h = 2166136261u;

	for (; *s != '\0'; s++) {
		h ^= (unsigned char)*s;
		h *= 16777619u;
	}
	return h;
}

/* Classify a command line. */
void
classify_command(struct classifier *c, const char *line, size_t len,
    const struct classify_ctx *ctx, struct verdict *ret)
{
	struct judge		 j;
	char			 fname[80];
	char			*key = NULL, reason[128];
	struct cache_ent	*e = NULL;
	double			 t0 = now_ms();
	size_t			 t;
	int			 fast;

	memset(ret, 0, sizeof *ret);
	if (line == NULL)
		len = 0;
	if (len > SHTOK_MAX_INPUT)
		len = SHTOK_MAX_INPUT;

	if (len < CLASSIFY_CACHE_MAXKEY && c->only == -1) {
		key = cache_key(line != NULL ? line : "", len, ctx);
		e = &c->cache[hash_str(key) % CLASSIFY_CACHE_SIZE];
		if (e->key != NULL && strcmp(e->key, key) == 0) {
			ret->risk = e->risk;
			ret->confidence = e->confidence;
			ret->bypass = e->bypass;
			ret->fast_path = e->fast_path;
			ret->cache_hit = 1;
			verdict_fill_rule(c, e->rule, ret);
			json_object_deep_copy(e->classification,
			    &ret->classification, NULL);
			free(key);
			ret->classify_ms = now_ms() - t0;
			return;
		}
	}

	memset(&j, 0, sizeof j);
	j.c = c;
	j.ctx = ctx;
	j.rule = -1;
	j.risk = RISK_SAFE;
	j.budget = CLASSIFY_BUDGET;
	memset(c->state, 0, c->nrules + 1);

	fname[0] = '\0';
	fast = (line != NULL && len > 0 && c->only == -1 &&
	    fast_path(c, line, len, fname, sizeof fname));
	if (!fast && line != NULL)
		judge_line(&j, line, len, 0);
	{
		double tb = now_ms();

		if (ctx != NULL && ctx->exe_static)
			tech_add(&j, TECH_STATIC_BINARY);
		if (ctx != NULL && ctx->interactive && !ctx->tty)
			tech_add(&j, TECH_AUTOMATION_TOOL);
		j.bypass_ms += now_ms() - tb;
	}
	if (!fast && line != NULL)
		judge_words(&j, line, len);
	if (j.tech != 0) {
		fast = 0;
		if (j.risk < RISK_DANGEROUS)
			j.risk++;
		if (j.rule == -1)
			j.confidence = 0;
		for (t = 0; t < TECH_COUNT; t++) {
			if ((j.tech & (1U << t)) &&
			    techniques[t].confidence > j.confidence)
				j.confidence = techniques[t].confidence;
		}
	} else if (fast)
		j.confidence = 0.99;
	else if (j.rule == -1)
		j.confidence = 0.6;

	ret->risk = j.risk;
	ret->confidence = j.confidence;
	ret->bypass = (j.tech != 0);
	ret->fast_path = fast;
	verdict_fill_rule(c, j.rule, ret);
	/* Risk raised by a bypass alone: say which. */
	for (t = 0; ret->description == NULL && t < TECH_COUNT; t++) {
		if (j.tech & (1U << t))
			ret->description = techniques[t].description;
	}
	if (fast)
		snprintf(reason, sizeof reason, "known-safe command: %s",
		    fname);
	ret->classification = build_classification(c, j.risk, j.confidence,
	    j.tech, fast ? reason : NULL);
	ret->bypass_ms = j.bypass_ms;

	if (e != NULL) {
		cache_clear_ent(e);
		e->key = key;
		key = NULL;
		e->risk = ret->risk;
		e->confidence = ret->confidence;
		e->rule = j.rule;
		e->bypass = ret->bypass;
		e->fast_path = ret->fast_path;
		json_object_deep_copy(ret->classification, &e->classification,
		    NULL);
	}
	free(key);
	ret->classify_ms = now_ms() - t0;
}

/* ---- trigger words (the shell hooks' fast path) ---- */

/*
 * Commands the unwrapping, payload and bypass logic treat specially:
 * wrappers, interpreters, shells and the words that can raise a bypass
 * with no rule behind them.
 */
static const char *special[] = {
	/* unwrap() */
	"sudo", "doas", "pkexec", "run0", "env", "nice", "ionice", "nohup",
	"time", "builtin", "setsid", "unbuffer", "caffeinate", "strace",
	"ltrace", "fakeroot", "torsocks", "proxychains", "command", "npx",
	"bunx", "pnpx", "exec", "timeout", "stdbuf", "chroot", "flock",
	"busybox", "toybox", "ld-linux*", "ld.so", "ld-musl*", "xargs",
	"parallel", "mpirun", "mpiexec", "orterun", "srun",
	/* judge_payloads(), reads_program_from_stdin() */
	"su", "runuser", "ssh", "eval", "watch", "find", "source", "at",
	"batch", "docker", "podman", "nerdctl", "docker-compose", "kubectl",
	"oc", "parallel-ssh", "pssh", "pdsh", "clush", "python*", "pct",
	"lxc", "incus", "multipass", "qm", "distrobox", "repo", "vagrant",
	"apptainer", "singularity", "sbatch", "cmd", "cmd.exe", "wsl",
	"wsl.exe", "heroku", "console", "gcloud", "az", "doctl", "eb",
	"lando", "nix-shell", "railway", "bolt", "knife", "platform", "upsun",
	/* bypass_segment() */
	"alias", "unalias", "function", "unset", "export", "declare",
	"typeset", "expect", "autoexpect", "xdotool", "ydotool",
	/*
	 * Not listed: echo, printf, cat, yes and the decoders (base64,
	 * xxd, rev, tr ...) matter only in a pipe or with a here-document,
	 * and '|' and '<' are never in a trigger-free line (echo, printf,
	 * true and : are dropped even where a rule names them: see
	 * harmless_alone).
	 */
};

/*
 * Commands that only print or do nothing: with the characters a
 * trigger-free line may hold (no redirection, pipe, quote, '=' or
 * substitution) they cannot do harm, whatever rules name them (rules use
 * them with >>, | or a here-string).  They are kept out of the trigger
 * set, so "echo done" or "/bin/true" takes the fast path.
 */
static const char *harmless_alone[] = { "echo", "printf", "true", ":" };

static int
is_harmless_alone(const char *w)
{
	size_t	i;

	for (i = 0; i < nitems(harmless_alone); i++) {
		if (strcmp(w, harmless_alone[i]) == 0)
			return 1;
	}
	return 0;
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static void
words_add_any(char ***v, size_t *n, const char *w)
{
	if (*w == '\0')
		return;
	*v = xreallocarray(*v, *n + 1, sizeof **v);
	(*v)[(*n)++] = xstrdup(w);
}

/* A word of the built-in lists or of a rule (not a harmless_alone one). */
static void
words_add(char ***v, size_t *n, const char *w)
{
	if (!is_harmless_alone(w))
		words_add_any(v, n, w);
}

/* The words that can make a line non-safe (see classify.h). */
int
classify_triggers(const struct classifier *c, struct buf *out)
{
	char			**v = NULL, *w, *p;
	size_t			  n = 0, i, k;
	const struct risk_rule	 *r;

	/* Words already in out (learn_triggers()) are merged in. */
	if (out->len > 0) {
		char *copy = xstrdup(out->data);

		/* A learned word is kept, even echo (the user said so). */
		for (w = strtok_r(copy, " ", &p); w != NULL;
		    w = strtok_r(NULL, " ", &p))
			words_add_any(&v, &n, w);
		free(copy);
	}
	for (i = 0; i < sizeof guarded / sizeof guarded[0]; i++)
		words_add(&v, &n, guarded[i]);
	for (i = 0; i < sizeof shells / sizeof shells[0]; i++)
		words_add(&v, &n, shells[i]);
	for (i = 0; i < sizeof interpreters / sizeof interpreters[0]; i++)
		words_add(&v, &n, interpreters[i]);
	for (i = 0; i < sizeof special / sizeof special[0]; i++)
		words_add(&v, &n, special[i]);
	/* The built-in checks' verbs, in the three spellings they match. */
	for (i = 0; i < nitems(gen_verbs) + nitems(gen_migverbs); i++) {
		const char	*gv = i < nitems(gen_verbs) ? gen_verbs[i] :
		    gen_migverbs[i - nitems(gen_verbs)];
		char		*u = xstrdup(gv);

		words_add(&v, &n, gv);
		for (k = 0; u[k] != '\0'; k++)
			u[k] = (char)toupper((unsigned char)u[k]);
		words_add(&v, &n, u);
		for (k = 1; u[k] != '\0'; k++)
			u[k] = gv[k];
		words_add(&v, &n, u);
		free(u);
	}
	for (i = 0; i < nitems(gen_optverbs); i++)
		words_add(&v, &n, gen_optverbs[i]);
	for (i = 0; i < nitems(gen_longverbs); i++)
		words_add(&v, &n, gen_longverbs[i]);
	for (i = 0; c != NULL && i < c->nrules; i++) {
		r = &c->rules[i];
		/*
		 * A command with any rule: a safe rule has no verdict of its
		 * own, but its name is the one a shadowing alias or a quoted
		 * name would hide (has_rules()).
		 */
		/*
		 * A rule with a subcommand needs that word as the first
		 * positional: the word itself (and its basename) is enough,
		 * so "cargo build" stays free while "cargo publish" is not.
		 */
		if (r->nkeywords > 0 && !r->line_scope)
			;	/* the keywords below stand for the commands */
		else if (r->nsub > 0) {
			for (k = 0; k < r->sub[0].nalt; k++) {
				words_add(&v, &n, r->sub[0].alt[k]);
				words_add(&v, &n, base_name(r->sub[0].alt[k]));
			}
		} else {
			for (k = 0; k < r->ncmds; k++)
				words_add(&v, &n, r->cmds[k]);
		}
		for (k = 0; k < r->nvia; k++)
			words_add(&v, &n, r->via[k]);
		for (k = 0; k < r->ninput; k++)
			words_add(&v, &n, r->input[k]);
		/* Keywords that are not words (operators) are never typed
		   in a trigger-free line; only words are listed. */
		for (k = 0; k < r->nkeywords; k++) {
			char	*kw = xstrdup(r->keywords[k]);
			size_t	 kl = strlen(kw);

			if (kl > 1 && kw[kl - 1] == '*')
				kw[kl - 1] = '\0';
			if (classify_trigger_free(kw, "") &&
			    strchr(kw, ' ') == NULL)
				words_add(&v, &n, r->keywords[k]);
			free(kw);
		}
	}
	qsort(v, n, sizeof *v, cmp_str);
	buf_reset(out);
	for (i = 0; i < n; i++) {
		if (i > 0 && strcmp(v[i], v[i - 1]) == 0)
			continue;
		if (out->len > 0)
			buf_addc(out, ' ');
		buf_adds(out, v[i]);
	}
	if (out->data == NULL)
		buf_adds(out, "");
	strv_free(v, n);
	return 0;
}

/* Whether the word w (of length len) is in the trigger set. */
static int
trigger_hit(const char *w, size_t len, const char *triggers)
{
	const char	*t = triggers, *e;
	size_t		 tl;

	while (*t != '\0') {
		while (*t == ' ')
			t++;
		if (*t == '\0')
			break;
		e = strchr(t, ' ');
		tl = e != NULL ? (size_t)(e - t) : strlen(t);
		if (tl > 1 && t[tl - 1] == '*') {
			if (len >= tl - 1 && strncmp(w, t, tl - 1) == 0)
				return 1;
		} else if (tl == len && strncmp(w, t, len) == 0)
			return 1;
		t += tl;
	}
	return 0;
}

/* Whether line is trigger-free (see classify.h). */
int
classify_trigger_free(const char *line, const char *triggers)
{
	static const char	 allowed[] = HOOK_PLAIN_CHARS;
	const char		*p, *w, *b, *q, *e;
	size_t			 len;

	for (p = line; *p != '\0'; p++) {
		if (strchr(allowed, *p) == NULL)
			return 0;
	}
	for (p = line; *p != '\0'; ) {
		while (*p == ' ')
			p++;
		if (*p == '\0')
			break;
		w = p;
		while (*p != '\0' && *p != ' ')
			p++;
		len = (size_t)(p - w);
		/* The basename: the text after the last '/'. */
		for (b = w + len; b > w && b[-1] != '/'; b--)
			;
		if (trigger_hit(b, (size_t)(w + len - b), triggers))
			return 0;
		/*
		 * And each part of it between . : - _ (ecto.drop,
		 * vol-delete), unless it is an option: the generic rules look
		 * for a verb there.
		 */
		for (q = b; *b != '-' && q < w + len; q = e + 1) {
			for (e = q; e < w + len && strchr(".:-_", *e) == NULL;
			    e++)
				;
			if (e > q && (q != b || e != w + len) &&
			    trigger_hit(q, (size_t)(e - q), triggers))
				return 0;
		}
	}
	return 1;
}

/* Whether rule i matches line. */
int
classifier_rule_matches(struct classifier *c, size_t i, const char *line)
{
	struct verdict	v;

	if (i >= c->nrules)
		return 0;
	c->only = (ssize_t)i;
	c->only_hit = 0;
	classify_command(c, line, strlen(line), NULL, &v);
	verdict_release(&v);
	c->only = -1;
	return c->only_hit;
}

/* Release a verdict's contents. */
void
verdict_release(struct verdict *v)
{
	if (v->classification != NULL)
		json_object_put(v->classification);
	v->classification = NULL;
}
