/*
 * Unit tests of common/validate.c and the helpers of common/dataset.c:
 * timestamps, UUIDs, single rules of the contract, duplicate ids, the
 * cheap timestamp scanner and the schemaVersion dispatch.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "dataset.h"
#include "harness.h"
#include "validate.h"

static char	last_path[256], last_msg[512];
static int	nerrors;

static void
collect(void *arg, const char *path, const char *msg)
{
	(void)arg;
	nerrors++;
	snprintf(last_path, sizeof last_path, "%s", path);
	snprintf(last_msg, sizeof last_msg, "%s", msg);
}

/* A valid minimal entry; %s slots let a test change one thing. */
static const char *base =
    "{\"id\":\"0b7e2d0c-1a3f-4e5b-8d6c-2f9a0b1c3d4e\","
    "\"timestamp\":\"2025-01-07T10:00:00.000Z\",\"schemaVersion\":\"1.0.0\","
    "\"command\":{\"command\":\"ls\",\"args\":[],\"fullCommand\":\"ls\","
    "\"type\":\"system\",\"hasRedirection\":false,\"hasPipe\":false,"
    "\"hasGlobbing\":false,\"hasVariableExpansion\":false,"
    "\"hasCommandSubstitution\":false},"
    "\"context\":{\"user\":{\"id\":\"h\",\"isRoot\":false,\"isSudo\":false},"
    "\"environment\":{\"shell\":\"bash\",\"terminal\":\"xterm\","
    "\"isInteractive\":true,\"isTTY\":true,\"isPTY\":true},"
    "\"workingDirectory\":{\"type\":\"home\",\"depth\":1},"
    "\"systemState\":{\"loadAverage\":[0,0,0],\"memoryUsagePercent\":1,"
    "\"diskUsagePercent\":2}},"
    "\"classification\":{\"riskLevel\":\"safe\",\"confidence\":0.9,"
    "\"patterns\":[],\"bypassDetection\":{\"detected\":false,"
    "\"techniques\":[],\"confidence\":0},\"fastPathEligible\":true},"
    "\"userDecision\":{\"action\":\"execute\",\"decisionTime\":0},"
    "\"performance\":{\"totalTime\":1,\"stages\":{\"interception\":0,"
    "\"classification\":0,\"bypassDetection\":0,"
    "\"sensitiveDataRedaction\":0},\"resources\":{\"cpuPercent\":0,"
    "\"memoryMB\":1,\"cacheHit\":false}},"
    "\"privacy\":{\"sensitiveDataDetected\":false,\"sensitiveDataTypes\":[],"
    "\"redactionStats\":{\"redactedCount\":0,\"redactionPatterns\":[]},"
    "\"retention\":{\"expiresAt\":\"2025-04-07T10:00:00.000Z\","
    "\"retentionDays\":90,\"anonymizationLevel\":\"standard\"},"
    "\"consent\":{\"collectionConsent\":true,\"sharingConsent\":false,"
    "\"improvementConsent\":true}}}";

/* Validate base with one substring replaced; returns the error count. */
static int
check_with(const char *from, const char *to)
{
	char	 line[4096], *p;
	size_t	 n;

	snprintf(line, sizeof line, "%s", base);
	if (from != NULL && (p = strstr(line, from)) != NULL) {
		n = strlen(from);
		memmove(p + strlen(to), p + n, strlen(p + n) + 1);
		memcpy(p, to, strlen(to));
	}
	nerrors = 0;
	last_path[0] = last_msg[0] = '\0';
	return validate_line(NULL, line, strlen(line), "t", 1, collect, NULL);
}

static void
t_timestamps(void)
{
	CHECK(validate_timestamp("2025-01-07T10:00:00.000Z"));
	CHECK(validate_timestamp("2024-02-29T23:59:59.999+05:30"));
	CHECK(validate_timestamp("2025-01-07T10:00:60.000-01:00"));
	CHECK(!validate_timestamp("2025-01-07T10:00:00Z"));
	CHECK(!validate_timestamp("2025-01-07T10:00:00.000"));
	CHECK(!validate_timestamp("2025-01-07T10:00:00.000000Z"));
	CHECK(!validate_timestamp("2025-01-07 10:00:00.000Z"));
	CHECK(!validate_timestamp("2025-02-29T10:00:00.000Z"));
	CHECK(!validate_timestamp("2025-01-07T25:00:00.000Z"));
	CHECK(!validate_timestamp("2025-13-07T10:00:00.000Z"));
	CHECK(!validate_timestamp("2025-01-07T10:00:00.000+24:00"));
	CHECK(!validate_timestamp("2025-01-07"));
}

