/*
 * The dataset reader: a list of files, opened one at a time through zlib
 * (gzdopen reads plain files transparently), cut into lines in a fixed
 * buffer.
 */
#include "dataset.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <json-c/json.h>
#include <zlib.h>

#include "clock.h"
#include "xmalloc.h"

#define CHUNK		(256 * 1024)
#define DAY_MS		(24 * 3600 * 1000LL)

struct dsfile {
	char		*path;
	char		*key;		/* sort key */
	int		 whole;		/* .json: one document */
	int		 collect;	/* archive of a day also in current */
	int		 dedupe;	/* current file of such a day */
	uint64_t	 size;
};

struct dataset {
	struct dsfile	*files;
	size_t		 nfiles, afiles;
	size_t		 cur;		/* the open file, or nfiles */
	struct dataset_filter filter;
	int		 filtered;

	gzFile		 gz;
	char		*buf;
	size_t		 cap, start, end;
	int		 eof, skipping, opened;
	int64_t		 lineno;
	uint64_t	 done;		/* bytes of the closed files */

	int		 lockfd;	/* shared .rotate.lock, or -1 */
	uint64_t	*seen;		/* line hashes of a collect file */
	size_t		 nseen, aseen;

	char		*ann_key;	/* root and day of ann */
	struct json_object *ann;	/* entry id -> merged annotations */
};

static void
add_file(struct dataset *ds, const char *path, const char *key, int whole,
    uint64_t size)
{
	struct dsfile	*f;

	if (ds->nfiles == ds->afiles) {
		ds->afiles = ds->afiles ? ds->afiles * 2 : 16;
		ds->files = xreallocarray(ds->files, ds->afiles,
		    sizeof *ds->files);
	}
	f = &ds->files[ds->nfiles++];
	memset(f, 0, sizeof *f);
	f->path = xstrdup(path);
	f->key = xstrdup(key);
	f->whole = whole;
	f->size = size;
}

static int
has_suffix(const char *s, const char *suffix)
{
	size_t	ls = strlen(s), lx = strlen(suffix);

	return ls >= lx && strcmp(s + ls - lx, suffix) == 0;
}

/* "YYYY-MM-DD" followed by suffix exactly. */
static int
is_day_name(const char *name, const char *suffix)
{
	int	i;

	for (i = 0; i < 10; i++) {
		if (i == 4 || i == 7) {
			if (name[i] != '-')
				return 0;
		} else if (name[i] < '0' || name[i] > '9')
			return 0;
	}
	return strcmp(name + 10, suffix) == 0;
}

static int
cmp_key(const void *a, const void *b)
{
	const struct dsfile	*fa = a, *fb = b;

	return strcmp(fa->key, fb->key);
}

static void
init_reader(struct dataset *ds)
{
	ds->cap = DATASET_LINE_MAX + CHUNK;
	ds->buf = xmalloc(ds->cap);
	ds->filter.since_ms = DATASET_NO_SINCE;
	ds->filter.until_ms = DATASET_NO_UNTIL;
	ds->lockfd = -1;
}

/*
 * The day files of archive/ (rank 1: .ndjson.gz) or current/ (rank 2:
 * .ndjson).  The key orders by day, then archive before current.
 */
static void
scan_day_dir(struct dataset *ds, const char *dir, int plain_rank)
{
	DIR		*d;
	struct dirent	*de;
	struct stat	 st;
	char		*path, key[16];

	if ((d = opendir(dir)) == NULL)
		return;
	while ((de = readdir(d)) != NULL) {
		int	rank;

		if (is_day_name(de->d_name, ".ndjson.gz") && plain_rank == 1)
			rank = 0;
		else if (is_day_name(de->d_name, ".ndjson") && plain_rank == 2)
			rank = 2;
		else
			continue;
		xasprintf(&path, "%s/%s", dir, de->d_name);
		if (stat(path, &st) == 0 && S_ISREG(st.st_mode)) {
			memcpy(key, de->d_name, 10);
			key[10] = ' ';
			key[11] = (char)('0' + rank);
			key[12] = '\0';
			add_file(ds, path, key, 0, (uint64_t)st.st_size);
		}
		free(path);
	}
	closedir(d);
}

