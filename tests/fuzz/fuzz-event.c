/*
 * Differential fuzzing of the daemon's fast path: whenever event_scan()
 * claims a message, proto_parse() and event_parse() must accept it too
 * and fill exactly the same event, and agree on "ack": false.  A
 * disagreement aborts.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "event.h"
#include "proto.h"

#include "fuzz.h"

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	return 0;
}

static void
same_str(const char *what, const char *a, const char *b)
{
	if (a == NULL && b == NULL)
		return;
	if (a == NULL || b == NULL || strcmp(a, b) != 0) {
		fprintf(stderr, "fuzz-event: %s differs: fast '%s', json-c "
		    "'%s'\n", what, a != NULL ? a : "(null)",
		    b != NULL ? b : "(null)");
		abort();
	}
}

static void
same_num(const char *what, double a, double b)
{
	if (memcmp(&a, &b, sizeof a) != 0 && !(isnan(a) && isnan(b))) {
		fprintf(stderr, "fuzz-event: %s differs: fast %.17g, json-c "
		    "%.17g\n", what, a, b);
		abort();
	}
}

static void
differ(const char *what)
{
	fprintf(stderr, "fuzz-event: %s\n", what);
	abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct json_object	*req = NULL, *t, *ack;
	struct event		 a, b;
	char			*cause = NULL;
	int			 noack = -1, jnoack;

	if (event_scan((const char *)data, size, &a, &noack) != 0) {
		/* Released: nothing may be left behind. */
		if (a.line != NULL || a.source != NULL)
			differ("event_scan failed but left fields set");
		return 0;
	}
	if (noack != 0 && noack != 1)
		differ("noack not set");
	if (proto_parse((const char *)data, size, &req, &cause) != 0) {
		fprintf(stderr, "fuzz-event: proto_parse: %s\n", cause);
		differ("fast path accepted what proto_parse refuses");
	}
	if (!json_object_object_get_ex(req, "type", &t) ||
	    strcmp(json_object_get_string(t), PROTO_EVENT) != 0)
		differ("fast path accepted a request that is not an event");
	jnoack = json_object_object_get_ex(req, "ack", &ack) &&
	    json_object_is_type(ack, json_type_boolean) &&
	    !json_object_get_boolean(ack);
	if (jnoack != noack)
		differ("\"ack\" differs");
	if (event_parse(req, &b, &cause) != 0) {
		fprintf(stderr, "fuzz-event: event_parse: %s\n", cause);
		differ("fast path accepted what event_parse refuses");
	}
	same_str("source", a.source, b.source);
	same_str("line", a.line, b.line);
	same_str("path", a.path, b.path);
	same_str("cwd", a.cwd, b.cwd);
	same_str("tty", a.tty, b.tty);
	same_str("shell", a.shell, b.shell);
	same_str("term", a.term, b.term);
	same_str("session", a.session, b.session);
	same_str("parent", a.parent, b.parent);
	same_str("cmdType", a.cmd_type, b.cmd_type);
	same_str("pathEnv", a.path_env, b.path_env);
	same_str("aliasValue", a.alias_value, b.alias_value);
	same_str("eventId", a.event_id, b.event_id);
	same_num("resend", a.resend, b.resend);
	same_str("entry_id", a.entry_id, b.entry_id);
	same_str("action", a.action, b.action);
	same_str("modifiedCommand", a.modified, b.modified);
	same_num("pid", a.pid, b.pid);
	same_num("ppid", a.ppid, b.ppid);
	same_num("uid", a.uid, b.uid);
	same_num("euid", a.euid, b.euid);
	same_num("interactive", a.interactive, b.interactive);
	same_num("isTTY", a.is_tty, b.is_tty);
	same_num("sudo", a.sudo, b.sudo);
	same_num("truncated", a.truncated, b.truncated);
	same_num("static", a.exe_static, b.exe_static);
	if (a.ts_ms != b.ts_ms)
		differ("ts differs");
	same_num("interceptMs", a.intercept_ms, b.intercept_ms);
	same_num("decisionTime", a.decision_ms, b.decision_ms);
	same_num("decision_ms", a.decision_ms, b.decision_ms);
	same_num("prompted", a.prompted, b.prompted);
	same_num("ai_ms", a.ai_ms, b.ai_ms);
	if (a.ai != NULL || b.ai != NULL)
		differ("ai set by a parser");
	event_release(&a);
	event_release(&b);
	json_object_put(req);
	return 0;
}
