#!/bin/bash
# Recall and precision of the redaction rules at minimal over corpora that
# were written independently of the rules (tests/fixtures/redact/
# independent.tsv and independent-clean.txt, and the held-out sets
# heldout2.tsv/heldout2-clean.txt and heldout3.tsv/heldout3-clean.txt): at
# least 99% of the secret
# substrings must be gone, and no secret-free command may change.
. "$(dirname "$0")/../lib/test-lib.sh"

SECRETS="$SRC/tests/fixtures/redact/independent.tsv"
CLEAN="$SRC/tests/fixtures/redact/independent-clean.txt"
SECRETS2="$SRC/tests/fixtures/redact/heldout2.tsv"
CLEAN2="$SRC/tests/fixtures/redact/heldout2-clean.txt"
SECRETS3="$SRC/tests/fixtures/redact/heldout3.tsv"
CLEAN3="$SRC/tests/fixtures/redact/heldout3-clean.txt"

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

test_expect_success 'held-out set 2 is present and large enough' '
	test "$(grep -v "^#" "$SECRETS2" | grep -c .)" -ge 300 &&
	test "$(grep -v "^#" "$CLEAN2" | grep -c .)" -ge 150
'

test_expect_success 'held-out secrets corpus 2: recall >= 99% at minimal' '
	"$PYTHON" "$SRC/tests/lib/redact-corpus.py" --deliberate "$BUILD/deliberate" \
		--level minimal --secrets "$SECRETS2" --min-recall 99 -v
'

test_expect_success 'held-out clean corpus 2: no line changes at minimal' '
	"$PYTHON" "$SRC/tests/lib/redact-corpus.py" --deliberate "$BUILD/deliberate" \
		--level minimal --clean "$CLEAN2" --max-fp 0 -v
'

test_expect_success 'held-out set 3 is present and large enough' '
	test "$(grep -v "^#" "$SECRETS3" | grep -c .)" -ge 300 &&
	test "$(grep -v "^#" "$CLEAN3" | grep -c .)" -ge 150
'

test_expect_success 'held-out secrets corpus 3: recall >= 99% at minimal' '
	"$PYTHON" "$SRC/tests/lib/redact-corpus.py" --deliberate "$BUILD/deliberate" \
		--level minimal --secrets "$SECRETS3" --min-recall 99 -v
'

test_expect_success 'held-out clean corpus 3: no line changes at minimal' '
	"$PYTHON" "$SRC/tests/lib/redact-corpus.py" --deliberate "$BUILD/deliberate" \
		--level minimal --clean "$CLEAN3" --max-fp 0 -v
'

test_expect_success 'standard adds typing, never un-redacts: no corpus secret at standard' '
	"$PYTHON" "$SRC/tests/lib/redact-corpus.py" --deliberate "$BUILD/deliberate" \
		--level standard --secrets "$SECRETS3" --min-recall 99 &&
	"$PYTHON" "$SRC/tests/lib/redact-corpus.py" --deliberate "$BUILD/deliberate" \
		--level standard --secrets "$SECRETS2" --min-recall 99 &&
	"$PYTHON" "$SRC/tests/lib/redact-corpus.py" --deliberate "$BUILD/deliberate" \
		--level standard --secrets "$SECRETS" --min-recall 99
'

test_done
