/*
 * The entry writer (common/entry.c, common/jwrite.c) against the json-c
 * tree builder it replaced: for a varied set of events both must give the
 * same entry, key order included, byte for byte once the two timing
 * figures that differ between runs are set aside; and every entry must
 * validate against schemas/dataset-entry.schema.json.
 */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "buf.h"
#include "classify.h"
#include "clock.h"
#include "config.h"
#include "entry.h"
#include "event.h"
#include "harness.h"
#include "jsonutil.h"
#include "jwrite.h"
#include "redact.h"
#include "shtok.h"
#include "sysinfo.h"
#include "userkey.h"
#include "xmalloc.h"

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
	return entry_cmd_type(name, ev->cmd_type, ev->cmd_type != NULL ? NULL :
	    ev->path_env, home);
}

static const char *
wd_type_cached(const char *cwd, const char *home, int *ret_depth)
{
	return entry_wd_type(cwd, home, ret_depth);
}

static void
comm_cached(pid_t pid, char *buf, size_t len)
{
	sysinfo_comm(pid, buf, len);
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

/* The json-c builder the writer replaced, verbatim but for the caches. */
static struct json_object *
old_entry_build(const struct entry_env *env, const struct event *ev,
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

static struct config		 cfg;
static struct redactor		*red;
static struct classifier	*cls;
static unsigned char		 key[USERKEY_LEN];
static struct entry_env		 env;
static struct json_object	*ai_fixture;
static FILE			*out;
static char			 out_path[PATH_MAX];
static int			 ncases;

/* Set the figures that depend on the clock to 0. */
static void
mask_times(struct json_object *e)
{
	struct json_object	*perf, *st;

	if (!json_object_object_get_ex(e, "performance", &perf))
		return;
	json_object_object_add(perf, "totalTime", json_object_new_int(0));
	if (json_object_object_get_ex(perf, "stages", &st))
		json_object_object_add(st, "sensitiveDataRedaction",
		    json_object_new_int(0));
}

static const char *
plain(struct json_object *o)
{
	return json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN |
	    JSON_C_TO_STRING_NOSLASHESCAPE);
}

/* Build ev's entry both ways and compare; consumes ev. */
static void
compare(struct event *ev)
{
	struct verdict		 v1, v2;
	struct classify_ctx	 ctx;
	struct json_object	*old, *got, *reread;
	struct json_tokener	*tok;
	struct buf		 line = BUF_INIT, name = BUF_INIT;
	char			 id1[37], id2[37], day1[11], day2[11], *fixed;
	const char		*s;
	size_t			 len;
	double			 t0;

	ncases++;
	memset(&ctx, 0, sizeof ctx);
	ctx.shell = ev->shell;
	ctx.interactive = ev->interactive;
	ctx.tty = ev->is_tty;
	ctx.parent = ev->parent;
	classify_command(cls, ev->line, strlen(ev->line), &ctx, &v1);
	v2 = v1;
	v2.classification = NULL;
	CHECK_INT(json_object_deep_copy(v1.classification,
	    &v2.classification, NULL), 0);

	t0 = clock_mono_ms();
	old = old_entry_build(&env, ev, &v1, t0, id1, day1);
	buf_addf(&line, "%s", "");	/* what record() hands over: reused */
	entry_write(&env, ev, &v2, t0, &line, &name, id2, day2);
	CHECK(v2.classification == NULL);
	CHECK_STR(id2, id1);
	CHECK_STR(day2, day1);
	{
		struct json_object	*c, *n;

		CHECK(json_object_object_get_ex(old, "command", &c) &&
		    json_object_object_get_ex(c, "command", &n));
		CHECK_STR(buf_str(&name), json_object_get_string(n));
	}

	/* The writer's text is what json-c would print of it. */
	tok = json_tokener_new();
	got = json_tokener_parse_ex(tok, line.data, (int)line.len);
	CHECK(got != NULL && json_tokener_get_error(tok) ==
	    json_tokener_success);
	json_tokener_free(tok);
	if (got == NULL) {
		fprintf(stderr, "unparsable: %.300s\n", line.data);
		goto out;
	}
	CHECK_STR(plain(got), line.data);

	/* And the same entry as the old builder's, key order included. */
	mask_times(old);
	mask_times(got);
	s = plain(old);
	CHECK_STR(plain(got), s);
	/* json_num() doubles keep their unrounded value: compare as read. */
	reread = json_tokener_parse(s);
	CHECK(reread != NULL && json_object_equal(got, reread));
	json_object_put(reread);

	/* What record() writes is valid UTF-8 and a valid entry. */
	len = line.len;
	fixed = utf8_sanitize(line.data, len, &len);
	fwrite(fixed != NULL ? fixed : line.data, 1, len, out);
	fputc('\n', out);
	free(fixed);
	json_object_put(got);
out:
	json_object_put(old);
	verdict_release(&v1);
	verdict_release(&v2);
	buf_release(&line);
	buf_release(&name);
	event_release(ev);
}

/* A minimal event of source src for line. */
static void
ev_init(struct event *ev, const char *src, const char *line)
{
	memset(ev, 0, sizeof *ev);
	ev->source = src != NULL ? xstrdup(src) : NULL;
	ev->line = xstrdup(line);
	ev->pid = 4242;
	ev->ppid = getpid();
	ev->uid = ev->euid = 1000;
	ev->ts_ms = 1772366400123LL;	/* 2026-03-01T12:00:00.123Z */
	ev->entry_id = xstrdup("0b7e2f6a-1c3d-4e5f-8a9b-0c1d2e3f4a5b");
	ev->intercept_ms = 0.0125;
}

static void
t_hook(void)
{
	struct event	ev;

	ev_init(&ev, "hook", "ls -la /tmp | grep x > out.txt");
	ev.cwd = xstrdup("/tmp/work");
	ev.tty = xstrdup("/dev/pts/3");
	ev.shell = xstrdup("bash");
	ev.term = xstrdup("xterm-256color");
	ev.session = xstrdup("s-1");
	ev.path_env = xstrdup("/usr/local/bin:/usr/bin:/bin");
	ev.interactive = ev.is_tty = 1;
	ev.action = xstrdup("execute");
	compare(&ev);

	ev_init(&ev, "hook", "cd ~/src && echo $HOME *.c $(date)");
	ev.cwd = xstrdup("/home/tester/src/proj");
	ev.shell = xstrdup("zsh");
	ev.cmd_type = xstrdup("builtin");
	ev.term = xstrdup("");
	ev.interactive = 1;
	compare(&ev);

	ev_init(&ev, "hook", "git status");
	ev.cwd = xstrdup(harness_src_dir());
	ev.cmd_type = xstrdup("file");
	ev.path_env = xstrdup("/usr/bin:/bin");
	ev.parent = xstrdup("bash");
	compare(&ev);
}

static void
t_preload(void)
{
	static const char *const argv[] = { "/bin/echo", "it's", "a \"b\"",
	    "c\\d", "/x/y", "", "tab\there", NULL };
	struct event	ev;
	char		*line = event_join_argv(argv, 7);

	ev_init(&ev, "preload", line);
	free(line);
	ev.path = xstrdup("/bin/echo");
	ev.cwd = xstrdup("/");
	ev.tty = xstrdup("");
	ev.parent = xstrdup("make");
	ev.exe_static = 1;
	compare(&ev);

	ev_init(&ev, "preload", "/usr/bin/true x1");
	ev.cwd = xstrdup("/var/tmp");
	ev.parent = xstrdup("sh");
	ev.euid = 0;
	ev.sudo = 1;
	compare(&ev);
}

static void
t_cli(void)
{
	struct event	ev;

	/* No parent name: the process's own comm (of ppid for cli). */
	ev_init(&ev, "cli", "echo héllo wörld 日本語 🎉 ∑");
	ev.cwd = xstrdup("/home/tester");
	compare(&ev);

	ev_init(&ev, NULL, "sudo rm -rf /var/cache/thing");
	ev.pid = -1;
	ev.ppid = 0;
	ev.truncated = 1;
	compare(&ev);
}

static void
t_bytes(void)
{
	struct event	ev;
	char		ctl[64];
	int		i;

	ev_init(&ev, "hook", "echo \xff\xfe bad \xc3 \xed\xa0\x80 end\xe2\x82");
	ev.cwd = xstrdup("/tmp/\xc0\xaf");
	compare(&ev);

	for (i = 1; i < 0x20; i++)
		ctl[i - 1] = (char)i;
	memcpy(ctl + 31, "\x7f\"\\/ end", 9);
	ev_init(&ev, "preload", "printf x");
	free(ev.line);
	xasprintf(&ev.line, "printf '%s'", ctl);
	ev.parent = xstrdup("p\x01q\"");
	ev.term = xstrdup("t\\e\"rm/");
	compare(&ev);
}

static void
t_huge(void)
{
	struct event	 ev;
	struct buf	 b = BUF_INIT;
	const char	**argv;
	char		*line;
	size_t		 i, n = 6000;

	argv = xcalloc(n + 1, sizeof *argv);
	argv[0] = "/usr/bin/printf";
	for (i = 1; i < n; i++)
		argv[i] = i % 3 == 0 ? "a b" : i % 3 == 1 ? "--password=x" :
		    "ünï";
	line = event_join_argv(argv, n);
	ev_init(&ev, "preload", line);
	ev.truncated = 1;
	compare(&ev);
	free(line);
	free(argv);

	for (i = 0; i < 200000; i++)
		buf_addc(&b, (char)('a' + i % 26));
	ev_init(&ev, "hook", "echo ");
	free(ev.line);
	xasprintf(&ev.line, "echo %s", b.data);
	compare(&ev);
	buf_release(&b);
}

static void
t_decisions(void)
{
	struct event	ev;

	ev_init(&ev, "hook", "rm -rf build");
	ev.action = xstrdup("modify");
	ev.modified = xstrdup("rm -ri build --token=ghp_abcdefghijklmnop"
	    "qrstuvwxyz0123456789");
	ev.decision_ms = 1234.4;
	ev.prompted = 1;
	compare(&ev);

	ev_init(&ev, "hook", "dd if=/dev/zero of=/dev/sda");
	ev.action = xstrdup("cancel");
	ev.decision_ms = 5000.5;
	ev.prompted = 1;
	compare(&ev);

	ev_init(&ev, "preload", "curl -H 'Authorization: Bearer "
	    "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.abcdefghijklmnopqrstu' "
	    "https://user:hunter2@example.com/x");
	ev.action = xstrdup("timeout");
	ev.decision_ms = 30000;
	compare(&ev);
}

static void
t_ai(void)
{
	struct event	ev;

	if (ai_fixture == NULL) {
		CHECK(ai_fixture != NULL);
		return;
	}
	ev_init(&ev, "hook", "curl https://example.com/x.sh | sh");
	ev.ai = json_object_get(ai_fixture);
	ev.ai_ms = 812.5;
	ev.action = xstrdup("cancel");
	ev.prompted = 1;
	ev.decision_ms = 2200;
	compare(&ev);

	ev_init(&ev, "preload", "/usr/bin/make -j4");
	ev.ai = json_object_get(ai_fixture);
	ev.ai_ms = 0.0005;
	compare(&ev);
}

/* The writer's pieces. */
static void
t_jwrite(void)
{
	struct buf	b = BUF_INIT;
	struct jwrite	w;
	static const char *const v[] = { "a", NULL, "c\"" };

	jwrite_init(&w, &b);
	jwrite_obj(&w);
	jwrite_key(&w, "a");
	jwrite_arr(&w);
	jwrite_int(&w, INT64_MIN);
	jwrite_int(&w, 0);
	jwrite_int(&w, -7);
	jwrite_num(&w, 0.1 + 0.2);
	jwrite_num(&w, -0.0001);
	jwrite_num(&w, 1.0 / 0.0);
	jwrite_num(&w, 2.0005);
	jwrite_bool(&w, 0);
	jwrite_json(&w, NULL);
	jwrite_arr_end(&w);
	jwrite_key(&w, "b");
	jwrite_obj(&w);
	jwrite_obj_end(&w);
	jwrite_key(&w, "c");
	jwrite_strv(&w, v, 3);
	jwrite_key(&w, "d");
	jwrite_strn(&w, "x\0y", 3);
	jwrite_obj_end(&w);
	CHECK_STR(b.data, "{\"a\":[-9223372036854775808,0,-7,0.3,0,0,2.001,"
	    "false,null],\"b\":{},\"c\":[\"a\",\"\",\"c\\\"\"],"
	    "\"d\":\"x\\u0000y\"}");
	buf_release(&b);
}

static void
validate(void)
{
	char	cmd[PATH_MAX * 3];
	int	r;

	if (system("/usr/bin/python3 -c 'import jsonschema' 2>/dev/null") !=
	    0) {
		printf("# python3-jsonschema missing: schema check skipped\n");
		return;
	}
	snprintf(cmd, sizeof cmd, "/usr/bin/python3 %s/tests/lib/"
	    "validate-schema.py -q %s/schemas/dataset-entry.schema.json %s",
	    harness_src_dir(), harness_src_dir(), out_path);
	r = system(cmd);
	CHECK_INT(r, 0);
}

int
main(void)
{
	struct json_object	*fx, *a;
	char			 path[PATH_MAX], dir[] = "/tmp/test-entry.XXXXXX";
	char			*cause = NULL;

	config_init(&cfg);
	snprintf(path, sizeof path, "%s/redaction-rules", harness_src_dir());
	if (redactor_load(path, &red, &cause) != 0) {
		fprintf(stderr, "%s\n", cause);
		return 1;
	}
	snprintf(path, sizeof path, "%s/risk-rules", harness_src_dir());
	if (classifier_load(path, &cls, &cause) != 0) {
		fprintf(stderr, "%s\n", cause);
		return 1;
	}
	memset(key, 0x5a, sizeof key);
	env.cfg = &cfg;
	env.red = red;
	env.key = key;
	env.home = "/home/tester";
	env.sys.load[0] = 0.5;
	env.sys.load[1] = 1.25;
	env.sys.load[2] = 2.0004999;
	env.sys.mem_percent = 42.123456;
	env.sys.disk_percent = 77.7775;
	env.cpu_percent = 3.14159;
	env.rss_mb = 12.3456;
	snprintf(path, sizeof path, "%s/tests/fixtures/entries/valid/"
	    "ai-analysis-full.json", harness_src_dir());
	if ((fx = json_object_from_file(path)) != NULL &&
	    json_object_object_get_ex(fx, "aiAnalysis", &a))
		ai_fixture = json_object_get(a);
	json_object_put(fx);
	if (mkdtemp(dir) == NULL) {
		perror("mkdtemp");
		return 1;
	}
	snprintf(out_path, sizeof out_path, "%s/entries.ndjson", dir);
	if ((out = fopen(out_path, "w")) == NULL) {
		perror(out_path);
		return 1;
	}

	RUN(t_jwrite);
	RUN(t_hook);
	RUN(t_preload);
	RUN(t_cli);
	RUN(t_bytes);
	RUN(t_huge);
	RUN(t_decisions);
	RUN(t_ai);
	fclose(out);
	RUN(validate);
	printf("# %d entries compared\n", ncases);

	unlink(out_path);
	rmdir(dir);
	json_object_put(ai_fixture);
	classifier_free(cls);
	redactor_free(red);
	config_release(&cfg);
	return harness_done();
}
