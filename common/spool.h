/*
 * The spool: events that a client (the CLI, and the hooks through it)
 * could not deliver because the daemon was down.  Each event is sealed
 * with crypto_box_seal to the spool key pair in DELIBERATE_HOME, so the
 * spool directory never holds a command in the clear; the daemon opens and
 * ingests the spool when it starts, and every few seconds after.
 *
 * Files are DELIBERATE_HOME/spool/<ms>-<uuid>.sealed, mode 0600, written
 * to a temp name and renamed, so a reader never sees half a file.  The
 * uuid becomes the entry's id, which lets the daemon skip an event it
 * already recorded before a crash.
 */
#ifndef SPOOL_H
#define SPOOL_H

#include <stddef.h>

#define SPOOL_PK_LEN	32
#define SPOOL_SK_LEN	32

/*
 * Load the spool key pair from home (spool.pub, spool.key), creating it
 * when missing.  ret_sk may be NULL when only the public key is needed.
 * Returns 0 or -errno with *cause.
 */
int	spool_keys(const char *home, unsigned char ret_pk[SPOOL_PK_LEN],
	    unsigned char *ret_sk, char **cause);

/*
 * Seal msg and store it in dir under a new id (written to ret_id, 37
 * bytes).  Returns 0 or -errno with *cause.
 */
int	spool_put(const char *dir, const unsigned char pk[SPOOL_PK_LEN],
	    const char *msg, size_t len, char ret_id[37], char **cause);

/*
 * Open every spooled event of dir in order and pass it to fn (id, the
 * plain message, its length).  A file is removed once fn returns 0; a file
 * that cannot be opened is renamed to .bad.  Returns the number of events
 * handed to fn successfully.
 */
int	spool_drain(const char *dir, const unsigned char pk[SPOOL_PK_LEN],
	    const unsigned char sk[SPOOL_SK_LEN],
	    int (*fn)(void *, const char *, const char *, size_t), void *arg);

#endif
