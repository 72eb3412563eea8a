#!/bin/bash
# t0501: return values and errno are exactly as without the shim, for
# failed execs (ENOENT, EACCES, ENOEXEC, ENOTDIR, EACCES in the middle of
# PATH), posix_spawn's returned error, system() and popen() edge cases;
# in monitor mode, in enforce mode (daemon allows) and with the daemon
# down.  The failed execs are still recorded, as attempts.
. "$(dirname "$0")/../lib/test-lib.sh"
. "$SRC/tests/preload/lib.sh"
preload_setup
mkdir -p "$T/d"

test_expect_success 'the bare run gives the expected errors' '
	"$T/exec-all" errno "$T/d" >"$T/bare" &&
	cat "$T/bare" &&
	grep -q "^execve-enoent -1 No such file or directory" "$T/bare" &&
	grep -q "^execve-eacces -1 Permission denied" "$T/bare" &&
	grep -q "^execve-enoexec -1 Exec format error" "$T/bare" &&
	grep -q "^execv-enotdir -1 Not a directory" "$T/bare" &&
	grep -q "^execvp-eacces-mid-path -1 Permission denied" "$T/bare" &&
	grep -q "^posix_spawn-enoent 2 No such file or directory" "$T/bare" &&
	grep -q "^posix_spawn-ok 0 errno-kept=1" "$T/bare"
'

test_expect_success 'same results under the shim (monitor)' '
	under_shim "$T/exec-all" errno "$T/d" >"$T/shim" 2>"$T/err" &&
	test_cmp "$T/bare" "$T/shim" && test ! -s "$T/err"
'

test_expect_success 'failed execs are recorded as attempts' '
	wait_entries 8 && entries >"$T/e" &&
	grep -q "^preload	x	" "$T/e" &&
	[ "$(grep -c "^preload	x	" "$T/e")" -ge 8 ]
'

test_expect_success 'same results under the shim in enforce mode' '
	DELIBERATE_MODE=enforce under_shim "$T/exec-all" errno "$T/d" \
	    >"$T/enf" 2>"$T/err" &&
	test_cmp "$T/bare" "$T/enf" && test ! -s "$T/err"
'

test_expect_success 'same results with the daemon down' '
	DELIBERATE_SOCKET="$T/none.sock" under_shim \
	    "$T/exec-all" errno "$T/d" >"$T/down" 2>"$T/err" &&
	test_cmp "$T/bare" "$T/down" && test ! -s "$T/err" &&
	[ "$(drops)" -gt 0 ]
'

test_expect_success 'every entry validates' '
	validate_entries "$(today_file)"
'

test_done
