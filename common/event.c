#include "event.h"

#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "buf.h"
#include "proto.h"
#include "userkey.h"
#include "xmalloc.h"

static int
bad(char **cause, const char *field, const char *want)
{
	if (cause != NULL)
		xasprintf(cause, "field \"%s\" must be %s", field, want);
	return -EINVAL;
}

static int
get_str(struct json_object *o, const char *k, char **ret, char **cause)
{
	struct json_object	*v;

	if (!json_object_object_get_ex(o, k, &v) || json_object_is_type(v,
	    json_type_null))
		return 0;
	if (!json_object_is_type(v, json_type_string))
		return bad(cause, k, "a string");
	*ret = xstrndup(json_object_get_string(v),
	    (size_t)json_object_get_string_len(v));
	return 0;
}

static int
get_num(struct json_object *o, const char *k, double lo, double hi,
    double *ret, char **cause)
{
	struct json_object	*v;
	double			 d;

	if (!json_object_object_get_ex(o, k, &v) || json_object_is_type(v,
	    json_type_null))
		return 0;
	if (!json_object_is_type(v, json_type_int) &&
	    !json_object_is_type(v, json_type_double))
		return bad(cause, k, "a number");
	d = json_object_get_double(v);
	if (!(d >= lo && d <= hi))
		return bad(cause, k, "a number in range");
	*ret = d;
	return 0;
}

static int
get_bool(struct json_object *o, const char *k, int *ret, char **cause)
{
	struct json_object	*v;

	if (!json_object_object_get_ex(o, k, &v) || json_object_is_type(v,
	    json_type_null))
		return 0;
	if (!json_object_is_type(v, json_type_boolean))
		return bad(cause, k, "true or false");
	*ret = json_object_get_boolean(v);
	return 0;
}

static int
needs_quote(const char *s)
{
	if (*s == '\0')
		return 1;
	for (; *s != '\0'; s++)
		if (strchr(" \t\n'\"\\$`!*?[]{}()<>|&;#~=%", *s) != NULL ||
		    (unsigned char)*s < 0x20)
			return 1;
	return 0;
}

/* Append one word of argv to a joined line, quoted if need be. */
static void
join_word(struct buf *b, const char *w)
{
	const char	*s;

	if (!needs_quote(w)) {
		buf_adds(b, w);
		return;
	}
	buf_addc(b, '\'');
	for (s = w; *s != '\0'; s++) {
		if (*s == '\'')
			buf_adds(b, "'\\''");
		else
			buf_addc(b, *s);
	}
	buf_addc(b, '\'');
}

/* Join argv with single-quote shell quoting where needed. */
char *
event_join_argv(const char *const *argv, size_t argc)
{
	struct buf	 b = BUF_INIT;
	size_t		 i;

	for (i = 0; i < argc; i++) {
		if (i > 0)
			buf_addc(&b, ' ');
		join_word(&b, argv[i]);
	}
	return buf_detach(&b, NULL);
}

/* Parse an event from a request object. */
/*
 * A line ends where its text does: the newline bash keeps after a
 * here-document's terminator ("cat <<EOF\nx\nEOF\n") says nothing.
 */
static void
trim_line(struct event *ev)
{
	size_t	n = strlen(ev->line);

	while (n > 0 && (ev->line[n - 1] == '\n' || ev->line[n - 1] == '\r'))
		ev->line[--n] = '\0';
}

/*
 * The checks on values that both parsers make once the fields are in:
 * returns NULL, or what the field named in *field must be.
 */
static const char *
value_check(const struct event *ev, const char **field)
{
	if (ev->action != NULL && strcmp(ev->action, "execute") != 0 &&
	    strcmp(ev->action, "cancel") != 0 &&
	    strcmp(ev->action, "modify") != 0 &&
	    strcmp(ev->action, "timeout") != 0) {
		*field = "action";
		return "execute, cancel, modify or timeout";
	}
	/* It becomes the entry's id. */
	if (ev->event_id != NULL && !uuid_valid(ev->event_id)) {
		*field = "eventId";
		return "a UUID";
	}
	return NULL;
}

