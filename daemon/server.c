/*
 * The daemon's event loop: one epoll set with the listening socket, the
 * datagram socket (dgram.c), a signalfd, a 1 s timerfd and every client.
 * Clients speak the line protocol of proto.h; each has a bounded input and
 * output buffer, so a slow or stuck client costs the others nothing.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/timerfd.h>
#include <sys/un.h>
#include <unistd.h>

#include <json-c/json.h>

#include "buf.h"
#include "classify.h"
#include "client.h"
#include "clock.h"
#include "daemon.h"
#include "event.h"
#include "jsonutil.h"
#include "learn.h"
#include "log.h"
#include "proto.h"
#include "redact.h"
#include "sandbox.h"
#include "spool.h"
#include "userkey.h"
#include "xmalloc.h"

#define OUT_HIGH_WATER	(1024 * 1024)	/* stop reading above this */
#define IDLE_MS		(120 * 1000)	/* close quiet connections */
#define PARTIAL_MS	(10 * 1000)	/* a half message may wait this */
#define PENDING_GRACE_S	30		/* after promptTimeout */
#define MAX_PENDING	4096
#define MAX_CLIENTS	1024		/* beyond this, refuse politely */
#define NOACK		"\"ack\":false"	/* as the hooks write it */
#define DGRAM_COALESCE_MS 2		/* datagram reads during a burst */
#define LATE_MAX	32		/* checks read late, remembered */
#define LATE_MS		20		/* read this long after it was sent */
#define LATE_WINDOW_MS	(30 * 1000)	/* a resend comes within this */
#define EVENT_IDS_MAX	64		/* client ids recorded, kept */

struct client {
	int		 fd;
	uid_t		 uid;
	pid_t		 pid;
	struct buf	 in;
	struct buf	 out;
	int		 discarding;	/* skipping an oversized message */
	int		 eof;
	int		 reading;	/* EPOLLIN is armed */
	int		 quiet;		/* read only when drained (below) */
	double		 last_active;
	double		 partial_since;
	struct client	*next;
};

struct pending {
	char		 check_id[37];
	struct event	 ev;
	struct verdict	 v;
	double		 received;
	int64_t		 expires_ms;
};

enum { TAG_LISTEN = 1, TAG_SIGNAL, TAG_TIMER, TAG_DGRAM };

static struct client	*clients;

/*
 * A check that needs no prompt is answered first and recorded right after
 * the reply is on its way, so the shell waits for the verdict only.
 */
static struct {
	int		active;
	struct event	ev;
	struct verdict	v;
	double		received;
} deferred;
static int		 tag_listen = TAG_LISTEN, tag_signal = TAG_SIGNAL;
static int		 tag_timer = TAG_TIMER, tag_dgram = TAG_DGRAM;

/* Remember the last error for status. */
void
server_set_error(struct daemon *d, const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	vsnprintf(d->last_error, sizeof d->last_error, fmt, ap);
	va_end(ap);
}

static int
socket_in_use(const char *path)
{
	int	fd;

	if ((fd = client_connect(path, 500)) >= 0) {
		close(fd);
		return 1;
	}
	return 0;
}

/* Bind the socket, replacing a stale one; refuse if a daemon answers. */
int
server_listen(struct daemon *d, char **cause)
{
	struct sockaddr_un	sun;
	struct epoll_event	ev;
	struct itimerspec	its;
	sigset_t		mask;
	mode_t			old;
	char			*dgram_cause = NULL;
	int			fd;

	d->dgram_fd = -1;
	if (paths_mkdir_private(d->paths.rundir, cause) != 0)
		return -EPERM;
	memset(&sun, 0, sizeof sun);
	sun.sun_family = AF_UNIX;
	if (strlen(d->paths.socket) >= sizeof sun.sun_path) {
		xasprintf(cause, "socket path too long: '%s'", d->paths.socket);
		return -ENAMETOOLONG;
	}
	strcpy(sun.sun_path, d->paths.socket);
	if (socket_in_use(d->paths.socket)) {
		xasprintf(cause, "another deliberated is already serving '%s'",
		    d->paths.socket);
		return -EADDRINUSE;
	}
	if (unlink(d->paths.socket) == 0)
		log_info("replaced a stale socket at '%s'", d->paths.socket);
	else if (errno != ENOENT) {
		xasprintf(cause, "cannot remove '%s': %s", d->paths.socket,
		    strerror(errno));
		return -errno;
	}
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd == -1) {
		xasprintf(cause, "socket: %s", strerror(errno));
		return -errno;
	}
	old = umask(0177);
	if (bind(fd, (struct sockaddr *)&sun, sizeof sun) == -1) {
		umask(old);
		xasprintf(cause, "cannot bind '%s': %s", d->paths.socket,
		    strerror(errno));
		close(fd);
		return -EADDRINUSE;
	}
	umask(old);
	if (chmod(d->paths.socket, 0600) == -1 || listen(fd, SOMAXCONN) == -1) {
		xasprintf(cause, "cannot listen on '%s': %s", d->paths.socket,
		    strerror(errno));
		close(fd);
		return -EIO;
	}
	d->listen_fd = fd;

	sigemptyset(&mask);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGHUP);
	sigprocmask(SIG_BLOCK, &mask, NULL);
	d->signal_fd = signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK);
	d->timer_fd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC |
	    TFD_NONBLOCK);
	d->epoll_fd = epoll_create1(EPOLL_CLOEXEC);
	if (d->signal_fd == -1 || d->timer_fd == -1 || d->epoll_fd == -1) {
		xasprintf(cause, "cannot set up the event loop: %s",
		    strerror(errno));
		return -EIO;
	}
	memset(&its, 0, sizeof its);
	its.it_interval.tv_sec = its.it_value.tv_sec = 1;
	timerfd_settime(d->timer_fd, 0, &its, NULL);
	ev.events = EPOLLIN;
	ev.data.ptr = &tag_listen;
	epoll_ctl(d->epoll_fd, EPOLL_CTL_ADD, fd, &ev);
	ev.data.ptr = &tag_signal;
	epoll_ctl(d->epoll_fd, EPOLL_CTL_ADD, d->signal_fd, &ev);
	ev.data.ptr = &tag_timer;
	epoll_ctl(d->epoll_fd, EPOLL_CTL_ADD, d->timer_fd, &ev);

	/* Without it the shim falls back to the stream socket. */
	if (dgram_listen(d, &dgram_cause) != 0) {
		log_warnx("%s; events come over the stream socket only, "
		    "ignoring", dgram_cause);
		free(dgram_cause);
	} else {
		ev.data.ptr = &tag_dgram;
		epoll_ctl(d->epoll_fd, EPOLL_CTL_ADD, d->dgram_fd, &ev);
	}
	return 0;
}

