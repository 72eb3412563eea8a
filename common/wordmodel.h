/*
 * The word model behind rule model:words: a logistic regression over the
 * words of a command line, trained by risk-rules/train-words.py on the
 * labelled sets in tests/fixtures/classify.  It answers one question:
 * how much do this line's words look like the lines labelled dangerous?
 * The classifier asks it only about lines that no rule calls dangerous
 * (risk-rules/README.md, "The word model").  After loading, a model is
 * read-only and may be shared between threads.
 */
#ifndef WORDMODEL_H
#define WORDMODEL_H

#include <stddef.h>

struct wordmodel;

/* The most a line's words may raise its score; see wordmodel_explain(). */
#define WORDMODEL_TOP	3

/*
 * Load a model file (feature<TAB>weight lines, "bias" and "threshold"
 * among them).  Returns 0 or a negative errno with *cause set (caller
 * frees).
 */
int		 wordmodel_load(const char *path, struct wordmodel **ret,
		    char **cause);
struct wordmodel *wordmodel_free(struct wordmodel *);

/* The probability (0..1) that the line is dangerous, by its words. */
double		 wordmodel_score(const struct wordmodel *, const char *line,
		    size_t len);

/* The score at or above which rule model:words matches. */
double		 wordmodel_threshold(const struct wordmodel *);

/* The model's bias, and the weight of one feature (0 when it has none). */
double		 wordmodel_bias(const struct wordmodel *);
double		 wordmodel_weight(const struct wordmodel *, const char *key);

/* Number of features with a weight. */
size_t		 wordmodel_size(const struct wordmodel *);

/*
 * The words that raise the line's score most, at most WORDMODEL_TOP, as
 * "delete, prod, --force" in out (cleared first; NUL-terminated, cut to
 * outlen).  Pairs of words are shown as "a b".
 */
void		 wordmodel_explain(const struct wordmodel *, const char *line,
		    size_t len, char *out, size_t outlen);

#endif