int
event_parse(struct json_object *o, struct event *ev, char **cause)
{
	struct json_object	*argv, *w;
	const char		**v, *what, *field;
	double			 d;
	size_t			 n, i;
	int			 r = 0;

	memset(ev, 0, sizeof *ev);
	ev->pid = ev->ppid = -1;
	ev->uid = ev->euid = (uid_t)-1;
	if ((r = get_str(o, "source", &ev->source, cause)) ||
	    (r = get_str(o, "line", &ev->line, cause)) ||
	    (r = get_str(o, "path", &ev->path, cause)) ||
	    (r = get_str(o, "cwd", &ev->cwd, cause)) ||
	    (r = get_str(o, "tty", &ev->tty, cause)) ||
	    (r = get_str(o, "shell", &ev->shell, cause)) ||
	    (r = get_str(o, "term", &ev->term, cause)) ||
	    (r = get_str(o, "session", &ev->session, cause)) ||
	    (r = get_str(o, "parent", &ev->parent, cause)) ||
	    (r = get_str(o, "cmdType", &ev->cmd_type, cause)) ||
	    (r = get_str(o, "pathEnv", &ev->path_env, cause)) ||
	    (r = get_str(o, "aliasValue", &ev->alias_value, cause)) ||
	    (r = get_str(o, "action", &ev->action, cause)) ||
	    (r = get_str(o, "modifiedCommand", &ev->modified, cause)) ||
	    (r = get_str(o, "eventId", &ev->event_id, cause)) ||
	    (r = get_bool(o, "resend", &ev->resend, cause)) ||
	    (r = get_bool(o, "interactive", &ev->interactive, cause)) ||
	    (r = get_bool(o, "isTTY", &ev->is_tty, cause)) ||
	    (r = get_bool(o, "sudo", &ev->sudo, cause)) ||
	    (r = get_bool(o, "truncated", &ev->truncated, cause)) ||
	    (r = get_bool(o, "static", &ev->exe_static, cause)) ||
	    (r = get_num(o, "interceptMs", 0, 1e9, &ev->intercept_ms, cause)) ||
	    (r = get_num(o, "decisionTime", 0, 1e10, &ev->decision_ms, cause)))
		goto fail;
	d = -1;
	if ((r = get_num(o, "pid", 1, 1e9, &d, cause)) != 0)
		goto fail;
	ev->pid = (pid_t)d;
	d = -1;
	if ((r = get_num(o, "ppid", 0, 1e9, &d, cause)) != 0)
		goto fail;
	ev->ppid = (pid_t)d;
	d = -1;
	if ((r = get_num(o, "uid", 0, 4294967294.0, &d, cause)) != 0)
		goto fail;
	ev->uid = d < 0 ? (uid_t)-1 : (uid_t)d;
	d = -1;
	if ((r = get_num(o, "euid", 0, 4294967294.0, &d, cause)) != 0)
		goto fail;
	ev->euid = d < 0 ? (uid_t)-1 : (uid_t)d;
	d = 0;
	if ((r = get_num(o, "ts", 0, 1e14, &d, cause)) != 0)
		goto fail;
	ev->ts_ms = (int64_t)d;
	if (ev->line == NULL && json_object_object_get_ex(o, "argv", &argv)) {
		if (!json_object_is_type(argv, json_type_array)) {
			r = bad(cause, "argv", "an array of strings");
			goto fail;
		}
		n = json_object_array_length(argv);
		v = xcalloc(n + 1, sizeof *v);
		for (i = 0; i < n; i++) {
			w = json_object_array_get_idx(argv, i);
			if (!json_object_is_type(w, json_type_string))
				break;
			v[i] = json_object_get_string(w);
		}
		if (i == n)
			ev->line = event_join_argv(v, n);
		free(v);
		if (i != n) {
			r = bad(cause, "argv", "an array of strings");
			goto fail;
		}
	}
	if (ev->line == NULL) {
		r = -EINVAL;
		if (cause != NULL)
			*cause = xstrdup("missing \"line\" or \"argv\"");
		goto fail;
	}
	if ((what = value_check(ev, &field)) != NULL) {
		r = bad(cause, field, what);
		goto fail;
	}
	trim_line(ev);
	return 0;
fail:
	event_release(ev);
	return r;
}