/*
 * Quiet connections.  A hook that sends "quiet" as the first message of a
 * second connection writes its fire-and-forget messages (events without
 * a verdict, outcomes) there.  The connection leaves the epoll set for
 * EPOLLIN: a write into it wakes nobody, which saves the shell the
 * cross-CPU wake-up of the daemon, most of what a send costs it
 * (docs/performance.md).  It is read, in order, before anything else is
 * handled (any other client's message, a datagram), on every tick of the
 * 1 s timer, when the peer hangs up, and at shutdown; so what the hook
 * wrote there before a check on its other connection is handled before
 * the check.  A quiet connection gets no replies and is never closed for
 * being idle.
 */
static int	nquiet;

static void	client_read(struct daemon *, struct client *);
static void	late_note(const struct event *, const char *, const char *);
static int	late_settle(struct daemon *, const struct event *, char[37],
		    int *);
static int	event_id_seen(struct event *, char[37]);
static void	event_id_done(const char *);

/*
 * Read every quiet connection.  One that hit its end is closed by its own
 * EPOLLHUP event (epoll reports it with no events asked for), never here:
 * that event may be in the batch being handled.
 */
static void
quiet_drain(struct daemon *d)
{
	struct client	*c;

	if (nquiet == 0)
		return;
	for (c = clients; c != NULL; c = c->next) {
		if (c->quiet && c->reading && !c->eof)
			client_read(d, c);
	}
}

static void
client_arm(struct daemon *d, struct client *c)
{
	struct epoll_event	ev;

	ev.events = 0;
	c->reading = !c->eof && c->out.len < OUT_HIGH_WATER;
	if (c->reading && !c->quiet)
		ev.events |= EPOLLIN;
	if (c->out.len > 0)
		ev.events |= EPOLLOUT;
	ev.data.ptr = c;
	epoll_ctl(d->epoll_fd, EPOLL_CTL_MOD, c->fd, &ev);
}

static void
client_close(struct daemon *d, struct client *c)
{
	struct client	**pp;

	for (pp = &clients; *pp != NULL; pp = &(*pp)->next) {
		if (*pp == c) {
			*pp = c->next;
			break;
		}
	}
	epoll_ctl(d->epoll_fd, EPOLL_CTL_DEL, c->fd, NULL);
	close(c->fd);
	if (c->quiet)
		nquiet--;
	buf_release(&c->in);
	buf_release(&c->out);
	free(c);
	d->clients--;
}

static void
do_accept(struct daemon *d)
{
	struct ucred		 cred;
	socklen_t		 len = sizeof cred;
	struct epoll_event	 ev;
	struct client		*c;
	struct json_object	*r;
	struct buf		 b = BUF_INIT;
	int			 fd;

	for (;;) {
		fd = accept4(d->listen_fd, NULL, NULL, SOCK_CLOEXEC |
		    SOCK_NONBLOCK);
		if (fd == -1) {
			if (errno != EAGAIN && errno != EINTR &&
			    errno != ECONNABORTED)
				log_warn("accept");
			return;
		}
		if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) ==
		    -1 || cred.uid != d->uid) {
			d->refused++;
			log_warnx("refused a client with uid %ld (pid %ld): "
			    "not our uid %ld", (long)cred.uid, (long)cred.pid,
			    (long)d->uid);
			r = proto_error(NULL, "permission denied: the daemon "
			    "serves only its own user");
			proto_append(&b, r);
			(void)!send(fd, b.data, b.len, MSG_NOSIGNAL |
			    MSG_DONTWAIT);
			json_object_put(r);
			buf_release(&b);
			close(fd);
			continue;
		}
		if (d->clients >= MAX_CLIENTS) {
			r = proto_error(NULL, "too many clients, try again");
			proto_append(&b, r);
			(void)!send(fd, b.data, b.len, MSG_NOSIGNAL |
			    MSG_DONTWAIT);
			json_object_put(r);
			buf_reset(&b);
			close(fd);
			d->refused++;
			continue;
		}
		c = xcalloc(1, sizeof *c);
		c->fd = fd;
		c->uid = cred.uid;
		c->pid = cred.pid;
		c->last_active = clock_mono_ms();
		c->next = clients;
		clients = c;
		d->clients++;
		ev.events = EPOLLIN;
		ev.data.ptr = c;
		c->reading = 1;
		epoll_ctl(d->epoll_fd, EPOLL_CTL_ADD, fd, &ev);
	}
}

static void
sample_sys(struct daemon *d)
{
	double	now = clock_mono_ms();

	if (d->sys_at == 0 || now - d->sys_at > 1000) {
		sysinfo_state(d->paths.data, &d->sys);
		d->cpu_percent = sysinfo_cpu_percent();
		d->rss_mb = sysinfo_rss_mb();
		d->sys_at = now;
	}
}

/* Whether s[len] is plain ASCII: then it is valid UTF-8, no need to look. */
static int
ascii_only(const char *s, size_t len)
{
	uint64_t	w, acc = 0;
	size_t		i = 0;

	for (; i + 8 <= len; i += 8) {
		memcpy(&w, s + i, 8);
		acc |= w;
	}
	for (; i < len; i++)
		acc |= (unsigned char)s[i];
	return (acc & 0x8080808080808080ULL) == 0;
}

/*
 * Build and write the entry of an event; returns 0 or -errno.  The entry
 * and its command name are written into buffers kept from one event to
 * the next.
 */
