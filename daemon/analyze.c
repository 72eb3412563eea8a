/*
 * AI analysis (docs/analyzers.md): external analyzer programs judge the
 * redacted command, all at once, within a time budget.
 *
 * The daemon is sandboxed and may not fork or exec, so a broker child is
 * forked before sandbox_enter().  It keeps only its end of a socketpair
 * (every other descriptor is closed, its cwd is "/", the user key is
 * wiped from its copy of memory) and answers one request at a time:
 *
 *	daemon -> broker  {"id":N,"budgetMs":B,"analyzers":[SPEC...],
 *			   "input":{...}}\n
 *	broker -> daemon  {"id":N,"results":[{"status":"ok"|"timeout"|
 *			   "error","detail":S,"ms":T,"output":S}...]}\n
 *
 * The broker runs only the analyzers configured when it was started, so
 * a subverted daemon cannot make it run anything else.  The daemon waits
 * for the answer at most budget + ANALYZE_SLACK_MS, a bounded blocking
 * wait inside the request path.  It parses and checks every answer,
 * redacts every string an analyzer wrote, and computes the consensus.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <json-c/json.h>
#include <sodium.h>

#include "buf.h"
#include "classify.h"
#include "clock.h"
#include "daemon.h"
#include "event.h"
#include "jsonutil.h"
#include "log.h"
#include "redact.h"
#include "xmalloc.h"

#define ANALYZE_SLACK_MS	50
#define MAX_OUTPUT		(256 * 1024)	/* per analyzer */
#define MAX_REASONING		2000		/* bytes, after redaction */
#define MAX_ITEMS		32		/* risk factors, alternatives */

static int	broker_fd = -1;
static pid_t	broker_pid = -1;
static int64_t	next_id;
static struct buf broker_in = BUF_INIT;

struct job {
	const char	*spec;
	pid_t		 pid;
	int		 in_fd;
	int		 out_fd;
	size_t		 in_off;
	struct buf	 out;
	double		 start;
	double		 ms;
	int		 running;	/* not reaped yet */
	int		 wstatus;
	const char	*error;		/* set before start or on overflow */
	int		 timed_out;
};

/* ---- The broker. ---- */

static pid_t
job_spawn(struct job *j, char **allowed, size_t nallowed)
{
	char	*copy, *argv[64], *w, *save = NULL;
	int	 in[2], out[2], devnull;
	size_t	 i, n = 0;
	pid_t	 pid;

	for (i = 0; i < nallowed; i++)
		if (strcmp(allowed[i], j->spec) == 0)
			break;
	if (i == nallowed) {
		j->error = "not configured when the daemon started";
		return -1;
	}
	if (pipe2(in, O_CLOEXEC) == -1) {
		j->error = "cannot make a pipe";
		return -1;
	}
	if (pipe2(out, O_CLOEXEC) == -1) {
		close(in[0]);
		close(in[1]);
		j->error = "cannot make a pipe";
		return -1;
	}
	copy = xstrdup(j->spec);
	for (w = strtok_r(copy, " \t", &save); w != NULL && n < 63;
	    w = strtok_r(NULL, " \t", &save))
		argv[n++] = w;
	argv[n] = NULL;
	j->start = clock_mono_ms();
	if ((pid = fork()) == 0) {
		sigset_t	none;

		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		signal(SIGPIPE, SIG_DFL);
		setpgid(0, 0);
		devnull = open("/dev/null", O_WRONLY | O_CLOEXEC);
		if (dup2(in[0], 0) == -1 || dup2(out[1], 1) == -1 ||
		    (devnull != -1 && dup2(devnull, 2) == -1))
			_exit(126);
		execv(argv[0], argv);
		_exit(127);
	}
	free(copy);
	close(in[0]);
	close(out[1]);
	if (pid == -1) {
		close(in[1]);
		close(out[0]);
		j->error = "cannot fork";
		return -1;
	}
	fcntl(in[1], F_SETFL, O_NONBLOCK);
	fcntl(out[0], F_SETFL, O_NONBLOCK);
	j->pid = pid;
	j->in_fd = in[1];
	j->out_fd = out[0];
	j->running = 1;
	return pid;
}

