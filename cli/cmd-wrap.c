/*
 * deliberate wrap [--mode M] [--shell sh|fish|github]: print the
 * environment that puts a CI job or an agent under the shim, the same one
 * "deliberate run" sets: LD_PRELOAD (the absolute path of
 * libdeliberate.so, ahead of any existing value), DELIBERATE_MODE and
 * DELIBERATE_SOCKET, and the same two pinned for the shim
 * (DELIBERATE_PRELOAD_MODE, DELIBERATE_PRELOAD_SOCKET).
 *
 *	eval "$(deliberate wrap)"			sh, bash, zsh
 *	deliberate wrap --shell fish | source		fish
 *	deliberate wrap --shell github >>"$GITHUB_ENV"	GitHub Actions
 */
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "xmalloc.h"

#define SHIM_NAME	"libdeliberate.so"

/* Print s in single quotes for sh ('\'' for a quote) or fish (\'). */
static void
quote(const char *s, int fish)
{
	putchar('\'');
	for (; *s != '\0'; s++) {
		if (*s == '\'')
			fputs(fish ? "\\'" : "'\\''", stdout);
		else if (*s == '\\' && fish)
			fputs("\\\\", stdout);
		else
			putchar(*s);
	}
	putchar('\'');
}

/* The wrap subcommand. */
int
cmd_wrap(int argc, char **argv)
{
	static const struct option	 opts[] = {
		{ "mode", required_argument, NULL, 'm' },
		{ "shell", required_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const char			*mode = "monitor", *shell = "sh";
	const char			*names[5], *vals[5];
	char				*shim;
	int				 c, i;

	while ((c = getopt_long(argc, argv, "m:s:h", opts, NULL)) != -1) {
		switch (c) {
		case 'm':
			if (strcmp(optarg, "monitor") != 0 &&
			    strcmp(optarg, "enforce") != 0)
				cli_usage_error("bad mode '%s': want monitor "
				    "or enforce", optarg);
			mode = optarg;
			break;
		case 's':
			if (strcmp(optarg, "sh") != 0 &&
			    strcmp(optarg, "fish") != 0 &&
			    strcmp(optarg, "github") != 0)
				cli_usage_error("bad shell '%s': want sh, fish "
				    "or github", optarg);
			shell = optarg;
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
	if ((shim = cli_libfile(SHIM_NAME)) == NULL) {
		cli_error("cannot find %s next to this program or in "
		    "PREFIX/lib/deliberate", SHIM_NAME);
		return EXIT_FAIL;
	}
	names[0] = "LD_PRELOAD";
	vals[0] = shim;
	names[1] = "DELIBERATE_MODE";
	vals[1] = mode;
	names[2] = "DELIBERATE_SOCKET";
	vals[2] = cli_paths.socket;
	names[3] = "DELIBERATE_PRELOAD_MODE";
	vals[3] = mode;
	names[4] = "DELIBERATE_PRELOAD_SOCKET";
	vals[4] = cli_paths.socket;
	for (i = 0; i < 5; i++) {
		if (strcmp(shell, "github") == 0) {
			if (strpbrk(vals[i], "\r\n") != NULL) {
				cli_error("cannot write '%s' to GITHUB_ENV: "
				    "it contains a newline", names[i]);
				free(shim);
				return EXIT_FAIL;
			}
			printf("%s=%s\n", names[i], vals[i]);
		} else if (strcmp(shell, "fish") == 0) {
			printf("set -gx %s ", names[i]);
			quote(vals[i], 1);
			if (i == 0)
				fputs(" $LD_PRELOAD", stdout);
			putchar('\n');
		} else {
			printf("export %s=", names[i]);
			quote(vals[i], 0);
			if (i == 0)
				fputs("\"${LD_PRELOAD:+ $LD_PRELOAD}\"", stdout);
			putchar('\n');
		}
	}
	free(shim);
	return EXIT_OK;
}
