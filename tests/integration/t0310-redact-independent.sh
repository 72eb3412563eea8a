#!/bin/bash
# Recall and precision of the redaction rules at minimal over corpora that
# were written independently of the rules (tests/fixtures/redact/
# independent.tsv and independent-clean.txt): at least 99% of the secret
# substrings must be gone, and no secret-free command may change.
. "$(dirname "$0")/../lib/test-lib.sh"

SECRETS="$SRC/tests/fixtures/redact/independent.tsv"
CLEAN="$SRC/tests/fixtures/redact/independent-clean.txt"

test_expect_success 'independent corpora are present and large enough' '
	test "$(grep -v "^#" "$SECRETS" | grep -c .)" -ge 300 &&
	test "$(grep -v "^#" "$CLEAN" | grep -c .)" -ge 150
'

test_expect_success 'independent secrets corpus: recall >= 99% at minimal' '
	"$PYTHON" "$SRC/tests/lib/redact-corpus.py" --deliberate "$BUILD/deliberate" \
		--level minimal --secrets "$SECRETS" --min-recall 99 -v
'

test_expect_success 'independent clean corpus: no line changes at minimal' '
	"$PYTHON" "$SRC/tests/lib/redact-corpus.py" --deliberate "$BUILD/deliberate" \
		--level minimal --clean "$CLEAN" --max-fp 0 -v
'

test_done
