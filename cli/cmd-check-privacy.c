/*
 * deliberate check-privacy: scan stored entries (.ndjson, .ndjson.gz or a
 * directory; the whole data dir by default) for anything that should have
 * been redacted: the rule set at the entry's own anonymization level, plus
 * a raw high-entropy heuristic.  Findings are reported as file:line, the
 * rule and a masked preview; the secret itself is never printed.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <json-c/json.h>
#include <zlib.h>

#include "buf.h"
#include "cli.h"
#include "fileio.h"
#include "redact.h"
#include "xmalloc.h"

struct scan {
	struct redactor	*red;
	long		 findings;
	long		 entries;
	long		 files;
	int		 bad;
};

/* A preview that shows the shape but not the secret. */
static void
mask(const char *s, size_t len, char *out, size_t outlen)
{
	snprintf(out, outlen, "%.*s***(%zu chars)", len >= 16 ? 3 : 0, s, len);
}

static double
entropy(const char *s, size_t n)
{
	unsigned	counts[256] = { 0 };
	double		h = 0, p;
	size_t		i;

	for (i = 0; i < n; i++)
		counts[(unsigned char)s[i]]++;
	for (i = 0; i < 256; i++) {
		if (counts[i] == 0)
			continue;
		p = (double)counts[i] / (double)n;
		h -= p * log2(p);
	}
	return h;
}

static int
is_tokchar(char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
	    (c >= '0' && c <= '9') || c == '+' || c == '/' || c == '_' ||
	    c == '-';
}

static int
all_hex(const char *s, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++)
		if (strchr("0123456789abcdefABCDEF-", s[i]) == NULL)
			return 0;
	return 1;
}

/* Secrets mix digits with lower- and upper-case letters. */
static int
mixed(const char *s, size_t n)
{
	int	d = 0, l = 0, u = 0;
	size_t	i;

	for (i = 0; i < n; i++) {
		d |= s[i] >= '0' && s[i] <= '9';
		l |= s[i] >= 'a' && s[i] <= 'z';
		u |= s[i] >= 'A' && s[i] <= 'Z';
	}
	return d && l && u;
}

static void
report(struct scan *sc, const char *file, long line, const char *rule,
    const char *type, const char *s, size_t len)
{
	char	prev[64];

	mask(s, len, prev, sizeof prev);
	printf("%s:%ld: %s (%s): %s\n", file, line, rule, type, prev);
	sc->findings++;
}

/* Raw high-entropy runs that no rule named. */
static void
scan_entropy(struct scan *sc, const char *file, long line, const char *s)
{
	const char	*p = s, *st;
	size_t		 n;

	while (*p != '\0') {
		if (!is_tokchar(*p)) {
			p++;
			continue;
		}
		for (st = p; *p != '\0' && is_tokchar(*p); p++)
			;
		n = (size_t)(p - st);
		if (n < 24 || n > 4096 || all_hex(st, n) ||
		    memchr(st, '/', n) != NULL || !mixed(st, n))
			continue;
		if (entropy(st, n) >= 4.3)
			report(sc, file, line, "heuristic:high-entropy",
			    "high_entropy", st, n);
	}
}

static void
scan_string(struct scan *sc, enum anon_level level, const char *file,
    long line, const char *key, const char *s)
{
	struct redact_findings	 f = REDACT_FINDINGS_INIT;
	struct buf		 out = BUF_INIT;
	size_t			 i, len = strlen(s);

	/* Our own identifiers are random by design. */
	if (strcmp(key, "id") == 0)
		return;
	redact_text(sc->red, level, s, len, &out, &f, NULL);
	for (i = 0; i < f.n; i++)
		report(sc, file, line, f.v[i].rule_id, f.v[i].type,
		    s + f.v[i].start, f.v[i].end - f.v[i].start);
	if (f.n == 0)
		scan_entropy(sc, file, line, s);
	redact_findings_release(&f);
	buf_release(&out);
}

static void
walk(struct scan *sc, enum anon_level level, const char *file, long line,
    const char *key, struct json_object *o)
{
	size_t	i;

	switch (json_object_get_type(o)) {
	case json_type_string:
		scan_string(sc, level, file, line, key,
		    json_object_get_string(o));
		break;
	case json_type_array:
		for (i = 0; i < json_object_array_length(o); i++)
			walk(sc, level, file, line, key,
			    json_object_array_get_idx(o, i));
		break;
	case json_type_object: {
		json_object_object_foreach(o, k, v) {
			/* context.user.id is our keyed hash. */
			if (strcmp(k, "user") == 0 && strcmp(key, "context") == 0)
				continue;
			walk(sc, level, file, line, k, v);
		}
		break;
	}
	default:
		break;
	}
}

