/*
 * Tests of the risk classifier against the real risk-rules/ directory:
 * every rule's examples, a labelled corpus with recall and false-alarm
 * targets, a held-out set, bypass techniques, the cache, the fast path,
 * hostile input and the shape of the classification object.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <json-c/json.h>

#include "buf.h"
#include "classify.h"
#include "harness.h"
#include "xmalloc.h"

#include "../../shell-hooks/hookcore.h"

static struct classifier *cl;
static struct buf	 triggers = BUF_INIT;	/* classify_triggers() */
static size_t		 tf_checked, tf_free;	/* soundness: lines seen,
						   trigger-free ones */
static size_t		 tf_safe, tf_safe_free;	/* safe corpus lines */
static char		 hook_dir[] = "/tmp/test-classify.XXXXXX";
static char		 hook_sock[64];		/* its triggers file beside */
static size_t		 hf_fast;		/* hook_fast_path() lines */

/* Figures for the summary line. */
static size_t	 sum_rules, sum_cats;
static double	 sum_rate[3];		/* corpus: recall fa modacc */
static size_t	 ho_nd, ho_nd_hit;	/* held-out files and catalogs pooled */
static size_t	 ho_ns, ho_ns_fa, ho_nm, ho_nm_ok;

static enum risk
risk_of(const char *line, struct verdict *keep)
{
	struct verdict	v;
	enum risk	r;

	classify_command(cl, line, strlen(line), NULL, &v);
	r = v.risk;
	if (keep != NULL)
		*keep = v;
	else
		verdict_release(&v);
	return r;
}

static int
has_technique(const struct verdict *v, const char *name)
{
	struct json_object	*bd, *tv;
	size_t			 i;

	if (!json_object_object_get_ex(v->classification, "bypassDetection",
	    &bd) || !json_object_object_get_ex(bd, "techniques", &tv))
		return 0;
	for (i = 0; i < json_object_array_length(tv); i++) {
		if (strcmp(json_object_get_string(
		    json_object_array_get_idx(tv, i)), name) == 0)
			return 1;
	}
	return 0;
}

/* No alias or function here: every first word is the command. */
static int
any_cmd(const char *w)
{
	(void)w;
	return 1;
}

/*
 * The hooks' own fast path (shell-hooks/hookcore.c: its read-only list,
 * then the trigger words from the file the daemon writes): a line it
 * lets through without a verdict must classify safe with no bypass, or
 * a moderate note or a prompt would be skipped.
 */
static int
hook_fast(const char *line)
{
	return hook_sock[0] != '\0' && hook_trig_load(hook_sock) &&
	    hook_fast_path(line, any_cmd);
}

/* The trigger file the daemon would write, for hook_trig_load(). */
static void
hook_setup(void)
{
	char	 path[128];
	FILE	*f;

	if (mkdtemp(hook_dir) == NULL) {
		CHECK(!"mkdtemp");
		return;
	}
	snprintf(path, sizeof path, "%s/triggers", hook_dir);
	if ((f = fopen(path, "w")) == NULL) {
		CHECK(!"triggers file");
		return;
	}
	fprintf(f, "deliberate-triggers-v1 %s\n", triggers.data);
	CHECK(fclose(f) == 0);
	snprintf(hook_sock, sizeof hook_sock, "%s/sock", hook_dir);
	CHECK(hook_trig_load(hook_sock));
}

static void
hook_cleanup(void)
{
	char	path[128];

	if (hook_sock[0] == '\0')
		return;
	snprintf(path, sizeof path, "%s/triggers", hook_dir);
	unlink(path);
	rmdir(hook_dir);
}

/*
 * The hooks' fast paths: a trigger-free line, and one that hookcore.c
 * lets through, must classify safe with no bypass, whatever its label.
 * 1 if the line is trigger-free.
 */
static int
check_trigger_free(const char *line)
{
	struct verdict	v;
	int		fast, free_, ok;

	fast = hook_fast(line);
	free_ = triggers.data != NULL &&
	    classify_trigger_free(line, triggers.data);
	if (!fast && !free_)
		return 0;
	hf_fast += fast;
	tf_free += free_;
	classify_command(cl, line, strlen(line), NULL, &v);
	ok = v.risk == RISK_SAFE && !v.bypass;
	if (!ok)
		fprintf(stderr, "%s but %s%s: %s\n", free_ ? "trigger-free" :
		    "hook fast path", risk_name(v.risk), v.bypass ?
		    " (bypass)" : "", line);
	CHECK(ok);
	verdict_release(&v);
	return free_;
}

static void
t_load(void)
{
	char	 path[4096], *cause = NULL;
	int	 r;

	snprintf(path, sizeof path, "%s/risk-rules", harness_src_dir());
	r = classifier_load(path, &cl, &cause);
	if (r != 0)
		fprintf(stderr, "load: %s\n", cause);
	free(cause);
	CHECK_INT(r, 0);
	CHECK(cl != NULL && classifier_nrules(cl) >= 250);
	if (cl != NULL)
		CHECK_INT(classify_triggers(cl, &triggers), 0);
	if (triggers.data != NULL)
		hook_setup();
}

static void
t_rule_examples(void)
{
	const struct risk_rule_info	*ri;
	size_t				 i, k, ncat = 0, c2;
	const char			*cats[256];
	struct verdict			 v;

	for (i = 0; i < classifier_nrules(cl); i++) {
		ri = classifier_rule(cl, i);
		CHECK(ri->nmatch > 0);
		for (k = 0; k < ri->nmatch; k++) {
			int ok = classifier_rule_matches(cl, i, ri->match[k]);

			if (!ok)
				fprintf(stderr, "%s: '%s' not matched\n",
				    ri->id, ri->match[k]);
			CHECK(ok);
			classify_command(cl, ri->match[k],
			    strlen(ri->match[k]), NULL, &v);
			if (ri->risk != RISK_SAFE && v.risk < ri->risk)
				fprintf(stderr, "%s: '%s' is %s\n", ri->id,
				    ri->match[k], risk_name(v.risk));
			CHECK(ri->risk == RISK_SAFE || v.risk >= ri->risk);
			verdict_release(&v);
		}
		for (k = 0; k < ri->nnomatch; k++) {
			int hit = classifier_rule_matches(cl, i,
			    ri->nomatch[k]);

			if (hit)
				fprintf(stderr, "%s: nomatch '%s' matched\n",
				    ri->id, ri->nomatch[k]);
			CHECK(!hit);
		}
		/*
		 * Every entry stores the names of the rules considered: a
		 * name holds no path that check-privacy would flag.
		 */
		if (ri->name != NULL && (strstr(ri->name, "~/") != NULL ||
		    strstr(ri->name, "/home/") != NULL ||
		    strstr(ri->name, "/Users/") != NULL ||
		    strstr(ri->name, "/root") != NULL)) {
			fprintf(stderr, "%s: a path in the name '%s'\n", ri->id,
			    ri->name);
			CHECK(!"a home path in a rule name");
		}
		/* The guard must not block its own alternative. */
		if (ri->alternative != NULL && ri->risk != RISK_SAFE &&
		    strncmp(ri->alternative, "use ", 4) != 0) {
			enum risk r = risk_of(ri->alternative, NULL);

			if (r == RISK_DANGEROUS)
				fprintf(stderr, "%s: alternative '%s' is "
				    "dangerous\n", ri->id, ri->alternative);
			CHECK(r != RISK_DANGEROUS);
		}
		for (c2 = 0; c2 < ncat; c2++) {
			if (strcmp(cats[c2], ri->category) == 0)
				break;
		}
		if (c2 == ncat && ncat < 256)
			cats[ncat++] = ri->category;
	}
	printf("rules: %zu in %zu categories\n", classifier_nrules(cl), ncat);
	sum_rules = classifier_nrules(cl);
	sum_cats = ncat;
	CHECK(ncat >= 20);
}

