#include "wordmodel.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "xmalloc.h"

/*
 * Features, as risk-rules/train-words.py makes them (keep the two the
 * same; test-wordmodel compares scores):
 *   w:WORD   each word: the first 4096 bytes lowercased (ASCII), split on
 *            bytes other than [a-z0-9_.-], dots trimmed at both ends; no
 *            empty, all-digit or over-24-byte words;
 *   b:A B    each pair of neighbouring words;
 *   c:MARK   >> , "> ", |, ~, *, $( and 0.0.0.0 anywhere in the line;
 *   r:/ROOT  the first component of an absolute path (after the line's
 *            start, white space, a quote or =);
 *   f:NAME, s:NAME WORD, g:NAME -OPT
 *            per simple command (split at | || && ; & ( ` $( ), after
 *            sudo, env, nohup, time, nice, exec, command, doas and
 *            NAME=VALUE words: the command's basename (quotes trimmed),
 *            with its first positional, and with each option (up to '=');
 *            only features of ASCII bytes.
 */
#define WM_MAXLINE	4096
#define WM_MAXWORD	24

struct wm_ent {
	const char	*key;		/* into text */
	double		 weight;
};

struct wordmodel {
	char		*text;		/* the file, lines cut at the tabs */
	struct wm_ent	*tab;		/* open addressing, power of two */
	size_t		 size;
	size_t		 n;
	double		 bias;
	double		 threshold;
};

/* Features of one line: strings in one buffer, sorted and unique. */
struct wm_feats {
	struct buf	  text;
	size_t		 *off;
	size_t		  n;
	size_t		  cap;
};