static void
job_kill(struct job *j)
{
	if (!j->running)
		return;
	kill(-j->pid, SIGKILL);
	kill(j->pid, SIGKILL);
	waitpid(j->pid, &j->wstatus, 0);
	j->running = 0;
	j->ms = clock_mono_ms() - j->start;
}

static void
job_close(struct job *j)
{
	if (j->in_fd != -1)
		close(j->in_fd);
	if (j->out_fd != -1)
		close(j->out_fd);
	j->in_fd = j->out_fd = -1;
}

/* Read what is there; at EOF close the pipe. */
static void
job_read(struct job *j)
{
	char	chunk[8192];
	ssize_t	n;

	for (;;) {
		n = read(j->out_fd, chunk, sizeof chunk);
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1 && errno == EAGAIN)
			return;
		if (n <= 0) {
			close(j->out_fd);
			j->out_fd = -1;
			return;
		}
		if (j->out.len + (size_t)n > MAX_OUTPUT) {
			j->error = "output too large";
			job_kill(j);
			job_close(j);
			return;
		}
		buf_add(&j->out, chunk, (size_t)n);
	}
}

static void
job_write(struct job *j, const char *in, size_t len)
{
	ssize_t	n;

	while (j->in_off < len) {
		n = write(j->in_fd, in + j->in_off, len - j->in_off);
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1 && errno == EAGAIN)
			return;
		if (n == -1)
			break;		/* EPIPE: it did not read, fine */
		j->in_off += (size_t)n;
	}
	close(j->in_fd);
	j->in_fd = -1;
}

/* Run every job at once; kill what is still running at the budget. */
static void
jobs_run(struct job *jobs, size_t n, const char *in, size_t len, int budget)
{
	struct pollfd	 pfd[2 * CONFIG_MAX_ANALYZERS];
	struct job	*owner[2 * CONFIG_MAX_ANALYZERS];
	double		 deadline = clock_mono_ms() + budget, left;
	size_t		 i, np;
	int		 busy, reap, timeout;

	for (;;) {
		np = 0;
		busy = reap = 0;
		for (i = 0; i < n; i++) {
			struct job *j = &jobs[i];

			if (j->running && j->out_fd == -1 &&
			    waitpid(j->pid, &j->wstatus, WNOHANG) == j->pid) {
				j->running = 0;
				j->ms = clock_mono_ms() - j->start;
			}
			if (j->running && j->out_fd == -1)
				reap = 1;
			if (j->running)
				busy = 1;
			if (j->in_fd != -1) {
				pfd[np].fd = j->in_fd;
				pfd[np].events = POLLOUT;
				owner[np++] = j;
			}
			if (j->out_fd != -1) {
				pfd[np].fd = j->out_fd;
				pfd[np].events = POLLIN;
				owner[np++] = j;
			}
		}
		if (!busy)
			break;
		left = deadline - clock_mono_ms();
		if (left <= 0)
			break;
		timeout = (int)left + 1;
		if (reap && timeout > 2)
			timeout = 2;	/* it closed stdout; poll its exit */
		if (poll(pfd, np, timeout) == -1 && errno != EINTR)
			break;
		for (i = 0; i < np; i++) {
			if (pfd[i].revents == 0)
				continue;
			if (pfd[i].fd == owner[i]->in_fd)
				job_write(owner[i], in, len);
			else if (pfd[i].fd == owner[i]->out_fd)
				job_read(owner[i]);
		}
	}
	for (i = 0; i < n; i++) {
		if (jobs[i].running) {
			jobs[i].timed_out = 1;
			job_kill(&jobs[i]);
		}
		job_close(&jobs[i]);
	}
}

