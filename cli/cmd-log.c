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

static const char *
basename_of(const char *s)
{
	const char	*slash = strrchr(s, '/');

	return slash != NULL ? slash + 1 : s;
}

/* The log subcommand. */
int
cmd_log(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "shell", required_argument, NULL, 's' },
		{ "cwd", required_argument, NULL, 'c' },
		{ "line", required_argument, NULL, 'l' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct json_object	*req, *rep, *av, *id;
	const char		*shell = NULL, *cwd = NULL, *line = NULL, *e;
	char			 cwdbuf[PATH_MAX], *tty;
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
	json_object_object_add(req, "source", json_object_new_string("cli"));
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
	    json_object_new_boolean(isatty(STDIN_FILENO)));
	json_object_object_add(req, "sudo",
	    json_object_new_boolean(getenv("SUDO_UID") != NULL));
	json_object_object_add(req, "ts",
	    json_object_new_int64(clock_now_ms()));
	json_object_object_add(req, "interceptMs",
	    json_object_new_double(clock_mono_ms() - t0));
	r = cli_call(req, 5000, &rep, 0);
	json_object_put(req);
	if (r == EXIT_OK && json_object_object_get_ex(rep, "id", &id) &&
	    isatty(STDOUT_FILENO))
		printf("recorded %s\n", json_object_get_string(id));
	json_object_put(rep);
	return r;
}
