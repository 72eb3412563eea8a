#!/bin/bash
# t0500: the shim records each of the 13 exec-family functions exactly once
# (not once per PATH candidate), with the PATH-resolved file and the
# original argv; one event for system() and popen(), none for the inner
# exec of /bin/sh; vfork children and posix_spawn; 100 threads forking
# and exec'ing at once (no loss, no duplicate); every entry validates.
. "$(dirname "$0")/../lib/test-lib.sh"
. "$SRC/tests/preload/lib.sh"
preload_setup

test_expect_success 'each of the 13 functions gives exactly one entry' '
	under_shim "$T/exec-all" all fam 2>"$T/err" &&
	test ! -s "$T/err" &&
	wait_entries 13 &&
	entries >"$T/e" &&
	for fn in execve execv execvp execvpe execl execlp execle fexecve \
	    execveat posix_spawn posix_spawnp system popen; do
		n=$(grep -c -- "fam-$fn\b" "$T/e" || true)
		[ "$n" = 1 ] || { echo "$fn: $n entries"; exit 1; }
	done &&
	[ "$(grep -c fam- "$T/e")" = 13 ] &&
	[ "$(nentries)" = 13 ] &&
	grep -q "^preload	sh -c '"'"': fam-system'"'"'" "$T/e" &&
	nogrep_f "	hook	" "$T/e"
'

test_expect_success 'the entries carry captureLayer preload, not interactive' '
	"$PYTHON" - "$(today_file)" <<-PY
	import json, sys
	for line in open(sys.argv[1]):
	    e = json.loads(line)
	    env = e["context"]["environment"]
	    assert env["captureLayer"] == "preload", env
	    assert env["isInteractive"] is False, env
	    assert e["context"]["parentProcess"]["name"] == "exec-all", e["context"]
	PY
'

test_expect_success 'PATH search: one event with the resolved file' '
	capture_start record &&
	mkdir -p "$T/p1" "$T/p2" "$T/p3" &&
	printf "#!/bin/sh\n" >"$T/p2/tool" && chmod 0644 "$T/p2/tool" &&
	printf "#!/bin/sh\nexit 0\n" >"$T/p3/tool" && chmod 0755 "$T/p3/tool" &&
	PATH="$T/p1:$T/nonexistent:$T/p2:$T/p3:$PATH" \
	    with_capture "$T/exec-all" execvp tool tool pathmark &&
	wait_capture 1 && capture_lines >"$T/c" && cat "$T/c" &&
	[ "$(grep -c pathmark "$T/c")" = 1 ] &&
	grep -q "^tool|pathmark	$T/p3/tool	False" "$T/c" &&
	capture_stop
'

test_expect_success 'execlp resolves true to a real file' '
	capture_start record &&
	with_capture "$T/exec-all" all res &&
	wait_capture 13 && capture_lines >"$T/c" &&
	grep "res-execlp" "$T/c" | grep -q "	/[a-z/]*bin/true	" &&
	grep "res-posix_spawnp" "$T/c" | grep -q "	/[a-z/]*bin/true	" &&
	grep -q "^sh|-c|: res-system	/bin/sh	" "$T/c" &&
	capture_stop
'

test_expect_success 'vfork + exec, and a failed exec in a vfork child' '
	under_shim "$T/exec-all" vfork vf 2>"$T/err" &&
	test ! -s "$T/err" &&
	wait_entries 17 && entries >"$T/e" &&
	for m in vf-vfork-execv vf-vfork-execvp vf-vfork-fail vf-after-vfork; do
		[ "$(grep -cw -- "$m" "$T/e")" = 1 ] || { echo "$m"; exit 1; }
	done
'

test_expect_success '100 threads fork and exec at once: 100 entries' '
	before=$(nentries) &&
	under_shim "$T/exec-all" threads 100 thr 2>"$T/err" &&
	test ! -s "$T/err" &&
	wait_entries $((before + 100)) && entries >"$T/e" &&
	grep -o "thr-[0-9]*" "$T/e" | sort >"$T/seen" &&
	seq 0 99 | sed "s/^/thr-/" | sort >"$T/want" &&
	test_cmp "$T/want" "$T/seen" &&
	[ "$(drops)" = 0 ]
'

test_expect_success 'every entry validates against the schema' '
	validate_entries "$(today_file)"
'

test_done
