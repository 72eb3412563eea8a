/*
 * deliberate redact: redact lines from stdin with the rule set, as the
 * daemon redacts fullCommand before writing (at standard, free argument
 * values become types).  --json prints per-line findings (rule id, type,
 * byte span) and never the secret itself.
 *
 * Lines are independent, so a long input is cut into batches and each
 * batch into chunks of CHUNK_LINES lines, which the jobs take one at a
 * time (a job that is held up, loading its redactor or on slow lines,
 * takes fewer); every job has its own redactor (the match data, the
 * keyword hits and the lazily JIT-compiled patterns are a redactor's
 * own), and the chunks are printed in input order.  Short inputs, and
 * --jobs 1, never start a thread.
 */
#include <errno.h>
#include <getopt.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "buf.h"
#include "cli.h"
#include "redact.h"
#include "xmalloc.h"

#define JOBS_MAX	64
#define BATCH_LINES	16384	/* lines read before a batch is shared out */
#define CHUNK_LINES	256	/* lines a job takes at a time */
#define SLICE_MIN	1024	/* fewer lines per job are not worth a thread */

/* A chunk's output: bytes [start, end) of job's out. */
struct redact_chunk {
	int	 job;
	size_t	 start, end;
};

/* The batch the jobs share. */
struct redact_share {
	const char		*text;		/* the lines, NUL-ended */
	const size_t		*off;		/* where line i starts */
	const size_t		*len;
	size_t			 n;
	long			 lineno;	/* the number of line 0 */
	pthread_mutex_t		 lock;
	size_t			 next;		/* the next chunk to take */
	struct redact_chunk	 chunk[BATCH_LINES / CHUNK_LINES + 1];
};

struct redact_job {
	struct redactor		*red;
	int			 id;
	enum anon_level		 level;
	int			 json;
	struct redact_share	*share;
	struct buf		 out;		/* what to print */
	struct buf		 line;
	struct redact_findings	 f;
};

/* Append one line's result, as text or as a JSON object, to j->out. */
static void
redact_job_line(struct redact_job *j, const char *in, size_t n, long lineno)
{
	struct json_object	*o, *arr, *fo;
	size_t			 i;

	buf_reset(&j->line);
	j->f.n = 0;
	redact_line(j->red, j->level, in, n, &j->line, &j->f, NULL);
	if (!j->json) {
		buf_add(&j->out, j->line.data, j->line.len);
		buf_addc(&j->out, '\n');
		return;
	}
	o = json_object_new_object();
	json_object_object_add(o, "line", json_object_new_int64(lineno));
	json_object_object_add(o, "redacted",
	    json_object_new_string_len(buf_str(&j->line), (int)j->line.len));
	arr = json_object_new_array();
	for (i = 0; i < j->f.n; i++) {
		fo = json_object_new_object();
		json_object_object_add(fo, "ruleId",
		    json_object_new_string(j->f.v[i].rule_id));
		json_object_object_add(fo, "type",
		    json_object_new_string(j->f.v[i].type));
		json_object_object_add(fo, "label",
		    json_object_new_string(j->f.v[i].label));
		json_object_object_add(fo, "start",
		    json_object_new_int64((int64_t)j->f.v[i].start));
		json_object_object_add(fo, "end",
		    json_object_new_int64((int64_t)j->f.v[i].end));
		json_object_array_add(arr, fo);
	}
	json_object_object_add(o, "findings", arr);
	buf_adds(&j->out, json_object_to_json_string_ext(o,
	    JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE));
	buf_addc(&j->out, '\n');
	json_object_put(o);
}

/* A job: chunks of the batch until none is left (the thread function). */
static void *
redact_job_run(void *arg)
{
	struct redact_job	*j = arg;
	struct redact_share	*sh = j->share;
	size_t			 c, i, nchunks;

	buf_reset(&j->out);
	/*
	 * A thread loads its own redactor (the first is loaded before any
	 * input): loading (mostly pcre2_compile) costs as much as a few
	 * thousand lines, and here it runs beside the other jobs' work.
	 */
	if (j->red == NULL && (j->red = cli_load_redactor()) == NULL)
		return NULL;
	nchunks = (sh->n + CHUNK_LINES - 1) / CHUNK_LINES;
	for (;;) {
		pthread_mutex_lock(&sh->lock);
		c = sh->next++;
		pthread_mutex_unlock(&sh->lock);
		if (c >= nchunks)
			break;
		sh->chunk[c].job = j->id;
		sh->chunk[c].start = j->out.len;
		for (i = c * CHUNK_LINES;
		    i < sh->n && i < (c + 1) * CHUNK_LINES; i++)
			redact_job_line(j, sh->text + sh->off[i], sh->len[i],
			    sh->lineno + (long)i);
		sh->chunk[c].end = j->out.len;
	}
	return NULL;
}

/* The CPUs this process may run on. */
static int
redact_default_jobs(void)
{
	cpu_set_t	set;
	int		n;

	if (sched_getaffinity(0, sizeof set, &set) != 0)
		return 1;
	n = CPU_COUNT(&set);
	return n < 1 ? 1 : n > JOBS_MAX ? JOBS_MAX : n;
}

