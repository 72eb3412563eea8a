#include "rotate.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <json-c/json.h>
#include <zlib.h>

#include "clock.h"
#include "jsonutil.h"
#include "store.h"
#include "xmalloc.h"

#define CHUNK		(256 * 1024)
#define MAX_LINE	(4 * 1024 * 1024)	/* longer lines are passed cut */
#define AGG_KEEP_DAYS	365

/* Calendar arithmetic on YYYY-MM-DD, independent of the time zone. */
static int64_t
days_from_civil(int64_t y, unsigned m, unsigned d)
{
	int64_t		era;
	unsigned	yoe, doy, doe;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = (unsigned)(y - era * 400);
	doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + (int64_t)doe - 719468;
}

static void
civil_from_days(int64_t z, int *ry, unsigned *rm, unsigned *rd)
{
	int64_t		era, y;
	unsigned	doe, yoe, doy, mp, d, m;

	z += 719468;
	era = (z >= 0 ? z : z - 146096) / 146097;
	doe = (unsigned)(z - era * 146097);
	yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	y = (int64_t)yoe + era * 400;
	doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	mp = (5 * doy + 2) / 153;
	d = doy - (153 * mp + 2) / 5 + 1;
	m = mp < 10 ? mp + 3 : mp - 9;
	*ry = (int)(y + (m <= 2));
	*rm = m;
	*rd = d;
}

/* Parse "YYYY-MM-DD" at the start of s into a day number. */
static int
day_num(const char *s, int64_t *ret)
{
	unsigned	y, m, d;
	int		i;

	for (i = 0; i < 10; i++)
		if (i == 4 || i == 7 ? s[i] != '-' : (s[i] < '0' ||
		    s[i] > '9'))
			return -EINVAL;
	y = (unsigned)atoi(s);
	m = (unsigned)atoi(s + 5);
	d = (unsigned)atoi(s + 8);
	if (m < 1 || m > 12 || d < 1 || d > 31)
		return -EINVAL;
	*ret = days_from_civil(y, m, d);
	return 0;
}

static void
num_day(int64_t n, char out[11])
{
	char		tmp[32];
	int		y;
	unsigned	m, d;

	civil_from_days(n, &y, &m, &d);
	snprintf(tmp, sizeof tmp, "%04d-%02u-%02u", y, m, d);
	memcpy(out, tmp, 10);
	out[10] = '\0';
}

/* The ISO week of day n as "YYYY-WW", and its Monday. */
static int64_t
iso_week(int64_t n, char out[16])
{
	int64_t		wd, thu, monday;
	int		y;
	unsigned	m, d;

	wd = ((n + 3) % 7 + 7) % 7;	/* Monday is 0 */
	monday = n - wd;
	thu = monday + 3;
	civil_from_days(thu, &y, &m, &d);
	snprintf(out, 16, "%04d-%02d", y % 10000,
	    (int)((thu - days_from_civil(y, 1, 1)) / 7 + 1));
	return monday;
}

/* Whether name is "YYYY-MM-DD" followed by exactly suffix. */
static int
day_name(const char *name, const char *suffix, char day[11])
{
	int64_t	n;

	if (strlen(name) != 10 + strlen(suffix) ||
	    strcmp(name + 10, suffix) != 0 || day_num(name, &n) != 0)
		return 0;
	memcpy(day, name, 10);
	day[10] = '\0';
	return 1;
}

/* Exit at once when the test asks for a crash at this step. */
void
rotate_crash_point(const char *step)
{
	const char	*at = getenv("DELIBERATE_CRASH_AT");

	if (at != NULL && strcmp(at, step) == 0)
		_exit(99);
}

/* Take the lifecycle lock. */
int
rotate_lock(const char *data, int wait, int *ret_fd)
{
	char	*path;
	int	 fd, r;

	xasprintf(&path, "%s/.rotate.lock", data);
	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
	free(path);
	if (fd == -1)
		return -errno;
	do {
		r = flock(fd, LOCK_EX | (wait ? 0 : LOCK_NB));
	} while (r == -1 && errno == EINTR);
	if (r == -1) {
		r = errno == EWOULDBLOCK ? -EAGAIN : -errno;
		close(fd);
		return r;
	}
	*ret_fd = fd;
	return 0;
}

/* Release the lifecycle lock. */
void
rotate_unlock(int fd)
{
	if (fd != -1)
		close(fd);
}

static int
fsync_dir(const char *dir)
{
	int	fd, r = 0;

	if ((fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) == -1)
		return -errno;
	if (fsync(fd) == -1)
		r = -errno;
	close(fd);
	return r;
}

static char *
dir_of(const char *path)
{
	const char	*slash = strrchr(path, '/');

	return slash == NULL ? xstrdup(".") : xstrndup(path,
	    (size_t)(slash - path));
}

/* Read every line of a plain or gzip file. */
int
rotate_each_line(const char *path, rotate_filter_fn fn, void *arg)
{
	struct buf	 b = BUF_INIT;
	gzFile		 gz;
	char		*nl;
	size_t		 off;
	int		 fd, n, r = 0, zerr;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)) == -1)
		return -errno;
	if ((gz = gzdopen(fd, "rb")) == NULL) {
		close(fd);
		return -ENOMEM;
	}
	gzbuffer(gz, CHUNK);
	buf_grow(&b, CHUNK);
	for (;;) {
		buf_grow(&b, CHUNK);
		n = gzread(gz, b.data + b.len, CHUNK);
		if (n < 0) {
			gzerror(gz, &zerr);
			r = zerr == Z_ERRNO ? -EIO : -EBADMSG;
			break;
		}
		if (n == 0)
			break;
		b.len += (size_t)n;
		b.data[b.len] = '\0';
		off = 0;
		while ((nl = memchr(b.data + off, '\n', b.len - off)) != NULL) {
			r = fn(arg, b.data + off, (size_t)(nl - (b.data + off)));
			if (r < 0)
				goto out;
			off = (size_t)(nl - b.data) + 1;
		}
		if (b.len - off > MAX_LINE) {
			r = fn(arg, b.data + off, b.len - off);
			off = b.len;
			if (r < 0)
				goto out;
		}
		buf_consume(&b, off);
	}
	/* A last line without its newline is still data. */
	if (r == 0 && b.len > 0 && (r = fn(arg, b.data, b.len)) > 0)
		r = 0;
out:
	if (r > 0)
		r = 0;
	if (gzclose_r(gz) != Z_OK && r == 0)
		r = -EBADMSG;
	buf_release(&b);
	return r;
}

/*
 * An output file being built under a temp name: plain NDJSON or a gzip
 * stream (deflate level 6, like gzip -6), written in CHUNK pieces.
 */
struct sink {
	int		 fd;
	int		 gz;
	z_stream	 zs;
	unsigned char	*in;
	size_t		 inlen;
	unsigned char	*out;
	int		 writes;
	int64_t		 kept;
	int64_t		 dropped;
	int64_t		 nout;
	char		*tmp;
};

static int
write_all(int fd, const void *p, size_t len)
{
	const char	*s = p;
	ssize_t		 n;

	while (len > 0) {
		if ((n = write(fd, s, len)) == -1) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		s += n;
		len -= (size_t)n;
	}
	return 0;
}

static int
sink_deflate(struct sink *k, int flush)
{
	size_t	have;
	int	zr, r;

	k->zs.next_in = k->in;
	k->zs.avail_in = (uInt)k->inlen;
	do {
		k->zs.next_out = k->out;
		k->zs.avail_out = CHUNK;
		zr = deflate(&k->zs, flush);
		if (zr == Z_STREAM_ERROR)
			return -EIO;
		have = CHUNK - k->zs.avail_out;
		if (have > 0) {
			if ((r = write_all(k->fd, k->out, have)) != 0)
				return r;
			k->nout += (int64_t)have;
			if (k->writes++ == 0)
				rotate_crash_point("tmp-partial");
		}
	} while (k->zs.avail_out == 0);
	k->inlen = 0;
	return 0;
}

