/*
 * What the bash builtin and the zsh module share (see hookcore.h): the
 * fast path, message buffers and JSON, reply parsing.  Only the C
 * library; no output.
 */
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>

#include <errno.h>
#include <fcntl.h>
#include <linux/sockios.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "hookcore.h"
#include "hookfast.h"

long long
hook_now_ms(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

long long
hook_mono_ms(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* The first word of line, into out; "" when it starts with an operator. */
void
hook_first_word(const char *line, char *out, size_t len)
{
	size_t	i = 0;

	while (*line == ' ' || *line == '\t')
		line++;
	while (*line != '\0' && strchr(" \t\n;&|<>()", *line) == NULL &&
	    i + 1 < len)
		out[i++] = *line++;
	out[i] = '\0';
}

/*
 * Whether line holds only plain word characters: no quoting, expansion,
 * assignment, redirection or operator.
 */
int
hook_plain(const char *line)
{
	return line[strspn(line, HOOK_PLAIN_CHARS)] == '\0';
}

/*
 * The trigger words: the daemon writes, next to its socket, every word
 * that can make a line anything but safe (the commands of its risk rules,
 * wrappers, interpreters, learned overrides; risk-rules/README.md).  A
 * line of plain word characters that holds none of them cannot be judged
 * dangerous or moderate, so it is recorded without waiting.  The file is
 * read again when it changes; without it only the built-in list below is
 * fast.
 */
#define TRIG_MAX	(256 * 1024)

static char		*trig_text;		/* the file, words split */
static const char	**trig_words;		/* sorted words */
static size_t		 trig_n;
static const char	**trig_pre;		/* prefixes ("mkfs" of mkfs*) */
static size_t		 trig_npre;
static struct timespec	 trig_mtime;
static ino_t		 trig_ino;
static long long	 trig_checked = -1;

static int
trig_strcmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static void
trig_clear(void)
{
	free(trig_text);
	free(trig_words);
	free(trig_pre);
	trig_text = NULL;
	trig_words = trig_pre = NULL;
	trig_n = trig_npre = 0;
}

/* Parse "deliberate-triggers-v1 w1 w2 pre* ...".  0 or -1. */
static int
trig_parse(char *text)
{
	size_t	 n = 0, i;
	char	*p, *w, *save = NULL;

	for (p = text; *p != '\0'; p++) {
		if (*p == ' ' || *p == '\n')
			n++;
	}
	trig_words = calloc(n + 1, sizeof *trig_words);
	trig_pre = calloc(n + 1, sizeof *trig_pre);
	if (trig_words == NULL || trig_pre == NULL)
		return -1;
	w = strtok_r(text, " \n", &save);
	if (w == NULL || strcmp(w, "deliberate-triggers-v1") != 0)
		return -1;
	while ((w = strtok_r(NULL, " \n", &save)) != NULL) {
		i = strlen(w);
		if (i > 1 && w[i - 1] == '*') {
			w[i - 1] = '\0';
			trig_pre[trig_npre++] = w;
		} else
			trig_words[trig_n++] = w;
	}
	qsort(trig_words, trig_n, sizeof *trig_words, trig_strcmp);
	return 0;
}

/*
 * The trigger file next to sockpath, read again if it changed (at most one
 * stat a second); 1 if the words are known.
 */
int
hook_trig_load(const char *sockpath)
{
	struct stat	 st;
	char		 path[4096];
	char		*slash, *text;
	ssize_t		 n;
	long long	 now = hook_mono_ms();
	int		 fd;

	/* At most one stat a second. */
	if (trig_checked >= 0 && now - trig_checked < 1000)
		return trig_text != NULL;
	trig_checked = now;
	if (sockpath == NULL || strlen(sockpath) >= sizeof path - 16)
		goto gone;
	strcpy(path, sockpath);
	if ((slash = strrchr(path, '/')) == NULL)
		goto gone;
	strcpy(slash + 1, "triggers");
	if (stat(path, &st) != 0 || !S_ISREG(st.st_mode) ||
	    st.st_uid != geteuid() || st.st_size <= 0 ||
	    st.st_size > TRIG_MAX)
		goto gone;
	if (trig_text != NULL && st.st_ino == trig_ino &&
	    st.st_mtim.tv_sec == trig_mtime.tv_sec &&
	    st.st_mtim.tv_nsec == trig_mtime.tv_nsec)
		return 1;
	trig_clear();
	if ((fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)) < 0)
		goto gone;
	if ((text = malloc((size_t)st.st_size + 1)) == NULL) {
		close(fd);
		goto gone;
	}
	n = read(fd, text, (size_t)st.st_size);
	close(fd);
	if (n != st.st_size) {
		free(text);
		goto gone;
	}
	text[n] = '\0';
	trig_text = text;
	if (trig_parse(text) != 0)
		goto gone;
	trig_mtime = st.st_mtim;
	trig_ino = st.st_ino;
	return 1;
gone:
	trig_clear();
	return 0;
}

/* Whether word is a trigger word or starts with a trigger prefix. */
static int
trig_hit(const char *word)
{
	const char	*key = word;
	size_t		 i;

	if (bsearch(&key, trig_words, trig_n, sizeof *trig_words,
	    trig_strcmp) != NULL)
		return 1;
	for (i = 0; i < trig_npre; i++) {
		if (strncmp(word, trig_pre[i], strlen(trig_pre[i])) == 0)
			return 1;
	}
	return 0;
}

/*
 * Whether line holds only plain word characters (no quoting, expansion,
 * assignment, redirection or operator) and none of the trigger words
 * (each word's basename; prefixes), and its first word is not an alias
 * or a function.  The same test as classify_trigger_free() in
 * common/classify.c and the zsh script's.  hook_trig_load() first.
 */
int
hook_trigger_free(const char *line, hook_cmd_fn plain_cmd)
{
	const char	*p, *q, *base;
	char		 w[256];
	size_t		 len;
	int		 first = 1;

	if (trig_text == NULL || !hook_plain(line))
		return 0;
	for (p = line; *p != '\0'; p = q) {
		while (*p == ' ')
			p++;
		if (*p == '\0')
			break;
		for (q = p; *q != '\0' && *q != ' '; q++)
			;
		if ((len = (size_t)(q - p)) >= sizeof w)
			return 0;
		memcpy(w, p, len);
		w[len] = '\0';
		if (first) {
			first = 0;
			if (!plain_cmd(w))
				return 0;
		}
		base = (base = strrchr(w, '/')) != NULL ? base + 1 : w;
		if (trig_hit(base))
			return 0;
		/* Each part between . : - _ too (not of an option). */
		if (*base != '-' && strpbrk(base, ".:-_") != NULL) {
			char	part[256], *s, *save = NULL;

			snprintf(part, sizeof part, "%s", base);
			for (s = strtok_r(part, ".:-_", &save); s != NULL;
			    s = strtok_r(NULL, ".:-_", &save)) {
				if (trig_hit(s))
					return 0;
			}
		}
	}
	return !first;
}

/*
 * Whether line is an obviously read-only command that may be recorded
 * without waiting for a verdict: one of a few commands, only plain
 * word characters, no shell operators, no redirection, no expansion; or
 * a line free of trigger words (above).
 */
int
hook_fast_path(const char *line, hook_cmd_fn plain_cmd)
{
	static const char *const safe[] = { HOOK_FAST_SAFE, NULL };
	/*
	 * Readers: a dot file (~/.ssh/id_rsa, .env) gets a moderate note,
	 * and so does a search for a secret's name (grep DB_PASSWORD
	 * wp-config.php: cred:grep-secret-values).
	 */
	static const char *const readers[] = { HOOK_FAST_READERS, NULL };
	static const char *const secret_words[] = {
		"pass", "secret", "token", "key", "cred", NULL
	};
	static const char *const git_safe[] = {
		"status", "log", "diff", "show", "branch", NULL
	};
	const char	*p;
	char		 w[64], w2[64];
	int		 i, k;

	if (strlen(line) > 200 || !hook_plain(line))
		return 0;
	hook_first_word(line, w, sizeof w);
	/* An alias or a function can be anything. */
	if (!plain_cmd(w))
		return 0;
	for (i = 0; safe[i] != NULL; i++) {
		if (strcmp(w, safe[i]) == 0)
			return 1;
	}
	/* history -c, -d, -w are dangerous (hist:clear). */
	if (strcmp(w, "history") == 0)
		return strchr(line, '-') == NULL;
	for (i = 0; readers[i] != NULL; i++) {
		if (strcmp(w, readers[i]) != 0)
			continue;
		if (strstr(line, "/.") != NULL || strstr(line, " .") != NULL)
			return 0;
		for (k = 0; secret_words[k] != NULL; k++) {
			if (strcasestr(line, secret_words[k]) != NULL)
				return 0;
		}
		return 1;
	}
	if (strcmp(w, "git") != 0)
		return hook_trigger_free(line, plain_cmd);
	p = strstr(line, "git") + 3;
	hook_first_word(p, w2, sizeof w2);
	/* "git branch" only lists; any option might delete or rename. */
	if (strcmp(w2, "branch") == 0 && strchr(p, '-') != NULL)
		return 0;
	for (i = 0; git_safe[i] != NULL; i++) {
		if (strcmp(w2, git_safe[i]) == 0 && strstr(p, "output") == NULL)
			return 1;
	}
	return hook_trigger_free(line, plain_cmd);
}

/*
 * Lines the daemon judged safe, remembered by the shell: the same line
 * again is recorded fire-and-forget, as a fast-path line is, without
 * waiting for the verdict.  The daemon's verdict on a line depends only on
 * the line, on what the hook tells it of the first word (an alias's
 * value), on the shell's own context (its name, tty, parent: the same for
 * the life of the shell), and on its rules, config and learned overrides;
 * the daemon rewrites the trigger file (a new inode) whenever one of
 * those changes, and withdraws it when every line must be judged (an
 * analyzer).  So a remembered verdict holds only while the trigger file
 * is the one it was given under (hook_trig_load() looks at most once a
 * second, as for the fast path), and only for a line whose first word is
 * neither an alias nor a function.  Direct-mapped slots by hash; the
 * whole line is compared.
 */
#define SEEN_SLOTS	64
#define SEEN_MAXLEN	512

static char		*seen_line[SEEN_SLOTS];
static ino_t		 seen_ino;		/* of the trigger file */
static struct timespec	 seen_mtime;

static size_t
seen_slot(const char *line)
{
	unsigned long long	h = 14695981039346656037ULL;	/* FNV-1a */

	for (; *line != '\0'; line++)
		h = (h ^ (unsigned char)*line) * 1099511628211ULL;
	return (size_t)(h % SEEN_SLOTS);
}

/* Forget every line if the trigger file is not the one they were under. */
static int
seen_current(void)
{
	size_t	i;

	if (trig_text != NULL && seen_ino == trig_ino &&
	    seen_mtime.tv_sec == trig_mtime.tv_sec &&
	    seen_mtime.tv_nsec == trig_mtime.tv_nsec)
		return 1;
	for (i = 0; i < SEEN_SLOTS; i++) {
		free(seen_line[i]);
		seen_line[i] = NULL;
	}
	seen_ino = trig_ino;
	seen_mtime = trig_mtime;
	return trig_text != NULL;
}

/*
 * Remember that the daemon judged line safe (and let it run).
 * hook_trig_load() first.
 */
void
hook_seen_safe(const char *line, hook_cmd_fn plain_cmd)
{
	char	 w[256];
	size_t	 k;

	if (!seen_current() || strlen(line) > SEEN_MAXLEN)
		return;
	hook_first_word(line, w, sizeof w);
	if (*w == '\0' || !plain_cmd(w))
		return;
	k = seen_slot(line);
	free(seen_line[k]);
	seen_line[k] = strdup(line);	/* NULL: not remembered */
}

/* Whether line was judged safe under this trigger file.  hook_trig_load(). */
int
hook_seen(const char *line, hook_cmd_fn plain_cmd)
{
	char	 w[256];
	size_t	 k;

	if (!seen_current() || strlen(line) > SEEN_MAXLEN)
		return 0;
	k = seen_slot(line);
	if (seen_line[k] == NULL || strcmp(seen_line[k], line) != 0)
		return 0;
	hook_first_word(line, w, sizeof w);
	return *w != '\0' && plain_cmd(w);
}

static void
hook_grow(struct hook_buf *b, size_t n)
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

void
hook_addn(struct hook_buf *b, const char *s, size_t n)
{
	hook_grow(b, n);
	if (b->oom)
		return;
	memcpy(b->p + b->len, s, n);
	b->len += n;
	b->p[b->len] = '\0';
}

void
hook_adds(struct hook_buf *b, const char *s)
{
	hook_addn(b, s, strlen(s));
}

/* Length of a valid UTF-8 sequence at s (at most n bytes), or 0. */
static size_t
hook_utf8_len(const unsigned char *s, size_t n)
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
void
hook_addjson(struct hook_buf *b, const char *s)
{
	const unsigned char	*p = (const unsigned char *)s;
	size_t			 n = strlen(s), k;
	char			 esc[8];

	hook_addn(b, "\"", 1);
	while (n > 0) {
		/* A run of printable ASCII goes in one copy. */
		for (k = 0; k < n && p[k] >= 0x20 && p[k] < 0x7f &&
		    p[k] != '"' && p[k] != '\\'; k++)
			;
		if (k > 0) {
			hook_addn(b, (const char *)p, k);
			p += k;
			n -= k;
			continue;
		}
		if (*p == '"' || *p == '\\') {
			hook_addn(b, "\\", 1);
			hook_addn(b, (const char *)p, 1);
			k = 1;
		} else if (*p == '\n') {
			hook_addn(b, "\\n", 2);
			k = 1;
		} else if (*p == '\t') {
			hook_addn(b, "\\t", 2);
			k = 1;
		} else if (*p < 0x20 || *p == 0x7f) {
			snprintf(esc, sizeof esc, "\\u%04x", *p);
			hook_adds(b, esc);
			k = 1;
		} else if ((k = hook_utf8_len(p, n)) != 0)
			hook_addn(b, (const char *)p, k);
		else {
			hook_adds(b, "\\ufffd");
			k = 1;
		}
		p += k;
		n -= k;
	}
	hook_addn(b, "\"", 1);
}

void
hook_addkv(struct hook_buf *b, const char *key, const char *val)
{
	hook_adds(b, ",\"");
	hook_adds(b, key);
	hook_adds(b, "\":");
	hook_addjson(b, val != NULL ? val : "");
}

void
hook_addnum(struct hook_buf *b, const char *key, long long v)
{
	char	tmp[64];

	snprintf(tmp, sizeof tmp, ",\"%s\":%lld", key, v);
	hook_adds(b, tmp);
}

/* Whether reply line p is the answer to request seq. */
int
hook_has_seq(const char *p, unsigned long seq)
{
	char	key[32];
	size_t	len;

	len = (size_t)snprintf(key, sizeof key, "\"seq\":%lu", seq);
	while ((p = strstr(p, key)) != NULL) {
		p += len;
		if (*p == ',' || *p == '}')
			return 1;
	}
	return 0;
}

/*
 * Decode one JSON string starting after its opening quote into out.
 * Returns a pointer past the closing quote, or NULL.
 */
static const char *
hook_json_string(const char *p, struct hook_buf *out)
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
			hook_addn(out, p++, 1);
			continue;
		}
		p++;
		switch (*p) {
		case 'n':	hook_addn(out, "\n", 1); break;
		case 't':	hook_addn(out, "\t", 1); break;
		case 'r':	hook_addn(out, "\r", 1); break;
		case 'b':	hook_addn(out, "\b", 1); break;
		case 'f':	hook_addn(out, "\f", 1); break;
		case '"': case '\\': case '/':
			hook_addn(out, p, 1);
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
			hook_addn(out, u, (size_t)i);
			break;
		default:
			return NULL;
		}
		p++;
	}
}

