/*
 * Tests for the redaction engine: every rule's own examples and
 * negatives, the seed examples, the secret and clean corpora, levels,
 * idempotence, overlaps, limits and odd bytes.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "buf.h"
#include "harness.h"
#include "redact.h"
#include "rulefile.h"
#include "xmalloc.h"

static struct redactor	*R;
static const char	*src;
static size_t		 fig_lines, fig_clean, fig_secrets, fig_left;
static size_t		 fig_fp, fig_cleanlines;
static double		 fig_patho, fig_us;

static char	*line_std(const char *);

static char *
red(enum anon_level level, const char *in)
{
	struct buf	b = BUF_INIT;

	if (redact_text(R, level, in, strlen(in), &b, NULL, NULL) != 0)
		return xstrdup("(error)");
	buf_add(&b, "", 0);
	return buf_detach(&b, NULL);
}

static void
t_load(void)
{
	char	*dir, *cause = NULL;
	int	 error;

	xasprintf(&dir, "%s/redaction-rules", src);
	error = redactor_load(dir, &R, &cause);
	if (error != 0)
		fprintf(stderr, "load: %s\n", cause);
	CHECK_INT(error, 0);
	free(cause);
	free(dir);
	if (R != NULL) {
		redactor_set_username(R, "johndoe");
		redactor_clear_homes(R);
		redactor_add_home(R, "/srv/users/bob");
		redactor_add_home(R, "/var/lib/jenkins/");
		CHECK(redactor_nrules(R) >= 150);
		CHECK(redactor_ntypes(R) >= 60);
	}
}

static void
t_rule_examples(void)
{
	struct rule_set	 set = RULE_SET_INIT;
	char		*dir, *cause = NULL, *out;
	const char	*v, *lv;
	size_t		 i, pos, s, e;
	enum anon_level	 level;
	int		 found;

	xasprintf(&dir, "%s/redaction-rules", src);
	CHECK_INT(rulefile_parse_dir(dir, &set, &cause), 0);
	free(cause);
	free(dir);
	for (i = 0; i < set.n; i++) {
		const struct rule_stanza *st = &set.v[i];

		level = ANON_MINIMAL;
		if ((lv = rule_get(st, "level")) != NULL)
			anon_level_parse(lv, &level);
		pos = 0;
		while ((v = rule_next(st, "example", &pos)) != NULL) {
			char *secret;

			found = redactor_rule_match(R, st->id, v, strlen(v),
			    &s, &e);
			if (found != 0) {
				fprintf(stderr, "rule %s: example not matched:"
				    " %s\n", st->id, v);
				CHECK(found == 0);
				continue;
			}
			secret = xstrndup(v + s, e - s);
			out = red(level, v);
			if (strstr(out, secret) != NULL) {
				fprintf(stderr, "rule %s: secret '%s' left in"
				    " '%s'\n", st->id, secret, out);
				CHECK(strstr(out, secret) == NULL);
			} else
				CHECK(1);
			free(secret);
			free(out);
		}
		pos = 0;
		while ((v = rule_next(st, "negative", &pos)) != NULL) {
			out = red(level, v);
			if (strcmp(out, v) != 0)
				fprintf(stderr, "rule %s: negative changed: "
				    "'%s' -> '%s'\n", st->id, v, out);
			CHECK_STR(out, v);
			free(out);
		}
	}
	rule_set_release(&set);
}

static void
t_seed(void)
{
	struct redacted_cmd	 c;
	char			*out;
	static const char	*mysql = "mysql -u admin -p MyP@ssw0rd";

	out = red(ANON_STANDARD, "curl -H 'Authorization: Bearer "
	    "sk-1234567890' https://api.example.com");
	CHECK_STR(out, "curl -H 'Authorization: Bearer [REDACTED_API_KEY]' "
	    "https://[REDACTED_DOMAIN]");
	free(out);
	out = red(ANON_STANDARD,
	    "/home/johndoe/projects/secret-project/src/main.py");
	CHECK_STR(out, "[HOME]/[PROJECT]/[SUBDIR]/[FILE]");
	free(out);

	CHECK_INT(redact_command(R, ANON_STANDARD, mysql, strlen(mysql), &c,
	    NULL), 0);
	CHECK_STR(c.command, "mysql");
	CHECK_INT(c.nargs, 4);
	if (c.nargs == 4) {
		CHECK_STR(c.args[0], "-u");
		CHECK_STR(c.args[1], "[REDACTED_USER]");
		CHECK_STR(c.args[2], "-p");
		CHECK_STR(c.args[3], "[REDACTED_PASSWORD]");
	}
	CHECK_STR(c.full, "mysql -u [REDACTED_USER] -p [REDACTED_PASSWORD]");
	redacted_cmd_release(&c);

	CHECK_INT(redact_command(R, ANON_MINIMAL, mysql, strlen(mysql), &c,
	    NULL), 0);
	CHECK_INT(c.nargs, 4);
	if (c.nargs == 4)
		CHECK_STR(c.args[3], "[REDACTED_PASSWORD]");
	CHECK(strstr(c.full, "MyP@ssw0rd") == NULL);
	redacted_cmd_release(&c);
}

static int
contains(const char *hay, size_t n, const char *needle)
{
	return memmem(hay, n, needle, strlen(needle)) != NULL;
}

static void
t_corpus_secrets(void)
{
	char			*path, *line = NULL, *f[16], *p;
	size_t			 sz = 0, nf, i, left;
	ssize_t			 n;
	FILE			*fp;
	struct redacted_cmd	 c;
	struct buf		 b = BUF_INIT;

	xasprintf(&path, "%s/tests/fixtures/redact/secrets.tsv", src);
	fp = fopen(path, "r");
	CHECK(fp != NULL);
	free(path);
	if (fp == NULL)
		return;
	while ((n = getline(&line, &sz, fp)) > 0) {
		if (line[n - 1] == '\n')
			line[--n] = '\0';
		if (line[0] == '#' || line[0] == '\0')
			continue;
		nf = 0;
		for (p = line; p != NULL && nf < 16; ) {
			f[nf++] = p;
			if ((p = strchr(p, '\t')) != NULL)
				*p++ = '\0';
		}
		fig_lines++;
		CHECK_INT(redact_command(R, ANON_MINIMAL, f[0], strlen(f[0]),
		    &c, NULL), 0);
		left = 0;
		for (i = 1; i < nf; i++) {
			size_t j;
			int bad;

			fig_secrets++;
			bad = contains(c.full, strlen(c.full), f[i]);
			for (j = 0; j < c.nargs; j++)
				bad |= contains(c.args[j], strlen(c.args[j]),
				    f[i]);
			if (bad) {
				left++;
				fprintf(stderr, "secret left: %s\n  -> %s\n",
				    f[0], c.full);
			}
		}
		redacted_cmd_release(&c);
		/* Idempotence at minimal and standard, text and command. */
		for (i = 0; i < 3; i++) {
			char *once, *twice;

			once = i < 2 ? red((enum anon_level)i, f[0]) :
			    line_std(f[0]);
			twice = i < 2 ? red((enum anon_level)i, once) :
			    line_std(once);
			if (strcmp(once, twice) != 0)
				fprintf(stderr, "not idempotent: %s\n  -> %s\n"
				    "  -> %s\n", f[0], once, twice);
			CHECK_STR(twice, once);
			free(once);
			free(twice);
		}
		fig_left += left;
		if (left == 0)
			fig_clean++;
		CHECK_INT(left, 0);
	}
	free(line);
	fclose(fp);
	buf_release(&b);
	CHECK(fig_lines >= 300);
}