static int
record(struct daemon *d, struct event *ev, struct verdict *v,
    double received, char ret_id[37])
{
	static struct buf	 entry = BUF_INIT, name = BUF_INIT;
	struct entry_env	 env;
	char			 day[11], *fixed;
	const char		*line;
	size_t			 len;
	int			 r;

	sample_sys(d);
	env.cfg = &d->cfg;
	env.red = d->red;
	env.key = d->key;
	env.home = d->home;
	env.sys = d->sys;
	env.cpu_percent = d->cpu_percent;
	env.rss_mb = d->rss_mb;
	buf_reset(&entry);
	entry_write(&env, ev, v, received, &entry, &name, ret_id, day);
	line = entry.data;
	len = entry.len;
	/* The dataset is UTF-8 whatever a module got wrong. */
	fixed = NULL;
	if (!ascii_only(line, len) &&
	    (fixed = utf8_sanitize(line, len, &len)) != NULL) {
		log_warnx("an entry had invalid UTF-8; replaced");
		line = fixed;
	}
	r = store_append(&d->store, day, line, len);
	free(fixed);
	if (r == 0) {
		d->written++;
		annotate_note_entry(d, ev, v, ret_id);
		if (d->disk_full) {
			log_info("writing again after a full disk");
			d->disk_full = 0;
		}
		store_count(&d->store, buf_str(&name), clock_mono_ms() -
		    received, 0);
	} else {
		d->write_errors++;
		if (r == -ENOSPC || r == -EDQUOT) {
			if (!d->disk_full)
				log_warnx("disk full: cannot write entries "
				    "to '%s'", d->store.current);
			d->disk_full = 1;
		} else
			log_warnx("cannot write an entry: %s", strerror(-r));
		server_set_error(d, "cannot write an entry: %s",
		    strerror(-r));
	}
	return r;
}

/* Whether the config excludes the command's program from capture. */
static int
excluded(const struct daemon *d, const struct event *ev)
{
	const char	*s = ev->line, *e, *slash;
	char		 name[256];
	size_t		 n;

	if (d->cfg.nexclude == 0)
		return 0;
	if (ev->path != NULL && (slash = strrchr(ev->path, '/')) != NULL &&
	    config_excluded(&d->cfg, slash + 1))
		return 1;
	while (*s == ' ' || *s == '\t')
		s++;
	for (e = s; *e != '\0' && *e != ' ' && *e != '\t' && *e != '\n'; e++)
		;
	n = (size_t)(e - s);
	if (n == 0 || n >= sizeof name)
		return 0;
	memcpy(name, s, n);
	name[n] = '\0';
	slash = strrchr(name, '/');
	return config_excluded(&d->cfg, slash != NULL ? slash + 1 : name);
}

static void
fill_ctx(const struct event *ev, struct classify_ctx *ctx)
{
	memset(ctx, 0, sizeof *ctx);
	ctx->shell = ev->shell;
	ctx->interactive = ev->interactive;
	ctx->tty = ev->is_tty;
	ctx->parent = ev->parent;
}

static void
peer_defaults(struct client *c, struct event *ev)
{
	/* The kernel's word beats the client's for the uid. */
	ev->uid = c->uid;
	if (ev->euid == (uid_t)-1)
		ev->euid = c->uid;
	if (ev->pid <= 0)
		ev->pid = c->pid;
	if (ev->source == NULL)
		ev->source = xstrdup("cli");
	/* Under DELIBERATE_NOW the daemon's clock is the only one. */
	if (clock_is_fixed())
		ev->ts_ms = 0;
}

static struct json_object *
write_reply(struct json_object *req, int r, const char *id)
{
	struct json_object	*rep;
	char			 msg[128];

	if (r != 0) {
		snprintf(msg, sizeof msg, "cannot write the entry: %s",
		    strerror(-r));
		return proto_error(req, msg);
	}
	rep = proto_reply(req, 1);
	json_object_object_add(rep, "id", json_object_new_string(id));
	return rep;
}

/*
 * Classify an event's line, then apply what the user taught.  When the
 * first word is one of the shell's aliases, the hook sends its value and
 * the line is judged expanded too, the riskier verdict winning: after
 * alias nuke='rm -rf ~/work', "nuke" is what it runs.  The value is judged
 * only, never stored (the entry keeps the line as typed).
 */
static void
classify_event(struct daemon *d, const struct event *ev,
    const struct classify_ctx *ctx, struct verdict *v)
{
	struct verdict	 x;
	struct buf	 b = BUF_INIT;
	size_t		 n;

	classify_command(d->cls, ev->line, strlen(ev->line), ctx, v);
	if (ev->alias_value != NULL && *ev->alias_value != '\0') {
		n = strspn(ev->line, " \t");
		n += strcspn(ev->line + n, " \t\n;&|<>()");
		buf_adds(&b, ev->alias_value);
		buf_adds(&b, ev->line + n);
		classify_command(d->cls, b.data, b.len, ctx, &x);
		if (x.risk > v->risk) {
			verdict_release(v);
			*v = x;
		} else
			verdict_release(&x);
		buf_release(&b);
	}
	learn_apply(annotate_learned(d), ev->line, v);
}

/*
 * Classify and record a parsed event, which it releases.  Returns 0 with
 * ret_id, 1 when the config excludes the command, or the -errno of the
 * write.
 */
static int
event_record(struct daemon *d, struct client *c, struct event *ev,
    double received, char ret_id[37])
{
	struct verdict		 v;
	struct classify_ctx	 ctx;
	int			 r;

	if (c->fd != -1)
		d->stream_events++;
	peer_defaults(c, ev);
	if (late_settle(d, ev, ret_id, &r) || event_id_seen(ev, ret_id)) {
		event_release(ev);
		return r;
	}
	if (excluded(d, ev)) {
		event_release(ev);
		return 1;
	}
	fill_ctx(ev, &ctx);
	ctx.exe_static = ev->exe_static;
	classify_event(d, ev, &ctx, &v);
	ev->ai = analyze_command(d, ev, &v, &ev->ai_ms);
	r = record(d, ev, &v, received, ret_id);
	if (r == 0 && ev->event_id != NULL)
		event_id_done(ev->event_id);
	verdict_release(&v);
	event_release(ev);
	return r;
}

/*
 * An event request.  Without want_reply it builds no reply and counts a
 * failure in bad_requests itself, as handle_message() would have.
 */
