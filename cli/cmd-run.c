/*
 * deliberate run (placeholder until its issue lands).
 */
#include "cli.h"

/* The run subcommand. */
int
cmd_run(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	cli_error("'run' is not available in this build");
	return EXIT_FAIL;
}