/*
 * Run a labelled file.  The strict file's rates go to sum_rate, the
 * others' counts to the held-out pool.  Only a strict file (the tuning
 * corpus) fails the test below its targets; the held-out files are
 * reported.  Caught means classified dangerous; a
 * false alarm is a safe line classified moderate or dangerous.
 */
static void
run_corpus(const char *file, double want_recall, double want_fa,
    int strict)
{
	char		 path[4096], *line = NULL, *tab;
	size_t		 cap = 0;
	ssize_t		 n;
	FILE		*f;
	enum risk	 want, got;
	size_t		 nd = 0, nd_hit = 0, ns = 0, ns_fa = 0, nm = 0, nm_ok = 0;
	size_t		 total = 0;
	double		 recall, fa, modacc;
	struct timespec	 t0, t1;

	snprintf(path, sizeof path, "%s/tests/fixtures/classify/%s",
	    harness_src_dir(), file);
	f = fopen(path, "r");
	CHECK(f != NULL);
	if (f == NULL)
		return;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	while ((n = getline(&line, &cap, f)) != -1) {
		if (n > 0 && line[n - 1] == '\n')
			line[--n] = '\0';
		if (line[0] == '#' || line[0] == '\0')
			continue;
		if ((tab = strchr(line, '\t')) == NULL)
			continue;
		*tab = '\0';
		if (risk_parse(line, &want) != 0) {
			CHECK(!"bad label");
			continue;
		}
		total++;
		got = risk_of(tab + 1, NULL);
		tf_checked++;
		if (check_trigger_free(tab + 1) && strict && want == RISK_SAFE)
			tf_safe_free++;
		if (strict && want == RISK_SAFE)
			tf_safe++;
		if (want == RISK_DANGEROUS) {
			nd++;
			if (got == RISK_DANGEROUS)
				nd_hit++;
		} else if (want == RISK_SAFE) {
			ns++;
			if (got != RISK_SAFE)
				ns_fa++;
		} else {
			nm++;
			if (got == RISK_MODERATE)
				nm_ok++;
		}
		if (got != want && getenv("CLASSIFY_VERBOSE") != NULL)
			fprintf(stderr, "%s: want %s got %s: %s\n", file,
			    risk_name(want), risk_name(got), tab + 1);
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	free(line);
	fclose(f);
	recall = nd ? (double)nd_hit / nd : 1;
	fa = ns ? (double)ns_fa / ns : 0;
	modacc = nm ? (double)nm_ok / nm : 1;
	printf("%s: %zu commands; dangerous recall %.1f%% (%zu/%zu), "
	    "safe false alarms %.1f%% (%zu/%zu), moderate accuracy %.1f%% "
	    "(%zu/%zu); %.1f us/command\n", file, total, recall * 100, nd_hit,
	    nd, fa * 100, ns_fa, ns, modacc * 100, nm_ok, nm,
	    ((t1.tv_sec - t0.tv_sec) * 1e6 + (t1.tv_nsec - t0.tv_nsec) / 1e3) /
	    (total ? total : 1));
	if (strict) {
		sum_rate[0] = recall;
		sum_rate[1] = fa;
		sum_rate[2] = modacc;
		CHECK(total >= 1000);
		CHECK(recall >= want_recall);
		CHECK(fa <= want_fa);
	} else {
		ho_nd += nd;
		ho_nd_hit += nd_hit;
		ho_ns += ns;
		ho_ns_fa += ns_fa;
		ho_nm += nm;
		ho_nm_ok += nm_ok;
		if (recall < want_recall || fa > want_fa)
			printf("%s: below target (recall >= %.0f%%, false "
			    "alarms <= %.0f%%)\n", file, want_recall * 100,
			    want_fa * 100);
	}
}

static void
t_corpus(void)
{
	run_corpus("corpus.tsv", 0.98, 0.02, 1);
}

/*
 * The held-out sets (each written by a colleague who did not read the
 * rules; reported, never failed) and the tool catalogs, in the order
 * they were written.  docs/evaluation.md says who wrote each and when,
 * and each file's header gives its untuned figures.
 */
static const char *const heldout_files[] = {
	"heldout.tsv",
	"heldout2.tsv",
	"heldout3.tsv",
	"heldout4.tsv",
	"heldout5.tsv",
	"heldout6.tsv",
	"heldout7.tsv",
	"heldout8.tsv",
	"heldout9.tsv",
	"heldout10.tsv",
	"heldout11.tsv",
	"heldout12.tsv",
	"heldout13.tsv",
	"heldout14.tsv",
	"heldout15.tsv",
	"heldout16.tsv",
	"heldout17.tsv",
	"heldout18.tsv",
	"heldout19.tsv",
	"heldout20.tsv",
	"heldout21.tsv",
	"heldout22.tsv",
	/* Mainstream weeks: a backend developer, a desktop user, an AWS DevOps
	 * engineer, a student. */
	"heldout23.tsv",
	"heldout24.tsv",
	/*
	 * A DBA, an embedded and mobile developer, a data engineer, a RHEL
	 * sysadmin.
	 */
	"heldout25.tsv",
	/*
	 * A WordPress hosting admin, a storage and backup admin, a network and
	 * security engineer, a macOS creative professional.
	 */
	"heldout26.tsv",
	/*
	 * A Kubernetes platform engineer, an infrastructure-as-code engineer, a
	 * JVM backend developer, a graduate student on a shared cluster.
	 */
	"heldout27.tsv",
	/*
	 * A Debian package maintainer, a virtualization admin, a front-end
	 * developer, a Windows admin in WSL and PowerShell.
	 */
	"heldout28.tsv",
	/*
	 * A desktop user, a Python backend developer, an AI coding agent, a
	 * small-business IT person.
	 */
	"heldout29.tsv",
	/*
	 * An SRE, a systems developer, a data scientist, a security-conscious
	 * power user.
	 */
	"heldout30.tsv",
	/*
	 * A university lab sysadmin, a full-stack JavaScript developer, a
	 * DevSecOps engineer, a home-server hobbyist.
	 */
	"heldout31.tsv",
	/*
	 * A product engineer, a Windows developer in Git Bash and WSL, a Mac
	 * creative, an ISP operator.
	 */
	"heldout32.tsv",
	/*
	 * A generalist developer, a junior copying answers, an AI coding agent
	 * in a leaky sandbox, a Linux gamer.
	 */
	"heldout33.tsv",
	/*
	 * A startup's only ops person, a bioinformatics researcher, an incident
	 * responder, a teacher and tinkerer.
	 */
	"heldout34.tsv",
	/*
	 * Two ordinary weeks each of a backend developer, a hosting sysadmin, a
	 * data/ML engineer, a DevOps engineer.
	 */
	"heldout35.tsv",
	/*
	 * Two ordinary weeks each of a frontend/mobile developer, a desktop power
	 * user, a platform engineer, a security-minded sysadmin.
	 */
	"heldout36.tsv",
	"heldout37.tsv",
	"heldout38.tsv",
	"heldout39.tsv",
	"heldout40.tsv",
	"heldout41.tsv",
	"heldout42.tsv",
	"heldout43.tsv",
	/* Ordinary weeks of four more roles, written after catalog 5's fixes
	 * (measured after heldout44's fixes). */
	"heldout44.tsv",
	"heldout45.tsv",
	"heldout46.tsv",
	"heldout47.tsv",
	"heldout48.tsv",
	"heldout49.tsv",
	"heldout50.tsv",
	"heldout51.tsv",
	"heldout52.tsv",
	"heldout53.tsv",
	"heldout54.tsv",
	"heldout55.tsv",
	"heldout56.tsv",
	"heldout57.tsv",
	"heldout58.tsv",
	"heldout59.tsv",
	"heldout60.tsv",
	"heldout61.tsv",
	"heldout62.tsv",
	"heldout63.tsv",
	"heldout64.tsv",
	"heldout65.tsv",
	"heldout66.tsv",
	"heldout67.tsv",
	"heldout68.tsv",
	"heldout69.tsv",
	"heldout70.tsv",
	"heldout71.tsv",
	"heldout72.tsv",
	"heldout73.tsv",
	"heldout74.tsv",
	"heldout75.tsv",
	"heldout76.tsv",
	"heldout77.tsv",
	"heldout78.tsv",
	"heldout79.tsv",
	"heldout80.tsv",
	"heldout81.tsv",
	"heldout82.tsv",
	"heldout83.tsv",
	"heldout84.tsv",
	"heldout85.tsv",
	"heldout86.tsv",
	"heldout87.tsv",
	"heldout88.tsv",
	"heldout89.tsv",
	"heldout90.tsv",
	"heldout91.tsv",
	"heldout92.tsv",
	"heldout93.tsv",
	"heldout94.tsv",
	"heldout95.tsv",
	"heldout96.tsv",
	"heldout97.tsv",
	"heldout98.tsv",
	"heldout102.tsv",
	"heldout101.tsv",
	"heldout100.tsv",
	"heldout99.tsv",
	"heldout103.tsv",
	"heldout105.tsv",
	"heldout104.tsv",
	"heldout106.tsv",
	"heldout108.tsv",
	"heldout110.tsv",
	"heldout109.tsv",
	"heldout107.tsv",
	"heldout114.tsv",
	"heldout112.tsv",
	"heldout111.tsv",
	"heldout113.tsv",
	"heldout117.tsv",
	"heldout115.tsv",
	"heldout116.tsv",
	"heldout118.tsv",
	"heldout119.tsv",
	"heldout120.tsv",
	"heldout121.tsv",
	"heldout122.tsv",
	"heldout123.tsv",
	"heldout125.tsv",
	"heldout124.tsv",
	"heldout126.tsv",
	"heldout127.tsv",
	"heldout128.tsv",
	"heldout129.tsv",
	"heldout130.tsv",
	"heldout131.tsv",
	"heldout132.tsv",
	"heldout133.tsv",
	"heldout134.tsv",
	"heldout135.tsv",
	"heldout136.tsv",
	"heldout137.tsv",
	"heldout138.tsv",
	"heldout139.tsv",
	"heldout140.tsv",
	"heldout141.tsv",
	"heldout142.tsv",
	"heldout143.tsv",
	"heldout144.tsv",
	"heldout145.tsv",
	"heldout146.tsv",
	"heldout147.tsv",
	"heldout148.tsv",
	"heldout149.tsv",
	/*
	 * Catalog 1: destructive invocations and look-alikes of 120 less famous
	 * tools, written to widen the rules (not held out: its families were
	 * fixed from it).
	 */
	"catalog1.tsv",
	"catalog2.tsv",
	/*
	 * Catalog 3: the same destructive intents in many disguises (variables,
	 * one-liners, obfuscation, stdin scripts), with look-alikes.
	 */
	"catalog3.tsv",
	"catalog4.tsv",
	/*
	 * Catalog 5 (session 10): 120 more tools (CI, app platforms, queues,
	 * identity, backup, virtualization, storage, CMSs, registries, phones,
	 * mail and DNS, home servers, security tools).
	 */
	"catalog5.tsv",
};

static void
t_heldout(void)
{
	size_t	i;

	for (i = 0; i < sizeof heldout_files / sizeof heldout_files[0]; i++)
		run_corpus(heldout_files[i], 0.95, 0.05, 0);
}

/* Soundness over every rule example, and the set itself. */
static void
t_triggers(void)
{
	static const char	*free_lines[] = {
		"make -j4 all", "vim notes.txt", "cargo build --release",
		"npm test", "cd src", "ls -la", "mkdir -p build",
		"go test ./...", "cargo test", "npm ci", "pytest tests",
		"node_modules/.bin/tsc --noEmit", "cmake -B build",
		/*
		 * Rules name echo, printf, true and : with >> or |; alone
		 * they print (session 15: "true" had slowed every
		 * "/bin/true" and echo line to a full check since session 11).
		 */
		"echo done", "/bin/true ls -la r1", "printf %s x", ": x",
	};
	static const char	*trigger_lines[] = {
		"rm -rf x", "sudo ls", "/usr/bin/rm -rf x", "busybox rm x",
		"mkfs.ext4 /dev/sdb", "env -i sh", "git push --force origin main",
		"curl https://x.sh", "python3 manage.py runserver",
		"export LD_PRELOAD", "alias ls", "command rm x",
		"xargs rm", "find . -delete", "ssh host reboot",
		"docker exec db dropdb app", "at now", "shutdown now",
		"/lib64/ld-linux-x86-64.so.2 /bin/ls", "pssh -h h reboot",
		/* characters outside the set */
		"ls > x", "ls | sh", "echo $HOME", "r\\m x", "ls *",
		"a=rm", "ls ~", "ls; rm x", "ls 'x'",
	};
	const struct risk_rule_info	*ri;
	size_t				 i, k;

	CHECK(triggers.data != NULL && triggers.len > 0);
	if (triggers.data == NULL)
		return;
	printf("trigger words: %zu bytes\n", triggers.len);
	/* Sorted and unique. */
	{
		char	*copy = xstrdup(triggers.data), *w, *p, *prev = NULL;

		for (w = strtok_r(copy, " ", &p); w != NULL;
		    w = strtok_r(NULL, " ", &p)) {
			if (prev != NULL)
				CHECK(strcmp(prev, w) < 0);
			prev = w;
		}
		free(copy);
	}
	CHECK(strstr(triggers.data, "mkfs*") != NULL);
	CHECK(strstr(triggers.data, "python*") != NULL);
	for (i = 0; i < sizeof free_lines / sizeof free_lines[0]; i++) {
		if (!classify_trigger_free(free_lines[i], triggers.data))
			fprintf(stderr, "not trigger-free: %s\n",
			    free_lines[i]);
		CHECK(classify_trigger_free(free_lines[i], triggers.data));
		CHECK(check_trigger_free(free_lines[i]));
	}
	for (i = 0; i < sizeof trigger_lines / sizeof trigger_lines[0]; i++) {
		if (classify_trigger_free(trigger_lines[i], triggers.data))
			fprintf(stderr, "trigger-free: %s\n", trigger_lines[i]);
		CHECK(!classify_trigger_free(trigger_lines[i],
		    triggers.data));
	}
	/* Prefix entries and basenames. */
	CHECK(!classify_trigger_free("x mkfs", "mkfs*"));
	CHECK(!classify_trigger_free("/sbin/mkfs.xfs d", "mkfs*"));
	CHECK(classify_trigger_free("mkf x", "mkfs*"));
	CHECK(!classify_trigger_free("a ./b/rm", "ls rm"));
	CHECK(classify_trigger_free("rmx rm/", "ls rm"));
	CHECK(classify_trigger_free("", "rm"));

	for (i = 0; i < classifier_nrules(cl); i++) {
		ri = classifier_rule(cl, i);
		for (k = 0; k < ri->nmatch; k++)
			check_trigger_free(ri->match[k]);
		for (k = 0; k < ri->nnomatch; k++)
			check_trigger_free(ri->nomatch[k]);
		if (ri->alternative != NULL)
			check_trigger_free(ri->alternative);
	}
}

/*
 * A rule on the raw line has no command to put in the trigger set: its
 * keywords stand in, and each of its examples shows one of them.
 */
static void
t_keywords(void)
{
	const struct risk_rule_info	*ri;
	size_t				 i, k, kw;
	int				 seen;

	for (i = 0; i < classifier_nrules(cl); i++) {
		ri = classifier_rule(cl, i);
		if (!ri->line_scope || ri->risk == RISK_SAFE)
			continue;
		if (ri->nkeywords == 0)
			fprintf(stderr, "%s: scope = line without keywords\n",
			    ri->id);
		CHECK(ri->nkeywords > 0);
		for (k = 0; k < ri->nmatch; k++) {
			seen = 0;
			for (kw = 0; kw < ri->nkeywords; kw++) {
				/* NAME* is a prefix: NAME must show. */
				const char	*w = ri->keywords[kw];
				size_t		 wl = strlen(w);
				char		*pre = xstrndup(w, wl > 1 &&
				    w[wl - 1] == '*' ? wl - 1 : wl);

				if (strstr(ri->match[k], pre))
					seen = 1;
				free(pre);
			}
			if (!seen)
				fprintf(stderr, "%s: '%s' has no keyword\n",
				    ri->id, ri->match[k]);
			CHECK(seen);
		}
	}
}

static void
t_decisions(void)
{
	/* The label disagreements of JUDGE-NOTES, decided. */
	CHECK_INT(risk_of("git push --force origin main", NULL),
	    RISK_DANGEROUS);
	CHECK_INT(risk_of("git reset --hard HEAD~10", NULL), RISK_DANGEROUS);
	CHECK_INT(risk_of("rm -rf ./build", NULL), RISK_SAFE);
	CHECK_INT(risk_of("rm -rf build/", NULL), RISK_SAFE);
	CHECK_INT(risk_of("rm -rf /tmp/build", NULL), RISK_SAFE);
	/* heldout12: relative source trees and siblings; cleanup stays safe */
	CHECK_INT(risk_of("rm -rf ./src", NULL), RISK_DANGEROUS);
	CHECK_INT(risk_of("rm -rf ../webapp", NULL), RISK_DANGEROUS);
	CHECK_INT(risk_of("rm -fr /home/deploy/app", NULL), RISK_DANGEROUS);
	CHECK_INT(risk_of("(cd ~/code && rm -rf api web infra)", NULL),
	    RISK_DANGEROUS);
	CHECK_INT(risk_of("rm -rf node_modules", NULL), RISK_SAFE);
	CHECK_INT(risk_of("rm -rf ./dist", NULL), RISK_SAFE);
	CHECK_INT(risk_of("rm -rf target", NULL), RISK_SAFE);
	CHECK_INT(risk_of("rm -rf /tmp/x", NULL), RISK_SAFE);
	CHECK_INT(risk_of("find . -name '*.pyc' -delete", NULL), RISK_SAFE);
	CHECK_INT(risk_of("find . -name \"*.go\" | xargs rm", NULL),
	    RISK_DANGEROUS);
	CHECK_INT(risk_of("echo \"\" | crontab -", NULL), RISK_DANGEROUS);
	CHECK_INT(risk_of("python script.py", NULL), RISK_SAFE);
	CHECK_INT(risk_of("aws secretsmanager get-secret-value --secret-id x",
	    NULL), RISK_MODERATE);
	CHECK_INT(risk_of("git push --force-with-lease origin feature/x",
	    NULL), RISK_MODERATE);
	CHECK_INT(risk_of("git status && git reset --hard", NULL),
	    RISK_DANGEROUS);
	CHECK_INT(risk_of("echo 'rm -rf /'", NULL), RISK_SAFE);
	CHECK_INT(risk_of("git commit -m \"fix rm -rf detection\"", NULL),
	    RISK_SAFE);
	CHECK_INT(risk_of("echo 'rm -rf /' | sh", NULL), RISK_DANGEROUS);
	CHECK_INT(risk_of("cat <<EOF | bash\nrm -rf ~\nEOF", NULL),
	    RISK_DANGEROUS);
	CHECK_INT(risk_of("cat <<EOF > notes.txt\nrm -rf ~\nEOF", NULL),
	    RISK_MODERATE);
	CHECK_INT(risk_of("eval \"$(ssh-agent -s)\"", NULL), RISK_SAFE);
	CHECK_INT(risk_of("deliberate explain 'rm -rf /'", NULL), RISK_SAFE);
	/* Help and dry-run forms (held-out set 7). */
	CHECK_INT(risk_of("terraform destroy --help", NULL), RISK_SAFE);
	CHECK_INT(risk_of("gcloud projects delete --help", NULL), RISK_SAFE);
	CHECK_INT(risk_of("aws s3 rb help", NULL), RISK_SAFE);
	CHECK_INT(risk_of("zfs destroy -nv tank/data@%", NULL), RISK_SAFE);
	CHECK_INT(risk_of("kubectl delete ns prod --dry-run=none", NULL),
	    RISK_DANGEROUS);
	CHECK_INT(risk_of("bash -c 'rm -rf /' --help", NULL), RISK_DANGEROUS);
	CHECK_INT(risk_of("rm -rf / --help", NULL), RISK_DANGEROUS);
	CHECK_INT(risk_of("sudo apt-get -s remove libc6", NULL),
	    RISK_MODERATE);
	/* Built-in checks (held-out set 8). */
	CHECK_INT(risk_of("pm2 delete all", NULL), RISK_DANGEROUS);
	CHECK_INT(risk_of("supervisorctl stop all", NULL), RISK_DANGEROUS);
	CHECK_INT(risk_of("Get-Process | Stop-Process -Force", NULL),
	    RISK_DANGEROUS);
	CHECK_INT(risk_of("rm -rf ~/src/payments-service", NULL),
	    RISK_DANGEROUS);
	CHECK_INT(risk_of("rm -rf ~/src/app/node_modules", NULL), RISK_SAFE);
	CHECK(risk_of("kill -9 4312", NULL) != RISK_DANGEROUS);
	CHECK_INT(risk_of("docker rm -f abc", NULL), RISK_MODERATE);
	CHECK_INT(risk_of("git commit -m \"TRUNCATE TABLE users\"", NULL),
	    RISK_SAFE);
	CHECK_INT(risk_of("bq query --dry_run 'DROP TABLE ds.t'", NULL),
	    RISK_SAFE);
	/* Held-out set 9: harmless purge/clean/reset subcommands. */
	{
		static const char	*harmless[] = {
			"module purge", "ml purge", "make clean", "mvn clean",
			"gradle clean", "cargo clean", "go clean -cache",
			"npm cache clean --force", "pip cache purge",
			"conda clean --all -y", "systemctl reset-failed",
			"tput reset", "reset", "brew cleanup", "apt clean",
			"docker builder prune", "mix deps.clean --all",
			"poetry cache clear --all pypi", "ip route flush cache",
			"nodetool clearsnapshot -t pre-upgrade shop",
			"birdc disable peer_ix2", "supabase db reset",
		};
		size_t			 i;

		for (i = 0; i < sizeof harmless / sizeof harmless[0]; i++) {
			if (risk_of(harmless[i], NULL) == RISK_DANGEROUS)
				fprintf(stderr, "dangerous: %s\n", harmless[i]);
			CHECK(risk_of(harmless[i], NULL) != RISK_DANGEROUS);
		}
	}
	/* Held-out set 9: strong verbs, destroying flags, containers. */
	CHECK_INT(risk_of("nodetool assassinate 10.0.3.14", NULL),
	    RISK_DANGEROUS);
	CHECK_INT(risk_of("sudo xfs_repair -L /dev/vg0/lv", NULL),
	    RISK_DANGEROUS);
	CHECK_INT(risk_of("neonctl projects delete abc", NULL),
	    RISK_DANGEROUS);
	CHECK_INT(risk_of("echo 'TRUNCATE t;' | npx prisma db execute --stdin",
	    NULL), RISK_DANGEROUS);
}

static void
t_structure(void)
{
	static const struct {
		const char	*line;
		enum risk	 want;
	} cases[] = {
		/* Worst part wins. */
		{ "git status && git reset --hard", RISK_DANGEROUS },
		{ "ls; make; rm -rf ~", RISK_DANGEROUS },
		{ "npm test || rm -rf /", RISK_DANGEROUS },
		/* Wrappers are seen through. */
		{ "FOO=1 rm -rf /", RISK_DANGEROUS },
		{ "sudo rm -rf /", RISK_DANGEROUS },
		{ "doas rm -rf /", RISK_DANGEROUS },
		{ "env rm -rf /", RISK_DANGEROUS },
		{ "env A=1 B=2 rm -rf /", RISK_DANGEROUS },
		{ "nice -n 5 rm -rf /", RISK_DANGEROUS },
		{ "nohup rm -rf / &", RISK_DANGEROUS },
		{ "time rm -rf /", RISK_DANGEROUS },
		{ "timeout 10 rm -rf /", RISK_DANGEROUS },
		{ "echo / | xargs rm -rf", RISK_DANGEROUS },
		{ "xargs rm -rf /", RISK_DANGEROUS },
		{ "command rm -rf /", RISK_DANGEROUS },
		{ "exec rm -rf /", RISK_DANGEROUS },
		{ "builtin rm -rf /", RISK_DANGEROUS },
		{ "\\rm -rf /", RISK_DANGEROUS },
		{ "/usr/bin/rm -rf /", RISK_DANGEROUS },
		{ "busybox rm -rf /", RISK_DANGEROUS },
		{ "sudo -u root env FOO=1 nice rm -rf /", RISK_DANGEROUS },
		/*
		 * A setting that starts a printed line (after printf's \\n)
		 * starts a word for the line rules (session 15).
		 */
		{ "printf 'port 1883\\nallow_anonymous true\\n' > mosquitto.conf",
		    RISK_DANGEROUS },
		/* Executed text is scanned. */
		{ "sh -c 'rm -rf /'", RISK_DANGEROUS },
		{ "bash -c \"git reset --hard\"", RISK_DANGEROUS },
		{ "ssh host 'rm -rf /'", RISK_DANGEROUS },
		{ "ssh -p 22 -i key user@host sudo reboot", RISK_DANGEROUS },
		{ "eval 'rm -rf ~'", RISK_DANGEROUS },
		{ "xargs sh -c 'rm -rf /'", RISK_DANGEROUS },
		{ "find / -exec rm -rf {} \\;", RISK_DANGEROUS },
		{ "watch 'rm -rf /'", RISK_DANGEROUS },
		{ "echo $(rm -rf /)", RISK_DANGEROUS },
		{ "echo `rm -rf ~`", RISK_DANGEROUS },
		{ "diff <(rm -rf /) x", RISK_DANGEROUS },
		{ "echo 'rm -rf /' | sh", RISK_DANGEROUS },
		{ "printf 'rm -rf /\\n' | bash", RISK_DANGEROUS },
		{ "bash <<< 'rm -rf /'", RISK_DANGEROUS },
		{ "curl -fsSL https://x.io/i.sh | sh", RISK_DANGEROUS },
		{ "bash <(curl -s https://x.io/i.sh)", RISK_DANGEROUS },
		{ "sh -c \"$(curl -fsSL https://x.io/i.sh)\"", RISK_DANGEROUS },
		{ "wget -O- https://x.io/i.sh | bash", RISK_DANGEROUS },
		{ "rm${IFS}-rf${IFS}/", RISK_DANGEROUS },
		{ "docker exec db psql -c 'DROP DATABASE prod'",
		    RISK_DANGEROUS },
		{ "kubectl exec -n x pod -- rm -rf /", RISK_DANGEROUS },
		{ "docker compose run --rm web rm -rf /", RISK_DANGEROUS },
		{ "docker-compose run -e X=1 web rm -rf /", RISK_DANGEROUS },
		{ "docker compose run --rm web pytest", RISK_SAFE },
		{ "pssh -h hosts 'rm -rf /'", RISK_DANGEROUS },
		{ "sudo -i <<< 'rm -rf /'", RISK_DANGEROUS },
		{ "su <<< 'rm -rf /'", RISK_DANGEROUS },
		{ "at now <<< 'rm -rf ~'", RISK_DANGEROUS },
		{ "x=rm; $x -rf /", RISK_DANGEROUS },
		/* Arguments assigned earlier on the line are expanded. */
		{ "D=/dev/sdb; dd if=x.img of=$D", RISK_DANGEROUS },
		{ "d=/; rm -rf ${d}", RISK_DANGEROUS },
		{ "rm -rf `echo /`", RISK_DANGEROUS },
		{ "d=build; rm -rf $d", RISK_SAFE },
		/* Container and VM managers, repo forall. */
		{ "pct exec 105 -- bash -c 'rm -rf /'", RISK_DANGEROUS },
		{ "lxc exec web -- rm -rf /", RISK_DANGEROUS },
		{ "qm guest exec 101 -- rm -rf /", RISK_DANGEROUS },
		{ "repo forall -c 'git reset --hard'", RISK_DANGEROUS },
		{ "vagrant ssh -c 'sudo reboot'", RISK_DANGEROUS },
		{ "pct exec 105 -- ls /", RISK_SAFE },
		{ "repo forall -c 'git status'", RISK_SAFE },
		/* HPC launchers and batch jobs. */
		{ "mpirun -np 64 sh -c 'rm -rf ~'", RISK_DANGEROUS },
		{ "srun -N 2 --ntasks 8 rm -rf /", RISK_DANGEROUS },
		{ "sbatch -p short --wrap=\"rm -rf ~\"", RISK_DANGEROUS },
		{ "sbatch --wrap 'git reset --hard'", RISK_DANGEROUS },
		{ "apptainer exec -B /data:/data img.sif rm -rf /data", RISK_DANGEROUS },
		{ "mpirun -np 4 ./a.out", RISK_SAFE },
		{ "sbatch --wrap=\"python train.py\"", RISK_SAFE },
		{ "apptainer exec img.sif ls /", RISK_SAFE },
		{ "python -c \"import shutil; shutil.rmtree('.')\"", RISK_DANGEROUS },
		{ "python -c \"import shutil; shutil.rmtree('build')\"", RISK_MODERATE },
		/* A computed name with rm's flags: sys:dynamic-command-destroy. */
		{ "${x} -rf /", RISK_DANGEROUS },
		{ "IFS=:; c=rm:-rf:/; $c", RISK_DANGEROUS },
		{ "$(echo rm) -rf ~", RISK_DANGEROUS },
		{ "eval \"$(echo rm -rf /)\"", RISK_DANGEROUS },
		{ "echo 'rm -rf /' > x.sh; bash x.sh", RISK_DANGEROUS },
		{ "echo 'rm -rf /' > x.sh; ./x.sh", RISK_DANGEROUS },
		{ "echo 'make' > x.sh; bash x.sh", RISK_SAFE },
		{ "ls | xargs rm -rf", RISK_DANGEROUS },
		{ "echo /dev/sdb | xargs -I{} dd if=x of={}", RISK_DANGEROUS },
		{ "echo /dev/sdb | xargs -I % dd if=x of=%", RISK_DANGEROUS },
		{ "echo /dev/null | xargs -I{} dd if=x of={}", RISK_SAFE },
		{ "ls build | xargs rm -rf", RISK_SAFE },
		{ "ls runs/ | xargs -I{} rm -rf checkpoints/{}", RISK_DANGEROUS },
		{ "python - <<< $'import shutil\\nshutil.rmtree(\"/data/datasets/churn\")'", RISK_DANGEROUS },
		{ "python3 <<< 'import shutil; shutil.rmtree(\"/\")'", RISK_DANGEROUS },
		{ "python3 <<< 'print(1)'", RISK_SAFE },
		{ "aws ssm send-command --document-name AWS-RunShellScript --instance-ids i-0abc --parameters 'commands=[\"sudo rm -rf /var/lib/docker/volumes\"]'", RISK_DANGEROUS },
		{ "aws ssm send-command --document-name AWS-RunShellScript --instance-ids i-0abc --parameters 'commands=[\"uptime\",\"df -h\"]'", RISK_SAFE },
		{ "ls runs/ | xargs -I{} rm -rf build/{}", RISK_SAFE },
		{ "cat dirs.txt | xargs rm -rf", RISK_DANGEROUS },
		/* pnpm and yarn run a package binary named first. */
		{ "pnpm prisma migrate reset --force", RISK_DANGEROUS },
		{ "yarn prisma migrate reset", RISK_DANGEROUS },
		{ "yarn build", RISK_SAFE },
		{ "pnpm install", RISK_SAFE },
		{ "perl -e 'use File::Path; rmtree(\"/etc\")'",
		    RISK_DANGEROUS },
		/* Databricks' dbutils.fs.rm(PATH, True) is rm -rf PATH. */
		{ "python -c \"from databricks.sdk.runtime import dbutils; "
		    "dbutils.fs.rm('/mnt/raw', True)\"", RISK_DANGEROUS },
		{ "python -c \"from databricks.sdk.runtime import dbutils; "
		    "dbutils.fs.rm('/tmp/scratch', True)\"", RISK_MODERATE },
		{ "python3 -c \"import os; os.system('ls')\"", RISK_MODERATE },
		{ "psql -c 'DROP DATABASE prod'", RISK_DANGEROUS },
		{ "echo 'DROP TABLE users' | psql app", RISK_DANGEROUS },
		/* Data is not executed. */
		{ "echo 'rm -rf /'", RISK_SAFE },
		{ "git commit -m \"fix rm -rf detection\"", RISK_SAFE },
		/* -am: combined short options ending in m (session 16). */
		{ "git commit -am \"never run VACUUM RETAIN 0 HOURS on prod\"",
		    RISK_SAFE },
		{ "grep 'DROP TABLE' schema.sql", RISK_SAFE },
		{ "eval \"$(ssh-agent -s)\"", RISK_SAFE },
		{ "eval \"$(direnv hook bash)\"", RISK_SAFE },
		{ "deliberate classify -- 'rm -rf /'", RISK_SAFE },
		{ "echo ':(){ :|:& };:'", RISK_SAFE },
		{ "command -v rm", RISK_SAFE },
		{ "alias rm='rm -I'", RISK_SAFE },
		{ "alias k=kubectl", RISK_SAFE },
		{ "alias cp='cp -i' mv='mv -i'", RISK_SAFE },
		/*
		 * An alias's body is judged when the alias runs; the word
		 * model does not read it at the definition (session 20: its
		 * 0.55 threshold called this one dangerous).  The shadowing
		 * check still makes it moderate.
		 */
		{ "alias nuke='rm -rf ~/victim'", RISK_MODERATE },
		{ "alias wipe='sudo dd if=/dev/zero of=/dev/sda bs=1M'",
		    RISK_MODERATE },
		/* Its rules still read it: alias rm='rm -rf' (session 17). */
		{ "alias rm='rm -rf'", RISK_DANGEROUS },
		{ "find . -name node_modules -exec rm -rf {} +", RISK_SAFE },
		{ "find ~/code -name node_modules -type d -prune -exec rm -rf "
		    "{} +", RISK_SAFE },
		{ "find ~/code -name src -type d -exec rm -rf {} +",
		    RISK_DANGEROUS },
		{ "cat <<EOF > x.sql\nDROP TABLE users;\nEOF", RISK_SAFE },
		/* Decisions. */
		{ "rm -rf node_modules", RISK_SAFE },
		{ "rm -rf /tmp/build", RISK_SAFE },
		{ "rm -rf /tmp/x /etc", RISK_DANGEROUS },
		{ "sudo ls", RISK_MODERATE },
		{ "sudo -i", RISK_MODERATE },
		{ "chmod +x ./run.sh", RISK_SAFE },
		{ "curl -o t https://x.io/t && chmod +x t", RISK_MODERATE },
		{ "pip install git+https://github.com/a/b", RISK_MODERATE },
		{ "npm install -g typescript", RISK_MODERATE },
		{ "docker run --privileged alpine", RISK_MODERATE },
	};
	struct verdict		 v;
	struct json_object	*p, *e;
	size_t			 i;
	int			 seen_false = 0, seen_true = 0;

	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		enum risk r = risk_of(cases[i].line, NULL);

		if (r != cases[i].want)
			fprintf(stderr, "structure: %s: want %s got %s\n",
			    cases[i].line, risk_name(cases[i].want),
			    risk_name(r));
		CHECK_INT(r, cases[i].want);
	}

	/* patterns lists the rules considered, matched or not. */
	risk_of("git push --force origin feature/x", &v);
	CHECK_INT(v.risk, RISK_MODERATE);
	CHECK_STR(v.rule_id, "git:push-force");
	p = json_object_object_get(v.classification, "patterns");
	for (i = 0; i < json_object_array_length(p); i++) {
		e = json_object_array_get_idx(p, i);
		if (json_object_get_boolean(json_object_object_get(e,
		    "matched")))
			seen_true++;
		else if (strncmp(json_object_get_string(
		    json_object_object_get(e, "patternId")), "git:", 4) == 0)
			seen_false++;
	}
	CHECK(seen_true >= 1);
	CHECK(seen_false >= 5);
	verdict_release(&v);

	/* A safe verdict with no rule still lists what was considered. */
	risk_of("git push origin feature/x", &v);
	CHECK_INT(v.risk, RISK_SAFE);
	CHECK(v.rule_id == NULL);
	CHECK(json_object_array_length(json_object_object_get(
	    v.classification, "patterns")) >= 5);
	verdict_release(&v);
}