static struct json_object *
req_event(struct daemon *d, struct client *c, struct json_object *req,
    double received, int want_reply)
{
	struct event		 ev;
	struct json_object	*rep;
	char			*cause = NULL, id[37];
	int			 r;

	if (event_parse(req, &ev, &cause) != 0) {
		if (!want_reply) {
			d->bad_requests++;
			free(cause);
			return NULL;
		}
		rep = proto_error(req, cause);
		free(cause);
		return rep;
	}
	r = event_record(d, c, &ev, received, id);
	if (!want_reply) {
		if (r < 0)
			d->bad_requests++;
		return NULL;
	}
	if (r == 1) {
		rep = proto_reply(req, 1);
		json_object_object_add(rep, "excluded",
		    json_object_new_boolean(1));
		return rep;
	}
	return write_reply(req, r, id);
}

static const char *
verdict_action(enum mode mode, const struct verdict *v)
{
	if (v->risk != RISK_DANGEROUS)
		return "allow";
	switch (mode) {
	case MODE_MONITOR:
		return "allow";
	case MODE_ENFORCE:
		return "deny";
	default:
		return "prompt";
	}
}

static void
add_str(struct json_object *o, const char *k, const char *v)
{
	if (v != NULL)
		json_object_object_add(o, k, json_object_new_string(v));
}

static void
add_i64(struct json_object *o, const char *k, int64_t v)
{
	json_object_object_add(o, k, json_object_new_int64(v));
}

static struct json_object *
req_check(struct daemon *d, struct client *c, struct json_object *req,
    double received)
{
	struct event		 ev;
	struct verdict		 v;
	struct classify_ctx	 ctx;
	struct json_object	*rep, *o, *bd, *t;
	struct pending		*p;
	const char		*action;
	char			*cause = NULL, idbuf[37];
	enum mode		 mode = d->cfg.mode;
	int			 rec = 0;

	if (event_parse(req, &ev, &cause) != 0) {
		rep = proto_error(req, cause);
		free(cause);
		return rep;
	}
	peer_defaults(c, &ev);
	d->checks++;
	if (json_object_object_get_ex(req, "record", &o))
		rec = json_object_get_boolean(o);
	/* A client session may run in its own mode (deliberate run). */
	if (json_object_object_get_ex(req, "mode", &o) &&
	    (!json_object_is_type(o, json_type_string) ||
	    mode_parse(json_object_get_string(o), &mode) != 0)) {
		event_release(&ev);
		return proto_error(req, "field \"mode\" must be monitor, "
		    "prompt or enforce");
	}
	fill_ctx(&ev, &ctx);
	ctx.exe_static = ev.exe_static;
	classify_event(d, &ev, &ctx, &v);
	action = verdict_action(mode, &v);
	/* Before the reply, so the prompt can show the consensus. */
	ev.ai = analyze_command(d, &ev, &v, &ev.ai_ms);

	rep = proto_reply(req, 1);
	add_str(rep, "riskLevel", risk_name(v.risk));
	json_object_object_add(rep, "confidence", json_num(v.confidence));
	add_str(rep, "patternId", v.rule_id);
	add_str(rep, "patternName", v.rule_name);
	add_str(rep, "description", v.description);
	add_str(rep, "alternative", v.alternative);
	add_str(rep, "action", action);
	if ((o = analyze_reply(ev.ai)) != NULL)
		json_object_object_add(rep, "aiConsensus", o);
	add_str(rep, "mode", mode_name(mode));
	json_object_object_add(rep, "promptTimeout",
	    json_object_new_int(d->cfg.prompt_timeout));
	json_object_object_add(rep, "moderateNote",
	    json_object_new_boolean(d->cfg.moderate_note));
	if (v.classification != NULL &&
	    json_object_object_get_ex(v.classification, "bypassDetection",
	    &bd) && json_object_object_get_ex(bd, "techniques", &t))
		json_object_object_add(rep, "bypass", json_object_get(t));

	if (rec && excluded(d, &ev)) {
		rec = 0;
		json_object_object_add(rep, "excluded",
		    json_object_new_boolean(1));
	}
	if (!rec) {
		verdict_release(&v);
		event_release(&ev);
		return rep;
	}
	if (strcmp(action, "prompt") == 0) {
		if (d->npending >= MAX_PENDING) {
			json_object_put(rep);
			verdict_release(&v);
			event_release(&ev);
			return proto_error(req, "too many checks awaiting a "
			    "decision");
		}
		d->pending = xreallocarray(d->pending, d->npending + 1,
		    sizeof *d->pending);
		p = &d->pending[d->npending++];
		uuid_v4(p->check_id);
		p->ev = ev;
		p->v = v;
		p->received = received;
		p->expires_ms = clock_now_ms() + (int64_t)(d->cfg.prompt_timeout
		    + PENDING_GRACE_S) * 1000;
		add_str(rep, "checkId", p->check_id);
		json_object_object_add(rep, "recorded",
		    json_object_new_boolean(0));
		late_note(&p->ev, p->check_id, "");
		return rep;
	}
	free(ev.action);
	ev.action = xstrdup(strcmp(action, "deny") == 0 ? "cancel" :
	    "execute");
	/* The id is fixed now, so the hook can annotate the entry later. */
	uuid_v4(idbuf);
	ev.entry_id = xstrdup(idbuf);
	late_note(&ev, "", idbuf);
	deferred.ev = ev;
	deferred.v = v;
	deferred.received = received;
	deferred.active = 1;
	json_object_object_add(rep, "recorded", json_object_new_boolean(1));
	add_str(rep, "id", idbuf);
	return rep;
}

static void
pending_remove(struct daemon *d, size_t i)
{
	event_release(&d->pending[i].ev);
	verdict_release(&d->pending[i].v);
	d->pending[i] = d->pending[--d->npending];
}

/*
 * Checks a hook may have given up on.  A hook waits about 90 ms for a
 * verdict (DELIBERATE_HOOK_TIMEOUT_MS); past that it runs the line as if
 * the daemon were down and hands it to `deliberate log --source hook`,
 * whose event says "resend".  The daemon still acts on the check it read
 * late (a reload, a stopped daemon), so the resend settles that check
 * instead of making a second entry: one still awaiting a decision is
 * recorded as executed, which is what the hook did, and one already
 * recorded is left alone.  A check is noted when it is read more than
 * LATE_MS after the hook sent it; a resend matches the note of the same
 * session and line sent at most LATE_WINDOW_MS before it.
 */
