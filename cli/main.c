/*
 * deliberate: the command-line interface.  Subcommands are dispatched from
 * commands[]; a unique prefix of a name is accepted.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>
#include <sodium.h>

#include "cli.h"
#include "classify.h"
#include "client.h"
#include "proto.h"
#include "redact.h"
#include "xmalloc.h"

static const struct cli_command commands[] = {
	{ "check", cmd_check, "[--record] [--shell S] [--format sh|json] "
	    "[--session ID] [--pid N] [--ppid N] [--cwd D] [--timeout MS] "
	    "-- 'LINE'",
	    "ask the daemon for a verdict before running (used by hooks)" },
	{ "check-privacy", cmd_check_privacy, "[FILE|DIR...]",
	    "scan stored entries for anything unredacted" },
	{ "classify", cmd_classify, "[--json] -- 'COMMAND LINE'",
	    "print the risk verdict for a command line" },
	{ "correct", cmd_correct,
	    "[--last | --entry ID] --as safe|moderate|dangerous",
	    "correct the risk of an entry; repeated corrections are learned" },
	{ "daemon", cmd_daemon, "start|stop|status",
	    "manage a background daemon" },
	{ "decision", cmd_decision,
	    "--check-id ID --action A [--time MS] [--modified 'LINE']",
	    "send the answer to a prompted check (used by hooks)" },
	{ "feedback", cmd_feedback, "[--last | --entry ID] --helpful y|n "
	    "--accurate y|n [--comment TEXT]",
	    "say whether the verdict on an entry was helpful and accurate" },
	{ "export", cmd_export, "[--format ndjson|json|training] "
	    "[--since DATE] [--until DATE] [--output FILE]",
	    "write all your stored entries, oldest first (GDPR export)" },
	{ "log", cmd_log, "[--shell S] [--cwd D] [--source cli|hook] "
	    "-- ARGV... | --line 'STRING'",
	    "record a command the way a hook would" },
	{ "purge", cmd_purge, "--all | --before DATE | --entry ID [--yes]",
	    "erase stored entries: all of them, older ones, or one" },
	{ "redact", cmd_redact,
	    "[--level minimal|standard|maximum] [--json] [--jobs N]",
	    "redact lines from stdin with the rule set" },
	{ "rotate", cmd_rotate, "[--dry-run] [--quiet]",
	    "archive finished days, write aggregates, apply retention" },
	{ "rules", cmd_rules, "[--category C] [--risk R] [--json] [ID] | "
	    "--learned [--json] | --forget ID",
	    "list the risk rules, or show one" },
	{ "run", cmd_run, "[--mode M] [--strict] -- CMD [ARGS...]",
	    "run a process tree with every exec recorded" },
	{ "stats", cmd_stats, "[--json] [--since DATE] [--until DATE]",
	    "summarize the stored entries: risks, decisions, timings, days" },
	{ "status", cmd_status, "[--json]",
	    "show whether the daemon answers, and today's count" },
	{ "validate-dataset", cmd_validate_dataset, "FILE|DIR...",
	    "check stored entries against the DatasetEntry contract" },
	{ "wrap", cmd_wrap, "[--mode M] [--shell sh|fish|github]",
	    "print environment lines that put the shim in CI or agent configs" },
	{ NULL, NULL, NULL, NULL }
};

struct paths			 cli_paths;
static const struct cli_command	*current;

/* The running subcommand. */
const struct cli_command *
cli_current(void)
{
	return current;
}

static void
usage(FILE *f)
{
	const struct cli_command	*c;

	fprintf(f, "usage: deliberate [--version] [--help] COMMAND [ARGS]\n\n"
	    "Commands:\n");
	for (c = commands; c->name != NULL; c++)
		fprintf(f, "  %-16s %s\n", c->name, c->summary);
	fprintf(f, "\nRun 'deliberate COMMAND --help' for a command's "
	    "options.  Exit status: 0 ok,\n1 failure, 2 usage, 3 daemon "
	    "unreachable.\n");
}

