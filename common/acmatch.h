/*
 * A case-insensitive Aho-Corasick automaton over byte strings.  Keywords
 * are added with a caller-chosen id (the same keyword may be added several
 * times with different ids), the automaton is built once, and a scan
 * reports every occurrence of every keyword, overlapping ones included:
 * "npm" and "npm_" both fire on "npm_abc".  After acmatch_build() the
 * automaton is read-only and may be shared between threads.
 */
#ifndef ACMATCH_H
#define ACMATCH_H

#include <stddef.h>

struct acmatch;

/* Called for each occurrence: keyword id and end offset (exclusive). */
typedef void	(*acmatch_cb)(unsigned id, size_t end, void *arg);

/* Create an empty automaton. */
struct acmatch	*acmatch_create(void);

/* Add keyword (len bytes, compared case-insensitively) with id. */
void		 acmatch_add(struct acmatch *, const char *kw, size_t len,
		    unsigned id);

/* Build the transition table; no keyword may be added afterwards. */
void		 acmatch_build(struct acmatch *);

/* Scan len bytes of text, calling cb for every keyword occurrence. */
void		 acmatch_scan(const struct acmatch *, const char *text,
		    size_t len, acmatch_cb cb, void *arg);

/* Number of keywords added. */
size_t		 acmatch_count(const struct acmatch *);

/* Free an automaton; returns NULL. */
struct acmatch	*acmatch_free(struct acmatch *);

#endif