static struct late {
	char	*session;
	char	*line;
	int64_t	 ts_ms;
	char	 check_id[37];	/* awaiting a decision, or "" */
	char	 entry_id[37];	/* recorded, or "" */
} late[LATE_MAX];
static size_t	late_next;

static void
late_clear(struct late *l)
{
	free(l->session);
	free(l->line);
	memset(l, 0, sizeof *l);
}

static void
late_note(const struct event *ev, const char *check_id, const char *entry_id)
{
	struct late	*l;

	if (ev->source == NULL || strcmp(ev->source, "hook") != 0 ||
	    ev->session == NULL || ev->ts_ms <= 0 ||
	    clock_now_ms() - ev->ts_ms <= LATE_MS)
		return;
	l = &late[late_next++ % LATE_MAX];
	late_clear(l);
	l->session = xstrdup(ev->session);
	l->line = xstrdup(ev->line);
	l->ts_ms = ev->ts_ms;
	snprintf(l->check_id, sizeof l->check_id, "%s", check_id);
	snprintf(l->entry_id, sizeof l->entry_id, "%s", entry_id);
}

/*
 * Whether ev is the resend of a late check.  If so the check is settled,
 * ret_id is its entry's id ("" when it was decided meanwhile) and *ret is
 * the -errno of a write, or 0.
 */
static int
late_settle(struct daemon *d, const struct event *ev, char ret_id[37],
    int *ret)
{
	struct late	*l = NULL;
	size_t		 i, j;

	*ret = 0;
	if (!ev->resend || ev->session == NULL)
		return 0;
	/* The latest such check: the one this resend follows. */
	for (i = 0; i < LATE_MAX; i++) {
		if (late[i].line != NULL &&
		    strcmp(late[i].session, ev->session) == 0 &&
		    strcmp(late[i].line, ev->line) == 0 &&
		    ev->ts_ms >= late[i].ts_ms &&
		    ev->ts_ms - late[i].ts_ms <= LATE_WINDOW_MS &&
		    (l == NULL || late[i].ts_ms > l->ts_ms))
			l = &late[i];
	}
	if (l == NULL)
		return 0;
	/* Its spooled copy, if the CLI made one, is the same resend. */
	if (ev->event_id != NULL)
		event_id_done(ev->event_id);
	snprintf(ret_id, 37, "%s", l->entry_id);
	for (j = 0; *l->check_id != '\0' && j < d->npending; j++) {
		if (strcmp(d->pending[j].check_id, l->check_id) != 0)
			continue;
		free(d->pending[j].ev.action);
		d->pending[j].ev.action = xstrdup("execute");
		*ret = record(d, &d->pending[j].ev, &d->pending[j].v,
		    d->pending[j].received, ret_id);
		pending_remove(d, j);
		break;
	}
	late_clear(l);
	return 1;
}

/*
 * Whether an event with a client's id was recorded already: the CLI
 * writes it to the socket and, when the daemon does not answer in time,
 * to the spool as well.  The ids recorded lately are kept; a spooled copy
 * that comes later than that is found in the day's file (ingest_one).  If
 * not seen, the id becomes the entry's, and event_id_done() keeps it.
 */
static char	seen_ids[EVENT_IDS_MAX][37];
static size_t	seen_next;

static int
event_id_seen(struct event *ev, char ret_id[37])
{
	size_t	i;

	if (ev->event_id == NULL)
		return 0;
	snprintf(ret_id, 37, "%s", ev->event_id);
	for (i = 0; i < EVENT_IDS_MAX; i++)
		if (strcmp(seen_ids[i], ev->event_id) == 0)
			return 1;
	free(ev->entry_id);
	ev->entry_id = xstrdup(ev->event_id);
	return 0;
}

static void
event_id_done(const char *id)
{
	snprintf(seen_ids[seen_next++ % EVENT_IDS_MAX], 37, "%s", id);
}

static struct json_object *
req_decision(struct daemon *d, struct json_object *req)
{
	struct json_object	*o;
	struct pending		*p = NULL;
	const char		*cid, *action;
	char			 id[37], *cause = NULL;
	size_t			 i, k;
	double			 dt = 0;
	int			 r;

	if (!json_object_object_get_ex(req, "checkId", &o) ||
	    !json_object_is_type(o, json_type_string))
		return proto_error(req, "field \"checkId\" must be a string");
	cid = json_object_get_string(o);
	if (!json_object_object_get_ex(req, "action", &o) ||
	    !json_object_is_type(o, json_type_string))
		return proto_error(req, "field \"action\" must be a string");
	action = json_object_get_string(o);
	if (strcmp(action, "execute") != 0 && strcmp(action, "cancel") != 0 &&
	    strcmp(action, "modify") != 0 && strcmp(action, "timeout") != 0)
		return proto_error(req, "field \"action\" must be execute, "
		    "cancel, modify or timeout");
	if (json_object_object_get_ex(req, "decisionTime", &o)) {
		if (!json_object_is_type(o, json_type_int) &&
		    !json_object_is_type(o, json_type_double))
			return proto_error(req, "field \"decisionTime\" must "
			    "be a number");
		dt = json_object_get_double(o);
		if (!(dt >= 0 && dt < 1e10))
			return proto_error(req, "field \"decisionTime\" out of "
			    "range");
	}
	for (i = 0; i < d->npending; i++) {
		if (strcmp(d->pending[i].check_id, cid) == 0) {
			p = &d->pending[i];
			break;
		}
	}
	if (p == NULL)
		return proto_error(req, "unknown or expired checkId");
	/* The hook had its verdict: no resend will follow. */
	for (k = 0; k < LATE_MAX; k++)
		if (late[k].line != NULL && strcmp(late[k].check_id, cid) == 0)
			late_clear(&late[k]);
	free(p->ev.action);
	p->ev.action = xstrdup(action);
	p->ev.decision_ms = dt;
	p->ev.prompted = 1;
	if (json_object_object_get_ex(req, "modifiedCommand", &o) &&
	    json_object_is_type(o, json_type_string)) {
		free(p->ev.modified);
		p->ev.modified = xstrdup(json_object_get_string(o));
	}
	(void)cause;
	r = record(d, &p->ev, &p->v, p->received, id);
	pending_remove(d, i);
	return write_reply(req, r, id);
}

/*
 * The shim cannot report drops to a daemon it cannot reach: it appends one
 * byte per dropped event to run/preload-drops, so the count is the size.
 */