static struct json_object *
job_result(const struct job *j, int budget)
{
	struct json_object	*r = json_object_new_object();
	char			 detail[128];
	const char		*status = "error";

	detail[0] = '\0';
	if (j->error != NULL)
		snprintf(detail, sizeof detail, "%s", j->error);
	else if (j->timed_out)
		snprintf(detail, sizeof detail, "timeout after %d ms", budget);
	else if (WIFSIGNALED(j->wstatus))
		snprintf(detail, sizeof detail, "killed by signal %d",
		    WTERMSIG(j->wstatus));
	else if (WIFEXITED(j->wstatus) && WEXITSTATUS(j->wstatus) == 127)
		snprintf(detail, sizeof detail, "cannot run the program");
	else if (WIFEXITED(j->wstatus) && WEXITSTATUS(j->wstatus) != 0)
		snprintf(detail, sizeof detail, "exit status %d",
		    WEXITSTATUS(j->wstatus));
	else
		status = "ok";
	if (j->timed_out && j->error == NULL)
		status = "timeout";
	json_object_object_add(r, "status", json_object_new_string(status));
	json_object_object_add(r, "detail", json_object_new_string(detail));
	json_object_object_add(r, "ms", json_num(j->ms > 0 ? j->ms : 0));
	if (strcmp(status, "ok") == 0)
		json_object_object_add(r, "output",
		    json_object_new_string_len(j->out.len > 0 ? j->out.data :
		    "", (int)j->out.len));
	return r;
}

static int
write_all(int fd, const char *s, size_t len)
{
	ssize_t	n;

	while (len > 0) {
		n = write(fd, s, len);
		if (n == -1 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		s += n;
		len -= (size_t)n;
	}
	return 0;
}

static void
broker_serve(int fd, struct json_object *req, char **allowed,
    size_t nallowed)
{
	struct json_object	*a, *o, *rep, *res;
	struct job		 jobs[CONFIG_MAX_ANALYZERS];
	const char		*in, *s;
	size_t			 n = 0, i, len;
	int			 budget = 3000;

	memset(jobs, 0, sizeof jobs);
	if (json_object_object_get_ex(req, "budgetMs", &o))
		budget = json_object_get_int(o);
	if (budget < 1 || budget > 60000)
		budget = 3000;
	in = "{}";
	if (json_object_object_get_ex(req, "input", &o))
		in = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN |
		    JSON_C_TO_STRING_NOSLASHESCAPE);
	len = strlen(in);
	if (json_object_object_get_ex(req, "analyzers", &a) &&
	    json_object_is_type(a, json_type_array))
		n = json_object_array_length(a);
	if (n > CONFIG_MAX_ANALYZERS)
		n = CONFIG_MAX_ANALYZERS;
	for (i = 0; i < n; i++) {
		jobs[i].in_fd = jobs[i].out_fd = -1;
		s = json_object_get_string(json_object_array_get_idx(a, i));
		jobs[i].spec = s != NULL ? s : "";
		job_spawn(&jobs[i], allowed, nallowed);
	}
	jobs_run(jobs, n, in, len, budget);

	rep = json_object_new_object();
	if (json_object_object_get_ex(req, "id", &o))
		json_object_object_add(rep, "id", json_object_get(o));
	res = json_object_new_array();
	for (i = 0; i < n; i++) {
		json_object_array_add(res, job_result(&jobs[i], budget));
		buf_release(&jobs[i].out);
	}
	json_object_object_add(rep, "results", res);
	s = json_object_to_json_string_ext(rep, JSON_C_TO_STRING_PLAIN);
	if (write_all(fd, s, strlen(s)) != 0 || write_all(fd, "\n", 1) != 0)
		_exit(0);
	json_object_put(rep);
}

static void __attribute__((noreturn))
broker_main(int fd, char **allowed, size_t nallowed)
{
	struct json_object	*req;
	struct buf		 in = BUF_INIT;
	char			 chunk[65536], *nl, *line;
	sigset_t		 none;
	ssize_t			 n;
	size_t			 len;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGINT, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	signal(SIGCHLD, SIG_DFL);
	for (;;) {
		while (in.len > 0 &&
		    (nl = memchr(in.data, '\n', in.len)) != NULL) {
			len = (size_t)(nl - in.data);
			line = xstrndup(in.data, len);
			req = json_tokener_parse(line);
			free(line);
			buf_consume(&in, len + 1);
			if (req != NULL &&
			    json_object_is_type(req, json_type_object))
				broker_serve(fd, req, allowed, nallowed);
			json_object_put(req);
		}
		n = read(fd, chunk, sizeof chunk);
		if (n == -1 && errno == EINTR)
			continue;
		if (n <= 0)
			_exit(0);
		buf_add(&in, chunk, (size_t)n);
		if (in.len > 64 * 1024 * 1024)
			_exit(1);
	}
}

