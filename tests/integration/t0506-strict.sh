#!/bin/bash
# t0506: deliberate run --strict (seccomp user notification).  Every exec
# of the tree is seen, with captureLayer "strict": a static binary's own
# exec (invisible to the shim), an "env -i" child; the wire message flags
# static executables; a signal storm during pending execs gives exactly one
# record per exec; enforce mode refuses with EACCES and one line; when the
# supervisor is killed, later execs fail with ENOSYS instead of hanging;
# sudo gets a one-line warning.
. "$(dirname "$0")/../lib/test-lib.sh"
. "$SRC/tests/preload/lib.sh"
grep -q "^Seccomp:" /proc/self/status || skip_all "no seccomp in this kernel"
preload_setup
cc -O1 -o "$T/helper" "$SRC/tests/preload/strict-helper.c" -lpthread ||
	die "cannot build strict-helper"
STATIC=
if [ -n "$(cc -print-file-name=libc.a | grep /)" ] &&
    cc -static -O1 -o "$T/helper-static" "$SRC/tests/preload/strict-helper.c" \
    -lpthread 2>/dev/null; then
	STATIC=$T/helper-static
else
	say "# no static glibc (libc.a): the static-binary cases are skipped"
fi

test_expect_success 'strict: one entry per exec, layer strict' '
	before=$(nentries) &&
	deliberate run --strict -- sh -c "ls >/dev/null; git --version >/dev/null; env -i sh -c \"/bin/true envi-mark; :\"" \
	    2>"$T/err" && test ! -s "$T/err" &&
	wait_entries $((before + 6)) && sleep 0.3 && entries >"$T/e" && cat "$T/e" &&
	[ "$(grep -c "^strict	" "$T/e")" = 6 ] &&
	grep -q "^strict	ls	" "$T/e" &&
	grep -q "^strict	env -i sh -c " "$T/e" &&
	grep -q "^strict	/bin/true envi-mark	" "$T/e" &&
	nogrep_f "preload	" "$T/e"
'

test_expect_success 'strict: parent name, pid and uid read before the exec went on' '
	"$PYTHON" - "$(today_file)" "$(id -u)" <<-PY
	import json, sys
	seen = 0
	for line in open(sys.argv[1]):
	    e = json.loads(line)
	    if e["command"]["fullCommand"] != "ls":
	        continue
	    seen += 1
	    pp = e["context"]["parentProcess"]
	    assert pp["name"] == "sh", pp
	    assert pp["pid"] > 1, pp
	    assert e["context"]["user"]["isRoot"] == (sys.argv[2] == "0"), e
	assert seen == 1, seen
	PY
'

test_expect_success 'strict: long and many arguments read whole (both memory readers)' '
	# 12 arguments of 1500 bytes: the strings span many pages.  The
	# second run reads /proc/PID/mem, as where process_vm_readv is refused.
	for hooks in 0 1; do
		before=$(nentries) &&
		DELIBERATE_TEST_HOOKS=$hooks deliberate run --strict -- sh -c \
		    "/bin/true \$(for i in \$(seq 12); do printf \"a%04d%01500d \" \$i $hooks; done)" \
		    2>"$T/err" && test ! -s "$T/err" &&
		wait_entries $((before + 2)) && sleep 0.3 &&
		"$PYTHON" - "$(today_file)" "$hooks" <<-PY || exit 1
		import json, sys
		want = ["/bin/true"] + ["a%04d%01500d" % (i, int(sys.argv[2])) for i in range(1, 13)]
		got = [json.loads(l)["command"]["fullCommand"] for l in open(sys.argv[1])]
		assert " ".join(want) in got, [len(g) for g in got[-3:]]
		PY
	done
'

test_expect_success 'the shim alone does not see below an env -i child' '
	before=$(nentries) &&
	deliberate run -- sh -c "env -i sh -c \"/bin/true envi2-mark; :\"; :" &&
	sleep 0.5 && entries >"$T/e" && cat "$T/e" &&
	grep -q "^preload	env -i sh -c " "$T/e" &&
	grep -q "^preload	sh -c '"'"'/bin/true envi2-mark" "$T/e" &&
	! grep -q "^preload	/bin/true envi2-mark" "$T/e"