static uint64_t
wm_hash(const char *s)
{
	uint64_t	h = 1469598103934665603ULL;

	for (; *s != '\0'; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return h;
}

static struct wm_ent *
wm_slot(const struct wordmodel *m, const char *key)
{
	size_t	i = (size_t)wm_hash(key) & (m->size - 1);

	while (m->tab[i].key != NULL && strcmp(m->tab[i].key, key) != 0)
		i = (i + 1) & (m->size - 1);
	return &m->tab[i];
}

static const struct wm_ent *
wm_find(const struct wordmodel *m, const char *key)
{
	const struct wm_ent	*e;

	if (m->size == 0)
		return NULL;
	e = wm_slot(m, key);
	return e->key != NULL ? e : NULL;
}

/*
 * A weight as train-words.py writes it ("-1.234567"), without strtod's
 * cost (81,000 of them at each start); anything else goes to strtod.
 */
static int
parse_weight(const char *p, double *ret)
{
	const char	*s = p;
	double		 v = 0, scale = 1;
	char		*end;
	int		 neg = 0, digits = 0;

	if (*s == '-') {
		neg = 1;
		s++;
	}
	for (; *s >= '0' && *s <= '9' && digits < 9; s++, digits++)
		v = v * 10 + (*s - '0');
	if (digits > 0 && *s == '.') {
		for (s++; *s >= '0' && *s <= '9' && scale > 1e-9; s++) {
			scale /= 10;
			v += (*s - '0') * scale;
		}
		if (*s == '\0' && scale < 1) {
			*ret = neg ? -v : v;
			return 0;
		}
	}
	errno = 0;
	*ret = strtod(p, &end);
	if (errno != 0 || *end != '\0' || end == p || !isfinite(*ret))
		return -1;
	return 0;
}

int
wordmodel_load(const char *path, struct wordmodel **ret, char **cause)
{
	struct wordmodel	*m;
	struct wm_ent		*e;
	FILE			*fp;
	char			*line, *next, *tab;
	size_t			 len = 0, cap = 0, nl = 0, k;
	double			 v;
	int			 lineno = 0, have_bias = 0, err;

	if ((fp = fopen(path, "re")) == NULL) {
		err = errno;
		xasprintf(cause, "%s: %s", path, strerror(err));
		return -err;
	}
	m = xcalloc(1, sizeof *m);
	m->threshold = 0.75;
	for (;;) {
		if (cap - len < 65536) {
			cap = cap == 0 ? 1 << 20 : cap * 2;
			m->text = xreallocarray(m->text, cap + 1, 1);
		}
		if ((k = fread(m->text + len, 1, cap - len, fp)) == 0)
			break;
		len += k;
	}
	if (ferror(fp)) {
		err = errno != 0 ? errno : EIO;
		xasprintf(cause, "%s: %s", path, strerror(err));
		fclose(fp);
		wordmodel_free(m);
		return -err;
	}
	fclose(fp);
	m->text[len] = '\0';
	for (line = m->text; (line = memchr(line, '\n', (size_t)(m->text +
	    len - line))) != NULL; line++)
		nl++;
	for (m->size = 1024; m->size < 2 * (nl + 1); m->size *= 2)
		;
	m->tab = xcalloc(m->size, sizeof *m->tab);

	for (line = m->text; line < m->text + len; line = next) {
		lineno++;
		if ((next = strchr(line, '\n')) != NULL)
			*next++ = '\0';
		else
			next = m->text + len;
		if (line[0] == '\0' || line[0] == '#')
			continue;
		if ((tab = strchr(line, '\t')) == NULL)
			goto bad;
		*tab = '\0';
		if (parse_weight(tab + 1, &v) != 0)
			goto bad;
		if (strcmp(line, "bias") == 0) {
			m->bias = v;
			have_bias = 1;
		} else if (strcmp(line, "threshold") == 0) {
			if (v <= 0 || v >= 1)
				goto bad;
			m->threshold = v;
		} else {
			e = wm_slot(m, line);
			if (e->key != NULL)
				goto bad;
			e->key = line;
			e->weight = v;
			m->n++;
		}
	}
	if (!have_bias) {
		xasprintf(cause, "%s: no bias line", path);
		wordmodel_free(m);
		return -EINVAL;
	}
	*ret = m;
	return 0;
bad:
	xasprintf(cause, "%s:%d: bad model line", path, lineno);
	wordmodel_free(m);
	return -EINVAL;
}

struct wordmodel *
wordmodel_free(struct wordmodel *m)
{
	if (m == NULL)
		return NULL;
	free(m->tab);
	free(m->text);
	free(m);
	return NULL;
}

double
wordmodel_threshold(const struct wordmodel *m)
{
	return m->threshold;
}

double
wordmodel_bias(const struct wordmodel *m)
{
	return m->bias;
}

double
wordmodel_weight(const struct wordmodel *m, const char *key)
{
	const struct wm_ent	*e = wm_find(m, key);

	return e != NULL ? e->weight : 0;
}

size_t
wordmodel_size(const struct wordmodel *m)
{
	return m->n;
}

static void
feat_add(struct wm_feats *f, const char *kind, const char *s, size_t n,
    const char *s2, size_t n2)
{
	if (f->n == f->cap) {
		f->cap = f->cap == 0 ? 64 : f->cap * 2;
		f->off = xreallocarray(f->off, f->cap, sizeof *f->off);
	}
	f->off[f->n++] = f->text.len;
	buf_adds(&f->text, kind);
	buf_add(&f->text, s, n);
	if (s2 != NULL) {
		buf_addc(&f->text, ' ');
		buf_add(&f->text, s2, n2);
	}
	buf_addc(&f->text, '\0');
}

static int
is_wordc(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' ||
	    c == '.' || c == '-';
}

static int
is_ascii(const char *s, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++)
		if ((unsigned char)s[i] >= 0x80)
			return 0;
	return 1;
}

/* Add kind + a [+ ' ' + b], if all ASCII. */
static void
feat_add_ascii(struct wm_feats *f, const char *kind, const char *a, size_t na,
    const char *b, size_t nb)
{
	if (is_ascii(a, na) && (b == NULL || is_ascii(b, nb)))
		feat_add(f, kind, a, na, b, nb);
}

/* Trim quotes (' and ") at both ends of [*p, *p + *n). */
static void
trim_quotes(const char **p, size_t *n)
{
	while (*n > 0 && (**p == '\'' || **p == '"')) {
		(*p)++;
		(*n)--;
	}
	while (*n > 0 && ((*p)[*n - 1] == '\'' || (*p)[*n - 1] == '"'))
		(*n)--;
}

