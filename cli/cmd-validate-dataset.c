/*
 * deliberate validate-dataset: check every line of the given files (or
 * of the .ndjson/.ndjson.gz files under the given directories) against
 * the DatasetEntry contract, ids unique across all of them.  One error a
 * line, "file:line: json.path: message", then a summary.  Exit 0 all
 * valid, 1 invalid entries, 2 bad input.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "dataset.h"
#include "progress.h"
#include "validate.h"

struct where {
	const char	*path;
	long long	 lineno;
	int		 quiet;
};

static void
report(void *arg, const char *path, const char *msg)
{
	struct where	*w = arg;

	if (!w->quiet)
		printf("%s:%lld: %s: %s\n", w->path, w->lineno, path, msg);
}

/* The validate-dataset subcommand. */
int
cmd_validate_dataset(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct dataset		*ds;
	struct validator	*v;
	struct dataset_line	 l;
	struct dataset_progress	 pr;
	struct progress		 bar;
	struct where		 w = { NULL, 0, 0 };
	char			*cause = NULL;
	long long		 total = 0, invalid = 0;
	size_t			 nfiles;
	int			 ch, r, unreadable = 0;

	while ((ch = getopt_long(argc, argv, "+qh", longopts, NULL)) != -1) {
		switch (ch) {
		case 'q':
			w.quiet = 1;
			break;
		case 'h':
			cli_help();
		default:
			cli_usage_error("unknown option '%s'",
			    argv[optind - 1]);
		}
	}
	if (optind == argc)
		cli_usage_error("no file or directory given");
	if ((r = dataset_open_paths(argv + optind, (size_t)(argc - optind),
	    &ds, &cause)) != 0) {
		cli_error("%s", cause);
		free(cause);
		return EXIT_USAGE;
	}
	v = validator_new();
	progress_start(&bar, "validate");
	while ((r = dataset_next(ds, &l, &cause)) != 0) {
		if (r == -EFBIG) {
			total++;
			invalid++;
			if (!w.quiet)
				printf("%s:%lld: $: line longer than %d bytes\n",
				    l.path, (long long)l.lineno,
				    DATASET_LINE_MAX);
			free(cause);
			cause = NULL;
			continue;
		}
		if (r < 0) {
			cli_error("%s", cause);
			free(cause);
			cause = NULL;
			unreadable = 1;
			continue;
		}
		total++;
		w.path = l.path;
		w.lineno = (long long)l.lineno;
		if (validate_line(v, l.data, l.len, l.path, l.lineno, report,
		    &w) > 0)
			invalid++;
		if ((total & 255) == 0) {
			dataset_progress(ds, &pr);
			progress_update(&bar, pr.done, pr.total);
		}
	}
	progress_end(&bar);
	dataset_progress(ds, &pr);
	nfiles = pr.nfiles;
	/* The validator keeps pointers to the paths: free it first. */
	validator_free(v);
	dataset_free(ds);
	printf("%lld entries in %zu file%s, %lld invalid\n", total, nfiles,
	    nfiles == 1 ? "" : "s", invalid);
	if (unreadable)
		return EXIT_USAGE;
	return invalid > 0 ? EXIT_FAIL : EXIT_OK;
}