/*
 * Redact the batch's n lines with up to njobs jobs (each thread loads its
 * job's redactor the first time), and print the chunks in order.  Returns
 * -1 if a redactor cannot be loaded or a thread cannot start.
 */
static int
redact_batch(struct redact_job *jobs, int njobs, struct redact_share *sh)
{
	pthread_t	 tid[JOBS_MAX];
	size_t		 c, nchunks;
	int		 k, use, started, error;

	use = (int)(sh->n / SLICE_MIN);
	if (use > njobs)
		use = njobs;
	if (use < 1)
		use = 1;
	sh->next = 0;
	for (started = 1; started < use; started++) {
		error = pthread_create(&tid[started], NULL, redact_job_run,
		    &jobs[started]);
		if (error != 0) {
			cli_error("cannot start a redaction thread: %s",
			    strerror(error));
			break;
		}
	}
	redact_job_run(&jobs[0]);
	for (k = 1; k < started; k++)
		pthread_join(tid[k], NULL);
	if (started < use)
		return -1;
	/* A job whose redactor did not load has none. */
	for (k = 0; k < use; k++) {
		if (jobs[k].red == NULL)
			return -1;
	}
	nchunks = (sh->n + CHUNK_LINES - 1) / CHUNK_LINES;
	for (c = 0; c < nchunks; c++) {
		k = sh->chunk[c].job;
		fwrite(jobs[k].out.data + sh->chunk[c].start, 1,
		    sh->chunk[c].end - sh->chunk[c].start, stdout);
	}
	return 0;
}

/* The redact subcommand. */
int
cmd_redact(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "level", required_argument, NULL, 'l' },
		{ "json", no_argument, NULL, 'j' },
		{ "jobs", required_argument, NULL, 'J' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct redact_job	 jobs[JOBS_MAX];
	struct redact_share	 sh;
	struct buf		 text = BUF_INIT;
	enum anon_level		 level = ANON_MINIMAL;
	char			*line = NULL, *end;
	size_t			*off, *len, cap = 0, n = 0;
	ssize_t			 got;
	long			 lineno = 1, v;
	int			 ch, json = 0, njobs, k, rc = EXIT_OK;

	njobs = redact_default_jobs();
	while ((ch = getopt_long(argc, argv, "+l:jh", longopts, NULL)) != -1) {
		switch (ch) {
		case 'l':
			if (anon_level_parse(optarg, &level) != 0)
				cli_usage_error("bad --level '%s': want minimal, "
				    "standard or maximum", optarg);
			break;
		case 'j':
			json = 1;
			break;
		case 'J':
			errno = 0;
			v = strtol(optarg, &end, 10);
			if (errno != 0 || end == optarg || *end != '\0' ||
			    v < 1 || v > JOBS_MAX)
				cli_usage_error("bad --jobs '%s': want a number "
				    "from 1 to %d", optarg, JOBS_MAX);
			njobs = (int)v;
			break;
		case 'h':
			cli_help();
		default:
			cli_usage_error("unknown option '%s'",
			    argv[optind - 1]);
		}
	}
	if (optind != argc)
		cli_usage_error("unexpected argument '%s' (lines are read "
		    "from stdin)", argv[optind]);
	memset(jobs, 0, sizeof jobs);
	memset(&sh, 0, sizeof sh);
	pthread_mutex_init(&sh.lock, NULL);
	for (k = 0; k < njobs; k++) {
		jobs[k].id = k;
		jobs[k].share = &sh;
		jobs[k].level = level;
		jobs[k].json = json;
	}
	/* The first redactor before any input: a broken rule set says so. */
	if ((jobs[0].red = cli_load_redactor()) == NULL)
		return EXIT_FAIL;
	off = xcalloc(BATCH_LINES, sizeof *off);
	len = xcalloc(BATCH_LINES, sizeof *len);
	for (;;) {
		got = getline(&line, &cap, stdin);
		if (got != -1) {
			if (got > 0 && line[got - 1] == '\n')
				line[--got] = '\0';
			off[n] = text.len;
			len[n] = (size_t)got;
			buf_add(&text, line, (size_t)got + 1);
			n++;
		}
		if (n > 0 && (n == BATCH_LINES || got == -1)) {
			sh.text = text.data;
			sh.off = off;
			sh.len = len;
			sh.n = n;
			sh.lineno = lineno;
			if (redact_batch(jobs, njobs, &sh) != 0) {
				rc = EXIT_FAIL;
				break;
			}
			lineno += (long)n;
			n = 0;
			buf_reset(&text);
		}
		if (got == -1)
			break;
	}
	free(line);
	free(off);
	free(len);
	buf_release(&text);
	for (k = 0; k < njobs; k++) {
		if (jobs[k].red != NULL)
			redactor_free(jobs[k].red);
		buf_release(&jobs[k].out);
		buf_release(&jobs[k].line);
		redact_findings_release(&jobs[k].f);
	}
	pthread_mutex_destroy(&sh.lock);
	if (ferror(stdout))
		rc = EXIT_FAIL;
	return rc;
}