static int
sink_open(struct sink *k, const char *tmp, int gz)
{
	memset(k, 0, sizeof *k);
	k->gz = gz;
	unlink(tmp);
	k->fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW,
	    0600);
	if (k->fd == -1)
		return -errno;
	k->tmp = xstrdup(tmp);
	k->in = xmalloc(CHUNK);
	if (gz) {
		k->out = xmalloc(CHUNK);
		if (deflateInit2(&k->zs, 6, Z_DEFLATED, 15 + 16, 8,
		    Z_DEFAULT_STRATEGY) != Z_OK) {
			close(k->fd);
			unlink(tmp);
			return -ENOMEM;
		}
	}
	return 0;
}

static int
sink_flush(struct sink *k)
{
	int	r;

	if (k->gz)
		return sink_deflate(k, Z_NO_FLUSH);
	if ((r = write_all(k->fd, k->in, k->inlen)) != 0)
		return r;
	k->nout += (int64_t)k->inlen;
	k->inlen = 0;
	return 0;
}

static int
sink_add(struct sink *k, const char *line, size_t len)
{
	int	r;

	k->kept++;
	while (len + 1 > CHUNK - k->inlen) {
		size_t part = CHUNK - k->inlen;

		if (part > len)
			part = len;
		memcpy(k->in + k->inlen, line, part);
		k->inlen += part;
		line += part;
		len -= part;
		if ((r = sink_flush(k)) != 0)
			return r;
	}
	memcpy(k->in + k->inlen, line, len);
	k->inlen += len;
	k->in[k->inlen++] = '\n';
	return 0;
}

static void
sink_abort(struct sink *k)
{
	if (k->fd != -1) {
		close(k->fd);
		unlink(k->tmp);
	}
	if (k->gz && k->out != NULL)
		deflateEnd(&k->zs);
	free(k->in);
	free(k->out);
	free(k->tmp);
	memset(k, 0, sizeof *k);
	k->fd = -1;
}

/*
 * Finish the temp file, fsync it, rename it to path and fsync the
 * directory.  With nothing kept, the temp is removed and, when
 * remove_empty, so is path.
 */
static int
sink_commit(struct sink *k, const char *path, int remove_empty)
{
	char	*dir;
	int	 r = 0;

	if (k->kept == 0) {
		sink_abort(k);
		if (remove_empty && unlink(path) == -1 && errno != ENOENT)
			return -errno;
		if (remove_empty) {
			dir = dir_of(path);
			fsync_dir(dir);
			free(dir);
		}
		return 0;
	}
	if (k->gz) {
		if ((r = sink_deflate(k, Z_FINISH)) != 0)
			goto fail;
	} else if ((r = sink_flush(k)) != 0)
		goto fail;
	rotate_crash_point("tmp-written");
	if (fsync(k->fd) == -1) {
		r = -errno;
		goto fail;
	}
	rotate_crash_point("tmp-synced");
	if (rename(k->tmp, path) == -1) {
		r = -errno;
		goto fail;
	}
	close(k->fd);
	k->fd = -1;
	rotate_crash_point("renamed");
	dir = dir_of(path);
	r = fsync_dir(dir);
	free(dir);
	rotate_crash_point("dir-synced");
	sink_abort(k);
	return r;
fail:
	sink_abort(k);
	return r;
}

/* Whether the line's privacy.retention.expiresAt lies before now. */
static int
line_expired(const char *line, size_t len, int64_t now)
{
	const char	*p, *end = line + len, *q;
	char		 ts[48];
	int64_t		 ms;

	if ((p = memmem(line, len, "\"expiresAt\"", 11)) == NULL)
		return 0;
	for (p += 11; p < end && (*p == ' ' || *p == ':'); p++)
		;
	if (p >= end || *p++ != '"')
		return 0;
	if ((q = memchr(p, '"', (size_t)(end - p))) == NULL ||
	    (size_t)(q - p) >= sizeof ts)
		return 0;
	memcpy(ts, p, (size_t)(q - p));
	ts[q - p] = '\0';
	return clock_parse(ts, &ms) == 0 && ms <= now;
}

/* A line's identity for the verify step: 64-bit FNV-1a plus length. */
struct lhash {
	uint64_t	h;
	uint64_t	len;
};

static struct lhash
line_hash(const char *line, size_t len)
{
	struct lhash	lh = { 14695981039346656037ULL, len };
	size_t		i;

	for (i = 0; i < len; i++) {
		lh.h ^= (unsigned char)line[i];
		lh.h *= 1099511628211ULL;
	}
	return lh;
}

static int
lhash_cmp(const void *a, const void *b)
{
	const struct lhash	*x = a, *y = b;

	if (x->h != y->h)
		return x->h < y->h ? -1 : 1;
	if (x->len != y->len)
		return x->len < y->len ? -1 : 1;
	return 0;
}

struct lset {
	struct lhash	*v;
	size_t		 n;
	size_t		 alloc;
};

static int
lset_add(void *arg, const char *line, size_t len)
{
	struct lset	*s = arg;

	if (s->n == s->alloc) {
		s->alloc = s->alloc == 0 ? 1024 : s->alloc * 2;
		s->v = xreallocarray(s->v, s->alloc, sizeof *s->v);
	}
	s->v[s->n++] = line_hash(line, len);
	return 1;
}

static int
lset_has(const struct lset *s, const char *line, size_t len)
{
	struct lhash	lh = line_hash(line, len);

	return s->n > 0 && bsearch(&lh, s->v, s->n, sizeof *s->v,
	    lhash_cmp) != NULL;
}

/* The per-run state. */
struct rot {
	const struct rotate_opts	*o;
	struct rotate_report		*rep;
	int64_t				 now;
	char				 today[11];
	char				*current;
	char				*archive;
	char				*aggregated;
	struct sink			*sink;
	struct lset			*skip;	/* lines already archived */
	int64_t				 newlines;
};

static int
keep_line(void *arg, const char *line, size_t len)
{
	struct rot	*rt = arg;

	if (len == 0)
		return 1;
	if (rt->skip != NULL && lset_has(rt->skip, line, len))
		return 1;
	if (line_expired(line, len, rt->now)) {
		rt->sink->dropped++;
		return 1;
	}
	return sink_add(rt->sink, line, len) == 0 ? 1 : -EIO;
}

static int
count_new(void *arg, const char *line, size_t len)
{
	struct rot	*rt = arg;

	if (len > 0 && !lset_has(rt->skip, line, len))
		rt->newlines++;
	return 1;
}

static int
count_line(void *arg, const char *line, size_t len)
{
	int64_t	*n = arg;

	(void)line;
	*n += len > 0;
	return 1;
}

static int64_t
file_size(const char *path)
{
	struct stat	st;

	return stat(path, &st) == 0 ? (int64_t)st.st_size : 0;
}

