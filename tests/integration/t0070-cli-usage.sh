#!/bin/bash
# The CLI: --version, --help, unique prefixes, usage errors (one line plus
# the usage, exit 2) and exit 3 when the daemon is unreachable.
. "$(dirname "$0")/../lib/test-lib.sh"

expect_exit() {
	local want=$1; shift
	local rc=0
	"$@" >"$T/out" 2>"$T/err" || rc=$?
	[ $rc -eq "$want" ] || { echo "exit $rc, want $want: $*"; cat "$T/err"; return 1; }
}

test_expect_success '--version and --help' '
	deliberate --version | grep -Ex "deliberate [0-9]+\.[0-9]+\.[0-9]+" &&
	deliberate --help >"$T/h" &&
	for c in status log classify daemon; do grep -q "^  $c " "$T/h" || exit 1; done
'

test_expect_success 'every subcommand has --help and exits 0' '
	for c in status log classify daemon check decision run wrap rules redact check-privacy; do
		deliberate $c --help >"$T/h" || exit 1
		grep -q "^usage: deliberate $c" "$T/h" || exit 1
	done
'

test_expect_success 'no arguments: usage and exit 2' '
	expect_exit 2 deliberate &&
	grep_f "usage: deliberate" "$T/err"
'

test_expect_success 'an unknown command: one line, the usage, exit 2' '
	expect_exit 2 deliberate frobnicate &&
	head -n 1 "$T/err" | grep -Fx "deliberate: unknown command '\''frobnicate'\''" &&
	grep_f "usage: deliberate" "$T/err"
'

test_expect_success 'a unique prefix runs the command; an ambiguous one is refused' '
	expect_exit 0 deliberate cla -- ls &&
	grep -E "^safe" "$T/out" &&
	expect_exit 2 deliberate d &&
	grep_f "ambiguous command: d, could be: daemon, decision" "$T/err"
'

test_expect_success 'a bad option: one line, the usage, exit 2' '
	expect_exit 2 deliberate status --bogus &&
	head -n 1 "$T/err" | grep -F "unknown option" &&
	grep_f "usage: deliberate status" "$T/err" &&
	expect_exit 2 deliberate log &&
	grep_f "nothing to log" "$T/err" &&
	expect_exit 2 deliberate log --line x -- y &&
	expect_exit 2 deliberate log --cwd relative -- ls &&
	grep_f "must be an absolute path" "$T/err" &&
	expect_exit 2 deliberate classify &&
	expect_exit 2 deliberate daemon sideways &&
	grep_f "unknown action" "$T/err"
'

test_expect_success 'no daemon: status and log exit 3 and say how to start it' '
	expect_exit 3 deliberate status &&
	grep_f "daemon: not running" "$T/out" &&
	expect_exit 3 deliberate log -- ls &&
	grep_f "deliberate daemon start" "$T/err"
'

test_expect_success 'classify prints a verdict without a daemon, and --json the object' '
	deliberate classify -- ls -la | grep -E "^safe" &&
	deliberate classify --json -- ls -la | jq -e "has(\"riskLevel\") and has(\"confidence\")
	    and has(\"patterns\") and has(\"bypassDetection\") and has(\"fastPathEligible\")"
'

test_expect_success 'rules lists by category and shows one rule in full' '
	deliberate rules --category git >"$T/out" &&
	grep -E "^git:push-force-protected +dangerous" "$T/out" &&
	! grep -v "^git:" "$T/out" &&
	deliberate rules fs:rm-rf-home-subdir >"$T/out" &&
	grep_f "risk: dangerous" "$T/out" && grep_f "safer:" "$T/out" &&
	deliberate rules --json --risk dangerous | jq -e "length > 100 and all(.risk == \"dangerous\")" &&
	expect_status 1 deliberate rules --category nope 2>"$T/err" &&
	grep_f "no rules in category" "$T/err" &&
	expect_status 2 deliberate rules --risk loud 2>"$T/err"
'

test_done