/* Free an event's strings. */
void
event_release(struct event *ev)
{
	free(ev->source);
	free(ev->line);
	free(ev->path);
	free(ev->cwd);
	free(ev->tty);
	free(ev->shell);
	free(ev->term);
	free(ev->session);
	free(ev->parent);
	free(ev->cmd_type);
	free(ev->path_env);
	free(ev->alias_value);
	free(ev->entry_id);
	free(ev->event_id);
	free(ev->action);
	free(ev->modified);
	if (ev->ai != NULL)
		json_object_put(ev->ai);
	memset(ev, 0, sizeof *ev);
}

/*
 * The fast path of event_scan().  json-c builds a tree of objects for
 * every message and event_parse() then looks each field up by name; for
 * the flat events the shim and the hooks send, scanning the text once
 * into struct event costs a fraction of that.  The scanner accepts a
 * strict subset of what proto_parse() accepts and gives up on anything
 * else (see event.h): it never has to agree with json-c on an error.
 */
enum { K_STR, K_BOOL, K_NUM, K_V, K_TYPE, K_ACK, K_ARGV };
enum { N_INTERCEPT, N_DECISION, N_PID, N_PPID, N_UID, N_EUID, N_TS, N_MAX };

static const struct scan_key {
	const char	*name;
	size_t		 len;
	int		 kind;
	size_t		 off;	/* in struct event, or N_* for K_NUM */
} scan_keys[] = {
#define SK(n, k, o)	{ n, sizeof n - 1, k, o }
#define SKE(n, k, f)	SK(n, k, offsetof(struct event, f))
	SK("v", K_V, 0),
	SK("type", K_TYPE, 0),
	SK("ack", K_ACK, 0),
	SKE("source", K_STR, source),
	SKE("line", K_STR, line),
	SK("argv", K_ARGV, 0),
	SKE("path", K_STR, path),
	SKE("cwd", K_STR, cwd),
	SK("pid", K_NUM, N_PID),
	SK("ppid", K_NUM, N_PPID),
	SK("uid", K_NUM, N_UID),
	SK("euid", K_NUM, N_EUID),
	SKE("tty", K_STR, tty),
	SKE("isTTY", K_BOOL, is_tty),
	SKE("interactive", K_BOOL, interactive),
	SKE("parent", K_STR, parent),
	SKE("static", K_BOOL, exe_static),
	SK("ts", K_NUM, N_TS),
	SK("interceptMs", K_NUM, N_INTERCEPT),
	SKE("shell", K_STR, shell),
	SKE("term", K_STR, term),
	SKE("session", K_STR, session),
	SKE("cmdType", K_STR, cmd_type),
	SKE("pathEnv", K_STR, path_env),
	SKE("aliasValue", K_STR, alias_value),
	SKE("eventId", K_STR, event_id),
	SKE("resend", K_BOOL, resend),
	SKE("sudo", K_BOOL, sudo),
	SKE("truncated", K_BOOL, truncated),
	SKE("action", K_STR, action),
	SKE("modifiedCommand", K_STR, modified),
	SK("decisionTime", K_NUM, N_DECISION),
#undef SKE
#undef SK
};

#define SCAN_MAX_KEYS	64
#define SCAN_MAX_NUM	40	/* longest number token we convert */

static const char *
skip_ws(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' ||
	    *p == '\r'))
		p++;
	return p;
}

static int
hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* The code unit of "\uXXXX" at p (p points at the 'u'), or -1. */
static long
hex4(const char *p, const char *end)
{
	long	v = 0;
	int	i, h;

	if (end - p < 5)
		return -1;
	for (i = 1; i <= 4; i++) {
		if ((h = hexval((unsigned char)p[i])) < 0)
			return -1;
		v = v * 16 + h;
	}
	return v;
}