/* Archive one finished day; see docs/lifecycle.md for the cases. */
static int
rotate_day(struct rot *rt, const char *day, char **cause)
{
	struct rotate_report	*rep = rt->rep;
	struct sink		 k;
	struct lset		 set = { NULL, 0, 0 };
	struct stat		 st;
	char			*src, *arc, *tmp;
	int64_t			 lines = 0, in;
	int			 r, have_arc;

	xasprintf(&src, "%s/%s.ndjson", rt->current, day);
	xasprintf(&arc, "%s/%s.ndjson.gz", rt->archive, day);
	xasprintf(&tmp, "%s/.%s.ndjson.gz.tmp", rt->archive, day);
	have_arc = stat(arc, &st) == 0;
	in = file_size(src);
	rt->skip = NULL;
	if (have_arc) {
		if ((r = rotate_each_line(arc, lset_add, &set)) != 0) {
			xasprintf(cause, "'%s' is unreadable (%s); left it and "
			    "'%s' alone", arc, strerror(-r), src);
			goto out;
		}
		qsort(set.v, set.n, sizeof *set.v, lhash_cmp);
		rt->skip = &set;
		rt->newlines = 0;
		if ((r = rotate_each_line(src, count_new, rt)) != 0) {
			xasprintf(cause, "cannot read '%s': %s", src,
			    strerror(-r));
			goto out;
		}
		if (rt->newlines == 0) {
			/* A run stopped after the rename: finish it. */
			if (rt->o->dry_run) {
				buf_addf(&rep->log, "would remove %s.ndjson: "
				    "already in its archive\n", day);
				goto out;
			}
			if (unlink(src) == -1) {
				r = -errno;
				xasprintf(cause, "cannot remove '%s': %s",
				    src, strerror(errno));
				goto out;
			}
			fsync_dir(rt->current);
			rotate_crash_point("source-removed");
			rep->recovered++;
			buf_addf(&rep->log, "verified archive/%s.ndjson.gz "
			    "(%zu lines) and removed the leftover source\n",
			    day, set.n);
			goto out;
		}
	} else if (rt->o->dry_run &&
	    (r = rotate_each_line(src, count_line, &lines)) != 0) {
		/* Only the dry run reports it; a real run counts k.kept. */
		xasprintf(cause, "cannot read '%s': %s", src, strerror(-r));
		goto out;
	}
	if (rt->o->dry_run) {
		if (have_arc)
			buf_addf(&rep->log, "would merge %lld late lines of "
			    "%s into its archive\n", (long long)rt->newlines,
			    day);
		else
			buf_addf(&rep->log, "would archive %s (%lld lines)\n",
			    day, (long long)lines);
		r = 0;
		goto out;
	}
	if ((r = sink_open(&k, tmp, 1)) != 0) {
		xasprintf(cause, "cannot create '%s': %s", tmp, strerror(-r));
		goto out;
	}
	rt->sink = &k;
	if (have_arc) {
		/* Old lines first, then the late ones, minus the expired. */
		rt->skip = NULL;
		r = rotate_each_line(arc, keep_line, rt);
		rt->skip = &set;
	}
	if (r == 0)
		r = rotate_each_line(src, keep_line, rt);
	if (r != 0) {
		sink_abort(&k);
		xasprintf(cause, "cannot archive '%s': %s", src, strerror(-r));
		goto out;
	}
	lines = k.kept;
	rep->expired += k.dropped;
	rep->entries += k.kept;
	rep->bytes_in += in;
	rep->bytes_out += k.nout;
	if ((r = sink_commit(&k, arc, 1)) != 0) {
		xasprintf(cause, "cannot write '%s': %s", arc, strerror(-r));
		goto out;
	}
	if (unlink(src) == -1) {
		r = -errno;
		xasprintf(cause, "cannot remove '%s': %s", src,
		    strerror(errno));
		goto out;
	}
	fsync_dir(rt->current);
	rotate_crash_point("source-removed");
	if (have_arc) {
		rep->appended++;
		buf_addf(&rep->log, "merged %lld late lines of %s into "
		    "archive/%s.ndjson.gz\n", (long long)rt->newlines, day,
		    day);
	} else if (lines == 0) {
		buf_addf(&rep->log, "removed %s.ndjson: every entry had "
		    "expired\n", day);
	} else {
		rep->archived++;
		buf_addf(&rep->log, "archived %s: %lld entries, %lld -> %lld "
		    "bytes\n", day, (long long)lines, (long long)in,
		    (long long)file_size(arc));
	}
out:
	free(set.v);
	rt->skip = NULL;
	free(src);
	free(arc);
	free(tmp);
	return r;
}

static int
ann_line(void *arg, const char *line, size_t len)
{
	if (len == 0)
		return 1;
	return sink_add(arg, line, len) == 0 ? 1 : -EIO;
}

/*
 * Archive the annotations of a finished day (docs/annotations.md) the way
 * its entries are: current/DAY.annotations.ndjson is appended to
 * archive/DAY.annotations.ndjson.gz, then removed.  A crash between the
 * two repeats lines, which merging tolerates (the last record wins).
 */
static void
rotate_annotations(struct rot *rt, const char *day)
{
	struct sink	 k;
	struct stat	 st;
	char		*src, *arc, *tmp;
	int		 r = 0;

	xasprintf(&src, "%s/%s.annotations.ndjson", rt->current, day);
	xasprintf(&arc, "%s/%s.annotations.ndjson.gz", rt->archive, day);
	xasprintf(&tmp, "%s/.%s.annotations.ndjson.gz.tmp", rt->archive, day);
	if (rt->o->dry_run) {
		buf_addf(&rt->rep->log, "would archive the annotations of "
		    "%s\n", day);
		goto out;
	}
	if (sink_open(&k, tmp, 1) != 0)
		goto out;
	if (stat(arc, &st) == 0)
		r = rotate_each_line(arc, ann_line, &k);
	if (r == 0)
		r = rotate_each_line(src, ann_line, &k);
	if (r != 0) {
		sink_abort(&k);
		buf_addf(&rt->rep->log, "error: cannot archive '%s': %s\n",
		    src, strerror(-r));
		goto out;
	}
	if (sink_commit(&k, arc, 1) == 0 && unlink(src) == 0) {
		fsync_dir(rt->current);
		buf_addf(&rt->rep->log, "archived the annotations of %s\n",
		    day);
	}
out:
	free(src);
	free(arc);
	free(tmp);
}

/* The counters of one weekly or monthly aggregate. */
struct agg {
	char			 name[32];	/* weekly-2026-09 */
	char			 from[11];
	char			 to[11];
	int64_t			 entries;
	int64_t			 redacted;
	double			 sum;
	double			*times;
	size_t			 ntimes;
	size_t			 atimes;
	struct json_object	*c[6];
};

static const char *agg_keys[6] = { "riskLevel", "command", "category",
    "decision", "correction", "bypassTechnique" };

static struct json_object *
jget(struct json_object *o, const char *path)
{
	char		 key[64];
	const char	*dot;
	size_t		 len;

	while (o != NULL && *path != '\0') {
		dot = strchr(path, '.');
		len = dot != NULL ? (size_t)(dot - path) : strlen(path);
		if (len >= sizeof key)
			return NULL;
		memcpy(key, path, len);
		key[len] = '\0';
		if (!json_object_is_type(o, json_type_object) ||
		    !json_object_object_get_ex(o, key, &o))
			return NULL;
		path += len + (dot != NULL);
	}
	return o;
}

static void
bump(struct json_object *counts, const char *key)
{
	struct json_object	*v;
	int64_t			 n = 0;

	if (key == NULL || *key == '\0')
		key = "none";
	if (json_object_object_get_ex(counts, key, &v))
		n = json_object_get_int64(v);
	json_object_object_add(counts, key, json_object_new_int64(n + 1));
}

static const char *
jstr(struct json_object *o, const char *path)
{
	struct json_object	*v = jget(o, path);

	return v != NULL && json_object_is_type(v, json_type_string) ?
	    json_object_get_string(v) : NULL;
}