static void
t_corpus_clean(void)
{
	char			*path, *line = NULL, *out;
	size_t			 sz = 0;
	ssize_t			 n;
	FILE			*fp;
	struct redacted_cmd	 c;
	clock_t			 t0;

	xasprintf(&path, "%s/tests/fixtures/redact/clean.txt", src);
	fp = fopen(path, "r");
	CHECK(fp != NULL);
	free(path);
	if (fp == NULL)
		return;
	t0 = clock();
	while ((n = getline(&line, &sz, fp)) > 0) {
		if (line[n - 1] == '\n')
			line[--n] = '\0';
		if (line[0] == '#' || line[0] == '\0')
			continue;
		fig_cleanlines++;
		out = red(ANON_MINIMAL, line);
		if (strcmp(out, line) != 0) {
			fig_fp++;
			fprintf(stderr, "false positive: %s\n  -> %s\n", line,
			    out);
		}
		CHECK_STR(out, line);
		free(out);
		CHECK_INT(redact_command(R, ANON_MINIMAL, line, strlen(line),
		    &c, NULL), 0);
		CHECK_STR(c.full, line);
		redacted_cmd_release(&c);
		/* Typing at standard is idempotent too. */
		out = line_std(line);
		{
			char *twice = line_std(out);

			CHECK_STR(twice, out);
			free(twice);
		}
		free(out);
	}
	free(line);
	fclose(fp);
	if (fig_cleanlines > 0)
		fig_us = 1e6 * (double)(clock() - t0) / CLOCKS_PER_SEC /
		    (double)fig_cleanlines / 2;
	CHECK(fig_cleanlines >= 150);
}

static void
t_quotes_and_stats(void)
{
	struct redact_stats	 st = REDACT_STATS_INIT;
	struct redacted_cmd	 c;
	static const char	*l = "export GITHUB_TOKEN='ghp_aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5' "
	    "&& gh repo list";
	size_t			 i;

	CHECK_INT(redact_command(R, ANON_MINIMAL, l, strlen(l), &c, &st), 0);
	CHECK_STR(c.full, "export GITHUB_TOKEN='[REDACTED_TOKEN]' && gh repo "
	    "list");
	CHECK_STR(c.command, "export");
	CHECK(c.nargs == 5);
	if (c.nargs == 5) {
		CHECK_STR(c.args[0], "GITHUB_TOKEN=[REDACTED_TOKEN]");
		CHECK_STR(c.args[1], "&&");
		CHECK_STR(c.args[2], "gh");
	}
	CHECK_INT(st.count, 1);
	CHECK_INT(st.nrule_ids, 1);
	if (st.nrule_ids == 1)
		CHECK_STR(st.rule_ids[0], "github-pat");
	CHECK_INT(st.ntypes, 1);
	for (i = 1; i < st.ntypes; i++)
		CHECK(strcmp(st.types[i - 1], st.types[i]) < 0);
	redacted_cmd_release(&c);
	redact_stats_release(&st);
}

static void
t_overlap(void)
{
	struct redact_findings	 f = REDACT_FINDINGS_INIT;
	struct buf		 b = BUF_INIT;
	static const char	*l = "curl -u admin:ghp_aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5 "
	    "https://x";
	char			*a, *z;
	int			 i;

	/* Same span from curl-user-password and github-pat: rule order. */
	CHECK_INT(redact_text(R, ANON_MINIMAL, l, strlen(l), &b, &f, NULL), 0);
	CHECK_INT(f.n, 1);
	if (f.n == 1)
		CHECK_STR(f.v[0].rule_id, "github-pat");
	a = buf_detach(&b, NULL);
	for (i = 0; i < 5; i++) {
		z = red(ANON_MINIMAL, l);
		CHECK_STR(z, a);
		free(z);
	}
	free(a);
	redact_findings_release(&f);
}

