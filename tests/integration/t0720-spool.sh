#!/bin/bash
# No loss while the daemon is down: the CLI and the hooks seal undelivered
# events into the spool, which never holds a secret in the clear, and the
# daemon records them, once, when it is back.
. "$(dirname "$0")/../lib/test-lib.sh"

# The marker words below must reach the dataset as they are: this test is
# about the spool, not the standard level's argument typing (t0320 covers that).
mkdir -p "$DELIBERATE_HOME" && echo "anonymizationLevel = minimal" >>"$DELIBERATE_HOME/config"


SPOOL="$DELIBERATE_HOME/spool"

test_expect_success 'with no daemon, log spools the event and says so' '
	expect_status 3 deliberate log -- echo spooled-one 2>"$T/err" &&
	grep_f "spooled as" "$T/err" &&
	test "$(ls "$SPOOL" | grep -c "\.sealed$")" -eq 1 &&
	test "$(stat -c %a "$SPOOL")" = 700 &&
	test "$(stat -c %a "$SPOOL"/*.sealed)" = 600 &&
	test "$(stat -c %a "$DELIBERATE_HOME/spool.key")" = 600
'

test_expect_success 'the spool never holds a secret from the redaction corpus in the clear' '
	n=0
	while IFS="	" read -r cmd secrets; do
		case $cmd in "#"*|"") continue ;; esac
		expect_status 3 deliberate log --line "$cmd" 2>/dev/null
		n=$((n + 1))
		[ $n -ge 60 ] && break
	done <"$SRC/tests/fixtures/redact/secrets.tsv"
	test "$(ls "$SPOOL" | grep -c "\.sealed$")" -eq 61 &&
	"$PYTHON" - "$SRC/tests/fixtures/redact/secrets.tsv" "$SPOOL" <<-PY
	import os, sys
	blob = b"".join(open(os.path.join(sys.argv[2], f), "rb").read()
	                for f in os.listdir(sys.argv[2]))
	found = []
	for i, line in enumerate(open(sys.argv[1], encoding="utf-8")):
	    parts = line.rstrip("\n").split("\t")
	    if len(parts) < 2 or parts[0].startswith("#"):
	        continue
	    found += [s for s in parts[1:] if s and s.encode() in blob]
	    # fragments too: any 12-byte run of a secret
	    for s in parts[1:]:
	        b = s.encode()
	        found += [b[k:k+12] for k in range(0, max(0, len(b) - 12), 4) if b[k:k+12] in blob]
	print(len(found), "secret fragments in the spool")
	sys.exit(1 if found else 0)
	PY
'

test_expect_success 'the daemon ingests the spool at start, once, and empties it' '
	daemon_start &&
	test "$(ls "$SPOOL" | grep -c "\.sealed$")" -eq 0 &&
	f=$(today_file) &&
	test "$(wc -l <"$f")" -eq 61 &&
	grep_f "echo spooled-one" "$f" &&
	validate_entries "$f" &&
	deliberate status --json | jq -e ".spooledIngested == 61"
'

test_expect_success 'no corpus secret reached the dataset through the spool' '
	"$PYTHON" - "$SRC/tests/fixtures/redact/secrets.tsv" "$(today_file)" <<-PY
	import sys
	data = open(sys.argv[2], encoding="utf-8").read()
	left = [s for l in open(sys.argv[1], encoding="utf-8")
	        for s in l.rstrip("\n").split("\t")[1:] if not l.startswith("#") and s and s in data]
	sys.exit(1 if left else 0)
	PY
'

test_expect_success 'a spooled event already recorded (crash before unlink) is not recorded twice' '
	daemon_stop &&
	expect_status 3 deliberate log -- echo twice 2>/dev/null &&
	mkdir "$T/keep" && cp "$SPOOL"/*.sealed "$T/keep/" &&
	daemon_start &&
	test "$(grep -c "echo twice" "$(today_file)")" -eq 1 &&
	daemon_stop &&
	cp "$T"/keep/*.sealed "$SPOOL/" &&
	daemon_start &&
	test "$(grep -c "echo twice" "$(today_file)")" -eq 1 &&
	test "$(ls "$SPOOL" | grep -c "\.sealed$")" -eq 0
'

test_expect_success 'a corrupt spool file is set aside, not fatal' '
	daemon_stop &&
	printf "garbage" >"$SPOOL/0000000000001-00000000-0000-4000-8000-000000000000.sealed" &&
	daemon_start &&
	ls "$SPOOL" | grep -q "\.sealed\.bad$" &&
	deliberate status >/dev/null
'

if have tmux && [ -f "$BUILD/deliberate-bash.so" ]; then
test_when_finished "tmux -S '$T/tmux.sock' kill-server"
test_expect_success 'commands typed in a hooked bash while the daemon is down show up after restart' '
	daemon_stop &&
	printf "PS1='\''$ '\''\n. \"%s\"\n" "$SRC/shell-hooks/deliberate.bash" >"$T/rc" &&
	tmux -S "$T/tmux.sock" new-session -d -s b -x 200 -y 50 \
	    "env PATH=\"$PATH\" bash --rcfile \"$T/rc\" -i" &&
	sleep 0.5 &&
	tmux -S "$T/tmux.sock" send-keys -t b "echo typed-while-down-1" Enter &&
	tmux -S "$T/tmux.sock" send-keys -t b "echo typed-while-down-2" Enter &&
	for i in $(seq 100); do
		[ "$(ls "$SPOOL" 2>/dev/null | grep -c "\.sealed$")" -ge 2 ] && break
		sleep 0.1
	done &&
	daemon_start &&
	grep_f "echo typed-while-down-1" "$(today_file)" &&
	grep_f "echo typed-while-down-2" "$(today_file)" &&
	grep "typed-while-down-1" "$(today_file)" | jq -e ".context.environment.captureLayer == \"hook\"
	    and .context.environment.shell == \"bash\""
'
fi

test_done
