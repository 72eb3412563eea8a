#include "entry.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <json-c/json.h>

#include "buf.h"
#include "classify.h"
#include "clock.h"
#include "event.h"
#include "jsonutil.h"
#include "redact.h"
#include "shtok.h"
#include "userkey.h"
#include "xmalloc.h"

static const char *const builtins[] = {
	".", ":", "[", "alias", "bg", "bind", "break", "builtin", "caller",
	"cd", "command", "compgen", "complete", "compopt", "continue",
	"declare", "dirs", "disown", "echo", "enable", "eval", "exec", "exit",
	"export", "false", "fc", "fg", "getopts", "hash", "help", "history",
	"jobs", "kill", "let", "local", "logout", "mapfile", "popd", "printf",
	"pushd", "pwd", "read", "readarray", "readonly", "return", "set",
	"shift", "shopt", "source", "suspend", "test", "times", "trap", "true",
	"type", "typeset", "ulimit", "umask", "unalias", "unset", "wait",
	/* zsh */
	"autoload", "bindkey", "builtin", "cdr", "chdir", "compdef", "emulate",
	"functions", "integer", "noglob", "print", "pushln", "rehash", "setopt",
	"unsetopt", "whence", "where", "which", "zle", "zmodload", "zstyle",
	NULL
};

static const char *const system_dirs[] = {
	"/bin", "/boot", "/dev", "/etc", "/lib", "/lib32", "/lib64", "/media",
	"/mnt", "/opt", "/proc", "/root", "/run", "/sbin", "/srv", "/sys",
	"/usr", "/var", NULL
};

static const char *const project_markers[] = {
	".git", ".hg", ".svn", "package.json", "Cargo.toml", "go.mod",
	"pyproject.toml", "setup.py", "Makefile", "CMakeLists.txt",
	"pom.xml", "build.gradle", "Gemfile", "composer.json", "meson.build",
	NULL
};

/*
 * A small cache of answers that cost system calls (stat of project
 * markers, access() along PATH, /proc reads), kept for CACHE_TTL_MS: the
 * daemon builds entries for the same few directories and commands all day.
 */
#define CACHE_SLOTS	64
#define CACHE_TTL_MS	2000.0

struct cache_slot {
	char		*key;
	char		*value;
	int		 n;
	double		 at;
};

struct cache {
	struct cache_slot	slot[CACHE_SLOTS];
	unsigned		next;
};

static struct cache	wd_cache, type_cache, comm_cache;

static struct cache_slot *
cache_get(struct cache *c, const char *key)
{
	double	now = clock_mono_ms();
	size_t	i;

	for (i = 0; i < CACHE_SLOTS; i++) {
		if (c->slot[i].key != NULL && now - c->slot[i].at <
		    CACHE_TTL_MS && strcmp(c->slot[i].key, key) == 0)
			return &c->slot[i];
	}
	return NULL;
}

static void
cache_put(struct cache *c, const char *key, const char *value, int n)
{
	struct cache_slot	*sl = &c->slot[c->next++ % CACHE_SLOTS];

	free(sl->key);
	free(sl->value);
	sl->key = xstrdup(key);
	sl->value = xstrdup(value);
	sl->n = n;
	sl->at = clock_mono_ms();
}

static int
under(const char *path, const char *dir)
{
	size_t	n = strlen(dir);

	if (n == 1 && dir[0] == '/')
		return 1;
	return strncmp(path, dir, n) == 0 && (path[n] == '\0' ||
	    path[n] == '/');
}

static int
has_marker(const char *dir)
{
	char		p[PATH_MAX];
	struct stat	st;
	size_t		i;

	for (i = 0; project_markers[i] != NULL; i++) {
		if (snprintf(p, sizeof p, "%s/%s", dir, project_markers[i]) >=
		    (int)sizeof p)
			continue;
		if (stat(p, &st) == 0)
			return 1;
	}
	return 0;
}

