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
 * with HISTCONTROL=ignorespace).
 *
 * The builtin is named deliberate_hook, not deliberate, so that it does not
 * shadow the deliberate command in the user's shell.  It links nothing but
 * the C library, never prints except for usage errors, and holds no fd
 * across calls.
 */
#include <config.h>

#include <sys/socket.h>
#include <sys/un.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "builtins.h"
#include "shell.h"
#include "bashgetopt.h"
#include "common.h"

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

struct dlb_buf {
	char	*p;
	size_t	 len;
	size_t	 cap;
	int	 oom;
};

static int	dlb_marked = -1;

static void
dlb_grow(struct dlb_buf *b, size_t n)
{
	size_t	 cap;
	char	*np;

	if (b->oom || b->len + n + 1 <= b->cap)
		return;
	cap = b->cap ? b->cap : 512;
	while (cap < b->len + n + 1)
		cap *= 2;
	if ((np = realloc(b->p, cap)) == NULL) {
		b->oom = 1;
		return;
	}
	b->p = np;
	b->cap = cap;
}

static void
dlb_addn(struct dlb_buf *b, const char *s, size_t n)
{
	dlb_grow(b, n);
	if (b->oom)
		return;
	memcpy(b->p + b->len, s, n);
	b->len += n;
	b->p[b->len] = '\0';
}

static void
dlb_adds(struct dlb_buf *b, const char *s)
{
	dlb_addn(b, s, strlen(s));
}

/* Length of a valid UTF-8 sequence at s (at most n bytes), or 0. */
static size_t
dlb_utf8_len(const unsigned char *s, size_t n)
{
	size_t		len, i;
	unsigned int	cp;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		len = 2, cp = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		len = 3, cp = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		len = 4, cp = s[0] & 0x07;
	else
		return 0;
	if (len > n)
		return 0;
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3f);
	}
	if ((len == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ||
	    (len == 4 && (cp < 0x10000 || cp > 0x10ffff)))
		return 0;
	return len;
}

/*
 * Append s as a JSON string.  Bytes that are not UTF-8 become U+FFFD: the
 * daemon refuses messages that are not valid UTF-8.
 */
static void
dlb_addjson(struct dlb_buf *b, const char *s)
{
	const unsigned char	*p = (const unsigned char *)s;
	size_t			 n = strlen(s), k;
	char			 esc[8];

	dlb_addn(b, "\"", 1);
	while (n > 0) {
		if (*p == '"' || *p == '\\') {
			dlb_addn(b, "\\", 1);
			dlb_addn(b, (const char *)p, 1);
			k = 1;
		} else if (*p == '\n') {
			dlb_addn(b, "\\n", 2);
			k = 1;
		} else if (*p == '\t') {
			dlb_addn(b, "\\t", 2);
			k = 1;
		} else if (*p < 0x20 || *p == 0x7f) {
			snprintf(esc, sizeof esc, "\\u%04x", *p);
			dlb_adds(b, esc);
			k = 1;
		} else if ((k = dlb_utf8_len(p, n)) != 0)
			dlb_addn(b, (const char *)p, k);
		else {
			dlb_adds(b, "\\ufffd");
			k = 1;
		}
		p += k;
		n -= k;
	}
	dlb_addn(b, "\"", 1);
}

static void
dlb_addkv(struct dlb_buf *b, const char *key, const char *val)
{
	dlb_adds(b, ",\"");
	dlb_adds(b, key);
	dlb_adds(b, "\":");
	dlb_addjson(b, val != NULL ? val : "");
}

static void
dlb_addnum(struct dlb_buf *b, const char *key, long long v)
{
	char	tmp[64];

	snprintf(tmp, sizeof tmp, ",\"%s\":%lld", key, v);
	dlb_adds(b, tmp);
}

