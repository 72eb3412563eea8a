/*
 * Unit tests of the core: working-directory and command types, the clock,
 * the config parser, the protocol parser, argv joining and UUIDs.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <json-c/json.h>
#include <sodium.h>

#include "buf.h"
#include "clock.h"
#include "config.h"
#include "entry.h"
#include "event.h"
#include "jsonutil.h"
#include "proto.h"
#include "userkey.h"
#include "xmalloc.h"

#include "harness.h"

static char tmpdir[] = "/tmp/dlb-unit.XXXXXX";

static void
mkdirs(const char *rel)
{
	char	*p, *s;

	xasprintf(&p, "%s/%s", tmpdir, rel);
	for (s = p + strlen(tmpdir) + 1; *s != '\0'; s++) {
		if (*s == '/') {
			*s = '\0';
			mkdir(p, 0700);
			*s = '/';
		}
	}
	mkdir(p, 0700);
	free(p);
}

static void
touch(const char *rel)
{
	char	*p;
	FILE	*f;

	xasprintf(&p, "%s/%s", tmpdir, rel);
	if ((f = fopen(p, "w")) != NULL)
		fclose(f);
	free(p);
}

static const char *
wd(const char *rel, const char *home, int *depth)
{
	static char	p[4096];

	snprintf(p, sizeof p, "%s%s", tmpdir, rel);
	return entry_wd_type(p, home, depth);
}

static void
t_wd_types(void)
{
	char		 home[4096];
	const char	*t;
	int		 depth, base = 0;
	const char	*s;

	for (s = tmpdir; *s != '\0'; s++)
		base += *s == '/';
	snprintf(home, sizeof home, "%s/home/u", tmpdir);
	mkdirs("home/u/notes");
	mkdirs("home/u/src/app/lib");
	touch("home/u/src/app/Makefile");
	mkdirs("home/u/repo/.git");
	mkdirs("home/u/repo/a/b");

	t = entry_wd_type("/", home, &depth);
	CHECK_STR(t, "system");
	CHECK_INT(depth, 0);
	t = entry_wd_type("/etc/ssh", home, &depth);
	CHECK_STR(t, "system");
	CHECK_INT(depth, 2);
	t = entry_wd_type("/usr/local/bin", home, &depth);
	CHECK_STR(t, "system");
	CHECK_INT(depth, 3);
	CHECK_STR(entry_wd_type("/var/log", home, &depth), "system");
	CHECK_STR(entry_wd_type("/tmp", home, &depth), "tmp");
	CHECK_INT(depth, 1);
	CHECK_STR(entry_wd_type("/tmp/a/b", home, &depth), "tmp");
	CHECK_INT(depth, 3);
	CHECK_STR(entry_wd_type("/var/tmp/x", home, &depth), "tmp");
	CHECK_STR(entry_wd_type("/dev/shm", home, &depth), "tmp");
	CHECK_STR(entry_wd_type("/nonexistent-top/x", home, &depth),
	    "other");
	CHECK_STR(entry_wd_type("/tmpfoo", home, &depth), "other");
	CHECK_STR(entry_wd_type("relative/dir", home, &depth), "other");
	CHECK_STR(entry_wd_type(NULL, home, &depth), "other");

	/* Under a temp dir, tmp wins; use a fake "home" outside /tmp. */
	CHECK_STR(wd("/home/u/notes", home, &depth), "tmp");
	CHECK_STR(entry_wd_type("/home/someone/x", "/home/someone", &depth),
	    "home");
	CHECK_INT(depth, 3);
	CHECK_STR(entry_wd_type("/home/someone", "/home/someone", &depth),
	    "home");
	CHECK_INT(depth, 2);
	CHECK_STR(entry_wd_type("/home/someoneelse", "/home/someone", &depth),
	    "other");
	(void)base;
}

static void
t_wd_project(void)
{
	char	home[4096], p[4096];
	int	depth;

	/* Project detection walks up to home, marker by marker. */
	snprintf(home, sizeof home, "%s/home/u", tmpdir);
	snprintf(p, sizeof p, "%s/home/u/src/app/lib", tmpdir);
	CHECK(strcmp(entry_wd_type(p, home, &depth), "project") == 0 ||
	    strcmp(entry_wd_type(p, home, &depth), "tmp") == 0);
}

