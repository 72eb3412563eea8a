/*
 * deliberate_hook: a bash loadable builtin that lets the bash hook talk to
 * the daemon without forking a client for every command.
 *
 *	enable -f /path/to/deliberate-bash.so deliberate_hook
 *
 *	deliberate_hook check [-r] [-f] [-e] [-t MS] [--] LINE
 *	deliberate_hook decision [-t MS] CHECKID ACTION MS [MODIFIED]
 *	deliberate_hook mark
 *	deliberate_hook line
 *	deliberate_hook preexec
 *	deliberate_hook arm [ENTRYID]
 *	deliberate_hook precmd [STATUS]
 *	deliberate_hook debug [$_]
 *	deliberate_hook prompt
 *
 * "check" sends one check request (docs/protocol.md) with the shell's
 * context and sets DELIBERATE_ACTION (allow, prompt, deny, or "down" when
 * the daemon did not answer within the budget), DELIBERATE_RISK,
 * DELIBERATE_RULE, DELIBERATE_DESC, DELIBERATE_ALT, DELIBERATE_CHECK_ID,
 * DELIBERATE_TIMEOUT, DELIBERATE_MODE, DELIBERATE_NOTE and
 * DELIBERATE_ERROR.  With -f a line that is obviously read-only (a short
 * built-in list, no shell operators) is recorded fire-and-forget as an
 * "event" with "ack": false, without waiting for the daemon; -e does the
 * same for any line (one that already ran, such as a function definition,
 * which fires no DEBUG trap).  "mark",
 * called at each prompt, remembers the history count so that "line" can
 * tell whether the line being run reached the history list, and sets
 * DELIBERATE_LINE to it (or to readline's last line when it did not, as
 * with HISTCONTROL=ignorespace).  "preexec" is the DEBUG trap's whole
 * per-line work in one call (line, check, moderate note, arming of the
 * outcome); it returns 10 when the shell has to act (prompt, deny, daemon
 * down).  "arm" arms the outcome of a line the shell let run after a
 * prompt, and "precmd STATUS" sends the armed outcome fire-and-forget and
 * then marks the history.  Every shell command costs microseconds, so the
 * common path runs in here.
 *
 * The builtin is named deliberate_hook, not deliberate, so that it does not
 * shadow the deliberate command in the user's shell.  It links nothing but
 * the C library and never prints except for usage errors.  It keeps one
 * connection to the daemon open across calls (close-on-exec, so commands
 * do not inherit it), which saves a connect and an accept per command;
 * see dlb_connect() for when it is replaced.
 */
#include <config.h>

#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "builtins.h"
#include "shell.h"
#include "bashgetopt.h"
#include "common.h"
#include "execute_cmd.h"

#include "hookcore.h"

/* From readline's history library and parse.y, linked into bash. */
struct dlb_hist_entry {
	char	*line;
	char	*timestamp;
	void	*data;
};
extern int	history_base;
extern int	history_length;
extern struct dlb_hist_entry *history_get(int);
extern char	*rl_line_buffer;
extern int	find_reserved_word(char *);

#define DLB_BUDGET_MS		90	/* the whole round trip */
#define DLB_MAX_LINE		(200 * 1024)
#define DLB_MAX_REPLY		(64 * 1024)

static int	dlb_marked = -1;

static const char *
dlb_var(const char *name)
{
	return get_string_value(name);
}

extern char	**export_env;
extern int	 array_needs_making;

/*
 * A variable's value, read from the environment bash passes to commands
 * when it is exported: a lookup in bash's own tables counts a hit in the
 * variable's hash bucket, a write to the shell's memory, and after every
 * fork each first write to a page costs a page fault (see dlb_set).  When
 * the environment is out of date (bash rebuilds it before the next
 * command) or the variable is not exported, it is looked up.
 */
static const char *
dlb_env(const char *name)
{
	size_t	n = strlen(name);
	char	**e;

	/* Out of date (an exported variable changed): looked up. */
	if (array_needs_making)
		return dlb_var(name);
	for (e = export_env; e != NULL && *e != NULL; e++) {
		if (strncmp(*e, name, n) == 0 && (*e)[n] == '=')
			return *e + n + 1;
	}
	return dlb_var(name);
}

/*
 * The socket path, by the rules of docs/protocol.md; looked up again at
 * most once a second (each variable lookup writes to the shell's memory,
 * see dlb_set).
 */
static int
dlb_socket_path(char *out, size_t len)
{
	return hook_socket_path_cached(out, len, dlb_env);
}

/*
 * The connection kept across calls.  It is replaced when it is older than
 * the daemon's idle limit allows (DLB_IDLE_MS, below the daemon's 120 s,
 * so the daemon never closes it while a message is in flight), when the
 * socket path changed, in a forked subshell (which must not share the
 * parent's stream), and after any failed or timed-out exchange (so a late
 * reply can never be read as the answer to the next request).
 */
#define DLB_IDLE_MS	(60 * 1000)

static int		 dlb_fd = -1;
static pid_t		 dlb_fd_pid;
static dev_t		 dlb_fd_dev;	/* what dlb_fd is, to notice that */
static ino_t		 dlb_fd_ino;	/* a script took the number */
/*
 * Outcome annotations wait here for the next message (the next line's
 * check or event, one write and one wake-up of the daemon instead of
 * two); the last one goes at exit (dlb_fini).  Only the process that
 * wrote them sends them: a forked subshell's copy is never sent.
 */
#define DLB_PENDING_MAX	(16 * 1024)
static struct hook_buf	 dlb_pending;
static pid_t		 dlb_pending_pid;
static long long	 dlb_fd_used;
static char		 dlb_fd_path[sizeof ((struct sockaddr_un *)0)->sun_path];

/* Fire-and-forget messages go here first (hook_quiet_send). */
static struct hook_quiet dlb_quiet = HOOK_QUIET_INIT;

static void
dlb_disconnect(void)
{
	if (dlb_fd >= 0)
		close(dlb_fd);
	dlb_fd = -1;
}

/* The open connection, or a new one; *fresh says which.  -1 on error. */
static int
dlb_connect(int *fresh)
{
	struct sockaddr_un	sun;
	struct stat		st;

	memset(&sun, 0, sizeof sun);
	sun.sun_family = AF_UNIX;
	if (dlb_socket_path(sun.sun_path, sizeof sun.sun_path) != 0) {
		dlb_disconnect();
		return -1;
	}
	*fresh = 0;
	if (dlb_fd >= 0 && (fstat(dlb_fd, &st) != 0 || st.st_dev !=
	    dlb_fd_dev || st.st_ino != dlb_fd_ino))
		dlb_fd = -1;	/* exec 100>file: theirs now, not closed */
	if (dlb_fd >= 0 && dlb_fd_pid == getpid() &&
	    hook_mono_ms() - dlb_fd_used < DLB_IDLE_MS &&
	    strcmp(dlb_fd_path, sun.sun_path) == 0)
		return dlb_fd;
	dlb_disconnect();
	*fresh = 1;
	if ((dlb_fd = hook_connect_high(sun.sun_path, &dlb_fd_dev,
	    &dlb_fd_ino)) < 0)
		return -1;
	dlb_fd_pid = getpid();
	memcpy(dlb_fd_path, sun.sun_path, sizeof dlb_fd_path);
	return dlb_fd;
}