static void
t_uuids(void)
{
	CHECK(validate_uuid("0b7e2d0c-1a3f-4e5b-8d6c-2f9a0b1c3d4e"));
	CHECK(!validate_uuid("0B7E2D0C-1A3F-4E5B-8D6C-2F9A0B1C3D4E"));
	CHECK(!validate_uuid("0b7e2d0c-1a3f-1e5b-8d6c-2f9a0b1c3d4e"));
	CHECK(!validate_uuid("0b7e2d0c-1a3f-4e5b-cd6c-2f9a0b1c3d4e"));
	CHECK(!validate_uuid("{0b7e2d0c-1a3f-4e5b-8d6c-2f9a0b1c3d4e}"));
	CHECK(!validate_uuid("0b7e2d0c1a3f4e5b8d6c2f9a0b1c3d4e"));
}

static void
t_rules(void)
{
	CHECK_INT(check_with(NULL, NULL), 0);

	CHECK_INT(check_with("\"riskLevel\":\"safe\"",
	    "\"riskLevel\":\"Safe\""), 1);
	CHECK_STR(last_path, "$.classification.riskLevel");

	CHECK_INT(check_with("\"depth\":1", "\"depth\":1.5"), 1);
	CHECK_STR(last_path, "$.context.workingDirectory.depth");
	CHECK_INT(check_with("\"depth\":1", "\"depth\":3.0"), 0);
	CHECK_INT(check_with("\"depth\":1", "\"depth\":-1"), 1);

	CHECK_INT(check_with("\"confidence\":0.9", "\"confidence\":1.1"), 1);
	CHECK_STR(last_path, "$.classification.confidence");

	CHECK_INT(check_with("\"memoryUsagePercent\":1",
	    "\"memoryUsagePercent\":100.5"), 1);
	CHECK_INT(check_with("\"cpuPercent\":0", "\"cpuPercent\":250"), 0);

	CHECK_INT(check_with("\"loadAverage\":[0,0,0]",
	    "\"loadAverage\":[0,0]"), 1);
	CHECK_STR(last_path, "$.context.systemState.loadAverage");

	CHECK_INT(check_with("\"schemaVersion\":\"1.0.0\"",
	    "\"schemaVersion\":\"2.0.0\""), 1);
	CHECK_STR(last_path, "$.schemaVersion");

	CHECK_INT(check_with("\"fullCommand\":\"ls\",", ""), 1);
	CHECK_STR(last_path, "$.command.fullCommand");
	CHECK_STR(last_msg, "required field missing");

	/* Closed top level, open nested objects. */
	CHECK_INT(check_with("\"schemaVersion\":\"1.0.0\",",
	    "\"schemaVersion\":\"1.0.0\",\"extra\":null,"), 1);
	CHECK_STR(last_path, "$.extra");
	CHECK_INT(check_with("\"shell\":\"bash\",",
	    "\"shell\":\"bash\",\"newKey\":[1],"), 0);

	/* Documented extension keys are checked. */
	CHECK_INT(check_with("\"shell\":\"bash\",",
	    "\"shell\":\"bash\",\"captureLayer\":\"preload\","), 0);
	CHECK_INT(check_with("\"shell\":\"bash\",",
	    "\"shell\":\"bash\",\"captureLayer\":\"kernel\","), 1);
	CHECK_INT(check_with("\"shell\":\"bash\",",
	    "\"shell\":\"bash\",\"truncated\":\"yes\","), 1);

	/* Optional fields: absent is fine, null is not. */
	CHECK_INT(check_with("\"fastPathEligible\":true",
	    "\"fastPathEligible\":true,\"fastPathReason\":null"), 1);
	CHECK_INT(check_with("\"decisionTime\":0",
	    "\"decisionTime\":0,\"correction\":{\"type\":\"false_negative\","
	    "\"correctClassification\":\"dangerous\"}"), 0);

	CHECK_INT(check_with("\"timestamp\":\"2025-01-07T10:00:00.000Z\"",
	    "\"timestamp\":\"2025-01-07T10:00:00Z\""), 1);
	CHECK_STR(last_path, "$.timestamp");

	/* Not JSON, not an object, empty, NaN. */
	CHECK_INT(validate_line(NULL, "{", 1, "t", 1, collect, NULL), 1);
	CHECK_INT(validate_line(NULL, "[]", 2, "t", 1, collect, NULL), 1);
	CHECK_INT(validate_line(NULL, "  ", 2, "t", 1, collect, NULL), 1);
	CHECK_STR(last_msg, "empty line");
	CHECK_INT(check_with("\"totalTime\":1", "\"totalTime\":NaN"), 1);
}

