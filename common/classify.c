/*
 * Placeholder classifier: every command is safe with confidence 0.  The
 * rule-driven classifier replaces this file.
 */
#include "classify.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "xmalloc.h"

struct classifier {
	int	unused;
};

/* Name of a risk level. */
const char *
risk_name(enum risk r)
{
	switch (r) {
	case RISK_MODERATE:
		return "moderate";
	case RISK_DANGEROUS:
		return "dangerous";
	default:
		return "safe";
	}
}

/* Parse a risk level name. */
int
risk_parse(const char *s, enum risk *ret_risk)
{
	if (strcmp(s, "safe") == 0)
		*ret_risk = RISK_SAFE;
	else if (strcmp(s, "moderate") == 0)
		*ret_risk = RISK_MODERATE;
	else if (strcmp(s, "dangerous") == 0)
		*ret_risk = RISK_DANGEROUS;
	else
		return -EINVAL;
	return 0;
}

/* Load a classifier. */
int
classifier_load(const char *dir, struct classifier **ret, char **cause)
{
	(void)dir;
	(void)cause;
	*ret = xcalloc(1, sizeof **ret);
	return 0;
}

/* Free a classifier; returns NULL. */
struct classifier *
classifier_free(struct classifier *c)
{
	free(c);
	return NULL;
}

/* Classify a command line. */
void
classify_command(struct classifier *c, const char *line, size_t len,
    const struct classify_ctx *ctx, struct verdict *ret)
{
	struct json_object	*o, *bd;

	(void)c;
	(void)line;
	(void)len;
	(void)ctx;
	memset(ret, 0, sizeof *ret);
	o = json_object_new_object();
	json_object_object_add(o, "riskLevel", json_object_new_string("safe"));
	json_object_object_add(o, "confidence", json_object_new_double(0));
	json_object_object_add(o, "patterns", json_object_new_array());
	bd = json_object_new_object();
	json_object_object_add(bd, "detected", json_object_new_boolean(0));
	json_object_object_add(bd, "techniques", json_object_new_array());
	json_object_object_add(bd, "confidence", json_object_new_double(0));
	json_object_object_add(o, "bypassDetection", bd);
	json_object_object_add(o, "fastPathEligible",
	    json_object_new_boolean(0));
	ret->classification = o;
}

/* Release a verdict's contents. */
void
verdict_release(struct verdict *v)
{
	if (v->classification != NULL)
		json_object_put(v->classification);
	v->classification = NULL;
}
