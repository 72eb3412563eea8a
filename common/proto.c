#include "proto.h"

#include <errno.h>
#include <string.h>

#include <json-c/json.h>

#include "buf.h"
#include "xmalloc.h"

static int
fail(char **cause, const char *msg)
{
	if (cause != NULL)
		*cause = xstrdup(msg);
	return -EINVAL;
}

/*
 * One tokener for every message: allocating it (its stack and print
 * buffer) cost as much as parsing a small event.  The daemon and the CLI
 * are single-threaded.
 */
static struct json_tokener	*proto_tok;

/* Parse one message. */
int
proto_parse(const char *msg, size_t len, struct json_object **ret,
    char **cause)
{
	struct json_tokener	*tok;
	struct json_object	*o, *v, *t;
	enum json_tokener_error	 jerr;

	if (len > PROTO_MAX_MSG)
		return fail(cause, "message too large");
	if (memchr(msg, '\0', len) != NULL)
		return fail(cause, "NUL byte in message");
	if (proto_tok == NULL) {
		if ((proto_tok = json_tokener_new_ex(PROTO_MAX_DEPTH)) == NULL)
			return fail(cause, "out of memory");
		json_tokener_set_flags(proto_tok, JSON_TOKENER_STRICT |
		    JSON_TOKENER_VALIDATE_UTF8);
	}
	tok = proto_tok;
	json_tokener_reset(tok);
	o = json_tokener_parse_ex(tok, msg, (int)len);
	jerr = json_tokener_get_error(tok);
	if (o == NULL && jerr == json_tokener_continue)
		jerr = json_tokener_error_parse_eof;
	json_tokener_reset(tok);
	if (o == NULL || jerr != json_tokener_success) {
		if (o != NULL)
			json_object_put(o);
		if (cause != NULL)
			xasprintf(cause, "bad JSON: %s",
			    json_tokener_error_desc(jerr));
		return -EINVAL;
	}
	if (!json_object_is_type(o, json_type_object)) {
		json_object_put(o);
		return fail(cause, "message is not a JSON object");
	}
	if (!json_object_object_get_ex(o, "v", &v) ||
	    !json_object_is_type(v, json_type_int)) {
		json_object_put(o);
		return fail(cause, "missing protocol version \"v\"");
	}
	if (json_object_get_int64(v) != PROTO_VERSION) {
		if (cause != NULL)
			xasprintf(cause, "unsupported protocol version %lld "
			    "(want %d)", (long long)json_object_get_int64(v),
			    PROTO_VERSION);
		json_object_put(o);
		return -EPROTO;
	}
	if (!json_object_object_get_ex(o, "type", &t) ||
	    !json_object_is_type(t, json_type_string)) {
		json_object_put(o);
		return fail(cause, "missing request \"type\"");
	}
	*ret = o;
	return 0;
}

/* Append an object as one line. */
void
proto_append(struct buf *out, struct json_object *obj)
{
	size_t		 n;
	const char	*s;

	s = json_object_to_json_string_length(obj, JSON_C_TO_STRING_PLAIN |
	    JSON_C_TO_STRING_NOSLASHESCAPE, &n);
	buf_add(out, s, n);
	buf_addc(out, '\n');
}

/* A reply skeleton. */
struct json_object *
proto_reply(struct json_object *req, int ok)
{
	struct json_object	*r, *seq;

	r = json_object_new_object();
	json_object_object_add(r, "v", json_object_new_int(PROTO_VERSION));
	json_object_object_add(r, "ok", json_object_new_boolean(ok));
	if (req != NULL && json_object_object_get_ex(req, "seq", &seq))
		json_object_object_add(r, "seq", json_object_get(seq));
	return r;
}

/* An error reply. */
struct json_object *
proto_error(struct json_object *req, const char *msg)
{
	struct json_object	*r;

	r = proto_reply(req, 0);
	json_object_object_add(r, "error", json_object_new_string(msg));
	return r;
}
