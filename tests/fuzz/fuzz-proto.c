/*
 * Fuzz the wire protocol: proto_parse() on one message, then
 * event_parse() on whatever it accepts, and the reply helpers.
 */
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "buf.h"
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

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct json_object	*req = NULL, *rep;
	struct event		 ev;
	struct buf		 out = BUF_INIT;
	char			*cause = NULL;

	if (proto_parse((const char *)data, size, &req, &cause) != 0) {
		if (cause == NULL)
			abort();	/* the contract: a cause on failure */
		rep = proto_error(NULL, cause);
		proto_append(&out, rep);
		json_object_put(rep);
		free(cause);
		buf_release(&out);
		return 0;
	}
	memset(&ev, 0, sizeof ev);
	if (event_parse(req, &ev, &cause) == 0)
		event_release(&ev);
	else {
		if (cause == NULL)
			abort();
		free(cause);
	}
	rep = proto_reply(req, 1);
	proto_append(&out, rep);
	json_object_put(rep);
	proto_append(&out, req);
	json_object_put(req);
	buf_release(&out);
	return 0;
}
