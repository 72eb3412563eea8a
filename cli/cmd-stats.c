/*
 * deliberate stats: one pass over the stored entries, counting risk
 * levels, categories, commands, decisions, corrections and bypass
 * techniques, timing every performance stage, and drawing entries per
 * day.  Counters are keyed maps, so memory grows with the number of
 * distinct names and days, not with the entries; stage percentiles come
 * from log-scale histograms (1% buckets, clamped to the seen range).
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "cli.h"
#include "clock.h"
#include "dataset.h"
#include "jsonutil.h"
#include "progress.h"
#include "xmalloc.h"

#define HIST_MIN	0.001		/* ms; smaller is bucket 0 */
#define HIST_BASE	1.01
#define HIST_N		2600		/* up to ~1.7e8 ms */
#define TOP_N		10

struct stage {
	char		*name;
	int64_t		 n;
	double		 sum, min, max;
	uint32_t	*hist;
};

struct stats {
	int64_t		 entries, invalid;
	char		 first[ISO8601_LEN], last[ISO8601_LEN];
	int64_t		 first_ms, last_ms;
	struct json_object *risk, *category, *commands, *decisions;
	struct json_object *corr_type, *corr_to, *techniques, *days;
	int64_t		 corrections, bypass;
	struct stage	*stages;
	size_t		 nstages;
	struct stage	 total;
};

static void
count(struct json_object *map, const char *key, int64_t n)
{
	struct json_object	*v;

	if (json_object_object_get_ex(map, key, &v))
		json_object_set_int64(v, json_object_get_int64(v) + n);
	else
		json_object_object_add(map, key, json_object_new_int64(n));
}

static struct json_object *
get(struct json_object *o, const char *a, const char *b, const char *c)
{
	const char	*keys[3] = { a, b, c };
	int		 i;

	for (i = 0; i < 3 && o != NULL && keys[i] != NULL; i++)
		if (!json_object_object_get_ex(o, keys[i], &o))
			return NULL;
	return o;
}

static const char *
str(struct json_object *o)
{
	return o != NULL && json_object_is_type(o, json_type_string) ?
	    json_object_get_string(o) : NULL;
}

static void
stage_init(struct stage *s, const char *name)
{
	memset(s, 0, sizeof *s);
	s->name = xstrdup(name);
	s->hist = xcalloc(HIST_N, sizeof *s->hist);
	s->min = INFINITY;
	s->max = -INFINITY;
}

static void
stage_add(struct stage *s, double ms)
{
	int	b = 0;

	if (!isfinite(ms) || ms < 0)
		return;
	if (ms > HIST_MIN) {
		b = 1 + (int)(log(ms / HIST_MIN) / log(HIST_BASE));
		if (b >= HIST_N)
			b = HIST_N - 1;
	}
	s->hist[b]++;
	s->n++;
	s->sum += ms;
	if (ms < s->min)
		s->min = ms;
	if (ms > s->max)
		s->max = ms;
}

/* The nearest-rank percentile q, to within one bucket. */
static double
stage_pct(const struct stage *s, double q)
{
	int64_t	rank, seen = 0;
	double	v;
	int	b;

	if (s->n == 0)
		return 0;
	rank = (int64_t)ceil(q * (double)s->n);
	if (rank < 1)
		rank = 1;
	for (b = 0; b < HIST_N; b++) {
		seen += s->hist[b];
		if (seen >= rank)
			break;
	}
	/* The bucket's geometric middle. */
	v = b == 0 ? 0 : HIST_MIN * pow(HIST_BASE, (double)b - 0.5);
	if (v < s->min)
		v = s->min;
	if (v > s->max)
		v = s->max;
	return v;
}

static struct stage *
stage_find(struct stats *st, const char *name)
{
	size_t	i;

	for (i = 0; i < st->nstages; i++)
		if (strcmp(st->stages[i].name, name) == 0)
			return &st->stages[i];
	if (st->nstages >= 64)
		return NULL;
	st->stages = xreallocarray(st->stages, st->nstages + 1,
	    sizeof *st->stages);
	stage_init(&st->stages[st->nstages], name);
	return &st->stages[st->nstages++];
}