static void
agg_entry(struct agg *a, struct json_object *e)
{
	struct json_object	*pats, *p, *techs, *seen, *v;
	const char		*id, *dot;
	char			 cat[64];
	size_t			 i, n;
	double			 t;

	a->entries++;
	bump(a->c[0], jstr(e, "classification.riskLevel"));
	bump(a->c[1], jstr(e, "command.command"));
	seen = json_object_new_object();
	pats = jget(e, "classification.patterns");
	n = json_object_is_type(pats, json_type_array) ?
	    json_object_array_length(pats) : 0;
	for (i = 0; i < n; i++) {
		p = json_object_array_get_idx(pats, i);
		if ((id = jstr(p, "patternId")) == NULL ||
		    ((v = jget(p, "matched")) != NULL &&
		    !json_object_get_boolean(v)))
			continue;
		/* "fs:rm-rf-root" and "net.pipe-to-shell" alike. */
		dot = strpbrk(id, ":.");
		snprintf(cat, sizeof cat, "%.*s", dot != NULL ?
		    (int)(dot - id) : (int)strlen(id), id);
		if (!json_object_object_get_ex(seen, cat, NULL)) {
			json_object_object_add(seen, cat, NULL);
			bump(a->c[2], cat);
		}
	}
	if (json_object_object_length(seen) == 0)
		bump(a->c[2], "none");
	json_object_put(seen);
	bump(a->c[3], jstr(e, "userDecision.action"));
	if (jget(e, "userDecision.correction") != NULL)
		bump(a->c[4], jstr(e, "userDecision.correction.type"));
	techs = jget(e, "classification.bypassDetection.techniques");
	n = json_object_is_type(techs, json_type_array) ?
	    json_object_array_length(techs) : 0;
	for (i = 0; i < n; i++)
		bump(a->c[5], json_object_get_string(
		    json_object_array_get_idx(techs, i)));
	if ((p = jget(e, "performance.totalTime")) != NULL) {
		t = json_object_get_double(p);
		if (a->ntimes == a->atimes) {
			a->atimes = a->atimes == 0 ? 256 : a->atimes * 2;
			a->times = xreallocarray(a->times, a->atimes,
			    sizeof *a->times);
		}
		a->times[a->ntimes++] = t;
		a->sum += t;
	}
	if ((p = jget(e, "privacy.redactionStats.redactedCount")) != NULL)
		a->redacted += json_object_get_int64(p);
}

/*
 * The fast path of the aggregation: a validating scanner over the compact
 * JSON line that keeps only the fields agg_entry() reads, without building
 * any object.  It accepts a subset of what json-c accepts (strict JSON, no
 * whitespace, no escapes in the strings it keeps, no duplicate key among
 * the ones it reads, no NUL byte) and gives those lines the meaning json-c
 * gives them; any other line goes through json-c (agg_line()).
 */
struct fstr {
	const char	*s;		/* NULL: absent, null or not a string */
	size_t		 n;
};

#define FX_MAX		32	/* patterns or techniques, else json-c */
#define FX_DEPTH	48

struct fx {
	const char	*p;
	const char	*end;
	int		 bs;		/* the line holds a backslash */
	int		 depth;
	struct fstr	 risk, cmd, action, ctype;
	int		 corr;
	size_t		 npat;
	struct fstr	 pat[FX_MAX];
	size_t		 ntech;
	struct fstr	 tech[FX_MAX];
	int		 has_time;
	double		 time;
	int		 has_red;
	int64_t		 red;
};

/* A string at p: its raw content in *ret, *esc when it holds escapes. */
static int
fx_string(struct fx *x, struct fstr *ret, int *esc)
{
	const char	*p = x->p + 1, *q;
	int		 i;

	*esc = 0;
	if (!x->bs) {
		if ((q = memchr(p, '"', (size_t)(x->end - p))) == NULL)
			return -1;
	} else {
		for (q = p; ; q++) {
			if (q >= x->end)
				return -1;
			if (*q == '"')
				break;
			if (*q != '\\')
				continue;
			*esc = 1;
			if (++q >= x->end)
				return -1;
			switch (*q) {
			case '"': case '\\': case '/': case 'b': case 'f':
			case 'n': case 'r': case 't':
				break;
			case 'u':
				for (i = 0; i < 4; i++) {
					if (++q >= x->end || !((*q >= '0' &&
					    *q <= '9') || (*q >= 'a' &&
					    *q <= 'f') || (*q >= 'A' &&
					    *q <= 'F')))
						return -1;
				}
				break;
			default:
				return -1;
			}
		}
	}
	ret->s = p;
	ret->n = (size_t)(q - p);
	x->p = q + 1;
	return 0;
}

/* A number: strict JSON grammar; *isint when neither '.' nor exponent. */
static int
fx_number(struct fx *x, const char **ret, size_t *len, int *isint)
{
	const char	*p = x->p, *s = p, *e = x->end;

	*isint = 1;
	if (p < e && *p == '-')
		p++;
	if (p >= e)
		return -1;
	if (*p == '0')
		p++;
	else if (*p >= '1' && *p <= '9')
		while (p < e && *p >= '0' && *p <= '9')
			p++;
	else
		return -1;
	if (p < e && *p == '.') {
		*isint = 0;
		if (++p >= e || *p < '0' || *p > '9')
			return -1;
		while (p < e && *p >= '0' && *p <= '9')
			p++;
	}
	if (p < e && (*p == 'e' || *p == 'E')) {
		*isint = 0;
		if (++p < e && (*p == '+' || *p == '-'))
			p++;
		if (p >= e || *p < '0' || *p > '9')
			return -1;
		while (p < e && *p >= '0' && *p <= '9')
			p++;
	}
	*ret = s;
	*len = (size_t)(p - s);
	x->p = p;
	return 0;
}

static int
fx_literal(struct fx *x, const char *w, size_t n)
{
	if ((size_t)(x->end - x->p) < n || memcmp(x->p, w, n) != 0)
		return -1;
	x->p += n;
	return 0;
}

enum { FX_SKIP, FX_TOP, FX_COMMAND, FX_CLASS, FX_PATTERNS, FX_PATTERN,
    FX_BYPASS, FX_TECHS, FX_DECISION, FX_CORRECTION, FX_PERF, FX_PRIVACY,
    FX_REDSTATS };

static int	fx_value(struct fx *, int, int *);

/* The value type at p, for the callers: '"', '{', '[', 'n', 'l' (other). */
static int
fx_kind(const struct fx *x)
{
	if (x->p >= x->end)
		return 0;
	switch (*x->p) {
	case '"': case '{': case '[':
		return *x->p;
	case 'n':
		return 'n';
	default:
		return 'l';
	}
}

/* A string value of interest: escapes, non-strings and null as json-c. */
static int
fx_take_str(struct fx *x, struct fstr *ret)
{
	int	esc;

	ret->s = NULL;
	if (fx_kind(x) != '"')
		return fx_value(x, FX_SKIP, NULL);
	if (fx_string(x, ret, &esc) != 0 || esc)
		return -1;
	return 0;
}

/* An integer or double number of interest; null leaves it absent. */
static int
fx_take_num(struct fx *x, int dbl, int *has, double *d, int64_t *i)
{
	const char	*s;
	char		 tmp[32];
	size_t		 n;
	int		 isint;

	if (fx_kind(x) == 'n')
		return fx_literal(x, "null", 4);
	if (fx_number(x, &s, &n, &isint) != 0 || n >= sizeof tmp)
		return -1;
	memcpy(tmp, s, n);
	tmp[n] = '\0';
	if (isint) {
		if (n - (*s == '-') > 18)
			return -1;
		if (dbl)
			*d = (double)strtoll(tmp, NULL, 10);
		else
			*i = strtoll(tmp, NULL, 10);
	} else {
		if (!dbl)
			return -1;
		*d = strtod(tmp, NULL);
		if (!isfinite(*d))
			return -1;
	}
	*has = 1;
	return 0;
}

