#include "event.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "buf.h"
#include "xmalloc.h"

static int
bad(char **cause, const char *field, const char *want)
{
	if (cause != NULL)
		xasprintf(cause, "field \"%s\" must be %s", field, want);
	return -EINVAL;
}

static int
get_str(struct json_object *o, const char *k, char **ret, char **cause)
{
	struct json_object	*v;

	if (!json_object_object_get_ex(o, k, &v) || json_object_is_type(v,
	    json_type_null))
		return 0;
	if (!json_object_is_type(v, json_type_string))
		return bad(cause, k, "a string");
	*ret = xstrndup(json_object_get_string(v),
	    (size_t)json_object_get_string_len(v));
	return 0;
}

static int
get_num(struct json_object *o, const char *k, double lo, double hi,
    double *ret, char **cause)
{
	struct json_object	*v;
	double			 d;

	if (!json_object_object_get_ex(o, k, &v) || json_object_is_type(v,
	    json_type_null))
		return 0;
	if (!json_object_is_type(v, json_type_int) &&
	    !json_object_is_type(v, json_type_double))
		return bad(cause, k, "a number");
	d = json_object_get_double(v);
	if (!(d >= lo && d <= hi))
		return bad(cause, k, "a number in range");
	*ret = d;
	return 0;
}

static int
get_bool(struct json_object *o, const char *k, int *ret, char **cause)
{
	struct json_object	*v;

	if (!json_object_object_get_ex(o, k, &v) || json_object_is_type(v,
	    json_type_null))
		return 0;
	if (!json_object_is_type(v, json_type_boolean))
		return bad(cause, k, "true or false");
	*ret = json_object_get_boolean(v);
	return 0;
}

static int
needs_quote(const char *s)
{
	if (*s == '\0')
		return 1;
	for (; *s != '\0'; s++)
		if (strchr(" \t\n'\"\\$`!*?[]{}()<>|&;#~=%", *s) != NULL ||
		    (unsigned char)*s < 0x20)
			return 1;
	return 0;
}

/* Join argv with single-quote shell quoting where needed. */
char *
event_join_argv(const char *const *argv, size_t argc)
{
	struct buf	 b = BUF_INIT;
	const char	*s;
	size_t		 i;

	for (i = 0; i < argc; i++) {
		if (i > 0)
			buf_addc(&b, ' ');
		if (!needs_quote(argv[i])) {
			buf_adds(&b, argv[i]);
			continue;
		}
		buf_addc(&b, '\'');
		for (s = argv[i]; *s != '\0'; s++) {
			if (*s == '\'')
				buf_adds(&b, "'\\''");
			else
				buf_addc(&b, *s);
		}
		buf_addc(&b, '\'');
	}
	return buf_detach(&b, NULL);
}

/* Parse an event from a request object. */
int
event_parse(struct json_object *o, struct event *ev, char **cause)
{
	struct json_object	*argv, *w;
	const char		**v;
	double			 d;
	size_t			 n, i;
	int			 r = 0;

	memset(ev, 0, sizeof *ev);
	ev->pid = ev->ppid = -1;
	ev->uid = ev->euid = (uid_t)-1;
	if ((r = get_str(o, "source", &ev->source, cause)) ||
	    (r = get_str(o, "line", &ev->line, cause)) ||
	    (r = get_str(o, "path", &ev->path, cause)) ||
	    (r = get_str(o, "cwd", &ev->cwd, cause)) ||
	    (r = get_str(o, "tty", &ev->tty, cause)) ||
	    (r = get_str(o, "shell", &ev->shell, cause)) ||
	    (r = get_str(o, "term", &ev->term, cause)) ||
	    (r = get_str(o, "session", &ev->session, cause)) ||
	    (r = get_str(o, "parent", &ev->parent, cause)) ||
	    (r = get_str(o, "cmdType", &ev->cmd_type, cause)) ||
	    (r = get_str(o, "pathEnv", &ev->path_env, cause)) ||
	    (r = get_str(o, "action", &ev->action, cause)) ||
	    (r = get_str(o, "modifiedCommand", &ev->modified, cause)) ||
	    (r = get_bool(o, "interactive", &ev->interactive, cause)) ||
	    (r = get_bool(o, "isTTY", &ev->is_tty, cause)) ||
	    (r = get_bool(o, "sudo", &ev->sudo, cause)) ||
	    (r = get_bool(o, "truncated", &ev->truncated, cause)) ||
	    (r = get_bool(o, "static", &ev->exe_static, cause)) ||
	    (r = get_num(o, "interceptMs", 0, 1e9, &ev->intercept_ms, cause)) ||
	    (r = get_num(o, "decisionTime", 0, 1e10, &ev->decision_ms, cause)))
		goto fail;
	d = -1;
	if ((r = get_num(o, "pid", 1, 1e9, &d, cause)) != 0)
		goto fail;
	ev->pid = (pid_t)d;
	d = -1;
	if ((r = get_num(o, "ppid", 0, 1e9, &d, cause)) != 0)
		goto fail;
	ev->ppid = (pid_t)d;
	d = -1;
	if ((r = get_num(o, "uid", 0, 4294967294.0, &d, cause)) != 0)
		goto fail;
	ev->uid = d < 0 ? (uid_t)-1 : (uid_t)d;
	d = -1;
	if ((r = get_num(o, "euid", 0, 4294967294.0, &d, cause)) != 0)
		goto fail;
	ev->euid = d < 0 ? (uid_t)-1 : (uid_t)d;
	d = 0;
	if ((r = get_num(o, "ts", 0, 1e14, &d, cause)) != 0)
		goto fail;
	ev->ts_ms = (int64_t)d;
	if (ev->line == NULL && json_object_object_get_ex(o, "argv", &argv)) {
		if (!json_object_is_type(argv, json_type_array)) {
			r = bad(cause, "argv", "an array of strings");
			goto fail;
		}
		n = json_object_array_length(argv);
		v = xcalloc(n + 1, sizeof *v);
		for (i = 0; i < n; i++) {
			w = json_object_array_get_idx(argv, i);
			if (!json_object_is_type(w, json_type_string))
				break;
			v[i] = json_object_get_string(w);
		}
		if (i == n)
			ev->line = event_join_argv(v, n);
		free(v);
		if (i != n) {
			r = bad(cause, "argv", "an array of strings");
			goto fail;
		}
	}
	if (ev->line == NULL) {
		r = -EINVAL;
		if (cause != NULL)
			*cause = xstrdup("missing \"line\" or \"argv\"");
		goto fail;
	}
	if (ev->action != NULL && strcmp(ev->action, "execute") != 0 &&
	    strcmp(ev->action, "cancel") != 0 &&
	    strcmp(ev->action, "modify") != 0 &&
	    strcmp(ev->action, "timeout") != 0) {
		r = bad(cause, "action", "execute, cancel, modify or timeout");
		goto fail;
	}
	return 0;
fail:
	event_release(ev);
	return r;
}

/* Free an event's strings. */
void
event_release(struct event *ev)
{
	free(ev->source);
	free(ev->line);
	free(ev->path);
	free(ev->cwd);
	free(ev->tty);
	free(ev->shell);
	free(ev->term);
	free(ev->session);
	free(ev->parent);
	free(ev->cmd_type);
	free(ev->path_env);
	free(ev->entry_id);
	free(ev->action);
	free(ev->modified);
	if (ev->ai != NULL)
		json_object_put(ev->ai);
	memset(ev, 0, sizeof *ev);
}
