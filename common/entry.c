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
#include "jwrite.h"
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
	static struct buf	 key = BUF_INIT;
	struct cache_slot	*sl;
	const char		*t;

	if (ev->cmd_type != NULL)
		return entry_cmd_type(name, ev->cmd_type, NULL, home);
	buf_reset(&key);
	buf_adds(&key, name);
	buf_addc(&key, '\n');
	if (ev->path_env != NULL)
		buf_adds(&key, ev->path_env);
	if ((sl = cache_get(&type_cache, key.data)) != NULL)
		t = sl->value;
	else {
		t = entry_cmd_type(name, NULL, ev->path_env, home);
		cache_put(&type_cache, key.data, t, 0);
	}
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

static void
write_command(struct jwrite *w, const struct entry_env *env,
    const struct event *ev, struct redact_stats *stats, double *redact_ms,
    struct buf *ret_name)
{
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

	jwrite_obj(w);
	jwrite_key(w, "command");
	jwrite_str(w, rc.command);
	jwrite_key(w, "args");
	jwrite_strv(w, (const char *const *)rc.args, rc.nargs);
	jwrite_key(w, "fullCommand");
	jwrite_str(w, rc.full);
	jwrite_key(w, "type");
	jwrite_str(w, cmd_type_cached(rc.command != NULL ? rc.command : "",
	    ev, env->home));
	jwrite_key(w, "hasRedirection");
	jwrite_bool(w, (f & SHL_REDIR) != 0);
	jwrite_key(w, "hasPipe");
	jwrite_bool(w, (f & SHL_PIPE) != 0);
	jwrite_key(w, "hasGlobbing");
	jwrite_bool(w, (f & SHL_GLOB) != 0);
	jwrite_key(w, "hasVariableExpansion");
	jwrite_bool(w, (f & SHL_VAR) != 0);
	jwrite_key(w, "hasCommandSubstitution");
	jwrite_bool(w, (f & SHL_CMDSUB) != 0);
	jwrite_obj_end(w);
	if (ret_name != NULL) {
		buf_reset(ret_name);
		buf_adds(ret_name, rc.command != NULL ? rc.command : "");
	}
	redacted_cmd_release(&rc);
}

