/*
 * The daemon's state, shared by its modules: main.c (start-up, signals,
 * readiness), server.c (the epoll loop, clients, requests).
 */
#ifndef DAEMON_H
#define DAEMON_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "config.h"
#include "entry.h"
#include "paths.h"
#include "store.h"
#include "userkey.h"

struct classifier;
struct json_object;
struct redactor;
struct pending;

struct daemon {
	struct paths		 paths;
	struct config		 cfg;
	struct store		 store;
	struct redactor		*red;
	struct classifier	*cls;
	unsigned char		 key[USERKEY_LEN];
	char			*home;		/* the user's home */
	uid_t			 uid;
	int			 listen_fd;
	int			 dgram_fd;	/* events as datagrams, or -1 */
	char			*dgram_path;
	int			 epoll_fd;
	int			 signal_fd;
	int			 timer_fd;
	int			 quit;
	int64_t			 started_ms;
	/* Counters for status. */
	int64_t			 received;	/* requests */
	int64_t			 written;	/* entries */
	int64_t			 write_errors;	/* entries not written */
	int64_t			 bad_requests;
	int64_t			 refused;	/* wrong-uid peers */
	int64_t			 clients;
	int64_t			 dgram_received;	/* datagrams read */
	int64_t			 dgram_batches;	/* recvmmsg calls that read */
	int64_t			 dgram_refused;	/* other uid, no credentials */
	int64_t			 stream_events;	/* events over the stream */
	int64_t			 checks;	/* check requests answered */
	char			 last_error[256];
	int			 disk_full;
	struct sysstate		 sys;
	double			 cpu_percent;
	double			 rss_mb;
	double			 sys_at;	/* when sys was sampled */
	struct pending		*pending;	/* checks awaiting a decision */
	size_t			 npending;
	char			*rules_stamp;	/* rule files' mtimes */
	char			*learned_stamp;	/* learned.json's */
	int64_t			 learned_gen;	/* bumped to reread it */
	unsigned char		 spool_pk[32];	/* the spool key pair */
	unsigned char		 spool_sk[32];
	int			 spool_ready;
	int64_t			 spooled;	/* spooled events ingested */
	int64_t			 reloads;
};

/* main.c */
void	daemon_reload(struct daemon *, const char *why);
char	*daemon_rules_stamp(const struct daemon *);
char	*daemon_learned_stamp(const struct daemon *);

/* server.c */
int	server_listen(struct daemon *, char **cause);
void	server_loop(struct daemon *);
void	server_shutdown(struct daemon *);
void	server_tick(struct daemon *);
void	server_drain_spool(struct daemon *);
void	server_set_error(struct daemon *, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));
/*
 * Handle one datagram msg[len] whose sender the kernel says is uid, pid
 * (already checked to be ours): an "event" with no reply.
 */
void	server_datagram(struct daemon *, uid_t uid, pid_t pid,
	    const char *msg, size_t len);

/*
 * dgram.c: the datagram socket of fire-and-forget events.  dgram_listen
 * binds PATH.dgram next to the stream socket (call it once that one is
 * known to be ours) and sets d->dgram_fd, or returns -errno with *cause.
 * dgram_read reads what is queued, in batches, hands every datagram of
 * our uid to server_datagram and returns how many it read.  dgram_close
 * closes and unlinks it.
 */
int	dgram_listen(struct daemon *, char **cause);
int	dgram_read(struct daemon *);
void	dgram_close(struct daemon *);

/* fastpath.c: the hooks' trigger file next to the socket. */
void	fastpath_publish(struct daemon *);
void	fastpath_withdraw(struct daemon *);

/* annotate.c */
struct event;
struct verdict;
struct json_object *annotate_request(struct daemon *, struct json_object *);
void	annotate_note_entry(struct daemon *, const struct event *,
	    const struct verdict *, const char *id);
struct learned *annotate_learned(struct daemon *);

/* lifecycle.c */
void	lifecycle_start(struct daemon *);
void	lifecycle_tick(struct daemon *);
struct json_object *lifecycle_control(struct daemon *, struct json_object *);

/* analyze.c: AI analysis through the broker (docs/analyzers.md). */
struct event;
struct verdict;
int	analyze_start(struct daemon *, char **cause);
void	analyze_stop(void);
struct json_object *analyze_command(struct daemon *, const struct event *,
	    const struct verdict *, double *ret_ms);
struct json_object *analyze_reply(struct json_object *ai);

#endif
