#!/bin/bash
# deliberate redact and check-privacy, and the end-to-end promise: no
# secret of the corpus reaches the dataset through the daemon.
. "$(dirname "$0")/../lib/test-lib.sh"

CORPUS="$SRC/tests/fixtures/redact/secrets.tsv"
CLEAN="$SRC/tests/fixtures/redact/clean.txt"

test_expect_success 'redact replaces a bearer token and keeps the quotes' '
	echo "curl -H '\''Authorization: Bearer sk-proj-abcDEF1234567890abcDEF1234567890xyz'\'' https://api.example.com" |
		deliberate redact --level minimal >"$T/out" &&
	grep -Fx "curl -H '\''Authorization: Bearer [REDACTED_API_KEY]'\'' https://api.example.com" "$T/out"
'

test_expect_success 'redact --json gives rule, type and span, never the secret' '
	echo "export GITHUB_TOKEN=ghp_R4nd0mStr1ngW1thThirtySixCharsXYZ12" |
		deliberate redact --json >"$T/out" &&
	jq -e ".line == 1 and (.findings | length) >= 1 and (.findings[0].ruleId | length) > 0
	    and (.findings[0].start | type) == \"number\"" "$T/out" &&
	nogrep_f "ghp_R4nd0m" "$T/out"
'

test_expect_success 'redact: a bad level is a usage error' '
	{ echo x | deliberate redact --level loud 2>"$T/err"; test $? -eq 2; } &&
	grep_f "bad --level" "$T/err" && grep_f "usage: deliberate redact" "$T/err"
'

# 20,000 lines: more than one batch (16,384 lines), cut into chunks for
# three jobs; the output must be the one-job output, in input order.
test_expect_success 'redact --jobs: the same bytes and line numbers as one job' '
	grep -v "^#" "$CORPUS" | grep -v "^$" >"$T/one" &&
	"$PYTHON" -c "
