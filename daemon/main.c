/*
 * deliberated: the per-user Deliberate daemon.  It runs in the
 * foreground, logs to stderr, and serves the socket until SIGTERM.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <sodium.h>

#include "buf.h"
#include "classify.h"
#include "clock.h"
#include "daemon.h"
#include "log.h"
#include "redact.h"
#include "spool.h"
#include "sandbox.h"
#include "xmalloc.h"

static void __attribute__((noreturn))
usage(int status)
{
	FILE	*f = status == 0 ? stdout : stderr;

	fprintf(f, "usage: deliberated [--ready-fd N] [--debug] "
	    "[--socket PATH]\n"
	    "                   [--sandbox seccomp|trap|log|none]\n"
	    "       deliberated --version | --help\n"
	    "\n"
	    "Serve the Deliberate socket in the foreground and record every\n"
	    "command the hooks, the shim and the CLI send.  See "
	    "deliberated(8).\n");
	exit(status);
}

/* Tell systemd we are ready, when it asked. */
static void
notify_ready(void)
{
	const char		*path = getenv("NOTIFY_SOCKET");
	struct sockaddr_un	 sun;
	socklen_t		 len;
	int			 fd;

	if (path == NULL || (path[0] != '/' && path[0] != '@') ||
	    strlen(path) >= sizeof sun.sun_path)
		return;
	memset(&sun, 0, sizeof sun);
	sun.sun_family = AF_UNIX;
	strcpy(sun.sun_path, path);
	if (sun.sun_path[0] == '@')
		sun.sun_path[0] = '\0';
	len = (socklen_t)(offsetof(struct sockaddr_un, sun_path) +
	    strlen(path));
	if ((fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0)) == -1)
		return;
	if (sendto(fd, "READY=1", 7, MSG_NOSIGNAL, (struct sockaddr *)&sun,
	    len) == -1)
		log_warn("cannot notify systemd, ignoring");
	close(fd);
}

static void
write_pidfile(struct daemon *d)
{
	char	*dir, *slash, *tmp, pid[32];
	int	 fd, n;

	dir = xstrdup(d->paths.pidfile);
	if ((slash = strrchr(dir, '/')) != NULL)
		*slash = '\0';
	if (paths_mkdir_private(dir, NULL) != 0) {
		free(dir);
		return;
	}
	free(dir);
	xasprintf(&tmp, "%s.tmp", d->paths.pidfile);
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW,
	    0600);
	if (fd != -1) {
		n = snprintf(pid, sizeof pid, "%ld\n", (long)getpid());
		if (write(fd, pid, (size_t)n) != n ||
		    rename(tmp, d->paths.pidfile) == -1)
			log_warn("cannot write '%s', ignoring",
			    d->paths.pidfile);
		close(fd);
	}
	free(tmp);
}

/* Load the rule sets; returns 0 or -errno with *cause. */
static int
engines_load(const struct daemon *d, struct redactor **ret_red,
    struct classifier **ret_cls, char **cause)
{
	char	*dir;
	int	 r;

	xasprintf(&dir, "%s/redaction-rules", d->paths.share);
	r = redactor_load(dir, ret_red, cause);
	free(dir);
	if (r != 0)
		return r;
	xasprintf(&dir, "%s/risk-rules", d->paths.share);
	r = classifier_load(dir, ret_cls, cause);
	free(dir);
	if (r != 0)
		*ret_red = redactor_free(*ret_red);
	return r;
}

static void
rules_stamp_dir(const char *dir, struct buf *b)
{
	DIR		*dp;
	struct dirent	*de;
	struct stat	 st;
	char		*p;

	if ((dp = opendir(dir)) == NULL)
		return;
	while ((de = readdir(dp)) != NULL) {
		xasprintf(&p, "%s/%s", dir, de->d_name);
		if (stat(p, &st) == 0 && S_ISREG(st.st_mode))
			buf_addf(b, "%s:%lld.%ld:%lld;", de->d_name,
			    (long long)st.st_mtim.tv_sec, st.st_mtim.tv_nsec,
			    (long long)st.st_size);
		free(p);
	}
	closedir(dp);
}

