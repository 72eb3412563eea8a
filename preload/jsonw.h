/*
 * A bounded, allocation-free JSON writer for the messages of the preload
 * shim (libdeliberate.so) and the strict-mode supervisor (cli/strict.c).
 *
 * It is header-only (static inline) so that both the shim, which links the
 * C library only, and the CLI can use it without a shared object file.
 * Everything here is async-signal-safe: no malloc, no locks, no stdio.
 *
 * Output goes into a caller-provided buffer.  When the buffer fills, the
 * writer calls flush (the shim sends the chunk to the socket); without a
 * flush callback the buffer must hold the whole message.  At most limit
 * bytes are produced in all: jw_argv() cuts the argv to fit, on a UTF-8
 * character boundary, and reports that it did.
 *
 * Strings are escaped as JSON requires: '"' and '\' get a backslash,
 * control characters (below 0x20) become \u00XX, and valid UTF-8 passes
 * through.  A byte that is not part of a valid UTF-8 sequence becomes
 * \u00XX with the byte's value, i.e. it is read as Latin-1, so the output
 * is always valid UTF-8 JSON and the byte value is kept.
 */
#ifndef JSONW_H
#define JSONW_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct jsonw {
	char		*buf;
	size_t		 len;		/* bytes in buf */
	size_t		 cap;
	size_t		 total;		/* bytes produced in all */
	size_t		 limit;		/* most bytes ever produced */
	int		 err;		/* a flush failed or the limit hit */
	int		(*flush)(struct jsonw *);	/* 0 or -1 */
	void		*arg;
};

/* Start a writer over buf[cap]. */
static inline void
jw_init(struct jsonw *w, char *buf, size_t cap, size_t limit,
    int (*flush)(struct jsonw *), void *arg)
{
	w->buf = buf;
	w->len = 0;
	w->cap = cap;
	w->total = 0;
	w->limit = limit;
	w->err = 0;
	w->flush = flush;
	w->arg = arg;
}

/* Append n raw bytes. */
static inline void
jw_raw(struct jsonw *w, const char *s, size_t n)
{
	size_t	k;

	if (w->err)
		return;
	if (w->total + n > w->limit) {
		w->err = 1;
		return;
	}
	while (n > 0) {
		if (w->len == w->cap) {
			if (w->flush == NULL || w->flush(w) != 0) {
				w->err = 1;
				return;
			}
			w->len = 0;
		}
		k = w->cap - w->len;
		if (k > n)
			k = n;
		memcpy(w->buf + w->len, s, k);
		w->len += k;
		w->total += k;
		s += k;
		n -= k;
	}
}

/* Append a NUL-terminated string, raw. */
static inline void
jw_lit(struct jsonw *w, const char *s)
{
	jw_raw(w, s, strlen(s));
}

/* Append an integer. */
static inline void
jw_int(struct jsonw *w, int64_t v)
{
	char		 tmp[24], *p = tmp + sizeof tmp;
	uint64_t	 u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;

	do {
		*--p = (char)('0' + u % 10);
		u /= 10;
	} while (u != 0);
	if (v < 0)
		*--p = '-';
	jw_raw(w, p, (size_t)(tmp + sizeof tmp - p));
}

/* Append a number with three decimals (milliseconds). */
static inline void
jw_ms(struct jsonw *w, double ms)
{
	int64_t	micro;
	char	frac[4];

	if (!(ms >= 0) || ms > 1e9)
		ms = 0;
	micro = (int64_t)(ms * 1000 + 0.5);
	jw_int(w, micro / 1000);
	frac[0] = '.';
	frac[1] = (char)('0' + micro / 100 % 10);
	frac[2] = (char)('0' + micro / 10 % 10);
	frac[3] = (char)('0' + micro % 10);
	jw_raw(w, frac, 4);
}

/*
 * The length of the valid UTF-8 sequence at s (at most n bytes), or 0 if
 * s[0] does not start one.  Overlong forms, surrogates and code points
 * above U+10FFFF are invalid.
 */
