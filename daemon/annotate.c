/*
 * Annotations (docs/annotations.md): the "annotate" request appends an
 * outcome, feedback or correction record, linked by entry id, to
 * learning-data/current/DAY.annotations.ndjson; entries themselves are
 * never rewritten.  A small ring remembers the last entries written, with
 * their session, day, risk and command shape, so "last": true finds the
 * calling shell's last entry and a correction can be learned from
 * (learn.h) without reading the dataset back.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "buf.h"
#include "classify.h"
#include "clock.h"
#include "daemon.h"
#include "event.h"
#include "jsonutil.h"
#include "learn.h"
#include "log.h"
#include "proto.h"
#include "redact.h"
#include "userkey.h"
#include "xmalloc.h"

#define RECENT_MAX	128

struct recent {
	char		 id[37];
	char		 session[96];
	char		 day[11];
	enum risk	 risk;
	char		*shape;
	int		 has_outcome;
};

static struct recent	 recent[RECENT_MAX];
static size_t		 recent_next;
static struct learned	*learned;
static int64_t		 learned_gen = -1;

/* Remember an entry just written, for "last" and for learning. */
void
annotate_note_entry(struct daemon *d, const struct event *ev,
    const struct verdict *v, const char *id)
{
	struct recent	*r = &recent[recent_next++ % RECENT_MAX];

	free(r->shape);
	memset(r, 0, sizeof *r);
	snprintf(r->id, sizeof r->id, "%s", id);
	snprintf(r->session, sizeof r->session, "%s",
	    ev->session != NULL ? ev->session : "");
	snprintf(r->day, sizeof r->day, "%s", d->store.day);
	r->risk = v->risk;
	r->shape = learn_shape(ev->line);
}

static char *
learned_path(const struct daemon *d)
{
	char	*path;

	xasprintf(&path, "%s/learned.json", d->paths.home);
	return path;
}

/* The learned overrides, reread when learned_gen moves (server_tick). */
struct learned *
annotate_learned(struct daemon *d)
{
	char	*path, *cause = NULL;

	if (learned == NULL || learned_gen != d->learned_gen) {
		path = learned_path(d);
		learned = learn_free(learned);
		if (learn_load(path, d->cfg.learn_threshold, &learned,
		    &cause) != 0) {
			log_warnx("%s, ignoring", cause);
			free(cause);
			learn_load("/nonexistent", d->cfg.learn_threshold,
			    &learned, NULL);
		}
		free(path);
		learned_gen = d->learned_gen;
	}
	learned->threshold = d->cfg.learn_threshold;
	learned->cls = d->cls;
	return learned;
}

static struct recent *
recent_find(const char *id, const char *session)
{
	size_t	i, k;

	for (i = 0; i < RECENT_MAX; i++) {
		k = (recent_next + RECENT_MAX - 1 - i) % RECENT_MAX;
		if (recent[k].id[0] == '\0')
			continue;
		if (strcmp(id != NULL ? recent[k].id : recent[k].session,
		    id != NULL ? id : session) == 0)
			return &recent[k];
	}
	return NULL;
}

/*
 * Look an entry up in the day files of current/, newest first: its day,
 * risk and shape.  Returns 0 or -ENOENT.
 */
static int
find_entry(struct daemon *d, const char *id, struct recent *ret)
{
	struct dirent	**names = NULL;
	struct json_object *e, *o;
	FILE		*f;
	char		 needle[64], *path, *line = NULL;
	size_t		 cap = 0, len;
	int		 n, i, found = 0;
	enum risk	 risk;

	snprintf(needle, sizeof needle, "\"id\":\"%s\"", id);
	if ((n = scandir(d->store.current, &names, NULL, alphasort)) < 0)
		return -ENOENT;
	for (i = n - 1; i >= 0; i--) {
		len = strlen(names[i]->d_name);
		if (found || len != 17 ||
		    strcmp(names[i]->d_name + 10, ".ndjson") != 0)
			continue;
		xasprintf(&path, "%s/%s", d->store.current, names[i]->d_name);
		f = fopen(path, "re");
		free(path);
		if (f == NULL)
			continue;
		while (!found && getline(&line, &cap, f) != -1) {
			if (strstr(line, needle) == NULL ||
			    (e = json_tokener_parse(line)) == NULL)
				continue;
			memset(ret, 0, sizeof *ret);
			snprintf(ret->id, sizeof ret->id, "%s", id);
			memcpy(ret->day, names[i]->d_name, 10);
			if (json_object_object_get_ex(e, "classification",
			    &o) && json_object_object_get_ex(o, "riskLevel",
			    &o) && risk_parse(json_object_get_string(o),
			    &risk) == 0)
				ret->risk = risk;
			if (json_object_object_get_ex(e, "command", &o) &&
			    json_object_object_get_ex(o, "fullCommand", &o))
				ret->shape = learn_shape(
				    json_object_get_string(o));
			json_object_put(e);
			found = 1;
		}
		fclose(f);
	}
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	free(line);
	return found ? 0 : -ENOENT;
}

