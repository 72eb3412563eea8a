/*
 * deliberate purge: the right to erasure.  --all removes every entry,
 * archive and aggregate, resets the statistics and rotates the hashing
 * key; --before DATE and --entry ID rewrite the affected files.  The
 * daemon performs it between two requests when it answers, so no entry
 * written meanwhile is lost and no purged one survives.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "cli.h"
#include "clock.h"
#include "config.h"
#include "proto.h"
#include "purge.h"
#include "store.h"
#include "userkey.h"

#define PURGE_TIMEOUT_MS	(30 * 60 * 1000)

static void
print_report(struct json_object *rep, int all)
{
	struct json_object	*v, *files;

	json_object_object_get_ex(rep, "removed", &v);
	printf("removed %lld entries", (long long)json_object_get_int64(v));
	json_object_object_get_ex(rep, "files", &v);
	printf(" from %d files", json_object_get_int(v));
	if (all) {
		json_object_object_get_ex(rep, "aggregates", &v);
		printf(" and %d aggregates; the statistics were reset and the "
		    "user-id key rotated", json_object_get_int(v));
	}
	printf("\n");
	if (json_object_object_get_ex(rep, "perFile", &files)) {
		json_object_object_foreach(files, name, n)
			printf("  %s: %lld\n", name,
			    (long long)json_object_get_int64(n));
	}
}

/* Purge without the daemon. */
static int
purge_local(struct purge_opts *o)
{
	struct purge_report	 rep;
	struct config		 cfg;
	struct store		 st;
	struct json_object	*j;
	unsigned char		 key[USERKEY_LEN];
	char			*cause = NULL;
	int			 r, ret = EXIT_OK;

	config_init(&cfg);
	config_load(cli_paths.config, &cfg, NULL);
	o->data = cli_paths.data;
	o->wait = 1;
	if (store_open(&st, cli_paths.data, &cause) != 0) {
		cli_error("cannot open the dataset: %s", cause);
		free(cause);
		config_release(&cfg);
		return EXIT_FAIL;
	}
	r = purge_run(o, &rep, &cause);
	if (r == 0 && o->what == PURGE_ALL) {
		if (userkey_rotate(cli_paths.keyfile, key, &cause) != 0) {
			cli_error("cannot rotate the key: %s", cause);
			ret = EXIT_FAIL;
		}
		json_object_put(st.st.commands);
		st.st.commands = json_object_new_object();
		st.st.total = st.st.corrections = 0;
		st.st.sum_ms = 0;
		st.st.created_ms = clock_now_ms();
	} else if (r == 0)
		purge_adjust_stats(&st.st, &rep);
	if (r == 0) {
		if (store_write_metadata(&st, anon_level_name(cfg.level),
		    cfg.retention_days) != 0) {
			cli_error("cannot write metadata.json");
			ret = EXIT_FAIL;
		}
		j = purge_report_json(&rep);
		print_report(j, o->what == PURGE_ALL);
		json_object_put(j);
	} else if (r == -ENOENT) {
		cli_error("no entry '%s'", o->entry_id);
		ret = EXIT_USAGE;
	} else {
		cli_error("purge failed: %s", cause != NULL ? cause :
		    strerror(-r));
		ret = EXIT_FAIL;
	}
	purge_report_release(&rep);
	free(cause);
	store_close(&st);
	config_release(&cfg);
	return ret;
}

static int
confirm(const char *what)
{
	char	line[64];

	fprintf(stderr, "deliberate: this erases %s for good; continue? "
	    "[y/N] ", what);
	fflush(stderr);
	if (fgets(line, sizeof line, stdin) == NULL)
		return 0;
	return strcmp(line, "y\n") == 0 || strcmp(line, "yes\n") == 0 ||
	    strcmp(line, "Y\n") == 0;
}

/* The purge subcommand. */
int
cmd_purge(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "all", no_argument, NULL, 'a' },
		{ "before", required_argument, NULL, 'b' },
		{ "entry", required_argument, NULL, 'e' },
		{ "yes", no_argument, NULL, 'y' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct purge_opts	 o;
	struct json_object	*req, *rep, *v;
	const char		*before = NULL;
	char			 what[128];
	int			 ch, yes = 0, n = 0, r;

	memset(&o, 0, sizeof o);
	while ((ch = getopt_long(argc, argv, "+ab:e:yh", longopts, NULL)) !=
	    -1) {
		switch (ch) {
		case 'a':
			o.what = PURGE_ALL;
			n++;
			break;
		case 'b':
			o.what = PURGE_BEFORE;
			before = optarg;
			if (clock_parse(optarg, &o.before_ms) != 0)
				cli_usage_error("bad date '%s': want "
				    "YYYY-MM-DD or an ISO 8601 time", optarg);
			n++;
			break;
		case 'e':
			o.what = PURGE_ENTRY;
			o.entry_id = optarg;
			if (!purge_valid_id(optarg))
				cli_usage_error("bad entry id '%s': want a "
				    "UUID", optarg);
			n++;
			break;
		case 'y':
			yes = 1;
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
	if (n != 1)
		cli_usage_error("want exactly one of --all, --before and "
		    "--entry");
	if (o.what == PURGE_ALL)
		snprintf(what, sizeof what, "every stored entry");
	else if (o.what == PURGE_BEFORE)
		snprintf(what, sizeof what, "every entry before %s", before);
	else
		snprintf(what, sizeof what, "entry %s", o.entry_id);
	if (!yes) {
		if (!isatty(STDIN_FILENO)) {
			cli_error("refusing to purge without confirmation: "
			    "stdin is not a terminal (pass --yes)");
			return EXIT_USAGE;
		}
		if (!confirm(what)) {
			cli_error("purge cancelled");
			return EXIT_FAIL;
		}
	}

	req = cli_request(PROTO_CONTROL);
	json_object_object_add(req, "op", json_object_new_string("purge"));
	if (o.what == PURGE_ALL)
		json_object_object_add(req, "all", json_object_new_boolean(1));
	else if (o.what == PURGE_BEFORE)
		json_object_object_add(req, "before",
		    json_object_new_string(before));
	else
		json_object_object_add(req, "entry",
		    json_object_new_string(o.entry_id));
	r = cli_call(req, PURGE_TIMEOUT_MS, &rep, 1);
	json_object_put(req);
	if (r == EXIT_NODAEMON) {
		json_object_put(rep);
		return purge_local(&o);
	}
	if (r != EXIT_OK) {
		if (json_object_object_get_ex(rep, "notFound", NULL)) {
			cli_error("no entry '%s'", o.entry_id);
			r = EXIT_USAGE;
		} else {
			v = NULL;
			if (rep != NULL)
				json_object_object_get_ex(rep, "error", &v);
			cli_error("purge failed: %s", v != NULL ?
			    json_object_get_string(v) : "no reply");
		}
		json_object_put(rep);
		return r;
	}
	if (json_object_object_get_ex(rep, "report", &v))
		print_report(v, o.what == PURGE_ALL);
	json_object_put(rep);
	return EXIT_OK;
}
