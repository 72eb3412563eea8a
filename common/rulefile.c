#include "rulefile.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "fileio.h"
#include "xmalloc.h"

static char *
trim(char *s)
{
	char	*e;

	while (*s == ' ' || *s == '\t')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r' ||
	    e[-1] == '\n'))
		*--e = '\0';
	return s;
}

static int
fail(char **cause, int err, const char *path, int line, const char *why)
{
	if (cause != NULL)
		xasprintf(cause, "%s:%d: %s", path, line, why);
	return -err;
}

static void
stanza_add_kv(struct rule_stanza *st, const char *k, const char *v, int line)
{
	st->kv = xreallocarray(st->kv, st->nkv + 1, sizeof *st->kv);
	st->kv[st->nkv].key = xstrdup(k);
	st->kv[st->nkv].value = xstrdup(v);
	st->kv[st->nkv].line = line;
	st->nkv++;
}

/* Parse one rule file, appending to set. */
int
rulefile_parse(const char *path, struct rule_set *set, char **cause)
{
	FILE			*f;
	char			*line = NULL, *s, *eq, *sp;
	size_t			 cap = 0;
	ssize_t			 n;
	int			 lineno = 0, startline = 0, r = 0;
	struct rule_stanza	*cur = NULL;
	struct buf		 acc = BUF_INIT;

	if ((f = fopen(path, "re")) == NULL)
		return fail(cause, errno, path, 0, strerror(errno));
	while ((n = getline(&line, &cap, f)) != -1) {
		lineno++;
		if (acc.len == 0)
			startline = lineno;
		while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
			line[--n] = '\0';
		if (n > 0 && line[n - 1] == '\\' && !(n > 1 &&
		    line[n - 2] == '\\')) {
			line[n - 1] = '\0';
			buf_adds(&acc, line);
			continue;
		}
		buf_adds(&acc, line);
		s = trim(acc.data);
		if (*s == '\0' || *s == '#') {
			buf_reset(&acc);
			continue;
		}
		if (*s == '[') {
			char *end = strchr(s, ']');

			if (end == NULL || end[1] != '\0') {
				r = fail(cause, EINVAL, path, startline,
				    "malformed section header");
				goto out;
			}
			*end = '\0';
			s = trim(s + 1);
			if ((sp = strpbrk(s, " \t")) == NULL) {
				r = fail(cause, EINVAL, path, startline,
				    "section header needs a kind and an id");
				goto out;
			}
			*sp++ = '\0';
			sp = trim(sp);
			if (*sp == '\0') {
				r = fail(cause, EINVAL, path, startline,
				    "empty rule id");
				goto out;
			}
			set->v = xreallocarray(set->v, set->n + 1,
			    sizeof *set->v);
			cur = &set->v[set->n++];
			memset(cur, 0, sizeof *cur);
			cur->kind = xstrdup(s);
			cur->id = xstrdup(sp);
			cur->file = xstrdup(path);
			cur->line = startline;
			buf_reset(&acc);
			continue;
		}
		if ((eq = strchr(s, '=')) == NULL) {
			r = fail(cause, EINVAL, path, startline,
			    "expected 'key = value'");
			goto out;
		}
		if (cur == NULL) {
			r = fail(cause, EINVAL, path, startline,
			    "key outside of a [rule id] section");
			goto out;
		}
		*eq = '\0';
		stanza_add_kv(cur, trim(s), trim(eq + 1), startline);
		buf_reset(&acc);
	}
out:
	buf_release(&acc);
	free(line);
	fclose(f);
	return r;
}

/* Parse every *.rules file of a directory in name order. */
int
rulefile_parse_dir(const char *dir, struct rule_set *set, char **cause)
{
	char	**names, *path;
	size_t	 n, i;
	int	 r;

	if ((r = fileio_list(dir, ".rules", &names, &n)) != 0)
		return fail(cause, -r, dir, 0, strerror(-r));
	for (i = 0; i < n && r == 0; i++) {
		xasprintf(&path, "%s/%s", dir, names[i]);
		r = rulefile_parse(path, set, cause);
		free(path);
	}
	fileio_names_free(names, n);
	return r;
}

/* First value of a key. */
const char *
rule_get(const struct rule_stanza *st, const char *key)
{
	size_t	pos = 0;

	return rule_next(st, key, &pos);
}

/* Next value of a key, from *pos on. */
const char *
rule_next(const struct rule_stanza *st, const char *key, size_t *pos)
{
	for (; *pos < st->nkv; (*pos)++) {
		if (strcmp(st->kv[*pos].key, key) == 0)
			return st->kv[(*pos)++].value;
	}
	return NULL;
}

/* Free every stanza. */
void
rule_set_release(struct rule_set *set)
{
	size_t	i, j;

	for (i = 0; i < set->n; i++) {
		for (j = 0; j < set->v[i].nkv; j++) {
			free(set->v[i].kv[j].key);
			free(set->v[i].kv[j].value);
		}
		free(set->v[i].kv);
		free(set->v[i].kind);
		free(set->v[i].id);
		free(set->v[i].file);
	}
	free(set->v);
	set->v = NULL;
	set->n = set->alloc = 0;
}
