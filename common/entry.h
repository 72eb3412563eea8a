/*
 * The DatasetEntry builder: turns an event, its verdict and its decision
 * into the JSON object that ../shared/seeds/deliberate-dataset-format.md
 * defines.  Every free-text field goes through the redactor here, so
 * nothing raw leaves this module.
 */
#ifndef ENTRY_H
#define ENTRY_H

#include <stddef.h>
#include <stdint.h>

#include "config.h"
#include "sysinfo.h"

struct buf;
struct event;
struct redactor;
struct verdict;

struct entry_env {
	const struct config	*cfg;
	struct redactor		*red;
	const unsigned char	*key;		/* USERKEY_LEN bytes */
	const char		*home;		/* the user's home */
	struct sysstate		 sys;		/* sampled by the caller */
	double			 cpu_percent;	/* the daemon's own, sampled */
	double			 rss_mb;
};

#define WD_HOME		"home"
#define WD_SYSTEM	"system"
#define WD_TMP		"tmp"
#define WD_PROJECT	"project"
#define WD_OTHER	"other"

/*
 * Write the entry as one line of JSON, without the newline, appending to
 * out (the caller resets it); it is not UTF-8-sanitized.  Consumes
 * v->classification (the verdict keeps no reference).  received_ms is the
 * monotonic time the request arrived, for performance.totalTime.  The
 * entry's (redacted) command name replaces the contents of ret_name when
 * it is not NULL; the id and the local day of the timestamp are written
 * to ret_id and ret_day.
 */
void		 entry_write(const struct entry_env *env,
		    const struct event *ev, struct verdict *v,
		    double received_ms, struct buf *out, struct buf *ret_name,
		    char ret_id[37], char ret_day[11]);

/* The seed's workingDirectory type of cwd, and its depth. */
const char	*entry_wd_type(const char *cwd, const char *home,
		    int *ret_depth);

/*
 * The seed's command type of name: builtin, alias or function from the
 * client's hint, builtin from the shells' builtin list, user for programs
 * under home or given by a relative path, else system.
 */
const char	*entry_cmd_type(const char *name, const char *hint,
		    const char *path_env, const char *home);

#endif
