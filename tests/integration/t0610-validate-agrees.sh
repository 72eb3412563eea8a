#!/bin/bash
# deliberate validate-dataset (C, json-c) and the JSON Schema
# (tests/lib/validate-schema.py) give the same verdict, valid or invalid,
# on every fixture in tests/fixtures/entries/{valid,invalid}; readers
# accept unknown nested fields and missing optional ones.
. "$(dirname "$0")/../lib/test-lib.sh"

"$PYTHON" -c 'import jsonschema' 2>/dev/null ||
	skip_all "$PYTHON lacks the jsonschema module"
fixtures=$SRC/tests/fixtures/entries

test_expect_success 'both validators agree on every fixture' '
	n=0 bad=0 &&
	for f in "$fixtures"/valid/*.json "$fixtures"/invalid/*.json; do
		n=$((n + 1))
		py=0 c=0
		validate_entries "$f" >/dev/null 2>&1 || py=$?
		deliberate validate-dataset "$f" >"$T/c.out" 2>&1 || c=$?
		if [ $py -ne $c ]; then
			echo "disagree on ${f#$fixtures/}: schema $py, C $c"
			sed "s/^/    /" "$T/c.out"
			bad=$((bad + 1))
		fi
		case $f in
		*/valid/*) [ $c -eq 0 ] || { echo "valid ${f##*/}: C says $c"; bad=$((bad + 1)); } ;;
		*/invalid/*) [ $c -eq 1 ] || { echo "invalid ${f##*/}: C says $c"; bad=$((bad + 1)); } ;;
		esac
	done &&
	echo "$n fixtures, $bad disagreements" &&
	test $n -ge 146 && test $bad -eq 0
'

test_expect_success 'every C error names file:1 and a JSON path' '
	for f in "$fixtures"/invalid/*.json; do
		expect_status 1 deliberate validate-dataset "$f" >"$T/c.out" ||
			{ cat "$T/c.out"; exit 1; }
		grep -q "^$f:1: [$][^ ]*: " "$T/c.out" ||
			{ echo "no error line for $f"; cat "$T/c.out"; exit 1; }
	done
'

test_expect_success 'unknown nested fields and missing optional ones are accepted' '
	"$PYTHON" - "$fixtures/valid/minimal-no-optional.json" "$T/ext.json" <<-\PY &&
	import json, sys
	e = json.load(open(sys.argv[1]))
	e["command"]["futureField"] = {"x": [1, 2]}
	e["context"]["environment"]["newKey"] = "v"
	e["performance"]["stages"]["newStage"] = 1.5
	e["privacy"]["consent"]["extra"] = True
	for k in ("aiAnalysis",):
	    e.pop(k, None)
	e["userDecision"].pop("feedback", None)
	json.dump(e, open(sys.argv[2], "w"))
	PY
	validate_entries "$T/ext.json" &&
	deliberate validate-dataset "$T/ext.json"
'

test_expect_success 'both validators agree on the fixtures as one NDJSON file' '
	for f in "$fixtures"/valid/*.json; do jq -c . "$f"; done >"$T/all.ndjson" &&
	validate_entries "$T/all.ndjson" &&
	deliberate validate-dataset "$T/all.ndjson" >"$T/out" &&
	grep_f "7 entries in 1 file, 0 invalid" "$T/out"
'

test_done
