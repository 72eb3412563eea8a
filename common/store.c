#include "store.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include <json-c/json.h>

#include "buf.h"
#include "clock.h"
#include "jsonutil.h"
#include "paths.h"
#include "xmalloc.h"

/* Count the lines of a file. */
int64_t
store_count_lines(const char *path)
{
	char	buf[65536], *p;
	ssize_t	n;
	int64_t	lines = 0;
	int	fd;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1)
		return -errno;
	while ((n = read(fd, buf, sizeof buf)) > 0)
		for (p = buf; (p = memchr(p, '\n', (size_t)(buf + n - p))) !=
		    NULL; p++)
			lines++;
	close(fd);
	return lines;
}

static void
load_metadata(struct store *s)
{
	struct json_object	*m, *st, *v, *x;
	char			*path;

	xasprintf(&path, "%s/metadata.json", s->data);
	m = json_object_from_file(path);
	free(path);
	s->st.commands = NULL;
	if (m == NULL)
		return;
	if (json_object_object_get_ex(m, "created", &v))
		clock_parse(json_object_get_string(v), &s->st.created_ms);
	if (json_object_object_get_ex(m, "statistics", &st)) {
		if (json_object_object_get_ex(st, "totalEntries", &v))
			s->st.total = json_object_get_int64(v);
		if (json_object_object_get_ex(st, "userCorrections", &v))
			s->st.corrections = json_object_get_int64(v);
		if (json_object_object_get_ex(st, "avgProcessingTime", &v))
			s->st.sum_ms = json_object_get_double(v) *
			    (double)s->st.total;
	}
	if (json_object_object_get_ex(m, "x-commandCounts", &x) &&
	    json_object_is_type(x, json_type_object))
		s->st.commands = json_object_get(x);
	json_object_put(m);
}

/*
 * Cut a torn last line (a crash or a full disk in the middle of a write)
 * off one day file, keeping it in learning-data/quarantine/ for
 * inspection.  Returns 1 if the file was repaired.
 */
