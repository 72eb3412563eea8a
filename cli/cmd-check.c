/*
 * deliberate check: ask the daemon for a verdict on a command line before
 * it runs.  It is the hooks' fallback when the bash builtin or zsh's
 * zsocket is not available; --format sh prints assignments for eval.
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

static const struct {
	const char	*key;
	const char	*var;
} reply_vars[] = {
	{ "action", "DELIBERATE_ACTION" },
	{ "riskLevel", "DELIBERATE_RISK" },
	{ "patternId", "DELIBERATE_RULE" },
	{ "description", "DELIBERATE_DESC" },
	{ "alternative", "DELIBERATE_ALT" },
	{ "checkId", "DELIBERATE_CHECK_ID" },
	{ "promptTimeout", "DELIBERATE_TIMEOUT" },
	{ "mode", "DELIBERATE_MODE" },
	{ "moderateNote", "DELIBERATE_NOTE" },
	{ "error", "DELIBERATE_ERROR" },
	{ NULL, NULL }
};

/* Print NAME='VALUE' with the value quoted for any POSIX shell. */
static void
print_assign(const char *name, const char *value)
{
	const char	*p;

	printf("%s='", name);
	for (p = value; *p != '\0'; p++) {
		if (*p == '\'')
			fputs("'\\''", stdout);
		else
			putchar(*p);
	}
	fputs("'\n", stdout);
}

static void
print_sh(struct json_object *rep, const char *action)
{
	struct json_object	*o;
	const char		*v;
	int			 i;

	for (i = 0; reply_vars[i].key != NULL; i++) {
		v = "";
		if (rep != NULL &&
		    json_object_object_get_ex(rep, reply_vars[i].key, &o) &&
		    o != NULL)
			v = json_object_get_string(o);
		if (action != NULL && strcmp(reply_vars[i].key, "action") == 0)
			v = action;
		print_assign(reply_vars[i].var, v);
	}
}

static int
parse_pid(const char *s)
{
	char	*end;
	long	 v = strtol(s, &end, 10);

	if (*s == '\0' || *end != '\0' || v < 0 || v > INT_MAX)
		cli_usage_error("not a process id: '%s'", s);
	return (int)v;
}

/* The check subcommand. */
int
cmd_check(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "record", no_argument, NULL, 'r' },
		{ "shell", required_argument, NULL, 's' },
		{ "format", required_argument, NULL, 'f' },
		{ "session", required_argument, NULL, 'S' },
		{ "pid", required_argument, NULL, 'p' },
		{ "ppid", required_argument, NULL, 'P' },
		{ "cwd", required_argument, NULL, 'c' },
		{ "timeout", required_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct json_object	*req, *rep = NULL;
	const char		*shell = "unknown", *format = "sh", *e;
	const char		*session = NULL, *cwd = NULL;
	char			 cwdbuf[PATH_MAX], *tty, *end;
	int			 ch, record = 0, pid = -1, ppid = -1, r;
	long			 timeout = 1000;
	double			 t0 = clock_mono_ms();

	while ((ch = getopt_long(argc, argv, "+h", longopts, NULL)) != -1) {
		switch (ch) {
		case 'r':
			record = 1;
			break;
		case 's':
			shell = optarg;
			break;
		case 'f':
			format = optarg;
			break;
		case 'S':
			session = optarg;
			break;
		case 'p':
			pid = parse_pid(optarg);
			break;
		case 'P':
			ppid = parse_pid(optarg);
			break;
		case 'c':
			cwd = optarg;
			break;
		case 't':
			timeout = strtol(optarg, &end, 10);
			if (*optarg == '\0' || *end != '\0' || timeout < 1 ||
			    timeout > 60000)
				cli_usage_error("--timeout wants milliseconds "
				    "from 1 to 60000: '%s'", optarg);
			break;
		case 'h':
			cli_help();
		default:
			cli_usage_error("unknown option '%s'",
			    argv[optind - 1]);
		}
	}
	if (strcmp(format, "sh") != 0 && strcmp(format, "json") != 0)
		cli_usage_error("--format must be sh or json: '%s'", format);
	if (optind != argc - 1)
		cli_usage_error("give exactly one command line after '--'");
	if (cwd == NULL)
		cwd = getcwd(cwdbuf, sizeof cwdbuf) != NULL ? cwdbuf : "/";

	req = cli_request("check");
	json_object_object_add(req, "record", json_object_new_boolean(record));
	json_object_object_add(req, "source", json_object_new_string("hook"));
	json_object_object_add(req, "line", json_object_new_string(argv[optind]));
	json_object_object_add(req, "cwd", json_object_new_string(cwd));
	json_object_object_add(req, "shell", json_object_new_string(shell));
	json_object_object_add(req, "pid",
	    json_object_new_int(pid >= 0 ? pid : (int)getppid()));
	if (ppid >= 0)
		json_object_object_add(req, "ppid", json_object_new_int(ppid));
	if (session != NULL)
		json_object_object_add(req, "session",
		    json_object_new_string(session));
	if ((e = getenv("TERM")) != NULL)
		json_object_object_add(req, "term", json_object_new_string(e));
	if ((e = getenv("PATH")) != NULL)
		json_object_object_add(req, "pathEnv",
		    json_object_new_string(e));
	tty = ttyname(STDIN_FILENO);
	json_object_object_add(req, "tty", json_object_new_string(tty != NULL ?
	    tty : ""));
	json_object_object_add(req, "isTTY",
	    json_object_new_boolean(isatty(STDIN_FILENO)));
	json_object_object_add(req, "interactive",
	    json_object_new_boolean(strcmp(shell, "unknown") != 0));
	json_object_object_add(req, "sudo",
	    json_object_new_boolean(getenv("SUDO_UID") != NULL));
	json_object_object_add(req, "ts",
	    json_object_new_int64(clock_now_ms()));
	json_object_object_add(req, "interceptMs",
	    json_object_new_double(clock_mono_ms() - t0));
	r = cli_call(req, (int)timeout, &rep, 1);
	json_object_put(req);
	if (r == EXIT_NODAEMON) {
		if (strcmp(format, "sh") == 0)
			print_sh(NULL, "down");
		else
			printf("{\"ok\":false,\"action\":\"down\"}\n");
		json_object_put(rep);
		return EXIT_NODAEMON;
	}
	if (strcmp(format, "json") == 0)
		printf("%s\n", rep != NULL ? json_object_to_json_string_ext(rep,
		    JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE) :
		    "{}");
	else
		print_sh(rep, r == EXIT_OK ? NULL : "allow");
	json_object_put(rep);
	return r;
}
