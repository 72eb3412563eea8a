/*
 * Fuzz the shell tokenizer: shtok_split(), shtok_commands() and
 * shtok_substitutions() on every word, checking the spans it returns.
 */
#include <stdlib.h>
#include <string.h>

#include "shtok.h"

#include "fuzz.h"

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
	struct shtok_list	 list = SHTOK_LIST_INIT;
	struct shtok_cmds	 cmds = SHTOK_CMDS_INIT;
	char			**subs;
	size_t			 i, j, nsubs;

	shtok_split((const char *)data, size, &list);
	for (i = 0; i < list.n; i++) {
		if (list.v[i].start > list.v[i].end || list.v[i].end > size)
			abort();
		if (list.v[i].kind != SHTOK_WORD)
			continue;
		subs = NULL;
		nsubs = 0;
		shtok_substitutions(&list.v[i], &subs, &nsubs);
		for (j = 0; j < nsubs; j++)
			free(subs[j]);
		free(subs);
	}
	shtok_commands(&list, &cmds);
	for (i = 0; i < cmds.n; i++) {
		if (cmds.v[i].first + cmds.v[i].n > list.n)
			abort();
		for (j = 0; j < cmds.v[i].nargv; j++)
			if (cmds.v[i].argv[j] >= list.n)
				abort();
	}
	shtok_cmds_release(&cmds);
	shtok_list_release(&list);
	return 0;
}
