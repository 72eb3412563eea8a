#!/bin/bash
# t0503: the shim's hygiene.  nm -D --defined-only shows exactly the 13
# interposed names; readelf shows only libc (and libdl) as NEEDED and a
# non-executable stack; after 1000 failed execs in one process no fd has
# leaked and the exec'd image holds no socket; a setuid-root program run
# by nobody (AT_SECURE) records nothing, reads no environment, and works.
. "$(dirname "$0")/../lib/test-lib.sh"
. "$SRC/tests/preload/lib.sh"
preload_setup

test_expect_success 'nm: only the 13 interposers are exported' '
	nm -D --defined-only "$SHIM" | awk "{print \$NF}" | sort >"$T/syms" &&
	printf "%s\n" execl execle execlp execv execve execveat execvp \
	    execvpe fexecve popen posix_spawn posix_spawnp system |
	    sort >"$T/want" &&
	test_cmp "$T/want" "$T/syms"
'

test_expect_success 'readelf: C library only, no executable stack, now' '
	readelf -dW "$SHIM" | sed -n "s/.*(NEEDED).*\[\(.*\)\]/\1/p" |
	    sort >"$T/needed" && cat "$T/needed" &&
	! grep -v -e "^libc\.so\.[0-9]*$" -e "^libdl\.so\.[0-9]*$" "$T/needed" &&
	grep -q "^libc\.so" "$T/needed" &&
	readelf -lW "$SHIM" | grep GNU_STACK >"$T/stack" && cat "$T/stack" &&
	! grep -q "RWE" "$T/stack" &&
	readelf -dW "$SHIM" | grep -q "BIND_NOW\|FLAGS.*NOW"
'

test_expect_success 'no fd leak after 1000 failed execs; no socket after exec' '
	under_shim "$T/exec-all" fds 1000 >"$T/out" 2>"$T/err" &&
	cat "$T/out" &&
	grep -q "^fds before \([0-9]*\) after \1$" "$T/out" &&
	grep -q "^sockets 0$" "$T/out" && test ! -s "$T/err" &&
	# A burst can overflow the listen backlog of the daemon: whatever was not
	# recorded must have been counted.
	i=0 && while [ $(( $(nentries) + $(drops) )) -lt 1001 ] &&
	    [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done &&
	echo "entries $(nentries) drops $(drops)" &&
	[ $(( $(nentries) + $(drops) )) = 1001 ]
'

test_expect_success 'enforce mode leaks no fd either' '
	DELIBERATE_MODE=enforce under_shim "$T/exec-all" fds 200 \
	    >"$T/out" 2>"$T/err" &&
	grep -q "^fds before \([0-9]*\) after \1$" "$T/out" &&
	grep -q "^sockets 0$" "$T/out"
'

test_expect_success 'AT_SECURE: the shim in a setuid program records nothing' '
	if [ "$(id -u)" != 0 ] || ! have setpriv; then
		echo "skipped: needs root and setpriv"; exit 0
	fi
	# ld.so ignores LD_PRELOAD paths in setuid programs, so the test
	# program loads the shim with dlopen and calls its execv.
	cp "$T/exec-all" "$T/suid-exec" && chown root "$T/suid-exec" &&
	chmod 4755 "$T/suid-exec" && chmod 755 "$T" &&
	mkdir -p "$T/nb" && chown nobody "$T/nb" &&
	before=$(nentries) &&
	setpriv --reuid nobody --regid nogroup --clear-groups env \
	    HOME="$T/nb" DELIBERATE_HOME="$T/nb/.dlb" \
	    DELIBERATE_SOCKET="$DELIBERATE_SOCKET" \
	    "$T/suid-exec" dlopen "$SHIM" suid-mark >"$T/out" 2>"$T/err"; rc=$?
	echo "rc=$rc"; cat "$T/out" "$T/err"
	[ $rc = 0 ] && test ! -s "$T/err" && grep -q "^secure 1$" "$T/out" &&
	sleep 0.5 && [ "$(nentries)" = "$before" ] &&
	test ! -e "$T/nb/.dlb" &&
	! entries | grep -q suid-mark
'

test_expect_success 'sanity: the same call without setuid is recorded' '
	env $UNPIN "$T/exec-all" dlopen "$SHIM" notsuid-mark >"$T/out" &&
	grep -q "^secure 0$" "$T/out" &&
	wait_entries 1 && entries | grep -q notsuid-mark
'

test_done
