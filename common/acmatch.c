/*
 * Aho-Corasick: a trie over lower-cased keywords, turned into a complete
 * DFA over a compact alphabet (the bytes that occur in some keyword, plus
 * one class for every other byte).  Each state keeps its own outputs and
 * an output link to the nearest state on its failure chain that has
 * outputs, so overlapping keywords are all reported.
 */
#include "acmatch.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "xmalloc.h"

struct acout {
	unsigned	 id;
	int		 next;		/* next output of the same state */
};

struct acmatch {
	unsigned char	 cls[256];	/* byte -> class, 0 = other */
	unsigned	 ncls;
	int		*delta;		/* nstates * ncls transitions */
	int		*fail;
	int		*olink;		/* nearest failure state with output */
	int		*ohead;		/* first output of a state, -1 none */
	size_t		 nstates, astates;
	struct acout	*out;
	size_t		 nout, aout;
	char		**kw;		/* keywords kept until build */
	size_t		*kwlen;
	unsigned	*kwid;
	size_t		 nkw, akw;
	int		 built;
};

/* Create an empty automaton. */
struct acmatch *
acmatch_create(void)
{
	return xcalloc(1, sizeof(struct acmatch));
}

/* Add a keyword. */
void
acmatch_add(struct acmatch *ac, const char *kw, size_t len, unsigned id)
{
	size_t	i;

	if (ac->built || len == 0)
		return;
	if (ac->nkw == ac->akw) {
		ac->akw = ac->akw == 0 ? 64 : ac->akw * 2;
		ac->kw = xreallocarray(ac->kw, ac->akw, sizeof *ac->kw);
		ac->kwlen = xreallocarray(ac->kwlen, ac->akw,
		    sizeof *ac->kwlen);
		ac->kwid = xreallocarray(ac->kwid, ac->akw, sizeof *ac->kwid);
	}
	ac->kw[ac->nkw] = xmalloc(len);
	for (i = 0; i < len; i++)
		ac->kw[ac->nkw][i] = (char)tolower((unsigned char)kw[i]);
	ac->kwlen[ac->nkw] = len;
	ac->kwid[ac->nkw] = id;
	ac->nkw++;
}

static int
ac_newstate(struct acmatch *ac)
{
	size_t	i, s;

	if (ac->nstates == ac->astates) {
		ac->astates = ac->astates == 0 ? 64 : ac->astates * 2;
		ac->delta = xreallocarray(ac->delta, ac->astates * ac->ncls,
		    sizeof *ac->delta);
		ac->fail = xreallocarray(ac->fail, ac->astates,
		    sizeof *ac->fail);
		ac->olink = xreallocarray(ac->olink, ac->astates,
		    sizeof *ac->olink);
		ac->ohead = xreallocarray(ac->ohead, ac->astates,
		    sizeof *ac->ohead);
	}
	s = ac->nstates++;
	for (i = 0; i < ac->ncls; i++)
		ac->delta[s * ac->ncls + i] = -1;
	ac->fail[s] = 0;
	ac->olink[s] = -1;
	ac->ohead[s] = -1;
	return (int)s;
}

static void
ac_addout(struct acmatch *ac, int s, unsigned id)
{
	if (ac->nout == ac->aout) {
		ac->aout = ac->aout == 0 ? 64 : ac->aout * 2;
		ac->out = xreallocarray(ac->out, ac->aout, sizeof *ac->out);
	}
	ac->out[ac->nout].id = id;
	ac->out[ac->nout].next = ac->ohead[s];
	ac->ohead[s] = (int)ac->nout++;
}

/* Build the automaton. */
void
acmatch_build(struct acmatch *ac)
{
	size_t		 i, j, c, head, tail;
	int		*queue, s, t, f;

	if (ac->built)
		return;
	ac->built = 1;
	ac->ncls = 1;
	for (i = 0; i < ac->nkw; i++) {
		for (j = 0; j < ac->kwlen[i]; j++) {
			c = (unsigned char)ac->kw[i][j];
			if (ac->cls[c] == 0)
				ac->cls[c] = (unsigned char)ac->ncls++;
		}
	}
	/* Upper-case letters share the class of their lower-case form. */
	for (c = 'A'; c <= 'Z'; c++)
		ac->cls[c] = ac->cls[tolower((int)c)];
	ac_newstate(ac);
	for (i = 0; i < ac->nkw; i++) {
		s = 0;
		for (j = 0; j < ac->kwlen[i]; j++) {
			c = ac->cls[(unsigned char)ac->kw[i][j]];
			t = ac->delta[(size_t)s * ac->ncls + c];
			if (t < 0) {
				t = ac_newstate(ac);
				ac->delta[(size_t)s * ac->ncls + c] = t;
			}
			s = t;
		}
		ac_addout(ac, s, ac->kwid[i]);
		free(ac->kw[i]);
	}
	free(ac->kw);
	free(ac->kwlen);
	free(ac->kwid);
	ac->kw = NULL;
	ac->kwlen = NULL;
	ac->kwid = NULL;

	/* Breadth-first: failure links and the complete transition table. */
	queue = xreallocarray(NULL, ac->nstates, sizeof *queue);
	head = tail = 0;
	for (c = 0; c < ac->ncls; c++) {
		t = ac->delta[c];
		if (t < 0)
			ac->delta[c] = 0;
		else if (t > 0) {
			ac->fail[t] = 0;
			queue[tail++] = t;
		}
	}
	while (head < tail) {
		s = queue[head++];
		f = ac->fail[s];
		ac->olink[s] = ac->ohead[f] >= 0 ? f : ac->olink[f];
		for (c = 0; c < ac->ncls; c++) {
			t = ac->delta[(size_t)s * ac->ncls + c];
			if (t < 0) {
				ac->delta[(size_t)s * ac->ncls + c] =
				    ac->delta[(size_t)f * ac->ncls + c];
				continue;
			}
			ac->fail[t] = ac->delta[(size_t)f * ac->ncls + c];
			queue[tail++] = t;
		}
	}
	free(queue);
}

/* Scan text. */
void
acmatch_scan(const struct acmatch *ac, const char *text, size_t len,
    acmatch_cb cb, void *arg)
{
	size_t	i;
	int	s = 0, o, k;

	if (!ac->built || ac->nstates == 0)
		return;
	for (i = 0; i < len; i++) {
		s = ac->delta[(size_t)s * ac->ncls +
		    ac->cls[(unsigned char)text[i]]];
		for (o = s; o >= 0; o = ac->olink[o]) {
			for (k = ac->ohead[o]; k >= 0; k = ac->out[k].next)
				cb(ac->out[k].id, i + 1, arg);
		}
	}
}

/* Number of keywords. */
size_t
acmatch_count(const struct acmatch *ac)
{
	return ac->built ? ac->nout : ac->nkw;
}

/* Free an automaton. */
struct acmatch *
acmatch_free(struct acmatch *ac)
{
	size_t	i;

	if (ac == NULL)
		return NULL;
	for (i = 0; i < ac->nkw && ac->kw != NULL; i++)
		free(ac->kw[i]);
	free(ac->kw);
	free(ac->kwlen);
	free(ac->kwid);
	free(ac->delta);
	free(ac->fail);
	free(ac->olink);
	free(ac->ohead);
	free(ac->out);
	free(ac);
	return NULL;
}