/*
 * A bare value in quotes goes on past a shell operator ('db_password=j|(!'),
 * but the | that closes sed's s||| before the quote (and its flags) stays.
 */
static void
t_quote_extension(void)
{
	static const char *const cases[][2] = {
		{ "sed -i 's|service_key: .*|service_key: 961467f3aa73f15ac40ef72a3583f172|' am.yml",
		  "sed -i 's|service_key: .*|service_key: [REDACTED_SECRET]|' am.yml" },
		{ "sed -i 's|token: .*|token: 961467f3aa73f15ac40ef72a3583f172|g' a.yml",
		  "sed -i 's|token: .*|token: [REDACTED_SECRET]|g' a.yml" },
		{ "sed -i 's|password: .*|password: Hunter2x99|' conf.yml",
		  "sed -i 's|password: .*|password: [REDACTED_SECRET]|' conf.yml" },
		{ "cfg -e 'db_password=j|(!iNA'",
		  "cfg -e 'db_password=[REDACTED_PASSWORD]'" },
	};
	char	*z;
	size_t	 i;

	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		z = red(ANON_MINIMAL, cases[i][0]);
		CHECK_STR(z, cases[i][1]);
		free(z);
	}
}

/*
 * A credential found once is hidden wherever it recurs in the line, even
 * where its context says nothing (the user name of a Postmark token).
 */
static void
t_repeat(void)
{
	static const char	*l = "sed -i 's/^\\(\\s*SMTP_USER_NAME:\\).*/\\1 "
	    "ab553ed0-8ae1-415c-b731-af856da3f1c7/; s/^\\(\\s*SMTP_PASSWORD:\\)"
	    ".*/\\1 ab553ed0-8ae1-415c-b731-af856da3f1c7/' app.yml";
	static const char	*shortpw = "mysql -u x7Pq2 -px7Pq2 db";
	char			*z;

	z = red(ANON_MINIMAL, l);
	CHECK(strstr(z, "ab553ed0") == NULL);
	CHECK(strstr(z, "SMTP_USER_NAME:") != NULL);
	free(z);
	/* A value that ends at a closing XML tag is not stretched past it. */
	z = red(ANON_MINIMAL, "echo '<password>Xy7#kLm2pQ9wE</password>"
	    "<user>bob</user>' > f.xml");
	CHECK(strstr(z, "Xy7#kLm2pQ9wE") == NULL);
	CHECK(strstr(z, "</password><user>bob</user>'") != NULL);
	free(z);
	/* Short values are not chased: the user name stays. */
	z = red(ANON_MINIMAL, shortpw);
	CHECK_STR(z, "mysql -u x7Pq2 -p[REDACTED_PASSWORD] db");
	free(z);
}

static void
t_pathological(void)
{
	static const char	*units[] = { "a", "-p ", "password=", "://a:",
	    "@", "key-", "Bearer ", "ghp_", "=\"", "/home/x/", "1.", "-----BEGIN RSA PRIVATE KEY-----", "mysql -p " };
	struct buf		 b = BUF_INIT;
	char			*in;
	size_t			 u, len = 64 * 1024, i;
	clock_t			 t0;
	double			 secs;

	in = xmalloc(len + 1);
	for (u = 0; u < sizeof units / sizeof *units; u++) {
		for (i = 0; i < len; i++)
			in[i] = units[u][i % strlen(units[u])];
		in[len] = '\0';
		t0 = clock();
		CHECK_INT(redact_text(R, ANON_STANDARD, in, len, &b, NULL,
		    NULL), 0);
		secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
		if (secs > fig_patho)
			fig_patho = secs;
		if (secs >= 1.0)
			fprintf(stderr, "slow: '%s' x 64 KiB: %.3f s\n",
			    units[u], secs);
		CHECK(secs < 1.0);
		buf_reset(&b);
	}
	/* Beyond the cap, the rest is a marker. */
	free(in);
	in = xmalloc(len * 2 + 64);
	memset(in, 'b', len * 2);
	memcpy(in + len + 10, " sk_live_", 9);
	CHECK_INT(redact_text(R, ANON_MINIMAL, in, len * 2, &b, NULL, NULL), 0);
	CHECK(b.len < len + 64);
	CHECK(strstr(buf_str(&b), REDACT_TRUNCATED) != NULL);
	buf_release(&b);
	free(in);
}

static void
t_binary(void)
{
	static const char	 in[] = "echo \xff\xfe ghp_aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5"
	    "\0 --password=\x80\x81secret \xc3\x28";
	struct buf		 b = BUF_INIT;
	struct redacted_cmd	 c;

	CHECK_INT(redact_text(R, ANON_MINIMAL, in, sizeof in - 1, &b, NULL,
	    NULL), 0);
	CHECK(memmem(b.data, b.len, "ghp_aB3", 7) == NULL);
	CHECK(memmem(b.data, b.len, "secret", 6) == NULL);
	CHECK(memmem(b.data, b.len, "\0 --password=", 13) != NULL);
	buf_release(&b);
	CHECK_INT(redact_command(R, ANON_MAXIMUM, in, sizeof in - 1, &c,
	    NULL), 0);
	redacted_cmd_release(&c);
	CHECK_INT(redact_text(R, ANON_MINIMAL, "", 0, &b, NULL, NULL), 0);
	CHECK_INT(b.len, 0);
	buf_release(&b);
}

