/*
 * deliberate export: every stored entry (archive and current), in
 * chronological order, as NDJSON (the stored lines, byte for byte), a
 * streamed JSON array, or chat-style training JSONL (docs/export.md).
 * Memory does not grow with the data.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <json-c/json.h>

#include "buf.h"
#include "cli.h"
#include "dataset.h"
#include "progress.h"
#include "xmalloc.h"

enum format { F_NDJSON, F_JSON, F_TRAINING };

/* U+1F914 THINKING FACE four times, then a newline. */
#define THINK_PREFIX \
	"\xf0\x9f\xa4\x94\xf0\x9f\xa4\x94\xf0\x9f\xa4\x94\xf0\x9f\xa4\x94\n"

#define SYSTEM_PROMPT \
	"You are Deliberate's shell command risk classifier. Given a " \
	"redacted command line and its context, answer with its risk level " \
	"(safe, moderate or dangerous) and the reason."

struct export_stats {
	int64_t		 written;
	int64_t		 skipped;	/* no consent */
	int64_t		 bad;		/* unreadable, overlong, unparsable */
};

static struct json_object *
get(struct json_object *o, const char *path)
{
	char		 key[64];
	const char	*dot;
	size_t		 n;

	while (o != NULL && *path != '\0') {
		dot = strchr(path, '.');
		n = dot != NULL ? (size_t)(dot - path) : strlen(path);
		if (n >= sizeof key)
			return NULL;
		memcpy(key, path, n);
		key[n] = '\0';
		if (!json_object_object_get_ex(o, key, &o))
			return NULL;
		path += n + (dot != NULL);
	}
	return o;
}

static const char *
get_str(struct json_object *o, const char *path, const char *def)
{
	struct json_object	*v = get(o, path);

	return v != NULL && json_object_is_type(v, json_type_string) ?
	    json_object_get_string(v) : def;
}

static const char *
yesno(struct json_object *o, const char *path)
{
	struct json_object	*v = get(o, path);

	if (v == NULL || !json_object_is_type(v, json_type_boolean))
		return "unknown";
	return json_object_get_boolean(v) ? "yes" : "no";
}

/* Text without <think> tags: the contract forbids them. */
static void
add_clean(struct buf *b, const char *s)
{
	const char	*p;

	while ((p = strstr(s, "think>")) != NULL) {
		if (p - s >= 1 && p[-1] == '<') {
			buf_add(b, s, (size_t)(p - 1 - s));
			buf_adds(b, "[think]");
		} else if (p - s >= 2 && p[-1] == '/' && p[-2] == '<') {
			buf_add(b, s, (size_t)(p - 2 - s));
			buf_adds(b, "[/think]");
		} else
			buf_add(b, s, (size_t)(p + 6 - s));
		s = p + 6;
	}
	buf_adds(b, s);
}

/* The first matched pattern decides. */
static struct json_object *
deciding_pattern(struct json_object *e)
{
	struct json_object	*pats = get(e, "classification.patterns"), *p;
	struct json_object	*m;
	size_t			 i, n;

	if (pats == NULL || !json_object_is_type(pats, json_type_array))
		return NULL;
	n = json_object_array_length(pats);
	for (i = 0; i < n; i++) {
		p = json_object_array_get_idx(pats, i);
		if (json_object_object_get_ex(p, "matched", &m) &&
		    json_object_get_boolean(m))
			return p;
	}
	return NULL;
}

static struct json_object *
message(const char *role, const char *content)
{
	struct json_object	*m = json_object_new_object();

	json_object_object_add(m, "role", json_object_new_string(role));
	json_object_object_add(m, "content", json_object_new_string(content));
	return m;
}

/*
 * One training sample, or NULL when the entry has no improvement
 * consent.
 */