/* Open the dataset of a learning-data directory. */
int
dataset_open(const char *datadir, const struct dataset_filter *filter,
    struct dataset **ret, char **cause)
{
	struct dataset	*ds;
	char		*dir;
	size_t		 i, n;

	(void)cause;
	ds = xcalloc(1, sizeof *ds);
	init_reader(ds);
	/*
	 * Rotation and purge rewrite files under an exclusive lock; a
	 * shared one keeps them out while we read.
	 */
	xasprintf(&dir, "%s/.rotate.lock", datadir);
	ds->lockfd = open(dir, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (ds->lockfd < 0)
		ds->lockfd = open(dir, O_RDONLY | O_CLOEXEC);
	if (ds->lockfd >= 0) {
		while (flock(ds->lockfd, LOCK_SH) != 0 && errno == EINTR)
			;
	}
	free(dir);
	if (filter != NULL) {
		ds->filter = *filter;
		ds->filtered = filter->since_ms != DATASET_NO_SINCE ||
		    filter->until_ms != DATASET_NO_UNTIL;
	}
	xasprintf(&dir, "%s/archive", datadir);
	scan_day_dir(ds, dir, 1);
	free(dir);
	xasprintf(&dir, "%s/current", datadir);
	scan_day_dir(ds, dir, 2);
	free(dir);
	if (ds->nfiles > 0)
		qsort(ds->files, ds->nfiles, sizeof *ds->files, cmp_key);

	/* Keep one file per day, and only days the filter can reach. */
	for (i = n = 0; i < ds->nfiles; i++) {
		struct dsfile	*f = &ds->files[i];
		int64_t		 day;
		char		 d[11];
		int		 keep = 1;

		memcpy(d, f->key, 10);
		d[10] = '\0';
		if (keep && ds->filtered && clock_parse(d, &day) == 0) {
			/* A day's file may hold times of other zones. */
			if (ds->filter.since_ms != DATASET_NO_SINCE &&
			    day + 2 * DAY_MS < ds->filter.since_ms)
				keep = 0;
			if (ds->filter.until_ms != DATASET_NO_UNTIL &&
			    day - DAY_MS > ds->filter.until_ms)
				keep = 0;
		}
		if (keep)
			ds->files[n++] = *f;
		else {
			free(f->path);
			free(f->key);
		}
	}
	ds->nfiles = n;
	/*
	 * A day in both places: current/ holds late lines (or, after a
	 * rotation stopped half-way, lines already archived); read the
	 * archive, then only the lines of current/ it lacks.
	 */
	for (i = 1; i < ds->nfiles; i++) {
		if (strncmp(ds->files[i - 1].key, ds->files[i].key, 10) == 0) {
			ds->files[i - 1].collect = 1;
			ds->files[i].dedupe = 1;
		}
	}
	*ret = ds;
	return 0;
}

static int
scan_tree(struct dataset *ds, const char *dir, int depth, char **cause)
{
	struct dirent	**names = NULL;
	struct stat	  st;
	char		 *path;
	int		  i, n, r = 0;

	if ((n = scandir(dir, &names, NULL, alphasort)) < 0) {
		r = -errno;
		xasprintf(cause, "cannot read '%s': %s", dir, strerror(-r));
		return r;
	}
	for (i = 0; i < n; i++) {
		const char	*name = names[i]->d_name;

		if (name[0] == '.' || r != 0)
			continue;
		xasprintf(&path, "%s/%s", dir, name);
		if (stat(path, &st) != 0)
			;
		else if (S_ISDIR(st.st_mode) && depth < 2)
			r = scan_tree(ds, path, depth + 1, cause);
		else if (S_ISREG(st.st_mode) && (has_suffix(name, ".ndjson") ||
		    has_suffix(name, ".ndjson.gz")))
			add_file(ds, path, path, 0, (uint64_t)st.st_size);
		free(path);
	}
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return r;
}

/* Open files and directories given by the user. */
int
dataset_open_paths(char *const *paths, size_t npaths, struct dataset **ret,
    char **cause)
{
	struct dataset	*ds;
	struct stat	 st;
	size_t		 i;
	int		 r = 0, fd;

	ds = xcalloc(1, sizeof *ds);
	init_reader(ds);
	for (i = 0; i < npaths && r == 0; i++) {
		const char	*p = paths[i];

		if (stat(p, &st) != 0) {
			r = -errno;
			xasprintf(cause, "cannot open '%s': %s", p,
			    strerror(errno));
		} else if (S_ISDIR(st.st_mode))
			r = scan_tree(ds, p, 0, cause);
		else if (!has_suffix(p, ".ndjson") &&
		    !has_suffix(p, ".ndjson.gz") && !has_suffix(p, ".json")) {
			r = -EINVAL;
			xasprintf(cause, "'%s' is not a .ndjson, .ndjson.gz or "
			    ".json file or a directory", p);
		} else if ((fd = open(p, O_RDONLY | O_CLOEXEC)) < 0) {
			r = -errno;
			xasprintf(cause, "cannot open '%s': %s", p,
			    strerror(errno));
		} else {
			close(fd);
			add_file(ds, p, p, has_suffix(p, ".json"),
			    (uint64_t)st.st_size);
		}
	}
	if (r != 0) {
		dataset_free(ds);
		return r;
	}
	*ret = ds;
	return 0;
}

static uint64_t
hash_line(const char *p, size_t len)
{
	uint64_t	h = 0xcbf29ce484222325ULL;	/* FNV-1a */
	size_t		i;

	for (i = 0; i < len; i++) {
		h ^= (unsigned char)p[i];
		h *= 0x100000001b3ULL;
	}
	return h;
}

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t	x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static void
seen_add(struct dataset *ds, uint64_t h)
{
	if (ds->nseen == ds->aseen) {
		ds->aseen = ds->aseen ? ds->aseen * 2 : 1024;
		ds->seen = xreallocarray(ds->seen, ds->aseen,
		    sizeof *ds->seen);
	}
	ds->seen[ds->nseen++] = h;
}

static void
close_file(struct dataset *ds)
{
	if (ds->gz != NULL) {
		gzclose(ds->gz);
		ds->gz = NULL;
	}
	if (ds->cur < ds->nfiles && ds->files[ds->cur].collect &&
	    ds->nseen > 0)
		qsort(ds->seen, ds->nseen, sizeof *ds->seen, cmp_u64);
	if (ds->cur < ds->nfiles && ds->files[ds->cur].dedupe)
		ds->nseen = 0;
	if (ds->cur < ds->nfiles)
		ds->done += ds->files[ds->cur].size;
	ds->cur++;
	ds->opened = 0;
}

static int
open_file(struct dataset *ds, char **cause)
{
	const char	*path = ds->files[ds->cur].path;
	int		 fd, r;

	ds->start = ds->end = 0;
	ds->eof = ds->skipping = 0;
	ds->lineno = 0;
	ds->opened = 1;
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0) {
		r = -errno;
		xasprintf(cause, "cannot open '%s': %s", path, strerror(-r));
		return r;
	}
	if ((ds->gz = gzdopen(fd, "rb")) == NULL) {
		close(fd);
		xasprintf(cause, "cannot open '%s': out of memory", path);
		return -ENOMEM;
	}
	gzbuffer(ds->gz, CHUNK);
	return 0;
}