/* The workingDirectory type and depth of cwd. */
const char *
entry_wd_type(const char *cwd, const char *home, int *ret_depth)
{
	char		 dir[PATH_MAX], *slash;
	const char	*s;
	int		 depth = 0;
	size_t		 i;

	if (cwd == NULL || cwd[0] != '/') {
		*ret_depth = 0;
		return WD_OTHER;
	}
	for (s = cwd; *s != '\0'; s++)
		if (*s == '/' && s[1] != '/' && s[1] != '\0')
			depth++;
	*ret_depth = depth;
	if (under(cwd, "/tmp") || under(cwd, "/var/tmp") ||
	    under(cwd, "/dev/shm"))
		return WD_TMP;
	/* A project is a directory with a marker, at or above cwd. */
	if (strlen(cwd) < sizeof dir) {
		strcpy(dir, cwd);
		while (dir[0] != '\0' && strcmp(dir, "/") != 0) {
			if (home != NULL && strcmp(dir, home) == 0)
				break;
			if (has_marker(dir))
				return WD_PROJECT;
			if ((slash = strrchr(dir, '/')) == NULL)
				break;
			*slash = '\0';
		}
	}
	if (home != NULL && strcmp(home, "/") != 0 && under(cwd, home))
		return WD_HOME;
	if (strcmp(cwd, "/") == 0)
		return WD_SYSTEM;
	for (i = 0; system_dirs[i] != NULL; i++)
		if (under(cwd, system_dirs[i]))
			return WD_SYSTEM;
	return WD_OTHER;
}

static int
executable_in(const char *dir, const char *name)
{
	char	p[PATH_MAX];

	if (snprintf(p, sizeof p, "%s/%s", dir, name) >= (int)sizeof p)
		return 0;
	return access(p, X_OK) == 0;
}

/* The command type of a command name. */
const char *
entry_cmd_type(const char *name, const char *hint, const char *path_env,
    const char *home)
{
	char	*copy, *d, *save = NULL;
	size_t	 i;
	int	 user = 0, found = 0;

	if (hint != NULL) {
		if (strcmp(hint, "alias") == 0 ||
		    strcmp(hint, "function") == 0 ||
		    strcmp(hint, "builtin") == 0)
			return hint;
		if (strcmp(hint, "keyword") == 0 ||
		    strcmp(hint, "reserved") == 0)
			return "builtin";
	}
	for (i = 0; builtins[i] != NULL; i++)
		if (strcmp(name, builtins[i]) == 0)
			return "builtin";
	if (strchr(name, '/') != NULL) {
		if (name[0] != '/')
			return "user";
		return home != NULL && strcmp(home, "/") != 0 &&
		    under(name, home) ? "user" : "system";
	}
	if (path_env == NULL)
		path_env = getenv("PATH");
	if (path_env == NULL)
		return "system";
	copy = xstrdup(path_env);
	for (d = strtok_r(copy, ":", &save); d != NULL && !found;
	    d = strtok_r(NULL, ":", &save)) {
		if (*d != '/' || !executable_in(d, name))
			continue;
		found = 1;
		user = home != NULL && strcmp(home, "/") != 0 && under(d, home);
	}
	free(copy);
	return user ? "user" : "system";
}

static struct json_object *
jstr(const char *s)
{
	return json_object_new_string(s != NULL ? s : "");
}


static struct json_object *
strv_json(const char *const *v, size_t n)
{
	struct json_object	*a = json_object_new_array();
	size_t			 i;

	for (i = 0; i < n; i++)
		json_object_array_add(a, jstr(v[i]));
	return a;
}

static int
word_is_sudo(const char *line)
{
	while (*line == ' ' || *line == '\t')
		line++;
	return (strncmp(line, "sudo", 4) == 0 || strncmp(line, "doas", 4) == 0)
	    && (line[4] == ' ' || line[4] == '\t' || line[4] == '\0');
}

static const char *
cmd_type_cached(const char *name, const struct event *ev, const char *home)
{
	struct cache_slot	*sl;
	struct buf		 key = BUF_INIT;
	const char		*t;

	if (ev->cmd_type != NULL)
		return entry_cmd_type(name, ev->cmd_type, NULL, home);
	buf_addf(&key, "%s\n%s", name, ev->path_env != NULL ? ev->path_env :
	    "");
	if ((sl = cache_get(&type_cache, key.data)) != NULL)
		t = sl->value;
	else {
		t = entry_cmd_type(name, NULL, ev->path_env, home);
		cache_put(&type_cache, key.data, t, 0);
	}
	buf_release(&key);
	return t;
}

