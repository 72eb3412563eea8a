/*
 * The value model behind redaction rule value-model: a logistic regression
 * over one value of a command line at a time (its shape and the words
 * around it), trained by redaction-rules/train-values.py on the secret
 * substrings of the corpora in tests/fixtures/redact.  It answers one
 * question: how much does this value look like a secret the corpora's
 * writers listed?  The redactor asks it only about the values no rule has
 * hidden (redaction-rules/README.md, "The value model").
 *
 * The weights live in a model file read by wordmodel_load(): the same
 * format and loader as the classifier's word model.
 */
#ifndef VALUEMODEL_H
#define VALUEMODEL_H

#include <stddef.h>

#include "wordmodel.h"

/* Values of a line that are looked at; the rest are not asked about. */
#define VALUEMODEL_MAXTOK	1024

/* A value: in[start..end). */
struct vm_tok {
	size_t	start;
	size_t	end;
};

/*
 * Split a line into values: runs of bytes other than blanks, quotes and
 * = : , ; ( ) { } [ ] < > | & @ \ (printf's \n, \t and \r escapes count
 * as blanks).  Returns how many were stored (at most max).
 */
size_t	 valuemodel_tokens(const char *line, size_t len, struct vm_tok *toks,
	    size_t max);

/*
 * Whether the model is ever asked about a value: 6 bytes or more, not a
 * flag, a path or a $variable, not a lower-case word or host name.
 */
int	 valuemodel_candidate(const char *t, size_t n);

/* The probability (0..1) that value k of the line's values is a secret. */
double	 valuemodel_score(const struct wordmodel *, const char *line,
	    const struct vm_tok *toks, size_t ntok, size_t k);

#endif
