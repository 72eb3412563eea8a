/*
 * The DatasetEntry 1.0.0 contract checked in C, in agreement with
 * schemas/dataset-entry.schema.json (see schemas/README.md): required
 * fields, types, enums, ranges, ISO 8601 timestamps with milliseconds and
 * a zone, lowercase UUID v4 ids, a known schemaVersion, a closed top
 * level and open nested objects except for the documented extension keys
 * of context.environment.
 *
 * A validator also remembers every id it has seen (16 bytes and a
 * location each), to report ids repeated across files.
 *
 * Errors go to a callback as a JSON path ("$.command.args[2]") and a
 * message; the caller adds the file and line.
 */
#ifndef VALIDATE_H
#define VALIDATE_H

#include <stddef.h>
#include <stdint.h>

struct json_object;
struct validator;

typedef void	(*validate_fn)(void *arg, const char *path, const char *msg);

/* A new validator with an empty id set. */
struct validator *validator_new(void);

/* Free it; returns NULL. */
struct validator *validator_free(struct validator *v);

/*
 * Check one raw line (from file path, line lineno; path must outlive the
 * validator, for the duplicate report).  Returns the number of errors
 * reported through fn.
 */
int	validate_line(struct validator *v, const char *line, size_t len,
	    const char *path, int64_t lineno, validate_fn fn, void *arg);

/*
 * Check a parsed entry against the contract (no duplicate check).
 * Returns the number of errors reported through fn.
 */
int	validate_entry(struct json_object *entry, validate_fn fn, void *arg);

/*
 * Check a parsed annotation record (docs/annotations.md).  validate_line()
 * uses it for lines of files named *.annotations.ndjson(.gz).  Returns
 * the number of errors reported through fn.
 */
int	validate_annotation(struct json_object *a, validate_fn fn, void *arg);

/* Whether s is an ISO 8601 date-time with milliseconds and a zone. */
int	validate_timestamp(const char *s);

/* Whether s is a lowercase RFC 4122 version 4 UUID. */
int	validate_uuid(const char *s);

#endif