/* Read more into the buffer; sets eof.  Returns 0 or -EIO. */
static int
fill(struct dataset *ds, char **cause)
{
	int	n, errnum;

	if (ds->start > 0) {
		memmove(ds->buf, ds->buf + ds->start, ds->end - ds->start);
		ds->end -= ds->start;
		ds->start = 0;
	}
	n = gzread(ds->gz, ds->buf + ds->end, (unsigned)(ds->cap - ds->end));
	if (n < 0) {
		const char	*msg = gzerror(ds->gz, &errnum);

		xasprintf(cause, "%s: read error: %s",
		    ds->files[ds->cur].path, errnum == Z_ERRNO ?
		    strerror(errno) : msg);
		return -EIO;
	}
	if (n == 0)
		ds->eof = 1;
	ds->end += (size_t)n;
	return 0;
}

/* The next raw line of the open file: 1, 0 at its end, or -errno. */
static int
next_raw(struct dataset *ds, struct dataset_line *l, char **cause)
{
	struct dsfile	*f = &ds->files[ds->cur];
	char		*nl;
	int		 r;

	for (;;) {
		nl = NULL;
		if (!f->whole && ds->end > ds->start)
			nl = memchr(ds->buf + ds->start, '\n',
			    ds->end - ds->start);
		if (nl != NULL || (ds->eof && ds->end > ds->start)) {
			size_t	len = nl != NULL ? (size_t)(nl -
			    (ds->buf + ds->start)) : ds->end - ds->start;

			l->data = ds->buf + ds->start;
			l->len = len;
			l->lineno = f->whole ? 1 : ++ds->lineno;
			ds->start += len + (nl != NULL);
			if (ds->skipping || len > DATASET_LINE_MAX) {
				ds->skipping = 0;
				xasprintf(cause, "%s:%lld: line longer than "
				    "%d bytes, skipped", f->path,
				    (long long)l->lineno, DATASET_LINE_MAX);
				return -EFBIG;
			}
			return 1;
		}
		if (ds->eof)
			return 0;
		if (ds->end - ds->start >= DATASET_LINE_MAX) {
			ds->skipping = 1;
			ds->start = ds->end = 0;
		}
		if ((r = fill(ds, cause)) != 0)
			return r;
		if (ds->eof && ds->skipping) {
			ds->skipping = 0;
			xasprintf(cause, "%s:%lld: line longer than %d bytes, "
			    "skipped", f->path, (long long)++ds->lineno,
			    DATASET_LINE_MAX);
			return -EFBIG;
		}
	}
}