static void
t_levels(void)
{
	struct redacted_cmd	 c;
	char			*out;
	const char		*l = "scp -i ~/.ssh/id_ed25519 report.pdf "
	    "deploy@10.20.30.40:/srv/reports/";

	out = red(ANON_STANDARD, l);
	CHECK_STR(out, "scp -i [HOME]/.ssh/id_ed25519 report.pdf "
	    "[REDACTED_USER]@[REDACTED_IP]:/srv/reports/");
	free(out);
	out = red(ANON_MINIMAL, l);
	CHECK_STR(out, l);
	free(out);
	out = red(ANON_STANDARD, "git commit -m 'fix billing for ACME' && "
	    "echo jane@example.org && chown johndoe file");
	CHECK_STR(out, "git commit -m '[MESSAGE]' && echo [REDACTED_EMAIL] "
	    "&& chown [REDACTED_USER] file");
	free(out);
	out = red(ANON_STANDARD, "cat /etc/passwd /tmp/x ~/notes.txt "
	    "/data/acme/q3.csv ~/projects/app/.env");
	CHECK_STR(out, "cat /etc/passwd /tmp/x [HOME]/[FILE] [PATH] "
	    "[HOME]/[PROJECT]/.env");
	free(out);

	l = "git push -u origin feature/x --force-with-lease=main | tee log";
	CHECK_INT(redact_command(R, ANON_MAXIMUM, l, strlen(l), &c, NULL), 0);
	CHECK_STR(c.full, "git [ARG] -u [ARG] [PATH] --force-with-lease=[ARG] "
	    "| tee [ARG]");
	CHECK_STR(c.command, "git");
	redacted_cmd_release(&c);
	out = red(ANON_MAXIMUM, "PGPASSWORD=hunter22 /usr/bin/psql -h db.example.com");
	CHECK_STR(out, "PGPASSWORD=[REDACTED_PASSWORD] psql -h "
	    "[REDACTED_DOMAIN]");
	free(out);
}


