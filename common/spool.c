#include "spool.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sodium.h>

#include "clock.h"
#include "fileio.h"
#include "paths.h"
#include "userkey.h"
#include "xmalloc.h"

#define SPOOL_MAX_FILE	(1024 * 1024)

static int
read_exact(const char *path, unsigned char *buf, size_t len)
{
	int	fd;
	ssize_t	n;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)) == -1)
		return -errno;
	n = read(fd, buf, len);
	close(fd);
	return n == (ssize_t)len ? 0 : -EINVAL;
}

/* Load or create the spool key pair. */
int
spool_keys(const char *home, unsigned char ret_pk[SPOOL_PK_LEN],
    unsigned char *ret_sk, char **cause)
{
	unsigned char	 pk[SPOOL_PK_LEN], sk[SPOOL_SK_LEN];
	char		*pkp, *skp;
	int		 r;

	if (sodium_init() < 0)
		return -EIO;
	xasprintf(&pkp, "%s/spool.pub", home);
	xasprintf(&skp, "%s/spool.key", home);
	r = read_exact(pkp, pk, sizeof pk);
	if (r == 0 && ret_sk != NULL)
		r = read_exact(skp, sk, sizeof sk);
	if (r == -ENOENT) {
		/* The secret half first: a public key alone is useless. */
		crypto_box_keypair(pk, sk);
		if ((r = paths_mkdir_private(home, cause)) == 0 &&
		    (r = fileio_write_atomic(skp, sk, sizeof sk, 0600)) == 0)
			r = fileio_write_atomic(pkp, pk, sizeof pk, 0600);
	}
	if (r != 0 && cause != NULL && *cause == NULL)
		xasprintf(cause, "cannot load the spool keys in '%s': %s", home,
		    strerror(-r));
	if (r == 0) {
		memcpy(ret_pk, pk, sizeof pk);
		if (ret_sk != NULL)
			memcpy(ret_sk, sk, sizeof sk);
	}
	sodium_memzero(sk, sizeof sk);
	free(pkp);
	free(skp);
	return r;
}

/* Seal and store one event. */
int
spool_put(const char *dir, const unsigned char pk[SPOOL_PK_LEN],
    const char *msg, size_t len, char ret_id[37], char **cause)
{
	unsigned char	*sealed;
	char		*path;
	int		 r;

	if (len > SPOOL_MAX_FILE - crypto_box_SEALBYTES)
		return -EMSGSIZE;
	if ((r = paths_mkdir_private(dir, cause)) != 0)
		return r;
	uuid_v4(ret_id);
	sealed = xmalloc(len + crypto_box_SEALBYTES);
	crypto_box_seal(sealed, (const unsigned char *)msg, len, pk);
	xasprintf(&path, "%s/%013lld-%s.sealed", dir,
	    (long long)clock_now_ms(), ret_id);
	r = fileio_write_atomic(path, sealed, len + crypto_box_SEALBYTES, 0600);
	if (r != 0 && cause != NULL)
		xasprintf(cause, "cannot write '%s': %s", path, strerror(-r));
	free(path);
	free(sealed);
	return r;
}

static int
open_one(const char *path, const unsigned char *pk, const unsigned char *sk,
    char **ret_msg, size_t *ret_len)
{
	struct stat	 st;
	unsigned char	*buf;
	char		*msg;
	size_t		 len;
	int		 fd;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)) == -1)
		return -errno;
	if (fstat(fd, &st) == -1 || st.st_size <= crypto_box_SEALBYTES ||
	    st.st_size > SPOOL_MAX_FILE) {
		close(fd);
		return -EINVAL;
	}
	len = (size_t)st.st_size;
	buf = xmalloc(len);
	if (read(fd, buf, len) != (ssize_t)len) {
		close(fd);
		free(buf);
		return -EIO;
	}
	close(fd);
	msg = xmalloc(len - crypto_box_SEALBYTES + 1);
	if (crypto_box_seal_open((unsigned char *)msg, buf, len, pk, sk) != 0) {
		free(buf);
		free(msg);
		return -EBADMSG;
	}
	free(buf);
	*ret_len = len - crypto_box_SEALBYTES;
	msg[*ret_len] = '\0';
	*ret_msg = msg;
	return 0;
}

/* Hand every spooled event to fn, oldest first. */
int
spool_drain(const char *dir, const unsigned char pk[SPOOL_PK_LEN],
    const unsigned char sk[SPOOL_SK_LEN],
    int (*fn)(void *, const char *, const char *, size_t), void *arg)
{
	char		**names = NULL, *path, *bad, *msg = NULL, id[37];
	size_t		 n = 0, i, len = 0;
	int		 done = 0;

	if (fileio_list(dir, ".sealed", &names, &n) != 0)
		return 0;
	for (i = 0; i < n; i++) {
		/* "<13 digits>-<uuid>.sealed" */
		if (strlen(names[i]) != 13 + 1 + 36 + 7)
			continue;
		xasprintf(&path, "%s/%s", dir, names[i]);
		snprintf(id, sizeof id, "%.36s", names[i] + 14);
		if (open_one(path, pk, sk, &msg, &len) != 0) {
			xasprintf(&bad, "%s.bad", path);
			rename(path, bad);
			free(bad);
		} else {
			if (fn(arg, id, msg, len) == 0) {
				unlink(path);
				done++;
			}
			sodium_memzero(msg, len);
			free(msg);
		}
		free(path);
	}
	fileio_names_free(names, n);
	return done;
}
