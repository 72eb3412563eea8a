#include "learn.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "buf.h"
#include "classify.h"
#include "clock.h"
#include "jsonutil.h"
#include "xmalloc.h"

static int
is_op(const char *w)
{
	return strcmp(w, "|") == 0 || strcmp(w, "||") == 0 ||
	    strcmp(w, "&&") == 0 || strcmp(w, ";") == 0 ||
	    strcmp(w, "&") == 0 || strcmp(w, "|&") == 0;
}

static int
all_digits(const char *w)
{
	if (*w == '\0')
		return 0;
	for (; *w != '\0'; w++)
		if (*w < '0' || *w > '9')
			return 0;
	return 1;
}

/* The shape of one word that is not a command name. */
static void
shape_word(struct buf *b, const char *w)
{
	const char	*p, *eq;
	size_t		 n;

	if (w[0] == '-' && w[1] != '\0') {
		if (w[1] == '-') {
			eq = strchr(w, '=');
			n = eq != NULL ? (size_t)(eq - w) + 1 : strlen(w);
			buf_add(b, w, n > 40 ? 40 : n);
			return;
		}
		/* Short flags are kept unless they may carry a value. */
		for (p = w + 1; *p != '\0'; p++)
			if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' &&
			    *p <= 'Z')))
				break;
		buf_adds(b, *p == '\0' && p - w <= 6 ? w : "-?");
		return;
	}
	if (strchr("<>", w[0]) != NULL || (w[0] >= '0' && w[0] <= '9' &&
	    (w[1] == '>' || w[1] == '<'))) {
		/* A redirection: keep the operator only. */
		for (p = w; *p != '\0' && strchr("0123456789<>&|", *p) != NULL;
		    p++)
			;
		buf_add(b, w, (size_t)(p - w));
		buf_adds(b, *p != '\0' ? "W" : "");
		return;
	}
	if (strcmp(w, "/") == 0)
		buf_adds(b, "/");
	else if (w[0] == '/') {
		/* The first component says where: /tmp, /etc, /home. */
		p = strchr(w + 1, '/');
		n = p != NULL ? (size_t)(p - w) : strlen(w);
		buf_add(b, w, n > 32 ? 32 : n);
		buf_adds(b, p != NULL && p[1] != '\0' ? "/PATH" : "");
	} else if (w[0] == '~')
		buf_adds(b, "~/PATH");
	else if (all_digits(w))
		buf_adds(b, "N");
	else if (strchr(w, '/') != NULL)
		buf_adds(b, "RELPATH");
	else
		buf_adds(b, "W");
}

/* A plain lowercase word, like a subcommand (git push, apt install). */
static int
subcommand(const char *w)
{
	size_t	n;

	if (*w < 'a' || *w > 'z')
		return 0;
	for (n = 0; w[n] != '\0'; n++)
		if (!((w[n] >= 'a' && w[n] <= 'z') || w[n] == '-' ||
		    (w[n] >= '0' && w[n] <= '9')))
			return 0;
	return n <= 20;
}