/* Fork the broker when analyzers are configured (before the sandbox). */
int
analyze_start(struct daemon *d, char **cause)
{
	char	**allowed;
	size_t	  i;
	int	  sv[2], devnull;
	pid_t	  pid;

	if (d->cfg.nanalyzers == 0)
		return 0;
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) == -1) {
		xasprintf(cause, "cannot start the analysis broker: socketpair: "
		    "%s", strerror(errno));
		return -errno;
	}
	allowed = xcalloc(d->cfg.nanalyzers, sizeof *allowed);
	for (i = 0; i < d->cfg.nanalyzers; i++)
		allowed[i] = xstrdup(d->cfg.analyzers[i]);
	if ((pid = fork()) == -1) {
		xasprintf(cause, "cannot start the analysis broker: fork: %s",
		    strerror(errno));
		close(sv[0]);
		close(sv[1]);
		for (i = 0; i < d->cfg.nanalyzers; i++)
			free(allowed[i]);
		free(allowed);
		return -EAGAIN;
	}
	if (pid == 0) {
		/* Keep the socket, stderr for fatal(); nothing else. */
		sodium_memzero(d->key, sizeof d->key);
		sodium_memzero(d->spool_sk, sizeof d->spool_sk);
		if (dup2(sv[1], 3) == -1)
			_exit(1);
		close_range(4, ~0U, 0);
		if ((devnull = open("/dev/null", O_RDWR)) != -1) {
			dup2(devnull, 0);
			dup2(devnull, 1);
			if (devnull > 3)
				close(devnull);
		}
		if (chdir("/") == -1)
			_exit(1);
		broker_main(3, allowed, d->cfg.nanalyzers);
	}
	close(sv[1]);
	for (i = 0; i < d->cfg.nanalyzers; i++)
		free(allowed[i]);
	free(allowed);
	fcntl(sv[0], F_SETFL, O_NONBLOCK);
	broker_fd = sv[0];
	broker_pid = pid;
	log_info("analysis broker started (pid %ld, %zu analyzer(s))",
	    (long)pid, d->cfg.nanalyzers);
	return 0;
}

/* Close the broker's socket; it exits at EOF. */
void
analyze_stop(void)
{
	if (broker_fd != -1)
		close(broker_fd);
	broker_fd = -1;
	buf_release(&broker_in);
}

static void
broker_lost(const char *why)
{
	log_warnx("the analysis broker (pid %ld) is gone: %s; AI analysis is "
	    "off until restart", (long)broker_pid, why);
	analyze_stop();
}

/* ---- The daemon side. ---- */