/* Standard level: command lines in, fullCommand out (see safe-words.txt). */
static const char *const std_table[][2] = {
	{ "curl -H 'Authorization: Bearer sk-1234567890' https://api.example.com",
	    "curl -H 'Authorization: Bearer [REDACTED_API_KEY]' https://[REDACTED_DOMAIN]" },
	{ "mysql -u admin -p MyP@ssw0rd",
	    "mysql -u [REDACTED_USER] -p [REDACTED_PASSWORD]" },
	{ "cat /home/johndoe/projects/secret-project/src/main.py",
	    "cat [HOME]/[PROJECT]/[SUBDIR]/[FILE]" },
	{ "git push -u origin feature/acme-merger --force-with-lease=main",
	    "git push -u origin feature/[FILE] --force-with-lease=main" },
	{ "git checkout -b feature/acme-merger",
	    "git checkout -b feature/[FILE]" },
	{ "git commit -m \"Fix Project Falcon billing for alice-smith\"",
	    "git commit -m \"[MESSAGE]\"" },
	{ "git log --oneline -n 20",
	    "git log --oneline -n 20" },
	{ "git show a1b2c3d4e5",
	    "git show [HASH]" },
	{ "git reset --hard HEAD~3",
	    "git reset --hard HEAD~3" },
	{ "git rebase -i origin/main",
	    "git rebase -i origin/main" },
	{ "git diff e83c5163316f89bfbde7d9ab23ca2e25604af290..HEAD -- src/acme/merger.py",
	    "git diff [HASH]..HEAD -- src/[DIR]/[FILE]" },
	{ "git clone https://github.com/alice-smith/acme-merger.git",
	    "git clone https://github.com/[PATH]" },
	{ "git stash pop",
	    "git stash pop" },
	{ "grep -r 'Falcon Ridge deal' .",
	    "grep -r '[STRING]' ." },
	/* A quoted script keeps its operators (sh -c). */
	{ "bash -c \"cp a.txt b.txt; ls\"",
	    "bash -c \"cp [FILE] [FILE]; ls\"" },
	{ "sh -c '(cd src && make) || echo failed'",
	    "sh -c '(cd src && make) || echo [ARG]'" },
	{ "sh -c 'ls >/dev/null; git --version'",
	    "sh -c 'ls >/dev/null; git --version'" },
	{ "grep -rn \"TODO\" src/",
	    "grep -rn \"TODO\" src/" },
	{ "grep -i acme-merger notes.md | wc -l",
	    "grep -i [ARG] [FILE] | wc -l" },
	{ "cp notes-for-alice.txt /tmp/",
	    "cp [FILE] /tmp/" },
	{ "mv diagnosis-2024.pdf ~/Documents/medical/",
	    "mv [FILE] [HOME]/Documents/[SUBDIR]/" },
	{ "ssh -p 2222 deploy@10.0.0.7",
	    "ssh -p 2222 [REDACTED_USER]@[REDACTED_IP]" },
	{ "scp report.pdf bob@fileserver:/srv/reports/",
	    "scp [FILE] [REDACTED_USER]@[ARG]:/srv/reports/" },
	{ "psql -h db.acme.internal -U analytics -d acme_customers",
	    "psql -h [REDACTED_DOMAIN] -U [REDACTED_USER] -d [ARG]" },
	{ "docker run -d --name acme-db -p 5432:5432 -e POSTGRES_PASSWORD=hunter2 postgres:15",
	    "docker run -d --name [ARG] -p 5432:5432 -e POSTGRES_PASSWORD=[REDACTED_PASSWORD] postgres:15" },
	{ "docker exec -it acme-db psql",
	    "docker exec -it [ARG] psql" },
	{ "docker build -t registry.acme.io/acme-merger:1.2.3 .",
	    "docker build -t [REDACTED_DOMAIN]/[FILE] ." },
	{ "docker compose up -d --build",
	    "docker compose up -d --build" },
	{ "kubectl get pods -n acme-prod",
	    "kubectl get pods -n [ARG]" },
	{ "kubectl logs -f deployment/acme-api --tail=100",
	    "kubectl logs -f deployment/[FILE] --tail=100" },
	{ "kubectl apply -f k8s/deployment.yaml",
	    "kubectl apply -f k8s/deployment.yaml" },
	{ "helm upgrade --install acme-release ./charts/acme -n acme-prod",
	    "helm upgrade --install [ARG] ./charts/[FILE] -n [ARG]" },
	{ "make deploy-acme",
	    "make [ARG]" },
	{ "make -j4 all",
	    "make -j4 all" },
	{ "npm run build",
	    "npm run build" },
	{ "npm install lodash@4.17.21",
	    "npm install [ARG]@4.17.21" },
	{ "yarn add left-pad",
	    "yarn add [ARG]" },
	{ "python3 manage.py migrate",
	    "python3 manage.py migrate" },
	{ "python script.py --user alice --out results-q3.csv",
	    "python [FILE] --user [ARG] --out [FILE]" },
	{ "tar -czf backup-alice.tar.gz ~/Documents",
	    "tar -czf [FILE] [HOME]/Documents" },
	{ "find . -name '*.log' -mtime +7 -delete",
	    "find . -name '*.log' -mtime +7 -delete" },
	{ "curl -X POST -H 'Content-Type: application/json' -d '{\"name\":\"alice\",\"role\":\"admin\"}' https://api.example.com/users",
	    "curl -X POST -H 'Content-Type: application/json' -d '[JSON]' https://[REDACTED_DOMAIN]/[PATH]" },
	{ "sudo systemctl restart nginx",
	    "sudo systemctl restart nginx" },
	{ "sudo -u postgres psql -c 'select * from patients'",
	    "sudo -u postgres psql -c 'select * from [ARG]'" },
	{ "echo hello > notes-for-alice.txt",
	    "echo hello > [FILE]" },
	{ "ls -la | grep acme",
	    "ls -la | grep [ARG]" },
	{ "head -5 notes.txt",
	    "head -5 [FILE]" },
	{ "kill -9 12345",
	    "kill -9 12345" },
	{ "kill -TERM 1234567",
	    "kill -TERM [NUMBER]" },
	{ "FOO=bar ./run-acme.sh --verbose",
	    "FOO=bar ./[FILE] --verbose" },
	{ "./configure --prefix=/usr/local",
	    "./configure --prefix=/usr/local" },
	{ "rm -rf node_modules build",
	    "rm -rf node_modules build" },
	{ "chmod 755 /usr/local/bin/acme-tool",
	    "chmod 755 /usr/local/bin/[FILE]" },
	{ "chown alice:staff project-falcon.docx",
	    "chown [ARG] [FILE]" },
	{ "echo $(cat acme-notes.txt)",
	    "echo $(cat [FILE])" },
	{ "terraform apply -var 'env=acme-prod' -auto-approve",
	    "terraform apply -var 'env=[ARG]' -auto-approve" },
	{ "aws s3 cp s3://acme-bucket/reports/q3.csv .",
	    "aws s3 cp s3://[REDACTED_DOMAIN]/[PATH] ." },
	{ "systemctl status acme-worker.service",
	    "systemctl status [FILE]" },
	{ "journalctl -u nginx --since yesterday",
	    "journalctl -u nginx --since yesterday" },
	{ "dd if=/dev/zero of=/dev/sda bs=1M count=100",
	    "dd if=/dev/zero of=/dev/sda bs=1M count=100" },
	{ "bash -c 'cp notes-alice.txt /tmp && ls'",
	    "bash -c 'cp [FILE] /tmp && ls'" },
	{ "cd ~/projects/acme-merger",
	    "cd [HOME]/[PROJECT]" },
	{ "cargo build --release -p acme-core",
	    "cargo build --release -p [ARG]" },
	{ "go test ./... -run TestAcmeMerger",
	    "go test ./... -run [ARG]" },
	{ "docker ps -a --filter name=acme",
	    "docker ps -a --filter name=[ARG]" },
	{ "echo 550e8400-e29b-41d4-a716-446655440000",
	    "echo [UUID]" },
	{ "date +%Y-%m-%d",
	    "date +%Y-%m-%d" },
	{ "pip install \"django>=4.2,<5\"",
	    "pip install \"[ARG]=4.2,[ARG]\"" },
	{ "ls /srv/users/bob/acme/plan.txt",
	    "ls [HOME]/[PROJECT]/[FILE]" },
	{ "cat /var/lib/jenkins/workspace/acme-merger/build.log",
	    "cat [HOME]/[PROJECT]/[FILE]" },
	{ "echo \"it's\" 'unclosed",
	    "echo \"[ARG]\" [ARG]" },
	{ "ls -la | grep acme > /tmp/acme-list.txt 2>&1",
	    "ls -la | grep [ARG] > /tmp/[FILE] 2>&1" },
	{ "history | grep 'ssh alice'",
	    "history | grep 'ssh [ARG]'" },
	{ "sed -i 's/alice/bob/g' notes.md",
	    "sed -i 's/[DIR]/[DIR]/g' [FILE]" },
};