/* Hand out the next line. */
int
dataset_next(struct dataset *ds, struct dataset_line *ret, char **cause)
{
	struct dataset_line	l;
	int			r;

	while (ds->cur < ds->nfiles) {
		if (!ds->opened && (r = open_file(ds, cause)) != 0) {
			close_file(ds);
			return r;
		}
		memset(&l, 0, sizeof l);
		l.path = ds->files[ds->cur].path;
		l.file = ds->cur;
		l.ts_ms = INT64_MIN;
		r = next_raw(ds, &l, cause);
		if (r == 0) {
			close_file(ds);
			continue;
		}
		if (r == -EFBIG) {
			*ret = l;
			return r;
		}
		if (r < 0) {
			close_file(ds);
			return r;
		}
		if (ds->files[ds->cur].collect)
			seen_add(ds, hash_line(l.data, l.len));
		else if (ds->files[ds->cur].dedupe && ds->nseen > 0 &&
		    bsearch(&(uint64_t){ hash_line(l.data, l.len) }, ds->seen,
		    ds->nseen, sizeof *ds->seen, cmp_u64) != NULL)
			continue;
		if (ds->filtered) {
			if (dataset_timestamp(l.data, l.len, &l.ts_ms) != 0 ||
			    l.ts_ms < ds->filter.since_ms ||
			    l.ts_ms > ds->filter.until_ms)
				continue;
		}
		*ret = l;
		return 1;
	}
	return 0;
}

/* Report the position. */
void
dataset_progress(const struct dataset *ds, struct dataset_progress *ret)
{
	size_t	i;

	ret->done = ds->done;
	ret->total = 0;
	for (i = 0; i < ds->nfiles; i++)
		ret->total += ds->files[i].size;
	if (ds->gz != NULL) {
		z_off_t	off = gzoffset(ds->gz);

		if (off > 0)
			ret->done += (uint64_t)off;
	}
	if (ret->done > ret->total)
		ret->done = ret->total;
	ret->files = ds->cur < ds->nfiles ? ds->cur : ds->nfiles;
	ret->nfiles = ds->nfiles;
}