/* Send a request and wait for its answer until deadline; NULL if none. */
static struct json_object *
broker_call(struct json_object *req, int64_t id, double deadline)
{
	struct json_object	*rep, *o;
	struct pollfd		 pfd;
	const char		*s;
	char			 chunk[65536], *nl, *line;
	size_t			 len, off = 0;
	ssize_t			 n;
	double			 left;

	s = json_object_to_json_string_ext(req, JSON_C_TO_STRING_PLAIN);
	len = strlen(s);
	while (off <= len) {
		if (off == len)
			n = send(broker_fd, "\n", 1, MSG_NOSIGNAL);
		else
			n = send(broker_fd, s + off, len - off, MSG_NOSIGNAL);
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1 && errno == EAGAIN) {
			left = deadline - clock_mono_ms();
			pfd.fd = broker_fd;
			pfd.events = POLLOUT;
			if (left <= 0 || poll(&pfd, 1, (int)left + 1) == 0)
				return NULL;
			continue;
		}
		if (n == -1) {
			broker_lost(strerror(errno));
			return NULL;
		}
		off += (size_t)n;
	}
	for (;;) {
		while (broker_in.len > 0 && (nl = memchr(broker_in.data,
		    '\n', broker_in.len)) != NULL) {
			line = xstrndup(broker_in.data,
			    (size_t)(nl - broker_in.data));
			buf_consume(&broker_in, (size_t)(nl - broker_in.data) +
			    1);
			rep = json_tokener_parse(line);
			free(line);
			/* A late answer to a request we gave up on. */
			if (rep != NULL && json_object_object_get_ex(rep, "id",
			    &o) && json_object_get_int64(o) == id)
				return rep;
			json_object_put(rep);
		}
		left = deadline - clock_mono_ms();
		if (left <= 0)
			return NULL;
		pfd.fd = broker_fd;
		pfd.events = POLLIN;
		if (poll(&pfd, 1, (int)left + 1) == -1 && errno != EINTR)
			return NULL;
		n = recv(broker_fd, chunk, sizeof chunk, MSG_DONTWAIT);
		if (n == -1 && (errno == EAGAIN || errno == EINTR))
			continue;
		if (n <= 0) {
			broker_lost(n == 0 ? "end of file" : strerror(errno));
			return NULL;
		}
		buf_add(&broker_in, chunk, (size_t)n);
	}
}

static char *
redacted(struct daemon *d, const char *s, size_t max)
{
	struct buf	 b = BUF_INIT;
	char		*r;
	size_t		 len;

	redact_text(d->red, d->cfg.level, s, strlen(s), &b, NULL, NULL);
	len = b.len;
	if (len > max) {
		/* Cut at a UTF-8 character boundary. */
		len = max;
		while (len > 0 && ((unsigned char)b.data[len] & 0xc0) == 0x80)
			len--;
	}
	r = xstrndup(b.len > 0 ? b.data : "", len);
	buf_release(&b);
	return r;
}

static const char *
model_id(const char *spec, char *buf, size_t size)
{
	const char	*e, *slash;
	size_t		 n;

	for (e = spec; *e != '\0' && *e != ' ' && *e != '\t'; e++)
		;
	for (slash = e; slash > spec && slash[-1] != '/'; slash--)
		;
	n = (size_t)(e - slash);
	if (n >= size)
		n = size - 1;
	memcpy(buf, slash, n);
	buf[n] = '\0';
	return buf;
}

static int
decision_rank(const char *s)
{
	if (strcmp(s, "allow") == 0)
		return 0;
	if (strcmp(s, "prompt") == 0)
		return 1;
	if (strcmp(s, "deny") == 0)
		return 2;
	return -1;
}

static const char *const decisions[] = { "allow", "prompt", "deny" };

static int
severity_rank(const char *s)
{
	static const char *const sev[] = { "low", "medium", "high",
	    "critical" };
	int	i;

	for (i = 0; i < 4; i++)
		if (strcmp(s, sev[i]) == 0)
			return i;
	return -1;
}

static const char *
get_s(struct json_object *o, const char *k)
{
	struct json_object	*v;

	if (!json_object_object_get_ex(o, k, &v) ||
	    !json_object_is_type(v, json_type_string))
		return NULL;
	return json_object_get_string(v);
}

static int
get_d(struct json_object *o, const char *k, double lo, double hi,
    double *ret)
{
	struct json_object	*v;
	double			 x;

	if (!json_object_object_get_ex(o, k, &v) ||
	    (!json_object_is_type(v, json_type_int) &&
	    !json_object_is_type(v, json_type_double)))
		return -1;
	x = json_object_get_double(v);
	if (!(x >= lo && x <= hi))
		return -1;
	*ret = x;
	return 0;
}

static void
merge_factors(struct daemon *d, struct json_object *all,
    struct json_object *ans)
{
	struct json_object	*a, *it, *old = NULL;
	const char		*f, *sev, *desc;
	char			*rf, *rd;
	size_t			 i, k, n;

