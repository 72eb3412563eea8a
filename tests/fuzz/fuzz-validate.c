/*
 * Fuzz the dataset validator: validate_line() on one raw NDJSON line
 * with a fresh validator (so ids do not pile up across inputs).
 */
#include <stdlib.h>
#include <string.h>

#include "validate.h"

#include "fuzz.h"

static int	nerrors;

static void
count(void *arg, const char *path, const char *msg)
{
	(void)arg;
	if (path == NULL || msg == NULL)
		abort();
	nerrors++;
}

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct validator	*v;
	int			 n;

	if ((v = validator_new()) == NULL)
		return 0;
	nerrors = 0;
	n = validate_line(v, (const char *)data, size, "fuzz.ndjson", 1,
	    count, NULL);
	if (n != nerrors)
		abort();
	/* The same line again: at least its id is now a duplicate. */
	validate_line(v, (const char *)data, size, "fuzz.ndjson", 2, count,
	    NULL);
	validator_free(v);
	return 0;
}