static char *
line_std(const char *in)
{
	struct buf	b = BUF_INIT;

	if (redact_line(R, ANON_STANDARD, in, strlen(in), &b, NULL, NULL) != 0)
		return xstrdup("(error)");
	buf_add(&b, "", 0);
	return buf_detach(&b, NULL);
}

static void
t_standard_table(void)
{
	struct redacted_cmd	 c, c2;
	size_t			 i, j;
	char			*out, *again;

	for (i = 0; i < sizeof std_table / sizeof *std_table; i++) {
		const char *in = std_table[i][0], *want = std_table[i][1];

		CHECK_INT(redact_command(R, ANON_STANDARD, in, strlen(in), &c,
		    NULL), 0);
		if (strcmp(c.full, want) != 0)
			fprintf(stderr, "standard: %s\n  want %s\n  got  %s\n",
			    in, want, c.full);
		CHECK_STR(c.full, want);
		/* The CLI and modifiedCommand say the same. */
		out = line_std(in);
		CHECK_STR(out, c.full);
		/* Idempotent, and args are the words of fullCommand. */
		again = line_std(out);
		CHECK_STR(again, out);
		CHECK_INT(redact_command(R, ANON_STANDARD, c.full,
		    strlen(c.full), &c2, NULL), 0);
		CHECK_STR(c2.full, c.full);
		CHECK_STR(c2.command, c.command);
		CHECK_INT(c2.nargs, c.nargs);
		for (j = 0; j < c.nargs && j < c2.nargs; j++)
			CHECK_STR(c2.args[j], c.args[j]);
		redacted_cmd_release(&c2);
		redacted_cmd_release(&c);
		free(out);
		free(again);
	}
	CHECK(sizeof std_table / sizeof *std_table >= 40);
}

static void
check_args(const char *in, const char *cmd, const char *const *want)
{
	struct redacted_cmd	c;
	size_t			n;

	for (n = 0; want[n] != NULL; n++)
		;
	CHECK_INT(redact_command(R, ANON_STANDARD, in, strlen(in), &c, NULL),
	    0);
	CHECK_STR(c.command, cmd);
	CHECK_INT(c.nargs, n);
	for (n = 0; n < c.nargs && want[n] != NULL; n++)
		CHECK_STR(c.args[n], want[n]);
	redacted_cmd_release(&c);
}

static void
t_standard_args(void)
{
	static const char *const a1[] = { "-r", "[STRING]", ".", NULL };
	static const char *const a2[] = { "-u", "[REDACTED_USER]", "-p",
	    "[REDACTED_PASSWORD]", NULL };
	static const char *const a3[] = { "FOO=bar", "--name=[ARG]", "-e",
	    "POSTGRES_PASSWORD=[REDACTED_PASSWORD]", "postgres:15", "|", "tee",
	    "[FILE]", NULL };
	static const char *const a4[] = { "-H",
	    "Authorization: Bearer [REDACTED_API_KEY]",
	    "https://[REDACTED_DOMAIN]", NULL };
	static const char *const a5[] = { "systemctl", "restart", "nginx",
	    NULL };
	static const char *const a6[] = { "-u", "postgres", "./[FILE]",
	    "--dry-run", "[ARG]", NULL };
	struct redact_stats	st = REDACT_STATS_INIT;
	struct redacted_cmd	c;
	const char		*l;
	size_t			i;
	int			typed = 0, found = 0;

	check_args("grep -r 'Falcon Ridge deal' .", "grep", a1);
	check_args("mysql -u admin -p MyP@ssw0rd", "mysql", a2);
	check_args("FOO=bar docker --name=acme-db -e POSTGRES_PASSWORD=hunter2 "
	    "postgres:15 | tee acme.log", "docker", a3);
	check_args("curl -H 'Authorization: Bearer sk-1234567890' "
	    "https://api.example.com", "curl", a4);
	check_args("sudo systemctl restart nginx", "sudo", a5);
	check_args("sudo -u postgres ./acme-sync.sh --dry-run alice", "sudo",
	    a6);

	/* Typed values are counted, but are not sensitive data found. */
	l = "cp notes-for-alice.txt acme-backup && mysql -p MyP@ssw0rd";
	CHECK_INT(redact_command(R, ANON_STANDARD, l, strlen(l), &c, &st), 0);
	CHECK_STR(c.full, "cp [FILE] [ARG] && mysql -p [REDACTED_PASSWORD]");
	CHECK_INT(st.count, 3);
	CHECK_INT(st.sensitive, 1);
	for (i = 0; i < st.nrule_ids; i++)
		typed |= strcmp(st.rule_ids[i], REDACT_ARG_RULE) == 0;
	for (i = 0; i < st.ntypes; i++) {
		found |= strstr(st.types[i], "password") != NULL;
		CHECK(strcmp(st.types[i], REDACT_ARG_TYPE) != 0);
	}
	CHECK(typed);
	CHECK(found);
	redacted_cmd_release(&c);
	redact_stats_release(&st);
	l = "ls -la /etc";
	CHECK_INT(redact_command(R, ANON_STANDARD, l, strlen(l), &c, &st), 0);
	CHECK_STR(c.full, l);
	CHECK_INT(st.count, 0);
	redacted_cmd_release(&c);
	redact_stats_release(&st);

	/* Minimal types nothing; free text is not typed at standard. */
	l = "cp notes-for-alice.txt acme-backup";
	CHECK_INT(redact_command(R, ANON_MINIMAL, l, strlen(l), &c, NULL), 0);
	CHECK_STR(c.full, l);
	redacted_cmd_release(&c);
	{
		char *o = red(ANON_STANDARD, l);

		CHECK_STR(o, l);
		free(o);
	}
	CHECK(redactor_nsafe(R) >= 500);
}

