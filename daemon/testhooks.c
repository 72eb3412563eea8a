/*
 * Test-only requests that make the daemon attempt what its sandbox
 * forbids, so tests/integration/t0700-sandbox.sh can prove the filter
 * kills it.  They are off unless DELIBERATE_TEST_HOOKS=1 is in the
 * daemon's environment; why that is harmless is in docs/security.md.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <json-c/json.h>

#include "jsonutil.h"
#include "log.h"
#include "proto.h"
#include "sandbox.h"

static int
enabled(void)
{
	const char	*e = getenv("DELIBERATE_TEST_HOOKS");

	return e != NULL && strcmp(e, "1") == 0;
}

static struct json_object *
errno_reply(struct json_object *req, const char *what, int err)
{
	struct json_object	*rep;

	rep = proto_reply(req, 0);
	json_object_object_add(rep, "error", json_object_new_string(what));
	json_object_object_add(rep, "errno", json_object_new_int(err));
	json_object_object_add(rep, "strerror",
	    json_object_new_string(strerror(err)));
	return rep;
}

/* Answer a test hook request, or return NULL when req is not one. */
struct json_object *
testhooks_request(struct json_object *req)
{
	static char		 name[] = "true";
	static char *const	 argv[] = { name, NULL };
	static char *const	 envp[] = { NULL };
	const char		*type, *op;
	int			 fd;

	type = json_str(req, "type");
	op = json_str(req, "op");
	if (type == NULL || strcmp(type, PROTO_CONTROL) != 0 || op == NULL ||
	    strncmp(op, "test-", 5) != 0 || !enabled())
		return NULL;
	log_warnx("test hook '%s' (sandbox %s)", op, sandbox_name());
	if (strcmp(op, "test-execve") == 0) {
		execve("/bin/true", argv, envp);
		return errno_reply(req, "execve failed", errno);
	}
	if (strcmp(op, "test-socket-inet") == 0) {
		if ((fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0)) == -1)
			return errno_reply(req, "socket failed", errno);
		close(fd);
		return errno_reply(req, "socket succeeded", 0);
	}
	if (strcmp(op, "test-probe") == 0) {
		if (fchown(STDIN_FILENO, getuid(), getgid()) == -1)
			return errno_reply(req, "fchown failed", errno);
		return errno_reply(req, "fchown succeeded", 0);
	}
	return proto_error(req, "unknown test hook");
}