/* The length of the valid UTF-8 sequence (RFC 3629) at p, or 0. */
static size_t
utf8_len(const unsigned char *p, const unsigned char *end)
{
	unsigned char	lo = 0x80, hi = 0xbf;
	size_t		n, i;

	if (p[0] >= 0xc2 && p[0] <= 0xdf)
		n = 2;
	else if (p[0] >= 0xe0 && p[0] <= 0xef) {
		n = 3;
		if (p[0] == 0xe0)
			lo = 0xa0;
		else if (p[0] == 0xed)
			hi = 0x9f;
	} else if (p[0] >= 0xf0 && p[0] <= 0xf4) {
		n = 4;
		if (p[0] == 0xf0)
			lo = 0x90;
		else if (p[0] == 0xf4)
			hi = 0x8f;
	} else
		return 0;
	if ((size_t)(end - p) < n || p[1] < lo || p[1] > hi)
		return 0;
	for (i = 2; i < n; i++)
		if (p[i] < 0x80 || p[i] > 0xbf)
			return 0;
	return n;
}

/* Where the string whose body starts at p ends (its closing quote). */
static const char *
str_end(const char *p, const char *end)
{
	for (; p < end; p++) {
		if (*p == '"')
			return p;
		if (*p == '\\')
			p++;
	}
	return NULL;
}

/*
 * Decode the string whose body starts at *pp into dst (room for the raw
 * body; NULL to only check it) and move *pp past its closing quote.
 * Returns the decoded length, or -1 for anything json-c might decode
 * differently or refuse: control characters, invalid UTF-8, unknown
 * escapes, \u0000, lone surrogates, and pairs json-c 0.16 decodes as
 * U+FFFD.
 */
static ssize_t
scan_str(const char **pp, const char *end, char *dst)
{
	const char	*p = *pp, *run;
	size_t		 n = 0, k;
	long		 u, lo;
	char		 c;

	for (;;) {
		for (run = p; p < end && *p != '"' && *p != '\\' &&
		    (unsigned char)*p >= 0x20 && (unsigned char)*p < 0x80; p++)
			;
		if (dst != NULL && p > run)
			memcpy(dst + n, run, (size_t)(p - run));
		n += (size_t)(p - run);
		if (p == end)
			return -1;
		if (*p == '"')
			break;
		if ((unsigned char)*p < 0x20)
			return -1;
		if ((unsigned char)*p >= 0x80) {
			k = utf8_len((const unsigned char *)p,
			    (const unsigned char *)end);
			if (k == 0)
				return -1;
			if (dst != NULL)
				memcpy(dst + n, p, k);
			n += k;
			p += k;
			continue;
		}
		/* A backslash. */
		if (++p == end)
			return -1;
		switch (*p) {
		case '"': c = '"'; break;
		case '\\': c = '\\'; break;
		case '/': c = '/'; break;
		case 'b': c = '\b'; break;
		case 'f': c = '\f'; break;
		case 'n': c = '\n'; break;
		case 'r': c = '\r'; break;
		case 't': c = '\t'; break;
		case 'u': c = 0; break;
		default:
			return -1;
		}
		if (c != 0) {
			if (dst != NULL)
				dst[n] = c;
			n++;
			p++;
			continue;
		}
		if ((u = hex4(p, end)) <= 0 || (u >= 0xdc00 && u <= 0xdfff))
			return -1;
		p += 5;
		if (u >= 0xd800 && u <= 0xdbff) {
			if (end - p < 2 || p[0] != '\\' || p[1] != 'u' ||
			    (lo = hex4(p + 1, end)) < 0xdc00 || lo > 0xdfff)
				return -1;
			p += 6;
			u = 0x10000 + ((u - 0xd800) << 10) + (lo - 0xdc00);
			/*
			 * json-c 0.16 takes a pair whose code point looks
			 * like a surrogate in its low 16 bits (U+1D800 to
			 * U+1DFFF, U+2D800 ...) for a lone surrogate and
			 * decodes U+FFFD: leave it to json-c (CI's fuzzer).
			 */
			if ((u & 0xf800) == 0xd800)
				return -1;
		}
		if (dst != NULL) {
			if (u < 0x80)
				dst[n] = (char)u;
			else if (u < 0x800) {
				dst[n] = (char)(0xc0 | (u >> 6));
				dst[n + 1] = (char)(0x80 | (u & 0x3f));
			} else if (u < 0x10000) {
				dst[n] = (char)(0xe0 | (u >> 12));
				dst[n + 1] = (char)(0x80 | ((u >> 6) & 0x3f));
				dst[n + 2] = (char)(0x80 | (u & 0x3f));
			} else {
				dst[n] = (char)(0xf0 | (u >> 18));
				dst[n + 1] = (char)(0x80 | ((u >> 12) & 0x3f));
				dst[n + 2] = (char)(0x80 | ((u >> 6) & 0x3f));
				dst[n + 3] = (char)(0x80 | (u & 0x3f));
			}
		}
		n += u < 0x80 ? 1 : u < 0x800 ? 2 : u < 0x10000 ? 3 : 4;
	}
	*pp = p + 1;
	return (ssize_t)n;
}

