/*
 * deliberate check (placeholder until its issue lands).
 */
#include "cli.h"

/* The check subcommand. */
int
cmd_check(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	cli_error("'check' is not available in this build");
	return EXIT_FAIL;
}
