/*
 * deliberate rules: list the risk rules, or show one in full.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "classify.h"
#include "cli.h"
#include "learn.h"
#include "xmalloc.h"

static void
show(const struct risk_rule_info *ri)
{
	size_t	i;

	printf("%s\n  name: %s\n  category: %s\n  risk: %s (confidence "
	    "%.2f)%s\n  why: %s\n", ri->id, ri->name, ri->category,
	    risk_name(ri->risk), ri->confidence, ri->overridable ? "" :
	    ", not overridable", ri->description != NULL ? ri->description :
	    "-");
	if (ri->alternative != NULL)
		printf("  safer: %s\n", ri->alternative);
	printf("  defined: %s:%d\n", ri->file, ri->line);
	for (i = 0; i < ri->nmatch; i++)
		printf("  matches: %s\n", ri->match[i]);
	for (i = 0; i < ri->nnomatch; i++)
		printf("  does not match: %s\n", ri->nomatch[i]);
}

static struct json_object *
to_json(const struct risk_rule_info *ri)
{
	struct json_object	*o = json_object_new_object();

	json_object_object_add(o, "id", json_object_new_string(ri->id));
	json_object_object_add(o, "name", json_object_new_string(ri->name));
	json_object_object_add(o, "category",
	    json_object_new_string(ri->category));
	json_object_object_add(o, "risk",
	    json_object_new_string(risk_name(ri->risk)));
	json_object_object_add(o, "confidence",
	    json_object_new_double(ri->confidence));
	json_object_object_add(o, "overridable",
	    json_object_new_boolean(ri->overridable));
	if (ri->description != NULL)
		json_object_object_add(o, "description",
		    json_object_new_string(ri->description));
	if (ri->alternative != NULL)
		json_object_object_add(o, "alternative",
		    json_object_new_string(ri->alternative));
	return o;
}

/*
 * rules --learned: list the overrides learned from corrections;
 * rules --forget ID: remove one (the daemon reloads learned.json).
 */
static int
learned_rules(int json, const char *forget)
{
	struct learned	*l;
	struct json_object *arr, *o;
	char		*path, *cause = NULL;
	size_t		 i;
	int		 r;

	xasprintf(&path, "%s/learned.json", cli_paths.home);
	if (learn_load(path, 0, &l, &cause) != 0) {
		cli_error("%s", cause);
		free(cause);
		free(path);
		return EXIT_FAIL;
	}
	r = EXIT_OK;
	if (forget != NULL) {
		if (learn_forget(l, forget) != 0) {
			cli_error("no learned rule '%s'", forget);
			r = EXIT_FAIL;
		} else if (learn_save(l, path) != 0) {
			cli_error("cannot write '%s'", path);
			r = EXIT_FAIL;
		} else
			printf("forgot %s\n", forget);
	} else if (json) {
		arr = json_object_new_array();
		for (i = 0; i < l->n; i++) {
			o = json_object_new_object();
			json_object_object_add(o, "id",
			    json_object_new_string(l->v[i].id));
			json_object_object_add(o, "shape",
			    json_object_new_string(l->v[i].shape));
			json_object_object_add(o, "risk", json_object_new_string(
			    risk_name(l->v[i].risk)));
			json_object_object_add(o, "count",
			    json_object_new_int(l->v[i].count));
			json_object_array_add(arr, o);
		}
		printf("%s\n", json_object_to_json_string_ext(arr,
		    JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE));
		json_object_put(arr);
	} else
		for (i = 0; i < l->n; i++)
			printf("%-26s %-9s %3d  %s\n", l->v[i].id,
			    risk_name(l->v[i].risk), l->v[i].count,
			    l->v[i].shape);
	learn_free(l);
	free(path);
	return r;
}

/* The rules subcommand. */
int
cmd_rules(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "category", required_argument, NULL, 'c' },
		{ "risk", required_argument, NULL, 'r' },
		{ "json", no_argument, NULL, 'j' },
		{ "learned", no_argument, NULL, 'L' },
		{ "forget", required_argument, NULL, 'F' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const struct risk_rule_info	*ri;
	struct classifier		*cls;
	struct json_object		*arr = NULL;
	const char			*category = NULL, *forget = NULL;
	enum risk			 risk = RISK_SAFE;
	size_t				 i, n, shown = 0;
	int				 ch, json = 0, byrisk = 0, learned = 0;

	while ((ch = getopt_long(argc, argv, "+c:r:jh", longopts, NULL)) !=
	    -1) {
		switch (ch) {
		case 'c':
			category = optarg;
			break;
		case 'r':
			if (risk_parse(optarg, &risk) != 0)
				cli_usage_error("bad --risk '%s': want safe, "
				    "moderate or dangerous", optarg);
			byrisk = 1;
			break;
		case 'j':
			json = 1;
			break;
		case 'L':
			learned = 1;
			break;
		case 'F':
			forget = optarg;
			break;
		case 'h':
			cli_help();
		default:
			cli_usage_error("unknown option '%s'",
			    argv[optind - 1]);
		}
	}
	if (argc - optind > 1)
		cli_usage_error("give at most one rule id");
	if (learned || forget != NULL) {
		if (optind < argc || category != NULL || byrisk)
			cli_usage_error("--learned and --forget take no other "
			    "selection");
		return learned_rules(json, forget);
	}
	if ((cls = cli_load_classifier()) == NULL)
		return EXIT_FAIL;
	n = classifier_nrules(cls);
	if (json)
		arr = json_object_new_array();
	for (i = 0; i < n; i++) {
		ri = classifier_rule(cls, i);
		if (optind < argc && strcmp(ri->id, argv[optind]) != 0)
			continue;
		if (category != NULL && strcmp(ri->category, category) != 0)
			continue;
		if (byrisk && ri->risk != risk)
			continue;
		shown++;
		if (json)
			json_object_array_add(arr, to_json(ri));
		else if (optind < argc)
			show(ri);
		else
			printf("%-36s %-9s %.2f  %s\n", ri->id,
			    risk_name(ri->risk), ri->confidence, ri->name);
	}
	if (json) {
		printf("%s\n", json_object_to_json_string_ext(arr,
		    JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE));
		json_object_put(arr);
	}
	classifier_free(cls);
	if (shown == 0 && optind < argc) {
		cli_error("no rule '%s'", argv[optind]);
		return EXIT_FAIL;
	}
	if (shown == 0 && category != NULL) {
		cli_error("no rules in category '%s'", category);
		return EXIT_FAIL;
	}
	return EXIT_OK;
}
