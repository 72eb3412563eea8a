/*
 * deliberate redact: redact lines from stdin with the rule set, as the
 * daemon redacts fullCommand before writing (at standard, free argument
 * values become types).  --json prints per-line findings (rule id, type,
 * byte span) and never the secret itself.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "buf.h"
#include "cli.h"
#include "redact.h"

/* The redact subcommand. */
int
cmd_redact(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "level", required_argument, NULL, 'l' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct redactor		*red;
	struct redact_findings	 f = REDACT_FINDINGS_INIT;
	struct buf		 out = BUF_INIT;
	struct json_object	*o, *arr, *fo;
	enum anon_level		 level = ANON_MINIMAL;
	char			*line = NULL;
	size_t			 cap = 0, i;
	ssize_t			 n;
	long			 lineno = 0;
	int			 ch, json = 0;

	while ((ch = getopt_long(argc, argv, "+l:jh", longopts, NULL)) != -1) {
		switch (ch) {
		case 'l':
			if (anon_level_parse(optarg, &level) != 0)
				cli_usage_error("bad --level '%s': want minimal, "
				    "standard or maximum", optarg);
			break;
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
		cli_usage_error("unexpected argument '%s' (lines are read "
		    "from stdin)", argv[optind]);
	if ((red = cli_load_redactor()) == NULL)
		return EXIT_FAIL;
	while ((n = getline(&line, &cap, stdin)) != -1) {
		lineno++;
		if (n > 0 && line[n - 1] == '\n')
			line[--n] = '\0';
		buf_reset(&out);
		f.n = 0;
		redact_line(red, level, line, (size_t)n, &out, &f, NULL);
		if (!json) {
			fwrite(out.data != NULL ? out.data : "", 1, out.len,
			    stdout);
			putchar('\n');
			continue;
		}
		o = json_object_new_object();
		json_object_object_add(o, "line", json_object_new_int64(lineno));
		json_object_object_add(o, "redacted",
		    json_object_new_string_len(buf_str(&out), (int)out.len));
		arr = json_object_new_array();
		for (i = 0; i < f.n; i++) {
			fo = json_object_new_object();
			json_object_object_add(fo, "ruleId",
			    json_object_new_string(f.v[i].rule_id));
			json_object_object_add(fo, "type",
			    json_object_new_string(f.v[i].type));
			json_object_object_add(fo, "label",
			    json_object_new_string(f.v[i].label));
			json_object_object_add(fo, "start",
			    json_object_new_int64((int64_t)f.v[i].start));
			json_object_object_add(fo, "end",
			    json_object_new_int64((int64_t)f.v[i].end));
			json_object_array_add(arr, fo);
		}
		json_object_object_add(o, "findings", arr);
		printf("%s\n", json_object_to_json_string_ext(o,
		    JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE));
		json_object_put(o);
	}
	free(line);
	buf_release(&out);
	redact_findings_release(&f);
	redactor_free(red);
	return ferror(stdout) ? EXIT_FAIL : EXIT_OK;
}