/* One member of an object of kind ctx; the key is at k. */
static int
fx_member(struct fx *x, int ctx, const struct fstr *k, unsigned *seen)
{
	static const struct {
		int		 ctx;
		const char	*key;
		int		 sub;	/* object kind of the value, or -1 */
	} keys[] = {
		{ FX_TOP, "command", FX_COMMAND },
		{ FX_TOP, "classification", FX_CLASS },
		{ FX_TOP, "userDecision", FX_DECISION },
		{ FX_TOP, "performance", FX_PERF },
		{ FX_TOP, "privacy", FX_PRIVACY },
		{ FX_COMMAND, "command", -1 },
		{ FX_CLASS, "riskLevel", -1 },
		{ FX_CLASS, "patterns", FX_PATTERNS },
		{ FX_CLASS, "bypassDetection", FX_BYPASS },
		{ FX_PATTERN, "patternId", -1 },
		{ FX_PATTERN, "matched", -1 },
		{ FX_BYPASS, "techniques", FX_TECHS },
		{ FX_DECISION, "action", -1 },
		{ FX_DECISION, "correction", FX_CORRECTION },
		{ FX_CORRECTION, "type", -1 },
		{ FX_PERF, "totalTime", -1 },
		{ FX_PRIVACY, "redactionStats", FX_REDSTATS },
		{ FX_REDSTATS, "redactedCount", -1 },
	};
	size_t	i;
	int	c;

	for (i = 0; i < sizeof keys / sizeof keys[0]; i++)
		if (keys[i].ctx == ctx &&
		    strncmp(keys[i].key, k->s, k->n) == 0 &&
		    keys[i].key[k->n] == '\0')
			break;
	if (i == sizeof keys / sizeof keys[0])
		return fx_value(x, FX_SKIP, NULL);
	if (*seen & (1u << (i & 31)))
		return -1;	/* a duplicate: json-c keeps the last */
	*seen |= 1u << (i & 31);
	c = fx_kind(x);
	switch (ctx) {
	case FX_COMMAND:
		return fx_take_str(x, &x->cmd);
	case FX_CLASS:
		if (keys[i].sub == -1)
			return fx_take_str(x, &x->risk);
		break;
	case FX_PATTERN:
		/* Stored by fx_value(FX_PATTERN) through x->pat[npat]. */
		if (keys[i].key[0] == 'p')
			return fx_take_str(x, &x->pat[x->npat]);
		if (c == 'n')
			return fx_literal(x, "null", 4);
		if (fx_literal(x, "true", 4) == 0)
			return 0;
		if (fx_literal(x, "false", 5) == 0) {
			*seen |= 1u << 31;	/* not matched */
			return 0;
		}
		return -1;
	case FX_DECISION:
		if (keys[i].sub == -1)
			return fx_take_str(x, &x->action);
		if (c == 'n')
			return fx_literal(x, "null", 4);
		x->corr = 1;
		break;
	case FX_CORRECTION:
		return fx_take_str(x, &x->ctype);
	case FX_PERF:
		return fx_take_num(x, 1, &x->has_time, &x->time, NULL);
	case FX_REDSTATS:
		return fx_take_num(x, 0, &x->has_red, NULL, &x->red);
	}
	/* An object or array we look into, when it is one. */
	if (keys[i].sub == FX_PATTERNS || keys[i].sub == FX_TECHS)
		return fx_value(x, c == '[' ? keys[i].sub : FX_SKIP, NULL);
	return fx_value(x, c == '{' ? keys[i].sub : FX_SKIP, NULL);
}

/*
 * Validate and consume one value at p; ctx says what it is to the
 * entry (FX_SKIP: nothing we read).
 */
static int
fx_value(struct fx *x, int ctx, int *unused)
{
	struct fstr	 k, s;
	const char	*num;
	size_t		 n;
	unsigned	 seen;
	int		 esc, c, isint;

	(void)unused;
	if (x->p >= x->end)
		return -1;
	switch (*x->p) {
	case '"':
		return fx_string(x, &s, &esc);
	case 't':
		return fx_literal(x, "true", 4);
	case 'f':
		return fx_literal(x, "false", 5);
	case 'n':
		return fx_literal(x, "null", 4);
	case '[':
		if (++x->depth > FX_DEPTH)
			return -1;
		x->p++;
		if (x->p < x->end && *x->p == ']') {
			x->p++;
			x->depth--;
			return 0;
		}
		for (;;) {
			if (ctx == FX_PATTERNS) {
				if (x->npat == FX_MAX)
					return -1;
				if (fx_kind(x) == '{') {
					x->pat[x->npat].s = NULL;
					if (fx_value(x, FX_PATTERN, NULL) != 0)
						return -1;
				} else if (fx_value(x, FX_SKIP, NULL) != 0)
					return -1;
			} else if (ctx == FX_TECHS) {
				if (x->ntech == FX_MAX)
					return -1;
				c = fx_kind(x);
				if (c == 'n') {
					if (fx_literal(x, "null", 4) != 0)
						return -1;
					x->tech[x->ntech].s = NULL;
					x->tech[x->ntech++].n = 0;
				} else if (c != '"' || fx_string(x,
				    &x->tech[x->ntech++], &esc) != 0 || esc)
					return -1;
			} else if (fx_value(x, FX_SKIP, NULL) != 0)
				return -1;
			if (x->p >= x->end)
				return -1;
			if (*x->p == ']')
				break;
			if (*x->p++ != ',')
				return -1;
		}
		x->p++;
		x->depth--;
		return 0;
	case '{':
		if (++x->depth > FX_DEPTH)
			return -1;
		x->p++;
		seen = 0;
		if (x->p < x->end && *x->p == '}') {
			x->p++;
			x->depth--;
			goto done;
		}
		for (;;) {
			if (fx_kind(x) != '"' || fx_string(x, &k, &esc) != 0)
				return -1;
			if (x->p >= x->end || *x->p++ != ':')
				return -1;
			if (ctx == FX_SKIP) {
				if (fx_value(x, FX_SKIP, NULL) != 0)
					return -1;
			} else if (esc || fx_member(x, ctx, &k, &seen) != 0)
				return -1;
			if (x->p >= x->end)
				return -1;
			if (*x->p == '}')
				break;
			if (*x->p++ != ',')
				return -1;
		}
		x->p++;
		x->depth--;
	done:
		/* A pattern counts with its id, unless matched is false. */
		if (ctx == FX_PATTERN && x->pat[x->npat].s != NULL &&
		    !(seen & (1u << 31)))
			x->npat++;
		return 0;
	default:
		return fx_number(x, &num, &n, &isint);
	}
}

/* Extract the fields of an entry line, or -1 for json-c to decide. */
static int
fx_parse(struct fx *x, const char *line, size_t len)
{
	memset(x, 0, offsetof(struct fx, pat));
	x->npat = x->ntech = 0;
	x->has_time = x->has_red = 0;
	if (len < 2 || line[0] != '{' || memchr(line, '\0', len) != NULL)
		return -1;
	x->p = line;
	x->end = line + len;
	x->bs = memchr(line, '\\', len) != NULL;
	if (fx_value(x, FX_TOP, NULL) != 0 || x->p != x->end)
		return -1;
	return 0;
}

static void
bump_n(struct json_object *counts, const struct fstr *v)
{
	char	 small[256], *key;

	if (v->s == NULL) {
		bump(counts, NULL);
		return;
	}
	key = v->n < sizeof small ? small : xmalloc(v->n + 1);
	memcpy(key, v->s, v->n);
	key[v->n] = '\0';
	bump(counts, key);
	if (key != small)
		free(key);
}