static void
t_bypass(void)
{
	static const struct {
		const char	*line;
		const char	*tech;
	} cases[] = {
		{ "LD_PRELOAD= ls", "ld_preload" },
		{ "unset LD_PRELOAD", "ld_preload" },
		{ "env -u LD_PRELOAD rm -rf ~/x", "ld_preload" },
		{ "env -i bash", "ld_preload" },
		{ "/lib64/ld-linux-x86-64.so.2 /bin/rm -rf ~", "direct_execution" },
		{ "busybox rm -rf /", "direct_execution" },
		{ "/bin/rm file.txt", "direct_execution" },
		{ "echo cm0gLXJmIC8K | base64 -d | sh", "obfuscation" },
		{ "$'\\x72\\x6d' -rf /", "obfuscation" },
		{ "r''m -rf ~", "obfuscation" },
		{ "rm${IFS}-rf${IFS}/", "obfuscation" },
		{ "python3 -c 'import shutil; shutil.rmtree(\"x\")'",
		    "inline_script" },
		{ "perl -e 'system(\"ls\")'", "inline_script" },
		{ "node -e 'require(\"child_process\").execSync(\"ls\")'",
		    "inline_script" },
		{ "alias rm='/bin/rm -f'", "shadowing" },
		{ "alias rm=shred", "shadowing" },
		{ "command rm -rf x", "shadowing" },
		{ "\\rm file", "shadowing" },
		{ "rm() { echo hi; }", "shadowing" },
		{ "yes | apt-get install foo", "automation_tool" },
		{ "expect -f answer.exp", "automation_tool" },
		{ "xdotool type 'yes'", "automation_tool" },
		{ "export LD_PRELOAD=", "ld_preload" },
		{ "LD_LIBRARY_PATH=/tmp/evil rm x", "ld_preload" },
		{ "toybox rm -rf ~", "direct_execution" },
		{ "/usr/bin/rm -rf build", "direct_execution" },
		{ "printf '\\x72\\x6d -rf /' | sh", "obfuscation" },
		{ "\"rm\" -rf ~", "obfuscation" },
		{ "ruby -e 'system(\"rm -rf /\")'", "inline_script" },
		{ "function rm { echo no; }", "shadowing" },
		{ "git() { :; }; git status", "shadowing" },
	};
	struct verdict		v;
	struct classify_ctx	ctx;
	size_t			i;

	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		risk_of(cases[i].line, &v);
		if (!has_technique(&v, cases[i].tech))
			fprintf(stderr, "bypass: %s not seen in %s\n",
			    cases[i].tech, cases[i].line);
		CHECK(has_technique(&v, cases[i].tech));
		CHECK(v.bypass);
		CHECK(v.risk >= RISK_MODERATE);
		verdict_release(&v);
	}
	/* A bypass raises the level. */
	CHECK_INT(risk_of("\\rm file.txt", NULL), RISK_MODERATE);
	CHECK_INT(risk_of("rm file.txt", NULL), RISK_SAFE);
	CHECK_INT(risk_of("command rm -rf build", NULL), RISK_MODERATE);
	CHECK_INT(risk_of("ruby -e 'system(\"rm -rf /\")'", NULL),
	    RISK_DANGEROUS);
	CHECK_INT(risk_of("python3 -c 'print(1)'", NULL), RISK_SAFE);
	/* struct.unpack() reads; Perl's pack("H*") decodes (session 16). */
	CHECK_INT(risk_of("python3 -c \"import struct; h=open('a.pak','rb')"
	    ".read(16); print(struct.unpack('<4sIQ', h))\"", NULL), RISK_SAFE);
	CHECK(risk_of("perl -e 'system(pack(\"H*\", \"726d202d7266202f\"))'",
	    NULL) >= RISK_MODERATE);

	memset(&ctx, 0, sizeof ctx);
	ctx.exe_static = 1;
	classify_command(cl, "ls", 2, &ctx, &v);
	CHECK(has_technique(&v, "static_binary"));
	CHECK_INT(v.risk, RISK_MODERATE);
	verdict_release(&v);
	memset(&ctx, 0, sizeof ctx);
	ctx.interactive = 1;
	ctx.tty = 0;
	classify_command(cl, "ls", 2, &ctx, &v);
	CHECK(has_technique(&v, "automation_tool"));
	verdict_release(&v);
	ctx.tty = 1;
	classify_command(cl, "ls", 2, &ctx, &v);
	CHECK(!v.bypass);
	CHECK_INT(v.risk, RISK_SAFE);
	verdict_release(&v);
}