/* Skip one JSON value that is not a string (nested values included). */
static const char *
hook_json_skip(const char *p, struct hook_buf *scalar)
{
	struct hook_buf	 junk = { NULL, 0, 0, 0 };
	int		 depth = 0;

	for (;;) {
		switch (*p) {
		case '\0':
			free(junk.p);
			return NULL;
		case '"':
			p = hook_json_string(p + 1, &junk);
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
				hook_addn(scalar, p, 1);
			break;
		}
		p++;
	}
}

/* Parse a flat reply object, calling set for each field.  0 or -1. */
int
hook_parse_reply(const char *p, hook_reply_fn set)
{
	struct hook_buf	 key = { NULL, 0, 0, 0 }, val = { NULL, 0, 0, 0 };
	int		 r = -1;

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
		hook_addn(&key, "", 0);
		hook_addn(&val, "", 0);
		if ((p = hook_json_string(p + 1, &key)) == NULL)
			break;
		while (*p == ' ')
			p++;
		if (*p++ != ':')
			break;
		while (*p == ' ')
			p++;
		if (*p == '"')
			p = hook_json_string(p + 1, &val);
		else
			p = hook_json_skip(p, &val);
		if (p == NULL || key.oom || val.oom)
			break;
		set(key.p, val.p);
	}
	free(key.p);
	free(val.p);
	return r;
}

