/*
 * deliberate log: send one command to the daemon the way a hook would, and
 * wait until the daemon has written its entry.
 */
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "cli.h"
#include "clock.h"
#include "spool.h"
#include "userkey.h"

static const char *
basename_of(const char *s)
{
	const char	*slash = strrchr(s, '/');

	return slash != NULL ? slash + 1 : s;
}

/* Hooks log here only when the daemon is down: no noise for them. */
static int
r_quiet(const char *source)
{
	return strcmp(source, "hook") == 0;
}

/*
 * Keep an event the daemon could not take, sealed, for it to ingest when
 * it is back: an accepted command is never lost.
 */
static void
spool(struct json_object *req, const char *source)
{
	unsigned char	 pk[SPOOL_PK_LEN];
	const char	*msg;
	char		 id[37], *cause = NULL;
	size_t		 len;

	msg = json_object_to_json_string_length(req, JSON_C_TO_STRING_PLAIN,
	    &len);
	if (spool_keys(cli_paths.home, pk, NULL, &cause) != 0 ||
	    spool_put(cli_paths.spool, pk, msg, len, id, &cause) != 0) {
		cli_error("cannot spool the event: %s", cause);
		free(cause);
		return;
	}
	if (!r_quiet(source))
		cli_error("spooled as %s; the daemon records it when it is "
		    "back", id);
}

/* The log subcommand. */
int
cmd_log(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "shell", required_argument, NULL, 's' },
		{ "cwd", required_argument, NULL, 'c' },
		{ "line", required_argument, NULL, 'l' },
		{ "source", required_argument, NULL, 'S' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct json_object	*req, *rep, *av, *id;
	const char		*shell = NULL, *cwd = NULL, *line = NULL, *e;
	const char		*source = "cli";
	char			 cwdbuf[PATH_MAX], eid[37], *tty;
	int			 ch, i, r;
	double			 t0 = clock_mono_ms();

	while ((ch = getopt_long(argc, argv, "+h", longopts, NULL)) != -1) {
		switch (ch) {
		case 's':
			shell = optarg;
			break;
		case 'c':
			cwd = optarg;
			break;
		case 'l':
			line = optarg;
			break;
		case 'S':
			if (strcmp(optarg, "cli") != 0 &&
			    strcmp(optarg, "hook") != 0)
				cli_usage_error("bad --source '%s': want cli "
				    "or hook", optarg);
			source = optarg;
			break;
		case 'h':
			cli_help();
		default:
			cli_usage_error("unknown option '%s'",
			    argv[optind - 1]);
		}
	}
	if (line != NULL && optind != argc)
		cli_usage_error("give either --line or an argv after '--', "
		    "not both");
	if (line == NULL && optind == argc)
		cli_usage_error("nothing to log: give --line 'STRING' or "
		    "-- ARGV...");
	if (cwd != NULL && cwd[0] != '/')
		cli_usage_error("--cwd must be an absolute path: '%s'", cwd);
	if (shell == NULL)
		shell = (e = getenv("SHELL")) != NULL ? basename_of(e) :
		    "unknown";
	if (cwd == NULL)
		cwd = getcwd(cwdbuf, sizeof cwdbuf) != NULL ? cwdbuf : "/";

	req = cli_request("event");
	json_object_object_add(req, "source", json_object_new_string(source));
	/*
	 * The entry's id, chosen here: a daemon too slow to answer in time
	 * gets the event from the socket and from the spool, and records
	 * it once.
	 */
	uuid_v4(eid);
	json_object_object_add(req, "eventId", json_object_new_string(eid));
	if ((e = getenv("DELIBERATE_SESSION")) != NULL && *e != '\0')
		json_object_object_add(req, "session",
		    json_object_new_string(e));
	/* A hook logs a line only when its check got no verdict in time. */
	if (strcmp(source, "hook") == 0)
		json_object_object_add(req, "resend",
		    json_object_new_boolean(1));
	if (line != NULL)
		json_object_object_add(req, "line",
		    json_object_new_string(line));
	else {
		av = json_object_new_array();
		for (i = optind; i < argc; i++)
			json_object_array_add(av,
			    json_object_new_string(argv[i]));
		json_object_object_add(req, "argv", av);
	}
	json_object_object_add(req, "cwd", json_object_new_string(cwd));
	json_object_object_add(req, "shell", json_object_new_string(shell));
	json_object_object_add(req, "pid", json_object_new_int(getpid()));
	json_object_object_add(req, "ppid", json_object_new_int(getppid()));
	json_object_object_add(req, "euid", json_object_new_int64(geteuid()));
	if ((e = getenv("TERM")) != NULL)
		json_object_object_add(req, "term", json_object_new_string(e));
	tty = ttyname(STDIN_FILENO);
	json_object_object_add(req, "tty", json_object_new_string(tty != NULL ?
	    tty : ""));
	json_object_object_add(req, "isTTY",
	    json_object_new_boolean(isatty(STDIN_FILENO)));
	json_object_object_add(req, "interactive",
	    json_object_new_boolean(strcmp(source, "hook") == 0 ||
	    isatty(STDIN_FILENO)));
	json_object_object_add(req, "sudo",
	    json_object_new_boolean(getenv("SUDO_UID") != NULL));
	json_object_object_add(req, "ts",
	    json_object_new_int64(clock_now_ms()));
	json_object_object_add(req, "interceptMs",
	    json_object_new_double(clock_mono_ms() - t0));
	r = cli_call(req, 5000, &rep, r_quiet(source));
	if (r == EXIT_NODAEMON)
		spool(req, source);
	json_object_put(req);
	if (r == EXIT_OK && json_object_object_get_ex(rep, "id", &id) &&
	    isatty(STDOUT_FILENO))
		printf("recorded %s\n", json_object_get_string(id));
	json_object_put(rep);
	return r;
}
