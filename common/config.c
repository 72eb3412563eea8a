#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "xmalloc.h"

/* Name of a mode. */
const char *
mode_name(enum mode m)
{
	switch (m) {
	case MODE_MONITOR:
		return "monitor";
	case MODE_ENFORCE:
		return "enforce";
	default:
		return "prompt";
	}
}

/* Parse a mode name. */
int
mode_parse(const char *s, enum mode *ret_mode)
{
	if (strcmp(s, "monitor") == 0)
		*ret_mode = MODE_MONITOR;
	else if (strcmp(s, "prompt") == 0)
		*ret_mode = MODE_PROMPT;
	else if (strcmp(s, "enforce") == 0)
		*ret_mode = MODE_ENFORCE;
	else
		return -EINVAL;
	return 0;
}

/* Set the defaults. */
void
config_init(struct config *c)
{
	memset(c, 0, sizeof *c);
	c->retention_days = 90;
	c->level = ANON_STANDARD;
	c->collection_consent = 1;
	c->sharing_consent = 0;
	c->improvement_consent = 1;
	c->mode = MODE_PROMPT;
	c->prompt_timeout = 30;
	c->learn_threshold = 2;
	c->moderate_note = 1;
	c->enforce_timeout_ms = 200;
	c->fail_open = 1;
	c->analyzer_timeout_ms = 3000;
}

static void
strv_free(char ***v, size_t *n)
{
	size_t	i;

	for (i = 0; i < *n; i++)
		free((*v)[i]);
	free(*v);
	*v = NULL;
	*n = 0;
}

/* Free what the config owns. */
void
config_release(struct config *c)
{
	strv_free(&c->exclude, &c->nexclude);
	strv_free(&c->analyzers, &c->nanalyzers);
}

static int
parse_bool(const char *s, int *ret)
{
	if (strcmp(s, "true") == 0 || strcmp(s, "yes") == 0 ||
	    strcmp(s, "on") == 0 || strcmp(s, "1") == 0)
		*ret = 1;
	else if (strcmp(s, "false") == 0 || strcmp(s, "no") == 0 ||
	    strcmp(s, "off") == 0 || strcmp(s, "0") == 0)
		*ret = 0;
	else
		return -EINVAL;
	return 0;
}

static int
parse_int(const char *s, int lo, int hi, int *ret)
{
	char	*end;
	long	 v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno != 0 || end == s || *end != '\0' || v < lo || v > hi)
		return -EINVAL;
	*ret = (int)v;
	return 0;
}

static void
split_list(const char *s, char ***v, size_t *n)
{
	char	*copy, *w, *save = NULL;

	strv_free(v, n);
	copy = xstrdup(s);
	for (w = strtok_r(copy, ", \t", &save); w != NULL;
	    w = strtok_r(NULL, ", \t", &save)) {
		*v = xreallocarray(*v, *n + 1, sizeof **v);
		(*v)[(*n)++] = xstrdup(w);
	}
	free(copy);
}

/*
 * An analyzer is "/abs/path [args]" (split on blanks, no quoting); the
 * key is repeatable, each line adds one.
 */
static int
add_analyzer(struct config *c, const char *val)
{
	size_t	i;

	if (val[0] != '/' || strlen(val) > 1024)
		return -EINVAL;
	for (i = 0; val[i] != '\0'; i++)
		if ((unsigned char)val[i] < 0x20 && val[i] != '\t')
			return -EINVAL;
	if (c->nanalyzers >= CONFIG_MAX_ANALYZERS)
		return -EINVAL;
	c->analyzers = xreallocarray(c->analyzers, c->nanalyzers + 1,
	    sizeof *c->analyzers);
	c->analyzers[c->nanalyzers++] = xstrdup(val);
	return 0;
}

