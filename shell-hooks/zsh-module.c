/*
 * deliberate/hook: a zsh module that runs the zsh hook's per-line common
 * case in C.  deliberate.zsh loads it, after zsh/zle, when it can:
 *
 *	() { local -a module_path=(DIR); zmodload deliberate/hook }
 *
 * It adds:
 *
 *	the widget deliberate-accept-line, which the script binds as
 *	accept-line.  On the script's kept connection (its fd, its seq,
 *	its queue of outcomes), a line that needs no verdict (hookcore.c:
 *	a short read-only list, or a line free of the daemon's trigger
 *	words) is recorded as an "event" with "ack": false; any other
 *	complete line is sent as a "check", and the daemon's verdict is
 *	read within the budget.  A line allowed without a note is armed
 *	(its outcome is reported before the next prompt) and run by the
 *	original accept-line (__deliberate_orig_accept_line).  Everything
 *	else goes to the script's widget, __deliberate_slow_accept_line:
 *	a verdict that needs the user (prompt, refusal, moderate note) or
 *	a daemon that did not answer, with __dlb_checked set so that it
 *	does not ask again, and any line the module does not handle (no
 *	kept connection, an edit under way, a continuation or a
 *	here-document, a leading space, a line that does not parse, a
 *	failed write), which the script checks itself.
 *
 *	before each prompt (addprepromptfn): what __deliberate_precmd does,
 *	queueing the outcome of the line that ran (exit status, duration)
 *	for the next message.
 *
 *	the builtin deliberate_zhook: "accept LINE" is the widget's work
 *	on LINE (0: the line may run, 1: the script's turn), "precmd" the
 *	pre-prompt work (the bench calls them, having no line editor and
 *	no prompt), "flush" hands the queued outcomes to the script's
 *	__dlb_pending (at exit).
 *
 * A zsh function call costs about as much as everything else the hook
 * does for a line, and the script alone made two per line (its widget
 * and precmd); with the module the common line makes none.  The module
 * needs zsh's headers (Debian: zsh-dev) to build; without it the script
 * runs alone, with the same behaviour.
 */
#define MODULE 1
#include <zsh/zsh.mdh>

#include <sys/socket.h>
#include <sys/uio.h>
#include <sys/un.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "hookcore.h"

/*
 * zle's functions (zsh/zle, loaded first): Debian's zsh-dev ships zle.h
 * but not the zle_*.epro prototypes.  As in zsh 5.x.
 */
#include <zsh/Zle/zle.h>
extern Widget	addzlefunction(char *, ZleIntFunc, int);
extern void	deletezlefunction(Widget);
extern int	execzlefunc(Thingy, char **, int, int);
extern Thingy	rthingy(char *);
extern void	unrefthingy(Thingy);
extern char	*zlegetline(int *, int *);

/* As in deliberate.zsh. */
#define ZH_PENDING_MAX	(16 * 1024)	/* the queue of outcomes */
#define ZH_FF_MAX	48		/* messages without a reply */
#define ZH_IDLE_S	60.0		/* age of the kept connection */
#define ZH_BUDGET_MS	90		/* DELIBERATE_HOOK_TIMEOUT_MS */
#define ZH_MAX_LINE	(64 * 1024)
#define ZH_MAX_REPLY	(64 * 1024)

enum { ZH_RUN, ZH_SCRIPT };

static char	*zh_getn(const char *);

/*
 * A parameter's value, metafied, or "" when it is unset.  A scalar is
 * read from the parameter table directly: getsparam() parses its argument
 * as an expression (subscripts, flags), which cost more than the rest of
 * a line's work, a dozen reads a line.
 */
static char *
zh_get(const char *name)
{
	char	*v = zh_getn(name);

	return v != NULL ? v : "";
}

