#!/bin/bash
# No risk rule consumes the blank that its own lookaround needs
# (tests/lib/lint-rule-patterns.py): ^cmd\s(?=.*\s-f) never sees "cmd -f".
# The checker finds a planted one, and the planted rule really misses.
. "$(dirname "$0")/../lib/test-lib.sh"

LINT=$SRC/tests/lib/lint-rule-patterns.py

test_expect_success 'no rule pattern consumes the blank its lookaround needs' '
	"$PYTHON" "$LINT"
'

test_expect_success 'a planted pattern is reported, its fixed form is not' '
	cat >"$T/planted.rules" <<-\EOF &&
	[rule x:planted]
	pattern = ^ffmpeg\s(?=.*\s-y\b)(?:.*\s)?out
	unless = ^jpegoptim\s(?![^;]*\s--dest)
	[rule x:fixed]
	pattern = ^ffmpeg(?=.*\s-y\b)\s(?:.*\s)?out
	EOF
	expect_status 1 "$PYTHON" "$LINT" "$T/planted.rules" >"$T/out" &&
	cat "$T/out" &&
	grep_f "$T/planted.rules:2: blank consumed" "$T/out" &&
	grep_f "$T/planted.rules:3: blank consumed" "$T/out" &&
	test "$(wc -l <"$T/out")" -eq 2
'

test_expect_success 'the planted form really misses an option right after the name' '
	"$PYTHON" -c "
import re, sys
bad = re.compile(r\"^ffmpeg\\s(?=.*\\s-y\\b)(?:.*\\s)?out\")
good = re.compile(r\"^ffmpeg(?=.*\\s-y\\b)\\s(?:.*\\s)?out\")
line = \"ffmpeg -y -i in.mov out.mov\"
sys.exit(0 if bad.search(line) is None and good.search(line) else 1)
"
'

test_done