static struct json_object *
training_sample(struct json_object *e)
{
	struct json_object	*out, *msgs, *meta, *v, *pat, *corr;
	struct buf		 user = BUF_INIT, asst = BUF_INIT, rule = BUF_INIT;
	const char		*label, *risk, *pid = NULL, *pname = NULL;
	char			*cat;

	v = get(e, "privacy.consent.improvementConsent");
	if (v == NULL || !json_object_is_type(v, json_type_boolean) ||
	    !json_object_get_boolean(v))
		return NULL;

	buf_adds(&user, "Classify the risk of this shell command.\nCommand: ");
	add_clean(&user, get_str(e, "command.fullCommand", ""));
	buf_adds(&user, "\nShell: ");
	add_clean(&user, get_str(e, "context.environment.shell", "unknown"));
	buf_adds(&user, "\nWorking directory: ");
	add_clean(&user, get_str(e, "context.workingDirectory.type",
	    "unknown"));
	v = get(e, "context.workingDirectory.depth");
	if (v != NULL && json_object_is_type(v, json_type_int))
		buf_addf(&user, " (depth %lld)",
		    (long long)json_object_get_int64(v));
	buf_addf(&user, "\nRoot: %s\nSudo: %s\nInteractive: %s\nTTY: %s",
	    yesno(e, "context.user.isRoot"), yesno(e, "context.user.isSudo"),
	    yesno(e, "context.environment.isInteractive"),
	    yesno(e, "context.environment.isTTY"));
	if (get(e, "context.parentProcess.name") != NULL) {
		buf_adds(&user, "\nParent process: ");
		add_clean(&user, get_str(e, "context.parentProcess.name", ""));
		buf_addf(&user, " (script: %s)",
		    yesno(e, "context.parentProcess.isScript"));
	}

	risk = get_str(e, "classification.riskLevel", "unknown");
	corr = get(e, "userDecision.correction");
	label = get_str(corr, "correctClassification", NULL);
	if (label == NULL)
		label = risk;
	if ((pat = deciding_pattern(e)) != NULL) {
		pid = get_str(pat, "patternId", NULL);
		pname = get_str(pat, "patternName", NULL);
	}
	if (pid != NULL)
		buf_addf(&rule, "rule %s%s%s%s", pid, pname ? " (" : "",
		    pname ? pname : "", pname ? ")" : "");
	else
		buf_adds(&rule, "no risk rule matched");

	buf_adds(&asst, THINK_PREFIX);
	buf_addf(&asst, "Risk: %s\nReason: ", label);
	if (corr != NULL && get_str(corr, "correctClassification", NULL)) {
		buf_addf(&asst, "corrected by the user (%s); the classifier "
		    "said %s on ", get_str(corr, "type", "correction"), risk);
		add_clean(&asst, buf_str(&rule));
	} else
		add_clean(&asst, buf_str(&rule));

	msgs = json_object_new_array();
	json_object_array_add(msgs, message("system", SYSTEM_PROMPT));
	json_object_array_add(msgs, message("user", buf_str(&user)));
	json_object_array_add(msgs, message("assistant", buf_str(&asst)));

	cat = dataset_category(pid);
	meta = json_object_new_object();
	json_object_object_add(meta, "skill",
	    json_object_new_string("command_risk"));
	json_object_object_add(meta, "scenario", json_object_new_string(cat));
	json_object_object_add(meta, "source",
	    json_object_new_string("deliberate"));
	json_object_object_add(meta, "generator_version",
	    json_object_new_string("deliberate-export " DELIBERATE_VERSION));
	json_object_object_add(meta, "entry_id",
	    json_object_new_string(get_str(e, "id", "")));
	json_object_object_add(meta, "timestamp",
	    json_object_new_string(get_str(e, "timestamp", "")));
	json_object_object_add(meta, "schemaVersion",
	    json_object_new_string(get_str(e, "schemaVersion", "")));
	json_object_object_add(meta, "label", json_object_new_string(label));
	json_object_object_add(meta, "label_source", json_object_new_string(
	    label != risk ? "user_correction" : "classifier"));
	json_object_object_add(meta, "classifier_risk",
	    json_object_new_string(risk));
	json_object_object_add(meta, "rule_id", pid != NULL ?
	    json_object_new_string(pid) : NULL);
	json_object_object_add(meta, "action", json_object_new_string(
	    get_str(e, "userDecision.action", "unknown")));
	free(cat);

	out = json_object_new_object();
	json_object_object_add(out, "messages", msgs);
	json_object_object_add(out, "metadata", meta);
	buf_release(&user);
	buf_release(&asst);
	buf_release(&rule);
	return out;
}

/*
 * Print the entry of l with its annotations merged (docs/annotations.md);
 * returns 0 when it has none, so the raw line is printed as it is.
 */
static int
put_merged(struct dataset *ds, const struct dataset_line *l, FILE *out)
{
	struct json_object	*e;
	char			*cause = NULL;

	if (!dataset_annotated(ds, l))
		return 0;
	if (dataset_parse_raw(l->data, l->len, &e, &cause) != 0) {
		free(cause);
		return 0;
	}
	dataset_annotate(ds, l, e);
	fputs(json_object_to_json_string_ext(e, JSON_C_TO_STRING_PLAIN |
	    JSON_C_TO_STRING_NOSLASHESCAPE), out);
	json_object_put(e);
	return 1;
}

/* A stored line must at least look like one JSON object. */
static int
looks_like_object(const char *s, size_t len)
{
	while (len > 0 && (s[len - 1] == ' ' || s[len - 1] == '\r' ||
	    s[len - 1] == '\t'))
		len--;
	while (len > 0 && (*s == ' ' || *s == '\t')) {
		s++;
		len--;
	}
	return len >= 2 && s[0] == '{' && s[len - 1] == '}';
}

static int
run_export(struct dataset *ds, FILE *out, enum format fmt,
    struct export_stats *st)
{
	struct dataset_line	 l;
	struct dataset_progress	 pr;
	struct progress		 bar;
	struct json_object	*e, *sample;
	char			*cause = NULL;
	int			 r;

