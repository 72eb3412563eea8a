/*
 * deliberate run [--mode M] [--strict] -- CMD [ARGS...]: run a process tree
 * with every exec recorded.  Without --strict, CMD is exec'd with
 * libdeliberate.so in LD_PRELOAD (and DELIBERATE_MODE, DELIBERATE_SOCKET),
 * so this process becomes CMD and the exit status is CMD's; the exec of
 * CMD itself is reported here, since this process does not carry the shim.
 * With --strict, CMD runs under the seccomp supervisor of strict.c.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <json-c/json.h>

#include "cli.h"
#include "config.h"
#include "clock.h"
#include "strict.h"
#include "xmalloc.h"

#define SHIM_NAME	"libdeliberate.so"

static int
parse_mode(const char *s, int *ret_enforce)
{
	if (strcmp(s, "monitor") == 0)
		*ret_enforce = 0;
	else if (strcmp(s, "enforce") == 0)
		*ret_enforce = 1;
	else
		return -1;
	return 0;
}

static char *
drops_path(void)
{
	char	*run, *p, *cause = NULL;

	xasprintf(&run, "%s/run", cli_paths.home);
	if (paths_mkdir_private(run, &cause) != 0) {
		free(cause);
		free(run);
		return NULL;
	}
	xasprintf(&p, "%s/preload-drops", run);
	free(run);
	return p;
}

static char *
resolve(const char *file)
{
	const char	*p, *end;
	char		*cand, *abs;
	struct stat	 st;

	if (strchr(file, '/') != NULL) {
		if ((abs = realpath(file, NULL)) != NULL)
			return abs;
		return xstrdup(file);
	}
	if ((p = getenv("PATH")) == NULL)
		p = "/bin:/usr/bin";
	for (;;) {
		if ((end = strchr(p, ':')) == NULL)
			end = p + strlen(p);
		xasprintf(&cand, "%.*s/%s", end == p ? 1 : (int)(end - p),
		    end == p ? "." : p, file);
		if (stat(cand, &st) == 0 && S_ISREG(st.st_mode) &&
		    access(cand, X_OK) == 0)
			return cand;
		free(cand);
		if (*end == '\0')
			return xstrdup(file);
		p = end + 1;
	}
}

/*
 * Report the exec of CMD itself; returns 1 if the daemon refuses it in
 * enforce mode (or gives no verdict with fail-closed), else 0.
 */
static int
report_self(char **argv, int enforce, int fail_closed, int timeout_ms,
    const char *drops)
{
	struct json_object	*req, *rep = NULL, *a, *o, *id, *desc;
	char			 cwd[PATH_MAX], *path, line[200];
	size_t			 i, len = 0;
	int			 r, deny = 0;

	req = cli_request(enforce ? "check" : "event");
	json_object_object_add(req, "source", json_object_new_string("preload"));
	if (enforce) {
		json_object_object_add(req, "record",
		    json_object_new_boolean(1));
		json_object_object_add(req, "mode",
		    json_object_new_string("enforce"));
	}
	a = json_object_new_array();
	for (i = 0; argv[i] != NULL; i++)
		json_object_array_add(a, json_object_new_string(argv[i]));
	json_object_object_add(req, "argv", a);
	path = resolve(argv[0]);
	json_object_object_add(req, "path", json_object_new_string(path));
	free(path);
	if (getcwd(cwd, sizeof cwd) != NULL)
		json_object_object_add(req, "cwd", json_object_new_string(cwd));
	json_object_object_add(req, "pid", json_object_new_int(getpid()));
	json_object_object_add(req, "ppid", json_object_new_int(getppid()));
	json_object_object_add(req, "uid", json_object_new_int64(getuid()));
	json_object_object_add(req, "euid", json_object_new_int64(geteuid()));
	json_object_object_add(req, "interactive",
	    json_object_new_boolean(0));
	json_object_object_add(req, "isTTY",
	    json_object_new_boolean(isatty(STDIN_FILENO)));
	json_object_object_add(req, "parent",
	    json_object_new_string("deliberate"));
	json_object_object_add(req, "ts", json_object_new_int64(
	    clock_now_ms()));

	r = cli_call(req, enforce ? timeout_ms : 1000, &rep, 1);
	json_object_put(req);
	if (r != EXIT_OK) {
		strict_count_drop(drops, r == EXIT_NODAEMON ? 'c' : 'r');
		json_object_put(rep);
		if (enforce && fail_closed) {
			cli_error("refused '%s': no verdict from the daemon "
			    "(DELIBERATE_FAIL_CLOSED=1)", argv[0]);
			return 1;
		}
		return 0;
	}
	if (enforce && json_object_object_get_ex(rep, "action", &o) &&
	    strcmp(json_object_get_string(o), "deny") == 0) {
		for (i = 0; argv[i] != NULL && len + 1 < sizeof line; i++) {
			r = snprintf(line + len, sizeof line - len, "%s%s",
			    i > 0 ? " " : "", argv[i]);
			len += r > 0 ? (size_t)r : 0;
		}
		json_object_object_get_ex(rep, "patternId", &id);
		json_object_object_get_ex(rep, "description", &desc);
		if (desc != NULL)
			cli_error("refused '%s': %s (%s)", line, id != NULL ?
			    json_object_get_string(id) : "dangerous command",
			    json_object_get_string(desc));
		else
			cli_error("refused '%s': %s", line, id != NULL ?
			    json_object_get_string(id) : "dangerous command");
		deny = 1;
	}
	json_object_put(rep);
	return deny;
}