/* The shell variables that the fields of a check reply set. */
const struct hook_reply_var hook_reply_vars[] = {
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

/* The index in hook_reply_vars of reply field key, or -1. */
int
hook_reply_index(const char *key)
{
	int	i;

	for (i = 0; hook_reply_vars[i].key != NULL; i++) {
		if (strcmp(key, hook_reply_vars[i].key) == 0)
			return i;
	}
	return -1;
}

/*
 * Read from fd, by deadline (monotonic ms), the reply line that carries
 * seq into r (without its newline); lines without it are late replies to
 * earlier requests, skipped.  0, or -1 on EOF, error, timeout or a reply
 * longer than max.
 */
int
hook_read_reply(int fd, unsigned long seq, long long deadline,
    struct hook_buf *r, size_t max)
{
	struct pollfd	 pfd;
	long long	 left;
	ssize_t		 n;
	char		 tmp[4096], *nl;

	pfd.fd = fd;
	pfd.events = POLLIN;
	for (;;) {
		n = recv(fd, tmp, sizeof tmp, MSG_DONTWAIT);
		if (n > 0) {
			hook_addn(r, tmp, (size_t)n);
			if (r->oom || r->len > max)
				return -1;
			while ((nl = memchr(r->p, '\n', r->len)) != NULL) {
				*nl = '\0';
				if (hook_has_seq(r->p, seq)) {
					r->len = (size_t)(nl - r->p);
					return 0;
				}
				r->len -= (size_t)(nl + 1 - r->p);
				memmove(r->p, nl + 1, r->len);
			}
			continue;
		}
		if (n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK &&
		    errno != EINTR))
			return -1;
		if ((left = deadline - hook_mono_ms()) <= 0)
			return -1;
		if (poll(&pfd, 1, (int)left) < 0 && errno != EINTR)
			return -1;
	}
}

