/*
 * The daemon's sandbox: after start-up (socket bound, directories open,
 * rules compiled, key loaded) the daemon calls sandbox_enter() once and
 * from then on may use only the system calls its normal work needs.
 *
 * Backends, one file each, behind struct sandbox_ops:
 *
 *	sandbox-seccomp.c	PR_SET_NO_NEW_PRIVS + a libseccomp allow-list
 *	sandbox-none.c		nothing (debugging, unsupported kernels); it
 *				also holds the front end below
 *
 * Both are always compiled.  The mode is chosen, last one wins, by:
 * the build (-DDELIBERATE_SANDBOX_DEFAULT='"none"', default "seccomp";
 * sanitizer builds default to "none" because LeakSanitizer ptraces the
 * process at exit), the environment (DELIBERATE_SANDBOX=MODE) and the
 * command line (deliberated --sandbox MODE).  Modes:
 *
 *	seccomp	(or "kill")  forbidden calls kill the process (SIGSYS)
 *	trap	forbidden calls are logged to stderr by number and name,
 *		fail with ENOSYS, and the daemon goes on (debugging)
 *	log	forbidden calls are allowed and logged by the kernel's audit
 *	none	no sandbox
 *
 * The sandbox forbids fork and exec: a future feature that runs helper
 * programs (the AI analyzer) must start them from a broker forked before
 * sandbox_enter(), never from the sandboxed daemon.
 */
#ifndef SANDBOX_H
#define SANDBOX_H

enum sandbox_mode {
	SANDBOX_KILL = 0,
	SANDBOX_TRAP = 1,
	SANDBOX_LOG = 2,
	SANDBOX_NONE = 3,
};

struct sandbox_ops {
	const char	*name;
	/* Lock the process down; 0 or -errno with *cause (caller frees). */
	int		(*enter)(enum sandbox_mode, char **cause);
};

extern const struct sandbox_ops sandbox_seccomp_ops;
extern const struct sandbox_ops sandbox_none_ops;

/* Choose the mode by name; 0, or -EINVAL with *cause for a bad name. */
int		 sandbox_select(const char *mode, char **cause);

/*
 * Apply the selected mode (the build default, then $DELIBERATE_SANDBOX
 * unless sandbox_select() was called).  Returns 0 or -errno with *cause.
 */
int		 sandbox_enter(char **cause);

/* The mode in force or about to be: "seccomp", "trap", "log", "none". */
const char	*sandbox_name(void);

/* Whether the mode is "none" (a failure to enter is then not fatal). */
int		 sandbox_disabled(void);

struct json_object;

/*
 * testhooks.c: the requests that prove the sandbox works, answered only
 * when the daemon was started with DELIBERATE_TEST_HOOKS=1 (see
 * docs/security.md).  {"v":1,"type":"control","op":"test-execve"} makes
 * the daemon call execve("/bin/true"), "test-socket-inet" makes it open
 * an AF_INET socket (both must kill it), and "test-probe" calls fchown()
 * (must fail with EACCES).  Returns a reply, or NULL when req is not a
 * test hook request or the hooks are off; dispatch() calls it first.
 */
struct json_object *testhooks_request(struct json_object *req);

#endif