static int
get_bool(struct json_object *req, const char *key, int *ret)
{
	struct json_object	*o;

	if (!json_object_object_get_ex(req, key, &o) ||
	    !json_object_is_type(o, json_type_boolean))
		return -1;
	*ret = json_object_get_boolean(o);
	return 0;
}

static const char *
get_string(struct json_object *req, const char *key)
{
	struct json_object	*o;

	if (!json_object_object_get_ex(req, key, &o) ||
	    !json_object_is_type(o, json_type_string))
		return NULL;
	return json_object_get_string(o);
}

/* Fill rec with the fields of kind; returns NULL or an error message. */
static const char *
add_fields(struct daemon *d, struct json_object *req, const char *kind,
    struct recent *t, struct json_object *rec, struct json_object *rep)
{
	const struct learned_shape	*ls;
	struct json_object		*o, *lj;
	struct buf			 b = BUF_INIT;
	const char			*s, *type;
	enum risk			 to;
	double				 ms = 0;
	int				 helpful, accurate;
	char				*path;

	if (strcmp(kind, "outcome") == 0) {
		if (!json_object_object_get_ex(req, "exitStatus", &o) ||
		    !json_object_is_type(o, json_type_int) ||
		    json_object_get_int64(o) < 0 ||
		    json_object_get_int64(o) > 255)
			return "field \"exitStatus\" must be an integer "
			    "from 0 to 255";
		json_object_object_add(rec, "exitStatus",
		    json_object_new_int((int)json_object_get_int64(o)));
		if (json_object_object_get_ex(req, "durationMs", &o)) {
			if (!json_object_is_type(o, json_type_int) &&
			    !json_object_is_type(o, json_type_double))
				return "field \"durationMs\" must be a number";
			ms = json_object_get_double(o);
			if (!(ms >= 0 && ms < 1e12))
				return "field \"durationMs\" out of range";
		}
		json_object_object_add(rec, "durationMs", json_num(ms));
		return NULL;
	}
	if (strcmp(kind, "feedback") == 0) {
		if (get_bool(req, "helpful", &helpful) != 0 ||
		    get_bool(req, "accurate", &accurate) != 0)
			return "fields \"helpful\" and \"accurate\" must be "
			    "booleans";
		json_object_object_add(rec, "helpful",
		    json_object_new_boolean(helpful));
		json_object_object_add(rec, "accurate",
		    json_object_new_boolean(accurate));
		if (json_object_object_get_ex(req, "comment", &o)) {
			if ((s = get_string(req, "comment")) == NULL)
				return "field \"comment\" must be a string";
			redact_text(d->red, d->cfg.level, s, strlen(s), &b,
			    NULL, NULL);
			json_object_object_add(rec, "comment",
			    json_object_new_string(buf_str(&b)));
			buf_release(&b);
		}
		return NULL;
	}
	/* A correction. */
	if ((s = get_string(req, "correctClassification")) == NULL ||
	    risk_parse(s, &to) != 0)
		return "field \"correctClassification\" must be safe, "
		    "moderate or dangerous";
	/* "type" is the request's own: the correction's is correctionType. */
	if ((type = get_string(req, "correctionType")) == NULL) {
		if (to == t->risk)
			return "the entry is already classified so";
		type = to < t->risk ? "false_positive" : "false_negative";
	} else if (strcmp(type, "false_positive") != 0 &&
	    strcmp(type, "false_negative") != 0)
		return "field \"correctionType\" must be false_positive or "
		    "false_negative";
	json_object_object_add(rec, "type", json_object_new_string(type));
	json_object_object_add(rec, "correctClassification",
	    json_object_new_string(risk_name(to)));
	d->store.st.corrections++;
	d->store.dirty = 1;
	if (t->shape == NULL || *t->shape == '\0' || to == t->risk)
		return NULL;
	/* Learn it: count the shape and save the table. */
	ls = learn_count(annotate_learned(d), t->shape, to);
	lj = json_object_new_object();
	json_object_object_add(lj, "patternId", json_object_new_string(ls->id));
	json_object_object_add(lj, "shape", json_object_new_string(ls->shape));
	json_object_object_add(lj, "count", json_object_new_int(ls->count));
	json_object_object_add(lj, "threshold",
	    json_object_new_int(learned->threshold));
	json_object_object_add(rep, "learned", lj);
	path = learned_path(d);
	if (learn_save(learned, path) != 0)
		log_warn("cannot write '%s', ignoring", path);
	free(path);
	/* Our own write: nothing to reread. */
	free(d->learned_stamp);
	d->learned_stamp = daemon_learned_stamp(d);
	/* A shape learned as risky may add a trigger word. */
	if (to != RISK_SAFE)
		fastpath_publish(d);
	return NULL;
}