static void
scan_line(struct scan *sc, const char *file, long line, const char *text,
    size_t len)
{
	struct json_object	*o, *p, *r, *l;
	enum anon_level		 level = ANON_MINIMAL;

	while (len > 0 && (text[len - 1] == '\n' || text[len - 1] == '\r'))
		len--;
	if (len == 0)
		return;
	sc->entries++;
	if ((o = json_tokener_parse(text)) == NULL) {
		/* Not JSON: scan the raw text, it is on disk all the same. */
		char *copy = xstrndup(text, len);

		scan_string(sc, ANON_MINIMAL, file, line, "", copy);
		free(copy);
		return;
	}
	if (json_object_object_get_ex(o, "privacy", &p) &&
	    json_object_object_get_ex(p, "retention", &r) &&
	    json_object_object_get_ex(r, "anonymizationLevel", &l))
		anon_level_parse(json_object_get_string(l), &level);
	walk(sc, level, file, line, "", o);
	json_object_put(o);
}

static int
has_suffix(const char *s, const char *suf)
{
	size_t	a = strlen(s), b = strlen(suf);

	return a >= b && strcmp(s + a - b, suf) == 0;
}

static void
scan_file(struct scan *sc, const char *path)
{
	gzFile	 gz;
	char	*buf;
	long	 line = 0;
	size_t	 cap = 1 << 20;

	if (!has_suffix(path, ".ndjson") && !has_suffix(path, ".ndjson.gz") &&
	    !has_suffix(path, ".jsonl") && !has_suffix(path, ".json")) {
		cli_error("not a dataset file: '%s'", path);
		sc->bad = 1;
		return;
	}
	/* gzread reads plain files transparently too. */
	if ((gz = gzopen(path, "rb")) == NULL) {
		cli_error("cannot open '%s': %s", path, strerror(errno));
		sc->bad = 1;
		return;
	}
	buf = xmalloc(cap);
	sc->files++;
	while (gzgets(gz, buf, (int)cap) != NULL) {
		line++;
		scan_line(sc, path, line, buf, strlen(buf));
	}
	free(buf);
	gzclose(gz);
}

static void scan_path(struct scan *, const char *);

static void
scan_dir(struct scan *sc, const char *dir)
{
	char		**names, *p;
	size_t		 n, i;
	int		 r;

	if ((r = fileio_list(dir, NULL, &names, &n)) != 0) {
		cli_error("cannot open '%s': %s", dir, strerror(-r));
		sc->bad = 1;
		return;
	}
	for (i = 0; i < n; i++) {
		xasprintf(&p, "%s/%s", dir, names[i]);
		if (has_suffix(p, ".ndjson") || has_suffix(p, ".ndjson.gz"))
			scan_file(sc, p);
		else {
			struct stat st;

			if (stat(p, &st) == 0 && S_ISDIR(st.st_mode))
				scan_path(sc, p);
		}
		free(p);
	}
	fileio_names_free(names, n);
}

static void
scan_path(struct scan *sc, const char *p)
{
	struct stat	st;

	if (stat(p, &st) == -1) {
		cli_error("cannot open '%s': %s", p, strerror(errno));
		sc->bad = 1;
	} else if (S_ISDIR(st.st_mode))
		scan_dir(sc, p);
	else
		scan_file(sc, p);
}

/* The check-privacy subcommand. */
int
cmd_check_privacy(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct scan	sc;
	int		ch, i;

	while ((ch = getopt_long(argc, argv, "+h", longopts, NULL)) != -1) {
		if (ch == 'h')
			cli_help();
		cli_usage_error("unknown option '%s'", argv[optind - 1]);
	}
	memset(&sc, 0, sizeof sc);
	if ((sc.red = cli_load_redactor()) == NULL)
		return EXIT_FAIL;
	if (optind == argc)
		scan_path(&sc, cli_paths.data);
	for (i = optind; i < argc; i++)
		scan_path(&sc, argv[i]);
	redactor_free(sc.red);
	fprintf(stderr, "%ld files, %ld entries, %ld findings\n", sc.files,
	    sc.entries, sc.findings);
	if (sc.bad)
		return EXIT_USAGE;
	return sc.findings > 0 ? EXIT_FAIL : EXIT_OK;
}