static long long
dlb_now_ms(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static long long
dlb_mono_ms(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static const char *
dlb_var(const char *name)
{
	return get_string_value(name);
}

/* The socket path, by the rules of docs/protocol.md. */
static int
dlb_socket_path(char *out, size_t len)
{
	const char	*v;
	int		 n;

	if ((v = dlb_var("DELIBERATE_SOCKET")) != NULL && *v != '\0')
		n = snprintf(out, len, "%s", v);
	else if ((v = dlb_var("XDG_RUNTIME_DIR")) != NULL && *v != '\0')
		n = snprintf(out, len, "%s/deliberate/sock", v);
	else if ((v = dlb_var("DELIBERATE_HOME")) != NULL && *v != '\0')
		n = snprintf(out, len, "%s/run/sock", v);
	else if ((v = dlb_var("HOME")) != NULL && *v != '\0')
		n = snprintf(out, len, "%s/.deliberate/run/sock", v);
	else
		return -1;
	return (n < 0 || (size_t)n >= len) ? -1 : 0;
}

/*
 * Send msg and, unless reply is NULL, read one reply line into it, all
 * within deadline (monotonic ms).  Returns 0 or -1.
 */
static int
dlb_exchange(const struct dlb_buf *msg, struct dlb_buf *reply,
    long long deadline)
{
	struct sockaddr_un	 sun;
	struct pollfd		 pfd;
	size_t			 off = 0;
	ssize_t			 n;
	long long		 left;
	char			 tmp[4096], *nl;
	int			 fd, r = -1;

	memset(&sun, 0, sizeof sun);
	sun.sun_family = AF_UNIX;
	if (dlb_socket_path(sun.sun_path, sizeof sun.sun_path) != 0)
		return -1;
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		return -1;
	/* EAGAIN: the backlog is full, the daemon is stuck; fail open. */
	if (connect(fd, (struct sockaddr *)&sun, sizeof sun) != 0)
		goto out;
	pfd.fd = fd;
	while (off < msg->len) {
		n = send(fd, msg->p + off, msg->len - off, MSG_NOSIGNAL);
		if (n > 0) {
			off += (size_t)n;
			continue;
		}
		if (n < 0 && errno != EAGAIN && errno != EINTR)
			goto out;
		if ((left = deadline - dlb_mono_ms()) <= 0)
			goto out;
		pfd.events = POLLOUT;
		if (poll(&pfd, 1, (int)left) <= 0 && errno != EINTR)
			goto out;
	}
	if (reply == NULL) {
		r = 0;
		goto out;
	}
	for (;;) {
		n = recv(fd, tmp, sizeof tmp, 0);
		if (n > 0) {
			dlb_addn(reply, tmp, (size_t)n);
			if (reply->oom || reply->len > DLB_MAX_REPLY)
				goto out;
			if ((nl = memchr(reply->p, '\n', reply->len)) != NULL) {
				*nl = '\0';
				reply->len = (size_t)(nl - reply->p);
				r = 0;
				goto out;
			}
			continue;
		}
		if (n == 0 || (errno != EAGAIN && errno != EINTR))
			goto out;
		if ((left = deadline - dlb_mono_ms()) <= 0)
			goto out;
		pfd.events = POLLIN;
		if (poll(&pfd, 1, (int)left) < 0 && errno != EINTR)
			goto out;
	}
out:
	close(fd);
	return r;
}

/*
 * Decode one JSON string starting after its opening quote into out.
 * Returns a pointer past the closing quote, or NULL.
 */
static const char *
dlb_json_string(const char *p, struct dlb_buf *out)
{
	unsigned int	cp, lo;
	char		u[4];
	int		i;

	for (;;) {
		if (*p == '\0')
			return NULL;
		if (*p == '"')
			return p + 1;
		if (*p != '\\') {
			dlb_addn(out, p++, 1);
			continue;
		}
		p++;
		switch (*p) {
		case 'n':	dlb_addn(out, "\n", 1); break;
		case 't':	dlb_addn(out, "\t", 1); break;
		case 'r':	dlb_addn(out, "\r", 1); break;
		case 'b':	dlb_addn(out, "\b", 1); break;
		case 'f':	dlb_addn(out, "\f", 1); break;
		case '"': case '\\': case '/':
			dlb_addn(out, p, 1);
			break;
		case 'u':
			if (sscanf(p + 1, "%4x", &cp) != 1)
				return NULL;
			p += 4;
			if (cp >= 0xd800 && cp <= 0xdbff && p[1] == '\\' &&
			    p[2] == 'u' && sscanf(p + 3, "%4x", &lo) == 1 &&
			    lo >= 0xdc00 && lo <= 0xdfff) {
				cp = 0x10000 + ((cp - 0xd800) << 10) +
				    (lo - 0xdc00);
				p += 6;
			}
			if (cp == 0 || (cp >= 0xd800 && cp <= 0xdfff))
				cp = 0xfffd;
			if (cp < 0x80) {
				u[0] = (char)cp;
				i = 1;
			} else if (cp < 0x800) {
				u[0] = (char)(0xc0 | (cp >> 6));
				u[1] = (char)(0x80 | (cp & 0x3f));
				i = 2;
			} else if (cp < 0x10000) {
				u[0] = (char)(0xe0 | (cp >> 12));
				u[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
				u[2] = (char)(0x80 | (cp & 0x3f));
				i = 3;
			} else {
				u[0] = (char)(0xf0 | (cp >> 18));
				u[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
				u[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
				u[3] = (char)(0x80 | (cp & 0x3f));
				i = 4;
			}
			dlb_addn(out, u, (size_t)i);
			break;
		default:
			return NULL;
		}
		p++;
	}
}

/* Skip one JSON value that is not a string (nested values included). */
static const char *
dlb_json_skip(const char *p, struct dlb_buf *scalar)
{
	struct dlb_buf	 junk = { NULL, 0, 0, 0 };
	int		 depth = 0;

	for (;;) {
		switch (*p) {
		case '\0':
			free(junk.p);
			return NULL;
		case '"':
			p = dlb_json_string(p + 1, &junk);
			junk.len = 0;
			if (p == NULL) {
				free(junk.p);
				return NULL;
			}
			continue;
		case '[': case '{':
			depth++;
			break;
		case ']': case '}':
			if (depth == 0) {
				free(junk.p);
				return p;
			}
			depth--;
			break;
		case ',':
			if (depth == 0) {
				free(junk.p);
				return p;
			}
			break;
		default:
			if (depth == 0 && *p != ' ')
				dlb_addn(scalar, p, 1);
			break;
		}
		p++;
	}
}

static const struct {
	const char	*key;
	const char	*var;
} dlb_reply_vars[] = {
	{ "action", "DELIBERATE_ACTION" },
	{ "riskLevel", "DELIBERATE_RISK" },
	{ "patternId", "DELIBERATE_RULE" },
	{ "description", "DELIBERATE_DESC" },
	{ "alternative", "DELIBERATE_ALT" },
	{ "checkId", "DELIBERATE_CHECK_ID" },
	{ "id", "DELIBERATE_ENTRY_ID" },
	{ "promptTimeout", "DELIBERATE_TIMEOUT" },
	{ "mode", "DELIBERATE_MODE" },
	{ "moderateNote", "DELIBERATE_NOTE" },
	{ "error", "DELIBERATE_ERROR" },
	{ "ok", "DELIBERATE_OK" },
	{ NULL, NULL }
};

static void
dlb_set(const char *name, const char *value)
{
	bind_variable((char *)name, (char *)value, 0);
}

static void
dlb_reset_vars(const char *action)
{
	int	i;

	for (i = 0; dlb_reply_vars[i].key != NULL; i++)
		dlb_set(dlb_reply_vars[i].var, "");
	dlb_set("DELIBERATE_ACTION", action);
	dlb_set("DELIBERATE_TIMEOUT", "30");
}

/* Parse a flat reply object and set the shell variables.  0 or -1. */
static int
dlb_parse_reply(const char *p)
{
	struct dlb_buf	 key = { NULL, 0, 0, 0 }, val = { NULL, 0, 0, 0 };
	int		 i, r = -1;

	while (*p == ' ')
		p++;
	if (*p++ != '{')
		return -1;
	for (;;) {
		while (*p == ' ' || *p == ',')
			p++;
		if (*p == '}') {
			r = 0;
			break;
		}
		if (*p != '"')
			break;
		key.len = val.len = 0;
		dlb_addn(&key, "", 0);
		dlb_addn(&val, "", 0);
		if ((p = dlb_json_string(p + 1, &key)) == NULL)
			break;
		while (*p == ' ')
			p++;
		if (*p++ != ':')
			break;
		while (*p == ' ')
			p++;
		if (*p == '"')
			p = dlb_json_string(p + 1, &val);
		else
			p = dlb_json_skip(p, &val);
		if (p == NULL || key.oom || val.oom)
			break;
		for (i = 0; dlb_reply_vars[i].key != NULL; i++) {
			if (strcmp(key.p, dlb_reply_vars[i].key) == 0) {
				dlb_set(dlb_reply_vars[i].var, val.p);
				break;
			}
		}
	}
	free(key.p);
	free(val.p);
	return r;
}

/* The first word of line, into out; "" when it starts with an operator. */
static void
dlb_first_word(const char *line, char *out, size_t len)
{
	size_t	i = 0;

	while (*line == ' ' || *line == '\t')
		line++;
	while (*line != '\0' && strchr(" \t\n;&|<>()", *line) == NULL &&
	    i + 1 < len)
		out[i++] = *line++;
	out[i] = '\0';
}

/* What bash would run for the first word (cheap lookups, no fork). */
static const char *
dlb_cmd_type(const char *word)
{
	char	w[256];

	if (strlen(word) >= sizeof w || *word == '\0' || strchr(word, '=') ||
	    strpbrk(word, "\"'$`\\") != NULL)
		return NULL;
	strcpy(w, word);
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

/*
 * Whether line is an obviously read-only command that may be recorded
 * without waiting for a verdict: one of a few commands, only plain
 * word characters, no shell operators, no redirection, no expansion.
 */
static int
dlb_fast_path(const char *line)
{
	static const char *const safe[] = {
		"ls", "ll", "la", "pwd", "cd", "echo", "true", ":", "date",
		"whoami", "id", "clear", "jobs", "uptime", "cal",
		"hostname", "uname", "df", "free", "which", "tty", "dirs",
		"grep", "rg", "man", "type", NULL
	};
	/* Readers: a dot file (~/.ssh/id_rsa) gets a moderate note. */
	static const char *const readers[] = {
		"cat", "less", "more", "head", "tail", NULL
	};
	static const char *const git_safe[] = {
		"status", "log", "diff", "show", "branch", NULL
	};
	const char	*p, *v;
	char		 w[64], w2[64];
	int		 i;

	if ((v = dlb_var("DELIBERATE_FASTPATH")) != NULL && strcmp(v, "0") == 0)
		return 0;
	if (strlen(line) > 200)
		return 0;
	for (p = line; *p != '\0'; p++) {
		if (strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
		    "0123456789 _./:,@%+-", *p) == NULL)
			return 0;
	}
	dlb_first_word(line, w, sizeof w);
	for (i = 0; safe[i] != NULL; i++) {
		if (strcmp(w, safe[i]) == 0)
			return 1;
	}
	/* history -c, -d, -w are dangerous (hist:clear). */
	if (strcmp(w, "history") == 0)
		return strchr(line, '-') == NULL;
	for (i = 0; readers[i] != NULL; i++) {
		if (strcmp(w, readers[i]) == 0)
			return strstr(line, "/.") == NULL &&
			    strstr(line, " .") == NULL;
	}
	if (strcmp(w, "git") != 0)
		return 0;
	p = strstr(line, "git") + 3;
	dlb_first_word(p, w2, sizeof w2);
	/* "git branch" only lists; any option might delete or rename. */
	if (strcmp(w2, "branch") == 0 && strchr(p, '-') != NULL)
		return 0;
	for (i = 0; git_safe[i] != NULL; i++) {
		if (strcmp(w2, git_safe[i]) == 0 && strstr(p, "output") == NULL)
			return 1;
	}
	return 0;
}

/* The common command fields of an event or check request. */
static void
dlb_add_context(struct dlb_buf *b, const char *line)
{
	static char	 tty[256];
	static int	 tty_done;
	const char	*v, *ct;
	char		 w[256], cwd[4096];

	if (!tty_done) {
		if (ttyname_r(STDIN_FILENO, tty, sizeof tty) != 0)
			tty[0] = '\0';
		tty_done = 1;
	}
	dlb_addkv(b, "source", "hook");
	dlb_addkv(b, "line", line);
	v = dlb_var("PWD");
	if (v == NULL || *v != '/')
		v = getcwd(cwd, sizeof cwd) != NULL ? cwd : "/";
	dlb_addkv(b, "cwd", v);
	dlb_addnum(b, "pid", (long long)getpid());
	dlb_addnum(b, "ppid", (long long)getppid());
	dlb_addkv(b, "tty", tty);
	dlb_addkv(b, "shell", "bash");
	if ((v = dlb_var("TERM")) != NULL)
		dlb_addkv(b, "term", v);
	dlb_adds(b, interactive_shell ? ",\"interactive\":true" :
	    ",\"interactive\":false");
	dlb_adds(b, isatty(STDIN_FILENO) ? ",\"isTTY\":true" :
	    ",\"isTTY\":false");
	dlb_adds(b, getenv("SUDO_UID") != NULL ? ",\"sudo\":true" :
	    ",\"sudo\":false");
	if ((v = dlb_var("DELIBERATE_SESSION")) != NULL && *v != '\0')
		dlb_addkv(b, "session", v);
	dlb_first_word(line, w, sizeof w);
	if ((ct = dlb_cmd_type(w)) != NULL)
		dlb_addkv(b, "cmdType", ct);
	if ((v = dlb_var("PATH")) != NULL)
		dlb_addkv(b, "pathEnv", v);
	dlb_addnum(b, "ts", dlb_now_ms());
}

static int
dlb_budget(int opt_ms)
{
	const char	*v;
	int		 ms;

	if (opt_ms > 0)
		return opt_ms;
	if ((v = dlb_var("DELIBERATE_HOOK_TIMEOUT_MS")) != NULL &&
	    (ms = atoi(v)) > 0 && ms <= 60000)
		return ms;
	return DLB_BUDGET_MS;
}

/* -Wwrite-strings: bash wants writable strings. */
static char dlb_check_opts[] = "erft:";
static char dlb_decision_opts[] = "t:";

static int
dlb_check(WORD_LIST *list)
{
	struct dlb_buf	 msg = { NULL, 0, 0, 0 }, rep = { NULL, 0, 0, 0 };
	const char	*line;
	long long	 t0 = dlb_mono_ms();
	int		 opt, record = 0, fast = 0, ran = 0, ms = 0, r;

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
	line = list->word->word;
	if (strlen(line) > DLB_MAX_LINE) {
		dlb_reset_vars("allow");
		dlb_set("DELIBERATE_ERROR", "line too long to check");
		return EXECUTION_FAILURE;
	}
	if (ran || (fast && record && dlb_fast_path(line))) {
		dlb_adds(&msg, "{\"v\":1,\"type\":\"event\",\"ack\":false");
		dlb_add_context(&msg, line);
		dlb_adds(&msg, ",\"action\":\"execute\"}\n");
		r = msg.oom ? -1 : dlb_exchange(&msg, NULL,
		    t0 + dlb_budget(ms));
		free(msg.p);
		dlb_reset_vars(r == 0 ? "allow" : "down");
		if (r == 0) {
			dlb_set("DELIBERATE_RISK", "safe");
			dlb_set("DELIBERATE_OK", "fast");
		}
		return r == 0 ? EXECUTION_SUCCESS : 3;
	}
	dlb_adds(&msg, "{\"v\":1,\"type\":\"check\"");
	dlb_adds(&msg, record ? ",\"record\":true" : ",\"record\":false");
	dlb_add_context(&msg, line);
	dlb_adds(&msg, "}\n");
	r = msg.oom ? -1 : dlb_exchange(&msg, &rep, t0 + dlb_budget(ms));
	free(msg.p);
	if (r != 0) {
		free(rep.p);
		dlb_reset_vars("down");
		return 3;
	}
	dlb_reset_vars("");
	r = dlb_parse_reply(rep.p);
	free(rep.p);
	if (r != 0) {
		dlb_reset_vars("allow");
		dlb_set("DELIBERATE_ERROR", "unreadable reply");
		return EXECUTION_FAILURE;
	}
	if (strcmp(get_string_value("DELIBERATE_OK"), "true") != 0) {
		dlb_set("DELIBERATE_ACTION", "allow");
		return EXECUTION_FAILURE;
	}
	return EXECUTION_SUCCESS;
}

static int
dlb_decision(WORD_LIST *list)
{
	struct dlb_buf	 msg = { NULL, 0, 0, 0 }, rep = { NULL, 0, 0, 0 };
	const char	*id, *action, *ms, *mod = NULL, *p;
	long long	 t0 = dlb_mono_ms();
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
	dlb_adds(&msg, "{\"v\":1,\"type\":\"decision\"");
	dlb_addkv(&msg, "checkId", id);
	dlb_addkv(&msg, "action", action);
	dlb_adds(&msg, ",\"decisionTime\":");
	dlb_adds(&msg, ms);
	if (mod != NULL)
		dlb_addkv(&msg, "modifiedCommand", mod);
	dlb_adds(&msg, "}\n");
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
static int
dlb_annotate(WORD_LIST *list)
{
	struct dlb_buf	 msg = { NULL, 0, 0, 0 }, rep = { NULL, 0, 0, 0 };
	const char	*kind, *id, *a, *b = NULL, *v, *p;
	long long	 t0 = dlb_mono_ms();
	int		 r;

	if (list == NULL || list->next == NULL || list->next->next == NULL) {
		builtin_usage();
		return EX_USAGE;
	}
	kind = list->word->word;
	id = list->next->word->word;
	a = list->next->next->word->word;
	if (list->next->next->next != NULL)
		b = list->next->next->next->word->word;
	dlb_adds(&msg, "{\"v\":1,\"type\":\"annotate\"");
	dlb_addkv(&msg, "kind", kind);
	if (strcmp(id, "-") == 0) {
		dlb_adds(&msg, ",\"last\":true");
		if ((v = dlb_var("DELIBERATE_SESSION")) != NULL)
			dlb_addkv(&msg, "session", v);
	} else
		dlb_addkv(&msg, "entryId", id);
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
		dlb_adds(&msg, ",\"exitStatus\":");
		dlb_adds(&msg, a);
		dlb_adds(&msg, ",\"durationMs\":");
		dlb_adds(&msg, b);
	} else if (strcmp(kind, "correction") == 0)
		dlb_addkv(&msg, "correctClassification", a);
	else {
		builtin_usage();
		free(msg.p);
		return EX_USAGE;
	}
	dlb_adds(&msg, "}\n");
	r = msg.oom ? -1 : dlb_exchange(&msg, &rep, t0 + dlb_budget(0));
	free(msg.p);
	if (r != 0) {
		free(rep.p);
		return 3;
	}
	r = (rep.p != NULL && strstr(rep.p, "\"ok\":true") != NULL) ?
	    EXECUTION_SUCCESS : EXECUTION_FAILURE;
	free(rep.p);
	return r;
}

static int
dlb_total(void)
{
	return history_base + history_length;
}

static int
dlb_line(void)
{
	struct dlb_hist_entry	*h;

	if (dlb_marked >= 0 && dlb_total() > dlb_marked &&
	    (h = history_get(dlb_total() - 1)) != NULL && h->line != NULL) {
		dlb_set("DELIBERATE_LINE", h->line);
		return EXECUTION_SUCCESS;
	}
	/* Not in the history (ignorespace, ignoredups, set +o history). */
	dlb_set("DELIBERATE_LINE", rl_line_buffer != NULL ? rl_line_buffer :
	    "");
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
static char dlb_doc6[] = "line: set DELIBERATE_LINE to the line being run.";
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
	"deliberate_hook check|decision|annotate|mark|line [ARGS]",
	0
};