/*
 * Whether a kept connection is still good before a request that wants a
 * reply: nothing unread on it (a reply nobody waited for, now read and
 * dropped) and no EOF.
 */
int
hook_idle_ok(int fd)
{
	char	tmp[512];
	ssize_t	n;

	for (;;) {
		n = recv(fd, tmp, sizeof tmp, MSG_DONTWAIT);
		if (n > 0)
			continue;
		if (n < 0 && errno == EINTR)
			continue;
		return n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK);
	}
}

/*
 * The daemon's socket path from the shell's variables, by the rules of
 * docs/protocol.md: DELIBERATE_SOCKET, else XDG_RUNTIME_DIR/deliberate/sock,
 * DELIBERATE_HOME/run/sock, HOME/.deliberate/run/sock.  0, or -1.
 */
int
hook_socket_path(char *out, size_t len, hook_var_fn get)
{
	const char	*v;
	int		 n;

	if ((v = get("DELIBERATE_SOCKET")) != NULL && *v != '\0')
		n = snprintf(out, len, "%s", v);
	else if ((v = get("XDG_RUNTIME_DIR")) != NULL && *v != '\0')
		n = snprintf(out, len, "%s/deliberate/sock", v);
	else if ((v = get("DELIBERATE_HOME")) != NULL && *v != '\0')
		n = snprintf(out, len, "%s/run/sock", v);
	else if ((v = get("HOME")) != NULL && *v != '\0')
		n = snprintf(out, len, "%s/.deliberate/run/sock", v);
	else
		return -1;
	return (n < 0 || (size_t)n >= len) ? -1 : 0;
}

