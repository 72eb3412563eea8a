#!/bin/bash
# The shell tests have no && list whose failure goes unseen
# (tests/lib/lint-and-lists.py).  A test body runs under set -e, but bash
# ignores set -e for every command of an && list but the last: in
#	a &&
#	b
#	c
# a failing a does not stop the body, and the test passes if c does.  And
# the checker does find such a list when one is planted.
. "$(dirname "$0")/../lib/test-lib.sh"

LINT=$SRC/tests/lib/lint-and-lists.py

test_expect_success 'no test body or helper has an unchecked && list' '
	"$PYTHON" "$LINT"
'

test_expect_success 'a planted && list followed by more commands is reported' '
	cat >"$T/t9998-planted.sh" <<-\EOF &&
	test_expect_success '\''planted'\'' '\''
		false &&
		true
		echo more
	'\''
	t_planted() {
		false &&
		true
		echo more
	}
	test_expect_success '\''planted, in a function'\'' t_planted
	test_expect_success '\''planted, swallowed'\'' '\''
		false &&
		true || true &&
		echo more
	'\''
	EOF
	expect_status 1 "$PYTHON" "$LINT" "$T/t9998-planted.sh" >"$T/out" &&
	cat "$T/out" &&
	grep_f "$T/t9998-planted.sh:2: && list followed by more commands" "$T/out" &&
	grep_f "$T/t9998-planted.sh:7: && list followed by more commands" "$T/out" &&
	grep_f "$T/t9998-planted.sh:14: '\''|| true'\'' after an && list" "$T/out" &&
	test "$(wc -l <"$T/out")" -eq 3
'

test_expect_success 'the planted body really passes although false failed' '
	cat >"$T/t9997-hole.sh" <<-EOF &&
	. "$SRC/tests/lib/test-lib.sh"
	test_expect_success "planted" "
		false &&
		true
		echo more
	"
	test_done
	EOF
	bash "$T/t9997-hole.sh" >"$T/hole.out" 2>&1 &&
	grep_f "ok 1 - planted" "$T/hole.out"
'

test_expect_success 'the guarded forms and conditions are not reported' '
	cat >"$T/t9996-fine.sh" <<-\EOF &&
	test_expect_success '\''fine'\'' '\''
		a && b || exit 1
		a && b || { echo "a or b failed"; exit 1; }
		for i in 1 2 3; do [ -e "$T/x" ] && break; sleep 0.1; done
		if a && b; then c; fi
		while a && b; do c; done
		x=$(a && b; c)
		a && b &
		a && b; rc=$?
		(a && b)
		cat <<-PY &&
		a && b
		PY
		a &&
		b &&
		c
	'\''
	t_fine() {
		a && b || return 1
		[ "$n" -ge 1 ] && return 0
		a &&
		b
	}
	top && level
	more
	EOF
	"$PYTHON" "$LINT" "$T/t9996-fine.sh" >"$T/out" &&
	! test -s "$T/out"
'

test_done
