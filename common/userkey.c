#include "userkey.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sodium.h>

#include "fileio.h"
#include "xmalloc.h"

static int
fail(char **cause, const char *what, const char *path, int err)
{
	if (cause != NULL)
		xasprintf(cause, "cannot %s '%s': %s", what, path,
		    strerror(err));
	return -err;
}

static int
write_key(const char *path, unsigned char key[USERKEY_LEN], char **cause)
{
	int	r;

	if (sodium_init() < 0)
		return fail(cause, "initialise libsodium for", path, EIO);
	randombytes_buf(key, USERKEY_LEN);
	if ((r = fileio_write_atomic(path, key, USERKEY_LEN, 0600)) != 0)
		return fail(cause, "write", path, -r);
	return 0;
}

/* Load or create the key. */
int
userkey_load(const char *path, unsigned char key[USERKEY_LEN], char **cause)
{
	struct stat	st;
	int		fd;
	ssize_t		n;

	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd == -1 && errno == ENOENT)
		return write_key(path, key, cause);
	if (fd == -1)
		return fail(cause, "open", path, errno);
	if (fstat(fd, &st) == -1 || st.st_uid != geteuid()) {
		close(fd);
		return fail(cause, "trust", path, EPERM);
	}
	if ((st.st_mode & 077) != 0)
		fchmod(fd, 0600);
	n = read(fd, key, USERKEY_LEN);
	close(fd);
	if (n != USERKEY_LEN)
		return write_key(path, key, cause);
	return 0;
}

/* Replace the key. */
int
userkey_rotate(const char *path, unsigned char key[USERKEY_LEN], char **cause)
{
	return write_key(path, key, cause);
}

/* Keyed hash of a uid. */
void
userkey_hash(const unsigned char key[USERKEY_LEN], uid_t uid,
    char out[USER_ID_HEXLEN + 1])
{
	unsigned char	h[32];
	char		msg[32];
	int		n;

	n = snprintf(msg, sizeof msg, "uid:%lu", (unsigned long)uid);
	crypto_generichash(h, sizeof h, (unsigned char *)msg, (size_t)n, key,
	    USERKEY_LEN);
	sodium_bin2hex(out, USER_ID_HEXLEN + 1, h, sizeof h);
}

/* A random UUID v4. */
void
uuid_v4(char out[37])
{
	unsigned char	b[16];

	randombytes_buf(b, sizeof b);
	b[6] = (unsigned char)((b[6] & 0x0f) | 0x40);
	b[8] = (unsigned char)((b[8] & 0x3f) | 0x80);
	snprintf(out, 37, "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-"
	    "%02x%02x%02x%02x%02x%02x", b[0], b[1], b[2], b[3], b[4], b[5],
	    b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]);
}

static int
uuid_shape(const char *s, const char *digits)
{
	size_t	i;

	if (strlen(s) != 36)
		return 0;
	for (i = 0; i < 36; i++) {
		if (i == 8 || i == 13 || i == 18 || i == 23) {
			if (s[i] != '-')
				return 0;
		} else if (strchr(digits, s[i]) == NULL)
			return 0;
	}
	return 1;
}

int
uuid_valid(const char *s)
{
	return uuid_shape(s, "0123456789abcdef");
}

int
uuid_valid_anycase(const char *s)
{
	return uuid_shape(s, "0123456789abcdefABCDEF");
}