/* The shape of a command line. */
char *
learn_shape(const char *line)
{
	struct buf	 b = BUF_INIT, w = BUF_INIT;
	const char	*s = line, *base;
	char		 q;
	int		 cmdpos = 1, nargs = 0;

	for (;;) {
		while (*s == ' ' || *s == '\t' || *s == '\n')
			s++;
		if (*s == '\0')
			break;
		buf_reset(&w);
		if (strchr("|&;", *s) != NULL) {
			while (*s != '\0' && strchr("|&;", *s) != NULL)
				buf_add(&w, s++, 1);
		} else {
			while (*s != '\0' && strchr(" \t\n|&;", *s) == NULL) {
				if (*s == '\'' || *s == '"') {
					q = *s++;
					while (*s != '\0' && *s != q)
						buf_add(&w, s++, 1);
					if (*s == q)
						s++;
					continue;
				}
				if (*s == '\\' && s[1] != '\0')
					s++;
				buf_add(&w, s++, 1);
			}
		}
		if (b.len > 0)
			buf_adds(&b, " ");
		if (is_op(buf_str(&w))) {
			buf_adds(&b, buf_str(&w));
			cmdpos = 1;
		} else if (cmdpos && strchr(buf_str(&w), '=') != NULL &&
		    buf_str(&w)[0] != '=') {
			buf_add(&b, buf_str(&w), (size_t)(strchr(buf_str(&w),
			    '=') - buf_str(&w)) + 1);
		} else if (cmdpos) {
			base = strrchr(buf_str(&w), '/');
			base = base != NULL && base[1] != '\0' ? base + 1 :
			    buf_str(&w);
			buf_add(&b, base, strlen(base) > 64 ? 64 :
			    strlen(base));
			nargs = 0;
			cmdpos = strcmp(base, "sudo") == 0 ||
			    strcmp(base, "env") == 0 ||
			    strcmp(base, "nice") == 0 ||
			    strcmp(base, "time") == 0;
		} else if (buf_str(&w)[0] != '-' && nargs++ == 0 &&
		    subcommand(buf_str(&w)))
			buf_adds(&b, buf_str(&w));	/* git push */
		else
			shape_word(&b, buf_str(&w));
		if (b.len > 1024)
			break;
	}
	buf_release(&w);
	return buf_detach(&b, NULL);
}

static uint64_t
fnv1a(const char *s)
{
	uint64_t	h = 0xcbf29ce484222325ULL;

	for (; *s != '\0'; s++) {
		h ^= (unsigned char)*s;
		h *= 0x100000001b3ULL;
	}
	return h;
}

static struct learned_shape *
add_shape(struct learned *l, const char *shape)
{
	struct learned_shape	*ls;
	size_t			 i, old = 0;

	if (l->n >= LEARN_MAX) {
		for (i = 1; i < l->n; i++)
			if (l->v[i].updated_ms < l->v[old].updated_ms)
				old = i;
		free(l->v[old].shape);
		l->v[old] = l->v[--l->n];
	}
	l->v = xreallocarray(l->v, l->n + 1, sizeof *l->v);
	ls = &l->v[l->n++];
	memset(ls, 0, sizeof *ls);
	ls->shape = xstrdup(shape);
	snprintf(ls->id, sizeof ls->id, "learned:%016llx",
	    (unsigned long long)fnv1a(shape));
	return ls;
}

/* Load the table. */
int
learn_load(const char *path, int threshold, struct learned **ret,
    char **cause)
{
	struct learned		*l;
	struct learned_shape	*ls;
	struct json_object	*o, *arr, *it, *v;
	enum risk		 risk;
	size_t			 i, n;

	l = xcalloc(1, sizeof *l);
	l->threshold = threshold > 0 ? threshold : 2;
	if (access(path, F_OK) != 0) {
		*ret = l;
		return 0;
	}
	if ((o = json_object_from_file(path)) == NULL ||
	    !json_object_object_get_ex(o, "shapes", &arr) ||
	    !json_object_is_type(arr, json_type_array)) {
		if (o != NULL)
			json_object_put(o);
		if (cause != NULL)
			xasprintf(cause, "'%s': not a learned-overrides file",
			    path);
		learn_free(l);
		return -EINVAL;
	}
	n = json_object_array_length(arr);
	for (i = 0; i < n && i < LEARN_MAX; i++) {
		it = json_object_array_get_idx(arr, i);
		if (!json_object_object_get_ex(it, "shape", &v) ||
		    !json_object_is_type(v, json_type_string))
			continue;
		ls = add_shape(l, json_object_get_string(v));
		if (json_object_object_get_ex(it, "risk", &v) &&
		    risk_parse(json_object_get_string(v), &risk) == 0)
			ls->risk = risk;
		if (json_object_object_get_ex(it, "count", &v))
			ls->count = json_object_get_int(v);
		if (json_object_object_get_ex(it, "updated", &v))
			clock_parse(json_object_get_string(v),
			    &ls->updated_ms);
	}
	json_object_put(o);
	*ret = l;
	return 0;
}