/*
 * Scan a JSON number at *pp.  Integers of up to 18 digits convert as
 * json-c's int64 does; others go through strtod() like json-c's doubles,
 * and any overflow or underflow gives up.  Sets *ret_one when the token
 * is the integer 1 (the protocol version).
 */
static int
scan_num(const char **pp, const char *end, double *ret, int *ret_one)
{
	const char	*p = *pp, *s = p, *digits;
	char		 tmp[SCAN_MAX_NUM + 1], *e;
	int64_t		 iv = 0;
	int		 isint = 1, neg = 0;
	double		 d;

	if (p < end && *p == '-') {
		neg = 1;
		p++;
	}
	digits = p;
	if (p < end && *p == '0')
		p++;
	else if (p < end && *p >= '1' && *p <= '9') {
		while (p < end && *p >= '0' && *p <= '9') {
			if (p - digits == 18)
				return -1;
			iv = iv * 10 + (*p++ - '0');
		}
	} else
		return -1;
	if (p < end && *p == '.') {
		isint = 0;
		if (++p == end || *p < '0' || *p > '9')
			return -1;
		while (p < end && *p >= '0' && *p <= '9')
			p++;
	}
	if (p < end && (*p == 'e' || *p == 'E')) {
		isint = 0;
		if (++p < end && (*p == '+' || *p == '-'))
			p++;
		if (p == end || *p < '0' || *p > '9')
			return -1;
		while (p < end && *p >= '0' && *p <= '9')
			p++;
	}
	if (isint)
		d = (double)(neg ? -iv : iv);
	else {
		if (p - s > SCAN_MAX_NUM)
			return -1;
		memcpy(tmp, s, (size_t)(p - s));
		tmp[p - s] = '\0';
		errno = 0;
		d = strtod(tmp, &e);
		if (e != tmp + (p - s) || errno != 0 || !isfinite(d))
			return -1;
	}
	*ret_one = isint && !neg && iv == 1;
	*ret = d;
	*pp = p;
	return 0;
}

/* Check a value whose key the event does not use. */
static const char *
skip_value(const char *p, const char *end)
{
	double	d;
	int	one;

	if (p == end)
		return NULL;
	switch (*p) {
	case '"':
		p++;
		return scan_str(&p, end, NULL) < 0 ? NULL : p;
	case 't':
		return end - p >= 4 && memcmp(p, "true", 4) == 0 ? p + 4 :
		    NULL;
	case 'f':
		return end - p >= 5 && memcmp(p, "false", 5) == 0 ? p + 5 :
		    NULL;
	case 'n':
		return end - p >= 4 && memcmp(p, "null", 4) == 0 ? p + 4 :
		    NULL;
	case '[':
		p = skip_ws(p + 1, end);
		if (p < end && *p == ']')
			return p + 1;
		for (;;) {
			if (p == end || *p != '"')
				return NULL;
			p++;
			if (scan_str(&p, end, NULL) < 0)
				return NULL;
			p = skip_ws(p, end);
			if (p < end && *p == ']')
				return p + 1;
			if (p == end || *p != ',')
				return NULL;
			p = skip_ws(p + 1, end);
		}
	default:
		return scan_num(&p, end, &d, &one) == 0 ? p : NULL;
	}
}