/* The "annotate" request. */
struct json_object *
annotate_request(struct daemon *d, struct json_object *req)
{
	struct json_object	*rec, *rep, *o;
	struct recent		*t, found;
	const char		*kind, *id, *session, *err, *line;
	char			 ts[ISO8601_LEN];
	size_t			 len;
	int			 last = 0, r;

	memset(&found, 0, sizeof found);
	kind = get_string(req, "kind");
	if (kind == NULL || (strcmp(kind, "outcome") != 0 &&
	    strcmp(kind, "feedback") != 0 && strcmp(kind, "correction") != 0))
		return proto_error(req, "field \"kind\" must be outcome, "
		    "feedback or correction");
	id = get_string(req, "entryId");
	if (json_object_object_get_ex(req, "last", &o) &&
	    (!json_object_is_type(o, json_type_boolean) ||
	    !(last = json_object_get_boolean(o))))
		return proto_error(req, "field \"last\" must be true");
	if ((id == NULL) == !last)
		return proto_error(req, "give either \"entryId\" or "
		    "\"last\": true");
	if (id != NULL) {
		if (!uuid_valid(id))
			return proto_error(req, "field \"entryId\" must be a "
			    "lowercase UUID");
		if ((t = recent_find(id, NULL)) == NULL) {
			if (find_entry(d, id, &found) != 0)
				return proto_error(req, "unknown entry");
			t = &found;
		}
	} else {
		if ((session = get_string(req, "session")) == NULL ||
		    *session == '\0')
			return proto_error(req, "\"last\" needs a \"session\"");
		if ((t = recent_find(NULL, session)) == NULL)
			return proto_error(req, "no entry recorded for this "
			    "session");
	}
	rep = proto_reply(req, 1);
	json_object_object_add(rep, "entryId", json_object_new_string(t->id));
	if (strcmp(kind, "outcome") == 0 && t != &found) {
		/* One outcome per entry: a prompt redrawn adds nothing. */
		if (t->has_outcome) {
			json_object_object_add(rep, "duplicate",
			    json_object_new_boolean(1));
			return rep;
		}
	}
	rec = json_object_new_object();
	json_object_object_add(rec, "schemaVersion",
	    json_object_new_string("1.0.0"));
	json_object_object_add(rec, "kind", json_object_new_string(kind));
	json_object_object_add(rec, "entryId", json_object_new_string(t->id));
	clock_iso8601(clock_now_ms(), ts);
	json_object_object_add(rec, "timestamp", json_object_new_string(ts));
	if ((err = add_fields(d, req, kind, t, rec, rep)) != NULL) {
		json_object_put(rec);
		json_object_put(rep);
		free(found.shape);
		return proto_error(req, err);
	}
	line = json_object_to_json_string_length(rec, JSON_C_TO_STRING_PLAIN |
	    JSON_C_TO_STRING_NOSLASHESCAPE, &len);
	r = store_annotate(&d->store, t->day[0] != '\0' ? t->day :
	    d->store.day, line, len);
	json_object_put(rec);
	free(found.shape);
	if (r != 0) {
		json_object_put(rep);
		log_warnx("cannot write an annotation: %s", strerror(-r));
		return proto_error(req, "cannot write the annotation");
	}
	if (strcmp(kind, "outcome") == 0 && t != &found)
		t->has_outcome = 1;
	return rep;
}
