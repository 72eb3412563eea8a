/*
 * The wire protocol between the clients (hooks, shim, CLI) and the daemon.
 * docs/protocol.md is the full description.
 *
 * A connection is a SOCK_STREAM Unix socket.  Each message is one JSON
 * object on one line, terminated by "\n", at most PROTO_MAX_MSG bytes.
 * Fire-and-forget events may instead be sent as single datagrams, at most
 * PROTO_MAX_DGRAM bytes, to the SOCK_DGRAM socket whose path is the
 * stream socket's plus PROTO_DGRAM_SUFFIX; they never get a reply.
 * Every request carries "v": PROTO_VERSION and "type"; every reply carries
 * "v" and either "ok": true or "ok": false with "error".  A request may
 * carry "seq" (any JSON value), which the reply echoes.  With "ack": false
 * the daemon sends no reply (the shim's fire-and-forget events).
 *
 * Bump PROTO_VERSION if any of these change.
 */
#ifndef PROTO_H
#define PROTO_H

#include <stddef.h>

struct buf;
struct json_object;

#define PROTO_VERSION		1
#define PROTO_MAX_MSG		(256 * 1024)
#define PROTO_MAX_DEPTH		16
/* The datagram socket of fire-and-forget events: PATH plus this. */
#define PROTO_DGRAM_SUFFIX	".dgram"
#define PROTO_MAX_DGRAM		(64 * 1024)

/* Request types. */
#define PROTO_EVENT		"event"		/* a command was seen */
#define PROTO_CHECK		"check"		/* classify before running */
#define PROTO_DECISION		"decision"	/* the answer to a check */
#define PROTO_STATUS		"status"	/* counters */
#define PROTO_ANNOTATE		"annotate"	/* outcome/feedback/correction */
#define PROTO_CONTROL		"control"	/* reload, rotate, purge */
#define PROTO_QUIET		"quiet"		/* this connection: no wake-ups */

/*
 * Parse one message (without its newline).  Rejects NUL bytes, invalid
 * UTF-8, nesting deeper than PROTO_MAX_DEPTH, non-objects, a missing or
 * wrong "v" and a missing "type".  Returns 0 with *ret (caller puts) or a
 * negative errno with *cause (caller frees).
 */
int	proto_parse(const char *msg, size_t len, struct json_object **ret,
	    char **cause);

/* Append obj as one compact line plus "\n" to out. */
void	proto_append(struct buf *out, struct json_object *obj);

/* A new reply object: {"v":1,"ok":ok}, echoing req's "seq" if any. */
struct json_object *proto_reply(struct json_object *req, int ok);

/* A new error reply: {"v":1,"ok":false,"error":msg}. */
struct json_object *proto_error(struct json_object *req, const char *msg);

#endif