static void
t_cmd_types(void)
{
	CHECK_STR(entry_cmd_type("cd", NULL, NULL, "/home/u"), "builtin");
	CHECK_STR(entry_cmd_type("export", NULL, NULL, "/home/u"), "builtin");
	CHECK_STR(entry_cmd_type("ls", NULL, "/usr/bin:/bin", "/home/u"),
	    "system");
	CHECK_STR(entry_cmd_type("ll", "alias", NULL, "/home/u"), "alias");
	CHECK_STR(entry_cmd_type("f", "function", NULL, "/home/u"),
	    "function");
	CHECK_STR(entry_cmd_type("if", "keyword", NULL, "/home/u"), "builtin");
	CHECK_STR(entry_cmd_type("./build.sh", NULL, NULL, "/home/u"), "user");
	CHECK_STR(entry_cmd_type("/home/u/bin/x", NULL, NULL, "/home/u"),
	    "user");
	CHECK_STR(entry_cmd_type("/usr/bin/rm", NULL, NULL, "/home/u"),
	    "system");
	CHECK_STR(entry_cmd_type("nosuchcmd-xyz", NULL, "/usr/bin", "/home/u"),
	    "system");
}

static void
t_clock(void)
{
	int64_t	ms;
	char	buf[ISO8601_LEN], day[11];

	CHECK_INT(clock_parse("2026-03-01T12:00:00Z", &ms), 0);
	CHECK_INT(ms, 1772366400000LL);
	CHECK_INT(clock_parse("2026-03-01T12:00:00.250Z", &ms), 0);
	CHECK_INT(ms, 1772366400250LL);
	CHECK_INT(clock_parse("2026-03-01T13:30:00+01:30", &ms), 0);
	CHECK_INT(ms, 1772366400000LL);
	CHECK_INT(clock_parse("2026-03-01T12:00Z", &ms), 0);
	CHECK_INT(clock_parse("2026-13-01", &ms), -EINVAL);
	CHECK_INT(clock_parse("yesterday", &ms), -EINVAL);
	CHECK_INT(clock_parse("2026-03-01T12:00:00Zjunk", &ms), -EINVAL);
	clock_iso8601_utc(1772366400250LL, buf);
	CHECK_STR(buf, "2026-03-01T12:00:00.250Z");
	setenv("TZ", "UTC", 1);
	tzset();
	clock_iso8601(1772366400007LL, buf);
	CHECK_STR(buf, "2026-03-01T12:00:00.007Z");
	clock_day(1772366400000LL, day);
	CHECK_STR(day, "2026-03-01");
	setenv("TZ", "Asia/Kolkata", 1);
	tzset();
	clock_iso8601(1772366400000LL, buf);
	CHECK_STR(buf, "2026-03-01T17:30:00.000+05:30");
	setenv("TZ", "America/New_York", 1);
	tzset();
	clock_day(1772366400000LL - 13 * 3600000LL, day);
	CHECK_STR(day, "2026-02-28");
	clock_iso8601(1772366400000LL, buf);
	CHECK_STR(buf, "2026-03-01T07:00:00.000-05:00");
	CHECK_INT(clock_next_midnight(1772366400000LL) -
	    clock_day_start(1772366400000LL), 86400000LL);
	setenv("TZ", "UTC", 1);
	tzset();
}

static void
write_file(const char *path, const char *text)
{
	FILE	*f = fopen(path, "w");

	if (f != NULL) {
		fputs(text, f);
		fclose(f);
	}
}

