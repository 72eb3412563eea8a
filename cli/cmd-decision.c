/*
 * deliberate decision: send the user's answer to a prompted check
 * (docs/protocol.md, "decision"); the hooks' fallback client.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "cli.h"

/* The decision subcommand. */
int
cmd_decision(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "check-id", required_argument, NULL, 'i' },
		{ "action", required_argument, NULL, 'a' },
		{ "time", required_argument, NULL, 't' },
		{ "modified", required_argument, NULL, 'm' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct json_object	*req, *rep = NULL;
	const char		*id = NULL, *action = NULL, *mod = NULL;
	char			*end;
	double			 ms = 0;
	int			 ch, r;

	while ((ch = getopt_long(argc, argv, "+h", longopts, NULL)) != -1) {
		switch (ch) {
		case 'i':
			id = optarg;
			break;
		case 'a':
			action = optarg;
			break;
		case 't':
			ms = strtod(optarg, &end);
			if (*optarg == '\0' || *end != '\0' || !(ms >= 0) ||
			    ms >= 1e10)
				cli_usage_error("--time wants milliseconds: "
				    "'%s'", optarg);
			break;
		case 'm':
			mod = optarg;
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
	if (id == NULL || action == NULL)
		cli_usage_error("--check-id and --action are required");
	if (strcmp(action, "execute") != 0 && strcmp(action, "cancel") != 0 &&
	    strcmp(action, "modify") != 0 && strcmp(action, "timeout") != 0)
		cli_usage_error("--action must be execute, cancel, modify or "
		    "timeout: '%s'", action);
	if (strcmp(action, "modify") == 0 && mod == NULL)
		cli_usage_error("--action modify needs --modified 'LINE'");

	req = cli_request("decision");
	json_object_object_add(req, "checkId", json_object_new_string(id));
	json_object_object_add(req, "action", json_object_new_string(action));
	json_object_object_add(req, "decisionTime",
	    json_object_new_double(ms));
	if (mod != NULL)
		json_object_object_add(req, "modifiedCommand",
		    json_object_new_string(mod));
	r = cli_call(req, 2000, &rep, 0);
	json_object_put(req);
	json_object_put(rep);
	return r;
}