/* The same, or NULL when it is unset. */
static char *
zh_getn(const char *name)
{
	Param	 pm;

	pm = (Param)paramtab->getnode(paramtab, (char *)name);
	if (pm == NULL || (pm->node.flags & PM_UNSET))
		return NULL;
	if (PM_TYPE(pm->node.flags) == PM_SCALAR && pm->gsu.s != NULL)
		return pm->gsu.s->getfn(pm);
	return getsparam((char *)name);
}

/* An integer parameter's value, or 0. */
static zlong
zh_geti(const char *name)
{
	Param	 pm;

	pm = (Param)paramtab->getnode(paramtab, (char *)name);
	if (pm == NULL || (pm->node.flags & PM_UNSET))
		return 0;
	if (PM_TYPE(pm->node.flags) == PM_INTEGER && pm->gsu.i != NULL)
		return pm->gsu.i->getfn(pm);
	return getiparam((char *)name);
}

/* Set a parameter, unless it has the value already (a write costs more). */
static void
zh_set(const char *name, const char *value)
{
	char	*v = zh_getn(name);

	if (v == NULL || strcmp(v, value) != 0)
		setsparam(dupstring(name), metafy((char *)value, -1, META_DUP));
}

static double
zh_now(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The time as EPOCHREALTIME prints it. */
static void
zh_time(char *out, size_t len)
{
	struct timespec	ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	snprintf(out, len, "%lld.%09ld", (long long)ts.tv_sec, ts.tv_nsec);
}

/* A parameter's value, unmetafied, appended to b as a JSON string. */
static void
zh_addjson_param(struct hook_buf *b, const char *name)
{
	char	*d = ztrdup(zh_get(name));
	int	 len;

	unmetafy(d, &len);
	hook_addjson(b, d);
	zsfree(d);
}

/*
 * The per-line state lives here, not in shell parameters: after each
 * fork of a command, the first write to a page of the shell's memory
 * takes a page fault, and a parameter assignment writes several pages
 * (the value, malloc's lists), so a line that assigned a dozen of them
 * cost more in faults than in work.  The script's parameters are read,
 * and written only when they change (zh_set) or when the line goes to
 * the script (zh_to_script).
 */
static struct {
	struct hook_buf	 msg;		/* the message being built */
	struct hook_buf	 reply;
	struct hook_buf	 pending;	/* outcomes for the next message */
	struct hook_buf	 ctx;		/* context fields, see zh_context */
	char		*ctxval[6];	/* the values ctx was built from */
	int		 ff;		/* fire-and-forget sends since a reply */
	int		 out;		/* an outcome is armed */
	char		 eid[64];	/* its entry id, "-": the last entry */
	double		 t0;		/* its start */
	double		 fd_t;		/* the last send on the kept fd */
	struct hook_quiet quiet;	/* see hook_quiet_send */
} zh = { .quiet = HOOK_QUIET_INIT };

/* The context fields of a message, rebuilt when one of them changed. */
static const char *const zh_ctx_vars[] = {
	"PWD", "TTY", "TERM", "DELIBERATE_SESSION", "PATH", "SUDO_UID"
};
static const char *const zh_ctx_keys[] = {
	"cwd", "tty", "term", "session", "pathEnv"
};

static const char *
zh_context(void)
{
	const char	*v;
	char		 tmp[96];
	size_t		 i, n = sizeof zh_ctx_vars / sizeof *zh_ctx_vars;

	for (i = 0; i < n; i++) {
		v = zh_getn(zh_ctx_vars[i]);
		if ((v == NULL) != (zh.ctxval[i] == NULL) ||
		    (v != NULL && strcmp(v, zh.ctxval[i]) != 0))
			break;
	}
	if (i == n && zh.ctx.len > 0 && !zh.ctx.oom)
		return zh.ctx.p;
	for (i = 0; i < n; i++) {
		free(zh.ctxval[i]);
		v = zh_getn(zh_ctx_vars[i]);
		zh.ctxval[i] = v != NULL ? strdup(v) : NULL;
		if (v != NULL && zh.ctxval[i] == NULL)
			return NULL;
	}
	zh.ctx.len = 0;
	zh.ctx.oom = 0;
	for (i = 0; i < sizeof zh_ctx_keys / sizeof *zh_ctx_keys; i++) {
		snprintf(tmp, sizeof tmp, ",\"%s\":", zh_ctx_keys[i]);
		hook_adds(&zh.ctx, tmp);
		zh_addjson_param(&zh.ctx, zh_ctx_vars[i]);
	}
	snprintf(tmp, sizeof tmp, ",\"pid\":%ld,\"ppid\":%s,"
	    "\"interactive\":true", (long)getpid(), zh_get("PPID"));
	hook_adds(&zh.ctx, tmp);
	if ((v = zh_getn("SUDO_UID")) != NULL && *v != '\0')
		hook_adds(&zh.ctx, ",\"sudo\":true");
	if (zh.ctx.oom)
		zh.ctx.len = 0;
	return zh.ctx.len > 0 ? zh.ctx.p : NULL;
}

/* hook_cmd_fn for zsh: not an alias, not a function. */
static int
zh_plain_cmd(const char *word)
{
	return aliastab->getnode(aliastab, (char *)word) == NULL &&
	    shfunctab->getnode(shfunctab, (char *)word) == NULL;
}

/* Whether a global or a suffix alias exists (either rewrites any word). */
static int
zh_odd_aliases(void)
{
	HashNode	hn;
	int		i;

	if (sufaliastab->ct > 0)
		return 1;
	for (i = 0; i < aliastab->hsize; i++) {
		for (hn = aliastab->nodes[i]; hn != NULL; hn = hn->next) {
			if (hn->flags & ALIAS_GLOBAL)
				return 1;
		}
	}
	return 0;
}

/*
 * The script's kept connection, if it has one that was used within the
 * daemon's idle limit (by the script, or by us); or -1.
 */
static int
zh_fd1(void)
{
	const char	*v = zh_get("__dlb_fd");
	char		*end;
	double		 t;
	long		 fd;

	fd = strtol(v, &end, 10);
	t = strtod(zh_get("__dlb_fd_t"), NULL);
	if (zh.fd_t > t)
		t = zh.fd_t;
	if (*v == '\0' || *end != '\0' || fd < 0 || fd > 65535 ||
	    zh_now() - t >= ZH_IDLE_S)
		return -1;
	return (int)fd;
}

/* hook_var_fn for zsh. */
static const char *
zh_var(const char *name)
{
	return zh_getn(name);
}

/*
 * The socket path, by the rules of docs/protocol.md (as the script's),
 * worked out again at most once a second (hook_socket_path_cached).
 */
static int
zh_sockpath(char *out, size_t len)
{
	return hook_socket_path_cached(out, len, zh_var);
}

/*
 * A new kept connection, made here rather than by the script (which would
 * have to be loaded for it: see deliberate-lib.zsh), in the script's
 * parameters as if zsocket had made it: a descriptor of 10 or more that
 * zsh knows (so that the script's "exec {fd}>&-" closes it),
 * close-on-exec, blocking (see __deliberate_send).  The one it replaces
 * (idle, or for another path) is closed.  -1 when the daemon is not there.
 */
static int
zh_connect(void)
{
	struct sockaddr_un	 sun;
	const char		*v = zh_get("__dlb_fd");
	char			 tmp[64], *end;
	long			 old;
	int			 fd, nfd, fl;

	memset(&sun, 0, sizeof sun);
	sun.sun_family = AF_UNIX;
	if (zh_sockpath(sun.sun_path, sizeof sun.sun_path) != 0)
		return -1;
	old = strtol(v, &end, 10);
	if (*v != '\0' && *end == '\0' && old >= 10 && old <= 65535)
		zclose((int)old);
	zh_set("__dlb_fd", "");
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		return -1;
	/* EAGAIN: the backlog is full, the daemon is stuck; not waited for. */
	if (connect(fd, (struct sockaddr *)&sun, sizeof sun) != 0 ||
	    (nfd = fcntl(fd, F_DUPFD_CLOEXEC, 10)) < 0) {
		close(fd);
		return -1;
	}
	close(fd);
	if ((fl = fcntl(nfd, F_GETFL)) != -1)
		(void)fcntl(nfd, F_SETFL, fl & ~O_NONBLOCK);
	addmodulefd(nfd, FDT_EXTERNAL);
	snprintf(tmp, sizeof tmp, "%d", nfd);
	zh_set("__dlb_fd", tmp);
	zh_set("__dlb_fd_path", sun.sun_path);
	zh_time(tmp, sizeof tmp);
	zh_set("__dlb_fd_t", tmp);
	zh.fd_t = zh_now();
	return nfd;
}

/* The kept connection, or a new one for the same path. */
static int
zh_fd(void)
{
	char	path[sizeof ((struct sockaddr_un *)0)->sun_path];
	int	fd = zh_fd1();

	if (fd >= 0 && zh_sockpath(path, sizeof path) == 0 &&
	    strcmp(path, zh_get("__dlb_fd_path")) == 0)
		return fd;
	return zh_connect();
}

/* A send on the kept connection went through. */
static void
zh_used(void)
{
	char	tmp[64];

	zh.fd_t = zh_now();
	/* The script's view, a few times a minute (it reconnects at 60 s). */
	if (zh.fd_t - strtod(zh_get("__dlb_fd_t"), NULL) > 10) {
		zh_time(tmp, sizeof tmp);
		zh_set("__dlb_fd_t", tmp);
	}
}

/*
 * Before the script takes a line: our queued outcomes join the script's
 * queue, which it sends first, and the script's count of unanswered
 * messages includes ours.
 */
static void
zh_to_script(void)
{
	struct hook_buf	 q = { NULL, 0, 0, 0 };

	if (zh.pending.len > 0) {
		hook_adds(&q, zh_get("__dlb_pending"));
		hook_addn(&q, zh.pending.p, zh.pending.len);
		if (!q.oom)
			zh_set("__dlb_pending", q.p);
		free(q.p);
		zh.pending.len = 0;
	}
	if (zh.ff > 0) {
		setiparam(dupstring("__dlb_ff"), getiparam("__dlb_ff") + zh.ff);
		zh.ff = 0;
	}
}

/*
 * Send zh.msg, with the queued outcomes (ours, then any of the script's)
 * in front, without blocking (the socket buffer holds far more than
 * ZH_FF_MAX messages).  0 or -1; the queues are spent either way, as the
 * script's.
 */
static int
zh_send(int fd)
{
	struct iovec	 iov[3];
	struct msghdr	 mh;
	char		*sp = zh_get("__dlb_pending");
	size_t		 total = 0, i;
	ssize_t		 w;
	int		 n = 0, r = 0;

	if (zh.msg.oom)
		r = -1;
	if (zh.pending.len > 0) {
		iov[n].iov_base = zh.pending.p;
		iov[n++].iov_len = zh.pending.len;
	}
	/* The script's queue holds ASCII only: nothing to unmetafy. */
	if (*sp != '\0') {
		iov[n].iov_base = sp;
		iov[n++].iov_len = strlen(sp);
	}
	iov[n].iov_base = zh.msg.p;
	iov[n++].iov_len = zh.msg.len;
	for (i = 0; i < (size_t)n; i++)
		total += iov[i].iov_len;
	memset(&mh, 0, sizeof mh);
	mh.msg_iov = iov;
	mh.msg_iovlen = (size_t)n;
	while (r == 0 && total > 0) {
		w = sendmsg(fd, &mh, MSG_NOSIGNAL | MSG_DONTWAIT);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			r = -1;
			break;
		}
		total -= (size_t)w;
		while (mh.msg_iovlen > 0 && (size_t)w >= mh.msg_iov->iov_len) {
			w -= (ssize_t)mh.msg_iov->iov_len;
			mh.msg_iov++;
			mh.msg_iovlen--;
		}
		if (mh.msg_iovlen > 0) {
			mh.msg_iov->iov_base = (char *)mh.msg_iov->iov_base + w;
			mh.msg_iov->iov_len -= (size_t)w;
		}
	}
	zh.pending.len = 0;
	zh_set("__dlb_pending", "");
	if (r == 0)
		zh_used();
	return r;
}

