/*
 * What the bash builtin and the zsh module share: which lines may be
 * recorded without waiting for a verdict (the fast path), the message
 * buffer and its JSON, and the parsing of the daemon's replies.
 */
#ifndef HOOKCORE_H
#define HOOKCORE_H

#include <stddef.h>
#include <sys/types.h>

/*
 * Whether word, the first word of a line, runs what it says: 0 for an
 * alias or a function (they can be anything) or a word the shell does not
 * know.  The shell supplies it.
 */
typedef int	(*hook_cmd_fn)(const char *word);
/* Called for each field of a reply, with its value as text. */
typedef void	(*hook_reply_fn)(const char *key, const char *val);
/* A shell variable's value, or NULL or "" when it is unset. */
typedef const char *(*hook_var_fn)(const char *name);

/* A growing message; oom is sticky. */
struct hook_buf {
	char	*p;
	size_t	 len;
	size_t	 cap;
	int	 oom;
};

void		hook_addn(struct hook_buf *, const char *, size_t);
void		hook_adds(struct hook_buf *, const char *);
void		hook_addjson(struct hook_buf *, const char *);
void		hook_addkv(struct hook_buf *, const char *, const char *);
void		hook_addnum(struct hook_buf *, const char *, long long);
int		hook_has_seq(const char *, unsigned long);
int		hook_parse_reply(const char *, hook_reply_fn);
int		hook_socket_path(char *, size_t, hook_var_fn);
int		hook_idle_ok(int);
int		hook_read_reply(int, unsigned long, long long,
		    struct hook_buf *, size_t);

/*
 * The quiet connection (docs/protocol.md, "quiet"): fire-and-forget
 * messages written there wake nobody; the daemon reads them before it
 * handles anything else, and at least once a second.
 */
struct hook_quiet {
	int	 fd;		/* -1: none */
	pid_t	 pid;		/* the process that opened it */
	dev_t	 dev;		/* what it is, to notice a descriptor */
	ino_t	 ino;		/* the user replaced (exec 100>file) */
	char	 path[108];
};
#define HOOK_QUIET_INIT	{ -1, 0, 0, 0, "" }
/* Where the hooks put the descriptors they keep: above the shells' own. */
#define HOOK_FD_MIN	100

int		hook_connect_high(const char *, dev_t *, ino_t *);
int		hook_socket_path_cached(char *, size_t, hook_var_fn);
int		hook_quiet_send(struct hook_quiet *, const char *, const char *,
		    size_t);
void		hook_quiet_close(struct hook_quiet *);

/* The shell variables the fields of a check reply set; NULL-terminated. */
struct hook_reply_var {
	const char	*key;
	const char	*var;
};
extern const struct hook_reply_var hook_reply_vars[];
int		hook_reply_index(const char *);

long long	hook_mono_ms(void);
long long	hook_now_ms(void);
void		hook_first_word(const char *, char *, size_t);
int		hook_plain(const char *);
int		hook_trig_load(const char *);
int		hook_trigger_free(const char *, hook_cmd_fn);
int		hook_fast_path(const char *, hook_cmd_fn);
void		hook_seen_safe(const char *, hook_cmd_fn);
int		hook_seen(const char *, hook_cmd_fn);

#endif
