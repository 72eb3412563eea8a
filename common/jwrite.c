#include "jwrite.h"

#include <string.h>

#include <json-c/json.h>

#include "buf.h"
#include "jsonutil.h"

void
jwrite_init(struct jwrite *w, struct buf *b)
{
	w->b = b;
	w->comma = 0;
}

static void
sep(struct jwrite *w)
{
	if (w->comma)
		buf_addc(w->b, ',');
	w->comma = 1;
}

void
jwrite_obj(struct jwrite *w)
{
	sep(w);
	buf_addc(w->b, '{');
	w->comma = 0;
}

void
jwrite_obj_end(struct jwrite *w)
{
	buf_addc(w->b, '}');
	w->comma = 1;
}

void
jwrite_arr(struct jwrite *w)
{
	sep(w);
	buf_addc(w->b, '[');
	w->comma = 0;
}

void
jwrite_arr_end(struct jwrite *w)
{
	buf_addc(w->b, ']');
	w->comma = 1;
}

/* A key and its colon: the value that follows takes no comma. */
void
jwrite_key(struct jwrite *w, const char *key)
{
	size_t	n = strlen(key);
	char	*p;

	buf_grow(w->b, n + 4);
	p = w->b->data + w->b->len;
	if (w->comma)
		*p++ = ',';
	*p++ = '"';
	memcpy(p, key, n);
	p += n;
	*p++ = '"';
	*p++ = ':';
	*p = '\0';
	w->b->len = (size_t)(p - w->b->data);
	w->comma = 0;
}

/*
 * The escape of each byte, as json-c writes it: 0 = as is, 'u' = \u00xx,
 * else the letter after the backslash.
 */
static const char esc[256] = {
	'u', 'u', 'u', 'u', 'u', 'u', 'u', 'u',
	'b', 't', 'n', 'u', 'f', 'r', 'u', 'u',
	'u', 'u', 'u', 'u', 'u', 'u', 'u', 'u',
	'u', 'u', 'u', 'u', 'u', 'u', 'u', 'u',
	['"'] = '"', ['\\'] = '\\',
};

void
jwrite_strn(struct jwrite *w, const char *s, size_t n)
{
	static const char	 hex[] = "0123456789abcdef";
	const unsigned char	*u = (const unsigned char *)s;
	size_t			 i, start = 0;
	char			 e[6];

	sep(w);
	buf_grow(w->b, n + 2);
	buf_addc(w->b, '"');
	for (i = 0; i < n; i++) {
		if (esc[u[i]] == 0)
			continue;
		buf_add(w->b, s + start, i - start);
		e[0] = '\\';
		if (esc[u[i]] == 'u') {
			e[1] = 'u';
			e[2] = '0';
			e[3] = '0';
			e[4] = hex[u[i] >> 4];
			e[5] = hex[u[i] & 0xf];
			buf_add(w->b, e, 6);
		} else {
			e[1] = esc[u[i]];
			buf_add(w->b, e, 2);
		}
		start = i + 1;
	}
	buf_add(w->b, s + start, n - start);
	buf_addc(w->b, '"');
}

void
jwrite_str(struct jwrite *w, const char *s)
{
	if (s == NULL)
		s = "";
	jwrite_strn(w, s, strlen(s));
}

void
jwrite_bool(struct jwrite *w, int v)
{
	sep(w);
	if (v)
		buf_add(w->b, "true", 4);
	else
		buf_add(w->b, "false", 5);
}

void
jwrite_int(struct jwrite *w, int64_t v)
{
	char		 tmp[24], *p = tmp + sizeof tmp;
	uint64_t	 u = v < 0 ? -(uint64_t)v : (uint64_t)v;

	sep(w);
	do {
		*--p = (char)('0' + u % 10);
		u /= 10;
	} while (u != 0);
	if (v < 0)
		*--p = '-';
	buf_add(w->b, p, (size_t)(tmp + sizeof tmp - p));
}

void
jwrite_num(struct jwrite *w, double d)
{
	char	tmp[JSON_NUM_LEN];
	size_t	n;

	sep(w);
	n = json_num_fmt(d, tmp);
	buf_add(w->b, tmp, n);
}

void
jwrite_strv(struct jwrite *w, const char *const *v, size_t n)
{
	size_t	i;

	jwrite_arr(w);
	for (i = 0; i < n; i++)
		jwrite_str(w, v[i]);
	jwrite_arr_end(w);
}

void
jwrite_json(struct jwrite *w, struct json_object *o)
{
	const char	*s;
	size_t		 n;

	sep(w);
	if (o == NULL) {
		buf_add(w->b, "null", 4);
		return;
	}
	s = json_object_to_json_string_length(o, JSON_C_TO_STRING_PLAIN |
	    JSON_C_TO_STRING_NOSLASHESCAPE, &n);
	buf_add(w->b, s, n);
}