static const char *
wd_type_cached(const char *cwd, const char *home, int *ret_depth)
{
	struct cache_slot	*sl;
	const char		*t;

	if (cwd == NULL)
		return entry_wd_type(cwd, home, ret_depth);
	if ((sl = cache_get(&wd_cache, cwd)) != NULL) {
		*ret_depth = sl->n;
		return sl->value;
	}
	t = entry_wd_type(cwd, home, ret_depth);
	cache_put(&wd_cache, cwd, t, *ret_depth);
	return t;
}

static void
comm_cached(pid_t pid, char *buf, size_t len)
{
	struct cache_slot	*sl;
	char			 key[32];

	snprintf(key, sizeof key, "%ld", (long)pid);
	if ((sl = cache_get(&comm_cache, key)) != NULL) {
		snprintf(buf, len, "%s", sl->value);
		return;
	}
	sysinfo_comm(pid, buf, len);
	cache_put(&comm_cache, key, buf, 0);
}

static struct json_object *
build_command(const struct entry_env *env, const struct event *ev,
    struct redact_stats *stats, double *redact_ms)
{
	struct json_object	*c;
	struct redacted_cmd	 rc;
	struct shtok_list	 tl = SHTOK_LIST_INIT;
	size_t			 len = strlen(ev->line);
	double			 t0;
	unsigned		 f;

	t0 = clock_mono_ms();
	redact_command(env->red, env->cfg->level, ev->line, len, &rc, stats);
	*redact_ms += clock_mono_ms() - t0;
	shtok_split(ev->line, len, &tl);
	f = tl.flags;
	shtok_list_release(&tl);

	c = json_object_new_object();
	json_object_object_add(c, "command", jstr(rc.command));
	json_object_object_add(c, "args", strv_json((const char *const *)
	    rc.args, rc.nargs));
	json_object_object_add(c, "fullCommand", jstr(rc.full));
	json_object_object_add(c, "type", jstr(cmd_type_cached(rc.command,
	    ev, env->home)));
	json_object_object_add(c, "hasRedirection",
	    json_object_new_boolean((f & SHL_REDIR) != 0));
	json_object_object_add(c, "hasPipe",
	    json_object_new_boolean((f & SHL_PIPE) != 0));
	json_object_object_add(c, "hasGlobbing",
	    json_object_new_boolean((f & SHL_GLOB) != 0));
	json_object_object_add(c, "hasVariableExpansion",
	    json_object_new_boolean((f & SHL_VAR) != 0));
	json_object_object_add(c, "hasCommandSubstitution",
	    json_object_new_boolean((f & SHL_CMDSUB) != 0));
	redacted_cmd_release(&rc);
	return c;
}

static int
is_shell_name(const char *n)
{
	static const char *const shells[] = { "bash", "zsh", "sh", "dash",
	    "fish", "ksh", "mksh", "tcsh", "csh", "busybox", "ash", NULL };
	size_t	i;

	for (i = 0; shells[i] != NULL; i++)
		if (strcmp(n, shells[i]) == 0)
			return 1;
	return 0;
}