/* One attempt of dlb_exchange() on fd.  Returns 0, -1, or -2 to retry. */
static int
dlb_exchange1(int fd, int fresh, const struct hook_buf *msg,
    struct hook_buf *reply, unsigned long seq, long long deadline)
{
	struct pollfd	 pfd;
	size_t		 off = 0;
	ssize_t		 n;
	long long	 left;

	if (!fresh && reply != NULL && !hook_idle_ok(fd))
		return -2;
	pfd.fd = fd;
	while (off < msg->len) {
		n = send(fd, msg->p + off, msg->len - off, MSG_NOSIGNAL);
		if (n > 0) {
			off += (size_t)n;
			continue;
		}
		/* The daemon went away since the last call: reconnect. */
		if (n < 0 && off == 0 && !fresh && (errno == EPIPE ||
		    errno == ECONNRESET || errno == ENOTCONN))
			return -2;
		if (n < 0 && errno != EAGAIN && errno != EINTR)
			return -1;
		if ((left = deadline - hook_mono_ms()) <= 0)
			return -1;
		pfd.events = POLLOUT;
		if (poll(&pfd, 1, (int)left) <= 0 && errno != EINTR)
			return -1;
	}
	if (reply == NULL)
		return 0;
	return hook_read_reply(fd, seq, deadline, reply, DLB_MAX_REPLY);
}

/*
 * Send msg and, unless reply is NULL, read one reply line into it, all
 * within deadline (monotonic ms), on the kept connection.  Returns 0 or -1.
 */
static int
dlb_exchange(const struct hook_buf *msg, struct hook_buf *reply,
    long long deadline)
{
	static unsigned long	 seq;
	/* Kept: the same memory each time (see dlb_set). */
	static struct hook_buf	 sm;
	char			 num[32];
	char			 path[sizeof dlb_fd_path];
	int			 fd, fresh, r = -1, pending = 0;

	sm.len = 0;
	sm.oom = 0;
	if (dlb_pending.len > 0 && dlb_pending_pid == getpid()) {
		pending = 1;
		/*
		 * An event goes after the outcome in the buffer that holds it:
		 * a page this line has written already (see dlb_set).
		 */
		if (reply == NULL) {
			hook_addn(&dlb_pending, msg->p, msg->len);
			if (!dlb_pending.oom) {
				msg = &dlb_pending;
				goto send;
			}
			dlb_pending.oom = 0;
			dlb_pending.len = 0;
			goto out;
		}
		hook_addn(&sm, dlb_pending.p, dlb_pending.len);
	}
	/* A request that wants a reply carries a seq, echoed in it. */
	if (reply != NULL) {
		if (msg->len < 2 || msg->p[0] != '{')
			goto out;
		snprintf(num, sizeof num, "{\"seq\":%lu,", ++seq);
		hook_adds(&sm, num);
		hook_addn(&sm, msg->p + 1, msg->len - 1);
	}
	if (sm.oom)
		goto out;
	if (sm.len > 0)
		msg = &sm;
send:
	/* Nothing to wait for: the quiet connection, if it takes it. */
	if (reply == NULL && dlb_socket_path(path, sizeof path) == 0 &&
	    hook_quiet_send(&dlb_quiet, path, msg->p, msg->len) == 0) {
		r = 0;
		goto out;
	}
	if ((fd = dlb_connect(&fresh)) < 0)
		goto out;
	r = dlb_exchange1(fd, fresh, msg, reply, seq, deadline);
	if (r == -2) {
		dlb_disconnect();
		if (reply != NULL)
			reply->len = 0;
		if ((fd = dlb_connect(&fresh)) < 0) {
			r = -1;
			goto out;
		}
		r = dlb_exchange1(fd, fresh, msg, reply, seq, deadline);
	}
	if (r != 0)
		dlb_disconnect();
	else
		dlb_fd_used = hook_mono_ms();
out:
	/* Sent, or lost with a daemon that is not there. */
	if (pending)
		dlb_pending.len = 0;
	if (sm.cap > 64 * 1024) {
		free(sm.p);
		memset(&sm, 0, sizeof sm);
	}
	return r == 0 ? 0 : -1;
}

/* At exit: the outcome still waiting, without waiting for anything. */
__attribute__((destructor)) static void
dlb_fini(void)
{
	if (dlb_pending.len > 0 && dlb_pending_pid == getpid() &&
	    (dlb_quiet.fd < 0 || hook_quiet_send(&dlb_quiet, dlb_quiet.path,
	    dlb_pending.p, dlb_pending.len) != 0) &&
	    dlb_fd >= 0 && dlb_fd_pid == getpid())
		(void)send(dlb_fd, dlb_pending.p, dlb_pending.len,
		    MSG_DONTWAIT | MSG_NOSIGNAL);
	free(dlb_pending.p);
	dlb_pending.p = NULL;
	dlb_pending.len = dlb_pending.cap = 0;
}

/*
 * Set a shell variable, unless it has the value already: every command
 * the line runs forks, and after a fork the first write to each page of
 * the shell's memory faults, so an assignment that changes nothing still
 * costs.
 */
static struct {
	const char	*name;
	char		*value;
	int		 valid;
}		 dlb_shadow[24];

/*
 * Set while the DELIBERATE_* variables hold what a line recorded on the
 * fast path leaves (allow, safe, fast, nothing else): the next such line
 * then sets none of them.  Any other dlb_set() and dlb_shadow_stale()
 * clear it.
 */
static int		 dlb_vars_fast;

/*
 * The DELIBERATE_* variables the builtin sets are remembered here: they
 * are not even looked up when they keep their value (a lookup writes a
 * counter in the shell's hash table).  Whenever shell code that might set
 * them has run (a slow path, another verb, another DEBUG trap), the
 * copies are marked stale and the next assignment is made.
 */
static void
dlb_shadow_stale(void)
{
	size_t	i;

	for (i = 0; i < sizeof dlb_shadow / sizeof dlb_shadow[0]; i++)
		dlb_shadow[i].valid = 0;
	dlb_vars_fast = 0;
}

