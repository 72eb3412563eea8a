/*
 * A command seen by a client, as parsed from an "event" or "check"
 * request (docs/protocol.md).  All strings are owned by the event.
 */
#ifndef EVENT_H
#define EVENT_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct json_object;

struct event {
	char	*source;	/* hook, preload, strict, cli */
	char	*line;		/* the command line (built from argv if
				   the client sent argv) */
	char	*path;		/* resolved executable, if known */
	char	*cwd;
	char	*tty;		/* "/dev/pts/3" or "" */
	char	*shell;
	char	*term;
	char	*session;
	char	*parent;	/* parent process name */
	char	*cmd_type;	/* client's hint: builtin, alias, function */
	char	*path_env;	/* the client's PATH, used for type only */
	char	*alias_value;	/* "aliasValue": what the first word, an
				   alias, expands to; judged, never stored */
	char	*entry_id;	/* set by the daemon for spooled events, never
				   from the wire */
	char	*event_id;	/* "eventId": the client's UUID for the entry,
				   so that a copy sent twice (the socket,
				   then the spool) is recorded once */
	int	 resend;	/* "resend": a hook's copy of a line whose
				   check got no verdict in time */
	pid_t	 pid;
	pid_t	 ppid;
	uid_t	 uid;
	uid_t	 euid;
	int	 interactive;
	int	 is_tty;
	int	 sudo;
	int	 truncated;
	int	 exe_static;	/* the executable is statically linked */
	int64_t	 ts_ms;		/* when seen; 0 = now */
	double	 intercept_ms;	/* client-side capture time */
	/* The decision, for events that carry one. */
	char	*action;	/* execute, cancel, modify, timeout */
	char	*modified;
	double	 decision_ms;
	int	 prompted;
	/* Filled by the daemon, never from the wire (daemon/analyze.c). */
	struct json_object *ai;	/* the seed's AIAnalysisResult, or NULL */
	double	 ai_ms;		/* the aiAnalysis stage time */
};

/*
 * Fill ev from a request object.  Requires "line" or "argv"; checks every
 * field's type.  Returns 0, or -EINVAL with *cause (caller frees).
 */
int	event_parse(struct json_object *req, struct event *ev, char **cause);

/*
 * The fast path of the daemon: fill ev straight from the text of a
 * message, without json-c, when it is a flat "event" request whose values
 * are strings, numbers, booleans, null or arrays of strings.  Returns 0
 * only when proto_parse() and event_parse() would accept the message and
 * fill the same event; *ret_noack is then 1 when it carries "ack": false.
 * Returns -ENOTSUP for anything else, with ev released: the caller must
 * then take the json-c path, which has the last word.  Duplicate keys,
 * escaped or non-ASCII keys, nested values, \u0000, lone surrogates and
 * numbers json-c might read differently are all "anything else".
 */
int	event_scan(const char *msg, size_t len, struct event *ev,
	    int *ret_noack);

void	event_release(struct event *ev);

/* Join argv into a shell-quoted line. */
char	*event_join_argv(const char *const *argv, size_t argc);

#endif