static int64_t
preload_drops(const struct daemon *d)
{
	struct stat	 st;
	char		*path;
	int64_t		 n = 0;

	xasprintf(&path, "%s/run/preload-drops", d->paths.home);
	if (stat(path, &st) == 0)
		n = (int64_t)st.st_size;
	free(path);
	return n;
}

static struct json_object *
req_status(struct daemon *d, struct json_object *req)
{
	struct json_object	*rep;

	rep = proto_reply(req, 1);
	add_str(rep, "version", DELIBERATE_VERSION);
	json_object_object_add(rep, "protocol",
	    json_object_new_int(PROTO_VERSION));
	json_object_object_add(rep, "pid", json_object_new_int(getpid()));
	json_object_object_add(rep, "uptime", json_object_new_int64(
	    (clock_now_ms() - d->started_ms) / 1000));
	add_str(rep, "socket", d->paths.socket);
	add_str(rep, "dataDir", d->paths.data);
	add_str(rep, "mode", mode_name(d->cfg.mode));
	add_str(rep, "anonymizationLevel", anon_level_name(d->cfg.level));
	add_str(rep, "today", d->store.day);
	add_i64(rep, "todayCount", d->store.today);
	add_i64(rep, "received", d->received);
	add_i64(rep, "written", d->written);
	add_i64(rep, "writeErrors", d->write_errors);
	add_i64(rep, "badRequests", d->bad_requests);
	add_i64(rep, "refusedPeers", d->refused);
	add_i64(rep, "clients", d->clients);
	add_i64(rep, "pending", (int64_t)d->npending);
	json_object_object_add(rep, "diskFull",
	    json_object_new_boolean(d->disk_full));
	add_i64(rep, "totalEntries", d->store.st.total);
	add_i64(rep, "redactionRules", (int64_t)redactor_nrules(d->red));
	add_i64(rep, "spooledIngested", d->spooled);
	add_i64(rep, "reloads", d->reloads);
	add_i64(rep, "preloadDrops", preload_drops(d));
	add_str(rep, "dgramSocket", d->dgram_fd != -1 ? d->dgram_path : NULL);
	add_i64(rep, "dgramReceived", d->dgram_received);
	add_i64(rep, "dgramBatches", d->dgram_batches);
	add_i64(rep, "dgramRefused", d->dgram_refused);
	add_i64(rep, "streamEvents", d->stream_events);
	add_i64(rep, "checks", d->checks);
	add_str(rep, "lastError", d->last_error[0] != '\0' ? d->last_error :
	    NULL);
	return rep;
}

static struct json_object *
dispatch(struct daemon *d, struct client *c, struct json_object *req,
    double received, int want_reply)
{
	struct json_object	*t;
	const char		*type;

	json_object_object_get_ex(req, "type", &t);
	type = json_object_get_string(t);
	if ((t = testhooks_request(req)) != NULL)
		return t;
	if (strcmp(type, PROTO_EVENT) == 0)
		return req_event(d, c, req, received, want_reply);
	if (strcmp(type, PROTO_CHECK) == 0)
		return req_check(d, c, req, received);
	if (strcmp(type, PROTO_DECISION) == 0)
		return req_decision(d, req);
	if (strcmp(type, PROTO_STATUS) == 0)
		return req_status(d, req);
	if (strcmp(type, PROTO_CONTROL) == 0)
		return lifecycle_control(d, req);
	if (strcmp(type, PROTO_ANNOTATE) == 0)
		return annotate_request(d, req);
	if (strcmp(type, PROTO_QUIET) == 0 && c->fd != -1) {
		if (!c->quiet)
			nquiet++;
		c->quiet = 1;
		return NULL;
	}
	return proto_error(req, "unknown request type");
}

static int	flush_out(struct client *);

/*
 * Handle one request.  A datagram (c->fd == -1) gets no reply and may
 * only be an event: everything else needs an answer.
 */
static void
handle_message(struct daemon *d, struct client *c, const char *msg,
    size_t len)
{
	struct json_object	*req = NULL, *rep, *ack, *t;
	struct event		 ev;
	char			*cause = NULL, id[37];
	double			 received = clock_mono_ms();
	int			 want_reply = c->fd != -1 && !c->quiet, noack;

	while (len > 0 && (msg[len - 1] == '\r' || (c->fd == -1 &&
	    msg[len - 1] == '\n')))
		len--;
	if (len == 0)
		return;
	d->received++;
	/*
	 * The fire-and-forget events (datagrams, "ack": false) need no
	 * reply, so most can skip json-c (event_scan() in event.h).  The
	 * memmem() only spares the scan of the stream requests that want
	 * a reply; the scanner decides.
	 */
	if ((c->fd == -1 || memmem(msg, len, NOACK, sizeof NOACK - 1) !=
	    NULL) && event_scan(msg, len, &ev, &noack) == 0) {
		if (c->fd == -1 || noack) {
			if (event_record(d, c, &ev, received, id) < 0)
				d->bad_requests++;
			return;
		}
		event_release(&ev);
	}
	if (proto_parse(msg, len, &req, &cause) != 0) {
		d->bad_requests++;
		log_debug("bad request from pid %ld: %s", (long)c->pid, cause);
		rep = proto_error(NULL, cause);
		free(cause);
	} else if (c->fd == -1 && (!json_object_object_get_ex(req, "type",
	    &t) || strcmp(json_object_get_string(t), PROTO_EVENT) != 0)) {
		d->bad_requests++;
		log_debug("a datagram from pid %ld is not an event, dropped",
		    (long)c->pid);
		rep = NULL;
	} else {
		if (json_object_object_get_ex(req, "ack", &ack) &&
		    json_object_is_type(ack, json_type_boolean) &&
		    !json_object_get_boolean(ack))
			want_reply = 0;
		rep = dispatch(d, c, req, received, want_reply);
		if (rep != NULL && json_object_object_get_ex(rep, "ok", &ack) &&
		    !json_object_get_boolean(ack))
			d->bad_requests++;
	}
	if (rep != NULL && want_reply)
		proto_append(&c->out, rep);
	if (rep != NULL)
		json_object_put(rep);
	if (req != NULL)
		json_object_put(req);
	if (deferred.active) {
		flush_out(c);
		deferred.active = 0;
		record(d, &deferred.ev, &deferred.v, deferred.received, id);
		verdict_release(&deferred.v);
		event_release(&deferred.ev);
	}
}