static void
dlb_set(const char *name, const char *value)
{
	const char	*v;
	size_t		 i, n = sizeof dlb_shadow / sizeof dlb_shadow[0];

	dlb_vars_fast = 0;
	if (strncmp(name, "DELIBERATE_", 11) != 0 ||
	    strcmp(name, "DELIBERATE_LINE") == 0) {
		v = get_string_value(name);
		if (v == NULL || strcmp(v, value) != 0)
			bind_variable((char *)name, (char *)value, 0);
		return;
	}
	/* The names are the same literals each time: pointers first. */
	for (i = 0; i < n && dlb_shadow[i].name != NULL; i++) {
		if (dlb_shadow[i].name == name)
			break;
	}
	if (i == n || dlb_shadow[i].name == NULL) {
		for (i = 0; i < n && dlb_shadow[i].name != NULL; i++) {
			if (strcmp(dlb_shadow[i].name, name) == 0)
				break;
		}
	}
	if (i < n && dlb_shadow[i].name != NULL && dlb_shadow[i].valid &&
	    strcmp(dlb_shadow[i].value, value) == 0)
		return;
	bind_variable((char *)name, (char *)value, 0);
	if (i == n)
		return;
	free(dlb_shadow[i].value);
	dlb_shadow[i].name = name;
	dlb_shadow[i].value = strdup(value);
	dlb_shadow[i].valid = dlb_shadow[i].value != NULL;
}

/* A DELIBERATE_* variable the builtin set, without a lookup if it can. */
static const char *
dlb_get(const char *name)
{
	size_t	i, n = sizeof dlb_shadow / sizeof dlb_shadow[0];

	for (i = 0; i < n && dlb_shadow[i].name != NULL; i++) {
		if (dlb_shadow[i].valid && strcmp(dlb_shadow[i].name, name) == 0)
			return dlb_shadow[i].value;
	}
	return dlb_var(name);
}

static void
dlb_reset_vars(const char *action)
{
	int	i;

	for (i = 0; hook_reply_vars[i].key != NULL; i++)
		dlb_set(hook_reply_vars[i].var, "");
	dlb_set("DELIBERATE_ACTION", action);
	dlb_set("DELIBERATE_TIMEOUT", "30");
}

/* hook_reply_fn for bash: the shell variable of a reply field. */
static void
dlb_reply_set(const char *key, const char *val)
{
	int	i = hook_reply_index(key);

	if (i >= 0)
		dlb_set(hook_reply_vars[i].var, val);
}

/*
 * A check's reply, staged: every variable is then set once, to its value
 * in the reply or its default, and only when it changes (see dlb_set),
 * instead of being emptied and set again on every line.
 */
#define DLB_NSTAGE	16
static char	*dlb_stage[DLB_NSTAGE];

static void
dlb_reply_stage(const char *key, const char *val)
{
	int	i = hook_reply_index(key);

	if (i < 0 || i >= DLB_NSTAGE)
		return;
	free(dlb_stage[i]);
	dlb_stage[i] = strdup(val);
}

/* Parse reply p into the variables.  0, or -1 (nothing set). */
static int
dlb_apply_reply(const char *p)
{
	const char	*v;
	int		 i, r;

	r = hook_parse_reply(p, dlb_reply_stage);
	for (i = 0; hook_reply_vars[i].key != NULL; i++) {
		if (i >= DLB_NSTAGE)
			break;
		if (r == 0) {
			v = dlb_stage[i] != NULL ? dlb_stage[i] :
			    strcmp(hook_reply_vars[i].var,
			    "DELIBERATE_TIMEOUT") == 0 ? "30" : "";
			dlb_set(hook_reply_vars[i].var, v);
		}
		free(dlb_stage[i]);
		dlb_stage[i] = NULL;
	}
	return r;
}

static int
dlb_parse_reply(const char *p)
{
	return hook_parse_reply(p, dlb_reply_set);
}

static unsigned int	 dlb_ct_gen;	/* one per check: see below */

/* What bash would run for the first word (cheap lookups, no fork). */
static const char *
dlb_cmd_type1(char *w)
{
#if defined(ALIAS)
	if (find_alias(w) != NULL)
		return "alias";
#endif
	if (find_reserved_word(w) >= 0)
		return "keyword";
	if (find_function(w) != NULL)
		return "function";
	if (find_shell_builtin(w) != NULL)
		return "builtin";
	return "file";
}

/* The fast path and the context ask about the same word: asked once. */
static const char *
dlb_cmd_type(const char *word)
{
	static char		 w[256];
	static const char	*ct;
	static unsigned int	 gen;

	if (strlen(word) >= sizeof w || *word == '\0' || strchr(word, '=') ||
	    strpbrk(word, "\"'$`\\") != NULL)
		return NULL;
	if (gen == dlb_ct_gen && ct != NULL && strcmp(w, word) == 0)
		return ct;
	strcpy(w, word);
	gen = dlb_ct_gen;
	return ct = dlb_cmd_type1(w);
}

/* hook_cmd_fn for bash: a command, a builtin or a keyword. */
static int
dlb_plain_cmd(const char *word)
{
	const char	*ct = dlb_cmd_type(word);

	return ct != NULL && strcmp(ct, "alias") != 0 &&
	    strcmp(ct, "function") != 0;
}

/* hookcore.c's fast path, with this shell's trigger file and lookups. */
static int
dlb_fast_path(const char *line)
{
	const char	*v;
	char		 path[sizeof ((struct sockaddr_un *)0)->sun_path];

	if ((v = dlb_env("DELIBERATE_FASTPATH")) != NULL && strcmp(v, "0") == 0)
		return 0;
	hook_trig_load(dlb_socket_path(path, sizeof path) == 0 ? path : NULL);
	if (hook_fast_path(line, dlb_plain_cmd))
		return 1;
	/* DELIBERATE_SEEN=0: a line seen safe is asked about again. */
	return ((v = dlb_env("DELIBERATE_SEEN")) == NULL ||
	    strcmp(v, "0") != 0) && hook_seen(line, dlb_plain_cmd);
}