/*
 * Decode the array of strings at p (its '[') into args, each word followed
 * by a NUL; sets *ret_n to the number of words.
 */
static const char *
scan_argv(const char *p, const char *end, struct buf *args, size_t *ret_n)
{
	const char	*q;
	ssize_t		 n;
	size_t		 count = 0;

	p = skip_ws(p + 1, end);
	if (p < end && *p == ']') {
		*ret_n = 0;
		return p + 1;
	}
	for (;;) {
		if (p == end || *p != '"')
			return NULL;
		p++;
		if ((q = str_end(p, end)) == NULL)
			return NULL;
		buf_grow(args, (size_t)(q - p) + 1);
		if ((n = scan_str(&p, end, args->data + args->len)) < 0)
			return NULL;
		args->len += (size_t)n;
		args->data[args->len++] = '\0';
		count++;
		p = skip_ws(p, end);
		if (p < end && *p == ']')
			break;
		if (p == end || *p != ',')
			return NULL;
		p = skip_ws(p + 1, end);
	}
	*ret_n = count;
	return p + 1;
}

/* Check the range of number n, as event_parse() does. */
static int
num_ok(const double *num, unsigned seen, int n, double lo, double hi,
    double *ret)
{
	if (!(seen & (1u << n)))
		return 1;
	if (!(num[n] >= lo && num[n] <= hi))
		return 0;
	*ret = num[n];
	return 1;
}

