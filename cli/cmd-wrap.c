/*
 * deliberate wrap (placeholder until its issue lands).
 */
#include "cli.h"

/* The wrap subcommand. */
int
cmd_wrap(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	cli_error("'wrap' is not available in this build");
	return EXIT_FAIL;
}