static struct json_object *
build_context(const struct entry_env *env, const struct event *ev)
{
	struct json_object	*ctx, *u, *e, *wd, *pp, *ss, *la;
	char			 uid_hash[USER_ID_HEXLEN + 1], comm[64];
	const char		*wdt, *src = ev->source;
	pid_t			 ppid;
	uid_t			 uid = ev->uid, euid = ev->euid;
	int			 depth, i;

	if (euid == (uid_t)-1)
		euid = uid;
	ctx = json_object_new_object();
	u = json_object_new_object();
	userkey_hash(env->key, uid, uid_hash);
	json_object_object_add(u, "id", jstr(uid_hash));
	json_object_object_add(u, "isRoot", json_object_new_boolean(euid == 0));
	json_object_object_add(u, "isSudo", json_object_new_boolean(ev->sudo ||
	    word_is_sudo(ev->line)));
	json_object_object_add(ctx, "user", u);

	e = json_object_new_object();
	json_object_object_add(e, "shell", jstr(ev->shell != NULL ?
	    ev->shell : "unknown"));
	json_object_object_add(e, "terminal", jstr(ev->term != NULL &&
	    *ev->term != '\0' ? ev->term : "unknown"));
	json_object_object_add(e, "isInteractive",
	    json_object_new_boolean(ev->interactive));
	json_object_object_add(e, "isTTY", json_object_new_boolean(ev->is_tty));
	json_object_object_add(e, "isPTY", json_object_new_boolean(
	    ev->tty != NULL && strncmp(ev->tty, "/dev/pts/", 9) == 0));
	json_object_object_add(e, "captureLayer", jstr(src != NULL ? src :
	    "cli"));
	if (ev->truncated)
		json_object_object_add(e, "truncated",
		    json_object_new_boolean(1));
	json_object_object_add(ctx, "environment", e);

	wd = json_object_new_object();
	wdt = wd_type_cached(ev->cwd, env->home, &depth);
	json_object_object_add(wd, "type", jstr(wdt));
	json_object_object_add(wd, "depth", json_object_new_int(depth));
	json_object_object_add(ctx, "workingDirectory", wd);

	/*
	 * The parent is the process that launched the command: the shell for
	 * hooks, the exec'ing process for the shim, the CLI's parent for log.
	 */
	ppid = src != NULL && strcmp(src, "cli") == 0 ? ev->ppid : ev->pid;
	if (ppid > 0) {
		if (ev->parent != NULL && src != NULL &&
		    strcmp(src, "cli") != 0)
			snprintf(comm, sizeof comm, "%s", ev->parent);
		else
			comm_cached(ppid, comm, sizeof comm);
		pp = json_object_new_object();
		json_object_object_add(pp, "name", jstr(comm[0] != '\0' ? comm :
		    "unknown"));
		json_object_object_add(pp, "pid", json_object_new_int(ppid));
		json_object_object_add(pp, "isShell",
		    json_object_new_boolean(is_shell_name(comm)));
		json_object_object_add(pp, "isScript", json_object_new_boolean(
		    is_shell_name(comm) && !ev->interactive));
		json_object_object_add(ctx, "parentProcess", pp);
	}

	ss = json_object_new_object();
	la = json_object_new_array();
	for (i = 0; i < 3; i++)
		json_object_array_add(la, json_num(env->sys.load[i]));
	json_object_object_add(ss, "loadAverage", la);
	json_object_object_add(ss, "memoryUsagePercent",
	    json_num(env->sys.mem_percent));
	json_object_object_add(ss, "diskUsagePercent",
	    json_num(env->sys.disk_percent));
	json_object_object_add(ctx, "systemState", ss);
	return ctx;
}

static struct json_object *
build_decision(const struct entry_env *env, const struct event *ev,
    struct redact_stats *stats, double *redact_ms)
{
	struct json_object	*d;
	struct buf		 b = BUF_INIT;
	double			 t0;

	d = json_object_new_object();
	json_object_object_add(d, "action", jstr(ev->action != NULL ?
	    ev->action : "execute"));
	if (ev->modified != NULL) {
		t0 = clock_mono_ms();
		redact_line(env->red, env->cfg->level, ev->modified,
		    strlen(ev->modified), &b, NULL, stats);
		*redact_ms += clock_mono_ms() - t0;
		json_object_object_add(d, "modifiedCommand", jstr(buf_str(&b)));
		buf_release(&b);
	}
	json_object_object_add(d, "decisionTime",
	    json_object_new_int64((int64_t)(ev->decision_ms + 0.5)));
	return d;
}