/*
 * A fast-path event, built after the queued outcomes (ours, then the
 * script's) in zh.pending, on the quiet connection to the kept
 * connection's path, where writing wakes nobody (hook_quiet_send).  The
 * queue's buffer is the one the prompt wrote since the last fork: no
 * other page is written for the line.  Failing that, the same bytes go
 * on the kept connection (zh_send).  0 or -1; the queues are spent.
 */
static int
zh_send_fast(int fd)
{
	const char	*path = zh_get("__dlb_fd_path");

	if (!zh.pending.oom && *path != '\0' && hook_quiet_send(&zh.quiet,
	    path, zh.pending.p, zh.pending.len) == 0) {
		zh.pending.len = 0;
		return 0;
	}
	zh.msg.len = 0;
	zh.msg.oom = zh.pending.oom;
	return zh_send(fd);
}

/* Append to b the start of a message about line (type, line, context). */
static int
zh_head(struct hook_buf *b, const char *type, const char *line,
    unsigned long seq)
{
	const char	*ctx = zh_context();
	char		 tmp[64], w[256];
	Alias		 a;

	if (ctx == NULL)
		return -1;
	if (seq > 0) {
		snprintf(tmp, sizeof tmp, "{\"seq\":%lu,", seq);
		hook_adds(b, tmp);
	} else
		hook_adds(b, "{");
	hook_adds(b, "\"v\":1,\"type\":\"");
	hook_adds(b, type);
	hook_adds(b, "\",\"source\":\"hook\",\"shell\":\"zsh\"");
	if (seq == 0)
		hook_addkv(b, "action", "execute");
	hook_addkv(b, "line", line);
	hook_adds(b, ctx);
	hook_adds(b, zh_get("__dlb_istty"));
	/* The daemon judges what an alias expands to, too (a fast-path
	 * line never starts with one). */
	if (seq > 0)
		hook_first_word(line, w, sizeof w);
	else
		*w = '\0';
	if (*w != '\0' && (a = (Alias)aliastab->getnode(aliastab, w)) !=
	    NULL && !(a->node.flags & (ALIAS_GLOBAL | ALIAS_SUFFIX)) &&
	    a->text != NULL) {
		char	*t = dupstring(a->text);
		int	 tl;

		unmetafy(t, &tl);
		hook_addkv(b, "aliasValue", t);
	}
	hook_addnum(b, "ts", hook_now_ms());
	return b->oom ? -1 : 0;
}

