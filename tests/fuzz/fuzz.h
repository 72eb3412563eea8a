/*
 * Shared by the libFuzzer targets in tests/fuzz/: where the rule sets
 * are (the repository, or $DELIBERATE_SRC), and the libFuzzer entry
 * points' prototypes (for -Wmissing-prototypes).
 */
#ifndef FUZZ_H
#define FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#ifndef FUZZ_SRC_DIR
#define FUZZ_SRC_DIR	"."
#endif

int	LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int	LLVMFuzzerInitialize(int *argc, char ***argv);

/* "<source tree>/<sub>", in a static buffer. */
static inline const char *
fuzz_path(const char *sub)
{
	static char	 path[4096];
	const char	*top = getenv("DELIBERATE_SRC");

	if (top == NULL || *top == '\0')
		top = FUZZ_SRC_DIR;
	snprintf(path, sizeof path, "%s/%s", top, sub);
	return path;
}

/* Give up loudly: a fuzz target without its rules tests nothing. */
static inline void
fuzz_die(const char *what, const char *cause)
{
	fprintf(stderr, "fuzz: %s: %s\n", what, cause != NULL ? cause : "?");
	exit(2);
}

#endif
