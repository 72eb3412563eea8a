/*
 * Tests of the word model (common/wordmodel.c): the scores of the lines
 * risk-rules/train-words.py wrote to tests/fixtures/wordmodel-scores.tsv
 * must come out the same here (so the C features are the trainer's), a
 * model file is checked as it is loaded, and the explanation names the
 * words that weigh most.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "wordmodel.h"
#include "xmalloc.h"

static struct wordmodel *
load_shipped(void)
{
	struct wordmodel	*m = NULL;
	char			*path, *cause = NULL;

	xasprintf(&path, "%s/risk-rules/words.model", harness_src_dir());
	if (wordmodel_load(path, &m, &cause) != 0) {
		fprintf(stderr, "%s\n", cause);
		free(cause);
	}
	free(path);
	return m;
}

static void
t_scores_match_trainer(void)
{
	struct wordmodel	*m = load_shipped();
	FILE			*fp;
	char			*path, *line = NULL, *tab, *end;
	size_t			 cap = 0, n = 0, bad = 0;
	ssize_t			 len;
	double			 want, got;

	CHECK(m != NULL);
	if (m == NULL)
		return;
	CHECK(wordmodel_size(m) > 1000);
	CHECK(wordmodel_threshold(m) > 0.5 && wordmodel_threshold(m) < 1);
	xasprintf(&path, "%s/tests/fixtures/wordmodel-scores.tsv",
	    harness_src_dir());
	fp = fopen(path, "re");
	CHECK(fp != NULL);
	while (fp != NULL && (len = getline(&line, &cap, fp)) != -1) {
		if (len > 0 && line[len - 1] == '\n')
			line[--len] = '\0';
		if (line[0] == '#' || (tab = strchr(line, '\t')) == NULL)
			continue;
		want = strtod(line, &end);
		got = wordmodel_score(m, tab + 1, (size_t)(line + len - tab - 1));
		n++;
		if (fabs(got - want) > 2e-6) {
			bad++;
			fprintf(stderr, "score %.6f, trainer %.6f: %s\n", got,
			    want, tab + 1);
		}
	}
	CHECK(n >= 300);
	CHECK_INT(bad, 0);
	if (fp != NULL)
		fclose(fp);
	free(line);
	free(path);
	wordmodel_free(m);
}

static void
t_scores_order(void)
{
	struct wordmodel	*m = load_shipped();
	const char		*bad = "gsutil -m rm -r gs://acme-prod-backups/**";
	const char		*good = "gsutil ls -l gs://acme-prod-backups/";
	char			 why[128];

	if (m == NULL)
		return;
	CHECK(wordmodel_score(m, bad, strlen(bad)) >
	    wordmodel_score(m, good, strlen(good)));
	CHECK(wordmodel_score(m, "ls -la", 6) < 0.2);
	/* Empty and huge lines are scored, not refused. */
	CHECK(wordmodel_score(m, "", 0) < 0.5);
	{
		size_t	 n = 70000;
		char	*huge = xmalloc(n);

		memset(huge, 'A', n);
		CHECK(wordmodel_score(m, huge, n) < 0.5);
		free(huge);
	}
	wordmodel_explain(m, bad, strlen(bad), why, sizeof why);
	CHECK(why[0] != '\0');
	CHECK(strstr(why, "rm") != NULL);
	wordmodel_explain(m, bad, strlen(bad), why, 4);
	CHECK(strlen(why) < 4);
	wordmodel_free(m);
}

static int
load_text(const char *text, char **cause)
{
	char			 path[] = "/tmp/dlb-wordmodel.XXXXXX";
	struct wordmodel	*m = NULL;
	int			 fd, r;

	*cause = NULL;
	if ((fd = mkstemp(path)) == -1)
		return -errno;
	if (write(fd, text, strlen(text)) != (ssize_t)strlen(text)) {
		close(fd);
		unlink(path);
		return -EIO;
	}
	close(fd);
	r = wordmodel_load(path, &m, cause);
	if (r == 0) {
		/* bias 2, w:rm 1: sigmoid(3) for "rm x". */
		CHECK(fabs(wordmodel_score(m, "RM x", 4) -
		    1 / (1 + exp(-3.0))) < 1e-9);
		CHECK(fabs(wordmodel_threshold(m) - 0.8) < 1e-9);
	}
	wordmodel_free(m);
	unlink(path);
	return r;
}

static void
t_load_checks(void)
{
	char	*cause;
	int	 r;

	CHECK_INT(load_text("# c\nthreshold\t0.8\nbias\t2\nw:rm\t1\n", &cause),
	    0);
	r = load_text("w:rm\t1\n", &cause);
	CHECK_INT(r, -EINVAL);
	CHECK(cause != NULL && strstr(cause, "no bias") != NULL);
	free(cause);
	r = load_text("bias\t1\nw:rm 1\n", &cause);
	CHECK_INT(r, -EINVAL);
	CHECK(cause != NULL && strstr(cause, ":2: bad model line") != NULL);
	free(cause);
	r = load_text("bias\t1\nw:rm\t1x\n", &cause);
	CHECK_INT(r, -EINVAL);
	free(cause);
	r = load_text("bias\t1\nw:rm\t1\nw:rm\t2\n", &cause);
	CHECK_INT(r, -EINVAL);
	free(cause);
	r = load_text("bias\t1\nthreshold\t1.5\n", &cause);
	CHECK_INT(r, -EINVAL);
	free(cause);
	{
		struct wordmodel *m = NULL;

		r = wordmodel_load("/nonexistent/words.model", &m, &cause);
		CHECK_INT(r, -ENOENT);
		CHECK(m == NULL);
		free(cause);
	}
}

int
main(void)
{
	RUN(t_scores_match_trainer);
	RUN(t_scores_order);
	RUN(t_load_checks);
	return harness_done();
}