/* The common command fields of an event or check request. */
static void
dlb_add_context(struct hook_buf *b, const char *line)
{
	static char	 tty[256];
	static int	 tty_done;
	const char	*v, *ct;
	char		 w[256], cwd[4096];
#if defined(ALIAS)
	alias_t		*al;
#endif

	if (!tty_done) {
		if (ttyname_r(STDIN_FILENO, tty, sizeof tty) != 0)
			tty[0] = '\0';
		tty_done = 1;
	}
	hook_addkv(b, "source", "hook");
	hook_addkv(b, "line", line);
	v = dlb_env("PWD");
	if (v == NULL || *v != '/')
		v = getcwd(cwd, sizeof cwd) != NULL ? cwd : "/";
	hook_addkv(b, "cwd", v);
	hook_addnum(b, "pid", (long long)getpid());
	hook_addnum(b, "ppid", (long long)getppid());
	hook_addkv(b, "tty", tty);
	hook_addkv(b, "shell", "bash");
	if ((v = dlb_env("TERM")) != NULL)
		hook_addkv(b, "term", v);
	hook_adds(b, interactive_shell ? ",\"interactive\":true" :
	    ",\"interactive\":false");
	hook_adds(b, isatty(STDIN_FILENO) ? ",\"isTTY\":true" :
	    ",\"isTTY\":false");
	hook_adds(b, getenv("SUDO_UID") != NULL ? ",\"sudo\":true" :
	    ",\"sudo\":false");
	if ((v = dlb_env("DELIBERATE_SESSION")) != NULL && *v != '\0')
		hook_addkv(b, "session", v);
	hook_first_word(line, w, sizeof w);
	if ((ct = dlb_cmd_type(w)) != NULL) {
		hook_addkv(b, "cmdType", ct);
#if defined(ALIAS)
		/* The daemon judges what it expands to, too. */
		if (strcmp(ct, "alias") == 0 && (al = find_alias(w)) != NULL &&
		    al->value != NULL)
			hook_addkv(b, "aliasValue", al->value);
#endif
	}
	if ((v = dlb_env("PATH")) != NULL)
		hook_addkv(b, "pathEnv", v);
	hook_addnum(b, "ts", hook_now_ms());
}

static int
dlb_budget(int opt_ms)
{
	const char	*v;
	int		 ms;

	if (opt_ms > 0)
		return opt_ms;
	if ((v = dlb_env("DELIBERATE_HOOK_TIMEOUT_MS")) != NULL &&
	    (ms = atoi(v)) > 0 && ms <= 60000)
		return ms;
	return DLB_BUDGET_MS;
}

/* -Wwrite-strings: bash wants writable strings. */
static char dlb_check_opts[] = "erft:";
static char dlb_decision_opts[] = "t:";

static int	dlb_check_line(const char *, int, int, int, int);

static int
dlb_check(WORD_LIST *list)
{
	int	opt, record = 0, fast = 0, ran = 0, ms = 0;

	reset_internal_getopt();
	while ((opt = internal_getopt(list, dlb_check_opts)) != -1) {
		switch (opt) {
		case 'r':
			record = 1;
			break;
		case 'f':
			fast = 1;
			break;
		case 'e':
			ran = 1;
			break;
		case 't':
			ms = atoi(list_optarg);
			break;
		CASE_HELPOPT;
		default:
			builtin_usage();
			return EX_USAGE;
		}
	}
	list = loptend;
	if (list == NULL || list->next != NULL) {
		builtin_usage();
		return EX_USAGE;
	}
	return dlb_check_line(list->word->word, record, fast, ran, ms);
}

/*
 * Check line (see "check" above); the verdict goes to the DELIBERATE_*
 * variables.  Returns 0, 1 for an error reply, 3 when the daemon did not
 * answer.
 */
static int
dlb_check_line(const char *line, int record, int fast, int ran, int ms)
{
	/* Kept: the same memory each time (see dlb_set). */
	static struct hook_buf	 msg;
	struct hook_buf		 rep = { NULL, 0, 0, 0 };
	const char		*ok, *v;
	long long		 t0 = hook_mono_ms();
	int			 r;

	msg.len = 0;
	msg.oom = 0;
	dlb_ct_gen++;

	if (strlen(line) > DLB_MAX_LINE) {
		dlb_reset_vars("allow");
		dlb_set("DELIBERATE_ERROR", "line too long to check");
		return EXECUTION_FAILURE;
	}
	if (ran || (fast && record && dlb_fast_path(line))) {
		hook_adds(&msg, "{\"v\":1,\"type\":\"event\",\"ack\":false");
		dlb_add_context(&msg, line);
		hook_adds(&msg, ",\"action\":\"execute\"}\n");
		r = msg.oom ? -1 : dlb_exchange(&msg, NULL,
		    t0 + dlb_budget(ms));
		if (r == 0 && dlb_vars_fast)
			return EXECUTION_SUCCESS;
		dlb_reset_vars(r == 0 ? "allow" : "down");
		if (r == 0) {
			dlb_set("DELIBERATE_RISK", "safe");
			dlb_set("DELIBERATE_OK", "fast");
			dlb_vars_fast = 1;
		}
		return r == 0 ? EXECUTION_SUCCESS : 3;
	}
	hook_adds(&msg, "{\"v\":1,\"type\":\"check\"");
	hook_adds(&msg, record ? ",\"record\":true" : ",\"record\":false");
	dlb_add_context(&msg, line);
	hook_adds(&msg, "}\n");
	r = msg.oom ? -1 : dlb_exchange(&msg, &rep, t0 + dlb_budget(ms));
	if (r != 0) {
		free(rep.p);
		dlb_reset_vars("down");
		return 3;
	}
	r = dlb_apply_reply(rep.p);
	free(rep.p);
	if (r != 0) {
		dlb_reset_vars("allow");
		dlb_set("DELIBERATE_ERROR", "unreadable reply");
		return EXECUTION_FAILURE;
	}
	if ((ok = dlb_get("DELIBERATE_OK")) == NULL || strcmp(ok, "true") != 0) {
		dlb_set("DELIBERATE_ACTION", "allow");
		return EXECUTION_FAILURE;
	}
	/* The same line again goes the fast way (hook_seen_safe). */
	if (fast && record && (v = dlb_get("DELIBERATE_RISK")) != NULL &&
	    strcmp(v, "safe") == 0 && (v = dlb_get("DELIBERATE_ACTION")) !=
	    NULL && strcmp(v, "allow") == 0)
		hook_seen_safe(line, dlb_plain_cmd);
	return EXECUTION_SUCCESS;
}

