/*
 * Fuzz the config reader: each input is written to a temp file and read
 * with config_load() over the defaults.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "config.h"

#include "fuzz.h"

static char	path[] = "/tmp/deliberate-fuzz-config.XXXXXX";
static int	fd = -1;

static void
cleanup(void)
{
	unlink(path);
}

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	if ((fd = mkstemp(path)) == -1)
		fuzz_die("mkstemp", path);
	atexit(cleanup);
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct config	 cfg;
	struct buf	 errs = BUF_INIT;
	size_t		 i;

	if (ftruncate(fd, 0) == -1 ||
	    pwrite(fd, data, size, 0) != (ssize_t)size)
		return 0;
	config_init(&cfg);
	if (config_load(path, &cfg, &errs) >= 0) {
		if (cfg.mode > MODE_ENFORCE || cfg.level > ANON_MAXIMUM)
			abort();
		for (i = 0; i < cfg.nexclude; i++)
			config_excluded(&cfg, cfg.exclude[i]);
	}
	config_release(&cfg);
	buf_release(&errs);
	return 0;
}
