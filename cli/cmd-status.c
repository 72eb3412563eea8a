/*
 * deliberate status: whether the daemon answers, where it keeps things and
 * how many entries today's file holds.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "cli.h"

static const char *
field(struct json_object *o, const char *k)
{
	struct json_object	*v;

	if (!json_object_object_get_ex(o, k, &v))
		return "-";
	return json_object_get_string(v);
}

/* The status subcommand. */
int
cmd_status(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct json_object	*req, *rep;
	int			 ch, json = 0, r;

	while ((ch = getopt_long(argc, argv, "+jh", longopts, NULL)) != -1) {
		switch (ch) {
		case 'j':
			json = 1;
			break;
		case 'h':
			cli_help();
		default:
			cli_usage_error("unknown option '%s'",
			    argv[optind - 1]);
		}
	}
	if (optind != argc)
		cli_usage_error("unexpected argument '%s'", argv[optind]);
	req = cli_request("status");
	r = cli_call(req, 2000, &rep, 0);
	json_object_put(req);
	if (r == EXIT_NODAEMON) {
		printf("daemon: not running\nsocket: %s\ndata: %s\n",
		    cli_paths.socket, cli_paths.data);
		return r;
	}
	if (r != EXIT_OK) {
		json_object_put(rep);
		return r;
	}
	if (json)
		printf("%s\n", json_object_to_json_string_ext(rep,
		    JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE));
	else {
		printf("daemon: running (pid %s, version %s, up %ss)\n",
		    field(rep, "pid"), field(rep, "version"),
		    field(rep, "uptime"));
		printf("socket: %s\n", field(rep, "socket"));
		printf("data: %s\n", field(rep, "dataDir"));
		printf("mode: %s\n", field(rep, "mode"));
		printf("anonymization: %s\n", field(rep, "anonymizationLevel"));
		printf("today: %s entries\n", field(rep, "todayCount"));
		printf("total: %s entries\n", field(rep, "totalEntries"));
		printf("write errors: %s%s\n", field(rep, "writeErrors"),
		    json_object_get_boolean(json_object_object_get(rep,
		    "diskFull")) ? " (disk full)" : "");
		printf("shim drops: %s\n", field(rep, "preloadDrops"));
		if (strcmp(field(rep, "lastError"), "-") != 0)
			printf("last error: %s\n", field(rep, "lastError"));
	}
	json_object_put(rep);
	return EXIT_OK;
}