/* A string that changes when a rule file or the config changes. */
char *
daemon_rules_stamp(const struct daemon *d)
{
	struct buf	 b = BUF_INIT;
	struct stat	 st;
	char		*dir;

	xasprintf(&dir, "%s/redaction-rules", d->paths.share);
	rules_stamp_dir(dir, &b);
	free(dir);
	xasprintf(&dir, "%s/risk-rules", d->paths.share);
	rules_stamp_dir(dir, &b);
	free(dir);
	if (stat(d->paths.config, &st) == 0)
		buf_addf(&b, "config:%lld.%ld", (long long)st.st_mtim.tv_sec,
		    st.st_mtim.tv_nsec);
	return buf_detach(&b, NULL);
}

/*
 * The same for learned.json, watched apart: a change there (`deliberate
 * rules --forget`) only rereads it, and the daemon's own writes, after
 * each correction, are not a change at all (annotate.c takes the new
 * stamp), so they never cost a reload of every rule.
 */
char *
daemon_learned_stamp(const struct daemon *d)
{
	struct stat	 st;
	char		*path, *stamp;

	xasprintf(&path, "%s/learned.json", d->paths.home);
	if (stat(path, &st) == 0)
		xasprintf(&stamp, "%lld.%ld:%lld", (long long)st.st_mtim.tv_sec,
		    st.st_mtim.tv_nsec, (long long)st.st_size);
	else
		stamp = xstrdup("");
	free(path);
	return stamp;
}

/*
 * Reload the config and the rule sets.  Requests are served one at a
 * time, so nothing is dropped; on any error the old set stays in force.
 */