/* agg_entry() for an extracted line, in the same order. */
static void
agg_fast(struct agg *a, const struct fx *x)
{
	struct fstr	cats[FX_MAX], c;
	size_t		i, j, ncat = 0;

	a->entries++;
	bump_n(a->c[0], &x->risk);
	bump_n(a->c[1], &x->cmd);
	for (i = 0; i < x->npat; i++) {
		c = x->pat[i];
		for (j = 0; j < c.n && c.s[j] != ':' && c.s[j] != '.'; j++)
			;
		c.n = j < 63 ? j : 63;
		for (j = 0; j < ncat; j++)
			if (cats[j].n == c.n && memcmp(cats[j].s, c.s,
			    c.n) == 0)
				break;
		if (j < ncat)
			continue;
		cats[ncat++] = c;
		bump_n(a->c[2], &c);
	}
	if (ncat == 0)
		bump(a->c[2], "none");
	bump_n(a->c[3], &x->action);
	if (x->corr)
		bump_n(a->c[4], &x->ctype);
	for (i = 0; i < x->ntech; i++)
		bump_n(a->c[5], &x->tech[i]);
	if (x->has_time) {
		if (a->ntimes == a->atimes) {
			a->atimes = a->atimes == 0 ? 256 : a->atimes * 2;
			a->times = xreallocarray(a->times, a->atimes,
			    sizeof *a->times);
		}
		a->times[a->ntimes++] = x->time;
		a->sum += x->time;
	}
	if (x->has_red)
		a->redacted += x->red;
}

struct aggset {
	struct agg	*v;
	size_t		 n;
	struct agg	*cur[2];	/* the week and month of the file */
	json_tokener	*tok;
	struct lset	*skip;		/* lines already counted */
	struct fx	 fx;		/* the fast path's scratch */
};

static int
agg_line(void *arg, const char *line, size_t len)
{
	struct aggset		*as = arg;
	struct json_object	*e;
	int			 i;

	if (len == 0 || len > INT32_MAX)
		return 1;
	if (as->skip != NULL && lset_has(as->skip, line, len))
		return 1;
	if (fx_parse(&as->fx, line, len) == 0) {
		for (i = 0; i < 2; i++)
			if (as->cur[i] != NULL)
				agg_fast(as->cur[i], &as->fx);
		return 1;
	}
	json_tokener_reset(as->tok);
	e = json_tokener_parse_ex(as->tok, line, (int)len);
	if (e == NULL)
		return 1;
	for (i = 0; i < 2; i++)
		if (as->cur[i] != NULL)
			agg_entry(as->cur[i], e);
	json_object_put(e);
	return 1;
}

static struct agg *
agg_find(struct aggset *as, const char *name, int create)
{
	size_t	i;

	for (i = 0; i < as->n; i++)
		if (strcmp(as->v[i].name, name) == 0)
			return &as->v[i];
	if (!create)
		return NULL;
	as->v = xreallocarray(as->v, as->n + 1, sizeof *as->v);
	memset(&as->v[as->n], 0, sizeof *as->v);
	snprintf(as->v[as->n].name, sizeof as->v[as->n].name, "%s", name);
	for (i = 0; i < 6; i++)
		as->v[as->n].c[i] = json_object_new_object();
	return &as->v[as->n++];
}

/* The weekly and monthly aggregate names of a day, and their bounds. */
static void
periods(const char *day, char week[32], char month[32], char wfrom[11],
    char wto[11], char mfrom[11], char mto[11])
{
	int64_t		n, monday;
	char		key[16];
	int		y;
	unsigned	m, d;

	day_num(day, &n);
	monday = iso_week(n, key);
	snprintf(week, 32, "weekly-%s", key);
	num_day(monday, wfrom);
	num_day(monday + 6, wto);
	snprintf(month, 32, "monthly-%.7s", day);
	civil_from_days(n, &y, &m, &d);
	num_day(days_from_civil(y, m, 1), mfrom);
	num_day(days_from_civil(m == 12 ? y + 1 : y, m == 12 ? 1 : m + 1, 1) -
	    1, mto);
}

static int
dcmp(const void *a, const void *b)
{
	return *(const double *)a < *(const double *)b ? -1 :
	    *(const double *)a > *(const double *)b;
}

static int
write_file_atomic(const char *path, const char *txt, size_t len,
    const char *step)
{
	char	*tmp, *dir, *base;
	int	 fd, r = 0;

	dir = dir_of(path);
	base = strrchr(path, '/') != NULL ? strrchr(path, '/') + 1 :
	    (char *)(uintptr_t)path;
	xasprintf(&tmp, "%s/.%s.tmp", dir, base);
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW,
	    0600);
	if (fd == -1)
		r = -errno;
	else {
		if ((r = write_all(fd, txt, len)) == 0 && fsync(fd) == -1)
			r = -errno;
		close(fd);
		if (r == 0 && step != NULL)
			rotate_crash_point(step);
		if (r == 0 && rename(tmp, path) == -1)
			r = -errno;
		if (r != 0)
			unlink(tmp);
		else
			r = fsync_dir(dir);
	}
	free(tmp);
	free(dir);
	return r;
}

static int
agg_write(const char *dir, struct agg *a)
{
	struct json_object	*o, *perf;
	const char		*txt;
	char			*path, ts[ISO8601_LEN];
	size_t			 len, i;
	int			 r;

	xasprintf(&path, "%s/%s.json", dir, a->name);
	if (a->entries == 0) {
		r = unlink(path) == -1 && errno != ENOENT ? -errno : 0;
		free(path);
		return r;
	}
	qsort(a->times, a->ntimes, sizeof *a->times, dcmp);
	o = json_object_new_object();
	json_object_object_add(o, "version", json_object_new_string("1.0.0"));
	json_object_object_add(o, "period", json_object_new_string(
	    a->name[0] == 'w' ? "weekly" : "monthly"));
	json_object_object_add(o, "key", json_object_new_string(
	    strchr(a->name, '-') + 1));
	json_object_object_add(o, "from", json_object_new_string(a->from));
	json_object_object_add(o, "to", json_object_new_string(a->to));
	clock_iso8601_utc(clock_now_ms(), ts);
	json_object_object_add(o, "generated", json_object_new_string(ts));
	json_object_object_add(o, "entries", json_object_new_int64(
	    a->entries));
	for (i = 0; i < 6; i++)
		json_object_object_add(o, agg_keys[i], json_object_get(a->c[i]));
	perf = json_object_new_object();
	json_object_object_add(perf, "measured",
	    json_object_new_int64((int64_t)a->ntimes));
	json_object_object_add(perf, "avgTotalTime", json_num(a->ntimes > 0 ?
	    a->sum / (double)a->ntimes : 0));
	/* Nearest-rank p95. */
	json_object_object_add(perf, "p95TotalTime", json_num(a->ntimes > 0 ?
	    a->times[(a->ntimes * 95 + 99) / 100 - 1] : 0));
	json_object_object_add(o, "performance", perf);
	json_object_object_add(o, "redactedCount",
	    json_object_new_int64(a->redacted));
	txt = json_object_to_json_string_length(o, JSON_C_TO_STRING_PRETTY |
	    JSON_C_TO_STRING_SPACED | JSON_C_TO_STRING_NOSLASHESCAPE, &len);
	r = write_file_atomic(path, txt, len, "aggregate-tmp");
	json_object_put(o);
	free(path);
	return r < 0 ? r : 1;
}

