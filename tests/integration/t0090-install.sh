#!/bin/bash
# install.sh into a temp prefix and home: files, modes, the daemon, exactly
# one source line after two runs, and a clean uninstall that keeps data.
. "$(dirname "$0")/../lib/test-lib.sh"

P="$T/prefix"
unset DELIBERATE_HOME DELIBERATE_SHARE
export DELIBERATE_SOCKET="$XDG_RUNTIME_DIR/deliberate/sock"
test_when_finished "'$P/bin/deliberate' daemon stop"
inst() { "$SRC/install.sh" --no-deps --prefix "$P" "$@"; }

test_expect_success 'install.sh --help and a bad flag' '
	"$SRC/install.sh" --help | grep -F -- "--uninstall" &&
	{ "$SRC/install.sh" --bogus 2>"$T/err"; test $? -eq 2; } &&
	grep_f "unknown option" "$T/err"
'

test_expect_success 'install builds, installs, starts the daemon, hooks both shells' '
	inst >"$T/inst.out" 2>&1 &&
	test -x "$P/bin/deliberate" && test -x "$P/bin/deliberated" &&
	test -f "$P/share/deliberate/redaction-rules/README.md" &&
	test -f "$P/share/deliberate/shell-hooks/deliberate.bash" &&
	test -f "$P/share/deliberate/schemas/dataset-entry.schema.json" &&
	test -f "$P/share/man/man1/deliberate.1" &&
	test "$(stat -c %a "$HOME/.deliberate")" = 700 &&
	"$P/bin/deliberate" status | grep -F "daemon: running" &&
	test "$(grep -c "deliberate: shell hook" "$HOME/.bashrc")" -eq 1 &&
	test "$(grep -c "deliberate: shell hook" "$HOME/.zshrc")" -eq 1
'

test_expect_success 'the installed programs find their rules and record an entry' '
	"$P/bin/deliberate" log -- rm -rf /tmp/x &&
	f="$HOME/.deliberate/learning-data/current/$(date +%F).ndjson" &&
	test "$(wc -l <"$f")" -eq 1 &&
	validate_entries "$f" &&
	"$P/bin/deliberate" classify -- ls | grep -E "^safe"
'

test_expect_success 'a second run changes nothing: still one source line each' '
	cp "$HOME/.bashrc" "$T/bashrc.1" &&
	inst >"$T/inst2.out" 2>&1 &&
	test_cmp "$T/bashrc.1" "$HOME/.bashrc" &&
	test "$(grep -c "deliberate: shell hook" "$HOME/.zshrc")" -eq 1 &&
	grep_f "already running" "$T/inst2.out"
'

test_expect_success 'the source line works in a non-interactive bash' '
	bash -c ". \"$HOME/.bashrc\"; echo sourced-ok" | grep -Fx sourced-ok
'

test_expect_success 'uninstall removes files and rc lines but keeps the data' '
	echo "# my own line" >>"$HOME/.bashrc" &&
	inst --uninstall >"$T/un.out" 2>&1 &&
	! test -e "$P/bin/deliberate" && ! test -e "$P/share/deliberate" &&
	! grep -q "deliberate: shell hook" "$HOME/.bashrc" &&
	grep -Fx "# my own line" "$HOME/.bashrc" &&
	test -d "$HOME/.deliberate/learning-data" &&
	grep_f "kept your data" "$T/un.out"
'

test_expect_success 'uninstall --purge-data deletes ~/.deliberate' '
	inst --no-start >/dev/null 2>&1 &&
	inst --uninstall --purge-data >/dev/null 2>&1 &&
	! test -e "$HOME/.deliberate"
'

test_done
