#!/bin/bash
# t0010: the DatasetEntry JSON Schema and its fixtures.
#
#  - schemas/dataset-entry.schema.json is a valid draft 2020-12 schema;
#  - every tests/fixtures/entries/valid/*.json validates, is redacted (no
#    real home paths, e-mail addresses or token-looking strings), and the
#    same entries validate as .ndjson and .ndjson.gz;
#  - every tests/fixtures/entries/invalid/*.json is well-formed JSON and is
#    rejected on its own (validate-schema.py --expect-invalid), and all its
#    errors point at one place (one broken rule per fixture);
#  - validate-schema.py's exit codes: 1 for an empty NDJSON line, 2 for an
#    unreadable file.
#
# Exit 0 on success, 1 on failure, 77 (skip) when /usr/bin/python3 has no
# jsonschema module (Debian package python3-jsonschema).
set -u

src=${DELIBERATE_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
py=/usr/bin/python3
schema=$src/schemas/dataset-entry.schema.json
validate=$src/tests/lib/validate-schema.py
fixtures=$src/tests/fixtures/entries

if ! [ -x "$py" ] || ! "$py" -c 'import jsonschema' 2>/dev/null; then
	echo "skip: $py lacks the jsonschema module (apt-get install python3-jsonschema)"
	exit 77
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/t0010.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
ok() { echo "ok: $*"; }

# 1. the schema itself
if "$py" - "$schema" <<'PY'
import json, sys
from jsonschema import Draft202012Validator
with open(sys.argv[1], encoding="utf-8") as f:
    schema = json.load(f)
assert schema.get("$schema") == "https://json-schema.org/draft/2020-12/schema", "not a draft 2020-12 schema"
Draft202012Validator.check_schema(schema)
PY
then ok "schema is a valid draft 2020-12 schema"
else fail "schema $schema does not pass check_schema"
fi

# 2. valid fixtures
valid=("$fixtures"/valid/*.json)
if [ ! -e "${valid[0]}" ] || [ ${#valid[@]} -lt 6 ]; then
	fail "fewer than 6 valid fixtures in $fixtures/valid"
fi
for f in "${valid[@]}"; do
	[ -e "$f" ] || continue
	if out=$("$py" "$validate" "$schema" "$f" 2>&1); then
		ok "valid/${f##*/} passes"
	else
		fail "valid/${f##*/} should pass:"; echo "$out" | sed 's/^/    /'
	fi
done

# Redaction: no real paths, e-mail addresses or secrets in the fixtures.
if leaks=$(grep -noE '/home/|/Users/|/root/|/etc/|[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[a-z]{2,}|sk-[A-Za-z0-9]{8,}|AKIA[0-9A-Z]{16}|ghp_[A-Za-z0-9]{20,}' "${valid[@]}"); then
	fail "valid fixtures contain unredacted data:"; echo "$leaks" | sed 's/^/    /'
else
	ok "valid fixtures contain no home paths, e-mail addresses or tokens"
fi

# The same entries as a daily NDJSON file, plain and gzipped.
"$py" - "$tmp/day.ndjson" "${valid[@]}" <<'PY'
import json, sys
with open(sys.argv[1], "w", encoding="utf-8") as out:
    for path in sys.argv[2:]:
        with open(path, encoding="utf-8") as f:
            out.write(json.dumps(json.load(f), ensure_ascii=False, separators=(",", ":")) + "\n")
PY
gzip -c "$tmp/day.ndjson" >"$tmp/day.ndjson.gz"
"$py" "$validate" -v "$schema" "$tmp/day.ndjson" 2>&1 >/dev/null | grep 'date-time' | sed 's/^/info: /'
for f in day.ndjson day.ndjson.gz; do
	if out=$("$py" "$validate" "$schema" "$tmp/$f" 2>&1) &&
	   [ "$(echo "$out" | tail -n 1)" = "${#valid[@]} documents, 0 invalid" ]; then
		ok "valid fixtures as one $f validate (${#valid[@]} documents)"
	else
		fail "valid fixtures as $f:"; echo "$out" | sed 's/^/    /'
	fi
done

# validate-schema.py exit codes on bad input.
{ head -n 1 "$tmp/day.ndjson"; echo; tail -n 1 "$tmp/day.ndjson"; } >"$tmp/blank.ndjson"
"$py" "$validate" "$schema" "$tmp/blank.ndjson" >"$tmp/out" 2>&1; rc=$?
if [ $rc -eq 1 ] && grep -q ':2: \$: empty line' "$tmp/out"; then
	ok "an empty NDJSON line is reported (line 2) and exits 1"
else
	fail "empty NDJSON line: exit $rc"; sed 's/^/    /' "$tmp/out"
fi
"$py" "$validate" "$schema" "$tmp/missing.ndjson" >"$tmp/out" 2>&1; rc=$?
if [ $rc -eq 2 ]; then ok "an unreadable file exits 2"
else fail "unreadable file: exit $rc, want 2"; fi

# 3. invalid fixtures, one at a time
invalid=("$fixtures"/invalid/*.json)
if [ ! -e "${invalid[0]}" ] || [ ${#invalid[@]} -lt 25 ]; then
	fail "fewer than 25 invalid fixtures in $fixtures/invalid"
fi
for f in "${invalid[@]}"; do
	[ -e "$f" ] || continue
	name=invalid/${f##*/}
	out=$("$py" "$validate" --expect-invalid "$schema" "$f" 2>&1); rc=$?
	if printf '%s\n' "$out" | grep -q ': \$: invalid JSON: '; then
		fail "$name is not well-formed JSON (it must break a schema rule, not the syntax)"
		continue
	fi
	if [ $rc -ne 0 ]; then
		fail "$name should be rejected:"; echo "$out" | sed 's/^/    /'
		continue
	fi
	# One broken rule: every error must lie under one common, non-root
	# location, or there must be a single error at the root.
	if why=$(printf '%s\n' "$out" | "$py" -c '
import re, sys
paths = []
for line in sys.stdin:
    m = re.match(r"^.*?:\d+: (\$[^ ]*): ", line)
    if m:
        paths.append(re.findall(r"\.([^.\[]+)|\[(\d+)\]", m.group(1)))
if not paths:
    sys.exit("no error lines")
common = paths[0]
for p in paths[1:]:
    n = 0
    while n < min(len(common), len(p)) and common[n] == p[n]:
        n += 1
    common = common[:n]
if not common and len(paths) > 1:
    sys.exit("%d errors in unrelated places" % len(paths))
' 2>&1); then
		ok "$name is rejected ($(printf '%s\n' "$out" | grep -c ': \$') error(s), one place)"
	else
		fail "$name breaks more than one rule: $why"; echo "$out" | sed 's/^/    /'
	fi
done

echo "t0010: ${#valid[@]} valid and ${#invalid[@]} invalid fixtures, $failures failure(s)"
[ $failures -eq 0 ]
