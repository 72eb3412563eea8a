/*
 * deliberate classify: judge a command line with the local rule set and
 * print the verdict; no daemon is needed.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "buf.h"
#include "classify.h"
#include "cli.h"
#include "xmalloc.h"

/* The classify subcommand. */
int
cmd_classify(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct classifier	*cls;
	struct verdict		 v;
	struct classify_ctx	 ctx;
	struct buf		 line = BUF_INIT;
	int			 ch, json = 0, i;

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
	if (optind == argc)
		cli_usage_error("no command line to classify");
	for (i = optind; i < argc; i++) {
		if (i > optind)
			buf_addc(&line, ' ');
		buf_adds(&line, argv[i]);
	}
	if ((cls = cli_load_classifier()) == NULL) {
		buf_release(&line);
		return EXIT_FAIL;
	}
	memset(&ctx, 0, sizeof ctx);
	ctx.interactive = 1;
	ctx.tty = 1;
	classify_command(cls, line.data, line.len, &ctx, &v);
	if (json)
		printf("%s\n", json_object_to_json_string_ext(v.classification,
		    JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE));
	else {
		printf("%s (confidence %.2f)", risk_name(v.risk),
		    v.confidence);
		if (v.rule_id != NULL)
			printf(" %s", v.rule_id);
		printf("\n");
		if (v.description != NULL)
			printf("  why: %s\n", v.description);
		if (v.alternative != NULL)
			printf("  safer: %s\n", v.alternative);
	}
	verdict_release(&v);
	classifier_free(cls);
	buf_release(&line);
	return EXIT_OK;
}