/* Set one key. */
int
config_set(struct config *c, const char *key, const char *val, char **cause)
{
	const char	*want = NULL;
	int		 r = 0;

	if (strcmp(key, "retentionDays") == 0) {
		want = "a number of days from 1 to 3650";
		r = parse_int(val, 1, 3650, &c->retention_days);
	} else if (strcmp(key, "anonymizationLevel") == 0) {
		want = "minimal, standard or maximum";
		r = anon_level_parse(val, &c->level);
	} else if (strcmp(key, "collectionConsent") == 0) {
		want = "true or false";
		r = parse_bool(val, &c->collection_consent);
	} else if (strcmp(key, "sharingConsent") == 0) {
		want = "true or false";
		r = parse_bool(val, &c->sharing_consent);
	} else if (strcmp(key, "improvementConsent") == 0) {
		want = "true or false";
		r = parse_bool(val, &c->improvement_consent);
	} else if (strcmp(key, "mode") == 0) {
		want = "monitor, prompt or enforce";
		r = mode_parse(val, &c->mode);
	} else if (strcmp(key, "promptTimeout") == 0) {
		want = "seconds from 1 to 3600";
		r = parse_int(val, 1, 3600, &c->prompt_timeout);
	} else if (strcmp(key, "moderateNote") == 0) {
		want = "true or false";
		r = parse_bool(val, &c->moderate_note);
	} else if (strcmp(key, "enforceTimeoutMs") == 0) {
		want = "milliseconds from 1 to 10000";
		r = parse_int(val, 1, 10000, &c->enforce_timeout_ms);
	} else if (strcmp(key, "failOpen") == 0) {
		want = "true or false";
		r = parse_bool(val, &c->fail_open);
	} else if (strcmp(key, "exclude") == 0) {
		split_list(val, &c->exclude, &c->nexclude);
	} else if (strcmp(key, "analyzer") == 0) {
		want = "an absolute program path, then arguments";
		r = add_analyzer(c, val);
	} else if (strcmp(key, "learnThreshold") == 0) {
		want = "a number of corrections from 1 to 100";
		r = parse_int(val, 1, 100, &c->learn_threshold);
	} else if (strcmp(key, "analyzerTimeoutMs") == 0) {
		want = "milliseconds from 10 to 60000";
		r = parse_int(val, 10, 60000, &c->analyzer_timeout_ms);
	} else {
		if (cause != NULL)
			xasprintf(cause, "unknown key '%s'", key);
		return -EINVAL;
	}
	if (r != 0 && cause != NULL)
		xasprintf(cause, "bad value '%s' for %s: want %s", val, key,
		    want);
	return r;
}

static char *
trim(char *s)
{
	char	*e;

	while (*s == ' ' || *s == '\t')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\n' ||
	    e[-1] == '\r'))
		*--e = '\0';
	return s;
}

/* Read a config file over the values already in cfg. */
int
config_load(const char *path, struct config *cfg, struct buf *errors)
{
	FILE	*f;
	char	*line = NULL, *s, *eq, *cause;
	size_t	 cap = 0;
	int	 lineno = 0, bad = 0;

	if ((f = fopen(path, "re")) == NULL)
		return errno == ENOENT ? 0 : -errno;
	while (getline(&line, &cap, f) != -1) {
		lineno++;
		s = trim(line);
		if (*s == '\0' || *s == '#')
			continue;
		cause = NULL;
		if ((eq = strchr(s, '=')) == NULL)
			xasprintf(&cause, "expected 'key = value'");
		else {
			*eq = '\0';
			if (config_set(cfg, trim(s), trim(eq + 1), &cause) == 0)
				continue;
		}
		bad++;
		if (errors != NULL)
			buf_addf(errors, "%s:%d: %s\n", path, lineno, cause);
		free(cause);
	}
	free(line);
	fclose(f);
	return bad;
}

/* Whether a program is excluded from capture. */
int
config_excluded(const struct config *c, const char *name)
{
	size_t	i;

	for (i = 0; i < c->nexclude; i++)
		if (strcmp(c->exclude[i], name) == 0)
			return 1;
	return 0;
}