/*
 * Most bytes left unread on the quiet connection before a message goes
 * the other way (and wakes the daemon, which reads this one first).  The
 * socket buffer is larger, so a send that passes this check is whole.
 */
#define QUIET_MAX	(64 * 1024)

void
hook_quiet_close(struct hook_quiet *q)
{
	if (q->fd >= 0 && q->pid == getpid())
		close(q->fd);
	q->fd = -1;
}

/*
 * A non-blocking, close-on-exec connection to the daemon's socket at
 * path, at descriptor HOOK_FD_MIN or above (away from the ones scripts
 * name: exec 3>log), and what it is (*dev, *ino), so that a descriptor a
 * script took over later is noticed.  The descriptor, or -1 (EAGAIN: the
 * backlog is full, the daemon is stuck; the caller fails open).
 */
int
hook_connect_high(const char *path, dev_t *dev, ino_t *ino)
{
	struct sockaddr_un	 sun;
	struct stat		 st;
	int			 fd, hfd;

	if (strlen(path) >= sizeof sun.sun_path)
		return -1;
	memset(&sun, 0, sizeof sun);
	sun.sun_family = AF_UNIX;
	memcpy(sun.sun_path, path, strlen(path) + 1);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		return -1;
	if (connect(fd, (struct sockaddr *)&sun, sizeof sun) != 0 ||
	    (hfd = fcntl(fd, F_DUPFD_CLOEXEC, HOOK_FD_MIN)) < 0) {
		close(fd);
		return -1;
	}
	close(fd);
	if (fstat(hfd, &st) != 0) {
		close(hfd);
		return -1;
	}
	*dev = st.st_dev;
	*ino = st.st_ino;
	return hfd;
}