/* Arm the outcome of the line about to run (__deliberate_arm). */
static void
zh_arm(const char *eid)
{
	zh.out = 1;
	snprintf(zh.eid, sizeof zh.eid, "%s", eid);
	zh.t0 = zh_now();
}

/* The fast path: a line recorded without a verdict.  ZH_RUN or ZH_SCRIPT. */
static int
zh_fast(int fd, const char *line)
{
	const char	*v;
	size_t		 keep;

	if (zh_geti("__dlb_ff") + zh.ff >= ZH_FF_MAX ||
	    ((v = zh_getn("DELIBERATE_FASTPATH")) != NULL &&
	    strcmp(v, "0") == 0) ||
	    *line < 'a' || *line > 'z' || zh_odd_aliases())
		return ZH_SCRIPT;
	hook_trig_load(zh_get("__dlb_fd_path"));
	/* DELIBERATE_SEEN=0: a line seen safe is asked about again. */
	if (!hook_fast_path(line, zh_plain_cmd) &&
	    (((v = zh_getn("DELIBERATE_SEEN")) != NULL &&
	    strcmp(v, "0") == 0) || !hook_seen(line, zh_plain_cmd)))
		return ZH_SCRIPT;
	/* The event goes after the queued outcomes, ours and the script's. */
	if (*(v = zh_get("__dlb_pending")) != '\0') {
		hook_adds(&zh.pending, v);
		zh_set("__dlb_pending", "");
	}
	keep = zh.pending.len;
	if (zh_head(&zh.pending, "event", line, 0) != 0) {
		zh.pending.len = keep;	/* the queues stay queued */
		zh.pending.oom = 0;
		return ZH_SCRIPT;
	}
	hook_adds(&zh.pending, ",\"ack\":false}\n");
	if (zh_send_fast(fd) != 0)
		return ZH_SCRIPT;
	zh.ff++;
	zh_arm("-");
	zh_set("DELIBERATE_ACTION", "allow");
	zh_set("DELIBERATE_RISK", "safe");
	zh_set("DELIBERATE_OK", "fast");
	zh_set("DELIBERATE_ENTRY_ID", "");
	zh_set("DELIBERATE_CHECK_ID", "");
	return ZH_RUN;
}

