#include "purge.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "clock.h"
#include "jsonutil.h"
#include "rotate.h"
#include "store.h"
#include "userkey.h"
#include "xmalloc.h"

struct pstate {
	const struct purge_opts	*o;
	struct purge_report	*rep;
	json_tokener		*tok;
	int			 found;
};

/* Whether s is a UUID: 8-4-4-4-12 hex digits, either case. */
int
purge_valid_id(const char *s)
{
	return uuid_valid_anycase(s);
}

static void
count_removed(struct purge_report *rep, struct json_object *e)
{
	struct json_object	*c, *v;
	const char		*name = NULL;
	int64_t			 n = 0;

	rep->removed++;
	if (json_object_object_get_ex(e, "command", &c))
		name = json_str(c, "command");
	if (name != NULL) {
		if (json_object_object_get_ex(rep->commands, name, &v))
			n = json_object_get_int64(v);
		json_object_object_add(rep->commands, name,
		    json_object_new_int64(n + 1));
	}
	if (json_object_object_get_ex(e, "userDecision", &c) &&
	    json_object_object_get_ex(c, "correction", NULL))
		rep->corrections++;
	if (json_object_object_get_ex(e, "performance", &c) &&
	    json_object_object_get_ex(c, "totalTime", &v))
		rep->sum_ms += json_object_get_double(v);
}

/* The filter: 1 keeps the line, 0 drops it. */
static int
purge_line(void *arg, const char *line, size_t len)
{
	struct pstate		*ps = arg;
	struct json_object	*e;
	const char		*s;
	int64_t			 ms;
	int			 drop = 0;

	if (ps->o->what == PURGE_ENTRY &&
	    memmem(line, len, ps->o->entry_id, 36) == NULL)
		return 1;
	if (len > INT32_MAX)
		return 1;
	json_tokener_reset(ps->tok);
	if ((e = json_tokener_parse_ex(ps->tok, line, (int)len)) == NULL)
		return 1;	/* not ours to judge: keep it */
	if (ps->o->what == PURGE_ENTRY)
		drop = (s = json_str(e, "id")) != NULL &&
		    strcasecmp(s, ps->o->entry_id) == 0;
	else if ((s = json_str(e, "timestamp")) != NULL &&
	    clock_parse(s, &ms) == 0)
		drop = ms < ps->o->before_ms;
	if (drop) {
		count_removed(ps->rep, e);
		ps->found = 1;
	}
	json_object_put(e);
	return !drop;
}

static int
count_lines(void *arg, const char *line, size_t len)
{
	int64_t	*n = arg;

	(void)line;
	*n += len > 0;
	return 1;
}

static int
day_of(const char *name, const char *sfx, char day[11])
{
	size_t	len = strlen(name), sl = strlen(sfx);
	int64_t	ms;
	char	tmp[11];

	if (len != 10 + sl || strcmp(name + 10, sfx) != 0)
		return 0;
	memcpy(tmp, name, 10);
	tmp[10] = '\0';
	if (clock_parse(tmp, &ms) != 0)
		return 0;
	memcpy(day, tmp, 11);
	return 1;
}

