#include "paths.h"

#include <errno.h>
#include <limits.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "xmalloc.h"

/* The user's home directory. */
const char *
paths_user_home(void)
{
	const char	*h = getenv("HOME");
	struct passwd	*pw;

	if (h != NULL && *h == '/')
		return h;
	if ((pw = getpwuid(getuid())) != NULL && pw->pw_dir != NULL)
		return pw->pw_dir;
	return "/";
}

static int
is_dir(const char *p)
{
	struct stat	st;

	return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

/* The shared data directory. */
char *
paths_share(void)
{
	const char	*e = getenv("DELIBERATE_SHARE");
	char		 exe[PATH_MAX], *slash, *s;
	ssize_t		 n;

	if (e != NULL && *e != '\0')
		return xstrdup(e);
	n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	if (n > 0) {
		exe[n] = '\0';
		if ((slash = strrchr(exe, '/')) != NULL) {
			*slash = '\0';
			xasprintf(&s, "%s/../redaction-rules", exe);
			if (is_dir(s)) {
				free(s);
				xasprintf(&s, "%s/..", exe);
				return s;
			}
			free(s);
			xasprintf(&s, "%s/../share/deliberate", exe);
			if (is_dir(s))
				return s;
			free(s);
		}
	}
	return xstrdup("/usr/local/share/deliberate");
}

/* Fill the paths from the environment. */
int
paths_init(struct paths *p, char **cause)
{
	const char	*e;
	char		*slash;

	memset(p, 0, sizeof *p);
	if ((e = getenv("DELIBERATE_HOME")) != NULL && *e != '\0')
		p->home = xstrdup(e);
	else
		xasprintf(&p->home, "%s/.deliberate", paths_user_home());
	if (p->home[0] != '/') {
		if (cause != NULL)
			xasprintf(cause, "DELIBERATE_HOME must be absolute: "
			    "'%s'", p->home);
		paths_release(p);
		return -EINVAL;
	}
	if ((e = getenv("DELIBERATE_SOCKET")) != NULL && *e != '\0')
		p->socket = xstrdup(e);
	else if ((e = getenv("XDG_RUNTIME_DIR")) != NULL && *e == '/')
		xasprintf(&p->socket, "%s/deliberate/sock", e);
	else
		xasprintf(&p->socket, "%s/run/sock", p->home);
	p->rundir = xstrdup(p->socket);
	if ((slash = strrchr(p->rundir, '/')) != NULL && slash != p->rundir)
		*slash = '\0';
	else {
		free(p->rundir);
		p->rundir = xstrdup(".");
	}
	xasprintf(&p->data, "%s/learning-data", p->home);
	xasprintf(&p->current, "%s/current", p->data);
	xasprintf(&p->archive, "%s/archive", p->data);
	xasprintf(&p->aggregated, "%s/aggregated", p->data);
	xasprintf(&p->config, "%s/config", p->home);
	xasprintf(&p->keyfile, "%s/key", p->home);
	xasprintf(&p->pidfile, "%s/run/deliberated.pid", p->home);
	xasprintf(&p->spool, "%s/spool", p->home);
	p->share = paths_share();
	return 0;
}

/* Free every path. */
void
paths_release(struct paths *p)
{
	free(p->home);
	free(p->socket);
	free(p->rundir);
	free(p->data);
	free(p->current);
	free(p->archive);
	free(p->aggregated);
	free(p->config);
	free(p->keyfile);
	free(p->pidfile);
	free(p->spool);
	free(p->share);
	memset(p, 0, sizeof *p);
}

/* Create a private directory and its missing parents. */
int
paths_mkdir_private(const char *dir, char **cause)
{
	char		*copy, *s;
	struct stat	 st;
	int		 r = 0;

	copy = xstrdup(dir);
	for (s = copy + 1; *s != '\0'; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		if (mkdir(copy, 0700) == -1 && errno != EEXIST) {
			r = -errno;
			goto fail;
		}
		*s = '/';
	}
	if (mkdir(copy, 0700) == -1 && errno != EEXIST) {
		r = -errno;
		goto fail;
	}
	if (lstat(copy, &st) == -1) {
		r = -errno;
		goto fail;
	}
	if (!S_ISDIR(st.st_mode)) {
		r = -ENOTDIR;
		goto fail;
	}
	if (st.st_uid != geteuid()) {
		r = -EPERM;
		if (cause != NULL)
			xasprintf(cause, "'%s' is owned by uid %u, not us",
			    copy, (unsigned)st.st_uid);
		free(copy);
		return r;
	}
	if ((st.st_mode & 07777) != 0700 && chmod(copy, 0700) == -1)
		r = -errno;
fail:
	if (r != 0 && cause != NULL)
		xasprintf(cause, "cannot create '%s': %s", copy, strerror(-r));
	free(copy);
	return r;
}