static struct json_object *
build_privacy(const struct entry_env *env, const struct redact_stats *st,
    int64_t ts)
{
	struct json_object	*p, *rs, *ret, *c;
	char			 exp[ISO8601_LEN];
	const struct config	*cfg = env->cfg;

	p = json_object_new_object();
	/* Typed argument values are counted, but are not "detected". */
	json_object_object_add(p, "sensitiveDataDetected",
	    json_object_new_boolean(st->sensitive > 0));
	json_object_object_add(p, "sensitiveDataTypes",
	    strv_json(st->types, st->ntypes));
	rs = json_object_new_object();
	json_object_object_add(rs, "redactedCount",
	    json_object_new_int64((int64_t)st->count));
	json_object_object_add(rs, "redactionPatterns",
	    strv_json(st->rule_ids, st->nrule_ids));
	json_object_object_add(p, "redactionStats", rs);
	ret = json_object_new_object();
	clock_iso8601(ts + (int64_t)cfg->retention_days * 86400000, exp);
	json_object_object_add(ret, "expiresAt", jstr(exp));
	json_object_object_add(ret, "retentionDays",
	    json_object_new_int(cfg->retention_days));
	json_object_object_add(ret, "anonymizationLevel",
	    jstr(anon_level_name(cfg->level)));
	json_object_object_add(p, "retention", ret);
	c = json_object_new_object();
	json_object_object_add(c, "collectionConsent",
	    json_object_new_boolean(cfg->collection_consent));
	json_object_object_add(c, "sharingConsent",
	    json_object_new_boolean(cfg->sharing_consent));
	json_object_object_add(c, "improvementConsent",
	    json_object_new_boolean(cfg->improvement_consent));
	json_object_object_add(p, "consent", c);
	return p;
}

/* Build a DatasetEntry. */
struct json_object *
entry_build(const struct entry_env *env, const struct event *ev,
    struct verdict *v, double received_ms, char ret_id[37], char ret_day[11])
{
	struct json_object	*e, *perf, *stages, *res;
	struct redact_stats	 stats = REDACT_STATS_INIT;
	char			 ts[ISO8601_LEN];
	int64_t			 when;
	double			 redact_ms = 0, total;

	when = ev->ts_ms > 0 ? ev->ts_ms : clock_now_ms();
	if (ev->entry_id != NULL && strlen(ev->entry_id) == 36)
		memcpy(ret_id, ev->entry_id, 37);
	else
		uuid_v4(ret_id);
	clock_iso8601(when, ts);
	clock_day(when, ret_day);

	e = json_object_new_object();
	json_object_object_add(e, "id", jstr(ret_id));
	json_object_object_add(e, "timestamp", jstr(ts));
	json_object_object_add(e, "schemaVersion", jstr("1.0.0"));
	json_object_object_add(e, "command", build_command(env, ev, &stats,
	    &redact_ms));
	json_object_object_add(e, "context", build_context(env, ev));
	json_object_object_add(e, "classification", v->classification);
	v->classification = NULL;
	if (ev->ai != NULL)
		json_object_object_add(e, "aiAnalysis",
		    json_object_get(ev->ai));
	json_object_object_add(e, "userDecision", build_decision(env, ev,
	    &stats, &redact_ms));

	perf = json_object_new_object();
	stages = json_object_new_object();
	json_object_object_add(stages, "interception", json_num(ev->intercept_ms));
	json_object_object_add(stages, "classification", json_num(v->classify_ms));
	json_object_object_add(stages, "bypassDetection", json_num(v->bypass_ms));
	json_object_object_add(stages, "sensitiveDataRedaction",
	    json_num(redact_ms));
	if (ev->ai != NULL)
		json_object_object_add(stages, "aiAnalysis",
		    json_num(ev->ai_ms));
	if (ev->prompted)
		json_object_object_add(stages, "userPrompt",
		    json_num(ev->decision_ms));
	total = clock_mono_ms() - received_ms + ev->intercept_ms;
	if (total < ev->intercept_ms + v->classify_ms + redact_ms)
		total = ev->intercept_ms + v->classify_ms + redact_ms;
	json_object_object_add(perf, "totalTime", json_num(total));
	json_object_object_add(perf, "stages", stages);
	res = json_object_new_object();
	json_object_object_add(res, "cpuPercent", json_num(env->cpu_percent));
	json_object_object_add(res, "memoryMB", json_num(env->rss_mb));
	json_object_object_add(res, "cacheHit",
	    json_object_new_boolean(v->cache_hit));
	json_object_object_add(perf, "resources", res);
	json_object_object_add(e, "performance", perf);

	json_object_object_add(e, "privacy", build_privacy(env, &stats, when));
	redact_stats_release(&stats);
	return e;
}