static void
t_shape(void)
{
	static const char	*keys[] = { "riskLevel", "confidence",
	    "patterns", "bypassDetection", "fastPathEligible" };
	struct verdict		 v;
	struct json_object	*o, *p, *e;
	size_t			 i;
	int			 found = 0;

	risk_of("sudo rm -rf /", &v);
	o = v.classification;
	CHECK_INT(v.risk, RISK_DANGEROUS);
	CHECK(v.rule_id != NULL && strcmp(v.rule_id, "fs:rm-rf-root") == 0);
	CHECK(v.description != NULL);
	CHECK_INT(json_object_object_length(o), 5);
	for (i = 0; i < 5; i++)
		CHECK(json_object_object_get_ex(o, keys[i], NULL));
	CHECK_STR(json_object_get_string(json_object_object_get(o,
	    "riskLevel")), "dangerous");
	p = json_object_object_get(o, "patterns");
	for (i = 0; i < json_object_array_length(p); i++) {
		e = json_object_array_get_idx(p, i);
		CHECK_INT(json_object_object_length(e), 3);
		if (strcmp(json_object_get_string(json_object_object_get(e,
		    "patternId")), "fs:rm-rf-root") == 0 &&
		    json_object_get_boolean(json_object_object_get(e,
		    "matched")))
			found = 1;
	}
	CHECK(found);
	e = json_object_object_get(o, "bypassDetection");
	CHECK_INT(json_object_object_length(e), 3);
	CHECK(json_object_object_get_ex(e, "techniques", NULL));
	verdict_release(&v);

	/* Fast path adds fastPathReason, and only then. */
	risk_of("ls -la", &v);
	CHECK(v.fast_path);
	CHECK_INT(json_object_object_length(v.classification), 6);
	CHECK_STR(json_object_get_string(json_object_object_get(
	    v.classification, "fastPathReason")), "known-safe command: ls");
	CHECK(json_object_get_boolean(json_object_object_get(v.classification,
	    "fastPathEligible")));
	verdict_release(&v);
	risk_of("git status", &v);
	CHECK(v.fast_path);
	verdict_release(&v);
	risk_of("echo x > file", &v);
	CHECK(!v.fast_path);
	verdict_release(&v);
	risk_of("ls | sh", &v);
	CHECK(!v.fast_path);
	verdict_release(&v);
	risk_of("ls $(rm -rf /)", &v);
	CHECK(!v.fast_path);
	CHECK_INT(v.risk, RISK_DANGEROUS);
	verdict_release(&v);
}