import sys
lines = [l.split(\"\\t\")[0] for l in open(sys.argv[1]).read().splitlines()]
out = [\"%d %s\" % (i, lines[i % len(lines)]) for i in range(20000)]
open(sys.argv[2], \"w\").write(\"\\n\".join(out) + \"\\n\")
" "$T/one" "$T/many" &&
	deliberate redact --jobs 1 <"$T/many" >"$T/j1" &&
	deliberate redact --jobs 3 <"$T/many" >"$T/j3" &&
	test "$(wc -l <"$T/j3")" = 20000 &&
	test_cmp "$T/j1" "$T/j3" &&
	cut -f2 "$T/one" | sort -u | while IFS= read -r s; do
		! grep -qF -- "$s" "$T/j3" || { echo "left: ${s:0:4}..."; exit 1; }
	done &&
	deliberate redact --jobs 3 --json --level standard <"$T/many" >"$T/js3" &&
	deliberate redact --jobs 1 --json --level standard <"$T/many" >"$T/js1" &&
	test_cmp "$T/js1" "$T/js3" &&
	jq -r .line "$T/js3" >"$T/nums" && seq 20000 >"$T/want" &&
	test_cmp "$T/want" "$T/nums" &&
	{ echo x | deliberate redact --jobs 0 2>"$T/err"; test $? -eq 2; } &&
	grep_f "bad --jobs" "$T/err" && grep_f "usage: deliberate redact" "$T/err"
'

test_expect_success 'secret-free commands come out unchanged at minimal' '
	grep -v "^#" "$CLEAN" | grep -v "^$" >"$T/clean" &&
	deliberate redact --level minimal <"$T/clean" >"$T/clean.out" &&
	test_cmp "$T/clean" "$T/clean.out"
'

daemon_start

test_expect_success 'end to end: no corpus secret reaches the dataset file' '
	"$PYTHON" - "$DELIBERATE_SOCKET" "$CORPUS" <<-PY
	import json, socket, sys
	s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1])
	n = 0
	reqs = []
	for line in open(sys.argv[2], encoding="utf-8"):
	    line = line.rstrip("\n")
	    if not line or line.startswith("#"):
	        continue
	    cmd = line.split("\t")[0]
	    reqs.append(json.dumps({"v": 1, "type": "event", "source": "cli", "line": cmd}) + "\n")
	s.sendall("".join(reqs).encode())
	f = s.makefile()
	bad = [l for l in (f.readline() for _ in reqs) if not json.loads(l)["ok"]]
	print(len(reqs), "events,", len(bad), "errors")
	sys.exit(1 if bad or not reqs else 0)
	PY
	test "$(wc -l <"$(today_file)")" -ge 300 &&
	"$PYTHON" - "$CORPUS" "$(today_file)" <<-PY
	import sys
	data = open(sys.argv[2], encoding="utf-8").read()
	left = []
	for line in open(sys.argv[1], encoding="utf-8"):
	    parts = line.rstrip("\n").split("\t")
	    if len(parts) < 2 or parts[0].startswith("#"):
	        continue
	    left += [s for s in parts[1:] if s and s in data]
	print(len(left), "secrets found on disk")
	sys.exit(1 if left else 0)
	PY
'

# Every entry stores the name of each risk rule it was judged against
# (classification.patterns[].patternName), unredacted: check-privacy
# scans it at the entry's level, so no rule name may hold anything the
# standard rules take for a path, a domain, a user or an address
# (session 16: "/etc," in a new rule name made the clean data dir fail).
test_expect_success 'no risk rule name looks like private data at standard' '
	deliberate rules --json >"$T/rules.json" &&
	"$PYTHON" -c "import json,sys; [print(r[\"name\"]) for r in json.load(open(sys.argv[1]))]" \
	    "$T/rules.json" >"$T/names" &&
	test "$(wc -l <"$T/names")" -ge 250 &&
	deliberate redact --level standard --json <"$T/names" >"$T/names.json" &&
	"$PYTHON" - "$T/names.json" "$T/names" <<-PY
	import json, sys
	names = open(sys.argv[2], encoding="utf-8").read().split("\n")
	bad = 0
	for l in open(sys.argv[1], encoding="utf-8"):
	    d = json.loads(l)
	    f = [x["ruleId"] for x in d["findings"] if x["type"] != "argument"]
	    if f:
	        bad += 1
	        print("rule name", repr(names[d["line"] - 1]), "->", f)
	sys.exit(1 if bad else 0)
	PY
'

test_expect_success 'check-privacy on the clean data dir exits 0' '
	deliberate check-privacy 2>"$T/err" >"$T/out" &&
	grep -E "^[0-9]+ files, [0-9]+ entries, 0 findings" "$T/err" &&
	! test -s "$T/out"
'

test_expect_success 'check-privacy: a planted secret exits 1 with file:line:rule, masked' '
	f=$(today_file) &&
	cp "$f" "$T/planted.ndjson" &&
	n=$(($(wc -l <"$f") + 1)) &&
	tail -n 1 "$f" | jq -c ".command.fullCommand = \"aws s3 ls --profile x AKIAQ7J2K4L6M3N5P3RT\"" >>"$T/planted.ndjson" &&
	{ deliberate check-privacy "$T/planted.ndjson" >"$T/out" 2>&1; test $? -eq 1; } &&
	grep -E "^$T/planted.ndjson:$n: [a-z0-9:_-]+ \([a-z_]+\): " "$T/out" &&
	nogrep_f "AKIAQ7J2K4L6M3N5P3RT" "$T/out" &&
	nogrep_f "Q7J2K4L6" "$T/out"
'

test_expect_success 'check-privacy reads .ndjson.gz and catches high-entropy leftovers' '
	printf "{\"note\":\"x9Fq2LmZ8rT4vB7nK1pW3sD6hJ0gY5cX\"}\n" | gzip >"$T/h.ndjson.gz" &&
	{ deliberate check-privacy "$T/h.ndjson.gz" >"$T/out" 2>&1; test $? -eq 1; } &&
	grep_f "heuristic:high-entropy" "$T/out" &&
	nogrep_f "x9Fq2LmZ8rT4vB7nK1pW3sD6hJ0gY5cX" "$T/out"
'

test_expect_success 'check-privacy: bad input exits 2' '
	{ deliberate check-privacy "$T/nope.ndjson" 2>"$T/err"; test $? -eq 2; } &&
	grep_f "cannot open" "$T/err" &&
	echo hi >"$T/x.txt" &&
	{ deliberate check-privacy "$T/x.txt" 2>"$T/err"; test $? -eq 2; } &&
	grep_f "not a dataset file" "$T/err"
'

test_done