/* Purge one directory's data files; days collects the touched ones. */
static int
purge_dir(struct pstate *ps, const char *sub, const char *sfx,
    char (**days)[11], size_t *ndays, char **cause)
{
	const struct purge_opts	*o = ps->o;
	DIR			*dp;
	struct dirent		*de;
	char			*dir, *path, *key, day[11], cut[11];
	int64_t			 kept, dropped, before;
	int			 r = 0;

	xasprintf(&dir, "%s/%s", o->data, sub);
	if ((dp = opendir(dir)) == NULL) {
		free(dir);
		return 0;
	}
	if (o->what == PURGE_BEFORE)
		clock_day(o->before_ms, cut);
	while (r == 0 && (de = readdir(dp)) != NULL) {
		if (!day_of(de->d_name, sfx, day))
			continue;
		/* A day after the cut has no entry before it. */
		if (o->what == PURGE_BEFORE && strcmp(day, cut) > 0)
			continue;
		xasprintf(&path, "%s/%s", dir, de->d_name);
		before = ps->rep->removed;
		kept = dropped = 0;
		if (o->what == PURGE_ALL) {
			r = rotate_each_line(path, count_lines, &dropped);
			if (r == -EBADMSG)
				r = 0;	/* a corrupt file goes too */
			if (r == 0 && unlink(path) == -1)
				r = -errno;
			if (r != 0)
				xasprintf(cause, "cannot remove '%s': %s",
				    path, strerror(-r));
			ps->rep->removed += dropped;
		} else
			r = rotate_rewrite(path, purge_line, ps, &kept,
			    &dropped, cause);
		if (r == 0 && dropped > 0) {
			ps->rep->files++;
			xasprintf(&key, "%s/%s", sub, de->d_name);
			json_object_object_add(ps->rep->per_file, key,
			    json_object_new_int64(ps->rep->removed - before));
			free(key);
			*days = xreallocarray(*days, *ndays + 1, sizeof **days);
			memcpy((*days)[(*ndays)++], day, 11);
		}
		free(path);
	}
	closedir(dp);
	free(dir);
	return r;
}

/* The annotations filter: 1 keeps the record, 0 drops it. */
static int
purge_ann_line(void *arg, const char *line, size_t len)
{
	struct pstate		*ps = arg;
	struct json_object	*a;
	const char		*s;
	int64_t			 ms;
	int			 keep = 1;

	if (ps->o->what == PURGE_ENTRY)
		return memmem(line, len, ps->o->entry_id, 36) == NULL;
	if (len > INT32_MAX)
		return 1;
	json_tokener_reset(ps->tok);
	if ((a = json_tokener_parse_ex(ps->tok, line, (int)len)) == NULL)
		return 1;
	if ((s = json_str(a, "timestamp")) != NULL && clock_parse(s, &ms) == 0)
		keep = ms >= ps->o->before_ms;
	json_object_put(a);
	return keep;
}

/*
 * Purge the annotations (docs/annotations.md) with their entries: all of
 * them, the days before the cut and the records older than it, or the
 * records of one entry.  They are not entries: nothing is counted.
 */
static int
purge_annotations(struct pstate *ps, const char *sub, const char *sfx,
    char **cause)
{
	const struct purge_opts	*o = ps->o;
	DIR			*dp;
	struct dirent		*de;
	char			*dir, *path, day[11], cut[11];
	int64_t			 kept, dropped;
	int			 r = 0;

	xasprintf(&dir, "%s/%s", o->data, sub);
	if ((dp = opendir(dir)) == NULL) {
		free(dir);
		return 0;
	}
	if (o->what == PURGE_BEFORE)
		clock_day(o->before_ms, cut);
	while (r == 0 && (de = readdir(dp)) != NULL) {
		if (!day_of(de->d_name, sfx, day))
			continue;
		if (o->what == PURGE_BEFORE && strcmp(day, cut) > 0)
			continue;
		xasprintf(&path, "%s/%s", dir, de->d_name);
		if (o->what == PURGE_ALL || (o->what == PURGE_BEFORE &&
		    strcmp(day, cut) < 0)) {
			if (unlink(path) == -1 && errno != ENOENT) {
				r = -errno;
				xasprintf(cause, "cannot remove '%s': %s",
				    path, strerror(errno));
			}
		} else
			r = rotate_rewrite(path, purge_ann_line, ps, &kept,
			    &dropped, cause);
		free(path);
	}
	closedir(dp);
	free(dir);
	return r;
}

