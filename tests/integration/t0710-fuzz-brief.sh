#!/bin/bash
# Every libFuzzer target in tests/fuzz/ builds, replays its regression
# inputs (tests/fuzz/regress/) and survives a brief run: 10 s each here,
# FUZZ_SECONDS (60) with `make fuzz`.
. "$(dirname "$0")/../lib/test-lib.sh"

have clang || skip_all "no clang"
have pkg-config || skip_all "no pkg-config"

# Not "rc": test_expect_success has a local rc that would hide it.
fuzz_rc=0
FUZZ_BUILD="$T/build-fuzz" sh "$SRC/tests/fuzz/run.sh" 10 >"$T/fuzz.out" 2>&1 ||
	fuzz_rc=$?
[ $fuzz_rc -eq 77 ] && skip_all "$(tail -n 1 "$T/fuzz.out")"
cat "$T/fuzz.out"

test_expect_success 'the targets build and the regression inputs replay clean' '
	test "$fuzz_rc" -ne 1 || ! grep -F "FAIL: " "$T/fuzz.out" | grep -F regression
'

for t in $(cd "$SRC/tests/fuzz" && ls fuzz-*.c | sed "s/^fuzz-//; s/\.c$//"); do
	test_expect_success "fuzz-$t runs 10 s without a crash" '
		grep -E "^\| fuzz-$t \| 10 \| [1-9][0-9]* \| .* \| 0 \|$" "$T/fuzz.out"
	'
done

test_done