/* Handle one datagram of a checked peer (see daemon.h). */
void
server_datagram(struct daemon *d, uid_t uid, pid_t pid, const char *msg,
    size_t len)
{
	struct client	c;

	memset(&c, 0, sizeof c);
	c.fd = -1;
	c.uid = uid;
	c.pid = pid;
	handle_message(d, &c, msg, len);
	buf_release(&c.out);
}

static void
oversized(struct daemon *d, struct client *c)
{
	struct json_object	*rep;

	d->received++;
	d->bad_requests++;
	rep = proto_error(NULL, "message too large");
	proto_append(&c->out, rep);
	json_object_put(rep);
	c->discarding = 1;
}

static void
process_input(struct daemon *d, struct client *c)
{
	char	*nl;
	size_t	 off = 0, n;

	while (off < c->in.len) {
		nl = memchr(c->in.data + off, '\n', c->in.len - off);
		if (nl == NULL)
			break;
		n = (size_t)(nl - (c->in.data + off));
		if (c->discarding)
			c->discarding = 0;
		else if (n > PROTO_MAX_MSG)
			oversized(d, c);
		else
			handle_message(d, c, c->in.data + off, n);
		off += n + 1;
	}
	buf_consume(&c->in, off);
	if (c->in.len > PROTO_MAX_MSG) {
		if (!c->discarding)
			oversized(d, c);
		buf_reset(&c->in);
	}
	if (c->eof && c->in.len > 0 && !c->discarding)
		handle_message(d, c, c->in.data, c->in.len);
	if (c->eof)
		buf_reset(&c->in);
	c->partial_since = c->in.len > 0 ? clock_mono_ms() : 0;
}

static int
flush_out(struct client *c)
{
	ssize_t	n;

	while (c->out.len > 0) {
		n = send(c->fd, c->out.data, c->out.len, MSG_NOSIGNAL |
		    MSG_DONTWAIT);
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1 && errno == EAGAIN)
			return 0;
		if (n == -1)
			return -1;
		buf_consume(&c->out, (size_t)n);
	}
	return 0;
}

/*
 * Read what c has and handle the complete messages.  Bounded reads per
 * wake-up keep the loop fair; a quiet connection, read seldom, is read to
 * the end (or PROTO_MAX_MSG: the rest waits for the next drain).
 */
static void
client_read(struct daemon *d, struct client *c)
{
	char	chunk[65536];
	ssize_t	n;
	int	reads = 0;

	while (reads++ < 4 || (c->quiet && c->in.len < PROTO_MAX_MSG)) {
		n = recv(c->fd, chunk, sizeof chunk, MSG_DONTWAIT);
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1 && errno == EAGAIN)
			break;
		if (n <= 0) {
			c->eof = 1;
			break;
		}
		if (c->discarding && c->in.len == 0) {
			char *nl = memchr(chunk, '\n', (size_t)n);

			if (nl == NULL)
				continue;
			c->discarding = 0;
			buf_add(&c->in, nl + 1, (size_t)(chunk + n - nl - 1));
		} else
			buf_add(&c->in, chunk, (size_t)n);
		if (c->in.len > PROTO_MAX_MSG * 2)
			break;
	}
	process_input(d, c);
}

static void
client_io(struct daemon *d, struct client *c, uint32_t events)
{
	c->last_active = clock_mono_ms();
	if (c->quiet && (events & (EPOLLHUP | EPOLLERR)))
		events |= EPOLLIN;
	else if (!c->quiet && (events & EPOLLIN))
		quiet_drain(d);
	if ((events & (EPOLLIN | EPOLLHUP | EPOLLERR)) && c->reading)
		client_read(d, c);
	if (flush_out(c) == -1 || (c->eof && c->out.len == 0)) {
		client_close(d, c);
		return;
	}
	client_arm(d, c);
}

/* Record one spooled event, once: its spool id becomes the entry id. */
static int
ingest_one(void *arg, const char *id, const char *msg, size_t len)
{
	struct daemon		*d = arg;
	struct json_object	*req;
	struct event		 ev;
	struct verdict		 v;
	struct classify_ctx	 ctx;
	char			*cause = NULL, day[11], eid[37];
	int			 r;

	if (proto_parse(msg, len, &req, &cause) != 0) {
		log_warnx("spooled event %s is not a request (%s), dropping",
		    id, cause);
		free(cause);
		return 0;
	}
	r = event_parse(req, &ev, &cause);
	json_object_put(req);
	if (r != 0) {
		log_warnx("spooled event %s is malformed (%s), dropping", id,
		    cause);
		free(cause);
		return 0;
	}
	ev.uid = d->uid;
	if (ev.euid == (uid_t)-1)
		ev.euid = d->uid;
	if (ev.source == NULL)
		ev.source = xstrdup("cli");
	if (late_settle(d, &ev, eid, &r) || event_id_seen(&ev, eid)) {
		event_release(&ev);
		return r == 0 ? 0 : -1;
	}
	if (ev.entry_id == NULL)
		ev.entry_id = xstrdup(id);
	clock_day(ev.ts_ms > 0 ? ev.ts_ms : clock_now_ms(), day);
	if (store_has_id(&d->store, day, ev.entry_id) || excluded(d, &ev)) {
		event_release(&ev);
		return 0;
	}
	fill_ctx(&ev, &ctx);
	classify_event(d, &ev, &ctx, &v);
	r = record(d, &ev, &v, clock_mono_ms(), eid);
	if (r == 0 && ev.event_id != NULL)
		event_id_done(ev.event_id);
	verdict_release(&v);
	event_release(&ev);
	if (r == 0)
		d->spooled++;
	return r == 0 ? 0 : -1;
}

/* Ingest what clients spooled while we were away. */
void
server_drain_spool(struct daemon *d)
{
	int	n;

	if (!d->spool_ready)
		return;
	n = spool_drain(d->paths.spool, d->spool_pk, d->spool_sk, ingest_one,
	    d);
	if (n > 0)
		log_info("ingested %d spooled event(s)", n);
}