/* Recompute the aggregates touching the given days. */
int
rotate_aggregate(const char *data, char (*days)[11], size_t ndays,
    char **cause)
{
	static const char	*subs[2] = { "archive", "current" };
	static const char	*sfx[2] = { ".ndjson.gz", ".ndjson" };
	struct aggset		 as;
	struct lset		 set;
	struct agg		*a;
	DIR			*dp;
	struct dirent		*de;
	char			 w[32], m[32], wf[11], wt[11], mf[11], mt[11];
	char			 day[11], *dir, *path;
	size_t			 i, j;
	int			 r = 0, written = 0;

	memset(&as, 0, sizeof as);
	for (i = 0; i < ndays; i++) {
		periods(days[i], w, m, wf, wt, mf, mt);
		a = agg_find(&as, w, 1);
		memcpy(a->from, wf, 11);
		memcpy(a->to, wt, 11);
		a = agg_find(&as, m, 1);
		memcpy(a->from, mf, 11);
		memcpy(a->to, mt, 11);
	}
	if (as.n == 0)
		return 0;
	as.tok = json_tokener_new_ex(64);
	for (j = 0; j < 2 && r == 0; j++) {
		xasprintf(&dir, "%s/%s", data, subs[j]);
		if ((dp = opendir(dir)) == NULL) {
			free(dir);
			continue;
		}
		while ((de = readdir(dp)) != NULL) {
			if (!day_name(de->d_name, sfx[j], day))
				continue;
			periods(day, w, m, wf, wt, mf, mt);
			as.cur[0] = agg_find(&as, w, 0);
			as.cur[1] = agg_find(&as, m, 0);
			if (as.cur[0] == NULL && as.cur[1] == NULL)
				continue;
			/*
			 * A day with both files (a late write, or a run
			 * stopped after the rename): count a line once.
			 */
			memset(&set, 0, sizeof set);
			if (j == 1) {
				xasprintf(&path, "%s/archive/%s.ndjson.gz",
				    data, day);
				if (rotate_each_line(path, lset_add, &set) ==
				    0 && set.n > 0) {
					qsort(set.v, set.n, sizeof *set.v,
					    lhash_cmp);
					as.skip = &set;
				}
				free(path);
			}
			xasprintf(&path, "%s/%s", dir, de->d_name);
			r = rotate_each_line(path, agg_line, &as);
			as.skip = NULL;
			free(set.v);
			if (r != 0 && r != -ENOENT) {
				xasprintf(cause, "cannot read '%s': %s", path,
				    strerror(-r));
				free(path);
				break;
			}
			r = 0;
			free(path);
		}
		closedir(dp);
		free(dir);
	}
	json_tokener_free(as.tok);
	xasprintf(&dir, "%s/aggregated", data);
	for (i = 0; i < as.n; i++) {
		if (r >= 0) {
			int w2 = agg_write(dir, &as.v[i]);

			if (w2 < 0) {
				r = w2;
				xasprintf(cause, "cannot write '%s/%s.json': "
				    "%s", dir, as.v[i].name, strerror(-w2));
			} else
				written += w2;
		}
		for (j = 0; j < 6; j++)
			json_object_put(as.v[i].c[j]);
		free(as.v[i].times);
	}
	free(dir);
	free(as.v);
	return r < 0 ? r : written;
}

/* Remove leftover temp files of an interrupted run. */
static void
remove_temps(struct rot *rt, const char *dir)
{
	DIR		*dp;
	struct dirent	*de;
	char		*path;
	size_t		 len;

	if ((dp = opendir(dir)) == NULL)
		return;
	while ((de = readdir(dp)) != NULL) {
		len = strlen(de->d_name);
		if (de->d_name[0] != '.' || len < 5 ||
		    strcmp(de->d_name + len - 4, ".tmp") != 0)
			continue;
		xasprintf(&path, "%s/%s", dir, de->d_name);
		if (rt->o->dry_run)
			buf_addf(&rt->rep->log, "would remove the leftover "
			    "'%s'\n", path);
		else if (unlink(path) == 0) {
			rt->rep->stale_temps++;
			buf_addf(&rt->rep->log, "removed the leftover '%s'\n",
			    path);
		}
		free(path);
	}
	closedir(dp);
}

struct daylist {
	char	(*v)[11];
	size_t	  n;
};

static void
daylist_add(struct daylist *l, const char *day)
{
	size_t	i;

	for (i = 0; i < l->n; i++)
		if (strcmp(l->v[i], day) == 0)
			return;
	l->v = xreallocarray(l->v, l->n + 1, sizeof *l->v);
	memcpy(l->v[l->n++], day, 11);
}

static int
daycmp(const void *a, const void *b)
{
	return strcmp(a, b);
}

/* List the days of dir's files named YYYY-MM-DD + sfx. */
static void
list_days(const char *dir, const char *sfx, struct daylist *l)
{
	DIR		*dp;
	struct dirent	*de;
	char		 day[11];

	if ((dp = opendir(dir)) == NULL)
		return;
	while ((de = readdir(dp)) != NULL)
		if (day_name(de->d_name, sfx, day))
			daylist_add(l, day);
	closedir(dp);
	if (l->n > 0)
		qsort(l->v, l->n, sizeof *l->v, daycmp);
}

static void
prune_file(struct rot *rt, const char *dir, const char *name)
{
	char	*path;

	xasprintf(&path, "%s/%s", dir, name);
	if (rt->o->dry_run)
		buf_addf(&rt->rep->log, "would delete '%s'\n", path);
	else if (unlink(path) == 0) {
		buf_addf(&rt->rep->log, "deleted '%s' (past retention)\n",
		    path);
		if (dir == rt->aggregated)
			rt->rep->pruned_aggregates++;
		else
			rt->rep->pruned++;
	}
	free(path);
}

/* Delete detailed data past retention and aggregates past a year. */
static void
prune(struct rot *rt)
{
	struct daylist	 l = { NULL, 0 };
	DIR		*dp;
	struct dirent	*de;
	char		 cut[11], acut[11], name[64], end[11];
	int64_t		 t, n, wk;
	size_t		 i;
	int		 y, m;
	char		 c;

	day_num(rt->today, &t);
	num_day(t - rt->o->retention_days, cut);
	num_day(t - AGG_KEEP_DAYS, acut);
	list_days(rt->archive, ".ndjson.gz", &l);
	for (i = 0; i < l.n; i++)
		if (strcmp(l.v[i], cut) < 0) {
			snprintf(name, sizeof name, "%s.ndjson.gz", l.v[i]);
			prune_file(rt, rt->archive, name);
		}
	l.n = 0;
	list_days(rt->archive, ".annotations.ndjson.gz", &l);
	for (i = 0; i < l.n; i++)
		if (strcmp(l.v[i], cut) < 0) {
			snprintf(name, sizeof name, "%s.annotations.ndjson.gz",
			    l.v[i]);
			prune_file(rt, rt->archive, name);
		}
	l.n = 0;
	list_days(rt->current, ".ndjson", &l);
	for (i = 0; i < l.n; i++)
		if (strcmp(l.v[i], cut) < 0 && strcmp(l.v[i], rt->today) < 0) {
			snprintf(name, sizeof name, "%s.ndjson", l.v[i]);
			prune_file(rt, rt->current, name);
		}
	free(l.v);
	if ((dp = opendir(rt->aggregated)) == NULL)
		return;
	while ((de = readdir(dp)) != NULL) {
		if (sscanf(de->d_name, "weekly-%4d-%2d.jso%c", &y, &m, &c) ==
		    3 && strlen(de->d_name) == 19) {
			/* The Monday of ISO week 1 is the one near Jan 4. */
			n = days_from_civil(y, 1, 4);
			wk = n - ((n + 3) % 7 + 7) % 7 + (int64_t)(m - 1) * 7;
			num_day(wk + 6, end);
		} else if (sscanf(de->d_name, "monthly-%4d-%2d.jso%c", &y, &m,
		    &c) == 3 && strlen(de->d_name) == 20 && m >= 1 &&
		    m <= 12) {
			num_day(days_from_civil(m == 12 ? y + 1 : y,
			    m == 12 ? 1 : (unsigned)m + 1, 1) - 1, end);
		} else
			continue;
		if (strcmp(end, acut) < 0)
			prune_file(rt, rt->aggregated, de->d_name);
	}
	closedir(dp);
}

/* Whether a weekly or monthly aggregate of day is missing. */
static int
agg_missing(struct rot *rt, const char *day)
{
	char	w[32], m[32], wf[11], wt[11], mf[11], mt[11], *p;
	int	missing;

	periods(day, w, m, wf, wt, mf, mt);
	xasprintf(&p, "%s/%s.json", rt->aggregated, w);
	missing = access(p, F_OK) != 0;
	free(p);
	xasprintf(&p, "%s/%s.json", rt->aggregated, m);
	missing |= access(p, F_OK) != 0;
	free(p);
	return missing;
}

