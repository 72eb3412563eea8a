/*
 * The deliberate command line.  To add a subcommand:
 *
 *  1. Write cmd-NAME.c with "int cmd_NAME(int argc, char **argv)"; argv[0]
 *     is the subcommand's name.  Parse options with getopt_long, starting
 *     with optind = 1 (cli_getopt_reset() does it).
 *  2. Declare it below and add it to commands[] in main.c, with its
 *     one-line usage and summary.
 *  3. On a bad argument call cli_usage_error(), which prints one line and
 *     the usage and exits 2.  Return EXIT_OK, EXIT_FAIL or EXIT_NODAEMON.
 *  4. Document it in README.md and man/deliberate.1, and add its flags to
 *     the completions in shell-hooks/.
 */
#ifndef CLI_H
#define CLI_H

#include <stdio.h>

#include "paths.h"

struct json_object;
struct classifier;
struct redactor;

#define EXIT_OK		0
#define EXIT_FAIL	1
#define EXIT_USAGE	2
#define EXIT_NODAEMON	3

struct cli_command {
	const char	*name;
	int		(*fn)(int, char **);
	const char	*usage;		/* after "deliberate NAME " */
	const char	*summary;
};

extern struct paths cli_paths;

/* The table entry of the running subcommand. */
const struct cli_command *cli_current(void);

/* Print "deliberate: MSG" and the subcommand's usage; exit 2. */
void	cli_usage_error(const char *fmt, ...)
	    __attribute__((format(printf, 1, 2), noreturn));

/* Print the subcommand's usage and summary to stdout; exit 0. */
void	cli_help(void) __attribute__((noreturn));

/* Print "deliberate: MSG" to stderr. */
void	cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Reset getopt for a subcommand. */
void	cli_getopt_reset(void);

/*
 * Send a request to the daemon and return its reply (caller puts) in
 * *ret.  Returns EXIT_OK, EXIT_NODAEMON (connection failed; message
 * printed unless quiet) or EXIT_FAIL (the daemon answered with an error,
 * which is printed).
 */
int	cli_call(struct json_object *req, int timeout_ms,
	    struct json_object **ret, int quiet);

/* A new request object with "v" and "type". */
struct json_object *cli_request(const char *type);

/*
 * Add the target of an "annotate" request: "entryId", or "last" with the
 * calling shell's DELIBERATE_SESSION (a usage error when it is unset).
 */
void	cli_annotate_target(struct json_object *req, const char *entry);

/* Load the redaction rules; prints the error and returns NULL on failure. */
struct redactor *cli_load_redactor(void);

/* Load the risk rules; prints the error and returns NULL on failure. */
struct classifier *cli_load_classifier(void);

/* The path of a sibling program (deliberated) next to this binary. */
char	*cli_sibling(const char *name);

/*
 * The absolute path of a library next to this binary or in
 * PREFIX/lib/deliberate (caller frees), or NULL.
 */
char	*cli_libfile(const char *name);

int	cmd_check(int, char **);
int	cmd_check_privacy(int, char **);
int	cmd_classify(int, char **);
int	cmd_daemon(int, char **);
int	cmd_correct(int, char **);
int	cmd_decision(int, char **);
int	cmd_export(int, char **);
int	cmd_feedback(int, char **);
int	cmd_log(int, char **);
int	cmd_purge(int, char **);
int	cmd_redact(int, char **);
int	cmd_rotate(int, char **);
int	cmd_rules(int, char **);
int	cmd_run(int, char **);
int	cmd_stats(int, char **);
int	cmd_status(int, char **);
int	cmd_validate_dataset(int, char **);
int	cmd_wrap(int, char **);

#endif
