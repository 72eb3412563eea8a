#include "fileio.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "xmalloc.h"

static int
write_all(int fd, const char *p, size_t len)
{
	ssize_t	n;

	while (len > 0) {
		n = write(fd, p, len);
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1)
			return -errno;
		if (n == 0)
			return -EIO;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* Replace a file atomically. */
int
fileio_write_atomic(const char *path, const void *buf, size_t len,
    mode_t mode)
{
	char	*tmp, *dir, *slash;
	int	 fd, dfd, r;

	xasprintf(&tmp, "%s.tmp%ld", path, (long)getpid());
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW,
	    mode);
	if (fd == -1) {
		r = -errno;
		free(tmp);
		return r;
	}
	if ((r = write_all(fd, buf, len)) == 0 && fsync(fd) == -1)
		r = -errno;
	close(fd);
	if (r == 0 && rename(tmp, path) == -1)
		r = -errno;
	if (r != 0) {
		unlink(tmp);
		free(tmp);
		return r;
	}
	free(tmp);
	/* Make the rename itself durable. */
	dir = xstrdup(path);
	if ((slash = strrchr(dir, '/')) != NULL && slash != dir)
		*slash = '\0';
	else
		strcpy(dir, slash == dir ? "/" : ".");
	if ((dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) != -1) {
		(void)fsync(dfd);
		close(dfd);
	}
	free(dir);
	return 0;
}

static int
cmpstr(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The sorted names of a directory with a suffix. */
int
fileio_list(const char *dir, const char *suffix, char ***ret_names,
    size_t *ret_n)
{
	DIR		*d;
	struct dirent	*de;
	char		**names = NULL;
	size_t		 n = 0, len, sl = suffix != NULL ? strlen(suffix) : 0;

	if ((d = opendir(dir)) == NULL)
		return -errno;
	while ((de = readdir(d)) != NULL) {
		len = strlen(de->d_name);
		if (de->d_name[0] == '.' || len <= sl ||
		    (sl > 0 && strcmp(de->d_name + len - sl, suffix) != 0))
			continue;
		names = xreallocarray(names, n + 1, sizeof *names);
		names[n++] = xstrdup(de->d_name);
	}
	closedir(d);
	if (n > 1)
		qsort(names, n, sizeof *names, cmpstr);
	*ret_names = names;
	*ret_n = n;
	return 0;
}

/* Free a name list. */
void
fileio_names_free(char **names, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
}