/* Rotate, aggregate, prune. */
int
rotate_run(const struct rotate_opts *o, struct rotate_report *rep,
    char **cause)
{
	struct rot	 rt;
	struct daylist	 todo = { NULL, 0 }, agg = { NULL, 0 };
	struct daylist	 arcs = { NULL, 0 };
	char		 cut[11], *why = NULL;
	int64_t		 t;
	size_t		 i;
	int		 lock = -1, r, failed = 0;

	memset(rep, 0, sizeof *rep);
	memset(&rt, 0, sizeof rt);
	rt.o = o;
	rt.rep = rep;
	rt.now = o->now_ms != 0 ? o->now_ms : clock_now_ms();
	clock_day(rt.now, rt.today);
	if ((r = rotate_lock(o->data, o->wait, &lock)) != 0) {
		if (r != -EAGAIN)
			xasprintf(cause, "cannot lock '%s/.rotate.lock': %s",
			    o->data, strerror(-r));
		return r;
	}
	rotate_crash_point("locked");
	xasprintf(&rt.current, "%s/current", o->data);
	xasprintf(&rt.archive, "%s/archive", o->data);
	xasprintf(&rt.aggregated, "%s/aggregated", o->data);
	remove_temps(&rt, rt.archive);
	remove_temps(&rt, rt.aggregated);
	remove_temps(&rt, rt.current);

	/* Finished days only: today's file belongs to the daemon. */
	list_days(rt.current, ".ndjson", &todo);
	for (i = 0; i < todo.n; )
		if (strcmp(todo.v[i], rt.today) >= 0)
			memmove(todo.v[i], todo.v[i + 1],
			    (--todo.n - i) * sizeof *todo.v);
		else
			i++;

	/*
	 * Aggregate first, from the untouched sources: expired entries are
	 * dropped from the archives, not from the statistics.
	 */
	day_num(rt.today, &t);
	num_day(t - o->retention_days, cut);
	for (i = 0; i < todo.n; i++)
		daylist_add(&agg, todo.v[i]);
	list_days(rt.archive, ".ndjson.gz", &arcs);
	for (i = 0; i < arcs.n; i++)
		if (strcmp(arcs.v[i], cut) >= 0 && agg_missing(&rt, arcs.v[i]))
			daylist_add(&agg, arcs.v[i]);
	if (o->dry_run) {
		if (agg.n > 0)
			buf_addf(&rep->log, "would recompute the aggregates "
			    "of %zu days\n", agg.n);
	} else if (agg.n > 0) {
		r = rotate_aggregate(o->data, agg.v, agg.n, &why);
		if (r < 0) {
			xasprintf(cause, "%s", why);
			goto out;
		}
		rep->aggregates = r;
		buf_addf(&rep->log, "wrote %d weekly and monthly aggregates\n",
		    r);
	}
	rotate_crash_point("aggregated");

	for (i = 0; i < todo.n; i++) {
		if (o->progress != NULL)
			o->progress(o->progress_arg, todo.v[i], i, todo.n);
		free(why);
		why = NULL;
		if ((r = rotate_day(&rt, todo.v[i], &why)) != 0) {
			/* Keep going: one bad day must not block the rest. */
			buf_addf(&rep->log, "error: %s\n", why);
			if (failed++ == 0)
				xasprintf(cause, "%s", why);
		}
	}
	/* Annotations of finished days, with or without a day file left. */
	todo.n = 0;
	list_days(rt.current, ".annotations.ndjson", &todo);
	for (i = 0; i < todo.n; i++)
		if (strcmp(todo.v[i], rt.today) < 0)
			rotate_annotations(&rt, todo.v[i]);
	rotate_crash_point("archived");
	prune(&rt);
	rotate_crash_point("pruned");
	if (!o->dry_run && o->store != NULL && store_write_metadata(o->store,
	    o->level != NULL ? o->level : "standard", o->retention_days) != 0)
		buf_addf(&rep->log, "error: cannot write metadata.json\n");
	rotate_crash_point("done");
	r = failed > 0 ? -EIO : 0;
out:
	free(why);
	free(todo.v);
	free(agg.v);
	free(arcs.v);
	free(rt.current);
	free(rt.archive);
	free(rt.aggregated);
	rotate_unlock(lock);
	return r;
}

/* Free a report's contents. */
void
rotate_report_release(struct rotate_report *rep)
{
	buf_release(&rep->log);
}

/* The report as JSON. */
struct json_object *
rotate_report_json(const struct rotate_report *rep)
{
	struct json_object	*o, *a;
	const char		*p, *nl;

	o = json_object_new_object();
#define ADD(k, v) json_object_object_add(o, k, json_object_new_int64(v))
	ADD("archived", rep->archived);
	ADD("appended", rep->appended);
	ADD("recovered", rep->recovered);
	ADD("entries", rep->entries);
	ADD("expired", rep->expired);
	ADD("bytesIn", rep->bytes_in);
	ADD("bytesOut", rep->bytes_out);
	ADD("aggregates", rep->aggregates);
	ADD("pruned", rep->pruned);
	ADD("prunedAggregates", rep->pruned_aggregates);
	ADD("staleTemps", rep->stale_temps);
#undef ADD
	a = json_object_new_array();
	for (p = buf_str(&rep->log); *p != '\0'; p = nl + 1) {
		if ((nl = strchr(p, '\n')) == NULL)
			nl = p + strlen(p);
		json_object_array_add(a, json_object_new_string_len(p,
		    (int)(nl - p)));
		if (*nl == '\0')
			break;
	}
	json_object_object_add(o, "actions", a);
	return o;
}

struct rewrite {
	struct sink		*k;
	rotate_filter_fn	 fn;
	void			*arg;
};

static int
rewrite_line(void *arg, const char *line, size_t len)
{
	struct rewrite	*rw = arg;
	int		 r;

	if (len == 0)
		return 1;
	if ((r = rw->fn(rw->arg, line, len)) < 0)
		return r;
	if (r == 0) {
		rw->k->dropped++;
		return 1;
	}
	return sink_add(rw->k, line, len) == 0 ? 1 : -EIO;
}

/* Rewrite a data file keeping the lines fn keeps. */
int
rotate_rewrite(const char *path, rotate_filter_fn fn, void *arg,
    int64_t *ret_kept, int64_t *ret_dropped, char **cause)
{
	struct rewrite	 rw;
	struct sink	 k;
	char		*dir, *tmp;
	const char	*base;
	size_t		 len = strlen(path);
	int64_t		 kept, dropped;
	int		 r, gz;

	gz = len > 3 && strcmp(path + len - 3, ".gz") == 0;
	dir = dir_of(path);
	base = strrchr(path, '/') != NULL ? strrchr(path, '/') + 1 : path;
	xasprintf(&tmp, "%s/.%s.tmp", dir, base);
	free(dir);
	if ((r = sink_open(&k, tmp, gz)) != 0) {
		xasprintf(cause, "cannot create '%s': %s", tmp, strerror(-r));
		free(tmp);
		return r;
	}
	free(tmp);
	rw.k = &k;
	rw.fn = fn;
	rw.arg = arg;
	if ((r = rotate_each_line(path, rewrite_line, &rw)) != 0) {
		sink_abort(&k);
		xasprintf(cause, "cannot read '%s': %s", path, strerror(-r));
		return r;
	}
	kept = k.kept;
	dropped = k.dropped;
	if (dropped == 0) {
		/* Nothing to remove: leave the file as it is. */
		sink_abort(&k);
	} else if ((r = sink_commit(&k, path, 1)) != 0) {
		xasprintf(cause, "cannot rewrite '%s': %s", path,
		    strerror(-r));
		return r;
	}
	*ret_kept = kept;
	*ret_dropped = dropped;
	return 0;
}
