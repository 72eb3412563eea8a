#!/bin/bash
# t0505: deliberate run and wrap.  run records one entry per exec of the
# tree (the command itself included) with the command's exit status;
# wrap prints the same environment for sh, fish and GitHub; in enforce
# mode a dangerous exec fails with EACCES and one line naming the rule
# and the victim survives (skipped unless the classifier calls rm -rf
# dangerous); a real "make -j2" build of this repository succeeds under
# the shim.
. "$(dirname "$0")/../lib/test-lib.sh"
. "$SRC/tests/preload/lib.sh"
preload_setup

test_expect_success 'run: one entry per exec, exit status kept' '
	mkdir -p "$T/x/y" &&
	deliberate run -- sh -c "ls >/dev/null; git --version; rm -rf \"$T/x\"" \
	    >"$T/out" 2>"$T/err" &&
	test ! -s "$T/err" && grep -q "^git version" "$T/out" &&
	test ! -e "$T/x" &&
	wait_entries 4 && entries >"$T/e" && cat "$T/e" &&
	[ "$(wc -l <"$T/e")" = 4 ] &&
	grep -q "^preload	sh -c " "$T/e" &&
	grep -q "^preload	ls	" "$T/e" &&
	grep -q "^preload	git --version	" "$T/e" &&
	grep -q "^preload	rm -rf " "$T/e" &&
	"$PYTHON" - "$(today_file)" <<-PY
	import json, sys
	names = [json.loads(l)["command"]["command"] for l in open(sys.argv[1])]
	assert sorted(names) == ["git", "ls", "rm", "sh"], names
	PY
'

test_expect_success 'run: the exit status is the command'"'"'s' '
	expect_status 7 deliberate run -- sh -c "exit 7" &&
	expect_status 127 deliberate run -- /nonexistent/cmd 2>"$T/err" &&
	grep -q "^deliberate: cannot run" "$T/err"
'

test_expect_success 'run: usage errors exit 2' '
	expect_status 2 deliberate run 2>"$T/err" &&
	expect_status 2 deliberate run --mode prompt -- true 2>"$T/err" &&
	grep -q "bad mode" "$T/err"
'

test_expect_success 'run: works with the daemon down, counts the drop' '
	rm -f "$DELIBERATE_HOME/run/preload-drops" &&
	DELIBERATE_SOCKET="$T/down.sock" \
	    deliberate run -- sh -c "/bin/true; /bin/true" 2>"$T/err" &&
	test ! -s "$T/err" && [ "$(drops)" = 3 ]
'

test_expect_success 'wrap: sh, fish and github lines' '
	deliberate wrap >"$T/sh" && cat "$T/sh" &&
	grep -q "^export LD_PRELOAD='"'"'$SHIM'"'"'" "$T/sh" &&
	grep -q "^export DELIBERATE_MODE='"'"'monitor'"'"'$" "$T/sh" &&
	grep -q "^export DELIBERATE_SOCKET='"'"'$DELIBERATE_SOCKET'"'"'$" "$T/sh" &&
	(LD_PRELOAD=; eval "$(cat "$T/sh")"; [ "$LD_PRELOAD" = "$SHIM" ]) &&
	(export LD_PRELOAD=/x.so; eval "$(cat "$T/sh")";
	    [ "$LD_PRELOAD" = "$SHIM /x.so" ]) &&
	deliberate wrap --shell fish --mode enforce >"$T/fish" &&
	grep -q "^set -gx DELIBERATE_MODE '"'"'enforce'"'"'$" "$T/fish" &&
	deliberate wrap --shell github >"$T/gh" &&
	printf "%s\n" "LD_PRELOAD=$SHIM" DELIBERATE_MODE=monitor \
	    "DELIBERATE_SOCKET=$DELIBERATE_SOCKET" \
	    DELIBERATE_PRELOAD_MODE=monitor \
	    "DELIBERATE_PRELOAD_SOCKET=$DELIBERATE_SOCKET" >"$T/gh.want" &&
	test_cmp "$T/gh.want" "$T/gh" &&
	expect_status 2 deliberate wrap --shell csh 2>/dev/null
'

test_expect_success 'run: a program that moves DELIBERATE_SOCKET does not move the recording' '
	before=$(nentries) &&
	rm -f "$DELIBERATE_HOME/run/preload-drops" &&
	deliberate run -- env DELIBERATE_SOCKET="$T/elsewhere.sock" \
	    DELIBERATE_MODE=enforce DELIBERATE_HOME="$T/elsewhere" \
	    sh -c "/bin/true pin-mark; :" 2>"$T/err" &&
	test ! -s "$T/err" && test ! -e "$T/elsewhere" &&
	wait_entries $((before + 3)) && entries >"$T/e" &&
	grep -q "true pin-mark" "$T/e" && [ "$(drops)" = 0 ]
