/*
 * deliberate correct: annotate an entry with the risk it should have had
 * (docs/annotations.md).  The daemon compares it with the recorded risk
 * (false_negative when raised, false_positive when lowered) and counts the
 * command's shape towards a learned override (deliberate rules --learned).
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "cli.h"

/* The correct subcommand. */
int
cmd_correct(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "last", no_argument, NULL, 'l' },
		{ "entry", required_argument, NULL, 'e' },
		{ "as", required_argument, NULL, 'a' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct json_object	*req, *rep = NULL, *o, *l, *v;
	const char		*entry = NULL, *as = NULL;
	int			 ch, r, last = 0;

	while ((ch = getopt_long(argc, argv, "+h", longopts, NULL)) != -1) {
		switch (ch) {
		case 'l':
			last = 1;
			break;
		case 'e':
			entry = optarg;
			break;
		case 'a':
			as = optarg;
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
	if (last && entry != NULL)
		cli_usage_error("--last and --entry exclude each other");
	if (as == NULL)
		cli_usage_error("--as safe|moderate|dangerous is required");
	if (strcmp(as, "safe") != 0 && strcmp(as, "moderate") != 0 &&
	    strcmp(as, "dangerous") != 0)
		cli_usage_error("--as must be safe, moderate or dangerous: "
		    "'%s'", as);

	req = cli_request("annotate");
	json_object_object_add(req, "kind",
	    json_object_new_string("correction"));
	cli_annotate_target(req, entry);
	json_object_object_add(req, "correctClassification",
	    json_object_new_string(as));
	r = cli_call(req, 2000, &rep, 0);
	if (r == EXIT_OK && json_object_object_get_ex(rep, "entryId", &o)) {
		printf("corrected %s to %s\n", json_object_get_string(o), as);
		if (json_object_object_get_ex(rep, "learned", &l) &&
		    json_object_object_get_ex(l, "patternId", &v)) {
			printf("learned %s", json_object_get_string(v));
			if (json_object_object_get_ex(l, "shape", &v))
				printf(" '%s'", json_object_get_string(v));
			if (json_object_object_get_ex(l, "count", &v))
				printf(": %d", json_object_get_int(v));
			if (json_object_object_get_ex(l, "threshold", &v))
				printf(" of %d", json_object_get_int(v));
			printf("\n");
		}
	}
	json_object_put(req);
	json_object_put(rep);
	return r;
}