static int
purge_aggregates(struct pstate *ps)
{
	DIR		*dp;
	struct dirent	*de;
	char		*dir, *path;
	size_t		 len;

	xasprintf(&dir, "%s/aggregated", ps->o->data);
	if ((dp = opendir(dir)) == NULL) {
		free(dir);
		return 0;
	}
	while ((de = readdir(dp)) != NULL) {
		len = strlen(de->d_name);
		if (len < 6 || (strcmp(de->d_name + len - 5, ".json") != 0 &&
		    strcmp(de->d_name + len - 4, ".tmp") != 0))
			continue;
		xasprintf(&path, "%s/%s", dir, de->d_name);
		if (unlink(path) == 0 && de->d_name[0] != '.')
			ps->rep->aggregates++;
		free(path);
	}
	closedir(dp);
	free(dir);
	return 0;
}

/* Purge entries. */
int
purge_run(const struct purge_opts *o, struct purge_report *rep,
    char **cause)
{
	struct pstate	  ps;
	char		(*days)[11] = NULL;
	size_t		  ndays = 0;
	int		  lock = -1, r;

	memset(rep, 0, sizeof *rep);
	rep->per_file = json_object_new_object();
	rep->commands = json_object_new_object();
	if ((r = rotate_lock(o->data, o->wait, &lock)) != 0) {
		if (r != -EAGAIN)
			xasprintf(cause, "cannot lock '%s/.rotate.lock': %s",
			    o->data, strerror(-r));
		return r;
	}
	memset(&ps, 0, sizeof ps);
	ps.o = o;
	ps.rep = rep;
	ps.tok = json_tokener_new_ex(64);
	r = purge_dir(&ps, "current", ".ndjson", &days, &ndays, cause);
	if (r == 0)
		r = purge_dir(&ps, "archive", ".ndjson.gz", &days, &ndays,
		    cause);
	if (r == 0)
		r = purge_annotations(&ps, "current", ".annotations.ndjson",
		    cause);
	if (r == 0)
		r = purge_annotations(&ps, "archive",
		    ".annotations.ndjson.gz", cause);
	rotate_crash_point("purged");
	if (r == 0 && o->what == PURGE_ALL)
		r = purge_aggregates(&ps);
	else if (r == 0 && ndays > 0) {
		/* The statistics must forget the removed entries too. */
		r = rotate_aggregate(o->data, days, ndays, cause);
		if (r > 0)
			r = 0;
	}
	if (r == 0 && o->what == PURGE_ENTRY && !ps.found)
		r = -ENOENT;
	json_tokener_free(ps.tok);
	free(days);
	rotate_unlock(lock);
	return r;
}

/* Free a report's contents. */
void
purge_report_release(struct purge_report *rep)
{
	if (rep->per_file != NULL)
		json_object_put(rep->per_file);
	if (rep->commands != NULL)
		json_object_put(rep->commands);
	memset(rep, 0, sizeof *rep);
}

/* The report as JSON. */
struct json_object *
purge_report_json(const struct purge_report *rep)
{
	struct json_object	*o = json_object_new_object();

	json_object_object_add(o, "removed", json_object_new_int64(
	    rep->removed));
	json_object_object_add(o, "files", json_object_new_int(rep->files));
	json_object_object_add(o, "aggregates",
	    json_object_new_int(rep->aggregates));
	json_object_object_add(o, "perFile", json_object_get(rep->per_file));
	return o;
}

/* Subtract the removed entries from the statistics. */
void
purge_adjust_stats(struct store_stats *st, const struct purge_report *rep)
{
	struct json_object	*v;
	int64_t			 n;

	st->total -= rep->removed;
	if (st->total < 0)
		st->total = 0;
	st->corrections -= rep->corrections;
	if (st->corrections < 0)
		st->corrections = 0;
	st->sum_ms -= rep->sum_ms;
	if (st->sum_ms < 0 || st->total == 0)
		st->sum_ms = 0;
	json_object_object_foreach(rep->commands, name, cnt) {
		if (!json_object_object_get_ex(st->commands, name, &v))
			continue;
		n = json_object_get_int64(v) - json_object_get_int64(cnt);
		if (n > 0)
			json_object_object_add(st->commands, name,
			    json_object_new_int64(n));
		else
			json_object_object_del(st->commands, name);
	}
}