/* Whether line parses as complete commands (the script's probe). */
static int
zh_complete(const char *line)
{
	int	se = errflag, sn = noerrs, sl = lastval;
	Eprog	p;

	noerrs = 2;
	p = parse_string(dupstring(line), 0);
	noerrs = sn;
	errflag = se;
	lastval = sl;
	return p != NULL;
}

static char	zh_seen[32];

/* hook_reply_fn: the variable of a reply field. */
static void
zh_reply_set(const char *key, const char *val)
{
	int	i = hook_reply_index(key);

	if (i >= 0 && (size_t)i < sizeof zh_seen) {
		zh_set(hook_reply_vars[i].var, val);
		zh_seen[i] = 1;
	}
}

/*
 * __deliberate_reset, then the reply's fields; a variable that keeps its
 * value is not written.  0 or -1 (a reply that does not parse).
 */
static int
zh_apply_reply(const char *reply)
{
	const char	*v;
	int		 i, r;

	memset(zh_seen, 0, sizeof zh_seen);
	r = hook_parse_reply(reply, zh_reply_set);
	for (i = 0; hook_reply_vars[i].key != NULL; i++) {
		if (zh_seen[i] && r == 0)
			continue;
		v = hook_reply_vars[i].var;
		zh_set(v, strcmp(v, "DELIBERATE_ACTION") == 0 ? "allow" :
		    strcmp(v, "DELIBERATE_TIMEOUT") == 0 ? "30" : "");
	}
	return r;
}