/* Save the table atomically. */
int
learn_save(const struct learned *l, const char *path)
{
	struct json_object	*o, *arr, *it;
	char			 ts[ISO8601_LEN];
	size_t			 i;
	int			 r;

	o = json_object_new_object();
	json_object_object_add(o, "version", json_object_new_string("1"));
	arr = json_object_new_array();
	for (i = 0; i < l->n; i++) {
		it = json_object_new_object();
		json_object_object_add(it, "id",
		    json_object_new_string(l->v[i].id));
		json_object_object_add(it, "shape",
		    json_object_new_string(l->v[i].shape));
		json_object_object_add(it, "risk",
		    json_object_new_string(risk_name(l->v[i].risk)));
		json_object_object_add(it, "count",
		    json_object_new_int(l->v[i].count));
		clock_iso8601_utc(l->v[i].updated_ms, ts);
		json_object_object_add(it, "updated",
		    json_object_new_string(ts));
		json_object_array_add(arr, it);
	}
	json_object_object_add(o, "shapes", arr);
	r = json_write_file(path, o, 0600);
	json_object_put(o);
	return r;
}

/* Free the table. */
struct learned *
learn_free(struct learned *l)
{
	size_t	i;

	if (l == NULL)
		return NULL;
	for (i = 0; i < l->n; i++)
		free(l->v[i].shape);
	free(l->v);
	free(l);
	return NULL;
}

/* Find a record by id or shape. */
const struct learned_shape *
learn_find(const struct learned *l, const char *key)
{
	size_t	i;

	if (l == NULL)
		return NULL;
	for (i = 0; i < l->n; i++)
		if (strcmp(l->v[i].id, key) == 0 ||
		    strcmp(l->v[i].shape, key) == 0)
			return &l->v[i];
	return NULL;
}

/* Count one correction. */
const struct learned_shape *
learn_count(struct learned *l, const char *shape, enum risk risk)
{
	struct learned_shape	*ls;

	ls = (struct learned_shape *)(uintptr_t)learn_find(l, shape);
	if (ls == NULL)
		ls = add_shape(l, shape);
	if (ls->count > 0 && ls->risk == risk)
		ls->count++;
	else {
		ls->risk = risk;
		ls->count = 1;
	}
	ls->updated_ms = clock_now_ms();
	return ls;
}

/* Forget a record. */
int
learn_forget(struct learned *l, const char *id)
{
	size_t	i;

	for (i = 0; i < l->n; i++) {
		if (strcmp(l->v[i].id, id) == 0) {
			free(l->v[i].shape);
			memmove(&l->v[i], &l->v[i + 1],
			    (l->n - i - 1) * sizeof *l->v);
			l->n--;
			return 0;
		}
	}
	return -ENOENT;
}

/* The override in force for line. */
const struct learned_shape *
learn_lookup(const struct learned *l, const char *line, enum risk from)
{
	const struct learned_shape	*ls;
	char				*shape;

	if (l == NULL || l->n == 0)
		return NULL;
	shape = learn_shape(line);
	ls = learn_find(l, shape);
	free(shape);
	if (ls == NULL || ls->risk == from)
		return NULL;
	/* Lowering takes threshold corrections, raising one. */
	if (ls->risk < from && ls->count < l->threshold)
		return NULL;
	return ls;
}

