/*
 * The per-install secret key behind context.user.id: 32 random bytes in a
 * 0600 file.  User ids are crypto_generichash(uid, key), so they cannot be
 * linked across installs, or across a key rotation (purge --all).
 */
#ifndef USERKEY_H
#define USERKEY_H

#include <stddef.h>
#include <sys/types.h>

#define USERKEY_LEN	32
#define USER_ID_HEXLEN	64

/*
 * Load the key at path, creating it (mode 0600) when missing.  Returns 0
 * or a negative errno with *cause.
 */
int	userkey_load(const char *path, unsigned char key[USERKEY_LEN],
	    char **cause);

/* Replace the key with a new random one (atomically). */
int	userkey_rotate(const char *path, unsigned char key[USERKEY_LEN],
	    char **cause);

/* The keyed hash of a uid, as 64 hex digits. */
void	userkey_hash(const unsigned char key[USERKEY_LEN], uid_t uid,
	    char out[USER_ID_HEXLEN + 1]);

/* A random UUID v4, lower-case. */
void	uuid_v4(char out[37]);
/*
 * Whether s is an 8-4-4-4-12 hex UUID: lower-case, as uuid_v4() writes it
 * (uuid_valid), or of either case (uuid_valid_anycase).
 */
int	uuid_valid(const char *s);
int	uuid_valid_anycase(const char *s);

#endif