static void
t_cache(void)
{
	struct verdict	v;

	classify_command(cl, "kubectl delete ns prod", 22, NULL, &v);
	CHECK_INT(v.risk, RISK_DANGEROUS);
	verdict_release(&v);
	classify_command(cl, "kubectl  delete   ns prod", 25, NULL, &v);
	CHECK(v.cache_hit);
	CHECK_INT(v.risk, RISK_DANGEROUS);
	CHECK(v.rule_id != NULL);
	CHECK(v.classification != NULL);
	CHECK(v.classify_ms >= 0);
	verdict_release(&v);
}

static void
t_hostile(void)
{
	char		*big;
	size_t		 i, n = 64 * 1024;
	struct verdict	 v;
	struct timespec	 t0, t1;
	double		 ms;
	static const char *pieces[] = { "$(", "rm -rf / ; ", "sh -c '",
	    "\"", "`", "eval ", "| sh ", "<<EOF\n", "${IFS}", "\\" };

	big = xmalloc(n + 1);
	for (i = 0; i < n; ) {
		const char *p = pieces[(i * 7 + i / 13) % 10];
		size_t l = strlen(p);

		if (i + l > n)
			break;
		memcpy(big + i, p, l);
		i += l;
	}
	big[i] = '\0';
	clock_gettime(CLOCK_MONOTONIC, &t0);
	classify_command(cl, big, i, NULL, &v);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	ms = (t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_nsec - t0.tv_nsec) / 1e6;
	printf("hostile 64 KiB line: %.1f ms, %s\n", ms, risk_name(v.risk));
	CHECK(ms < 2000);
	CHECK(v.classification != NULL);
	verdict_release(&v);
	memset(big, '(', n);
	big[n] = '\0';
	classify_command(cl, big, n, NULL, &v);
	verdict_release(&v);
	free(big);
}