	if (!json_object_object_get_ex(ans, "riskFactors", &a) ||
	    !json_object_is_type(a, json_type_array))
		return;
	n = json_object_array_length(a);
	for (i = 0; i < n; i++) {
		it = json_object_array_get_idx(a, i);
		if ((f = get_s(it, "factor")) == NULL ||
		    (sev = get_s(it, "severity")) == NULL ||
		    severity_rank(sev) < 0 ||
		    (desc = get_s(it, "description")) == NULL)
			continue;
		rf = redacted(d, f, 200);
		for (k = 0; k < json_object_array_length(all); k++) {
			old = json_object_array_get_idx(all, k);
			if (strcmp(get_s(old, "factor"), rf) == 0)
				break;
		}
		if (k < json_object_array_length(all)) {
			/* The same factor twice: keep the gravest. */
			if (severity_rank(sev) > severity_rank(get_s(old,
			    "severity")))
				json_object_object_add(old, "severity",
				    json_object_new_string(sev));
			free(rf);
			continue;
		}
		if (json_object_array_length(all) >= MAX_ITEMS) {
			free(rf);
			return;
		}
		rd = redacted(d, desc, 1000);
		old = json_object_new_object();
		json_object_object_add(old, "factor", json_object_new_string(rf));
		json_object_object_add(old, "severity",
		    json_object_new_string(sev));
		json_object_object_add(old, "description",
		    json_object_new_string(rd));
		json_object_array_add(all, old);
		free(rf);
		free(rd);
	}
}

static void
merge_alternatives(struct daemon *d, struct json_object *all,
    struct json_object *ans)
{
	struct json_object	*a, *it, *old = NULL;
	const char		*c, *ex;
	char			*rc, *re;
	double			 si, osi;
	size_t			 i, k, n;

	if (!json_object_object_get_ex(ans, "alternatives", &a) ||
	    !json_object_is_type(a, json_type_array))
		return;
	n = json_object_array_length(a);
	for (i = 0; i < n; i++) {
		it = json_object_array_get_idx(a, i);
		if ((c = get_s(it, "command")) == NULL ||
		    (ex = get_s(it, "explanation")) == NULL ||
		    get_d(it, "safetyImprovement", 0, 100, &si) != 0)
			continue;
		rc = redacted(d, c, 1000);
		for (k = 0; k < json_object_array_length(all); k++) {
			old = json_object_array_get_idx(all, k);
			if (strcmp(get_s(old, "command"), rc) == 0)
				break;
		}
		if (k < json_object_array_length(all)) {
			if (get_d(old, "safetyImprovement", 0, 100, &osi) ==
			    0 && si > osi)
				json_object_object_add(old,
				    "safetyImprovement", json_num(si));
			free(rc);
			continue;
		}
		if (json_object_array_length(all) >= MAX_ITEMS) {
			free(rc);
			return;
		}
		re = redacted(d, ex, 1000);
		old = json_object_new_object();
		json_object_object_add(old, "command", json_object_new_string(rc));
		json_object_object_add(old, "explanation",
		    json_object_new_string(re));
		json_object_object_add(old, "safetyImprovement", json_num(si));
		json_object_array_add(all, old);
		free(rc);
		free(re);
	}
}

static struct json_object *
model_new(const char *id, const char *decision, double conf,
    const char *reasoning, double ms)
{
	struct json_object	*m = json_object_new_object();

	json_object_object_add(m, "modelId", json_object_new_string(id));
	json_object_object_add(m, "decision", json_object_new_string(decision));
	json_object_object_add(m, "confidence", json_num(conf));
	json_object_object_add(m, "reasoning",
	    json_object_new_string(reasoning));
	json_object_object_add(m, "responseTime", json_num(ms));
	return m;
}

/*
 * One analyzer's answer: a model entry, and its decision rank and
 * confidence when it is valid (else *ret_rank = -1).
 */
