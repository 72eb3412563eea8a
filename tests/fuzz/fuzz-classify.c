/*
 * Fuzz the classifier with the real risk-rules/, loaded once: every
 * input is classified with no context and as a non-interactive sh child.
 */
#include <stdlib.h>
#include <string.h>

#include "classify.h"

#include "fuzz.h"

static struct classifier	*cls;

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	char	*cause = NULL;

	(void)argc;
	(void)argv;
	if (classifier_load(fuzz_path("risk-rules"), &cls, &cause) != 0)
		fuzz_die("cannot load the risk rules", cause);
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct classify_ctx	 ctx = { "sh", 0, 0, "make", 1 };
	struct verdict		 v;
	char			*line;

	/* The daemon hands the classifier NUL-terminated lines. */
	if ((line = malloc(size + 1)) == NULL)
		return 0;
	memcpy(line, data, size);
	line[size] = '\0';
	classify_command(cls, line, size, NULL, &v);
	if (v.risk > RISK_DANGEROUS || v.confidence < 0 || v.confidence > 1)
		abort();
	verdict_release(&v);
	classify_command(cls, line, size, &ctx, &v);
	verdict_release(&v);
	free(line);
	return 0;
}