static int
is_assign(const char *w, size_t n)
{
	size_t	i;

	if (n == 0 || !((w[0] >= 'a' && w[0] <= 'z') || w[0] == '_'))
		return 0;
	for (i = 1; i < n; i++) {
		if (w[i] == '=')
			return 1;
		if (!((w[i] >= 'a' && w[i] <= 'z') || (w[i] >= '0' &&
		    w[i] <= '9') || w[i] == '_'))
			return 0;
	}
	return 0;
}

/* The features of one simple command, s[a, b). */
static void
segment_features(const char *s, size_t a, size_t b, struct wm_feats *f)
{
	static const char	*wrappers[] = { "sudo", "env", "nohup", "time",
	    "nice", "exec", "command", "doas" };
	const char		*w[WM_MAXLINE / 2 + 1], *name, *p, *eq;
	size_t			 n[WM_MAXLINE / 2 + 1], nw = 0, i, k, nn, np;
	int			 skip, havepos = 0;

	for (i = a; i < b; ) {
		if (isspace((unsigned char)s[i])) {
			i++;
			continue;
		}
		w[nw] = s + i;
		for (k = i; k < b && !isspace((unsigned char)s[k]); k++)
			;
		n[nw++] = k - i;
		i = k;
	}
	for (i = 0; i < nw; i++) {
		skip = is_assign(w[i], n[i]);
		for (k = 0; !skip && k < sizeof wrappers / sizeof wrappers[0];
		    k++)
			skip = strlen(wrappers[k]) == n[i] &&
			    memcmp(wrappers[k], w[i], n[i]) == 0;
		if (!skip)
			break;
	}
	if (i == nw)
		return;
	name = w[i];
	nn = n[i];
	for (k = nn; k > 0; k--) {
		if (name[k - 1] == '/') {
			name += k;
			nn -= k;
			break;
		}
	}
	trim_quotes(&name, &nn);
	feat_add_ascii(f, "f:", name, nn, NULL, 0);
	for (k = i + 1; k < nw; k++) {
		p = w[k];
		np = n[k];
		if (p[0] == '-') {
			if ((eq = memchr(p, '=', np)) != NULL)
				np = (size_t)(eq - p);
			feat_add_ascii(f, "g:", name, nn, p,
			    np > WM_MAXWORD ? WM_MAXWORD : np);
		} else if (!havepos) {
			havepos = 1;
			trim_quotes(&p, &np);
			feat_add_ascii(f, "s:", name, nn, p,
			    np > WM_MAXWORD ? WM_MAXWORD : np);
		}
	}
}

static int
feat_cmp(const void *a, const void *b, void *base)
{
	return strcmp((const char *)base + *(const size_t *)a,
	    (const char *)base + *(const size_t *)b);
}

