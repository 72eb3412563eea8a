/*
 * Fuzz redaction with the real redaction-rules/, loaded once:
 * redact_text() and redact_command() at all three levels, checking that
 * every finding's span lies inside the input.
 */
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "redact.h"

#include "fuzz.h"

static struct redactor	*red;

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	char	*cause = NULL;

	(void)argc;
	(void)argv;
	if (redactor_load(fuzz_path("redaction-rules"), &red, &cause) != 0)
		fuzz_die("cannot load the redaction rules", cause);
	redactor_set_username(red, "alice");
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct redact_findings	 f = REDACT_FINDINGS_INIT;
	struct redact_stats	 st = REDACT_STATS_INIT;
	struct redacted_cmd	 rc;
	struct buf		 out = BUF_INIT;
	char			*line;
	size_t			 i;
	int			 level;

	if ((line = malloc(size + 1)) == NULL)
		return 0;
	memcpy(line, data, size);
	line[size] = '\0';
	for (level = ANON_MINIMAL; level <= ANON_MAXIMUM; level++) {
		buf_reset(&out);
		if (redact_text(red, (enum anon_level)level, line, size, &out,
		    &f, &st) == 0) {
			for (i = 0; i < f.n; i++)
				if (f.v[i].start > f.v[i].end ||
				    f.v[i].end > size)
					abort();
		}
		redact_findings_release(&f);
		redact_stats_release(&st);
		memset(&rc, 0, sizeof rc);
		if (redact_command(red, (enum anon_level)level, line, size,
		    &rc, &st) == 0)
			redacted_cmd_release(&rc);
		redact_stats_release(&st);
	}
	buf_release(&out);
	free(line);
	return 0;
}