static struct json_object *
model_from(struct daemon *d, const char *spec, struct json_object *res,
    struct json_object *factors, struct json_object *alts, int *ret_rank,
    double *ret_conf)
{
	struct json_object	*ans = NULL, *m;
	const char		*status, *out, *dec, *why, *bad = NULL;
	char			 id[128], msg[160], *rw;
	double			 ms = 0, conf = 0;

	*ret_rank = -1;
	model_id(spec, id, sizeof id);
	get_d(res, "ms", 0, 1e9, &ms);
	status = get_s(res, "status");
	if (status == NULL || strcmp(status, "ok") != 0) {
		out = get_s(res, "detail");
		snprintf(msg, sizeof msg, "%s%s", status != NULL &&
		    strcmp(status, "timeout") == 0 ? "" : "error: ",
		    out != NULL ? out : "no result");
		return model_new(id, "prompt", 0, msg, ms);
	}
	out = get_s(res, "output");
	if (out == NULL || (ans = json_tokener_parse(out)) == NULL ||
	    !json_object_is_type(ans, json_type_object))
		bad = "the answer is not a JSON object";
	else if ((dec = get_s(ans, "decision")) == NULL ||
	    decision_rank(dec) < 0)
		bad = "\"decision\" must be allow, deny or prompt";
	else if (get_d(ans, "confidence", 0, 1, &conf) != 0)
		bad = "\"confidence\" must be a number from 0 to 1";
	else if ((why = get_s(ans, "reasoning")) == NULL)
		bad = "\"reasoning\" must be a string";
	if (bad != NULL) {
		json_object_put(ans);
		snprintf(msg, sizeof msg, "error: %s", bad);
		return model_new(id, "prompt", 0, msg, ms);
	}
	rw = redacted(d, why, MAX_REASONING);
	m = model_new(id, dec, conf, rw, ms);
	free(rw);
	*ret_rank = decision_rank(dec);
	*ret_conf = conf;
	merge_factors(d, factors, ans);
	merge_alternatives(d, alts, ans);
	json_object_put(ans);
	return m;
}

/*
 * Consensus over the valid answers: the majority decision, ties going to
 * the safer choice (deny > prompt > allow); confidence is the mean of the
 * agreeing models'; agreement is the percentage of valid answers that
 * agree, rounded to two decimals.
 */
static struct json_object *
consensus(const int *rank, const double *conf, size_t n, int *ret_ok)
{
	struct json_object	*c = json_object_new_object();
	size_t			 count[3] = { 0, 0, 0 }, valid = 0, i;
	double			 sum = 0, agreement = 0, mean = 0;
	int			 best = 1, r;

	for (i = 0; i < n; i++) {
		if (rank[i] < 0)
			continue;
		count[rank[i]]++;
		valid++;
	}
	if (valid > 0) {
		for (r = 2, best = 2; r >= 0; r--)
			if (count[r] > count[best])
				best = r;
		for (i = 0; i < n; i++)
			if (rank[i] == best)
				sum += conf[i];
		mean = sum / (double)count[best];
		agreement = (double)(int64_t)(10000.0 * (double)count[best] /
		    (double)valid + 0.5) / 100.0;
		mean = (double)(int64_t)(mean * 10000.0 + 0.5) / 10000.0;
	}
	json_object_object_add(c, "decision",
	    json_object_new_string(decisions[best]));
	json_object_object_add(c, "confidence", json_num(mean));
	json_object_object_add(c, "agreement", json_num(agreement));
	*ret_ok = valid > 0;
	return c;
}

