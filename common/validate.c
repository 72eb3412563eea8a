/*
 * The contract as code.  Each check_*() looks at one object of the
 * schema; a path buffer grows and shrinks with the walk.
 */
#include "validate.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "buf.h"
#include "dataset.h"
#include "xmalloc.h"

struct vctx {
	struct buf	 path;
	validate_fn	 fn;
	void		*arg;
	int		 errors;
};

struct seen {
	unsigned char	 id[16];
	const char	*path;
	int64_t		 lineno;
	int		 used;
};

struct validator {
	struct seen	*tab;
	size_t		 size, count;	/* size is a power of two */
};

enum kind {
	K_STRING, K_BOOL, K_OBJECT, K_ARRAY, K_NUMBER, K_COUNT, K_MS,
	K_CONFIDENCE, K_PERCENT, K_STRARRAY, K_TIMESTAMP
};

static void
err(struct vctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void
err(struct vctx *c, const char *fmt, ...)
{
	va_list	ap;
	char	msg[512];

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	c->errors++;
	if (c->fn != NULL)
		c->fn(c->arg, buf_str(&c->path), msg);
}

static size_t
push_key(struct vctx *c, const char *key)
{
	size_t	old = c->path.len;

	buf_addf(&c->path, ".%s", key);
	return old;
}

static size_t
push_index(struct vctx *c, size_t i)
{
	size_t	old = c->path.len;

	buf_addf(&c->path, "[%zu]", i);
	return old;
}

static void
pop(struct vctx *c, size_t old)
{
	c->path.len = old;
	c->path.data[old] = '\0';
}

static const char *
type_name(struct json_object *o)
{
	switch (json_object_get_type(o)) {
	case json_type_null:	return "null";
	case json_type_boolean:	return "boolean";
	case json_type_double:	return "number";
	case json_type_int:	return "integer";
	case json_type_object:	return "object";
	case json_type_array:	return "array";
	case json_type_string:	return "string";
	}
	return "unknown";
}

static int
is_number(struct json_object *o)
{
	return json_object_is_type(o, json_type_int) ||
	    json_object_is_type(o, json_type_double);
}

/* JSON Schema counts 3.0 as an integer. */
static int
is_integer(struct json_object *o)
{
	double	d;

	if (json_object_is_type(o, json_type_int))
		return 1;
	if (!json_object_is_type(o, json_type_double))
		return 0;
	d = json_object_get_double(o);
	return isfinite(d) && floor(d) == d;
}

static int
check_range(struct vctx *c, struct json_object *o, double lo, double hi,
    int has_hi)
{
	double	d = json_object_get_double(o);

	if (json_object_is_type(o, json_type_int) &&
	    json_object_get_int64(o) < 0 && lo >= 0) {
		err(c, "%lld is less than the minimum of %g",
		    (long long)json_object_get_int64(o), lo);
		return 0;
	}
	if (d < lo) {
		err(c, "%g is less than the minimum of %g", d, lo);
		return 0;
	}
	if (has_hi && d > hi) {
		err(c, "%g is greater than the maximum of %g", d, hi);
		return 0;
	}
	return 1;
}

/* Check a value of a kind; the path is already pushed. */
static int
check_kind(struct vctx *c, struct json_object *o, enum kind k)
{
	size_t	i, n, old;

	switch (k) {
	case K_STRING:
		if (!json_object_is_type(o, json_type_string))
			goto type;
		return 1;
	case K_BOOL:
		if (!json_object_is_type(o, json_type_boolean))
			goto type;
		return 1;
	case K_OBJECT:
		if (!json_object_is_type(o, json_type_object))
			goto type;
		return 1;
	case K_ARRAY:
		if (!json_object_is_type(o, json_type_array))
			goto type;
		return 1;
	case K_NUMBER:
		if (!is_number(o))
			goto type;
		return 1;
	case K_COUNT:
		if (!is_integer(o)) {
			err(c, "%s is not an integer", is_number(o) ?
			    json_object_to_json_string(o) : type_name(o));
			return 0;
		}
		return check_range(c, o, 0, 0, 0);
	case K_MS:
		if (!is_number(o))
			goto type;
		return check_range(c, o, 0, 0, 0);
	case K_CONFIDENCE:
		if (!is_number(o))
			goto type;
		return check_range(c, o, 0, 1, 1);
	case K_PERCENT:
		if (!is_number(o))
			goto type;
		return check_range(c, o, 0, 100, 1);
	case K_STRARRAY:
		if (!json_object_is_type(o, json_type_array))
			goto type;
		n = json_object_array_length(o);
		for (i = 0; i < n; i++) {
			old = push_index(c, i);
			check_kind(c, json_object_array_get_idx(o, i),
			    K_STRING);
			pop(c, old);
		}
		return 1;
	case K_TIMESTAMP:
		if (!json_object_is_type(o, json_type_string))
			goto type;
		if (!validate_timestamp(json_object_get_string(o))) {
			err(c, "'%s' is not an ISO 8601 date-time with "
			    "milliseconds and a zone",
			    json_object_get_string(o));
			return 0;
		}
		return 1;
	}
	return 1;
type:
	err(c, "expected %s, got %s",
	    k == K_STRING || k == K_TIMESTAMP ? "a string" :
	    k == K_BOOL ? "a boolean" : k == K_OBJECT ? "an object" :
	    k == K_ARRAY || k == K_STRARRAY ? "an array" : "a number",
	    type_name(o));
	return 0;
}

/*
 * A field of obj: required fields must exist; optional ones may be
 * absent, never null.  Returns the member when it has the kind.
 */
static struct json_object *
field(struct vctx *c, struct json_object *obj, const char *key, enum kind k,
    int required)
{
	struct json_object	*o;
	size_t			 old;
	int			 ok;

	old = push_key(c, key);
	if (!json_object_object_get_ex(obj, key, &o)) {
		if (required)
			err(c, "required field missing");
		pop(c, old);
		return NULL;
	}
	ok = check_kind(c, o, k);
	pop(c, old);
	return ok ? o : NULL;
}

static void
field_enum(struct vctx *c, struct json_object *obj, const char *key,
    const char *const *values, int required)
{
	struct json_object	*o;
	const char		*s;
	size_t			 old, i;

	old = push_key(c, key);
	if (!json_object_object_get_ex(obj, key, &o)) {
		if (required)
			err(c, "required field missing");
		pop(c, old);
		return;
	}
	s = json_object_is_type(o, json_type_string) ?
	    json_object_get_string(o) : NULL;
	for (i = 0; s != NULL && values[i] != NULL; i++)
		if (strcmp(s, values[i]) == 0)
			break;
	if (s == NULL || values[i] == NULL) {
		struct buf	b = BUF_INIT;

		for (i = 0; values[i] != NULL; i++)
			buf_addf(&b, "%s%s", i ? ", " : "", values[i]);
		err(c, "%s is not one of: %s", s != NULL ? s :
		    json_object_to_json_string(o), buf_str(&b));
		buf_release(&b);
	}
	pop(c, old);
}

static const char *const risk_levels[] =
	{ "safe", "moderate", "dangerous", NULL };
static const char *const decisions[] = { "allow", "deny", "prompt", NULL };

/* Call fn on every element of the array at key when it is an object. */
static void
each_object(struct vctx *c, struct json_object *obj, const char *key,
    int required, void (*fn)(struct vctx *, struct json_object *))
{
	struct json_object	*a, *item;
	size_t			 i, n, old, old2;

	if ((a = field(c, obj, key, K_ARRAY, required)) == NULL)
		return;
	old = push_key(c, key);
	n = json_object_array_length(a);
	for (i = 0; i < n; i++) {
		old2 = push_index(c, i);
		item = json_object_array_get_idx(a, i);
		if (check_kind(c, item, K_OBJECT))
			fn(c, item);
		pop(c, old2);
	}
	pop(c, old);
}

/* Descend into an object member; returns it or NULL. */
static struct json_object *
enter(struct vctx *c, struct json_object *obj, const char *key,
    int required, size_t *ret_old)
{
	struct json_object	*o;

	if ((o = field(c, obj, key, K_OBJECT, required)) == NULL)
		return NULL;
	*ret_old = push_key(c, key);
	return o;
}

static void
check_command(struct vctx *c, struct json_object *o)
{
	static const char *const types[] =
		{ "system", "user", "builtin", "alias", "function", NULL };

	field(c, o, "command", K_STRING, 1);
	field(c, o, "args", K_STRARRAY, 1);
	field(c, o, "fullCommand", K_STRING, 1);
	field_enum(c, o, "type", types, 1);
	field(c, o, "hasRedirection", K_BOOL, 1);
	field(c, o, "hasPipe", K_BOOL, 1);
	field(c, o, "hasGlobbing", K_BOOL, 1);
	field(c, o, "hasVariableExpansion", K_BOOL, 1);
	field(c, o, "hasCommandSubstitution", K_BOOL, 1);
}

static void
check_context(struct vctx *c, struct json_object *o)
{
	static const char *const wd_types[] =
		{ "home", "system", "tmp", "project", "other", NULL };
	static const char *const layers[] =
		{ "hook", "preload", "strict", "cli", NULL };
	struct json_object	*s, *la;
	size_t			 old, old2, i, n;

	if ((s = enter(c, o, "user", 1, &old)) != NULL) {
		field(c, s, "id", K_STRING, 1);
		field(c, s, "isRoot", K_BOOL, 1);
		field(c, s, "isSudo", K_BOOL, 1);
		pop(c, old);
	}
	if ((s = enter(c, o, "environment", 1, &old)) != NULL) {
		field(c, s, "shell", K_STRING, 1);
		field(c, s, "terminal", K_STRING, 1);
		field(c, s, "isInteractive", K_BOOL, 1);
		field(c, s, "isTTY", K_BOOL, 1);
		field(c, s, "isPTY", K_BOOL, 1);
		field_enum(c, s, "captureLayer", layers, 0);
		field(c, s, "truncated", K_BOOL, 0);
		pop(c, old);
	}
	if ((s = enter(c, o, "workingDirectory", 1, &old)) != NULL) {
		field_enum(c, s, "type", wd_types, 1);
		field(c, s, "depth", K_COUNT, 1);
		pop(c, old);
	}
	if ((s = enter(c, o, "parentProcess", 0, &old)) != NULL) {
		field(c, s, "name", K_STRING, 1);
		field(c, s, "pid", K_COUNT, 1);
		field(c, s, "isShell", K_BOOL, 1);
		field(c, s, "isScript", K_BOOL, 1);
		pop(c, old);
	}
	if ((s = enter(c, o, "systemState", 1, &old)) != NULL) {
		if ((la = field(c, s, "loadAverage", K_ARRAY, 1)) != NULL) {
			old2 = push_key(c, "loadAverage");
			n = json_object_array_length(la);
			if (n != 3)
				err(c, "expected 3 load averages, got %zu", n);
			for (i = 0; i < n; i++) {
				size_t	old3 = push_index(c, i);

				check_kind(c, json_object_array_get_idx(la, i),
				    K_MS);
				pop(c, old3);
			}
			pop(c, old2);
		}
		field(c, s, "memoryUsagePercent", K_PERCENT, 1);
		field(c, s, "diskUsagePercent", K_PERCENT, 1);
		pop(c, old);
	}
}

static void
check_pattern(struct vctx *c, struct json_object *o)
{
	field(c, o, "patternId", K_STRING, 1);
	field(c, o, "patternName", K_STRING, 1);
	field(c, o, "matched", K_BOOL, 1);
}

static void
check_classification(struct vctx *c, struct json_object *o)
{
	struct json_object	*s;
	size_t			 old;

	field_enum(c, o, "riskLevel", risk_levels, 1);
	field(c, o, "confidence", K_CONFIDENCE, 1);
	each_object(c, o, "patterns", 1, check_pattern);
	if ((s = enter(c, o, "bypassDetection", 1, &old)) != NULL) {
		field(c, s, "detected", K_BOOL, 1);
		field(c, s, "techniques", K_STRARRAY, 1);
		field(c, s, "confidence", K_CONFIDENCE, 1);
		pop(c, old);
	}
	field(c, o, "fastPathEligible", K_BOOL, 1);
	field(c, o, "fastPathReason", K_STRING, 0);
}

static void
check_model(struct vctx *c, struct json_object *o)
{
	field(c, o, "modelId", K_STRING, 1);
	field_enum(c, o, "decision", decisions, 1);
	field(c, o, "confidence", K_CONFIDENCE, 1);
	field(c, o, "reasoning", K_STRING, 1);
	field(c, o, "responseTime", K_MS, 1);
}

static void
check_risk_factor(struct vctx *c, struct json_object *o)
{
	static const char *const sev[] =
		{ "low", "medium", "high", "critical", NULL };

	field(c, o, "factor", K_STRING, 1);
	field_enum(c, o, "severity", sev, 1);
	field(c, o, "description", K_STRING, 1);
}

static void
check_alternative(struct vctx *c, struct json_object *o)
{
	field(c, o, "command", K_STRING, 1);
	field(c, o, "explanation", K_STRING, 1);
	field(c, o, "safetyImprovement", K_PERCENT, 1);
}

static void
check_ai(struct vctx *c, struct json_object *o)
{
	struct json_object	*s;
	size_t			 old;

	field(c, o, "performed", K_BOOL, 1);
	if ((s = enter(c, o, "consensus", 1, &old)) != NULL) {
		field_enum(c, s, "decision", decisions, 1);
		field(c, s, "confidence", K_CONFIDENCE, 1);
		field(c, s, "agreement", K_PERCENT, 1);
		pop(c, old);
	}
	each_object(c, o, "models", 1, check_model);
	each_object(c, o, "riskFactors", 1, check_risk_factor);
	each_object(c, o, "alternatives", 0, check_alternative);
}

static void
check_decision(struct vctx *c, struct json_object *o)
{
	static const char *const actions[] =
		{ "execute", "cancel", "modify", "timeout", NULL };
	static const char *const ctypes[] =
		{ "false_positive", "false_negative", NULL };
	struct json_object	*s;
	size_t			 old;

	field_enum(c, o, "action", actions, 1);
	field(c, o, "modifiedCommand", K_STRING, 0);
	field(c, o, "decisionTime", K_COUNT, 1);
	if ((s = enter(c, o, "feedback", 0, &old)) != NULL) {
		field(c, s, "helpful", K_BOOL, 1);
		field(c, s, "accurate", K_BOOL, 1);
		field(c, s, "comment", K_STRING, 0);
		pop(c, old);
	}
	if ((s = enter(c, o, "correction", 0, &old)) != NULL) {
		field_enum(c, s, "type", ctypes, 1);
		field_enum(c, s, "correctClassification", risk_levels, 1);
		pop(c, old);
	}
}

static void
check_performance(struct vctx *c, struct json_object *o)
{
	struct json_object	*s;
	size_t			 old;

	field(c, o, "totalTime", K_MS, 1);
	if ((s = enter(c, o, "stages", 1, &old)) != NULL) {
		field(c, s, "interception", K_MS, 1);
		field(c, s, "classification", K_MS, 1);
		field(c, s, "bypassDetection", K_MS, 1);
		field(c, s, "sensitiveDataRedaction", K_MS, 1);
		field(c, s, "aiAnalysis", K_MS, 0);
		field(c, s, "userPrompt", K_MS, 0);
		pop(c, old);
	}
	if ((s = enter(c, o, "resources", 1, &old)) != NULL) {
		field(c, s, "cpuPercent", K_MS, 1);
		field(c, s, "memoryMB", K_MS, 1);
		field(c, s, "cacheHit", K_BOOL, 1);
		pop(c, old);
	}
}

static void
check_privacy(struct vctx *c, struct json_object *o)
{
	static const char *const levels[] =
		{ "minimal", "standard", "maximum", NULL };
	struct json_object	*s;
	size_t			 old;

	field(c, o, "sensitiveDataDetected", K_BOOL, 1);
	field(c, o, "sensitiveDataTypes", K_STRARRAY, 1);
	if ((s = enter(c, o, "redactionStats", 1, &old)) != NULL) {
		field(c, s, "redactedCount", K_COUNT, 1);
		field(c, s, "redactionPatterns", K_STRARRAY, 1);
		pop(c, old);
	}
	if ((s = enter(c, o, "retention", 1, &old)) != NULL) {
		field(c, s, "expiresAt", K_TIMESTAMP, 1);
		field(c, s, "retentionDays", K_COUNT, 1);
		field_enum(c, s, "anonymizationLevel", levels, 1);
		pop(c, old);
	}
	if ((s = enter(c, o, "consent", 1, &old)) != NULL) {
		field(c, s, "collectionConsent", K_BOOL, 1);
		field(c, s, "sharingConsent", K_BOOL, 1);
		field(c, s, "improvementConsent", K_BOOL, 1);
		pop(c, old);
	}
}

static const struct {
	const char	*key;
	int		 required;
	void		(*fn)(struct vctx *, struct json_object *);
} sections[] = {
	{ "command",		1, check_command },
	{ "context",		1, check_context },
	{ "classification",	1, check_classification },
	{ "aiAnalysis",		0, check_ai },
	{ "userDecision",	1, check_decision },
	{ "performance",	1, check_performance },
	{ "privacy",		1, check_privacy },
};

static void
check_top(struct vctx *c, struct json_object *e)
{
	struct json_object	*o;
	size_t			 i, old;

	if (!json_object_is_type(e, json_type_object)) {
		err(c, "expected an object, got %s", type_name(e));
		return;
	}
	json_object_object_foreach(e, key, val) {
		int	known = strcmp(key, "id") == 0 ||
		    strcmp(key, "timestamp") == 0 ||
		    strcmp(key, "schemaVersion") == 0;

		(void)val;
		for (i = 0; !known && i < sizeof sections /
		    sizeof sections[0]; i++)
			known = strcmp(key, sections[i].key) == 0;
		if (!known) {
			old = push_key(c, key);
			err(c, "unknown top-level field (a new top-level field "
			    "needs a new schemaVersion)");
			pop(c, old);
		}
	}
	if ((o = field(c, e, "id", K_STRING, 1)) != NULL &&
	    !validate_uuid(json_object_get_string(o))) {
		old = push_key(c, "id");
		err(c, "'%s' is not a lowercase UUID v4",
		    json_object_get_string(o));
		pop(c, old);
	}
	field(c, e, "timestamp", K_TIMESTAMP, 1);
	old = push_key(c, "schemaVersion");
	if (!json_object_object_get_ex(e, "schemaVersion", &o))
		err(c, "required field missing");
	else if (!json_object_is_type(o, json_type_string) ||
	    strcmp(json_object_get_string(o), "1.0.0") != 0)
		err(c, "unknown schemaVersion %s (this reader knows 1.0.0)",
		    json_object_to_json_string(o));
	pop(c, old);
	for (i = 0; i < sizeof sections / sizeof sections[0]; i++) {
		if ((o = enter(c, e, sections[i].key, sections[i].required,
		    &old)) != NULL) {
			sections[i].fn(c, o);
			pop(c, old);
		}
	}
}

/* Check a parsed entry. */
int
validate_entry(struct json_object *entry, validate_fn fn, void *arg)
{
	struct vctx	c = { BUF_INIT, fn, arg, 0 };

	buf_adds(&c.path, "$");
	check_top(&c, entry);
	buf_release(&c.path);
	return c.errors;
}

static int
digits(const char *s, int n)
{
	int	i, v = 0;

	for (i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	return v;
}

/* YYYY-MM-DDTHH:MM:SS.mmm(Z|+HH:MM), a real date. */
int
validate_timestamp(const char *s)
{
	static const int mdays[] =
		{ 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	int	y, mo, d, h, mi, se, dim;
	size_t	len = strlen(s);

	if (len != 24 && len != 29)
		return 0;
	if (s[4] != '-' || s[7] != '-' || s[10] != 'T' || s[13] != ':' ||
	    s[16] != ':' || s[19] != '.' || digits(s + 20, 3) < 0)
		return 0;
	y = digits(s, 4);
	mo = digits(s + 5, 2);
	d = digits(s + 8, 2);
	h = digits(s + 11, 2);
	mi = digits(s + 14, 2);
	se = digits(s + 17, 2);
	if (y < 1 || mo < 1 || mo > 12 || d < 1 || h < 0 || h > 23 ||
	    mi < 0 || mi > 59 || se < 0 || se > 60)
		return 0;
	dim = mdays[mo - 1];
	if (mo == 2 && ((y % 4 == 0 && y % 100 != 0) || y % 400 == 0))
		dim = 29;
	if (d > dim)
		return 0;
	if (len == 24)
		return s[23] == 'Z';
	if (s[23] != '+' && s[23] != '-')
		return 0;
	h = digits(s + 24, 2);
	mi = digits(s + 27, 2);
	return s[26] == ':' && h >= 0 && h <= 23 && mi >= 0 && mi <= 59;
}

static int
hexval(char ch)
{
	if (ch >= '0' && ch <= '9')
		return ch - '0';
	if (ch >= 'a' && ch <= 'f')
		return ch - 'a' + 10;
	return -1;
}

/* Parse a lowercase UUID v4 into 16 bytes. */
static int
parse_uuid(const char *s, unsigned char out[16])
{
	int	i, j, hi, lo;

	if (strlen(s) != 36)
		return -1;
	for (i = j = 0; i < 36; ) {
		if (i == 8 || i == 13 || i == 18 || i == 23) {
			if (s[i++] != '-')
				return -1;
			continue;
		}
		if ((hi = hexval(s[i])) < 0 || (lo = hexval(s[i + 1])) < 0)
			return -1;
		out[j++] = (unsigned char)(hi << 4 | lo);
		i += 2;
	}
	if (s[14] != '4' || strchr("89ab", s[19]) == NULL)
		return -1;
	return 0;
}

/* Whether s is a lowercase UUID v4. */
int
validate_uuid(const char *s)
{
	unsigned char	b[16];

	return parse_uuid(s, b) == 0;
}

/* A new validator. */
struct validator *
validator_new(void)
{
	struct validator	*v = xcalloc(1, sizeof *v);

	v->size = 1024;
	v->tab = xcalloc(v->size, sizeof *v->tab);
	return v;
}

/* Free a validator. */
struct validator *
validator_free(struct validator *v)
{
	if (v == NULL)
		return NULL;
	free(v->tab);
	free(v);
	return NULL;
}

static size_t
hash_id(const unsigned char id[16], size_t mask)
{
	uint64_t	h;

	memcpy(&h, id, sizeof h);	/* random bits already */
	h ^= h >> 29;
	h *= 0x9e3779b97f4a7c15ULL;
	return (size_t)(h >> 7) & mask;
}

static struct seen *
lookup(struct validator *v, const unsigned char id[16])
{
	size_t	i = hash_id(id, v->size - 1);

	while (v->tab[i].used && memcmp(v->tab[i].id, id, 16) != 0)
		i = (i + 1) & (v->size - 1);
	return &v->tab[i];
}

static void
grow(struct validator *v)
{
	struct seen	*old = v->tab;
	size_t		 i, n = v->size;

	v->size *= 2;
	v->tab = xcalloc(v->size, sizeof *v->tab);
	for (i = 0; i < n; i++)
		if (old[i].used)
			*lookup(v, old[i].id) = old[i];
	free(old);
}

/* JSON has no NaN or Infinity, though json-c reads them. */
static int
has_nonfinite(struct json_object *o)
{
	size_t	i, n;

	switch (json_object_get_type(o)) {
	case json_type_double:
		return !isfinite(json_object_get_double(o));
	case json_type_array:
		n = json_object_array_length(o);
		for (i = 0; i < n; i++)
			if (has_nonfinite(json_object_array_get_idx(o, i)))
				return 1;
		return 0;
	case json_type_object: {
		json_object_object_foreach(o, key, val) {
			(void)key;
			if (has_nonfinite(val))
				return 1;
		}
		return 0;
	}
	default:
		return 0;
	}
}

static int
ann_err(validate_fn fn, void *arg, const char *path, const char *msg)
{
	if (fn != NULL)
		fn(arg, path, msg);
	return 1;
}

static int
is_one_of(struct json_object *o, const char *a, const char *b,
    const char *c)
{
	const char	*s;

	if (o == NULL || !json_object_is_type(o, json_type_string))
		return 0;
	s = json_object_get_string(o);
	return strcmp(s, a) == 0 || strcmp(s, b) == 0 ||
	    (c != NULL && strcmp(s, c) == 0);
}

/* Check an annotation record (schemas/annotation.schema.json). */
int
validate_annotation(struct json_object *a, validate_fn fn, void *arg)
{
	static const char *const common[] = { "schemaVersion", "kind",
	    "entryId", "timestamp" };
	struct json_object	*o;
	const char		*kind, *allowed[8];
	size_t			 i, na = 0;
	int			 n = 0, found;

	for (i = 0; i < 4; i++) {
		allowed[na++] = common[i];
		if (!json_object_object_get_ex(a, common[i], &o) ||
		    !json_object_is_type(o, json_type_string))
			n += ann_err(fn, arg, common[i], "required string "
			    "field missing");
	}
	if (n > 0)
		return n;
	json_object_object_get_ex(a, "schemaVersion", &o);
	if (strcmp(json_object_get_string(o), "1.0.0") != 0)
		n += ann_err(fn, arg, "$.schemaVersion", "must be \"1.0.0\"");
	json_object_object_get_ex(a, "entryId", &o);
	if (!validate_uuid(json_object_get_string(o)))
		n += ann_err(fn, arg, "$.entryId", "not a lowercase UUID v4");
	json_object_object_get_ex(a, "timestamp", &o);
	if (!validate_timestamp(json_object_get_string(o)))
		n += ann_err(fn, arg, "$.timestamp", "not an ISO 8601 time "
		    "with milliseconds and a zone");
	json_object_object_get_ex(a, "kind", &o);
	kind = json_object_get_string(o);
	if (strcmp(kind, "outcome") == 0) {
		allowed[na++] = "exitStatus";
		allowed[na++] = "durationMs";
		if (!json_object_object_get_ex(a, "exitStatus", &o) ||
		    !json_object_is_type(o, json_type_int) ||
		    json_object_get_int64(o) < 0 ||
		    json_object_get_int64(o) > 255)
			n += ann_err(fn, arg, "$.exitStatus", "must be an "
			    "integer from 0 to 255");
		if (!json_object_object_get_ex(a, "durationMs", &o) ||
		    !(json_object_is_type(o, json_type_int) ||
		    json_object_is_type(o, json_type_double)) ||
		    !(json_object_get_double(o) >= 0))
			n += ann_err(fn, arg, "$.durationMs", "must be a "
			    "number >= 0");
	} else if (strcmp(kind, "feedback") == 0) {
		allowed[na++] = "helpful";
		allowed[na++] = "accurate";
		allowed[na++] = "comment";
		if (!json_object_object_get_ex(a, "helpful", &o) ||
		    !json_object_is_type(o, json_type_boolean))
			n += ann_err(fn, arg, "$.helpful", "must be a boolean");
		if (!json_object_object_get_ex(a, "accurate", &o) ||
		    !json_object_is_type(o, json_type_boolean))
			n += ann_err(fn, arg, "$.accurate", "must be a "
			    "boolean");
		if (json_object_object_get_ex(a, "comment", &o) &&
		    !json_object_is_type(o, json_type_string))
			n += ann_err(fn, arg, "$.comment", "must be a string");
	} else if (strcmp(kind, "correction") == 0) {
		allowed[na++] = "type";
		allowed[na++] = "correctClassification";
		if (!json_object_object_get_ex(a, "type", &o) ||
		    !is_one_of(o, "false_positive", "false_negative", NULL))
			n += ann_err(fn, arg, "$.type", "must be "
			    "false_positive or false_negative");
		if (!json_object_object_get_ex(a, "correctClassification",
		    &o) || !is_one_of(o, "safe", "moderate", "dangerous"))
			n += ann_err(fn, arg, "$.correctClassification",
			    "must be safe, moderate or dangerous");
	} else
		return n + ann_err(fn, arg, "$.kind", "must be outcome, "
		    "feedback or correction");
	/* Closed records: an unknown key needs a new schemaVersion. */
	json_object_object_foreach(a, key, val) {
		(void)val;
		for (found = 0, i = 0; i < na && !found; i++)
			found = strcmp(key, allowed[i]) == 0;
		if (!found)
			n += ann_err(fn, arg, key, "unknown field");
	}
	return n;
}

/* Check one line. */
int
validate_line(struct validator *v, const char *line, size_t len,
    const char *path, int64_t lineno, validate_fn fn, void *arg)
{
	struct json_object	*e, *id;
	struct seen		*s;
	unsigned char		 b[16];
	char			*cause = NULL;
	size_t			 i;
	int			 n;

	for (i = 0; i < len; i++)
		if (line[i] != ' ' && line[i] != '\t' && line[i] != '\r' &&
		    line[i] != '\n')
			break;
	if (i == len) {
		if (fn != NULL)
			fn(arg, "$", "empty line");
		return 1;
	}
	if (dataset_parse_raw(line, len, &e, &cause) != 0) {
		if (fn != NULL)
			fn(arg, "$", cause);
		free(cause);
		return 1;
	}
	if (has_nonfinite(e)) {
		if (fn != NULL)
			fn(arg, "$", "invalid JSON: NaN or Infinity");
		json_object_put(e);
		return 1;
	}
	if (path != NULL && strstr(path, ".annotations.ndjson") != NULL) {
		/* DAY.annotations.ndjson(.gz): annotation records. */
		n = validate_annotation(e, fn, arg);
		json_object_put(e);
		return n;
	}
	n = validate_entry(e, fn, arg);
	if (v != NULL && json_object_object_get_ex(e, "id", &id) &&
	    json_object_is_type(id, json_type_string) &&
	    parse_uuid(json_object_get_string(id), b) == 0) {
		if (v->count * 2 >= v->size)
			grow(v);
		s = lookup(v, b);
		if (s->used) {
			char	msg[4200];

			snprintf(msg, sizeof msg, "duplicate id %s, first "
			    "seen at %s:%lld", json_object_get_string(id),
			    s->path, (long long)s->lineno);
			if (fn != NULL)
				fn(arg, "$.id", msg);
			n++;
		} else {
			memcpy(s->id, b, 16);
			s->path = path;
			s->lineno = lineno;
			s->used = 1;
			v->count++;
		}
	}
	json_object_put(e);
	return n;
}
