#!/bin/bash
# The quiet connection (docs/protocol.md): what a hook writes there wakes
# nobody, yet every message is handled, in order, before anything else the
# daemon does, within a second otherwise, when the peer hangs up, and at
# shutdown; it never gets a reply, and a bad message there costs nothing.
. "$(dirname "$0")/../lib/test-lib.sh"

mkdir -p "$DELIBERATE_HOME" && chmod 700 "$DELIBERATE_HOME" &&
printf 'anonymizationLevel = minimal\n' >"$DELIBERATE_HOME/config"
daemon_start

quiet() { "$PYTHON" "$SRC/tests/lib/quiet.py" "$DELIBERATE_SOCKET" "$1"; }
ev() {	# line [extra JSON]
	printf '{"v":1,"type":"event","ack":false,"source":"hook","shell":"bash","line":"%s","cwd":"/tmp"%s}' "$1" "${2:-}"
}
count() { grep -c -F -- "$1" "$(today_file)" 2>/dev/null || echo 0; }
wait_count() {	# text n
	local i
	for i in $(seq 1 100); do
		[ "$(count "$1")" -ge "$2" ] && return 0
		sleep 0.05
	done
	echo "only $(count "$1") entries with '$1'"; return 1
}

test_expect_success 'an event on the quiet connection is recorded within the tick' '
	quiet "q $(ev "echo quiet-tick"); sleep 2.5" &&
	[ "$(count "echo quiet-tick")" = 1 ]
'

test_expect_success 'a message on another connection is handled after what the quiet one holds' '
	quiet "q $(ev "echo quiet-order-1"); q $(ev "echo quiet-order-2"); l {\"v\":1,\"type\":\"status\"}; sleep 0.1" >"$T/out" &&
	grep -q "^reply: {.*\"ok\":true" "$T/out" &&
	[ "$(count "echo quiet-order-1")" = 1 ] &&
	[ "$(count "echo quiet-order-2")" = 1 ] &&
	grep -n -F "quiet-order" "$(today_file)" | cut -d: -f1 >"$T/lines" &&
	[ "$(head -n 1 "$T/lines")" -lt "$(tail -n 1 "$T/lines")" ] &&
	grep -F "quiet-order-1" "$(today_file)" | jq -e ".userDecision.action == \"execute\""
'

test_expect_success 'an outcome on the quiet connection reaches its entry' '
	quiet "q $(ev "false quiet-outcome" ",\"session\":\"s-quiet\""); q {\"v\":1,\"type\":\"annotate\",\"kind\":\"outcome\",\"ack\":false,\"last\":true,\"session\":\"s-quiet\",\"exitStatus\":3,\"durationMs\":42}; l {\"v\":1,\"type\":\"status\"}" >/dev/null &&
	wait_count "false quiet-outcome" 1 &&
	id=$(grep -F "false quiet-outcome" "$(today_file)" | jq -r .id) &&
	a=${T}/annotations && sed "s/\.ndjson$/.annotations.ndjson/" <<<"$(today_file)" >"$a.path" &&
	jq -c "select(.kind == \"outcome\" and .entryId == \"$id\") | [.exitStatus, .durationMs]" "$(cat "$a.path")" >"$a" &&
	cat "$a" && [ "$(cat "$a")" = "[3,42]" ]
'

test_expect_success 'no reply ever comes on the quiet connection, even to garbage' '
	quiet "q {not json; q {\"v\":1,\"type\":\"status\"}; l {\"v\":1,\"type\":\"status\"}; noreply" >"$T/out" &&
	cat "$T/out" &&
	grep -q "^quiet: no reply$" "$T/out" &&
	grep -q "^reply: {.*\"ok\":true" "$T/out" &&
	deliberate status >/dev/null
'

test_expect_success 'the peer hanging up gets what it wrote recorded at once' '
	quiet "q $(ev "echo quiet-hup"); close; sleep 0.3" &&
	wait_count "echo quiet-hup" 1
'

test_expect_success 'SIGTERM: what the quiet connection holds is recorded before exit' '
	"$PYTHON" "$SRC/tests/lib/quiet.py" "$DELIBERATE_SOCKET" \
	    "q $(ev "echo quiet-shutdown"); sleep 3" &
	qp=$! &&
	sleep 0.3 && daemon_stop && wait $qp &&
	[ "$(count "echo quiet-shutdown")" = 1 ]
'

test_expect_success 'every entry validates against the schema' '
	validate_entries "$(today_file)"
'

test_done