/* Made-up personal words that must never survive at standard. */
static const char *const personal[] = {
	"alice-smith", "project-falcon", "acme-merger", "diagnosis-2024",
	"bobsmith", "falcon", "merger", "divorce", "q3-layoffs", "jsmith",
	"acme_customers", "payroll", NULL
};

static void
t_personal_words(void)
{
	static const char *const cmds[] = {
		"cp diagnosis-2024.pdf /tmp/",
		"git checkout -b feature/acme-merger",
		"git push origin project-falcon",
		"grep -ri 'falcon merger' ~/notes",
		"vim divorce-lawyer-notes.md",
		"ssh alice-smith@10.1.2.3",
		"psql -d acme_customers -c 'select * from payroll'",
		"docker run --name project-falcon -v /data/acme-merger:/data img",
		"kubectl -n acme-merger get pods",
		"make q3-layoffs-report",
		"python3 analyze.py --customer alice-smith --quarter q3-layoffs",
		"tar czf project-falcon.tgz src/",
		"echo \"meeting about divorce\" >> ~/acme-merger.txt",
		"curl -d '{\"user\":\"alice-smith\"}' https://api.github.com/x",
		"rsync -av ./project-falcon/ backup:/srv/acme-merger/",
		"find . -name '*acme-merger*' -delete",
		"cd ~/work/project-falcon && ls",
		"scp jsmith@buildhost:/srv/payroll.csv .",
		"export CUSTOMER=acme-merger",
		"sudo -u bobsmith crontab -l",
		"npm run deploy:project-falcon",
		"git commit -am 'merger with falcon'",
		"aws s3 cp ./payroll s3://acme-merger/",
		"mysql acme_customers < payroll.sql",
		"echo $(cat divorce.txt)",
		NULL
	};
	struct redacted_cmd	c;
	size_t			i, j, k;

	for (i = 0; cmds[i] != NULL; i++) {
		CHECK_INT(redact_command(R, ANON_STANDARD, cmds[i],
		    strlen(cmds[i]), &c, NULL), 0);
		for (k = 0; personal[k] != NULL; k++) {
			int left = strcasestr(c.full, personal[k]) != NULL;

			for (j = 0; j < c.nargs; j++)
				left |= strcasestr(c.args[j], personal[k]) !=
				    NULL;
			if (left)
				fprintf(stderr, "personal word '%s' left: %s\n"
				    "  -> %s\n", personal[k], cmds[i], c.full);
			CHECK(!left);
		}
		redacted_cmd_release(&c);
	}
}

static void
t_homes(void)
{
	struct redacted_cmd	 c;
	char			*out;
	const char		*l;

	/* Set in t_load: /srv/users/bob and /var/lib/jenkins. */
	l = "cat /var/lib/jenkins/workspace/acme/build.log /srv/users/bob";
	out = red(ANON_STANDARD, l);
	CHECK_STR(out, "cat [HOME]/[PROJECT]/[FILE] [HOME]");
	free(out);
	out = red(ANON_MINIMAL, l);
	CHECK_STR(out, l);
	free(out);
	CHECK_INT(redact_command(R, ANON_MAXIMUM, l, strlen(l), &c, NULL), 0);
	CHECK_STR(c.full, "cat [PATH] [HOME]");
	redacted_cmd_release(&c);
	/* Not a prefix of a longer name; other system paths stay. */
	out = red(ANON_STANDARD, "ls /srv/users/bobby /var/lib/jenkins2 "
	    "/var/lib/dpkg");
	CHECK_STR(out, "ls /srv/users/bobby /var/lib/jenkins2 /var/lib/dpkg");
	free(out);
	out = red(ANON_STANDARD, "PATH=/srv/users/bob/bin:/usr/bin "
	    "--dir=/srv/users/bob/.ssh");
	CHECK_STR(out, "PATH=[HOME]/bin:/usr/bin --dir=[HOME]/.ssh");
	free(out);
	/* Home patterns anywhere. */
	out = red(ANON_STANDARD, "cp /var/home/carol/acme/x.pdf "
	    "/export/home/dave/notes.txt /Users/erin/y /root/.bashrc");
	CHECK_STR(out, "cp [HOME]/[PROJECT]/[FILE] [HOME]/[FILE] [HOME]/[FILE] "
	    "[HOME]/.bashrc");
	free(out);
	/* Bad homes are ignored. */
	redactor_add_home(R, "/");
	redactor_add_home(R, "/tmp");
	redactor_add_home(R, "relative/dir");
	out = red(ANON_STANDARD, "ls /tmp/x /");
	CHECK_STR(out, "ls /tmp/x /");
	free(out);
}

static void
write_file(const char *path, const char *s)
{
	FILE	*fp = fopen(path, "w");

	if (fp != NULL) {
		fputs(s, fp);
		fclose(fp);
	}
}

static int
load_bad(const char *rules)
{
	char			 dir[] = "/tmp/test-redact-XXXXXX", *path;
	char			*cause = NULL;
	struct redactor		*r = NULL;
	int			 error;

	if (mkdtemp(dir) == NULL)
		return 0;
	xasprintf(&path, "%s/x.rules", dir);
	write_file(path, rules);
	error = redactor_load(dir, &r, &cause);
	redactor_free(r);
	free(cause);
	unlink(path);
	free(path);
	rmdir(dir);
	return error;
}

