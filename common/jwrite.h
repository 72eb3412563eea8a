/*
 * A direct JSON writer into a struct buf, for the records the daemon
 * writes on every event (common/entry.c): no object tree, no allocation
 * once the buffer has grown.  Its output is what json-c prints with
 * JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE: the same string
 * escapes (control characters as lowercase \u00xx, bytes >= 0x80 as they
 * are, so the caller sanitizes UTF-8 as before), numbers through
 * json_num_fmt().
 *
 *	struct jwrite w;
 *	jwrite_init(&w, &buf);
 *	jwrite_obj(&w);
 *	jwrite_key(&w, "id"); jwrite_str(&w, id);
 *	jwrite_obj_end(&w);
 *
 * Commas are the writer's business: a key or a value after a value gets
 * one.  Keys are written as they are: they must be plain ASCII names.
 */
#ifndef JWRITE_H
#define JWRITE_H

#include <stddef.h>
#include <stdint.h>

struct buf;
struct json_object;

struct jwrite {
	struct buf	*b;
	int		 comma;		/* a value was just written */
};

/* Write to b, appending (the caller resets it if needed). */
void	jwrite_init(struct jwrite *, struct buf *b);

void	jwrite_obj(struct jwrite *);
void	jwrite_obj_end(struct jwrite *);
void	jwrite_arr(struct jwrite *);
void	jwrite_arr_end(struct jwrite *);
void	jwrite_key(struct jwrite *, const char *key);

/* A string; NULL is written as "". */
void	jwrite_str(struct jwrite *, const char *s);
void	jwrite_strn(struct jwrite *, const char *s, size_t n);
void	jwrite_bool(struct jwrite *, int v);
void	jwrite_int(struct jwrite *, int64_t v);
/* A number with at most three decimals, as json_num() prints it. */
void	jwrite_num(struct jwrite *, double d);
/* An array of n strings (NULL members are written as ""). */
void	jwrite_strv(struct jwrite *, const char *const *v, size_t n);
/* A json-c value, serialized by json-c; NULL is written as null. */
void	jwrite_json(struct jwrite *, struct json_object *o);

#endif