static int
dlb_decision(WORD_LIST *list)
{
	struct hook_buf	 msg = { NULL, 0, 0, 0 }, rep = { NULL, 0, 0, 0 };
	const char	*id, *action, *ms, *mod = NULL, *p;
	long long	 t0 = hook_mono_ms();
	int		 opt, budget = 0, r;

	reset_internal_getopt();
	while ((opt = internal_getopt(list, dlb_decision_opts)) != -1) {
		switch (opt) {
		case 't':
			budget = atoi(list_optarg);
			break;
		CASE_HELPOPT;
		default:
			builtin_usage();
			return EX_USAGE;
		}
	}
	list = loptend;
	if (list == NULL || list->next == NULL || list->next->next == NULL) {
		builtin_usage();
		return EX_USAGE;
	}
	id = list->word->word;
	action = list->next->word->word;
	ms = list->next->next->word->word;
	if (list->next->next->next != NULL)
		mod = list->next->next->next->word->word;
	for (p = ms; *p != '\0'; p++) {
		if ((*p < '0' || *p > '9') && *p != '.')
			break;
	}
	if (*ms == '\0' || *p != '\0') {
		builtin_error("decision time must be a number: %s", ms);
		return EX_USAGE;
	}
	hook_adds(&msg, "{\"v\":1,\"type\":\"decision\"");
	hook_addkv(&msg, "checkId", id);
	hook_addkv(&msg, "action", action);
	hook_adds(&msg, ",\"decisionTime\":");
	hook_adds(&msg, ms);
	if (mod != NULL)
		hook_addkv(&msg, "modifiedCommand", mod);
	hook_adds(&msg, "}\n");
	r = msg.oom ? -1 : dlb_exchange(&msg, &rep,
	    t0 + dlb_budget(budget > 0 ? budget : 1000));
	free(msg.p);
	if (r != 0) {
		free(rep.p);
		return 3;
	}
	r = (rep.p != NULL && strstr(rep.p, "\"ok\":true") != NULL) ?
	    EXECUTION_SUCCESS : EXECUTION_FAILURE;
	/* The reply names the entry written: DELIBERATE_ENTRY_ID. */
	dlb_set("DELIBERATE_ENTRY_ID", "");
	if (r == EXECUTION_SUCCESS)
		dlb_parse_reply(rep.p);
	free(rep.p);
	return r;
}

/*
 * annotate outcome ID|- STATUS MS, or annotate correction ID|- RISK:
 * "-" stands for the session's last entry.
 */
/* The start of an annotate request: kind, and entry id or "-" (last). */
static void
dlb_annotate_head(struct hook_buf *msg, const char *kind, const char *id)
{
	const char	*v;

	hook_adds(msg, "{\"v\":1,\"type\":\"annotate\"");
	hook_addkv(msg, "kind", kind);
	if (strcmp(id, "-") == 0) {
		hook_adds(msg, ",\"last\":true");
		if ((v = dlb_env("DELIBERATE_SESSION")) != NULL)
			hook_addkv(msg, "session", v);
	} else
		hook_addkv(msg, "entryId", id);
}

static int
dlb_annotate(WORD_LIST *list)
{
	struct hook_buf	 msg = { NULL, 0, 0, 0 }, rep = { NULL, 0, 0, 0 };
	const char	*kind, *id, *a, *b = NULL, *p;
	long long	 t0 = hook_mono_ms();
	int		 r, outcome;

	if (list == NULL || list->next == NULL || list->next->next == NULL) {
		builtin_usage();
		return EX_USAGE;
	}
	kind = list->word->word;
	id = list->next->word->word;
	a = list->next->next->word->word;
	if (list->next->next->next != NULL)
		b = list->next->next->next->word->word;
	dlb_annotate_head(&msg, kind, id);
	if (strcmp(kind, "outcome") == 0) {
		if (b == NULL)
			b = "0";
		for (p = a; *p >= '0' && *p <= '9'; p++)
			;
		if (*a == '\0' || *p != '\0') {
			builtin_error("exit status must be a number: %s", a);
			free(msg.p);
			return EX_USAGE;
		}
		for (p = b; (*p >= '0' && *p <= '9') || *p == '.'; p++)
			;
		if (*b == '\0' || *p != '\0') {
			builtin_error("duration must be a number: %s", b);
			free(msg.p);
			return EX_USAGE;
		}
		hook_adds(&msg, ",\"exitStatus\":");
		hook_adds(&msg, a);
		hook_adds(&msg, ",\"durationMs\":");
		hook_adds(&msg, b);
	} else if (strcmp(kind, "correction") == 0)
		hook_addkv(&msg, "correctClassification", a);
	else {
		builtin_usage();
		free(msg.p);
		return EX_USAGE;
	}
	/* An outcome goes fire-and-forget: the prompt never waits. */
	outcome = strcmp(kind, "outcome") == 0;
	if (outcome)
		hook_adds(&msg, ",\"ack\":false");
	hook_adds(&msg, "}\n");
	r = msg.oom ? -1 : dlb_exchange(&msg, outcome ? NULL : &rep,
	    t0 + dlb_budget(0));
	free(msg.p);
	if (r != 0) {
		free(rep.p);
		return 3;
	}
	if (outcome)
		return EXECUTION_SUCCESS;
	r = (rep.p != NULL && strstr(rep.p, "\"ok\":true") != NULL) ?
	    EXECUTION_SUCCESS : EXECUTION_FAILURE;
	free(rep.p);
	return r;
}

/*
 * The line about to run, recorded: its outcome (exit status, duration) is
 * sent at the next prompt.  eid "-" is the session's last entry.
 */
static int		 dlb_armed;
static char		 dlb_eid[64];
static long long	 dlb_t0;

static void
dlb_arm(const char *eid)
{
	dlb_armed = 1;
	snprintf(dlb_eid, sizeof dlb_eid, "%s",
	    eid != NULL && *eid != '\0' ? eid : "-");
	dlb_t0 = hook_mono_ms();
}

static int	dlb_line(void);
static const char *dlb_line_text(void);
static int	dlb_total(void);

/*
 * The whole per-line work of the DEBUG trap, in one call: read the line,
 * check it (fast path or verdict), print the moderate note, and arm its
 * outcome.  Returns 0 when the line may run and nothing is left to do,
 * 10 when the shell must act on DELIBERATE_ACTION (prompt, deny, down),
 * with the line in DELIBERATE_LINE.
 */
static int
dlb_preexec(void)
{
	const char	*v, *line, *risk, *note, *msg;
	int		 record, r;

	/* DELIBERATE_LINE is set only for the shell's slow paths. */
	line = dlb_line_text();
	if (line[strspn(line, " \t\n")] == '\0')
		return EXECUTION_SUCCESS;
	/* A line typed with a leading space is checked, never recorded. */
	record = !(*line == ' ' || *line == '\t' || *line == '\n');
	r = dlb_check_line(line, record, 1, 0, 0);
	/* Recorded on the fast path: nothing to read back. */
	if (r == EXECUTION_SUCCESS && dlb_vars_fast) {
		if (record)
			dlb_arm("-");
		return EXECUTION_SUCCESS;
	}
	v = dlb_get("DELIBERATE_ACTION");
	if (r == 3 || v == NULL || strcmp(v, "prompt") == 0 ||
	    strcmp(v, "deny") == 0 || strcmp(v, "down") == 0 || *v == '\0') {
		dlb_line();
		dlb_shadow_stale();
		return 10;
	}
	risk = dlb_get("DELIBERATE_RISK");
	note = dlb_get("DELIBERATE_NOTE");
	if (risk != NULL && strcmp(risk, "moderate") == 0 && note != NULL &&
	    strcmp(note, "true") == 0) {
		if ((msg = dlb_get("DELIBERATE_DESC")) == NULL || *msg == '\0')
			msg = dlb_get("DELIBERATE_RULE");
		fprintf(stderr, "deliberate: moderate risk: %s\n",
		    msg != NULL ? msg : "");
		fflush(stderr);
	}
	if (record)
		dlb_arm(dlb_get("DELIBERATE_ENTRY_ID"));
	return EXECUTION_SUCCESS;
}

