/*
 * Tests of the learned overrides (common/learn.c): command shapes, the
 * table (threshold, raise at once, forget, save and load), catastrophic
 * rules that cannot be learned away, and the gain on the held-out corpus:
 * the false alarms of its first half are corrected as a user would (f,
 * learnThreshold times), then false alarms and recall are measured on the
 * second half, before and after.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <json-c/json.h>

#include "buf.h"
#include "classify.h"
#include "harness.h"
#include "learn.h"
#include "xmalloc.h"

static struct classifier *cl;

static void
shape_is(const char *line, const char *want)
{
	char	*s = learn_shape(line);

	CHECK_STR(s, want);
	free(s);
}

static void
t_shape(void)
{
	shape_is("rm -rf ~/victim", "rm -rf ~/PATH");
	shape_is("rm -rf ~/build", "rm -rf ~/PATH");
	shape_is("rm -rf /", "rm -rf /");
	shape_is("rm -rf /tmp/x/y", "rm -rf /tmp/PATH");
	shape_is("/usr/bin/git push --force=yes origin", "git push --force= W");
	shape_is("FOO=1 sudo make -j8 install", "FOO= sudo make -? install");
	shape_is("ls -la | grep 'a b' > out.txt", "ls -la | grep W > W");
	shape_is("  ", "");
}

static void
t_table(void)
{
	struct learned			*l;
	const struct learned_shape	*ls;
	char				 dir[] = "/tmp/test-learn.XXXXXX", path[64];
	struct stat			 st;

	CHECK(mkdtemp(dir) != NULL);
	snprintf(path, sizeof path, "%s/learned.json", dir);
	CHECK_INT(learn_load(path, 2, &l, NULL), 0);
	CHECK(learn_lookup(l, "rm -rf ~/a", RISK_DANGEROUS) == NULL);
	ls = learn_count(l, "rm -rf ~/PATH", RISK_SAFE);
	CHECK_INT(ls->count, 1);
	CHECK(learn_lookup(l, "rm -rf ~/a", RISK_DANGEROUS) == NULL);
	learn_count(l, "rm -rf ~/PATH", RISK_SAFE);
	CHECK((ls = learn_lookup(l, "rm -rf ~/a", RISK_DANGEROUS)) != NULL);
	CHECK(ls != NULL && strncmp(ls->id, "learned:", 8) == 0);
	/* A correction the other way starts again. */
	learn_count(l, "rm -rf ~/PATH", RISK_DANGEROUS);
	CHECK(learn_lookup(l, "rm -rf ~/a", RISK_DANGEROUS) == NULL);
	CHECK(learn_lookup(l, "rm -rf ~/a", RISK_SAFE) != NULL);
	/* Raising takes one. */
	learn_count(l, "curl W", RISK_DANGEROUS);
	CHECK(learn_lookup(l, "curl example.org", RISK_SAFE) != NULL);
	CHECK_INT(learn_save(l, path), 0);
	CHECK(stat(path, &st) == 0 && (st.st_mode & 0777) == 0600);
	l = learn_free(l);
	CHECK_INT(learn_load(path, 2, &l, NULL), 0);
	CHECK_INT((int)l->n, 2);
	ls = learn_find(l, "curl W");
	CHECK(ls != NULL && ls->risk == RISK_DANGEROUS && ls->count == 1);
	CHECK_INT(learn_forget(l, ls->id), 0);
	CHECK_INT(learn_forget(l, "learned:0000000000000000"), -ENOENT);
	CHECK_INT((int)l->n, 1);
	learn_free(l);
	unlink(path);
	rmdir(dir);
}

static void
t_apply(void)
{
	struct learned	*l;
	struct verdict	 v;
	struct json_object *pats, *p;
	int		 i;

	CHECK_INT(learn_load("/nonexistent/learned.json", 2, &l, NULL), 0);
	l->cls = cl;
	for (i = 0; i < 2; i++) {
		learn_count(l, "rm -rf ~/PATH", RISK_SAFE);
		learn_count(l, "rm -rf /", RISK_SAFE);
	}
	classify_command(cl, "rm -rf ~/old", 12, NULL, &v);
	CHECK(v.risk == RISK_DANGEROUS);
	CHECK_INT(learn_apply(l, "rm -rf ~/old", &v), 1);
	CHECK(v.risk == RISK_SAFE);
	CHECK(strstr(v.description, "you marked this safe 2 times") != NULL);
	CHECK(json_object_object_get_ex(v.classification, "patterns", &pats));
	p = json_object_array_get_idx(pats,
	    json_object_array_length(pats) - 1);
	CHECK(strncmp(json_object_get_string(json_object_object_get(p,
	    "patternId")), "learned:", 8) == 0);
	CHECK_STR(json_object_get_string(json_object_object_get(
	    v.classification, "riskLevel")), "safe");
	verdict_release(&v);
	/* Catastrophic rules (overridable = no) are never learned away. */
	classify_command(cl, "rm -rf /", 8, NULL, &v);
	CHECK(v.risk == RISK_DANGEROUS);
	CHECK_INT(learn_apply(l, "rm -rf /", &v), 0);
	CHECK(v.risk == RISK_DANGEROUS);
	verdict_release(&v);
	CHECK_INT(learn_apply(NULL, "rm -rf /", &v), 0);
	learn_free(l);
}

