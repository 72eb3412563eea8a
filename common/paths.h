/*
 * Where Deliberate keeps things.  DELIBERATE_HOME defaults to
 * ~/.deliberate; the socket is $DELIBERATE_SOCKET, else
 * $XDG_RUNTIME_DIR/deliberate/sock, else $DELIBERATE_HOME/run/sock.
 * The shared data (rule sets) is $DELIBERATE_SHARE, else found next to
 * the running program: the source tree for build/ programs, or
 * PREFIX/share/deliberate for installed ones.
 */
#ifndef PATHS_H
#define PATHS_H

#include <sys/types.h>

struct paths {
	char	*home;		/* DELIBERATE_HOME */
	char	*socket;
	char	*rundir;	/* the socket's directory */
	char	*data;		/* learning-data */
	char	*current;	/* learning-data/current */
	char	*archive;
	char	*aggregated;
	char	*config;	/* DELIBERATE_HOME/config */
	char	*keyfile;	/* DELIBERATE_HOME/key */
	char	*pidfile;	/* DELIBERATE_HOME/run/deliberated.pid */
	char	*spool;		/* DELIBERATE_HOME/spool */
	char	*share;		/* rule sets root */
};

/* Fill p from the environment.  Returns 0 or -errno with *cause. */
int	paths_init(struct paths *p, char **cause);
void	paths_release(struct paths *p);

/* The shared data directory (redaction-rules/, risk-rules/ below it). */
char	*paths_share(void);

/* The user's home directory (HOME, else the password database). */
const char *paths_user_home(void);

/*
 * Create dir (and missing parents) with mode 0700.  An existing final
 * directory must be a directory owned by us; its mode is set to 0700.
 */
int	paths_mkdir_private(const char *dir, char **cause);

#endif
