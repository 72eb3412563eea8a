/*
 * Unit tests of the daemon's fast path, event_scan(): what it claims it
 * must parse exactly like proto_parse() + event_parse(), and what it
 * does not fully understand it must leave to them.  tests/fuzz/fuzz-event.c
 * does the same on random input.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "event.h"
#include "proto.h"

#include "harness.h"

/* Whether the fast path takes msg and agrees with json-c on it. */
static int
agrees(const char *msg, int *ret_noack)
{
	struct json_object	*req;
	struct event		 a, b;
	char			*cause = NULL;
	int			 same;

	if (event_scan(msg, strlen(msg), &a, ret_noack) != 0)
		return 0;
	if (proto_parse(msg, strlen(msg), &req, &cause) != 0) {
		free(cause);
		event_release(&a);
		return -1;
	}
	if (event_parse(req, &b, &cause) != 0) {
		free(cause);
		json_object_put(req);
		event_release(&a);
		return -1;
	}
#define S(f)	((a.f == NULL && b.f == NULL) || (a.f != NULL && \
		    b.f != NULL && strcmp(a.f, b.f) == 0))
	same = S(source) && S(line) && S(path) && S(cwd) && S(tty) &&
	    S(shell) && S(term) && S(session) && S(parent) && S(cmd_type) &&
	    S(path_env) && S(action) && S(modified) && a.pid == b.pid &&
	    a.ppid == b.ppid && a.uid == b.uid && a.euid == b.euid &&
	    a.interactive == b.interactive && a.is_tty == b.is_tty &&
	    a.sudo == b.sudo && a.truncated == b.truncated &&
	    a.exe_static == b.exe_static && a.ts_ms == b.ts_ms &&
	    a.intercept_ms == b.intercept_ms &&
	    a.decision_ms == b.decision_ms;
#undef S
	event_release(&a);
	event_release(&b);
	json_object_put(req);
	return same ? 1 : -1;
}

static void
t_taken(void)
{
	struct event	 ev;
	const char	*msg;
	int		 noack = -1;

	CHECK_INT(agrees("{\"v\":1,\"type\":\"event\",\"ack\":false,"
	    "\"source\":\"preload\",\"path\":\"/usr/bin/true\",\"pid\":42,"
	    "\"uid\":1000,\"static\":false,\"ts\":1767268800000,"
	    "\"interceptMs\":0.012,\"argv\":[\"/usr/bin/true\",\"a b\","
	    "\"it's\"]}", &noack), 1);
	CHECK_INT(noack, 1);
	CHECK_INT(agrees(" {\"v\":1, \"type\":\"event\", \"line\":\"ls\","
	    "\"seq\":7, \"ack\":true, \"x\":[], \"y\":null}\r\n", &noack), 1);
	CHECK_INT(noack, 0);
	CHECK_INT(agrees("{\"v\":1,\"type\":\"event\",\"line\":\"\\\"\\\\"
	    "\\/\\b\\f\\n\\r\\t\\u00e9\\u4E2D\\ud83d\\ude00\"}", &noack), 1);
	CHECK_INT(agrees("{\"v\":1,\"type\":\"event\",\"line\":null,"
	    "\"argv\":[]}", &noack), 1);
	CHECK_INT(agrees("{\"v\":1,\"type\":\"event\",\"line\":\"x\","
	    "\"argv\":7,\"pid\":1.5,\"decisionTime\":1e3,"
	    "\"action\":\"cancel\",\"ack\":\"no\"}", &noack), 1);
	CHECK_INT(noack, 0);
	msg = "{\"v\":1,\"type\":\"event\",\"argv\":[\"a\",\"b c\"]}";
	CHECK(event_scan(msg, strlen(msg), &ev, &noack) == 0);
	CHECK_STR(ev.line, "a 'b c'");
	CHECK_INT(ev.pid, -1);
	CHECK_INT(ev.uid, (uid_t)-1);
	event_release(&ev);
}

static void
t_left(void)
{
	static const char *const msgs[] = {
		"",
		"{}",
		"[]",
		"{\"v\":1,\"type\":\"check\",\"line\":\"x\"}",
		"{\"v\":2,\"type\":\"event\",\"line\":\"x\"}",
		"{\"v\":1.0,\"type\":\"event\",\"line\":\"x\"}",
		"{\"type\":\"event\",\"line\":\"x\"}",
		"{\"v\":1,\"type\":\"event\"}",
		"{\"v\":1,\"type\":\"event\",\"line\":\"x\",\"line\":\"y\"}",
		"{\"v\":1,\"type\":\"event\",\"line\":\"\\ud800\"}",
		"{\"v\":1,\"type\":\"event\",\"line\":\"\\udc00\"}",
		"{\"v\":1,\"type\":\"event\",\"line\":\"\\u0000\"}",
		"{\"v\":1,\"type\":\"event\",\"line\":\"\\x\"}",
		"{\"v\":1,\"type\":\"event\",\"line\":\"\xc0\xaf\"}",
		"{\"v\":1,\"type\":\"event\",\"line\":\"\xed\xa0\x80\"}",
		"{\"v\":1,\"type\":\"event\",\"line\":\"a\tb\"}",
		"{\"v\":1,\"type\":\"event\",\"line\":\"x\",\"seq\":{}}",
		"{\"v\":1,\"type\":\"event\",\"line\":\"x\",\"z\":[1]}",
		"{\"v\":1,\"type\":\"event\",\"line\":\"x\",\"z\":1e999}",
		"{\"v\":1,\"type\":\"event\",\"line\":\"x\",\"z\":12345678901234567890}",
		"{\"v\":1,\"type\":\"event\",\"line\":\"x\",\"z\":01}",
		"{\"v\":1,\"type\":\"event\",\"line\":\"x\",}",
		"{\"v\":1,\"type\":\"event\",\"line\":\"x\"} x",
		"{\"v\":1,\"type\":\"event\",\"line\":\"x\",\"pid\":0}",
		"{\"v\":1,\"type\":\"event\",\"line\":\"x\",\"uid\":-1}",
		"{\"v\":1,\"type\":\"event\",\"line\":\"x\",\"sudo\":1}",
		"{\"v\":1,\"type\":\"event\",\"line\":7}",
		"{\"v\":1,\"type\":\"event\",\"argv\":null}",
		"{\"v\":1,\"type\":\"event\",\"argv\":[\"a\",2]}",
		"{\"v\":1,\"type\":\"event\",\"line\":\"x\",\"action\":\"run\"}",
		"{\"v\":1,\"type\":\"event\",\"li\\u006ee\":\"x\"}",
	};
	struct event	ev;
	size_t		i;
	int		noack;

	for (i = 0; i < sizeof msgs / sizeof msgs[0]; i++) {
		CHECK_INT(event_scan(msgs[i], strlen(msgs[i]), &ev, &noack),
		    -ENOTSUP);
		CHECK(ev.line == NULL && ev.source == NULL);
	}
}

int
main(void)
{
	RUN(t_taken);
	RUN(t_left);
	return harness_done();
}
