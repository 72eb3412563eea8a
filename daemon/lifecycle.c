/*
 * The daemon's side of the data lifecycle: it rotates the finished days
 * at start-up (after downtime) and at every local midnight, and serves
 * the "control" requests of deliberate rotate and deliberate purge
 * between other requests, so no entry is written while files move.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "clock.h"
#include "daemon.h"
#include "jsonutil.h"
#include "log.h"
#include "proto.h"
#include "purge.h"
#include "rotate.h"
#include "xmalloc.h"

#define RETRY_MS	(60 * 1000)	/* when the lock is busy */

static int64_t	next_rotation;

static int
run_rotation(struct daemon *d, int dry_run, const char *why,
    struct json_object **ret_report, char **cause)
{
	struct rotate_opts	 o;
	struct rotate_report	 rep;
	const char		*p, *nl;
	int			 r;

	memset(&o, 0, sizeof o);
	o.data = d->paths.data;
	o.retention_days = d->cfg.retention_days;
	o.dry_run = dry_run;
	o.store = &d->store;
	o.level = anon_level_name(d->cfg.level);
	r = rotate_run(&o, &rep, cause);
	if (r == -EAGAIN)
		return r;
	/* Yesterday's file may be gone; the next append reopens. */
	store_reopen(&d->store);
	for (p = buf_str(&rep.log); *p != '\0'; p = nl + 1) {
		if ((nl = strchr(p, '\n')) == NULL)
			break;
		if (!dry_run)
			log_info("%s: %.*s", why, (int)(nl - p), p);
	}
	if (ret_report != NULL)
		*ret_report = rotate_report_json(&rep);
	rotate_report_release(&rep);
	return r;
}

static void
rotate_now(struct daemon *d, const char *why)
{
	char	*cause = NULL;
	int	 r;

	r = run_rotation(d, 0, why, NULL, &cause);
	if (r == -EAGAIN) {
		log_info("%s: another rotation holds the lock; retrying in "
		    "%d s", why, RETRY_MS / 1000);
		next_rotation = clock_now_ms() + RETRY_MS;
		return;
	}
	if (r != 0) {
		log_warnx("%s: rotation incomplete: %s", why,
		    cause != NULL ? cause : strerror(-r));
		server_set_error(d, "rotation incomplete: %s",
		    cause != NULL ? cause : strerror(-r));
	}
	free(cause);
	next_rotation = clock_next_midnight(clock_now_ms());
}

/* Rotate the days that ended while the daemon was down. */
void
lifecycle_start(struct daemon *d)
{
	rotate_now(d, "start-up rotation");
}

/* Rotate when local midnight has passed. */
void
lifecycle_tick(struct daemon *d)
{
	if (next_rotation != 0 && clock_now_ms() >= next_rotation)
		rotate_now(d, "midnight rotation");
}

static struct json_object *
control_purge(struct daemon *d, struct json_object *req)
{
	struct purge_opts	 o;
	struct purge_report	 rep;
	struct json_object	*v, *reply;
	char			*cause = NULL;
	const char		*s;
	int			 r;

	memset(&o, 0, sizeof o);
	o.data = d->paths.data;
	if (json_object_object_get_ex(req, "all", &v) &&
	    json_object_get_boolean(v))
		o.what = PURGE_ALL;
	else if ((s = json_str(req, "before")) != NULL) {
		if (clock_parse(s, &o.before_ms) != 0)
			return proto_error(req, "bad date for before");
		o.what = PURGE_BEFORE;
	} else if ((s = json_str(req, "entry")) != NULL) {
		if (!purge_valid_id(s))
			return proto_error(req, "bad entry id");
		o.what = PURGE_ENTRY;
		o.entry_id = s;
	} else
		return proto_error(req, "purge wants all, before or entry");
	r = purge_run(&o, &rep, &cause);
	/* Whatever happened, the open day file may have been replaced. */
	store_reopen(&d->store);
	if (r == -EAGAIN) {
		purge_report_release(&rep);
		return proto_error(req, "a rotation is running; try again");
	}
	if (r == 0 && o.what == PURGE_ALL) {
		if (userkey_rotate(d->paths.keyfile, d->key, &cause) != 0) {
			log_warnx("purge: cannot rotate the key: %s", cause);
			r = -EIO;
		}
		json_object_put(d->store.st.commands);
		d->store.st.commands = json_object_new_object();
		d->store.st.total = 0;
		d->store.st.corrections = 0;
		d->store.st.sum_ms = 0;
		d->store.st.created_ms = clock_now_ms();
	} else if (r == 0 || r == -ENOENT)
		purge_adjust_stats(&d->store.st, &rep);
	d->store.dirty = 1;
	store_write_metadata(&d->store, anon_level_name(d->cfg.level),
	    d->cfg.retention_days);
	if (r == -ENOENT) {
		reply = proto_error(req, "no such entry");
		json_object_object_add(reply, "notFound",
		    json_object_new_boolean(1));
	} else if (r != 0) {
		reply = proto_error(req, cause != NULL ? cause :
		    strerror(-r));
	} else {
		log_info("purge: removed %lld entries from %d files",
		    (long long)rep.removed, rep.files);
		reply = proto_reply(req, 1);
		json_object_object_add(reply, "report",
		    purge_report_json(&rep));
	}
	free(cause);
	purge_report_release(&rep);
	return reply;
}

/* Serve a control request: rotate or purge. */
struct json_object *
lifecycle_control(struct daemon *d, struct json_object *req)
{
	struct json_object	*v, *report = NULL, *reply;
	const char		*op = json_str(req, "op");
	char			*cause = NULL;
	int			 r, dry = 0;

	if (op == NULL)
		return proto_error(req, "control wants an op");
	if (strcmp(op, "purge") == 0)
		return control_purge(d, req);
	if (strcmp(op, "rotate") != 0)
		return proto_error(req, "unknown control op");
	if (json_object_object_get_ex(req, "dryRun", &v))
		dry = json_object_get_boolean(v);
	r = run_rotation(d, dry, "rotation", &report, &cause);
	if (r == -EAGAIN)
		return proto_error(req, "another rotation is running");
	reply = proto_reply(req, 1);
	json_object_object_add(reply, "report", report);
	if (r != 0)
		json_object_object_add(reply, "incomplete",
		    json_object_new_string(cause != NULL ? cause :
		    strerror(-r)));
	else
		next_rotation = clock_next_midnight(clock_now_ms());
	free(cause);
	return reply;
}