static void
add_entry(struct stats *st, struct json_object *e, int64_t ts)
{
	struct json_object	*o, *pats, *p, *m;
	const char		*s, *pid = NULL;
	char			 day[11], *cat;
	size_t			 i, n;
	struct stage		*sg;

	st->entries++;
	if (ts != INT64_MIN) {
		if (st->entries == 1 || ts < st->first_ms) {
			st->first_ms = ts;
			snprintf(st->first, sizeof st->first, "%s",
			    str(get(e, "timestamp", NULL, NULL)));
		}
		if (st->entries == 1 || ts >= st->last_ms) {
			st->last_ms = ts;
			snprintf(st->last, sizeof st->last, "%s",
			    str(get(e, "timestamp", NULL, NULL)));
		}
		clock_day(ts, day);
		count(st->days, day, 1);
	}
	s = str(get(e, "classification", "riskLevel", NULL));
	count(st->risk, s != NULL ? s : "unknown", 1);

	pats = get(e, "classification", "patterns", NULL);
	if (pats != NULL && json_object_is_type(pats, json_type_array)) {
		n = json_object_array_length(pats);
		for (i = 0; i < n && pid == NULL; i++) {
			p = json_object_array_get_idx(pats, i);
			if (json_object_object_get_ex(p, "matched", &m) &&
			    json_object_get_boolean(m))
				pid = str(get(p, "patternId", NULL, NULL));
		}
	}
	cat = dataset_category(pid);
	count(st->category, cat, 1);
	free(cat);

	s = str(get(e, "command", "command", NULL));
	count(st->commands, s != NULL && *s != '\0' ? s : "(none)", 1);
	s = str(get(e, "userDecision", "action", NULL));
	count(st->decisions, s != NULL ? s : "unknown", 1);
	if ((o = get(e, "userDecision", "correction", NULL)) != NULL &&
	    json_object_is_type(o, json_type_object)) {
		st->corrections++;
		s = str(get(o, "type", NULL, NULL));
		count(st->corr_type, s != NULL ? s : "unknown", 1);
		s = str(get(o, "correctClassification", NULL, NULL));
		count(st->corr_to, s != NULL ? s : "unknown", 1);
	}
	o = get(e, "classification", "bypassDetection", "detected");
	if (o != NULL && json_object_get_boolean(o))
		st->bypass++;
	o = get(e, "classification", "bypassDetection", "techniques");
	if (o != NULL && json_object_is_type(o, json_type_array)) {
		n = json_object_array_length(o);
		for (i = 0; i < n; i++)
			if ((s = str(json_object_array_get_idx(o, i))) != NULL)
				count(st->techniques, s, 1);
	}
	o = get(e, "performance", "stages", NULL);
	if (o != NULL && json_object_is_type(o, json_type_object)) {
		json_object_object_foreach(o, key, val) {
			if (!json_object_is_type(val, json_type_int) &&
			    !json_object_is_type(val, json_type_double))
				continue;
			if ((sg = stage_find(st, key)) != NULL)
				stage_add(sg, json_object_get_double(val));
		}
	}
	o = get(e, "performance", "totalTime", NULL);
	if (o != NULL && (json_object_is_type(o, json_type_int) ||
	    json_object_is_type(o, json_type_double)))
		stage_add(&st->total, json_object_get_double(o));
}

struct kv {
	const char	*key;
	int64_t		 n;
};

static int
cmp_kv(const void *a, const void *b)
{
	const struct kv	*x = a, *y = b;

	if (x->n != y->n)
		return x->n > y->n ? -1 : 1;
	return strcmp(x->key, y->key);
}

static int
cmp_key(const void *a, const void *b)
{
	const struct kv	*x = a, *y = b;

	return strcmp(x->key, y->key);
}

/* The map as an array sorted by count (or key); caller frees. */
static struct kv *
sorted(struct json_object *map, size_t *ret_n, int by_key)
{
	struct kv	*kv;
	size_t		 n = 0;

	kv = xcalloc((size_t)json_object_object_length(map) + 1, sizeof *kv);
	json_object_object_foreach(map, key, val) {
		kv[n].key = key;
		kv[n].n = json_object_get_int64(val);
		n++;
	}
	qsort(kv, n, sizeof *kv, by_key ? cmp_key : cmp_kv);
	*ret_n = n;
	return kv;
}

static int
cmp_stage(const void *a, const void *b)
{
	const struct stage	*x = a, *y = b;
	double			 ax = x->n ? x->sum / (double)x->n : 0;
	double			 ay = y->n ? y->sum / (double)y->n : 0;

	if (ax != ay)
		return ax > ay ? -1 : 1;
	return strcmp(x->name, y->name);
}

static struct json_object *
stage_json(const struct stage *s)
{
	struct json_object	*o = json_object_new_object();

	json_object_object_add(o, "count", json_object_new_int64(s->n));
	json_object_object_add(o, "avg", json_num(s->n ? s->sum /
	    (double)s->n : 0));
	json_object_object_add(o, "p95", json_num(stage_pct(s, 0.95)));
	json_object_object_add(o, "max", json_num(s->n ? s->max : 0));
	return o;
}

