/*
 * deliberate run --strict: a seccomp user-notification supervisor that
 * sees every execve and execveat of a process tree before it happens,
 * including static binaries, Go programs and children of "env -i", which
 * the LD_PRELOAD shim cannot see.  docs/preload.md describes the limits:
 * reading argv from another process is racy (TOCTOU), so strict mode is
 * for visibility and policy, not a boundary against a hostile program;
 * and no_new_privs stops sudo, su and other setuid programs from gaining
 * privileges in the tree.
 */
#ifndef STRICT_H
#define STRICT_H

struct strict_opts {
	const char	*socket;	/* the daemon's socket */
	const char	*drops;		/* the drop counter file, or NULL */
	int		 enforce;	/* send checks and refuse "deny" */
	int		 fail_closed;	/* refuse when there is no verdict */
	int		 timeout_ms;	/* budget for one verdict */
};

/*
 * Run argv (searched in PATH) under the supervisor and return its exit
 * status, as a shell would: the code, or 128 + the signal; 126 or 127 if
 * it could not be run.  Prints its own error messages.
 */
int	strict_run(char **argv, const struct strict_opts *opts);

/*
 * Whether the file argv0 (searched in PATH) is sudo, su, doas or a
 * setuid or setgid file, which no_new_privs keeps from working.
 */
int	strict_needs_privs(const char *argv0);

/* Append one byte (a drop reason) to the drop counter file. */
void	strict_count_drop(const char *drops, char reason);

#endif