'

test_expect_success 'wrap: a shell that evals it records its execs' '
	before=$(nentries) &&
	sh -c "eval \"\$(deliberate wrap)\"; sh -c \"/bin/true wrap-mark; :\"" &&
	wait_entries $((before + 1)) && entries | grep -q "true wrap-mark"
'

dangerous() {
	deliberate classify -- "$1" 2>/dev/null | grep -q "^dangerous"
}

test_expect_success 'enforce: rm -rf of a victim is refused with one line' '
	mkdir -p "$T/victim/sub"
	echo keep >"$T/victim/sub/f"
	printf "#!/bin/sh\necho before\nrm -rf \"%s/victim/sub\"\necho rc=\$?\n" \
	    "$T" >"$T/job.sh"
	chmod +x "$T/job.sh"
	if ! dangerous "rm -rf $T/victim/sub"; then
		echo "skipped: the classifier does not call rm -rf dangerous"
		exit 0
	fi
	deliberate run --mode enforce -- "$T/job.sh" >"$T/out" 2>"$T/err"
	cat "$T/out" "$T/err"
	test -f "$T/victim/sub/f"
	grep -q "^before$" "$T/out"
	grep -q "^rc=126$" "$T/out"
	[ "$(grep -c "^deliberate: " "$T/err")" = 1 ]
	grep -q "^deliberate: refused '"'"'rm -rf $T/victim/sub'"'"': [a-z]*:[^ ]* (.*)$" "$T/err"
	wait_entries 1
	entries >"$T/e"
	cat "$T/e"
	grep -q "rm -rf" "$T/e"
	grep -q "\"action\":\"cancel\"" "$(today_file)"
'

# Never risk a real "rm -rf /": the rm found in PATH is a harmless
# stand-in that only leaves a mark, fail-closed refuses when there is no
# verdict, and the daemon must answer first.
test_expect_success 'enforce: rm -rf / is refused before it runs' '
	if ! dangerous "rm -rf /"; then
		echo "skipped: the classifier does not call rm -rf / dangerous"
		exit 0
	fi
	deliberate status >/dev/null
	mkdir -p "$T/fakebin"
	printf "#!/bin/sh\necho FAKE-RM-RAN \"\$@\"\n" >"$T/fakebin/rm"
	chmod +x "$T/fakebin/rm"
	rc=0
	PATH="$T/fakebin:$PATH" DELIBERATE_FAIL_CLOSED=1 \
	    deliberate run --mode enforce -- rm -rf / >"$T/out" 2>"$T/err" ||
	    rc=$?
	cat "$T/out" "$T/err"
	[ $rc = 126 ]
	test ! -s "$T/out"
	[ "$(wc -l <"$T/err")" = 1 ]
	grep -q "^deliberate: refused '"'"'rm -rf /'"'"': " "$T/err"
	# The shell itself may be refused (its line has rm -rf /: 126), or it
	# runs and its rm is refused (it prints rc=126): the rm never runs.
	rc=0
	PATH="$T/fakebin:$PATH" DELIBERATE_FAIL_CLOSED=1 \
	    deliberate run --mode enforce -- sh -c "rm -rf /; echo rc=\$?" \
	    >"$T/out" 2>"$T/err" || rc=$?
	cat "$T/out" "$T/err"
	echo "run: $rc"
	nogrep_f FAKE-RM-RAN "$T/out"
	grep -q "^deliberate: refused '"'"'.*rm -rf /" "$T/err"
	[ $rc = 126 ] || grep -q "^rc=126$" "$T/out"
'

test_expect_success 'enforce: safe commands run normally' '
	deliberate run --mode enforce -- sh -c "ls / >/dev/null; echo ok" \
	    >"$T/out" 2>"$T/err" &&
	grep -q "^ok$" "$T/out" && test ! -s "$T/err"
'

test_expect_success 'a real build: make -j2 of this repository under the shim' '
	if [ -n "${DELIBERATE_SKIP_MAKE:-}" ]; then exit 0; fi
	before=$(nentries) &&
	deliberate run -- make -C "$SRC" -j2 BUILD="$T/build" \
	    "$T/build/deliberate" "$T/build/deliberated" \
	    >"$T/make.log" 2>&1 || { tail -20 "$T/make.log"; exit 1; }
	test -x "$T/build/deliberate" &&
	"$T/build/deliberate" --version &&
	sleep 1 && n=$(( $(nentries) - before )) && echo "$n entries" &&
	[ $n -gt 20 ] &&
	entries >"$T/e" && grep -q "^preload	cc " "$T/e" &&
	validate_entries "$(today_file)"
'

test_done