/*
 * Read the reply line that carries seq into zh.reply, within the budget.
 * Other lines are late replies, skipped.  0 or -1.
 */
static int
zh_reply(int fd, unsigned long seq)
{
	const char	*v = zh_get("DELIBERATE_HOOK_TIMEOUT_MS");

	zh.reply.len = 0;
	zh.reply.oom = 0;
	return hook_read_reply(fd, seq, hook_mono_ms() +
	    (*v != '\0' ? atoll(v) : ZH_BUDGET_MS), &zh.reply, ZH_MAX_REPLY);
}

/*
 * The full check: the verdict on line.  ZH_RUN when it may run with
 * nothing to show; ZH_SCRIPT otherwise, with __dlb_checked set ("1": the
 * verdict is in DELIBERATE_*, "down": no answer) once the request went.
 */
static int
zh_check(int fd, const char *line)
{
	unsigned long	 seq;
	char		 t0[64], tmp[32];
	double		 start;

	/* Leading space (never recorded), here-documents, partial lines. */
	if (*line == ' ' || *line == '\t' || *line == '\n' ||
	    strlen(line) > ZH_MAX_LINE || strstr(line, "<<") != NULL ||
	    line[strspn(line, " \t\n")] == '\0' || !zh_complete(line) ||
	    !hook_idle_ok(fd))
		return ZH_SCRIPT;
	start = zh_now();
	zh_time(t0, sizeof t0);
	seq = (unsigned long)atol(zh_get("__dlb_seq")) + 1;
	zh.msg.len = 0;
	zh.msg.oom = 0;
	if (zh_head(&zh.msg, "check", line, seq) != 0)
		return ZH_SCRIPT;
	hook_adds(&zh.msg, ",\"record\":true}\n");
	snprintf(tmp, sizeof tmp, "%lu", seq);
	zh_set("__dlb_seq", tmp);
	if (zh_send(fd) != 0 || zh_reply(fd, seq) != 0) {
		zh_set("__dlb_checked", "down");
		return ZH_SCRIPT;
	}
	zh.ff = 0;
	zh_set("__dlb_ff", "0");
	if (zh_apply_reply(zh.reply.p) != 0 ||
	    strcmp(zh_get("DELIBERATE_OK"), "true") != 0) {
		/* An error reply: the line runs, unrecorded (as the script). */
		zh_set("DELIBERATE_ACTION", "allow");
	}
	if (strcmp(zh_get("DELIBERATE_ACTION"), "allow") != 0 ||
	    (strcmp(zh_get("DELIBERATE_RISK"), "moderate") == 0 &&
	    strcmp(zh_get("DELIBERATE_NOTE"), "true") == 0)) {
		zh_set("__dlb_t0check", t0);
		zh_set("__dlb_checked", "1");
		return ZH_SCRIPT;
	}
	/* The same line again goes the fast way (hook_seen_safe). */
	if (strcmp(zh_get("DELIBERATE_RISK"), "safe") == 0 &&
	    strcmp(zh_get("DELIBERATE_OK"), "true") == 0)
		hook_seen_safe(line, zh_plain_cmd);
	if (*zh_get("DELIBERATE_ENTRY_ID") != '\0') {
		zh_arm(zh_get("DELIBERATE_ENTRY_ID"));
		zh.t0 = start;
	}
	return ZH_RUN;
}