/* At the prompt: the armed line's outcome, then the history mark. */
static int
dlb_precmd(WORD_LIST *list)
{
	const char	*v;
	char		 num[96];
	size_t		 len;
	long long	 t0 = hook_mono_ms();
	int		 status = 0;

	if (list != NULL) {
		for (v = list->word->word; *v >= '0' && *v <= '9'; v++)
			;
		if (*list->word->word == '\0' || *v != '\0') {
			builtin_error("exit status must be a number: %s",
			    list->word->word);
			return EX_USAGE;
		}
		status = atoi(list->word->word) & 255;
	}
	if (dlb_armed) {
		dlb_armed = 0;
		/* It goes with the next message (see dlb_pending). */
		if (dlb_pending_pid != getpid())
			dlb_pending.len = 0;
		dlb_pending_pid = getpid();
		len = dlb_pending.len;
		dlb_annotate_head(&dlb_pending, "outcome", dlb_eid);
		snprintf(num, sizeof num, ",\"ack\":false,\"exitStatus\":%d,"
		    "\"durationMs\":%lld}\n", status, t0 - dlb_t0);
		hook_adds(&dlb_pending, num);
		/* Out of memory: this one is lost; too many: all are. */
		if (dlb_pending.oom)
			dlb_pending.len = len;
		if (dlb_pending.len > DLB_PENDING_MAX)
			dlb_pending.len = 0;
		dlb_pending.oom = 0;
		if (dlb_pending.p != NULL)
			dlb_pending.p[dlb_pending.len] = '\0';
	}
	dlb_marked = dlb_total();
	return EXECUTION_SUCCESS;
}

/*
 * The PS0 hook.  bash expands PS0 once for each command line it has read,
 * after parsing it and before running any of it.  The hook's PS0 holds
 * ${__dlb_hook}, a variable whose value bash gets from dlb_hook_value(),
 * so the whole per-line check runs there, in C, with no shell code: no
 * DEBUG trap and no extdebug on a common line.  A line that needs the
 * shell (a prompt, a refusal, a daemon that is down) is lent the DEBUG
 * trap, with extdebug's skipping of a refused command (debugging_mode),
 * until the next prompt gives the user's own trap back (dlb_give_back).
 */
extern char	*trap_list[];
extern int	 executing;
extern int	 current_command_number;
extern void	 set_debug_trap(char *);
extern void	 restore_default_signal(int);

#define DLB_DEBUG_TRAP	NSIG		/* DEBUG_TRAP in bash's trap.h */

static char	 dlb_trap[] = "deliberate_hook debug \"$_\"";
static int	 dlb_ps0_cmd = -1;	/* current_command_number checked */
static int	 dlb_lent;		/* 1 lent, 2 lent and fired */
static int	 dlb_lent_mode;		/* debugging_mode before */
static char	*dlb_lent_prev;		/* the user's DEBUG trap, or NULL */
static int	 dlb_ps0_mode;		/* "init" made ${__dlb_hook} */
static int	 dlb_ps0_fired;		/* since the last prompt */
static int	 dlb_prompt_ccn = -1;	/* current_command_number then */
static int	 dlb_pc_ccn = -1;	/* the prompt's work done after it */

static void	dlb_prompt_work(int);
static int	dlb_pc_attach(void);

static int	dlb_eval(const char *);

/* The DEBUG trap's command, or NULL (none, or ignored). */
static const char *
dlb_debug_trap(void)
{
	char	*t = trap_list[DLB_DEBUG_TRAP];

	return (uintptr_t)t <= 1 ? NULL : t;	/* DEFAULT_SIG, IGNORE_SIG */
}

static void
dlb_lend_trap(void)
{
	const char	*t = dlb_debug_trap();

	if (t != NULL && strcmp(t, dlb_trap) == 0)
		t = NULL;
	free(dlb_lent_prev);
	dlb_lent_prev = t != NULL ? strdup(t) : NULL;
	dlb_set("__dlb_prev_debug", dlb_lent_prev != NULL ? dlb_lent_prev : "");
	set_debug_trap(dlb_trap);
	dlb_lent_mode = debugging_mode;
	debugging_mode = 1;
	dlb_lent = 1;
}

/*
 * At the prompt: the user's DEBUG trap back, unless the line set one of
 * its own.  A lent line that fired no trap (a function definition) ran
 * without the shell's say: __deliberate_unfired records that.
 */
static void
dlb_give_back(void)
{
	const char	*t = dlb_debug_trap();
	int		 fired = dlb_lent == 2;

	if (dlb_lent == 0)
		return;
	dlb_lent = 0;
	if (t != NULL && strcmp(t, dlb_trap) == 0) {
		if (dlb_lent_prev != NULL)
			set_debug_trap(dlb_lent_prev);
		else
			restore_default_signal(DLB_DEBUG_TRAP);
	}
	if (debugging_mode == 1)
		debugging_mode = dlb_lent_mode;
	free(dlb_lent_prev);
	dlb_lent_prev = NULL;
	dlb_set("__dlb_prev_debug", "");
	if (!fired)
		dlb_eval("__deliberate_unfired");
}

/*
 * Whether a dynamic value's lookup is bash's own, between command lines
 * (not while a command runs, in the shell itself, not a subshell), and the
 * first for this command number; *done then records it.
 */
static int
dlb_due(int *done)
{
	if (executing || *done == current_command_number ||
	    getpid() != dollar_dollar_pid || subshell_environment != 0)
		return 0;
	*done = current_command_number;
	return 1;
}

/*
 * ${__dlb_hook}: empty, and on bash's own expansion of PS0 the line's
 * check.
 */
static SHELL_VAR *
dlb_hook_value(SHELL_VAR *v)
{
	if (!dlb_due(&dlb_ps0_cmd))
		return v;
	/* The prompt's work was missed: PROMPT_COMMAND is a new variable. */
	if (dlb_due(&dlb_pc_ccn)) {
		dlb_prompt_work(last_command_exit_value);
		(void)dlb_pc_attach();
	}
	dlb_ps0_fired = 1;
	if (dlb_preexec() != EXECUTION_SUCCESS)
		dlb_lend_trap();
	return v;
}

