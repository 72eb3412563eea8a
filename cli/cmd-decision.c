/*
 * deliberate decision (placeholder until its issue lands).
 */
#include "cli.h"

/* The decision subcommand. */
int
cmd_decision(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	cli_error("'decision' is not available in this build");
	return EXIT_FAIL;
}
