/*
 * deliberate rotate: archive every finished day, recompute the weekly and
 * monthly aggregates and apply retention.  The daemon does the work when
 * it answers (it owns metadata.json); otherwise the CLI does it here.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "buf.h"
#include "cli.h"
#include "config.h"
#include "proto.h"
#include "rotate.h"
#include "store.h"

#define ROTATE_TIMEOUT_MS	(30 * 60 * 1000)

static void
progress(void *arg, const char *day, size_t i, size_t n)
{
	(void)arg;
	fprintf(stderr, "\rrotating %s (%zu/%zu)%s", day, i + 1, n,
	    i + 1 == n ? "\n" : "");
}

static int64_t
num(struct json_object *o, const char *k)
{
	struct json_object	*v;

	return json_object_object_get_ex(o, k, &v) ?
	    json_object_get_int64(v) : 0;
}

static void
print_report(struct json_object *rep, int dry_run)
{
	struct json_object	*a;
	size_t			 i, n;

	if (json_object_object_get_ex(rep, "actions", &a)) {
		n = json_object_array_length(a);
		for (i = 0; i < n; i++)
			printf("%s\n", json_object_get_string(
			    json_object_array_get_idx(a, i)));
	}
	if (dry_run)
		return;
	if (num(rep, "archived") + num(rep, "appended") + num(rep,
	    "recovered") + num(rep, "pruned") + num(rep,
	    "prunedAggregates") + num(rep, "aggregates") == 0) {
		printf("nothing to rotate\n");
		return;
	}
	printf("rotated: %lld days archived, %lld merged, %lld recovered; "
	    "%lld entries (%lld expired dropped); %lld aggregates; "
	    "%lld files and %lld aggregates past retention deleted\n",
	    (long long)num(rep, "archived"), (long long)num(rep, "appended"),
	    (long long)num(rep, "recovered"), (long long)num(rep, "entries"),
	    (long long)num(rep, "expired"), (long long)num(rep, "aggregates"),
	    (long long)num(rep, "pruned"),
	    (long long)num(rep, "prunedAggregates"));
}

/* Rotate without the daemon. */
static int
rotate_local(int dry_run, int quiet)
{
	struct rotate_opts	 o;
	struct rotate_report	 rep;
	struct config		 cfg;
	struct store		 st;
	struct json_object	*j;
	char			*cause = NULL;
	int			 r, have_store;

	config_init(&cfg);
	if (config_load(cli_paths.config, &cfg, NULL) < 0) {
		cli_error("cannot read '%s'", cli_paths.config);
		config_release(&cfg);
		return EXIT_FAIL;
	}
	have_store = store_open(&st, cli_paths.data, &cause) == 0;
	if (!have_store) {
		cli_error("cannot open the dataset: %s", cause);
		free(cause);
		config_release(&cfg);
		return EXIT_FAIL;
	}
	memset(&o, 0, sizeof o);
	o.data = cli_paths.data;
	o.retention_days = cfg.retention_days;
	o.dry_run = dry_run;
	o.store = &st;
	o.level = anon_level_name(cfg.level);
	if (!quiet && isatty(STDERR_FILENO))
		o.progress = progress;
	r = rotate_run(&o, &rep, &cause);
	if (r == -EAGAIN) {
		if (!quiet)
			fprintf(stderr, "deliberate: another rotation is "
			    "running; waiting for it\n");
		o.wait = 1;
		r = rotate_run(&o, &rep, &cause);
	}
	if (r == 0 || r == -EIO) {
		j = rotate_report_json(&rep);
		if (!quiet)
			print_report(j, dry_run);
		json_object_put(j);
		rotate_report_release(&rep);
	}
	if (r != 0)
		cli_error("rotation incomplete: %s", cause != NULL ? cause :
		    strerror(-r));
	free(cause);
	store_close(&st);
	config_release(&cfg);
	return r == 0 ? EXIT_OK : EXIT_FAIL;
}

/* The rotate subcommand. */
int
cmd_rotate(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "dry-run", no_argument, NULL, 'n' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct json_object	*req, *rep, *report, *v;
	int			 ch, dry_run = 0, quiet = 0, r;

	while ((ch = getopt_long(argc, argv, "+nqh", longopts, NULL)) != -1) {
		switch (ch) {
		case 'n':
			dry_run = 1;
			break;
		case 'q':
			quiet = 1;
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
	req = cli_request(PROTO_CONTROL);
	json_object_object_add(req, "op", json_object_new_string("rotate"));
	if (dry_run)
		json_object_object_add(req, "dryRun",
		    json_object_new_boolean(1));
	r = cli_call(req, ROTATE_TIMEOUT_MS, &rep, 1);
	json_object_put(req);
	if (r == EXIT_NODAEMON) {
		json_object_put(rep);
		return rotate_local(dry_run, quiet);
	}
	if (r != EXIT_OK) {
		v = NULL;
		if (rep != NULL)
			json_object_object_get_ex(rep, "error", &v);
		if (v != NULL && strcmp(json_object_get_string(v),
		    "another rotation is running") == 0) {
			if (!quiet)
				printf("another rotation is running; nothing "
				    "to do\n");
			json_object_put(rep);
			return EXIT_OK;
		}
		cli_error("rotation failed: %s", v != NULL ?
		    json_object_get_string(v) : "no reply");
		json_object_put(rep);
		return EXIT_FAIL;
	}
	if (!quiet && json_object_object_get_ex(rep, "report", &report))
		print_report(report, dry_run);
	r = EXIT_OK;
	if (json_object_object_get_ex(rep, "incomplete", &v)) {
		cli_error("rotation incomplete: %s", json_object_get_string(v));
		r = EXIT_FAIL;
	}
	json_object_put(rep);
	return r;
}
