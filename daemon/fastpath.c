/*
 * The trigger file of the shell hooks' fast path (shell-hooks/README.md):
 * <rundir>/triggers holds every word that can make a command line anything
 * but safe, the classifier's classify_triggers() plus the words of learned
 * overrides that are not safe.  A line of plain word characters with none
 * of them is recorded fire-and-forget by the hooks, without waiting for a
 * verdict.  The file is rewritten when the rules, the config or the learned
 * overrides change, and removed when the daemon stops or when an analyzer
 * is configured (every line must then be judged).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "classify.h"
#include "daemon.h"
#include "fileio.h"
#include "learn.h"
#include "log.h"
#include "xmalloc.h"

#define FASTPATH_MAGIC	"deliberate-triggers-v1"

static char *
fastpath_file(const struct daemon *d)
{
	char	*path;

	xasprintf(&path, "%s/triggers", d->paths.rundir);
	return path;
}

void
fastpath_publish(struct daemon *d)
{
	struct buf	 b = BUF_INIT, t = BUF_INIT;
	char		*path = fastpath_file(d);
	int		 r;

	learn_triggers(annotate_learned(d), &t);
	if (d->cls == NULL || d->cfg.nanalyzers > 0 ||
	    classify_triggers(d->cls, &t) != 0) {
		fastpath_withdraw(d);
		goto out;
	}
	buf_adds(&b, FASTPATH_MAGIC " ");
	buf_add(&b, t.data, t.len);
	buf_adds(&b, "\n");
	if ((r = fileio_write_atomic(path, b.data, b.len, 0600)) != 0) {
		errno = -r;
		log_warn("cannot write '%s'; the hooks check every line", path);
		fastpath_withdraw(d);
	}
out:
	buf_release(&t);
	buf_release(&b);
	free(path);
}

void
fastpath_withdraw(struct daemon *d)
{
	char	*path = fastpath_file(d);

	if (unlink(path) != 0 && errno != ENOENT)
		log_warn("cannot remove '%s'", path);
	free(path);
}