/*
 * hook_socket_path(), worked out again at most once a second: the
 * variables rarely change, and the work (variable lookups, snprintf deep
 * in the stack) writes pages the last fork made copy-on-write.
 */
int
hook_socket_path_cached(char *out, size_t len, hook_var_fn get)
{
	static char		 path[sizeof ((struct sockaddr_un *)0)->sun_path];
	static long long	 when = -1;
	static int		 r = -1;
	long long		 now = hook_mono_ms();

	if (when < 0 || now - when >= 1000) {
		r = hook_socket_path(path, sizeof path, get);
		when = now;
	}
	if (r != 0 || strlen(path) >= len)
		return -1;
	memcpy(out, path, strlen(path) + 1);
	return 0;
}

/* Open q to path and say "quiet".  0 or -1. */
static int
quiet_open(struct hook_quiet *q, const char *path)
{
	static const char	 hello[] = "{\"v\":1,\"type\":\"quiet\"}\n";
	int			 fd;

	if ((fd = hook_connect_high(path, &q->dev, &q->ino)) < 0)
		return -1;
	if (send(fd, hello, sizeof hello - 1, MSG_NOSIGNAL | MSG_DONTWAIT) !=
	    (ssize_t)sizeof hello - 1) {
		close(fd);
		return -1;
	}
	q->fd = fd;
	q->pid = getpid();
	snprintf(q->path, sizeof q->path, "%s", path);
	return 0;
}

/*
 * Send msg[0..len) on the quiet connection to path, opened (again) when
 * needed: for another path, in a forked child, after the daemon went
 * away, or when the descriptor is no longer ours.  0 when all of it went;
 * -1 when none of it did (the caller sends it the usual way).
 */
int
hook_quiet_send(struct hook_quiet *q, const char *path, const char *msg,
    size_t len)
{
	struct stat	st;
	ssize_t		n;
	int		queued, tries;

	if (q->fd >= 0 && (q->pid != getpid() || strcmp(q->path, path) != 0 ||
	    fstat(q->fd, &st) != 0 || st.st_dev != q->dev ||
	    st.st_ino != q->ino)) {
		if (q->pid == getpid() && strcmp(q->path, path) != 0)
			close(q->fd);
		q->fd = -1;
	}
	for (tries = 0; tries < 2; tries++) {
		if (q->fd < 0 && quiet_open(q, path) != 0)
			return -1;
		if (ioctl(q->fd, SIOCOUTQ, &queued) != 0 ||
		    (size_t)queued + len > QUIET_MAX)
			return -1;
		n = send(q->fd, msg, len, MSG_NOSIGNAL | MSG_DONTWAIT);
		if (n == (ssize_t)len)
			return 0;
		if (n > 0) {
			/* Cannot be, by QUIET_MAX; the daemon sees a cut
			 * message and drops it, the caller sends it whole. */
			hook_quiet_close(q);
			return -1;
		}
		/* A restarted daemon: one more try on a new connection. */
		hook_quiet_close(q);
		if (errno != EPIPE && errno != ECONNRESET && errno != ENOTCONN)
			return -1;
	}
	return -1;
}