/* Assignments to ${__dlb_hook} change nothing. */
static SHELL_VAR *
dlb_hook_assign(SHELL_VAR *v, char *value, arrayind_t ind, char *key)
{
	(void)value;
	(void)ind;
	(void)key;
	return v;
}

/*
 * PS0's own dynamic value.  bash looks PS0 up before it reads each line,
 * after the prompt commands ran: a PS0 that lost the hook's expansion (a
 * prompt framework set it anew) gets it back there, before the line is
 * read, rather than after a line that went unchecked.  A read-only or
 * array PS0 is left alone.
 */
static char	 dlb_ps0_text[] = "${__dlb_hook}";

static SHELL_VAR *
dlb_ps0var_value(SHELL_VAR *v)
{
	char	*val, *nv;
	size_t	 n;

	if (executing || !dlb_ps0_mode || getpid() != dollar_dollar_pid ||
	    subshell_environment != 0 || array_p(v) || assoc_p(v) ||
	    readonly_p(v) || invisible_p(v))
		return v;
	val = value_cell(v);
	if (val != NULL && strstr(val, dlb_ps0_text) != NULL)
		return v;
	n = val != NULL ? strlen(val) : 0;
	if ((nv = malloc(n + sizeof dlb_ps0_text)) == NULL)
		return v;
	if (n > 0)
		memcpy(nv, val, n);
	memcpy(nv + n, dlb_ps0_text, sizeof dlb_ps0_text);
	free(val);
	var_setvalue(v, nv);
	if (exported_p(v))
		array_needs_making = 1;
	return v;
}

/*
 * Give variable name (made, empty, if unset) the dynamic value fn, unless
 * it has one already.  0, or -1 when it has another.
 */
static int
dlb_attach(const char *name, sh_var_value_func_t *fn)
{
	static char	 empty[] = "";
	SHELL_VAR	*v;
	char		 n[32];

	snprintf(n, sizeof n, "%s", name);
	if ((v = find_variable(n)) == NULL &&
	    (v = bind_global_variable(n, empty, 0)) == NULL)
		return -1;
	if (v->dynamic_value == NULL)
		v->dynamic_value = fn;
	return v->dynamic_value == fn ? 0 : -1;
}

static int
dlb_ps0var_attach(void)
{
	return dlb_attach("PS0", dlb_ps0var_value);
}

/*
 * "init": make ${__dlb_hook}.  Fails, so that the shell falls back to a
 * DEBUG trap on every line, unless this bash keeps its DEBUG trap where
 * trap.h says (set one and look).
 */
static int
dlb_init(void)
{
	static char	 probe[] = "__deliberate_probe", name[] = "__dlb_hook";
	static char	 empty[] = "";
	SHELL_VAR	*v;
	const char	*t;
	char		*save;
	int		 ok;

	t = dlb_debug_trap();
	save = t != NULL ? strdup(t) : NULL;
	if (t != NULL && save == NULL)
		return EXECUTION_FAILURE;
	set_debug_trap(probe);
	t = dlb_debug_trap();
	ok = t != NULL && strcmp(t, probe) == 0;
	if (save != NULL)
		set_debug_trap(save);
	else if (ok)
		restore_default_signal(DLB_DEBUG_TRAP);
	else
		dlb_eval("trap - DEBUG");
	free(save);
	if (!ok)
		return EXECUTION_FAILURE;
	v = find_variable(name);
	if (v == NULL || v->dynamic_value != dlb_hook_value) {
		if ((v = bind_global_variable(name, empty, 0)) == NULL)
			return EXECUTION_FAILURE;
		v->dynamic_value = dlb_hook_value;
		v->assign_func = dlb_hook_assign;
		VSETATTR(v, att_nounset);
	}
	if (dlb_pc_attach() != 0)
		return EXECUTION_FAILURE;
	(void)dlb_ps0var_attach();
	dlb_ps0_mode = 1;
	return EXECUTION_SUCCESS;
}

/* Run a shell command from the builtin (the rare paths).  Its status. */
static int
dlb_eval(const char *cmd)
{
	int	r;

	r = evalstring(savestring(cmd), "deliberate_hook",
	    SEVAL_NOHIST | SEVAL_NOHISTEXP);
	dlb_shadow_stale();
	return r;
}

/*
 * The DEBUG trap itself, installed as
 *
 *	trap 'deliberate_hook debug "$_"' DEBUG
 *
 * so that the common case runs no shell function: with extdebug, every
 * simple command in every function inherits the trap, and a trap that
 * calls a function costs a dozen microseconds each time.  $_ survives, as
 * it is this command's last argument; bash restores $?.  An earlier DEBUG
 * trap (__dlb_prev_debug) runs first, with the user's $?.  On the first
 * command of a line armed by PS0, "preexec" checks the line; a prompt, a
 * refusal or a daemon that is down go to the shell's __deliberate_slow,
 * whose failure (the line refused) is returned, so that extdebug skips
 * the command.
 */
static int
dlb_debug(void)
{
	const char	*v;
	char		 cmd[64];
	int		 st = last_command_exit_value;

	if ((v = dlb_var("__dlb_prev_debug")) != NULL && *v != '\0') {
		snprintf(cmd, sizeof cmd, "__deliberate_prev_debug %d", st);
		dlb_eval(cmd);
	}
	if (dlb_lent == 2)
		return EXECUTION_SUCCESS;
	if (dlb_lent == 0 && ((v = dlb_var("__dlb_armed")) == NULL ||
	    strcmp(v, "1") != 0))
		return EXECUTION_SUCCESS;
	/* The prompt's own command of a line that fired no trap. */
	if ((v = dlb_var("BASH_COMMAND")) != NULL &&
	    (strncmp(v, "__deliberate_precmd", 19) == 0 ||
	    strncmp(v, "deliberate_hook prompt", 22) == 0))
		return EXECUTION_SUCCESS;
	/* Lent by the PS0 hook: the line is checked, the shell acts. */
	if (dlb_lent == 1) {
		dlb_lent = 2;
		return dlb_eval("__deliberate_slow") == 0 ? EXECUTION_SUCCESS :
		    EXECUTION_FAILURE;
	}
	dlb_set("__dlb_armed", "0");
	if (dlb_preexec() == EXECUTION_SUCCESS)
		return EXECUTION_SUCCESS;
	return dlb_eval("__deliberate_slow") == 0 ? EXECUTION_SUCCESS :
	    EXECUTION_FAILURE;
}