static int
repair_file(const char *path, const char *name, const char *datadir)
{
	struct stat	 st;
	char		 tail[4096], *qdir, *qpath;
	off_t		 end, cut;
	ssize_t		 n, i;
	int		 fd, qfd, r = 0;

	if ((fd = open(path, O_RDWR | O_CLOEXEC | O_NOFOLLOW)) == -1)
		return 0;
	if (fstat(fd, &st) == -1 || st.st_size == 0)
		goto out;
	end = st.st_size;
	if (pread(fd, tail, 1, end - 1) != 1 || tail[0] == '\n')
		goto out;
	/* Find the last newline; everything after it is the torn line. */
	cut = 0;
	for (end = st.st_size; end > 0 && cut == 0; end -= n) {
		n = end > (off_t)sizeof tail ? (ssize_t)sizeof tail :
		    (ssize_t)end;
		if (pread(fd, tail, (size_t)n, end - n) != n)
			goto out;
		for (i = n - 1; i >= 0; i--) {
			if (tail[i] == '\n') {
				cut = end - n + i + 1;
				break;
			}
		}
	}
	xasprintf(&qdir, "%s/quarantine", datadir);
	paths_mkdir_private(qdir, NULL);
	xasprintf(&qpath, "%s/%s.torn-%lld", qdir, name,
	    (long long)clock_now_ms());
	qfd = open(qpath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (qfd != -1) {
		char	buf[65536];
		off_t	off = cut;

		while ((n = pread(fd, buf, sizeof buf, off)) > 0) {
			if (write(qfd, buf, (size_t)n) != n)
				break;
			off += n;
		}
		fsync(qfd);
		close(qfd);
	}
	if (ftruncate(fd, cut) == 0 && fsync(fd) == 0)
		r = 1;
	free(qdir);
	free(qpath);
out:
	close(fd);
	return r;
}

/* Repair every day file of dir; returns how many were repaired. */
int
store_repair(const char *dir, const char *datadir)
{
	DIR		*d;
	struct dirent	*de;
	char		*path;
	size_t		 len;
	int		 n = 0;

	if ((d = opendir(dir)) == NULL)
		return 0;
	while ((de = readdir(d)) != NULL) {
		len = strlen(de->d_name);
		if (len < 8 || strcmp(de->d_name + len - 7, ".ndjson") != 0)
			continue;
		xasprintf(&path, "%s/%s", dir, de->d_name);
		n += repair_file(path, de->d_name, datadir);
		free(path);
	}
	closedir(d);
	return n;
}

/* Open the store. */
int
store_open(struct store *s, const char *datadir, char **cause)
{
	char	*dir;
	int	 r;

	memset(s, 0, sizeof *s);
	s->fd = -1;
	s->data = xstrdup(datadir);
	xasprintf(&s->current, "%s/current", datadir);
	if ((r = paths_mkdir_private(s->current, cause)) != 0)
		return r;
	xasprintf(&dir, "%s/archive", datadir);
	r = paths_mkdir_private(dir, cause);
	free(dir);
	if (r != 0)
		return r;
	xasprintf(&dir, "%s/aggregated", datadir);
	r = paths_mkdir_private(dir, cause);
	free(dir);
	if (r != 0)
		return r;
	s->repaired = store_repair(s->current, datadir);
	load_metadata(s);
	if (s->st.commands == NULL)
		s->st.commands = json_object_new_object();
	if (s->st.created_ms == 0) {
		s->st.created_ms = clock_now_ms();
		s->dirty = 1;
	}
	return 0;
}

/* Close the store. */
void
store_close(struct store *s)
{
	if (s->fd != -1)
		close(s->fd);
	if (s->st.commands != NULL)
		json_object_put(s->st.commands);
	free(s->data);
	free(s->current);
	memset(s, 0, sizeof *s);
	s->fd = -1;
}

/* Forget the open day file. */
void
store_reopen(struct store *s)
{
	if (s->fd != -1)
		close(s->fd);
	s->fd = -1;
	s->day[0] = '\0';
}

static int
open_day(struct store *s, const char *day)
{
	char	*path;
	int64_t	 n;

	if (s->fd != -1 && strcmp(s->day, day) == 0)
		return 0;
	store_reopen(s);
	xasprintf(&path, "%s/%s.ndjson", s->current, day);
	s->fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC |
	    O_NOFOLLOW, 0600);
	if (s->fd == -1) {
		free(path);
		return -errno;
	}
	n = store_count_lines(path);
	s->today = n > 0 ? n : 0;
	free(path);
	snprintf(s->day, sizeof s->day, "%s", day);
	return 0;
}

/*
 * Write line and its newline with one writev() to fd, opened O_APPEND at
 * size; a short write is cut back (we are the only writer).
 */
static int
write_line(int fd, const char *line, size_t len, off_t size)
{
	struct iovec	 iov[2];
	ssize_t		 n;
	int		 r;

	/* One system call, no copy: writev appends both parts at once. */
	iov[0].iov_base = (void *)(uintptr_t)line;
	iov[0].iov_len = len;
	iov[1].iov_base = (void *)(uintptr_t)"\n";
	iov[1].iov_len = 1;
	do {
		n = writev(fd, iov, 2);
	} while (n == -1 && errno == EINTR);
	if (n == (ssize_t)(len + 1))
		return 0;
	r = n == -1 ? -errno : -ENOSPC;
	if (n > 0 && ftruncate(fd, size) == -1)
		r = -errno;
	return r;
}

/* Append one line to a day file, all or nothing. */
int
store_append(struct store *s, const char *day, const char *line, size_t len)
{
	struct stat	 st;
	int		 r;

	if ((r = open_day(s, day)) != 0)
		return r;
	/* Make sure the day file was not removed under us (purge). */
	if (fstat(s->fd, &st) == -1 || st.st_nlink == 0) {
		store_reopen(s);
		if ((r = open_day(s, day)) != 0)
			return r;
		if (fstat(s->fd, &st) == -1)
			return -errno;
	}
	if ((r = write_line(s->fd, line, len, st.st_size)) == 0)
		s->today++;
	return r;
}

