#!/bin/bash
# deliberate export --format training: chat-style JSONL per the training
# data contract (docs/export.md): system/user/assistant turns, the
# assistant starting with four U+1F914 and a newline, no <think> tags,
# metadata.skill "command_risk", and only entries with improvement
# consent; the label is the user's correction when there is one.
. "$(dirname "$0")/../lib/test-lib.sh"
. "$(dirname "$0")/t0619-dataset.inc"

test_expect_success 'a known data set (archive .gz and current)' '
	make_dataset "$DELIBERATE_HOME/learning-data"
'

test_expect_success 'training export follows the contract' '
	deliberate export --format training >"$T/train.jsonl" &&
	"$PYTHON" - "$T/train.jsonl" <<-\PY
	import json, sys
	prefix = "\U0001F914" * 4 + "\n"
	consented = {"%08x-0000-4000-8000-%012x" % (n, n) for n in (1, 2, 4, 5, 6, 8)}
	raw = open(sys.argv[1], encoding="utf-8").read()
	assert "<think>" not in raw and "</think>" not in raw, "think tag"
	assert not raw.startswith("\ufeff"), "BOM"
	seen = []
	for n, line in enumerate(raw.splitlines(), 1):
	    s = json.loads(line)
	    assert set(s) == {"messages", "metadata"}, (n, list(s))
	    roles = [m["role"] for m in s["messages"]]
	    assert roles == ["system", "user", "assistant"], (n, roles)
	    for m in s["messages"]:
	        assert isinstance(m["content"], str) and m["content"], (n, m)
	    a = s["messages"][2]["content"]
	    assert a.startswith(prefix), (n, a[:20])
	    md = s["metadata"]
	    assert md["skill"] == "command_risk", md
	    assert md["source"] == "deliberate", md
	    assert md["scenario"], md
	    assert md["generator_version"], md
	    assert md["label"] in ("safe", "moderate", "dangerous"), md
	    assert a[len(prefix):].startswith("Risk: " + md["label"] + "\n"), a
	    seen.append(md["entry_id"])
	assert seen == sorted(consented), seen
	by = {json.loads(l)["metadata"]["entry_id"]: json.loads(l) for l in raw.splitlines()}
	corr = by["00000004-0000-4000-8000-000000000004"]
	assert corr["metadata"]["label"] == "moderate", corr
	assert corr["metadata"]["label_source"] == "user_correction", corr
	assert corr["metadata"]["classifier_risk"] == "dangerous", corr
	assert "fs.find-delete" in corr["messages"][2]["content"], corr
	assert corr["metadata"]["scenario"] == "fs", corr
	ls = by["00000001-0000-4000-8000-000000000001"]
	assert ls["metadata"]["label"] == "safe" and ls["metadata"]["label_source"] == "classifier"
	assert "Command: ls" in ls["messages"][1]["content"], ls
	assert "Working directory: " in ls["messages"][1]["content"], ls
	echo = by["00000008-0000-4000-8000-000000000008"]
	assert "[think]x[/think]" in echo["messages"][1]["content"], echo
	print("%d samples ok" % len(seen))
	PY
'

test_expect_success 'training export of a filtered range' '
	deliberate export --format training --since 2026-11-02 --until 2026-11-02 >"$T/t2" &&
	test "$(wc -l <"$T/t2")" -eq 2 &&
	jq -r .metadata.entry_id "$T/t2" | grep -q "^00000004-"
'

test_expect_success 'an unknown schemaVersion major is reported and skipped' '
	sed -n 1p "$DELIBERATE_HOME/learning-data/current/2026-11-03.ndjson" |
	    sed "s/\"schemaVersion\":\"1.0.0\"/\"schemaVersion\":\"2.0.0\"/" \
	    >"$DELIBERATE_HOME/learning-data/current/2026-11-04.ndjson" &&
	{ deliberate export --format training >"$T/t3" 2>"$T/err"; test $? -eq 1; } &&
	grep_f "2026-11-04.ndjson:1: unsupported schemaVersion '\''2.0.0'\''" "$T/err" &&
	test "$(wc -l <"$T/t3")" -eq 6 &&
	rm "$DELIBERATE_HOME/learning-data/current/2026-11-04.ndjson"
'

test_done