static inline size_t
jw_utf8_len(const unsigned char *s, size_t n)
{
	unsigned char	c = s[0], lo = 0x80, hi = 0xbf;
	size_t		need, i;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		need = 2;
	else if (c >= 0xe0 && c <= 0xef) {
		need = 3;
		if (c == 0xe0)
			lo = 0xa0;
		else if (c == 0xed)
			hi = 0x9f;
	} else if (c >= 0xf0 && c <= 0xf4) {
		need = 4;
		if (c == 0xf0)
			lo = 0x90;
		else if (c == 0xf4)
			hi = 0x8f;
	} else
		return 0;
	if (n < need || s[1] < lo || s[1] > hi)
		return 0;
	for (i = 2; i < need; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return need;
}

/*
 * Append s (n bytes) as a JSON string.  With room != NULL, stop before the
 * escaped output would pass *room bytes, on a character boundary, and
 * return 1 if s was cut; *room is decreased by what was written.
 */
static inline int
jw_strn_room(struct jsonw *w, const char *s, size_t n, size_t *room)
{
	static const char	 hex[] = "0123456789abcdef";
	const unsigned char	*p = (const unsigned char *)s;
	char			 esc[6];
	size_t			 i = 0, k, elen;
	int			 cut = 0;

	jw_raw(w, "\"", 1);
	while (i < n) {
		/* Copy the longest run that needs no escaping. */
		for (k = i; k < n && p[k] >= 0x20 && p[k] < 0x80 &&
		    p[k] != '"' && p[k] != '\\'; k++)
			;
		if (k > i) {
			if (room != NULL && k - i > *room) {
				k = i + *room;
				cut = 1;
			}
			jw_raw(w, s + i, k - i);
			if (room != NULL)
				*room -= k - i;
			i = k;
			if (cut)
				break;
			continue;
		}
		if (p[i] == '"' || p[i] == '\\') {
			esc[0] = '\\';
			esc[1] = (char)p[i];
			elen = 2;
			k = 1;
		} else if (p[i] >= 0x80 && (k = jw_utf8_len(p + i,
		    n - i)) != 0) {
			elen = k;
		} else {
			/* A control character or an invalid byte. */
			esc[0] = '\\';
			esc[1] = 'u';
			esc[2] = '0';
			esc[3] = '0';
			esc[4] = hex[p[i] >> 4];
			esc[5] = hex[p[i] & 0xf];
			elen = 6;
			k = 1;
		}
		if (room != NULL) {
			if (elen > *room) {
				cut = 1;
				break;
			}
			*room -= elen;
		}
		if (elen == k && p[i] >= 0x80)
			jw_raw(w, s + i, k);
		else
			jw_raw(w, esc, elen);
		i += k;
	}
	jw_raw(w, "\"", 1);
	return cut;
}

/* Append a NUL-terminated string as a JSON string. */
static inline void
jw_str(struct jsonw *w, const char *s)
{
	jw_strn_room(w, s, strlen(s), NULL);
}

/* Append ,"key": */
static inline void
jw_key(struct jsonw *w, const char *key)
{
	jw_raw(w, ",\"", 2);
	jw_lit(w, key);
	jw_raw(w, "\":", 2);
}

/* What one exec looks like on the wire (docs/protocol.md). */
struct jw_event {
	const char		*type;		/* "event" or "check" */
	const char		*source;	/* "preload" or "strict" */
	const char		*path;		/* resolved executable or NULL */
	const char *const	*argv;		/* may be NULL */
	size_t			 argc;		/* entries of argv used */
	const char		*cwd;		/* or NULL */
	const char		*tty;		/* "" when none */
	const char		*parent;	/* or NULL */
	int64_t			 pid, ppid, uid, euid;
	int			 is_tty;
	int			 sudo;
	int			 is_static;	/* -1 unknown */
	int64_t			 ts_ms;
	double			 intercept_ms;
	const char		*mode;		/* for a check */
};

/* Bytes kept free for what follows argv (see jw_event_write). */
#define JW_TAIL_RESERVE	64

/*
 * Write one request, newline included.  argv comes last so that an
 * oversized one can be cut to fit the limit; "truncated": true follows it
 * then.  Returns 1 if argv was cut, 0 if not.
 */
static inline int
jw_event_write(struct jsonw *w, const struct jw_event *ev)
{
	size_t	i, room;
	int	cut = 0;

	jw_lit(w, "{\"v\":1,\"type\":");
	jw_str(w, ev->type);
	if (strcmp(ev->type, "event") == 0)
		jw_lit(w, ",\"ack\":false");
	else {
		jw_lit(w, ",\"record\":true");
		if (ev->mode != NULL) {
			jw_key(w, "mode");
			jw_str(w, ev->mode);
		}
	}
	jw_key(w, "source");
	jw_str(w, ev->source);
	jw_lit(w, ",\"interactive\":false");
	if (ev->path != NULL) {
		jw_key(w, "path");
		jw_str(w, ev->path);
	}
	if (ev->cwd != NULL) {
		jw_key(w, "cwd");
		jw_str(w, ev->cwd);
	}
	jw_key(w, "pid");
	jw_int(w, ev->pid);
	jw_key(w, "ppid");
	jw_int(w, ev->ppid);
	jw_key(w, "uid");
	jw_int(w, ev->uid);
	jw_key(w, "euid");
	jw_int(w, ev->euid);
	jw_key(w, "tty");
	jw_str(w, ev->tty != NULL ? ev->tty : "");
	jw_lit(w, ev->is_tty ? ",\"isTTY\":true" : ",\"isTTY\":false");
	if (ev->sudo)
		jw_lit(w, ",\"sudo\":true");
	if (ev->parent != NULL && ev->parent[0] != '\0') {
		jw_key(w, "parent");
		jw_str(w, ev->parent);
	}
	if (ev->is_static >= 0)
		jw_lit(w, ev->is_static ? ",\"static\":true" :
		    ",\"static\":false");
	jw_key(w, "ts");
	jw_int(w, ev->ts_ms);
	jw_key(w, "interceptMs");
	jw_ms(w, ev->intercept_ms);

	jw_lit(w, ",\"argv\":[");
	if (w->err || w->total + JW_TAIL_RESERVE > w->limit)
		room = 0;
	else
		room = w->limit - w->total - JW_TAIL_RESERVE;
	for (i = 0; i < ev->argc && ev->argv != NULL &&
	    ev->argv[i] != NULL; i++) {
		/* A comma and two quotes per element. */
		if (room < 3) {
			cut = 1;
			break;
		}
		room -= 3;
		if (i > 0)
			jw_raw(w, ",", 1);
		if (jw_strn_room(w, ev->argv[i], strlen(ev->argv[i]),
		    &room)) {
			cut = 1;
			break;
		}
	}
	jw_raw(w, "]", 1);
	if (cut)
		jw_lit(w, ",\"truncated\":true");
	jw_raw(w, "}\n", 2);
	return cut;
}

#endif