/*
 * The prompt's work, after each command line: a lent DEBUG trap is given
 * back; a line that fired no legacy DEBUG trap (a function definition) is
 * recorded by the shell's __deliberate_unseen; the armed outcome is queued
 * and the history marked; PS0 gets its expansion back if another tool
 * replaced it.  st is the line's exit status.
 */
static void
dlb_prompt_work(int st)
{
	WORD_LIST	 w;
	WORD_DESC	 d;
	const char	*v, *ps0;
	char		 num[16];

	dlb_give_back();
	/* The legacy DEBUG trap's armed line that fired none. */
	if (!dlb_ps0_mode && (v = dlb_var("__dlb_armed")) != NULL &&
	    strcmp(v, "1") == 0)
		dlb_eval("__deliberate_unseen");
	snprintf(num, sizeof num, "%d", st & 255);
	d.word = num;
	d.flags = 0;
	w.word = &d;
	w.next = NULL;
	dlb_precmd(&w);
	/*
	 * A command ran that the PS0 hook did not see (and at the first
	 * prompt): PS0 may have been unset and made anew, without its
	 * dynamic value.  Hooked again, it puts the expansion back itself
	 * when bash reads it before the next line.
	 */
	if (dlb_ps0_mode) {
		if (!dlb_ps0_fired && current_command_number != dlb_prompt_ccn)
			(void)dlb_ps0var_attach();
		dlb_ps0_fired = 0;
		dlb_prompt_ccn = current_command_number;
		return;
	}
	/* The legacy mechanism: PS0's arming expansion, if it was replaced. */
	v = dlb_var("__dlb_ps0");
	ps0 = dlb_var("PS0");
	if (v != NULL && *v != '\0' && (ps0 == NULL || strstr(ps0, v) == NULL))
		dlb_eval("PS0=${PS0-}$__dlb_ps0");
}

/*
 * PROMPT_COMMAND, in the legacy mode: "deliberate_hook prompt" returns
 * the status it was given, so the other prompt commands and PS1 see the
 * user's $?.
 */
static int
dlb_prompt(void)
{
	int	st = last_command_exit_value;

	dlb_prompt_work(st);
	return st;
}

/*
 * With the PS0 hook, the prompt's work needs no prompt command either:
 * bash looks PROMPT_COMMAND up when a command line has finished, before
 * running any prompt command, and that lookup asks dlb_pc_value() (the
 * variable's dynamic value; its value is the user's, untouched).  Once per
 * command number, and never while a command runs (one that reads
 * $PROMPT_COMMAND).  Should the variable be unset and made anew, the next
 * PS0 hook does the missed work and hooks the new one.
 */
static SHELL_VAR *
dlb_pc_value(SHELL_VAR *v)
{
	if (dlb_due(&dlb_pc_ccn))
		dlb_prompt_work(last_command_exit_value);
	return v;
}

static int
dlb_pc_attach(void)
{
	return dlb_attach("PROMPT_COMMAND", dlb_pc_value);
}

static int
dlb_total(void)
{
	return history_base + history_length;
}

/* The line being run: the history's last, or readline's last line. */
static const char *
dlb_line_text(void)
{
	struct dlb_hist_entry	*h;

	if (dlb_marked >= 0 && dlb_total() > dlb_marked &&
	    (h = history_get(dlb_total() - 1)) != NULL && h->line != NULL)
		return h->line;
	/* Not in the history (ignorespace, ignoredups, set +o history). */
	return rl_line_buffer != NULL ? rl_line_buffer : "";
}

static int
dlb_line(void)
{
	dlb_set("DELIBERATE_LINE", dlb_line_text());
	return EXECUTION_SUCCESS;
}

/* The builtin's entry point: dispatch on the verb. */
int
deliberate_hook_builtin(WORD_LIST *list)
{
	const char	*verb;

	if (list == NULL) {
		builtin_usage();
		return EX_USAGE;
	}
	verb = list->word->word;
	/* The script called us: it may have set the variables. */
	if (strcmp(verb, "debug") != 0 && strcmp(verb, "prompt") != 0)
		dlb_shadow_stale();
	if (strcmp(verb, "check") == 0)
		return dlb_check(list->next);
	if (strcmp(verb, "decision") == 0)
		return dlb_decision(list->next);
	if (strcmp(verb, "annotate") == 0)
		return dlb_annotate(list->next);
	if (strcmp(verb, "mark") == 0) {
		dlb_marked = dlb_total();
		return EXECUTION_SUCCESS;
	}
	if (strcmp(verb, "line") == 0)
		return dlb_line();
	if (strcmp(verb, "preexec") == 0)
		return dlb_preexec();
	if (strcmp(verb, "precmd") == 0)
		return dlb_precmd(list->next);
	if (strcmp(verb, "debug") == 0)
		return dlb_debug();
	if (strcmp(verb, "prompt") == 0)
		return dlb_prompt();
	if (strcmp(verb, "init") == 0)
		return dlb_init();
	if (strcmp(verb, "arm") == 0) {
		dlb_arm(list->next != NULL ? list->next->word->word : "-");
		return EXECUTION_SUCCESS;
	}
	builtin_usage();
	return EX_USAGE;
}

static char dlb_doc0[] = "Talk to the Deliberate daemon from the bash hook.";
static char dlb_doc1[] = "";
static char dlb_doc2[] = "check [-r] [-f] [-e] [-t MS] LINE: ask for a verdict; sets";
static char dlb_doc3[] =
    "DELIBERATE_ACTION (allow, prompt, deny or down) and friends.";
static char dlb_doc4[] =
    "decision CHECKID ACTION MS [MODIFIED]: send the user's answer.";
static char dlb_doc5[] = "mark: remember the history count at the prompt; "
    "annotate outcome|correction ID|- ARGS: annotate an entry.";
static char dlb_doc6[] = "line: set DELIBERATE_LINE to the line being run; "
    "preexec: line + check + arm (10: the shell acts); arm ID; precmd STATUS; "
    "debug: the DEBUG trap; prompt: the PROMPT_COMMAND.";
static char dlb_doc7[] =
    "Exit status: 0 ok, 1 error reply, 2 usage, 3 daemon unreachable.";
static char *deliberate_hook_doc[] = {
	dlb_doc0, dlb_doc1, dlb_doc2, dlb_doc3, dlb_doc4, dlb_doc5, dlb_doc6,
	dlb_doc1, dlb_doc7, NULL
};
static char dlb_name[] = "deliberate_hook";

/* The table entry bash looks up as NAME_struct after enable -f. */
struct builtin deliberate_hook_struct = {
	dlb_name,
	deliberate_hook_builtin,
	BUILTIN_ENABLED,
	deliberate_hook_doc,
	"deliberate_hook check|decision|annotate|mark|line|preexec|arm|precmd|"
	    "debug|prompt [ARGS]",
	0
};