/* Put the shim first in LD_PRELOAD, once. */
static void
set_preload(const char *shim)
{
	const char	*old = getenv("LD_PRELOAD");
	char		*v;

	if (old == NULL || *old == '\0')
		v = xstrdup(shim);
	else if (strstr(old, shim) != NULL)
		v = xstrdup(old);
	else
		xasprintf(&v, "%s %s", shim, old);
	setenv("LD_PRELOAD", v, 1);
	free(v);
}

/* Remove the shim from LD_PRELOAD (strict mode records by itself). */
static void
strip_preload(const char *shim)
{
	const char	*old = getenv("LD_PRELOAD");
	char		*copy, *w, *save = NULL;
	char		*out;
	size_t		 n = 0;

	if (old == NULL || shim == NULL || strstr(old, shim) == NULL)
		return;
	copy = xstrdup(old);
	out = xcalloc(1, strlen(old) + 1);
	for (w = strtok_r(copy, " :", &save); w != NULL;
	    w = strtok_r(NULL, " :", &save)) {
		if (strcmp(w, shim) == 0)
			continue;
		if (n > 0)
			out[n++] = ' ';
		memcpy(out + n, w, strlen(w));
		n += strlen(w);
	}
	if (n == 0)
		unsetenv("LD_PRELOAD");
	else
		setenv("LD_PRELOAD", out, 1);
	free(out);
	free(copy);
}

/* The run subcommand. */
int
cmd_run(int argc, char **argv)
{
	static const struct option	 opts[] = {
		{ "mode", required_argument, NULL, 'm' },
		{ "strict", no_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct strict_opts		 so;
	const char			*s;
	char				*shim, *drops;
	int				 c, strict = 0, enforce = 0;
	int				 fail_closed, timeout_ms, e;
	struct config			 cfg;
	char				 num[16];

	/* The config gives the defaults; the environment and flags win. */
	config_init(&cfg);
	(void)config_load(cli_paths.config, &cfg, NULL);
	enforce = cfg.mode == MODE_ENFORCE;
	timeout_ms = cfg.enforce_timeout_ms;
	fail_closed = !cfg.fail_open;
	config_release(&cfg);
	if ((s = getenv("DELIBERATE_MODE")) != NULL)
		(void)parse_mode(s, &enforce);
	while ((c = getopt_long(argc, argv, "+m:sh", opts, NULL)) != -1) {
		switch (c) {
		case 'm':
			if (parse_mode(optarg, &enforce) != 0)
				cli_usage_error("bad mode '%s': want monitor "
				    "or enforce", optarg);
			break;
		case 's':
			strict = 1;
			break;
		case 'h':
			cli_help();
		default:
			cli_usage_error("unknown option '%s'",
			    argv[optind - 1]);
		}
	}
	argc -= optind;
	argv += optind;
	if (argc == 0)
		cli_usage_error("no command given");
	if ((s = getenv("DELIBERATE_FAIL_CLOSED")) != NULL)
		fail_closed = strcmp(s, "1") == 0;
	if ((s = getenv("DELIBERATE_ENFORCE_TIMEOUT_MS")) != NULL &&
	    atoi(s) > 0)
		timeout_ms = atoi(s);
	snprintf(num, sizeof num, "%d", timeout_ms);
	setenv("DELIBERATE_ENFORCE_TIMEOUT_MS", num, 1);
	setenv("DELIBERATE_FAIL_CLOSED", fail_closed ? "1" : "0", 1);

	drops = drops_path();
	shim = cli_libfile(SHIM_NAME);
	/* The plain names for hooks and CLIs in the tree; the pinned ones
	 * for the shim (see docs/preload.md, "Where the shim records"). */
	setenv("DELIBERATE_MODE", enforce ? "enforce" : "monitor", 1);
	setenv("DELIBERATE_SOCKET", cli_paths.socket, 1);
	setenv("DELIBERATE_PRELOAD_MODE", enforce ? "enforce" : "monitor", 1);
	setenv("DELIBERATE_PRELOAD_SOCKET", cli_paths.socket, 1);
	if (drops != NULL)
		setenv("DELIBERATE_PRELOAD_DROPS", drops, 1);

	if (strict) {
		if (strict_needs_privs(argv[0]))
			cli_error("warning: '%s' cannot gain privileges under "
			    "--strict (no_new_privs is set)", argv[0]);
		strip_preload(shim);
		so.socket = cli_paths.socket;
		so.drops = drops;
		so.enforce = enforce;
		so.fail_closed = fail_closed;
		so.timeout_ms = timeout_ms;
		c = strict_run(argv, &so);
		free(shim);
		free(drops);
		return c;
	}
	if (shim == NULL) {
		cli_error("cannot find %s next to this program or in "
		    "PREFIX/lib/deliberate", SHIM_NAME);
		free(drops);
		return EXIT_FAIL;
	}
	if (report_self(argv, enforce, fail_closed, timeout_ms, drops)) {
		free(shim);
		free(drops);
		return 126;
	}
	set_preload(shim);
	free(shim);
	free(drops);
	fflush(NULL);
	execvp(argv[0], argv);
	e = errno;
	cli_error("cannot run '%s': %s", argv[0], strerror(e));
	return e == ENOENT ? 127 : 126;
}