static void
t_lint(void)
{
	CHECK(load_bad("[rule a]\ntype = t\nlabel = [X]\npattern = "
	    "[\\w.-]{0,50}?key=(?<secret>\\w+)\nexample = key=abc\n"
	    "negative = x\n") != 0);
	CHECK(load_bad("[rule a]\ntype = t\nlabel = [X]\npattern = "
	    "key=(\\w+)\nexample = key=abc\nnegative = x\n") != 0);
	CHECK(load_bad("[rule a]\ntype = t\nlabel = [X]\npattern = "
	    "key=(?<secret>\\w+)\nnegative = x\n") != 0);
	CHECK(load_bad("[rule a]\ntype = t\nlabel = [X]\npattern = "
	    "key=(?<secret>\\w+)\nexample = key=a\nnegative = x\n"
	    "[rule a]\ntype = t\nlabel = [X]\npattern = "
	    "k=(?<secret>\\w+)\nexample = k=a\nnegative = x\n") != 0);
	CHECK(load_bad("[rule a]\ntype = t\nlabel = [X]\npattern = "
	    ".*key=(?<secret>\\w+)\nexample = key=a\nnegative = x\n") != 0);
	CHECK(load_bad("[rule a]\ntype = t\nlabel = [X]\npattern = "
	    "key=(?<secret>\\w+)\nexample = key=a\nnegative = x\n") == 0);
}

/*
 * A rule with a model: loaded from the rules' own directory, run after
 * the pattern rules on the values they left; refused with a pattern, a
 * path or a missing file.
 */
static int
load_model_rule(const char *model_key, const char *extra, const char *in,
    const char *want)
{
	char			 dir[] = "/tmp/test-redact-XXXXXX", *path, *mpath;
	char			*rules, *cause = NULL;
	struct redactor		*r = NULL;
	struct buf		 out = BUF_INIT;
	int			 error;

	if (mkdtemp(dir) == NULL)
		return -1;
	xasprintf(&mpath, "%s/v.model", dir);
	/* Every value with upper, lower and digits scores sigmoid(10). */
	write_file(mpath, "# test\nthreshold\t0.5\nbias\t-10\nc:7\t20\n");
	xasprintf(&path, "%s/x.rules", dir);
	xasprintf(&rules, "[rule k]\ntype = t\nlabel = [K]\nkeywords = key=\n"
	    "pattern = key=(?<secret>\\w+)\nexample = key=a\nnegative = x\n"
	    "[rule m]\ntype = m\nlabel = [M]\nmodel = %s\n%s"
	    "example = x Ab3dEf9h\nnegative = x\n", model_key, extra);
	write_file(path, rules);
	error = redactor_load(dir, &r, &cause);
	if (error == 0 && in != NULL) {
		redact_text(r, ANON_MINIMAL, in, strlen(in), &out, NULL, NULL);
		CHECK_STR(buf_str(&out), want);
	}
	buf_release(&out);
	redactor_free(r);
	free(cause);
	unlink(path);
	unlink(mpath);
	free(path);
	free(mpath);
	free(rules);
	rmdir(dir);
	return error;
}

static void
t_model_rule(void)
{
	/* A value the pattern rule took is not asked about again. */
	CHECK_INT(load_model_rule("v.model", "", "tool key=Zz9yY8xX --x "
	    "Ab3dEf9h abcdefgh Ab3d $Cd3dEf9h /p/Ef3dEf9h",
	    "tool key=[K] --x [M] abcdefgh Ab3d $Cd3dEf9h /p/Ef3dEf9h"), 0);
	/* Placeholders and allow patterns keep a value. */
	CHECK_INT(load_model_rule("v.model", "allow = ^Ab3\n",
	    "a Ab3dEf9h Xy7wVu5t <Your1Token> {{Api1Key}}",
	    "a Ab3dEf9h [M] <Your1Token> {{Api1Key}}"),
	    0);
	CHECK(load_model_rule("../v.model", "", NULL, NULL) != 0);
	CHECK(load_model_rule("sub/v.model", "", NULL, NULL) != 0);
	CHECK(load_model_rule("none.model", "", NULL, NULL) != 0);
	CHECK(load_model_rule("v.model", "pattern = a(?<secret>b)\n", NULL,
	    NULL) != 0);
	CHECK(load_model_rule("v.model", "keywords = ab\n", NULL, NULL) != 0);
}

int
main(void)
{
	if ((src = getenv("DELIBERATE_SRC")) == NULL)
		src = ".";
	RUN(t_load);
	if (R == NULL)
		return harness_done();
	RUN(t_rule_examples);
	RUN(t_seed);
	RUN(t_corpus_secrets);
	RUN(t_corpus_clean);
	RUN(t_quotes_and_stats);
	RUN(t_overlap);
	RUN(t_quote_extension);
	RUN(t_repeat);
	RUN(t_pathological);
	RUN(t_binary);
	RUN(t_levels);
	RUN(t_standard_table);
	RUN(t_standard_args);
	RUN(t_personal_words);
	RUN(t_homes);
	RUN(t_lint);
	RUN(t_model_rule);
	printf("redact corpus: %zu rules, %zu types, recall %zu/%zu lines "
	    "(%.1f%%), %zu/%zu secrets left, %zu/%zu clean lines changed, "
	    "%.1f us/command, worst 64 KiB input %.3f s\n",
	    redactor_nrules(R), redactor_ntypes(R), fig_clean, fig_lines,
	    fig_lines ? 100.0 * (double)fig_clean / (double)fig_lines : 0.0,
	    fig_left, fig_secrets, fig_fp, fig_cleanlines, fig_us, fig_patho);
	R = redactor_free(R);
	return harness_done();
}
