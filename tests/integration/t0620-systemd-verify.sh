#!/bin/bash
# systemd-analyze verify accepts the units (with @BINDIR@ filled in).
. "$(dirname "$0")/../lib/test-lib.sh"
have systemd-analyze || skip_all "systemd-analyze is missing"

mkdir -p "$T/units"
for u in deliberate.service deliberate-rotate.service deliberate-rotate.timer; do
	sed "s|@BINDIR@|$BUILD|g" "$SRC/systemd/$u" >"$T/units/$u"
done

test_expect_success 'the units carry no placeholder' '
	! grep -q @ "$T"/units/*
'

test_expect_success 'systemd-analyze verify finds nothing wrong in our units' '
	(cd "$T/units" && systemd-analyze --user verify --man=no \
		deliberate.service deliberate-rotate.service \
		deliberate-rotate.timer) >"$T/verify" 2>&1 || true
	cat "$T/verify"
	# --man=no: the man pages are not installed where this runs.
	# The container has no user manager or D-Bus; those complaints are
	# not about our files.  Anything naming one of our units is.
	grep -v -e "Failed to connect to" -e "bus" -e "Bus" \
		-e "No such file or directory.*user" -e "XDG_RUNTIME_DIR" \
		-e "Failed to initialize manager" -e "Failed to setup" \
		-e "^$" "$T/verify" >"$T/ours" || true
	if grep -q "Failed to initialize manager\|Failed to connect" "$T/verify"; then
		# fall back to a system-scope verify, which needs no bus
		(cd "$T/units" && systemd-analyze verify --man=no \
			deliberate.service deliberate-rotate.service \
			deliberate-rotate.timer) >"$T/verify2" 2>&1 || true
		cat "$T/verify2"
		grep -v -e "Failed to connect to" -e "[bB]us" \
			-e "Failed to initialize manager" \
			-e "^$" "$T/verify2" >"$T/ours" || true
	fi
	! grep -E "deliberate(-rotate)?\.(service|timer)" "$T/ours"
'

test_expect_success 'a broken unit is caught (the test can fail)' '
	printf "[Service]\nExecStart=relative/path\nBogusKey=1\n" >"$T/units/deliberate-bad.service"
	(cd "$T/units" && systemd-analyze verify deliberate-bad.service) >"$T/bad" 2>&1 || true
	cat "$T/bad"
	grep -q "deliberate-bad.service" "$T/bad"
'

test_done
