/*
 * deliberate feedback: annotate an entry with the user's feedback
 * (docs/annotations.md): was the verdict helpful, was it accurate, and an
 * optional comment, which the daemon redacts before writing it.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "cli.h"

static int
yes_no(const char *opt, const char *s)
{
	if (strcmp(s, "y") == 0 || strcmp(s, "yes") == 0)
		return 1;
	if (strcmp(s, "n") == 0 || strcmp(s, "no") == 0)
		return 0;
	cli_usage_error("%s wants y or n: '%s'", opt, s);
}

/* The target entry of an annotate request: --entry ID, or --last. */
void
cli_annotate_target(struct json_object *req, const char *entry)
{
	const char	*session;

	if (entry != NULL) {
		json_object_object_add(req, "entryId",
		    json_object_new_string(entry));
		return;
	}
	session = getenv("DELIBERATE_SESSION");
	if (session == NULL || *session == '\0')
		cli_usage_error("--last needs DELIBERATE_SESSION (set by the "
		    "shell hooks); use --entry ID");
	json_object_object_add(req, "last", json_object_new_boolean(1));
	json_object_object_add(req, "session",
	    json_object_new_string(session));
}

/* The feedback subcommand. */
int
cmd_feedback(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "last", no_argument, NULL, 'l' },
		{ "entry", required_argument, NULL, 'e' },
		{ "helpful", required_argument, NULL, 'H' },
		{ "accurate", required_argument, NULL, 'a' },
		{ "comment", required_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct json_object	*req, *rep = NULL, *o;
	const char		*entry = NULL, *comment = NULL;
	int			 ch, r, last = 0, helpful = -1, accurate = -1;

	while ((ch = getopt_long(argc, argv, "+h", longopts, NULL)) != -1) {
		switch (ch) {
		case 'l':
			last = 1;
			break;
		case 'e':
			entry = optarg;
			break;
		case 'H':
			helpful = yes_no("--helpful", optarg);
			break;
		case 'a':
			accurate = yes_no("--accurate", optarg);
			break;
		case 'c':
			comment = optarg;
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
	if (helpful == -1 || accurate == -1)
		cli_usage_error("--helpful and --accurate are required");

	req = cli_request("annotate");
	json_object_object_add(req, "kind", json_object_new_string("feedback"));
	cli_annotate_target(req, entry);
	json_object_object_add(req, "helpful",
	    json_object_new_boolean(helpful));
	json_object_object_add(req, "accurate",
	    json_object_new_boolean(accurate));
	if (comment != NULL)
		json_object_object_add(req, "comment",
		    json_object_new_string(comment));
	r = cli_call(req, 2000, &rep, 0);
	if (r == EXIT_OK && json_object_object_get_ex(rep, "entryId", &o))
		printf("feedback recorded for %s\n", json_object_get_string(o));
	json_object_put(req);
	json_object_put(rep);
	return r;
}