void
daemon_reload(struct daemon *d, const char *why)
{
	struct config		 cfg;
	struct redactor		*red = NULL;
	struct classifier	*cls = NULL;
	struct buf		 errs = BUF_INIT;
	char			*cause = NULL;
	double			 t0 = clock_mono_ms();
	int			 bad;

	config_init(&cfg);
	bad = config_load(d->paths.config, &cfg, &errs);
	if (bad > 0)
		log_warnx("%.*s(%d bad config lines, ignoring)",
		    (int)errs.len, buf_str(&errs), bad);
	buf_release(&errs);
	if (engines_load(d, &red, &cls, &cause) != 0) {
		log_warnx("%s: cannot reload the rules, keeping the old ones: "
		    "%s", why, cause);
		server_set_error(d, "reload failed: %s", cause);
		free(cause);
		config_release(&cfg);
		return;
	}
	redactor_free(d->red);
	classifier_free(d->cls);
	d->red = red;
	d->cls = cls;
	config_release(&d->cfg);
	d->cfg = cfg;
	d->reloads++;
	d->learned_gen++;
	fastpath_publish(d);
	log_info("%s: reloaded %zu redaction rules and the config (mode %s) "
	    "in %.0f ms", why, redactor_nrules(d->red), mode_name(d->cfg.mode),
	    clock_mono_ms() - t0);
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "ready-fd", required_argument, NULL, 'r' },
		{ "socket", required_argument, NULL, 's' },
		{ "debug", no_argument, NULL, 'd' },
		{ "sandbox", required_argument, NULL, 'S' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	struct daemon	 d;
	struct buf	 errs = BUF_INIT;
	char		*cause = NULL, *end;
	int		 ch, ready_fd = -1, debug = 0, bad, sandbox_flag = 0;
	const char	*e;
	long		 l;

	memset(&d, 0, sizeof d);
	while ((ch = getopt_long(argc, argv, "dh", longopts, NULL)) != -1) {
		switch (ch) {
		case 'r':
			errno = 0;
			l = strtol(optarg, &end, 10);
			if (errno != 0 || *end != '\0' || l < 0 || l > 65535) {
				fprintf(stderr, "deliberated: bad --ready-fd "
				    "'%s': want a file descriptor number\n",
				    optarg);
				usage(2);
			}
			ready_fd = (int)l;
			break;
		case 's':
			setenv("DELIBERATE_SOCKET", optarg, 1);
			break;
		case 'd':
			debug = 1;
			break;
		case 'S':
			if (sandbox_select(optarg, &cause) != 0) {
				fprintf(stderr, "deliberated: %s\n", cause);
				usage(2);
			}
			sandbox_flag = 1;
			break;
		case 'h':
			usage(0);
		case 'V':
			printf("deliberated %s\n", DELIBERATE_VERSION);
			return 0;
		default:
			usage(2);
		}
	}
	/* A bad mode in the environment is an error in every build. */
	if (!sandbox_flag && (e = getenv("DELIBERATE_SANDBOX")) != NULL &&
	    *e != '\0' && sandbox_select(e, &cause) != 0) {
		fprintf(stderr, "deliberated: bad DELIBERATE_SANDBOX '%s': want "
		    "seccomp, trap, log or none\n", e);
		return 1;
	}
	if (optind != argc) {
		fprintf(stderr, "deliberated: unexpected argument '%s'\n",
		    argv[optind]);
		usage(2);
	}
	log_init("deliberated", debug || getenv("DELIBERATE_DEBUG") != NULL);
	umask(077);
	signal(SIGPIPE, SIG_IGN);
	if (sodium_init() < 0)
		fatalx("cannot initialise libsodium");
	d.started_ms = clock_now_ms();
	d.uid = geteuid();
	if (paths_init(&d.paths, &cause) != 0)
		fatalx("%s", cause);
	d.home = xstrdup(paths_user_home());
	config_init(&d.cfg);
	bad = config_load(d.paths.config, &d.cfg, &errs);
	if (bad < 0)
		fatalx("cannot read '%s': %s", d.paths.config, strerror(-bad));
	if (bad > 0)
		log_warnx("%.*s(%d bad config lines, ignoring)",
		    (int)errs.len, buf_str(&errs), bad);
	buf_release(&errs);
	if (paths_mkdir_private(d.paths.home, &cause) != 0)
		fatalx("%s", cause);
	if (store_open(&d.store, d.paths.data, &cause) != 0)
		fatalx("cannot open the dataset: %s", cause);
	if (d.store.repaired > 0)
		log_warnx("cut a torn last line off %d day file(s); the bytes "
		    "are in learning-data/quarantine/", d.store.repaired);
	if (userkey_load(d.paths.keyfile, d.key, &cause) != 0)
		fatalx("%s", cause);
	if (spool_keys(d.paths.home, d.spool_pk, d.spool_sk, &cause) != 0) {
		log_warnx("%s; the spool will not be read", cause);
		free(cause);
		cause = NULL;
	} else
		d.spool_ready = 1;
	if (engines_load(&d, &d.red, &d.cls, &cause) != 0)
		fatalx("cannot load the rules: %s", cause);
	log_info("loaded %zu redaction rules from '%s/redaction-rules'",
	    redactor_nrules(d.red), d.paths.share);
	d.rules_stamp = daemon_rules_stamp(&d);
	d.learned_stamp = daemon_learned_stamp(&d);
	lifecycle_start(&d);
	if (server_listen(&d, &cause) != 0)
		fatalx("%s", cause);
	write_pidfile(&d);
	fastpath_publish(&d);
	/* Analyzers are exec'd by a broker forked before the sandbox. */
	if (analyze_start(&d, &cause) != 0) {
		log_warnx("%s; AI analysis is off, ignoring", cause);
		free(cause);
		cause = NULL;
	}
	if (sandbox_enter(&cause) != 0) {
		if (!sandbox_disabled())
			fatalx("cannot enter the sandbox: %s", cause);
		log_warnx("%s, ignoring", cause);
		free(cause);
		cause = NULL;
	}
	log_info("sandbox: %s", sandbox_name());

	log_info("listening on '%s', data in '%s', mode %s",
	    d.paths.socket, d.paths.data, mode_name(d.cfg.mode));
	server_drain_spool(&d);
	if (ready_fd >= 0) {
		if (write(ready_fd, "\n", 1) != 1)
			log_warn("cannot write to --ready-fd %d, ignoring",
			    ready_fd);
		close(ready_fd);
	}
	notify_ready();
	log_info("ready");
	server_loop(&d);

	fastpath_withdraw(&d);
	server_shutdown(&d);
	analyze_stop();
	store_write_metadata(&d.store, anon_level_name(d.cfg.level),
	    d.cfg.retention_days);
	store_close(&d.store);
	unlink(d.paths.pidfile);
	d.red = redactor_free(d.red);
	d.cls = classifier_free(d.cls);
	config_release(&d.cfg);
	log_info("exiting");
	paths_release(&d.paths);
	free(d.home);
	free(d.rules_stamp);
	free(d.learned_stamp);
	return 0;
}
