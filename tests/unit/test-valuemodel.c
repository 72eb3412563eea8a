/*
 * Tests of the value model (common/valuemodel.c): the values
 * redaction-rules/train-values.py asked about, and their scores, written
 * to tests/fixtures/valuemodel-scores.tsv, must come out the same here
 * (so the C tokens, gate and features are the trainer's), and the
 * splitting and the gate behave at their edges.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "valuemodel.h"
#include "xmalloc.h"

static struct wordmodel *
load_shipped(void)
{
	struct wordmodel	*m = NULL;
	char			*path, *cause = NULL;

	xasprintf(&path, "%s/redaction-rules/values.model",
	    harness_src_dir());
	if (wordmodel_load(path, &m, &cause) != 0) {
		fprintf(stderr, "%s\n", cause);
		free(cause);
	}
	free(path);
	return m;
}

/* Number of candidates of a line, by the C gate. */
static size_t
count_candidates(const char *line, size_t len, struct vm_tok *toks)
{
	size_t	ntok, k, n = 0;

	ntok = valuemodel_tokens(line, len, toks, VALUEMODEL_MAXTOK);
	for (k = 0; k < ntok; k++)
		n += valuemodel_candidate(line + toks[k].start,
		    toks[k].end - toks[k].start);
	return n;
}

static void
t_scores_match_trainer(void)
{
	struct wordmodel	*m = load_shipped();
	struct vm_tok		*toks;
	FILE			*fp;
	char			*path, *line = NULL, *f[4], *prev = NULL;
	size_t			 cap = 0, n = 0, bad = 0, ntok, k, s, e;
	size_t			 rows = 0, want_rows = 0;
	ssize_t			 len;
	double			 want, got;
	int			 i;

	CHECK(m != NULL);
	if (m == NULL)
		return;
	CHECK(wordmodel_size(m) > 1000);
	CHECK(wordmodel_threshold(m) > 0.5 && wordmodel_threshold(m) < 1);
	toks = xreallocarray(NULL, VALUEMODEL_MAXTOK, sizeof *toks);
	xasprintf(&path, "%s/tests/fixtures/valuemodel-scores.tsv",
	    harness_src_dir());
	fp = fopen(path, "re");
	CHECK(fp != NULL);
	while (fp != NULL && (len = getline(&line, &cap, fp)) != -1) {
		if (len > 0 && line[len - 1] == '\n')
			line[--len] = '\0';
		if (line[0] == '#')
			continue;
		/* score, start, end, then the line (which may hold tabs). */
		f[0] = line;
		for (i = 1; i < 4 && f[i - 1] != NULL; i++) {
			f[i] = strchr(f[i - 1], '\t');
			if (f[i] != NULL)
				*f[i]++ = '\0';
		}
		if (f[3] == NULL)
			continue;
		want = strtod(f[0], NULL);
		s = strtoul(f[1], NULL, 10);
		e = strtoul(f[2], NULL, 10);
		len = (ssize_t)strlen(f[3]);
		/* Each line's rows are together: all its candidates. */
		if (prev == NULL || strcmp(prev, f[3]) != 0) {
			CHECK_INT(rows, want_rows);
			free(prev);
			prev = xstrdup(f[3]);
			rows = 0;
			want_rows = count_candidates(f[3], (size_t)len, toks);
		}
		rows++;
		ntok = valuemodel_tokens(f[3], (size_t)len, toks,
		    VALUEMODEL_MAXTOK);
		for (k = 0; k < ntok && (toks[k].start != s ||
		    toks[k].end != e); k++)
			;
		n++;
		if (k == ntok || !valuemodel_candidate(f[3] + s, e - s)) {
			bad++;
			fprintf(stderr, "no candidate %zu..%zu: %s\n", s, e, f[3]);
			continue;
		}
		got = valuemodel_score(m, f[3], toks, ntok, k);
		if (fabs(got - want) > 2e-6) {
			bad++;
			fprintf(stderr, "score %.6f, trainer %.6f: %.*s in %s\n",
			    got, want, (int)(e - s), f[3] + s, f[3]);
		}
	}
	CHECK_INT(rows, want_rows);
	CHECK(n >= 1000);
	CHECK_INT(bad, 0);
	if (fp != NULL)
		fclose(fp);
	free(prev);
	free(line);
	free(path);
	free(toks);
	wordmodel_free(m);
}