/* Periodic work: metadata, expired checks, idle clients. */
void
server_tick(struct daemon *d)
{
	static unsigned	 ticks;
	struct client	*c, *next;
	struct json_object *rep;
	double		 now = clock_mono_ms();
	int64_t		 wall = clock_now_ms();
	char		 id[37];
	size_t		 i;

	quiet_drain(d);
	if (ticks % 5 == 4)
		server_drain_spool(d);
	lifecycle_tick(d);
	/* Rule files and the config are watched every other second. */
	if (++ticks % 2 == 0) {
		char *stamp = daemon_rules_stamp(d);

		if (strcmp(stamp, d->rules_stamp) != 0) {
			free(d->rules_stamp);
			d->rules_stamp = stamp;
			daemon_reload(d, "rule files changed");
		} else
			free(stamp);
		stamp = daemon_learned_stamp(d);
		if (strcmp(stamp, d->learned_stamp) != 0) {
			free(d->learned_stamp);
			d->learned_stamp = stamp;
			d->learned_gen++;
			/* A forgotten risky shape may drop a trigger word. */
			fastpath_publish(d);
			log_info("learned.json changed: rereading it");
		} else
			free(stamp);
	}
	if (d->store.dirty && store_write_metadata(&d->store,
	    anon_level_name(d->cfg.level), d->cfg.retention_days) != 0)
		server_set_error(d, "cannot write metadata.json");
	for (i = 0; i < d->npending; ) {
		if (d->pending[i].expires_ms > wall) {
			i++;
			continue;
		}
		/* The hook never answered: record what we know. */
		free(d->pending[i].ev.action);
		d->pending[i].ev.action = xstrdup("timeout");
		d->pending[i].ev.prompted = 1;
		d->pending[i].ev.decision_ms = (double)(d->cfg.prompt_timeout +
		    PENDING_GRACE_S) * 1000.0;
		record(d, &d->pending[i].ev, &d->pending[i].v,
		    d->pending[i].received, id);
		pending_remove(d, i);
	}
	for (c = clients; c != NULL; c = next) {
		next = c->next;
		if (c->partial_since > 0 && now - c->partial_since >
		    PARTIAL_MS) {
			rep = proto_error(NULL, "timed out waiting for the "
			    "rest of the message");
			proto_append(&c->out, rep);
			json_object_put(rep);
			flush_out(c);
			client_close(d, c);
		} else if (now - c->last_active > IDLE_MS && !c->quiet)
			client_close(d, c);
	}
}

/*
 * Datagrams are read in bursts.  After a read that found some, the socket
 * leaves the epoll set for DGRAM_COALESCE_MS, then it is read again; the
 * shim's sendto does not wake the daemon in the meantime (nobody waits on
 * the socket), so a burst of execs costs one wake-up per interval instead
 * of one per exec.  A read that finds nothing puts the socket back.  The
 * kernel queues only net.unix.max_dgram_qlen datagrams; a sender that
 * finds the queue full uses the stream socket, so nothing is lost.
 */
static double	dgram_next_ms;

static int
dgram_timeout(void)
{
	double	left;

	if (dgram_next_ms == 0)
		return -1;
	left = dgram_next_ms - clock_mono_ms();
	return left <= 0 ? 0 : (int)left + 1;
}

static void
dgram_wake(struct daemon *d, int n)
{
	struct epoll_event	ev;

	memset(&ev, 0, sizeof ev);
	ev.data.ptr = &tag_dgram;
	if (n > 0) {
		if (dgram_next_ms == 0) {
			ev.events = 0;
			epoll_ctl(d->epoll_fd, EPOLL_CTL_MOD, d->dgram_fd, &ev);
		}
		dgram_next_ms = clock_mono_ms() + DGRAM_COALESCE_MS;
	} else if (dgram_next_ms != 0) {
		ev.events = EPOLLIN;
		epoll_ctl(d->epoll_fd, EPOLL_CTL_MOD, d->dgram_fd, &ev);
		dgram_next_ms = 0;
	}
}

/* Serve until a terminating signal. */
void
server_loop(struct daemon *d)
{
	struct epoll_event		 evs[64];
	struct signalfd_siginfo		 si;
	uint64_t			 ticks;
	int				 n, i;

	while (!d->quit) {
		n = epoll_wait(d->epoll_fd, evs, 64, dgram_timeout());
		if (n == -1) {
			if (errno == EINTR)
				continue;
			fatal("epoll_wait");
		}
		if (dgram_next_ms > 0 && clock_mono_ms() >= dgram_next_ms)
			dgram_wake(d, dgram_read(d));
		for (i = 0; i < n; i++) {
			void *p = evs[i].data.ptr;

			if (p == &tag_listen)
				do_accept(d);
			else if (p == &tag_dgram) {
				quiet_drain(d);
				dgram_wake(d, dgram_read(d));
			}
			else if (p == &tag_signal) {
				while (read(d->signal_fd, &si, sizeof si) ==
				    sizeof si) {
					if (si.ssi_signo == SIGHUP)
						daemon_reload(d, "SIGHUP");
					else
						d->quit = 1;
				}
			} else if (p == &tag_timer) {
				if (read(d->timer_fd, &ticks, sizeof ticks) > 0)
					server_tick(d);
			} else
				client_io(d, p, evs[i].events);
		}
	}
}

/* Close every client and write what is pending. */
void
server_shutdown(struct daemon *d)
{
	char	id[37];
	size_t	i;

	/* What the quiet connections hold was accepted: handle it. */
	quiet_drain(d);
	while (clients != NULL) {
		flush_out(clients);
		client_close(d, clients);
	}
	/* A check still awaiting its answer is recorded, not lost. */
	while (d->npending > 0) {
		free(d->pending[0].ev.action);
		d->pending[0].ev.action = xstrdup("timeout");
		d->pending[0].ev.prompted = 1;
		record(d, &d->pending[0].ev, &d->pending[0].v,
		    d->pending[0].received, id);
		pending_remove(d, 0);
	}
	/* Datagrams still queued are accepted entries too. */
	if (d->dgram_fd != -1)
		dgram_read(d);
	free(d->pending);
	if (d->listen_fd > 0) {
		close(d->listen_fd);
		unlink(d->paths.socket);
	}
	dgram_close(d);
	for (i = 0; i < LATE_MAX; i++)
		late_clear(&late[i]);
}