/* Analyze a moderate or dangerous command; NULL when not applicable. */
struct json_object *
analyze_command(struct daemon *d, const struct event *ev,
    const struct verdict *v, double *ret_ms)
{
	struct json_object	*req, *in, *cmd, *args, *rep = NULL, *res = NULL;
	struct json_object	*ai, *models, *factors, *alts, *m;
	struct redacted_cmd	 rc;
	const struct config	*cfg = &d->cfg;
	double			 t0 = clock_mono_ms(), conf[CONFIG_MAX_ANALYZERS];
	int			 rank[CONFIG_MAX_ANALYZERS], ok;
	int64_t			 id;
	char			 msg[160];
	size_t			 i, n = cfg->nanalyzers;

	if (n == 0 || v->risk == RISK_SAFE)
		return NULL;
	/* The exec-level layers have their own, much tighter budget. */
	if (ev->source != NULL && (strcmp(ev->source, "preload") == 0 ||
	    strcmp(ev->source, "strict") == 0))
		return NULL;
	if (n > CONFIG_MAX_ANALYZERS)
		n = CONFIG_MAX_ANALYZERS;

	/* The input: the redacted command and the rules' verdict. */
	redact_command(d->red, cfg->level, ev->line, strlen(ev->line), &rc,
	    NULL);
	in = json_object_new_object();
	cmd = json_object_new_object();
	json_object_object_add(cmd, "command",
	    json_object_new_string(rc.command != NULL ? rc.command : ""));
	args = json_object_new_array();
	for (i = 0; i < rc.nargs; i++)
		json_object_array_add(args, json_object_new_string(rc.args[i]));
	json_object_object_add(cmd, "args", args);
	json_object_object_add(cmd, "fullCommand",
	    json_object_new_string(rc.full != NULL ? rc.full : ""));
	redacted_cmd_release(&rc);
	json_object_object_add(in, "command", cmd);
	if (v->classification != NULL)
		json_object_object_add(in, "classification",
		    json_object_get(v->classification));
	json_object_object_add(in, "riskLevel",
	    json_object_new_string(risk_name(v->risk)));

	if (broker_fd != -1) {
		id = ++next_id;
		req = json_object_new_object();
		json_object_object_add(req, "id", json_object_new_int64(id));
		json_object_object_add(req, "budgetMs",
		    json_object_new_int(cfg->analyzer_timeout_ms));
		args = json_object_new_array();
		for (i = 0; i < n; i++)
			json_object_array_add(args,
			    json_object_new_string(cfg->analyzers[i]));
		json_object_object_add(req, "analyzers", args);
		json_object_object_add(req, "input", in);
		rep = broker_call(req, id, t0 + cfg->analyzer_timeout_ms +
		    ANALYZE_SLACK_MS);
		json_object_put(req);
	} else
		json_object_put(in);
	if (rep != NULL && (!json_object_object_get_ex(rep, "results", &res) ||
	    !json_object_is_type(res, json_type_array) ||
	    json_object_array_length(res) != n))
		res = NULL;

	models = json_object_new_array();
	factors = json_object_new_array();
	alts = json_object_new_array();
	for (i = 0; i < n; i++) {
		rank[i] = -1;
		conf[i] = 0;
		if (res != NULL)
			m = model_from(d, cfg->analyzers[i],
			    json_object_array_get_idx(res, i), factors, alts,
			    &rank[i], &conf[i]);
		else {
			char idb[128];

			snprintf(msg, sizeof msg, "error: %s", broker_fd ==
			    -1 ? "the analysis broker is not running" :
			    "no answer from the analysis broker");
			m = model_new(model_id(cfg->analyzers[i], idb,
			    sizeof idb), "prompt", 0, msg, 0);
		}
		json_object_array_add(models, m);
	}
	json_object_put(rep);

	ai = json_object_new_object();
	m = consensus(rank, conf, n, &ok);
	json_object_object_add(ai, "performed", json_object_new_boolean(ok));
	json_object_object_add(ai, "consensus", m);
	json_object_object_add(ai, "models", models);
	json_object_object_add(ai, "riskFactors", factors);
	if (json_object_array_length(alts) > 0)
		json_object_object_add(ai, "alternatives", alts);
	else
		json_object_put(alts);
	*ret_ms = clock_mono_ms() - t0;
	return ai;
}

/* The consensus of a result, with "performed", for the check reply. */
struct json_object *
analyze_reply(struct json_object *ai)
{
	struct json_object	*c, *r, *p;

	if (ai == NULL || !json_object_object_get_ex(ai, "consensus", &c))
		return NULL;
	r = json_object_new_object();
	json_object_object_foreach(c, k, val)
		json_object_object_add(r, k, json_object_get(val));
	if (json_object_object_get_ex(ai, "performed", &p))
		json_object_object_add(r, "performed", json_object_get(p));
	return r;
}