/* Append an annotation line to the annotations file of a day. */
int
store_annotate(struct store *s, const char *day, const char *line,
    size_t len)
{
	struct stat	 st;
	char		*path;
	int		 fd, r;

	xasprintf(&path, "%s/%s.annotations.ndjson", s->current, day);
	fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC |
	    O_NOFOLLOW, 0600);
	free(path);
	if (fd == -1)
		return -errno;
	if (fstat(fd, &st) == -1) {
		r = -errno;
		close(fd);
		return r;
	}
	r = write_line(fd, line, len, st.st_size);
	close(fd);
	return r;
}

/* Whether a day file holds an entry id (spooled events are ingested once). */
int
store_has_id(struct store *s, const char *day, const char *id)
{
	char	 buf[65536], needle[64], *path;
	size_t	 nlen, have = 0, keep;
	ssize_t	 n;
	int	 fd, found = 0;

	nlen = (size_t)snprintf(needle, sizeof needle, "\"id\":\"%s\"", id);
	xasprintf(&path, "%s/%s.ndjson", s->current, day);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	free(path);
	if (fd == -1)
		return 0;
	while (!found && (n = read(fd, buf + have, sizeof buf - have)) > 0) {
		have += (size_t)n;
		found = memmem(buf, have, needle, nlen) != NULL;
		/* Keep a tail, so a needle across two reads is still seen. */
		keep = have < nlen ? have : nlen - 1;
		memmove(buf, buf + have - keep, keep);
		have = keep;
	}
	close(fd);
	return found;
}

/* Count an entry in the statistics. */
void
store_count(struct store *s, const char *command, double total_ms,
    int correction)
{
	struct json_object	*v;
	int64_t			 n = 0;

	s->st.total++;
	s->st.sum_ms += total_ms;
	s->st.corrections += correction != 0;
	if (command != NULL && *command != '\0') {
		if (json_object_object_get_ex(s->st.commands, command, &v))
			n = json_object_get_int64(v);
		json_object_object_add(s->st.commands, command,
		    json_object_new_int64(n + 1));
	}
	s->dirty = 1;
}

/* Write metadata.json atomically. */
int
store_write_metadata(struct store *s, const char *level, int retention_days)
{
	struct json_object	*m, *st, *ret;
	char			 ts[ISO8601_LEN], policy[32], *path;
	int			 r;
	double			 avg;

	m = json_object_new_object();
	json_object_object_add(m, "version", json_object_new_string("1.0.0"));
	clock_iso8601_utc(s->st.created_ms, ts);
	json_object_object_add(m, "created", json_object_new_string(ts));
	clock_iso8601_utc(clock_now_ms(), ts);
	json_object_object_add(m, "lastUpdated", json_object_new_string(ts));
	st = json_object_new_object();
	json_object_object_add(st, "totalEntries",
	    json_object_new_int64(s->st.total));
	json_object_object_add(st, "uniqueCommands",
	    json_object_new_int(json_object_object_length(s->st.commands)));
	json_object_object_add(st, "userCorrections",
	    json_object_new_int64(s->st.corrections));
	avg = s->st.total > 0 ? s->st.sum_ms / (double)s->st.total : 0;
	json_object_object_add(st, "avgProcessingTime",
	    json_num(avg));
	json_object_object_add(m, "statistics", st);
	ret = json_object_new_object();
	snprintf(policy, sizeof policy, "%ddays", retention_days);
	json_object_object_add(ret, "currentPolicy",
	    json_object_new_string(policy));
	json_object_object_add(ret, "anonymizationLevel",
	    json_object_new_string(level));
	json_object_object_add(m, "retention", ret);
	json_object_object_add(m, "x-commandCounts",
	    json_object_get(s->st.commands));

	xasprintf(&path, "%s/metadata.json", s->data);
	r = json_write_file(path, m, 0600);
	if (r == 0)
		s->dirty = 0;
	free(path);
	json_object_put(m);
	return r;
}