/* userkey_hash(), remembered for the last uid and key. */
static void
uid_hash_cached(const unsigned char *key, uid_t uid,
    char out[USER_ID_HEXLEN + 1])
{
	static unsigned char	 last_key[USERKEY_LEN];
	static char		 last[USER_ID_HEXLEN + 1];
	static uid_t		 last_uid;
	static int		 valid;

	if (!valid || uid != last_uid || memcmp(key, last_key,
	    USERKEY_LEN) != 0) {
		userkey_hash(key, uid, last);
		memcpy(last_key, key, USERKEY_LEN);
		last_uid = uid;
		valid = 1;
	}
	memcpy(out, last, sizeof last);
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

static void
write_context(struct jwrite *w, const struct entry_env *env,
    const struct event *ev)
{
	char			 uid_hash[USER_ID_HEXLEN + 1], comm[64];
	const char		*wdt, *src = ev->source;
	pid_t			 ppid;
	uid_t			 uid = ev->uid, euid = ev->euid;
	int			 depth, i;

	if (euid == (uid_t)-1)
		euid = uid;
	jwrite_obj(w);
	jwrite_key(w, "user");
	jwrite_obj(w);
	uid_hash_cached(env->key, uid, uid_hash);
	jwrite_key(w, "id");
	jwrite_str(w, uid_hash);
	jwrite_key(w, "isRoot");
	jwrite_bool(w, euid == 0);
	jwrite_key(w, "isSudo");
	jwrite_bool(w, ev->sudo || word_is_sudo(ev->line));
	jwrite_obj_end(w);

	jwrite_key(w, "environment");
	jwrite_obj(w);
	jwrite_key(w, "shell");
	jwrite_str(w, ev->shell != NULL ? ev->shell : "unknown");
	jwrite_key(w, "terminal");
	jwrite_str(w, ev->term != NULL && *ev->term != '\0' ? ev->term :
	    "unknown");
	jwrite_key(w, "isInteractive");
	jwrite_bool(w, ev->interactive);
	jwrite_key(w, "isTTY");
	jwrite_bool(w, ev->is_tty);
	jwrite_key(w, "isPTY");
	jwrite_bool(w, ev->tty != NULL && strncmp(ev->tty, "/dev/pts/", 9) ==
	    0);
	jwrite_key(w, "captureLayer");
	jwrite_str(w, src != NULL ? src : "cli");
	if (ev->truncated) {
		jwrite_key(w, "truncated");
		jwrite_bool(w, 1);
	}
	jwrite_obj_end(w);

	jwrite_key(w, "workingDirectory");
	jwrite_obj(w);
	wdt = wd_type_cached(ev->cwd, env->home, &depth);
	jwrite_key(w, "type");
	jwrite_str(w, wdt);
	jwrite_key(w, "depth");
	jwrite_int(w, depth);
	jwrite_obj_end(w);

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
		jwrite_key(w, "parentProcess");
		jwrite_obj(w);
		jwrite_key(w, "name");
		jwrite_str(w, comm[0] != '\0' ? comm : "unknown");
		jwrite_key(w, "pid");
		jwrite_int(w, ppid);
		jwrite_key(w, "isShell");
		jwrite_bool(w, is_shell_name(comm));
		jwrite_key(w, "isScript");
		jwrite_bool(w, is_shell_name(comm) && !ev->interactive);
		jwrite_obj_end(w);
	}

	jwrite_key(w, "systemState");
	jwrite_obj(w);
	jwrite_key(w, "loadAverage");
	jwrite_arr(w);
	for (i = 0; i < 3; i++)
		jwrite_num(w, env->sys.load[i]);
	jwrite_arr_end(w);
	jwrite_key(w, "memoryUsagePercent");
	jwrite_num(w, env->sys.mem_percent);
	jwrite_key(w, "diskUsagePercent");
	jwrite_num(w, env->sys.disk_percent);
	jwrite_obj_end(w);
	jwrite_obj_end(w);
}

static void
write_decision(struct jwrite *w, const struct entry_env *env,
    const struct event *ev, struct redact_stats *stats, double *redact_ms)
{
	static struct buf	 b = BUF_INIT;
	double			 t0;

	jwrite_obj(w);
	jwrite_key(w, "action");
	jwrite_str(w, ev->action != NULL ? ev->action : "execute");
	if (ev->modified != NULL) {
		t0 = clock_mono_ms();
		buf_reset(&b);
		redact_line(env->red, env->cfg->level, ev->modified,
		    strlen(ev->modified), &b, NULL, stats);
		*redact_ms += clock_mono_ms() - t0;
		jwrite_key(w, "modifiedCommand");
		jwrite_str(w, buf_str(&b));
	}
	jwrite_key(w, "decisionTime");
	jwrite_int(w, (int64_t)(ev->decision_ms + 0.5));
	jwrite_obj_end(w);
}