/* Free the reader. */
struct dataset *
dataset_free(struct dataset *ds)
{
	size_t	i;

	if (ds == NULL)
		return NULL;
	if (ds->gz != NULL)
		gzclose(ds->gz);
	for (i = 0; i < ds->nfiles; i++) {
		free(ds->files[i].path);
		free(ds->files[i].key);
	}
	free(ds->files);
	free(ds->buf);
	free(ds->seen);
	free(ds->ann_key);
	if (ds->ann != NULL)
		json_object_put(ds->ann);
	if (ds->lockfd >= 0)
		close(ds->lockfd);
	free(ds);
	return NULL;
}

/* Fold one annotation record into the map. */
static void
ann_fold(struct json_object *map, struct json_object *a)
{
	struct json_object	*id, *kind, *m, *o, *v;
	const char		*k;

	if (!json_object_object_get_ex(a, "entryId", &id) ||
	    !json_object_is_type(id, json_type_string) ||
	    !json_object_object_get_ex(a, "kind", &kind))
		return;
	if (!json_object_object_get_ex(map, json_object_get_string(id), &m)) {
		m = json_object_new_object();
		json_object_object_add(map, json_object_get_string(id), m);
	}
	k = json_object_get_string(kind);
	if (strcmp(k, "outcome") == 0) {
		if (json_object_object_get_ex(a, "exitStatus", &v))
			json_object_object_add(m, "exitStatus",
			    json_object_get(v));
		if (json_object_object_get_ex(a, "durationMs", &v))
			json_object_object_add(m, "durationMs",
			    json_object_get(v));
		return;
	}
	if (strcmp(k, "feedback") != 0 && strcmp(k, "correction") != 0)
		return;
	o = json_object_new_object();
	json_object_object_foreach(a, key, val) {
		if (strcmp(key, "schemaVersion") != 0 &&
		    strcmp(key, "kind") != 0 && strcmp(key, "entryId") != 0 &&
		    strcmp(key, "timestamp") != 0)
			json_object_object_add(o, key, json_object_get(val));
	}
	json_object_object_add(m, k, o);
}

/* Read one annotations file (plain or gzip) into the map. */
static void
ann_load(struct json_object *map, const char *path)
{
	struct json_object	*a;
	gzFile			 gz;
	char			*line, *cause = NULL;
	size_t			 len;

	if ((gz = gzopen(path, "rbe")) == NULL)
		return;
	line = xmalloc(DATASET_LINE_MAX);
	while (gzgets(gz, line, DATASET_LINE_MAX) != NULL) {
		len = strlen(line);
		if (len > 0 && line[len - 1] == '\n')
			line[--len] = '\0';
		if (dataset_parse_raw(line, len, &a, &cause) != 0) {
			free(cause);
			cause = NULL;
			continue;
		}
		ann_fold(map, a);
		json_object_put(a);
	}
	free(line);
	gzclose(gz);
}

/*
 * The annotations of the day of line l, loaded once per day from
 * ROOT/current/DAY.annotations.ndjson and ROOT/archive/
 * DAY.annotations.ndjson.gz, where l->path is ROOT/{current,archive}/DAY...
 */
static struct json_object *
ann_map(struct dataset *ds, const struct dataset_line *l)
{
	const char	*base;
	char		*root, *key, *path;
	size_t		 rlen;

	base = strrchr(l->path, '/');
	if (base == NULL || !is_day_name(base + 1, strstr(base, ".gz") ?
	    ".ndjson.gz" : ".ndjson"))
		return NULL;
	/* ROOT is the parent of the file's directory. */
	for (rlen = (size_t)(base - l->path); rlen > 0 &&
	    l->path[rlen - 1] != '/'; rlen--)
		;
	root = xstrndup(l->path, rlen > 0 ? rlen - 1 : 0);
	xasprintf(&key, "%s/%.10s", root, base + 1);
	if (ds->ann_key != NULL && strcmp(ds->ann_key, key) == 0) {
		free(key);
		free(root);
		return ds->ann;
	}
	free(ds->ann_key);
	ds->ann_key = key;
	if (ds->ann != NULL)
		json_object_put(ds->ann);
	ds->ann = json_object_new_object();
	xasprintf(&path, "%s/archive/%.10s.annotations.ndjson.gz", root,
	    base + 1);
	ann_load(ds->ann, path);
	free(path);
	xasprintf(&path, "%s/current/%.10s.annotations.ndjson", root,
	    base + 1);
	ann_load(ds->ann, path);
	free(path);
	free(root);
	return ds->ann;
}