/* Print an error line to stderr. */
void
cli_error(const char *fmt, ...)
{
	va_list	ap;

	fputs("deliberate: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* A usage error: one line, the usage, exit 2. */
void
cli_usage_error(const char *fmt, ...)
{
	va_list	ap;

	fputs("deliberate: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	if (current != NULL)
		fprintf(stderr, "usage: deliberate %s %s\n", current->name,
		    current->usage);
	else
		usage(stderr);
	exit(EXIT_USAGE);
}

/* Print the subcommand's help and exit 0. */
void
cli_help(void)
{
	printf("usage: deliberate %s %s\n\n%s.\n", current->name,
	    current->usage, current->summary);
	printf("See deliberate(1) for details.\n");
	exit(EXIT_OK);
}

/* Reset getopt. */
void
cli_getopt_reset(void)
{
	optind = 0;
	opterr = 0;
}

/* A new request. */
struct json_object *
cli_request(const char *type)
{
	struct json_object	*o = json_object_new_object();

	json_object_object_add(o, "v", json_object_new_int(PROTO_VERSION));
	json_object_object_add(o, "type", json_object_new_string(type));
	return o;
}

/* One round trip to the daemon. */
int
cli_call(struct json_object *req, int timeout_ms, struct json_object **ret,
    int quiet)
{
	struct json_object	*ok, *err;
	char			*cause = NULL;

	*ret = NULL;
	if (client_call(cli_paths.socket, req, timeout_ms, ret, &cause) != 0) {
		if (!quiet)
			cli_error("daemon unreachable: %s (start it with "
			    "'deliberate daemon start')", cause);
		free(cause);
		return EXIT_NODAEMON;
	}
	if (!json_object_object_get_ex(*ret, "ok", &ok) ||
	    !json_object_get_boolean(ok)) {
		if (!quiet) {
			json_object_object_get_ex(*ret, "error", &err);
			cli_error("daemon error: %s", err != NULL ?
			    json_object_get_string(err) : "unknown");
		}
		return EXIT_FAIL;
	}
	return EXIT_OK;
}

/* Load the redaction rules from the shared data directory. */
struct redactor *
cli_load_redactor(void)
{
	struct redactor	*red = NULL;
	char		*dir, *cause = NULL;

	xasprintf(&dir, "%s/redaction-rules", cli_paths.share);
	if (redactor_load(dir, &red, &cause) != 0) {
		cli_error("cannot load redaction rules: %s", cause);
		free(cause);
		red = NULL;
	}
	free(dir);
	return red;
}

/* Load the risk rules from the shared data directory. */
struct classifier *
cli_load_classifier(void)
{
	struct classifier	*cls = NULL;
	char			*dir, *cause = NULL;

	xasprintf(&dir, "%s/risk-rules", cli_paths.share);
	if (classifier_load(dir, &cls, &cause) != 0) {
		cli_error("cannot load risk rules: %s", cause);
		free(cause);
		cls = NULL;
	}
	free(dir);
	return cls;
}

/* The directory of the running program, or NULL. */
static char *
exe_dir(void)
{
	char	exe[PATH_MAX], *slash;
	ssize_t	n;

	n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	if (n <= 0)
		return NULL;
	exe[n] = '\0';
	if ((slash = strrchr(exe, '/')) == NULL)
		return NULL;
	*slash = '\0';
	return xstrdup(exe);
}

/* A program installed next to this one. */
char *
cli_sibling(const char *name)
{
	char	*dir, *p;

	if ((dir = exe_dir()) != NULL) {
		xasprintf(&p, "%s/%s", dir, name);
		free(dir);
		if (access(p, X_OK) == 0)
			return p;
		free(p);
	}
	return xstrdup(name);
}

/* A library next to this program (build/) or in PREFIX/lib/deliberate. */
char *
cli_libfile(const char *name)
{
	char	*dir, *p, *abs = NULL;

	if ((dir = exe_dir()) == NULL)
		return NULL;
	xasprintf(&p, "%s/%s", dir, name);
	if (access(p, R_OK) != 0) {
		free(p);
		xasprintf(&p, "%s/../lib/deliberate/%s", dir, name);
	}
	if (access(p, R_OK) == 0)
		abs = realpath(p, NULL);
	free(p);
	free(dir);
	return abs;
}

static const struct cli_command *
find_command(const char *name)
{
	const struct cli_command	*c, *found = NULL;
	size_t				 len = strlen(name);
	int				 n = 0;
	char				 list[512] = "";

	for (c = commands; c->name != NULL; c++) {
		if (strcmp(c->name, name) == 0)
			return c;
		if (strncmp(c->name, name, len) == 0) {
			found = c;
			n++;
			if (list[0] != '\0')
				strncat(list, ", ", sizeof list -
				    strlen(list) - 1);
			strncat(list, c->name, sizeof list - strlen(list) - 1);
		}
	}
	if (n == 1)
		return found;
	if (n > 1) {
		cli_error("ambiguous command: %s, could be: %s", name, list);
		exit(EXIT_USAGE);
	}
	return NULL;
}

int
main(int argc, char **argv)
{
	const struct cli_command	*c;
	char				*cause = NULL;

	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0) {
		printf("deliberate %s\n", DELIBERATE_VERSION);
		return EXIT_OK;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
	    strcmp(argv[1], "help") == 0) {
		usage(stdout);
		return EXIT_OK;
	}
	if (argv[1][0] == '-') {
		cli_error("unknown option '%s'", argv[1]);
		usage(stderr);
		return EXIT_USAGE;
	}
	if ((c = find_command(argv[1])) == NULL) {
		cli_error("unknown command '%s'", argv[1]);
		usage(stderr);
		return EXIT_USAGE;
	}
	current = c;
	if (sodium_init() < 0) {
		cli_error("cannot initialise libsodium");
		return EXIT_FAIL;
	}
	if (paths_init(&cli_paths, &cause) != 0) {
		cli_error("%s", cause);
		free(cause);
		return EXIT_FAIL;
	}
	cli_getopt_reset();
	return c->fn(argc - 1, argv + 1);
}