static void
write_privacy(struct jwrite *w, const struct entry_env *env,
    const struct redact_stats *st, int64_t ts)
{
	char			 exp[ISO8601_LEN];
	const struct config	*cfg = env->cfg;

	jwrite_obj(w);
	/* Typed argument values are counted, but are not "detected". */
	jwrite_key(w, "sensitiveDataDetected");
	jwrite_bool(w, st->sensitive > 0);
	jwrite_key(w, "sensitiveDataTypes");
	jwrite_strv(w, st->types, st->ntypes);
	jwrite_key(w, "redactionStats");
	jwrite_obj(w);
	jwrite_key(w, "redactedCount");
	jwrite_int(w, (int64_t)st->count);
	jwrite_key(w, "redactionPatterns");
	jwrite_strv(w, st->rule_ids, st->nrule_ids);
	jwrite_obj_end(w);
	jwrite_key(w, "retention");
	jwrite_obj(w);
	clock_iso8601(ts + (int64_t)cfg->retention_days * 86400000, exp);
	jwrite_key(w, "expiresAt");
	jwrite_str(w, exp);
	jwrite_key(w, "retentionDays");
	jwrite_int(w, cfg->retention_days);
	jwrite_key(w, "anonymizationLevel");
	jwrite_str(w, anon_level_name(cfg->level));
	jwrite_obj_end(w);
	jwrite_key(w, "consent");
	jwrite_obj(w);
	jwrite_key(w, "collectionConsent");
	jwrite_bool(w, cfg->collection_consent);
	jwrite_key(w, "sharingConsent");
	jwrite_bool(w, cfg->sharing_consent);
	jwrite_key(w, "improvementConsent");
	jwrite_bool(w, cfg->improvement_consent);
	jwrite_obj_end(w);
	jwrite_obj_end(w);
}

/* Write a DatasetEntry. */
void
entry_write(const struct entry_env *env, const struct event *ev,
    struct verdict *v, double received_ms, struct buf *out,
    struct buf *ret_name, char ret_id[37], char ret_day[11])
{
	struct jwrite		 w;
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

	jwrite_init(&w, out);
	jwrite_obj(&w);
	jwrite_key(&w, "id");
	jwrite_str(&w, ret_id);
	jwrite_key(&w, "timestamp");
	jwrite_str(&w, ts);
	jwrite_key(&w, "schemaVersion");
	jwrite_str(&w, "1.0.0");
	jwrite_key(&w, "command");
	write_command(&w, env, ev, &stats, &redact_ms, ret_name);
	jwrite_key(&w, "context");
	write_context(&w, env, ev);
	jwrite_key(&w, "classification");
	jwrite_json(&w, v->classification);
	if (v->classification != NULL)
		json_object_put(v->classification);
	v->classification = NULL;
	if (ev->ai != NULL) {
		jwrite_key(&w, "aiAnalysis");
		jwrite_json(&w, ev->ai);
	}
	jwrite_key(&w, "userDecision");
	write_decision(&w, env, ev, &stats, &redact_ms);

	jwrite_key(&w, "performance");
	jwrite_obj(&w);
	total = clock_mono_ms() - received_ms + ev->intercept_ms;
	if (total < ev->intercept_ms + v->classify_ms + redact_ms)
		total = ev->intercept_ms + v->classify_ms + redact_ms;
	jwrite_key(&w, "totalTime");
	jwrite_num(&w, total);
	jwrite_key(&w, "stages");
	jwrite_obj(&w);
	jwrite_key(&w, "interception");
	jwrite_num(&w, ev->intercept_ms);
	jwrite_key(&w, "classification");
	jwrite_num(&w, v->classify_ms);
	jwrite_key(&w, "bypassDetection");
	jwrite_num(&w, v->bypass_ms);
	jwrite_key(&w, "sensitiveDataRedaction");
	jwrite_num(&w, redact_ms);
	if (ev->ai != NULL) {
		jwrite_key(&w, "aiAnalysis");
		jwrite_num(&w, ev->ai_ms);
	}
	if (ev->prompted) {
		jwrite_key(&w, "userPrompt");
		jwrite_num(&w, ev->decision_ms);
	}
	jwrite_obj_end(&w);
	jwrite_key(&w, "resources");
	jwrite_obj(&w);
	jwrite_key(&w, "cpuPercent");
	jwrite_num(&w, env->cpu_percent);
	jwrite_key(&w, "memoryMB");
	jwrite_num(&w, env->rss_mb);
	jwrite_key(&w, "cacheHit");
	jwrite_bool(&w, v->cache_hit);
	jwrite_obj_end(&w);
	jwrite_obj_end(&w);

	jwrite_key(&w, "privacy");
	write_privacy(&w, env, &stats, when);
	jwrite_obj_end(&w);
	redact_stats_release(&stats);
}