/* The widget's work on line: ZH_RUN or ZH_SCRIPT. */
static int
zh_accept(const char *line)
{
	int	fd;

	zh.out = 0;
	if (*zh_get("__dlb_done") == '\0' &&
	    *zh_get("__dlb_edit_id") == '\0' && (fd = zh_fd()) >= 0 &&
	    (zh_fast(fd, line) == ZH_RUN || zh_check(fd, line) == ZH_RUN))
		return ZH_RUN;
	zh_to_script();
	return ZH_SCRIPT;
}

/*
 * Before each prompt: the outcome of the line that ran, queued for the
 * next message (__deliberate_precmd's work), whether we armed it or the
 * script did.  A queue that grew too long (the daemon away for
 * thousands of lines) goes to the script, which sends it at once.
 */
static void
zh_precmd(void)
{
	const char	*eid;
	char		 tmp[128];
	int		 st = lastval & 255;
	double		 t0;

	zh_set("__dlb_done", "");
	if (zh.out) {
		eid = zh.eid;
		t0 = zh.t0;
		zh.out = 0;
	} else if (strcmp(zh_get("__dlb_out"), "1") == 0) {
		zh_set("__dlb_out", "0");
		eid = zh_get("__dlb_eid");
		t0 = strtod(zh_get("__dlb_t0"), NULL);
	} else
		return;
	hook_adds(&zh.pending, "{\"v\":1,\"type\":\"annotate\","
	    "\"kind\":\"outcome\",\"ack\":false");
	if (strcmp(eid, "-") == 0) {
		hook_adds(&zh.pending, ",\"last\":true,\"session\":");
		zh_addjson_param(&zh.pending, "DELIBERATE_SESSION");
	} else
		hook_addkv(&zh.pending, "entryId", eid);
	snprintf(tmp, sizeof tmp, ",\"exitStatus\":%d,\"durationMs\":%lld}\n",
	    st, (long long)((zh_now() - t0) * 1000));
	hook_adds(&zh.pending, tmp);
	if (zh.pending.oom)
		zh.pending.len = zh.pending.oom = 0;
	if (zh.pending.len > ZH_PENDING_MAX)
		zh_to_script();
}