static void
t_duplicates(void)
{
	struct validator	*v;

	v = validator_new();
	nerrors = 0;
	CHECK_INT(validate_line(v, base, strlen(base), "a.ndjson", 3,
	    collect, NULL), 0);
	CHECK_INT(validate_line(v, base, strlen(base), "b.ndjson", 7,
	    collect, NULL), 1);
	CHECK_STR(last_path, "$.id");
	CHECK(strstr(last_msg, "first seen at a.ndjson:3") != NULL);
	v = validator_free(v);
	CHECK(v == NULL);
}

static void
t_many_ids(void)
{
	struct validator	*v = validator_new();
	char			 line[4096], id[8], *p;
	int			 i, errs = 0;

	snprintf(line, sizeof line, "%s", base);
	p = strstr(line, "3d4e\",");
	for (i = 0; i < 5000; i++) {
		snprintf(id, sizeof id, "%04x", i);
		memcpy(p, id, 4);
		errs += validate_line(v, line, strlen(line), "x", i + 1,
		    collect, NULL);
	}
	CHECK_INT(errs, 0);
	memcpy(p, "0007", 4);
	CHECK_INT(validate_line(v, line, strlen(line), "x", 9999, collect,
	    NULL), 1);
	CHECK(strstr(last_msg, "first seen at x:8") != NULL);
	validator_free(v);
}

static void
t_timestamp_scan(void)
{
	const char	*s;
	int64_t		 ms;

	s = "{\"a\":{\"timestamp\":\"1999-01-01T00:00:00.000Z\"},"
	    "\"x\":\"\\\"timestamp\\\"\",\"timestamp\":\"2025-01-07T10:00:00.000Z\"}";
	CHECK_INT(dataset_timestamp(s, strlen(s), &ms), 0);
	CHECK(ms == 1736244000000LL);
	s = "{\"timestamp\" : \"2025-01-07T11:00:00.000+01:00\"}";
	CHECK_INT(dataset_timestamp(s, strlen(s), &ms), 0);
	CHECK(ms == 1736244000000LL);
	s = "{\"a\":{\"timestamp\":\"1999-01-01T00:00:00.000Z\"}}";
	CHECK_INT(dataset_timestamp(s, strlen(s), &ms), -EINVAL);
	s = "{\"timestamp\":12}";
	CHECK_INT(dataset_timestamp(s, strlen(s), &ms), -EINVAL);
}

static void
t_versions(void)
{
	struct json_object	*o = NULL;
	char			*cause = NULL;
	const char		*s;

	s = "{\"schemaVersion\":\"1.2.0\",\"futureKey\":1}";
	CHECK_INT(dataset_parse(s, strlen(s), &o, &cause), 0);
	CHECK(o != NULL && json_object_object_get(o, "futureKey") != NULL);
	json_object_put(o);
	s = "{\"schemaVersion\":\"2.0.0\"}";
	CHECK_INT(dataset_parse(s, strlen(s), &o, &cause), -ENOTSUP);
	CHECK_STR(cause, "unsupported schemaVersion '2.0.0'");
	free(cause);
	cause = NULL;
	s = "{\"id\":1}";
	CHECK_INT(dataset_parse(s, strlen(s), &o, &cause), -ENOTSUP);
	free(cause);
	cause = NULL;
	s = "[1]";
	CHECK_INT(dataset_parse(s, strlen(s), &o, &cause), -EINVAL);
	free(cause);
}

static void
t_category(void)
{
	char	*c;

	c = dataset_category("fs.rm-root");
	CHECK_STR(c, "fs");
	free(c);
	c = dataset_category("filesystem:rm-rf");
	CHECK_STR(c, "filesystem");
	free(c);
	c = dataset_category(NULL);
	CHECK_STR(c, "uncategorized");
	free(c);
}

int
main(void)
{
	RUN(t_timestamps);
	RUN(t_uuids);
	RUN(t_rules);
	RUN(t_duplicates);
	RUN(t_many_ids);
	RUN(t_timestamp_scan);
	RUN(t_versions);
	RUN(t_category);
	return harness_done();
}