/* Whether a matched pattern of the verdict is a rule not overridable. */
static int
catastrophic(const struct learned *l, struct json_object *cls)
{
	const struct risk_rule_info	*ri;
	struct json_object		*pats, *p, *id, *m;
	size_t				 i, j, n, nr;

	if (l->cls == NULL || cls == NULL ||
	    !json_object_object_get_ex(cls, "patterns", &pats))
		return 0;
	n = json_object_array_length(pats);
	nr = classifier_nrules(l->cls);
	for (i = 0; i < n; i++) {
		p = json_object_array_get_idx(pats, i);
		if (!json_object_object_get_ex(p, "matched", &m) ||
		    !json_object_get_boolean(m) ||
		    !json_object_object_get_ex(p, "patternId", &id))
			continue;
		for (j = 0; j < nr; j++) {
			ri = classifier_rule(l->cls, j);
			if (ri != NULL && !ri->overridable &&
			    strcmp(ri->id, json_object_get_string(id)) == 0)
				return 1;
		}
	}
	return 0;
}

/* Apply a learned override to a verdict. */
int
learn_apply(struct learned *l, const char *line, struct verdict *v)
{
	const struct learned_shape	*ls;
	struct json_object		*p, *pats, *s;
	char				 why[160];

	if ((ls = learn_lookup(l, line, v->risk)) == NULL)
		return 0;
	if (ls->risk < v->risk && catastrophic(l, v->classification))
		return 0;
	snprintf(why, sizeof why, "learned override: you marked this %s "
	    "%d time%s", risk_name(ls->risk), ls->count,
	    ls->count == 1 ? "" : "s");
	v->risk = ls->risk;
	v->confidence = 0.9;
	v->alternative = NULL;
	if (v->classification == NULL)
		return 1;
	p = json_object_new_object();
	json_object_object_add(p, "patternId", json_object_new_string(ls->id));
	json_object_object_add(p, "patternName", json_object_new_string(why));
	json_object_object_add(p, "matched", json_object_new_boolean(1));
	if (json_object_object_get_ex(v->classification, "patterns", &pats) &&
	    json_object_is_type(pats, json_type_array))
		json_object_array_add(pats, p);
	else {
		pats = json_object_new_array();
		json_object_array_add(pats, p);
		json_object_object_add(v->classification, "patterns", pats);
	}
	json_object_object_add(v->classification, "riskLevel",
	    json_object_new_string(risk_name(ls->risk)));
	json_object_object_add(v->classification, "confidence",
	    json_object_new_double(0.9));
	/* The verdict's strings now live in its classification. */
	json_object_object_get_ex(p, "patternId", &s);
	v->rule_id = json_object_get_string(s);
	json_object_object_get_ex(p, "patternName", &s);
	v->rule_name = json_object_get_string(s);
	v->description = v->rule_name;
	return 1;
}

/* The command names of the learned shapes that raise a verdict. */
size_t
learn_triggers(const struct learned *l, struct buf *out)
{
	const char	*p, *e;
	size_t		 i, n = 0, len;
	int		 cmdpos;

	for (i = 0; l != NULL && i < l->n; i++) {
		if (l->v[i].risk == RISK_SAFE)
			continue;
		cmdpos = 1;
		for (p = l->v[i].shape; *p != '\0'; p = e) {
			while (*p == ' ')
				p++;
			if (*p == '\0')
				break;
			e = strchr(p, ' ');
			if (e == NULL)
				e = p + strlen(p);
			len = (size_t)(e - p);
			if (len == 0)
				continue;
			/* Operators start a command; "NAME=" keeps the
			   command position, as in learn_shape(). */
			if (strchr("|&;", *p) != NULL) {
				cmdpos = 1;
				continue;
			}
			if (!cmdpos)
				continue;
			if (p[len - 1] == '=')
				continue;
			if (out->len > 0)
				buf_addc(out, ' ');
			buf_add(out, p, len);
			if (len >= 64)
				buf_addc(out, '*');
			n++;
			cmdpos = (len == 4 && (strncmp(p, "sudo", 4) == 0 ||
			    strncmp(p, "nice", 4) == 0 ||
			    strncmp(p, "time", 4) == 0)) ||
			    (len == 3 && strncmp(p, "env", 3) == 0);
		}
	}
	if (out->data == NULL)
		buf_adds(out, "");
	return n;
}