'

test_expect_success 'a static binary: its exec is seen only under --strict' '
	if [ -z "$STATIC" ]; then echo "skipped: no libc.a"; exit 0; fi
	deliberate run -- "$STATIC" exec static-shim-mark &&
	deliberate run --strict -- "$STATIC" exec static-strict-mark &&
	sleep 0.5 && entries >"$T/e" &&
	grep -q "^preload	.*helper-static exec static-shim-mark" "$T/e" &&
	! grep -q "^preload	true static-shim-mark" "$T/e" &&
	grep -q "^strict	true static-strict-mark" "$T/e"
'

test_expect_success 'the wire message says static: true for a static ELF' '
	if [ -z "$STATIC" ]; then echo "skipped: no libc.a"; exit 0; fi
	capture_start record &&
	DELIBERATE_SOCKET="$T/cap.sock" deliberate run --strict -- \
	    "$STATIC" exec wire-mark &&
	wait_capture 2 && cat "$T/cap.out" | cut -c 1-300 &&
	grep "helper-static" "$T/cap.out" | grep -q "\"static\":true" &&
	grep "wire-mark" "$T/cap.out" | grep "true\",\"wire-mark" |
	    grep -q "\"static\":false" &&
	grep -q "\"source\":\"strict\"" "$T/cap.out" &&
	capture_stop
'

test_expect_success 'signal storm: one entry per exec' '
	before=$(nentries) &&
	deliberate run --strict -- "$T/helper" storm 30 storm-mark &&
	wait_entries $((before + 31)) && sleep 0.5 && entries >"$T/e" &&
	grep -o "storm-mark-[0-9]*" "$T/e" | sort >"$T/seen" &&
	seq 0 29 | sed "s/^/storm-mark-/" | sort >"$T/want" &&
	test_cmp "$T/want" "$T/seen"
'

test_expect_success 'strict enforce: refused with EACCES, one line, victim kept' '
	mkdir -p "$T/victim/sub"
	echo keep >"$T/victim/sub/f"
	printf "#!/bin/sh\nrm -rf \"%s/victim/sub\"\necho rc=\$?\n" "$T" \
	    >"$T/job.sh"
	chmod +x "$T/job.sh"
	if ! deliberate classify -- "rm -rf $T/victim/sub" | grep -q ^dangerous; then
		echo "skipped: the classifier does not call rm -rf dangerous"
		exit 0
	fi
	deliberate run --strict --mode enforce -- "$T/job.sh" >"$T/out" 2>"$T/err"
	cat "$T/out" "$T/err"
	test -f "$T/victim/sub/f" && grep -q "^rc=126$" "$T/out" &&
	[ "$(grep -c "^deliberate: refused" "$T/err")" = 1 ] &&
	grep -q "^deliberate: refused '"'"'rm -rf $T/victim/sub'"'"': " "$T/err"
'

test_expect_success 'supervisor killed: later execs fail with ENOSYS, no hang' '
	deliberate run --strict -- sh -c "sleep 1; /bin/true; echo rc=\$?" \
	    >"$T/out" 2>"$T/err" &
	pid=$!
	sleep 0.4
	kill -9 $pid
	i=0
	while [ $i -lt 100 ] && ! grep -q rc= "$T/out"; do
		sleep 0.1; i=$((i + 1)); done
	cat "$T/out" "$T/err"
	grep -q "^rc=12[67]$" "$T/out" &&
	grep -q "Function not implemented" "$T/err"
'

test_expect_success 'sudo under --strict: one warning line' '
	# sudo fails without its privileges (or is not installed): its
	# status is not what this checks.
	rc=0
	deliberate run --strict -- sudo -n true >/dev/null 2>"$T/err" || rc=$?
	cat "$T/err"; echo "run: $rc"
	[ "$(grep -c "^deliberate: warning: " "$T/err")" = 1 ] &&
	grep -q "no_new_privs" "$T/err"
'

test_expect_success 'every entry validates' '
	validate_entries "$(today_file)"
'

test_done