/* The merged annotations of a line's entry, or NULL. */
static struct json_object *
ann_of(struct dataset *ds, const struct dataset_line *l)
{
	struct json_object	*map, *m;
	const char		*p;
	char			 id[37];

	if ((map = ann_map(ds, l)) == NULL ||
	    json_object_object_length(map) == 0)
		return NULL;
	p = memmem(l->data, l->len, "\"id\":\"", 6);
	if (p == NULL || (size_t)(l->data + l->len - p) < 6 + 36)
		return NULL;
	memcpy(id, p + 6, 36);
	id[36] = '\0';
	return json_object_object_get_ex(map, id, &m) ? m : NULL;
}

/* Whether the entry of a line has annotations. */
int
dataset_annotated(struct dataset *ds, const struct dataset_line *l)
{
	return ann_of(ds, l) != NULL;
}

/* Merge a line's annotations into its parsed entry. */
int
dataset_annotate(struct dataset *ds, const struct dataset_line *l,
    struct json_object *entry)
{
	struct json_object	*m, *ud;

	if ((m = ann_of(ds, l)) == NULL)
		return 0;
	if (!json_object_object_get_ex(entry, "userDecision", &ud) ||
	    !json_object_is_type(ud, json_type_object))
		return 0;
	json_object_object_foreach(m, key, val)
		json_object_object_add(ud, key, json_object_get(val));
	return 1;
}

/* Skip a JSON string starting at p[i] == '"'; returns the index after it. */
static size_t
skip_string(const char *p, size_t len, size_t i)
{
	for (i++; i < len; i++) {
		if (p[i] == '\\')
			i++;
		else if (p[i] == '"')
			return i + 1;
	}
	return len;
}

static size_t
skip_ws(const char *p, size_t len, size_t i)
{
	while (i < len && (p[i] == ' ' || p[i] == '\t' || p[i] == '\r' ||
	    p[i] == '\n'))
		i++;
	return i;
}

/* Scan the top-level keys only. */
int
dataset_timestamp(const char *p, size_t len, int64_t *ret_ms)
{
	size_t	i, k, e;
	int	depth = 0;
	char	tmp[ISO8601_LEN + 8];

	for (i = 0; i < len; ) {
		switch (p[i]) {
		case '{': case '[':
			depth++;
			i++;
			break;
		case '}': case ']':
			depth--;
			i++;
			break;
		case '"':
			k = i;
			i = skip_string(p, len, i);
			if (depth != 1 || i - k != 11 ||
			    memcmp(p + k + 1, "timestamp", 9) != 0)
				break;
			e = skip_ws(p, len, i);
			if (e >= len || p[e] != ':')
				break;
			e = skip_ws(p, len, e + 1);
			if (e >= len || p[e] != '"')
				return -EINVAL;
			k = e + 1;
			e = skip_string(p, len, e);
			if (e - k - 1 >= sizeof tmp || e > len)
				return -EINVAL;
			memcpy(tmp, p + k, e - k - 1);
			tmp[e - k - 1] = '\0';
			return clock_parse(tmp, ret_ms) == 0 ? 0 : -EINVAL;
		default:
			i++;
		}
	}
	return -EINVAL;
}

/* Version 1.x is the current shape. */
static int
normalize_v1(struct json_object *entry, char **cause)
{
	(void)entry;
	(void)cause;
	return 0;
}

/* One normalizer per schemaVersion major; add 2 here when it exists. */
static const struct {
	int	  major;
	int	(*fn)(struct json_object *, char **);
} normalizers[] = {
	{ 1, normalize_v1 },
};