static void
t_config(void)
{
	struct config	c;
	struct buf	errs = BUF_INIT;
	char		*path, *cause = NULL;

	config_init(&c);
	CHECK_INT(c.retention_days, 90);
	CHECK_INT(c.level, ANON_STANDARD);
	CHECK_INT(c.mode, MODE_PROMPT);
	CHECK_INT(c.prompt_timeout, 30);
	xasprintf(&path, "%s/config", tmpdir);
	write_file(path, "# comment\n\nretentionDays = 30\n"
	    "anonymizationLevel=maximum\n"
	    "mode = enforce\n"
	    "sharingConsent = yes\n"
	    "bogus line\n"
	    "retentionDays = -4\n"
	    "colour = blue\n"
	    "promptTimeout = 5\n"
	    "exclude = make, cc1 ,ld\n");
	CHECK_INT(config_load(path, &c, &errs), 3);
	CHECK_INT(c.retention_days, 30);
	CHECK_INT(c.level, ANON_MAXIMUM);
	CHECK_INT(c.mode, MODE_ENFORCE);
	CHECK_INT(c.sharing_consent, 1);
	CHECK_INT(c.prompt_timeout, 5);
	CHECK_INT(c.nexclude, 3);
	CHECK(config_excluded(&c, "cc1"));
	CHECK(!config_excluded(&c, "gcc"));
	CHECK(strstr(buf_str(&errs), "config:7: expected 'key = value'") !=
	    NULL);
	CHECK(strstr(buf_str(&errs), "config:8: bad value '-4' for "
	    "retentionDays") != NULL);
	CHECK(strstr(buf_str(&errs), "config:9: unknown key 'colour'") !=
	    NULL);
	CHECK_INT(config_set(&c, "mode", "loud", &cause), -EINVAL);
	CHECK(cause != NULL && strstr(cause, "monitor, prompt or enforce"));
	free(cause);
	config_release(&c);
	buf_release(&errs);
	config_init(&c);
	CHECK_INT(config_load("/nonexistent/config", &c, NULL), 0);
	config_release(&c);
	free(path);
}

static void
t_proto(void)
{
	struct json_object	*o = NULL;
	char			*cause = NULL;
	static const char	 nul[] = "{\"v\":1,\"type\":\"status\"\0}";
	char			 deep[200];
	size_t			 i;

#define BAD(msg, want) do {						\
	cause = NULL;							\
	CHECK(proto_parse(msg, strlen(msg), &o, &cause) < 0);		\
	CHECK(cause != NULL && strstr(cause, want) != NULL);		\
	free(cause);							\
} while (0)
	BAD("not json", "bad JSON");
	BAD("{\"v\":1,\"type\":", "bad JSON");
	BAD("[1,2]", "not a JSON object");
	BAD("{\"type\":\"status\"}", "missing protocol version");
	BAD("{\"v\":2,\"type\":\"status\"}", "unsupported protocol version 2");
	BAD("{\"v\":1}", "missing request \"type\"");
	BAD("{\"v\":1,\"type\":7}", "missing request \"type\"");
	BAD("{\"v\":1,\"type\":\"x\",\"s\":\"\xff\xfe\"}", "bad JSON");
	BAD("{\"v\":1,\"type\":\"x\"} {}", "bad JSON");
	cause = NULL;
	CHECK(proto_parse(nul, sizeof nul - 1, &o, &cause) < 0);
	CHECK(cause != NULL && strstr(cause, "NUL byte") != NULL);
	free(cause);
	for (i = 0; i < 60; i++)
		deep[i] = '[';
	strcpy(deep + 60, "]");
	BAD(deep, "bad JSON");
	cause = NULL;
	CHECK_INT(proto_parse("{\"v\":1,\"type\":\"status\"} ", 24, &o,
	    &cause), 0);
	if (o != NULL)
		json_object_put(o);
#undef BAD
}