static void
t_tokens_and_gate(void)
{
	struct vm_tok	 toks[8];
	const char	*l = "  a=b@c\\d  'e f' ";
	size_t		 n;

	n = valuemodel_tokens(l, strlen(l), toks, 8);
	CHECK_INT(n, 6);
	CHECK_INT(toks[0].start, 2);
	CHECK_INT(toks[0].end, 3);
	CHECK_INT(toks[3].start, 8);
	CHECK_INT(toks[5].start, 14);
	CHECK_INT(toks[5].end, 15);
	/* At most max values. */
	CHECK_INT(valuemodel_tokens(l, strlen(l), toks, 2), 2);
	CHECK_INT(valuemodel_tokens("", 0, toks, 8), 0);
	CHECK_INT(valuemodel_tokens(" = ", 3, toks, 8), 0);

	CHECK(valuemodel_candidate("Kx7#vLm2", 8));
	CHECK(valuemodel_candidate("abcdef1", 7));
	CHECK(!valuemodel_candidate("Ab1x", 4));		/* short */
	CHECK(!valuemodel_candidate("--password", 10));	/* flag */
	CHECK(!valuemodel_candidate("/etc/passwd", 11));	/* path */
	CHECK(!valuemodel_candidate("~/.netrc", 8));
	CHECK(!valuemodel_candidate("$DB_PASSWORD", 12));	/* variable */
	CHECK(!valuemodel_candidate("api.example.com", 15));	/* host */
	CHECK(!valuemodel_candidate("password", 8));		/* word */
	CHECK(valuemodel_candidate("example.com.", 12));	/* ends in . */
}

static void
t_scores_order(void)
{
	struct wordmodel	*m = load_shipped();
	struct vm_tok		*toks;
	const char		*secret = "export DB_PASSWORD=Tq8vLz2Nc4Wp7Yb1";
	const char		*sha = "git show 3f9c2a1b7e4d5c6a8b9f0e1d2c3b4a5f6e7d8c9b";
	size_t			 n;

	if (m == NULL)
		return;
	toks = xreallocarray(NULL, VALUEMODEL_MAXTOK, sizeof *toks);
	n = valuemodel_tokens(secret, strlen(secret), toks, VALUEMODEL_MAXTOK);
	CHECK_INT(n, 3);
	CHECK(valuemodel_score(m, secret, toks, n, 2) >=
	    wordmodel_threshold(m));
	n = valuemodel_tokens(sha, strlen(sha), toks, VALUEMODEL_MAXTOK);
	CHECK(valuemodel_score(m, sha, toks, n, 2) < wordmodel_threshold(m));
	/* A huge line: at most VALUEMODEL_MAXTOK values, each scored. */
	{
		size_t	 len = 70000, i;
		char	*huge = xmalloc(len);

		for (i = 0; i < len; i++)
			huge[i] = i % 8 == 7 ? ' ' : "Ab1_x9Z"[i % 8];
		n = valuemodel_tokens(huge, len, toks, VALUEMODEL_MAXTOK);
		CHECK_INT(n, VALUEMODEL_MAXTOK);
		CHECK(valuemodel_score(m, huge, toks, n, n - 1) >= 0);
		free(huge);
	}
	free(toks);
	wordmodel_free(m);
}

int
main(void)
{
	RUN(t_scores_match_trainer);
	RUN(t_tokens_and_gate);
	RUN(t_scores_order);
	return harness_done();
}