/* Fill an event from a message without json-c, if it is simple enough. */
int
event_scan(const char *msg, size_t len, struct event *ev, int *ret_noack)
{
	static struct buf	 args = BUF_INIT;
	const struct scan_key	*sk;
	const char		*p = msg, *end = msg + len, *key, *q;
	const char		*keys[SCAN_MAX_KEYS];
	size_t			 klen[SCAN_MAX_KEYS], nkeys = 0, nargs = 0;
	size_t			 i, nsk = sizeof scan_keys / sizeof scan_keys[0];
	double			 num[N_MAX], d;
	unsigned		 seen = 0;
	int			 have_v = 0, have_type = 0, noack = 0, one;
	int			 argv_ok = 0;
	char			 type[16], **sp, *s;
	ssize_t			 n;

	memset(ev, 0, sizeof *ev);
	ev->pid = ev->ppid = -1;
	ev->uid = ev->euid = (uid_t)-1;
	if (len > PROTO_MAX_MSG)
		return -ENOTSUP;
	buf_reset(&args);
	p = skip_ws(p, end);
	if (p == end || *p++ != '{')
		goto fail;
	for (;;) {
		p = skip_ws(p, end);
		if (p == end || *p++ != '"')
			goto fail;
		for (key = p; p < end && *p != '"'; p++)
			if (*p == '\\' || (unsigned char)*p < 0x20 ||
			    (unsigned char)*p >= 0x80)
				goto fail;
		if (p == end || nkeys == SCAN_MAX_KEYS)
			goto fail;
		for (i = 0; i < nkeys; i++)
			if (klen[i] == (size_t)(p - key) &&
			    memcmp(keys[i], key, klen[i]) == 0)
				goto fail;	/* json-c keeps the last */
		keys[nkeys] = key;
		klen[nkeys++] = (size_t)(p - key);
		p = skip_ws(p + 1, end);
		if (p == end || *p++ != ':')
			goto fail;
		p = skip_ws(p, end);
		if (p == end)
			goto fail;
		for (sk = scan_keys; sk < scan_keys + nsk; sk++)
			if (sk->len == klen[nkeys - 1] &&
			    memcmp(sk->name, key, sk->len) == 0)
				break;
		if (sk == scan_keys + nsk) {
			if ((p = skip_value(p, end)) == NULL)
				goto fail;
		} else if (end - p >= 4 && memcmp(p, "null", 4) == 0 &&
		    sk->kind != K_V && sk->kind != K_TYPE) {
			/* Absent, for event_parse(); "argv": null is not. */
			p += 4;
		} else switch (sk->kind) {
		case K_STR:
			if (*p++ != '"' || (q = str_end(p, end)) == NULL)
				goto fail;
			s = xmalloc((size_t)(q - p) + 1);
			if ((n = scan_str(&p, end, s)) < 0) {
				free(s);
				goto fail;
			}
			s[n] = '\0';
			sp = (char **)((char *)ev + sk->off);
			*sp = s;
			break;
		case K_BOOL:
			if (end - p >= 4 && memcmp(p, "true", 4) == 0) {
				*(int *)((char *)ev + sk->off) = 1;
				p += 4;
			} else if (end - p >= 5 && memcmp(p, "false", 5) == 0)
				p += 5;
			else
				goto fail;
			break;
		case K_NUM:
			if (scan_num(&p, end, &num[sk->off], &one) != 0)
				goto fail;
			seen |= 1u << sk->off;
			break;
		case K_V:
			if (scan_num(&p, end, &d, &one) != 0 || !one)
				goto fail;
			have_v = 1;
			break;
		case K_TYPE:
			if (*p++ != '"' || (q = str_end(p, end)) == NULL ||
			    q - p >= (ptrdiff_t)sizeof type ||
			    (n = scan_str(&p, end, type)) != 5 ||
			    memcmp(type, "event", 5) != 0)
				goto fail;
			have_type = 1;
			break;
		case K_ACK:
			if (end - p >= 5 && memcmp(p, "false", 5) == 0) {
				noack = 1;
				p += 5;
			} else if ((p = skip_value(p, end)) == NULL)
				goto fail;
			break;
		case K_ARGV:
			if (*p == '[') {
				if ((p = scan_argv(p, end, &args, &nargs)) ==
				    NULL)
					goto fail;
				argv_ok = 1;
			} else if ((p = skip_value(p, end)) == NULL)
				goto fail;
			break;
		}
		p = skip_ws(p, end);
		if (p < end && *p == ',') {
			p++;
			continue;
		}
		if (p < end && *p == '}')
			break;
		goto fail;
	}
	if (skip_ws(p + 1, end) != end || !have_v || !have_type)
		goto fail;

	if (!num_ok(num, seen, N_INTERCEPT, 0, 1e9, &ev->intercept_ms) ||
	    !num_ok(num, seen, N_DECISION, 0, 1e10, &ev->decision_ms))
		goto fail;
	d = -1;
	if (!num_ok(num, seen, N_PID, 1, 1e9, &d))
		goto fail;
	ev->pid = (pid_t)d;
	d = -1;
	if (!num_ok(num, seen, N_PPID, 0, 1e9, &d))
		goto fail;
	ev->ppid = (pid_t)d;
	d = -1;
	if (!num_ok(num, seen, N_UID, 0, 4294967294.0, &d))
		goto fail;
	ev->uid = d < 0 ? (uid_t)-1 : (uid_t)d;
	d = -1;
	if (!num_ok(num, seen, N_EUID, 0, 4294967294.0, &d))
		goto fail;
	ev->euid = d < 0 ? (uid_t)-1 : (uid_t)d;
	d = 0;
	if (!num_ok(num, seen, N_TS, 0, 1e14, &d))
		goto fail;
	ev->ts_ms = (int64_t)d;

	if (ev->line == NULL) {
		struct buf	 b = BUF_INIT;
		const char	*w = args.data;

		if (!argv_ok)
			goto fail;
		for (i = 0; i < nargs; i++) {
			if (i > 0)
				buf_addc(&b, ' ');
			join_word(&b, w);
			w += strlen(w) + 1;
		}
		ev->line = buf_detach(&b, NULL);
	}
	if (value_check(ev, &key) != NULL)
		goto fail;
	trim_line(ev);
	*ret_noack = noack;
	return 0;
fail:
	event_release(ev);
	return -ENOTSUP;
}