/* Whether the line is the continuation of an earlier one ($PREBUFFER). */
static int
zh_continued(void)
{
	if (zle_chline != NULL)
		return *zle_chline != '\0';
	return chline != NULL && hptr > chline;
}

/* The widget: the fast path, or the script's widget. */
static int
zh_widget(char **args)
{
	Thingy	 t;
	char	*line;
	int	 ll, cs, fast = 0, r;

	if (!zh_continued()) {
		line = zlegetline(&ll, &cs);
		unmetafy(line, &ll);
		fast = zh_accept(line) == ZH_RUN;
		zsfree(line);
	}
	t = rthingy(fast ? "__deliberate_orig_accept_line" :
	    "__deliberate_slow_accept_line");
	r = execzlefunc(t, args, 0, 0);
	unrefthingy(t);
	return r;
}

static int
bin_zhook(char *nam, char **args, UNUSED(Options ops), UNUSED(int func))
{
	char	*line;
	int	 len, r;

	if (strcmp(args[0], "accept") == 0 && args[1] != NULL &&
	    args[2] == NULL) {
		line = ztrdup(args[1]);
		unmetafy(line, &len);
		r = zh_accept(line);
		zsfree(line);
		return r;
	}
	if (strcmp(args[0], "precmd") == 0 && args[1] == NULL) {
		zh_precmd();
		return 0;
	}
	if (strcmp(args[0], "flush") == 0 && args[1] == NULL) {
		zh_to_script();
		return 0;
	}
	zwarnnam(nam, "usage: %s accept LINE | precmd | flush", nam);
	return 2;
}

static struct builtin bintab[] = {
	BUILTIN("deliberate_zhook", 0, bin_zhook, 1, 2, 0, NULL, NULL),
};

static Widget	zh_w;

static struct features module_features = {
	bintab, sizeof bintab / sizeof *bintab,
	NULL, 0, NULL, 0, NULL, 0, 0
};

int
setup_(UNUSED(Module m))
{
	return 0;
}

int
features_(Module m, char ***features)
{
	*features = featuresarray(m, &module_features);
	return 0;
}

int
enables_(Module m, int **enables)
{
	return handlefeatures(m, &module_features, enables);
}

int
boot_(UNUSED(Module m))
{
	zh_w = addzlefunction("deliberate-accept-line", zh_widget, 0);
	if (zh_w == NULL)
		return 1;
	addprepromptfn(zh_precmd);
	return 0;
}

int
cleanup_(Module m)
{
	delprepromptfn(zh_precmd);
	if (zh_w != NULL)
		deletezlefunction(zh_w);
	zh_w = NULL;
	return setfeatureenables(m, &module_features, NULL);
}

int
finish_(UNUSED(Module m))
{
	size_t	i;

	for (i = 0; i < sizeof zh.ctxval / sizeof *zh.ctxval; i++)
		free(zh.ctxval[i]);
	free(zh.msg.p);
	free(zh.reply.p);
	free(zh.pending.p);
	free(zh.ctx.p);
	hook_quiet_close(&zh.quiet);
	memset(&zh, 0, sizeof zh);
	zh.quiet.fd = -1;
	return 0;
}
