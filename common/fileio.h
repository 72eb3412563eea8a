/*
 * File helpers shared by the store, the spool, the keys, the learned
 * overrides and the rule loader.
 */
#ifndef FILEIO_H
#define FILEIO_H

#include <stddef.h>
#include <sys/types.h>

/*
 * Replace path with len bytes of buf, atomically: a temp file in the same
 * directory, fsync, rename, fsync of the directory.  A reader sees the old
 * file or the new one, never a part.  Returns 0 or a negative errno.
 */
int	fileio_write_atomic(const char *path, const void *buf, size_t len,
	    mode_t mode);

/*
 * The names in dir that end in suffix (any when NULL), dot files left
 * out, sorted.  Returns 0 with *ret_names (free with fileio_names_free)
 * and *ret_n, or a negative errno.
 */
int	fileio_list(const char *dir, const char *suffix, char ***ret_names,
	    size_t *ret_n);

void	fileio_names_free(char **names, size_t n);

#endif