/* Dispatch on the major version. */
int
dataset_normalize(struct json_object *entry, char **cause)
{
	struct json_object	*v;
	const char		*s;
	char			*end;
	long			 major;
	size_t			 i;

	if (!json_object_object_get_ex(entry, "schemaVersion", &v) ||
	    !json_object_is_type(v, json_type_string)) {
		xasprintf(cause, "missing schemaVersion");
		return -ENOTSUP;
	}
	s = json_object_get_string(v);
	errno = 0;
	major = strtol(s, &end, 10);
	if (end == s || (*end != '.' && *end != '\0') || errno != 0)
		major = -1;
	for (i = 0; i < sizeof normalizers / sizeof normalizers[0]; i++)
		if (normalizers[i].major == major)
			return normalizers[i].fn(entry, cause);
	xasprintf(cause, "unsupported schemaVersion '%s'", s);
	return -ENOTSUP;
}

/* Parse one line strictly, without normalizing. */
int
dataset_parse_raw(const char *line, size_t len, struct json_object **ret,
    char **cause)
{
	struct json_tokener	*tok;
	struct json_object	*o;
	enum json_tokener_error	 jerr;

	if (len > INT32_MAX) {
		xasprintf(cause, "line too long");
		return -EINVAL;
	}
	tok = json_tokener_new();
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT |
	    JSON_TOKENER_VALIDATE_UTF8);
	o = json_tokener_parse_ex(tok, line, (int)len);
	jerr = json_tokener_get_error(tok);
	if (o != NULL && jerr == json_tokener_success &&
	    json_tokener_get_parse_end(tok) < len) {
		size_t	i = skip_ws(line, len, json_tokener_get_parse_end(tok));

		if (i < len)
			jerr = json_tokener_error_parse_unexpected;
	} else if (o == NULL && jerr == json_tokener_continue)
		jerr = json_tokener_error_parse_eof;
	json_tokener_free(tok);
	if (jerr != json_tokener_success) {
		json_object_put(o);
		xasprintf(cause, "invalid JSON: %s",
		    json_tokener_error_desc(jerr));
		return -EINVAL;
	}
	if (!json_object_is_type(o, json_type_object)) {
		json_object_put(o);
		xasprintf(cause, "not a JSON object");
		return -EINVAL;
	}
	*ret = o;
	return 0;
}

/* Parse and normalize one line. */
int
dataset_parse(const char *line, size_t len, struct json_object **ret,
    char **cause)
{
	struct json_object	*o;
	int			 r;

	if ((r = dataset_parse_raw(line, len, &o, cause)) != 0)
		return r;
	if ((r = dataset_normalize(o, cause)) != 0) {
		json_object_put(o);
		return r;
	}
	*ret = o;
	return 0;
}

/* The category of a rule id. */
char *
dataset_category(const char *id)
{
	size_t	n;

	if (id == NULL || *id == '\0')
		return xstrdup("uncategorized");
	n = strcspn(id, ":.");
	if (n == 0)
		return xstrdup("uncategorized");
	return xstrndup(id, n);
}

/* Turn --since/--until arguments into a filter. */
int
dataset_filter_parse(const char *since, const char *until,
    struct dataset_filter *ret, char **cause)
{
	struct dataset_filter	f = { DATASET_NO_SINCE, DATASET_NO_UNTIL };
	int64_t			ms;

	if (since != NULL) {
		if (clock_parse(since, &ms) != 0) {
			xasprintf(cause, "invalid date '%s' (want YYYY-MM-DD "
			    "or an ISO 8601 time)", since);
			return -EINVAL;
		}
		f.since_ms = ms;
	}
	if (until != NULL) {
		if (clock_parse(until, &ms) != 0) {
			xasprintf(cause, "invalid date '%s' (want YYYY-MM-DD "
			    "or an ISO 8601 time)", until);
			return -EINVAL;
		}
		/* A bare date means through the end of that day. */
		f.until_ms = strlen(until) == 10 ?
		    clock_next_midnight(ms) - 1 : ms;
	}
	if (f.since_ms != DATASET_NO_SINCE && f.until_ms != DATASET_NO_UNTIL &&
	    f.since_ms > f.until_ms) {
		xasprintf(cause, "--since '%s' is after --until '%s'", since,
		    until);
		return -EINVAL;
	}
	*ret = f;
	return 0;
}