/* The line's features into *f, sorted and unique. */
static void
features(const char *line, size_t len, struct wm_feats *f)
{
	static const struct { const char *needle; const char *name; } marks[] = {
		{ ">>", ">>" }, { "> ", ">" }, { "|", "|" }, { "~", "~" },
		{ "*", "*" }, { "$(", "$(" }, { "0.0.0.0", "any" },
	};
	char		*s;
	size_t		 i, k, w0 = 0, wl = 0, ws, we, nw = 0, out;
	int		 digits;

	if (len > WM_MAXLINE)
		len = WM_MAXLINE;
	s = xmalloc(len + 1);
	for (i = 0; i < len; i++)
		s[i] = (line[i] >= 'A' && line[i] <= 'Z') ? line[i] + 32 :
		    line[i];
	s[len] = '\0';

	for (i = 0; i < len; ) {
		if (!is_wordc((unsigned char)s[i])) {
			i++;
			continue;
		}
		for (ws = i; i < len && is_wordc((unsigned char)s[i]); i++)
			;
		we = i;
		while (ws < we && s[ws] == '.')
			ws++;
		while (we > ws && s[we - 1] == '.')
			we--;
		if (we == ws || we - ws > WM_MAXWORD)
			continue;
		for (digits = 1, k = ws; k < we; k++)
			if (s[k] < '0' || s[k] > '9')
				digits = 0;
		if (digits)
			continue;
		feat_add(f, "w:", s + ws, we - ws, NULL, 0);
		if (nw > 0)
			feat_add(f, "b:", s + w0, wl, s + ws, we - ws);
		w0 = ws;
		wl = we - ws;
		nw++;
	}
	for (k = 0; k < sizeof marks / sizeof marks[0]; k++) {
		if (memmem(s, len, marks[k].needle, strlen(marks[k].needle)) !=
		    NULL)
			feat_add(f, "c:", marks[k].name, strlen(marks[k].name),
			    NULL, 0);
	}
	for (i = 0; i < len; i++) {
		if (s[i] != '/' || (i > 0 && !isspace((unsigned char)s[i - 1]) &&
		    s[i - 1] != '\'' && s[i - 1] != '"' && s[i - 1] != '='))
			continue;
		for (k = i + 1; k < len && is_wordc((unsigned char)s[k]); k++)
			;
		if (k > i + 1 && k - i - 1 <= WM_MAXWORD)
			feat_add(f, "r:/", s + i + 1, k - i - 1, NULL, 0);
	}
	for (i = 0, w0 = 0; i <= len; i++) {
		size_t	sep = 0;

		if (i == len)
			sep = 1;
		else if (i + 1 < len && ((s[i] == '|' && s[i + 1] == '|') ||
		    (s[i] == '&' && s[i + 1] == '&')))
			sep = 2;
		else if (s[i] != '\0' && strchr("|;&(`", s[i]) != NULL)
			sep = 1;
		else if (s[i] == '$' && i + 1 < len && s[i + 1] == '(')
			sep = 2;
		if (sep == 0)
			continue;
		segment_features(s, w0, i, f);
		i += sep - 1;
		w0 = i + 1;
	}
	free(s);

	if (f->n > 1)
		qsort_r(f->off, f->n, sizeof *f->off, feat_cmp, f->text.data);
	for (i = 0, out = 0; i < f->n; i++) {
		if (out > 0 && strcmp(f->text.data + f->off[out - 1],
		    f->text.data + f->off[i]) == 0)
			continue;
		f->off[out++] = f->off[i];
	}
	f->n = out;
}

static void
feats_release(struct wm_feats *f)
{
	buf_release(&f->text);
	free(f->off);
}

double
wordmodel_score(const struct wordmodel *m, const char *line, size_t len)
{
	struct wm_feats		 f;
	const struct wm_ent	*e;
	double			 z = m->bias;
	size_t			 i;

	memset(&f, 0, sizeof f);
	features(line, len, &f);
	for (i = 0; i < f.n; i++) {
		if ((e = wm_find(m, f.text.data + f.off[i])) != NULL)
			z += e->weight;
	}
	feats_release(&f);
	if (z > 30)
		z = 30;
	if (z < -30)
		z = -30;
	return 1.0 / (1.0 + exp(-z));
}

void
wordmodel_explain(const struct wordmodel *m, const char *line, size_t len,
    char *out, size_t outlen)
{
	struct wm_feats		 f;
	const struct wm_ent	*e, *top[WORDMODEL_TOP];
	size_t			 i, k, ntop = 0, used = 0;
	int			 n;

	if (outlen == 0)
		return;
	out[0] = '\0';
	memset(&f, 0, sizeof f);
	features(line, len, &f);
	for (i = 0; i < f.n; i++) {
		if ((e = wm_find(m, f.text.data + f.off[i])) == NULL ||
		    e->weight <= 0 || e->key[0] == 'c')
			continue;
		for (k = ntop; k > 0 && top[k - 1]->weight < e->weight; k--)
			if (k < WORDMODEL_TOP)
				top[k] = top[k - 1];
		if (k < WORDMODEL_TOP) {
			top[k] = e;
			if (ntop < WORDMODEL_TOP)
				ntop++;
		}
	}
	for (k = 0; k < ntop; k++) {
		n = snprintf(out + used, outlen - used, "%s%s",
		    k > 0 ? ", " : "", top[k]->key + 2);
		if (n < 0 || (size_t)n >= outlen - used)
			break;
		used += (size_t)n;
	}
	feats_release(&f);
}