static void
t_event(void)
{
	struct event		 ev;
	struct json_object	*o;
	char			*cause = NULL, *s;
	const char		*argv[] = { "rm", "-rf", "my dir", "it's", "", "$HOME" };

	s = event_join_argv(argv, 6);
	CHECK_STR(s, "rm -rf 'my dir' 'it'\\''s' '' '$HOME'");
	free(s);
	o = json_tokener_parse("{\"v\":1,\"type\":\"event\",\"argv\":[\"ls\","
	    "\"-la\"],\"pid\":42,\"interactive\":true,\"ts\":1772366400000}");
	CHECK_INT(event_parse(o, &ev, &cause), 0);
	CHECK_STR(ev.line, "ls -la");
	CHECK_INT(ev.pid, 42);
	CHECK_INT(ev.interactive, 1);
	CHECK_INT(ev.ts_ms, 1772366400000LL);
	event_release(&ev);
	json_object_put(o);
	o = json_tokener_parse("{\"v\":1,\"type\":\"event\",\"line\":5}");
	CHECK(event_parse(o, &ev, &cause) < 0);
	CHECK(cause != NULL && strstr(cause, "\"line\" must be a string"));
	free(cause);
	json_object_put(o);
	o = json_tokener_parse("{\"v\":1,\"type\":\"event\"}");
	cause = NULL;
	CHECK(event_parse(o, &ev, &cause) < 0);
	CHECK(cause != NULL && strstr(cause, "missing \"line\" or \"argv\""));
	free(cause);
	json_object_put(o);
	o = json_tokener_parse("{\"v\":1,\"type\":\"event\",\"line\":\"x\","
	    "\"action\":\"explode\"}");
	cause = NULL;
	CHECK(event_parse(o, &ev, &cause) < 0);
	free(cause);
	json_object_put(o);
	o = json_tokener_parse("{\"v\":1,\"type\":\"event\",\"argv\":[\"a\","
	    "3]}");
	cause = NULL;
	CHECK(event_parse(o, &ev, &cause) < 0);
	free(cause);
	json_object_put(o);
	o = json_tokener_parse("{\"v\":1,\"type\":\"event\",\"line\":\"x\","
	    "\"pid\":-5}");
	cause = NULL;
	CHECK(event_parse(o, &ev, &cause) < 0);
	free(cause);
	json_object_put(o);
}

static void
t_uuid_hash(void)
{
	unsigned char	 key[USERKEY_LEN], key2[USERKEY_LEN];
	char		 u[37], h1[USER_ID_HEXLEN + 1], h2[USER_ID_HEXLEN + 1];
	char		*path, *cause = NULL;
	struct stat	 st;
	int		 i;

	for (i = 0; i < 100; i++) {
		uuid_v4(u);
		CHECK_INT(strlen(u), 36);
		CHECK(u[14] == '4');
		CHECK(strchr("89ab", u[19]) != NULL);
	}
	xasprintf(&path, "%s/key", tmpdir);
	CHECK_INT(userkey_load(path, key, &cause), 0);
	CHECK(stat(path, &st) == 0 && (st.st_mode & 0777) == 0600);
	CHECK_INT(userkey_load(path, key2, &cause), 0);
	CHECK(memcmp(key, key2, sizeof key) == 0);
	userkey_hash(key, 1000, h1);
	userkey_hash(key, 1000, h2);
	CHECK_STR(h1, h2);
	CHECK_INT(strlen(h1), 64);
	userkey_hash(key, 1001, h2);
	CHECK(strcmp(h1, h2) != 0);
	CHECK_INT(userkey_rotate(path, key2, &cause), 0);
	userkey_hash(key2, 1000, h2);
	CHECK(strcmp(h1, h2) != 0);
	free(path);
}

static void
t_json_num(void)
{
	struct json_object	*o;

	o = json_num(0.1 + 0.2);
	CHECK_STR(json_object_to_json_string(o), "0.3");
	json_object_put(o);
	o = json_num(12.0);
	CHECK_STR(json_object_to_json_string(o), "12");
	json_object_put(o);
	o = json_num(-0.0001);
	CHECK_STR(json_object_to_json_string(o), "0");
	json_object_put(o);
}

int
main(void)
{
	if (sodium_init() < 0 || mkdtemp(tmpdir) == NULL)
		return 1;
	RUN(t_wd_types);
	RUN(t_wd_project);
	RUN(t_cmd_types);
	RUN(t_clock);
	RUN(t_config);
	RUN(t_proto);
	RUN(t_event);
	RUN(t_uuid_hash);
	RUN(t_json_num);
	{
		char *cmd;

		xasprintf(&cmd, "rm -rf '%s'", tmpdir);
		if (system(cmd) != 0)
			fprintf(stderr, "cannot remove %s\n", tmpdir);
		free(cmd);
	}
	return harness_done();
}