struct sample {
	enum risk	 label;
	char		*line;
};

static void
gain(const char *name)
{
	struct learned	*l;
	struct sample	*s = NULL;
	struct verdict	 v;
	FILE		*f;
	char		 path[4096], *line = NULL, *tab, *shape;
	size_t		 cap = 0, n = 0, i, half, safe2 = 0, dang2 = 0;
	size_t		 fa0 = 0, fa1 = 0, hit0 = 0, hit1 = 0, taught = 0;
	ssize_t		 len;
	enum risk	 r, r0;
	int		 k;

	snprintf(path, sizeof path, "%s/tests/fixtures/classify/%s",
	    harness_src_dir(), name);
	CHECK((f = fopen(path, "r")) != NULL);
	if (f == NULL)
		return;
	while ((len = getline(&line, &cap, f)) != -1) {
		if (line[0] == '#' || (tab = strchr(line, '\t')) == NULL)
			continue;
		*tab = '\0';
		if (len > 0 && line[len - 1] == '\n')
			line[len - 1] = '\0';
		if (risk_parse(line, &r) != 0)
			continue;
		s = xreallocarray(s, n + 1, sizeof *s);
		s[n].label = r;
		s[n++].line = xstrdup(tab + 1);
	}
	free(line);
	fclose(f);
	CHECK(n > 100);
	CHECK_INT(learn_load("/nonexistent/learned.json", 2, &l, NULL), 0);
	l->cls = cl;
	/* The user answers f (twice) to every false alarm of the first half. */
	half = n / 2;
	for (i = 0; i < half; i++) {
		classify_command(cl, s[i].line, strlen(s[i].line), NULL, &v);
		r = v.risk;
		verdict_release(&v);
		if (r != RISK_DANGEROUS || s[i].label == RISK_DANGEROUS)
			continue;
		shape = learn_shape(s[i].line);
		for (k = 0; k < l->threshold; k++)
			learn_count(l, shape, s[i].label);
		free(shape);
		taught++;
	}
	for (i = half; i < n; i++) {
		classify_command(cl, s[i].line, strlen(s[i].line), NULL, &v);
		r0 = v.risk;
		learn_apply(l, s[i].line, &v);
		r = v.risk;
		verdict_release(&v);
		if (s[i].label != RISK_DANGEROUS) {
			safe2++;
			fa0 += r0 == RISK_DANGEROUS;
			fa1 += r == RISK_DANGEROUS;
		} else {
			dang2++;
			hit0 += r0 == RISK_DANGEROUS;
			hit1 += r == RISK_DANGEROUS;
		}
	}
	/* Learning lowers only: it never adds a false alarm. */
	CHECK(fa1 <= fa0);
	printf("summary: %s, second half (%zu not dangerous, %zu "
	    "dangerous), %zu false alarms of the first half corrected: "
	    "false alarms %zu -> %zu, recall %zu/%zu -> %zu/%zu\n", name,
	    safe2, dang2, taught, fa0, fa1, hit0, dang2, hit1, dang2);
	for (i = 0; i < n; i++)
		free(s[i].line);
	free(s);
	learn_free(l);
}

/*
 * A learned override that raises a verdict must put its command names in
 * the trigger set, or the hooks' fast path would skip it.
 */
static void
t_triggers(void)
{
	struct learned	*l = NULL;
	struct buf	 b = BUF_INIT;
	char		*shape;

	CHECK_INT(learn_load("/nonexistent/learned.json", 2, &l, NULL), 0);
	CHECK_INT(learn_triggers(l, &b), 0);
	CHECK_STR(b.data, "");
	shape = learn_shape("mytool deploy --prod");
	learn_count(l, shape, RISK_DANGEROUS);
	free(shape);
	shape = learn_shape("FOO=1 sudo othertool x && third -y");
	learn_count(l, shape, RISK_MODERATE);
	free(shape);
	shape = learn_shape("harmless-tool --fast");
	learn_count(l, shape, RISK_SAFE);
	free(shape);
	CHECK_INT(learn_triggers(l, &b), 4);
	CHECK_STR(b.data, "mytool sudo othertool third");
	buf_reset(&b);
	learn_triggers(l, &b);
	classify_triggers(cl, &b);
	CHECK(strstr(b.data, " mytool ") != NULL);
	CHECK(strstr(b.data, "harmless-tool") == NULL);
	CHECK(!classify_trigger_free("mytool deploy --prod", b.data));
	CHECK(!classify_trigger_free("./bin/third -y", b.data));
	CHECK(classify_trigger_free("harmless-tool --fast", b.data));
	buf_release(&b);
	learn_free(l);
}

static void
t_heldout(void)
{
	gain("heldout.tsv");
}

static void
t_corpus(void)
{
	gain("corpus.tsv");
}

int
main(void)
{
	char	 path[4096], *cause = NULL;

	snprintf(path, sizeof path, "%s/risk-rules", harness_src_dir());
	if (classifier_load(path, &cl, &cause) != 0) {
		fprintf(stderr, "load: %s\n", cause);
		free(cause);
		return 1;
	}
	RUN(t_shape);
	RUN(t_table);
	RUN(t_apply);
	RUN(t_triggers);
	RUN(t_heldout);
	RUN(t_corpus);
	classifier_free(cl);
	return harness_done();
}