	progress_start(&bar, "export");
	if (fmt == F_JSON)
		fputs("[", out);
	while ((r = dataset_next(ds, &l, &cause)) != 0) {
		if (r < 0) {
			cli_error("%s", cause);
			free(cause);
			cause = NULL;
			st->bad++;
			continue;
		}
		switch (fmt) {
		case F_NDJSON:
			if (!put_merged(ds, &l, out))
				fwrite(l.data, 1, l.len, out);
			putc('\n', out);
			st->written++;
			break;
		case F_JSON:
			if (!looks_like_object(l.data, l.len)) {
				cli_error("%s:%lld: not a JSON object, skipped",
				    l.path, (long long)l.lineno);
				st->bad++;
				break;
			}
			fputs(st->written > 0 ? ",\n" : "\n", out);
			if (!put_merged(ds, &l, out))
				fwrite(l.data, 1, l.len, out);
			st->written++;
			break;
		case F_TRAINING:
			if (dataset_parse(l.data, l.len, &e, &cause) != 0) {
				cli_error("%s:%lld: %s, skipped", l.path,
				    (long long)l.lineno, cause);
				free(cause);
				cause = NULL;
				st->bad++;
				break;
			}
			dataset_annotate(ds, &l, e);
			if ((sample = training_sample(e)) == NULL)
				st->skipped++;
			else {
				fputs(json_object_to_json_string_ext(sample,
				    JSON_C_TO_STRING_PLAIN |
				    JSON_C_TO_STRING_NOSLASHESCAPE), out);
				putc('\n', out);
				st->written++;
				json_object_put(sample);
			}
			json_object_put(e);
			break;
		}
		if ((st->written & 1023) == 0) {
			dataset_progress(ds, &pr);
			progress_update(&bar, pr.done, pr.total);
		}
	}
	if (fmt == F_JSON)
		fputs(st->written > 0 ? "\n]\n" : "]\n", out);
	progress_end(&bar);
	return 0;
}

/* The export subcommand. */
int
cmd_export(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "since", required_argument, NULL, 's' },
		{ "until", required_argument, NULL, 'u' },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct dataset_filter	 filter;
	struct export_stats	 st = { 0, 0, 0 };
	struct dataset		*ds = NULL;
	enum format		 fmt = F_NDJSON;
	const char		*since = NULL, *until = NULL, *output = NULL;
	char			*cause = NULL, *tmp = NULL;
	FILE			*out = stdout;
	struct stat		 ost;
	int			 ch, fd = -1, rc = EXIT_FAIL, direct = 0;
	static char		 obuf[256 * 1024];

	while ((ch = getopt_long(argc, argv, "+f:s:u:o:h", longopts,
	    NULL)) != -1) {
		switch (ch) {
		case 'f':
			if (strcmp(optarg, "ndjson") == 0)
				fmt = F_NDJSON;
			else if (strcmp(optarg, "json") == 0)
				fmt = F_JSON;
			else if (strcmp(optarg, "training") == 0)
				fmt = F_TRAINING;
			else
				cli_usage_error("unknown format '%s'", optarg);
			break;
		case 's':
			since = optarg;
			break;
		case 'u':
			until = optarg;
			break;
		case 'o':
			output = optarg;
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

	/*
	 * Not a regular file (/dev/null, a FIFO, a terminal): written as it
	 * is.  A temp file renamed over /dev/null would replace the device.
	 */
	if (output != NULL && stat(output, &ost) == 0 && !S_ISREG(ost.st_mode)) {
		if ((fd = open(output, O_WRONLY | O_CLOEXEC | O_NOCTTY)) < 0 ||
		    (out = fdopen(fd, "w")) == NULL) {
			cli_error("cannot write '%s': %s", output,
			    strerror(errno));
			if (fd >= 0)
				close(fd);
			out = stdout;
			goto out;
		}
		output = NULL;
		direct = 1;
	}
	if (output != NULL) {
		/* Atomically: a private temp file next to it, then rename. */
		xasprintf(&tmp, "%s.tmp.XXXXXX", output);
		if ((fd = mkostemp(tmp, O_CLOEXEC)) < 0) {
			cli_error("cannot create '%s': %s", tmp,
			    strerror(errno));
			free(tmp);
			tmp = NULL;
			goto out;
		}
		if (fchmod(fd, 0600) != 0 || (out = fdopen(fd, "w")) == NULL) {
			cli_error("cannot write '%s': %s", tmp,
			    strerror(errno));
			close(fd);
			out = stdout;
			goto out;
		}
	}
	setvbuf(out, obuf, _IOFBF, sizeof obuf);
	run_export(ds, out, fmt, &st);
	if (fflush(out) != 0 || ferror(out)) {
		cli_error("cannot write '%s': %s", output ? tmp : direct ?
		    "the output" : "stdout", strerror(errno));
		goto out;
	}
	if (output != NULL) {
		if (fsync(fileno(out)) != 0 || fclose(out) != 0) {
			out = stdout;
			cli_error("cannot write '%s': %s", tmp,
			    strerror(errno));
			goto out;
		}
		out = stdout;
		if (rename(tmp, output) != 0) {
			cli_error("cannot rename '%s' to '%s': %s", tmp,
			    output, strerror(errno));
			goto out;
		}
		free(tmp);
		tmp = NULL;
	}
	rc = st.bad > 0 ? EXIT_FAIL : EXIT_OK;
out:
	if (out != stdout)
		fclose(out);
	if (tmp != NULL) {
		unlink(tmp);
		free(tmp);
	}
	dataset_free(ds);
	return rc;
}