static void
t_speed(void)
{
	struct verdict	 v;
	struct timespec	 t0, t1;
	char		 buf[128];
	int		 i;
	double		 us;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (i = 0; i < 5000; i++) {
		/* Distinct lines defeat the cache. */
		snprintf(buf, sizeof buf, "git push origin feature/%d", i);
		classify_command(cl, buf, strlen(buf), NULL, &v);
		verdict_release(&v);
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	us = ((t1.tv_sec - t0.tv_sec) * 1e6 + (t1.tv_nsec - t0.tv_nsec) /
	    1e3) / 5000;
	printf("uncached classification: %.1f us/command\n", us);
	classify_command(cl, "git push origin feature/1", 25, NULL, &v);
	verdict_release(&v);
	classify_command(cl, "git push origin feature/1", 25, NULL, &v);
	printf("cached classification: %.1f us\n", v.classify_ms * 1000);
	CHECK(v.cache_hit);
	verdict_release(&v);
}

static void
t_null_dir(void)
{
	struct classifier	*c0;
	struct verdict		 v;
	char			*cause = NULL;

	CHECK_INT(classifier_load(NULL, &c0, &cause), 0);
	CHECK_INT(classifier_nrules(c0), 0);
	CHECK(classifier_rule(c0, 0) == NULL);
	classify_command(c0, "rm -rf /", 8, NULL, &v);
	CHECK_INT(v.risk, RISK_SAFE);
	verdict_release(&v);
	classify_command(c0, "ls", 2, NULL, &v);
	CHECK(v.fast_path);
	verdict_release(&v);
	classifier_free(c0);
}

/* A rules directory of the given files, loaded; the cause, or NULL. */
static char *
load_model_dir(const char *a, const char *b, int copy_model)
{
	char			 dir[] = "/tmp/dlb-cmodel.XXXXXX", path[4200];
	char			 cmd[8400], *cause = NULL;
	struct classifier	*c = NULL;
	FILE			*fp;

	if (mkdtemp(dir) == NULL)
		return xstrdup("mkdtemp");
	snprintf(path, sizeof path, "%s/a.rules", dir);
	if ((fp = fopen(path, "w")) != NULL) {
		fputs(a, fp);
		fclose(fp);
	}
	if (b != NULL) {
		snprintf(path, sizeof path, "%s/b.rules", dir);
		if ((fp = fopen(path, "w")) != NULL) {
			fputs(b, fp);
			fclose(fp);
		}
	}
	if (copy_model) {
		snprintf(cmd, sizeof cmd, "cp '%s/risk-rules/words.model' '%s/'",
		    harness_src_dir(), dir);
		if (system(cmd) != 0)
			return xstrdup("cp");
	}
	if (classifier_load(dir, &c, &cause) == 0) {
		struct verdict	v;
		const char	*l = "az aks nodepool delete -g rg-orders-prod "
		    "--cluster-name aks-orders-prod -n apppool";

		classify_command(c, l, strlen(l), NULL, &v);
		CHECK_INT(v.risk, RISK_DANGEROUS);
		CHECK_STR(v.rule_id, "model:words");
		verdict_release(&v);
		classifier_free(c);
	}
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", dir);
	return cause;
}

static void
t_model_rule_load(void)
{
	static const char	*rule = "[rule model:words]\nrisk = dangerous\n"
	    "model = words.model\nmatch = x\nnomatch = y\n";
	static const char	*rule2 = "[rule model:other]\nrisk = dangerous\n"
	    "model = words.model\nmatch = x\nnomatch = y\n";
	char			*cause;

	cause = load_model_dir(rule, NULL, 1);
	CHECK(cause == NULL);
	free(cause);
	cause = load_model_dir(rule, rule2, 1);
	CHECK(cause != NULL && strstr(cause, "a second model rule") != NULL);
	free(cause);
	cause = load_model_dir(rule, NULL, 0);
	CHECK(cause != NULL && strstr(cause, "words.model") != NULL);
	free(cause);
	cause = load_model_dir("[rule m:x]\nrisk = dangerous\n"
	    "model = ../words.model\n", NULL, 1);
	CHECK(cause != NULL && strstr(cause, "must be a file name") != NULL);
	free(cause);
}

int
main(void)
{
	RUN(t_model_rule_load);
	RUN(t_load);
	if (cl == NULL)
		return harness_done();
	RUN(t_rule_examples);
	RUN(t_decisions);
	RUN(t_structure);
	RUN(t_bypass);
	RUN(t_shape);
	RUN(t_cache);
	RUN(t_hostile);
	RUN(t_speed);
	RUN(t_corpus);
	RUN(t_heldout);
	RUN(t_triggers);
	RUN(t_keywords);
	RUN(t_null_dir);
	printf("trigger-free lines: %zu of %zu checked, all safe; safe corpus "
	    "lines trigger-free: %.1f%% (%zu/%zu)\n", tf_free, tf_checked,
	    tf_safe ? 100.0 * tf_safe_free / tf_safe : 0.0, tf_safe_free,
	    tf_safe);
	/*
	 * At least 19%.  It was 20% until session 10 made restarts
	 * moderate: one trigger-free safe line was relabelled and
	 * `reload` made `systemctl daemon-reload` a trigger line.
	 */
	CHECK(tf_safe_free * 100 >= tf_safe * 19);
	printf("hook fast path: %zu lines let through, all safe\n", hf_fast);
	CHECK(hf_fast > 1000);
	hook_cleanup();
	printf("summary: %zu rules in %zu categories; corpus recall %.1f%% "
	    "false alarms %.1f%% moderate %.1f%%; held-out sets and catalogs pooled: "
	    "recall %.1f%% (%zu/%zu) false alarms %.1f%% (%zu/%zu) moderate "
	    "%.1f%%\n", sum_rules, sum_cats,
	    sum_rate[0] * 100, sum_rate[1] * 100, sum_rate[2] * 100,
	    ho_nd ? 100.0 * ho_nd_hit / ho_nd : 0.0, ho_nd_hit, ho_nd,
	    ho_ns ? 100.0 * ho_ns_fa / ho_ns : 0.0, ho_ns_fa, ho_ns,
	    ho_nm ? 100.0 * ho_nm_ok / ho_nm : 0.0);
	classifier_free(cl);
	buf_release(&triggers);
	return harness_done();
}