static void
print_json(struct stats *st)
{
	struct json_object	*o, *a, *c, *stg;
	struct kv		*kv;
	size_t			 i, n;

	o = json_object_new_object();
	json_object_object_add(o, "entries", json_object_new_int64(st->entries));
	json_object_object_add(o, "invalid", json_object_new_int64(st->invalid));
	json_object_object_add(o, "first", st->entries ?
	    json_object_new_string(st->first) : NULL);
	json_object_object_add(o, "last", st->entries ?
	    json_object_new_string(st->last) : NULL);
	json_object_object_add(o, "riskLevels", json_object_get(st->risk));
	json_object_object_add(o, "categories",
	    json_object_get(st->category));
	a = json_object_new_array();
	kv = sorted(st->commands, &n, 0);
	for (i = 0; i < n && i < TOP_N; i++) {
		c = json_object_new_object();
		json_object_object_add(c, "command",
		    json_object_new_string(kv[i].key));
		json_object_object_add(c, "count",
		    json_object_new_int64(kv[i].n));
		json_object_array_add(a, c);
	}
	free(kv);
	json_object_object_add(o, "topCommands", a);
	json_object_object_add(o, "decisions", json_object_get(st->decisions));
	c = json_object_new_object();
	json_object_object_add(c, "total",
	    json_object_new_int64(st->corrections));
	json_object_object_add(c, "byType", json_object_get(st->corr_type));
	json_object_object_add(c, "toRiskLevel", json_object_get(st->corr_to));
	json_object_object_add(o, "corrections", c);
	c = json_object_new_object();
	json_object_object_add(c, "detected", json_object_new_int64(st->bypass));
	json_object_object_add(c, "techniques",
	    json_object_get(st->techniques));
	json_object_object_add(o, "bypass", c);
	stg = json_object_new_object();
	for (i = 0; i < st->nstages; i++)
		json_object_object_add(stg, st->stages[i].name,
		    stage_json(&st->stages[i]));
	json_object_object_add(o, "stages", stg);
	json_object_object_add(o, "totalTime", stage_json(&st->total));
	json_object_object_add(o, "days", json_object_get(st->days));
	printf("%s\n", json_object_to_json_string_ext(o,
	    JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(o);
}

static const char *
col(int color, const char *code)
{
	return color ? code : "";
}

static void
print_counts(const char *title, struct json_object *map, int64_t total,
    size_t limit)
{
	struct kv	*kv;
	size_t		 i, n;

	kv = sorted(map, &n, 0);
	printf("\n%s:\n", title);
	if (n == 0)
		printf("  (none)\n");
	for (i = 0; i < n && i < limit; i++)
		printf("  %-24s %8lld %5.1f%%\n", kv[i].key,
		    (long long)kv[i].n, total > 0 ? 100.0 * (double)kv[i].n /
		    (double)total : 0.0);
	if (n > limit)
		printf("  (%zu more)\n", n - limit);
	free(kv);
}

/* One bar of width w (in cells, eighths allowed) with block elements. */
static void
print_bar(double w)
{
	static const char *const part[8] = { "", "\u258f", "\u258e",
	    "\u258d", "\u258c", "\u258b", "\u258a", "\u2589" };
	int	eighths = (int)lround(w * 8), i;

	for (i = 0; i < eighths / 8; i++)
		fputs("\u2588", stdout);
	fputs(part[eighths % 8], stdout);
	if (eighths == 0 && w > 0)
		fputs(part[1], stdout);
}

static void
print_text(struct stats *st, int color)
{
	struct kv	*kv;
	size_t		 i, n;
	int64_t		 max = 0;
	const char	*b = col(color, "\033[1m"), *r = col(color, "\033[0m");

	printf("%sEntries:%s %lld", b, r, (long long)st->entries);
	if (st->entries > 0)
		printf(" (%s .. %s)", st->first, st->last);
	printf("\n");
	if (st->invalid > 0)
		printf("Unreadable lines: %lld\n", (long long)st->invalid);
	print_counts("Risk levels", st->risk, st->entries, 10);
	print_counts("Categories", st->category, st->entries, TOP_N);
	print_counts("Top commands", st->commands, st->entries, TOP_N);
	print_counts("Decisions", st->decisions, st->entries, 10);
	printf("\nCorrections: %lld\n", (long long)st->corrections);
	kv = sorted(st->corr_type, &n, 0);
	for (i = 0; i < n; i++)
		printf("  %-24s %8lld\n", kv[i].key, (long long)kv[i].n);
	free(kv);
	printf("\nBypass attempts: %lld\n", (long long)st->bypass);
	kv = sorted(st->techniques, &n, 0);
	for (i = 0; i < n && i < TOP_N; i++)
		printf("  %-24s %8lld\n", kv[i].key, (long long)kv[i].n);
	free(kv);

	printf("\nSlowest stages (ms):\n  %-24s %10s %10s %10s\n", "stage",
	    "avg", "p95", "max");
	if (st->nstages > 0)
		qsort(st->stages, st->nstages, sizeof *st->stages, cmp_stage);
	for (i = 0; i < st->nstages; i++) {
		const struct stage	*s = &st->stages[i];

		printf("  %-24s %10.3f %10.3f %10.3f\n", s->name,
		    s->sum / (double)s->n, stage_pct(s, 0.95), s->max);
	}
	if (st->total.n > 0)
		printf("  %-24s %10.3f %10.3f %10.3f\n", "(total)",
		    st->total.sum / (double)st->total.n,
		    stage_pct(&st->total, 0.95), st->total.max);

	printf("\nPer day:\n");
	kv = sorted(st->days, &n, 1);
	for (i = 0; i < n; i++)
		if (kv[i].n > max)
			max = kv[i].n;
	for (i = 0; i < n; i++) {
		printf("  %s %s", kv[i].key, col(color, "\033[36m"));
		print_bar(40.0 * (double)kv[i].n / (double)max);
		printf("%s %lld\n", r, (long long)kv[i].n);
	}
	if (n == 0)
		printf("  (none)\n");
	free(kv);
}

static void
stats_release(struct stats *st)
{
	size_t	i;

	json_object_put(st->risk);
	json_object_put(st->category);
	json_object_put(st->commands);
	json_object_put(st->decisions);
	json_object_put(st->corr_type);
	json_object_put(st->corr_to);
	json_object_put(st->techniques);
	json_object_put(st->days);
	for (i = 0; i < st->nstages; i++) {
		free(st->stages[i].name);
		free(st->stages[i].hist);
	}
	free(st->stages);
	free(st->total.name);
	free(st->total.hist);
}

/* The stats subcommand. */
int
cmd_stats(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "since", required_argument, NULL, 's' },
		{ "until", required_argument, NULL, 'u' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct dataset_filter	 filter;
	struct dataset_line	 l;
	struct dataset_progress	 pr;
	struct progress		 bar;
	struct dataset		*ds;
	struct json_object	*e;
	struct stats		 st;
	const char		*since = NULL, *until = NULL, *nc;
	char			*cause = NULL;
	int			 ch, json = 0, r, color;
	int64_t			 ts, lines = 0;

	while ((ch = getopt_long(argc, argv, "+js:u:h", longopts,
	    NULL)) != -1) {
		switch (ch) {
		case 'j':
			json = 1;
			break;
		case 's':
			since = optarg;
			break;
		case 'u':
			until = optarg;
			break;
		case 'h':
			cli_help();
		default:
			cli_usage_error("unknown option '%s'",
			    argv[optind - 1]);
		}
	}
	if (optind != argc)
		cli_usage_error("unexpected argument '%s'", argv[optind]);
	if (dataset_filter_parse(since, until, &filter, &cause) != 0)
		cli_usage_error("%s", cause);
	if (dataset_open(cli_paths.data, &filter, &ds, &cause) != 0) {
		cli_error("%s", cause);
		free(cause);
		return EXIT_FAIL;
	}
	memset(&st, 0, sizeof st);
	st.risk = json_object_new_object();
	st.category = json_object_new_object();
	st.commands = json_object_new_object();
	st.decisions = json_object_new_object();
	st.corr_type = json_object_new_object();
	st.corr_to = json_object_new_object();
	st.techniques = json_object_new_object();
	st.days = json_object_new_object();
	stage_init(&st.total, "totalTime");

	progress_start(&bar, "stats");
	while ((r = dataset_next(ds, &l, &cause)) != 0) {
		if ((++lines & 1023) == 0) {
			dataset_progress(ds, &pr);
			progress_update(&bar, pr.done, pr.total);
		}
		if (r < 0) {
			progress_end(&bar);
			cli_error("%s", cause);
			free(cause);
			cause = NULL;
			st.invalid++;
			continue;
		}
		if (dataset_parse(l.data, l.len, &e, &cause) != 0) {
			progress_end(&bar);
			cli_error("%s:%lld: %s, skipped", l.path,
			    (long long)l.lineno, cause);
			free(cause);
			cause = NULL;
			st.invalid++;
			continue;
		}
		ts = l.ts_ms;
		if (ts == INT64_MIN && dataset_timestamp(l.data, l.len,
		    &ts) != 0)
			ts = INT64_MIN;
		dataset_annotate(ds, &l, e);
		add_entry(&st, e, ts);
		json_object_put(e);
	}
	progress_end(&bar);
	dataset_free(ds);

	nc = getenv("NO_COLOR");
	color = isatty(STDOUT_FILENO) && (nc == NULL || *nc == '\0');
	if (json)
		print_json(&st);
	else
		print_text(&st, color);
	stats_release(&st);
	return EXIT_OK;
}
