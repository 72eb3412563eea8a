#!/bin/bash
# Per-command cost of the shell hooks, against one fork+exec of /bin/true
# measured in the same run.  Prints markdown table rows.
#
#   BUILD=build bash bench/hooks.sh [N]
#
# The hook cost is the client call the hook makes for each command line
# (bash: the deliberate_hook builtin; zsh: zsocket), timed around the call
# only, with the daemon idle between calls (2 ms apart, as a person types
# far slower).  The slow path is a full check round trip (the daemon
# classifies, redacts and appends the entry before it answers); the fast
# path is a read-only line recorded fire-and-forget.
set -u
SRC=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$SRC/build}
case $BUILD in /*) ;; *) BUILD=$SRC/$BUILD ;; esac
N=${1:-400}
T=$(mktemp -d "${TMPDIR:-/tmp}/dlb-bench-hooks.XXXXXX")
trap 'kill $DPID 2>/dev/null; wait 2>/dev/null; rm -rf "$T"' EXIT
export HOME=$T/home DELIBERATE_HOME=$T/home/.deliberate
export XDG_RUNTIME_DIR=$T/xdg DELIBERATE_SOCKET=$T/xdg/deliberate/sock
export DELIBERATE_SHARE=${DELIBERATE_SHARE:-$SRC}
mkdir -p "$HOME" "$XDG_RUNTIME_DIR"
chmod 0700 "$XDG_RUNTIME_DIR"
mkfifo "$T/ready"
"$BUILD/deliberated" --ready-fd 3 3>"$T/ready" >"$T/daemon.log" 2>&1 &
DPID=$!
if ! read -r -t 20 _ <"$T/ready"; then
	echo "| hooks bench | daemon did not start: $(tail -n 1 "$T/daemon.log") |"
	exit 1
fi

# bash: average microseconds of "$@" over N paced calls.
cat >"$T/b.bash" <<'B'
enable -f "$BUILD/deliberate-bash.so" deliberate_hook || exit 1
exec 9<>"$T/pace"
us() {
	local i t0 t1 sum=0
	for ((i = 0; i < N; i++)); do
		t0=${EPOCHREALTIME/[!0-9]/}
		"$@" >/dev/null 2>&1
		t1=${EPOCHREALTIME/[!0-9]/}
		sum=$((sum + 10#$t1 - 10#$t0))
		read -t 0.002 -u 9
	done
	echo $((sum / N))
}
case $1 in
spawn)	us /bin/true ;;
empty)	us : ;;
slow)	us deliberate_hook check -r -- 'make -j4 all' ;;
fast)	us deliberate_hook check -r -f -- 'ls -la' ;;
down)	DELIBERATE_SOCKET=$T/none us deliberate_hook check -r -- 'make' ;;
cli)	us "$BUILD/deliberate" check --record --shell bash -- 'make -j4 all' ;;
esac
B
mkfifo "$T/pace"
export BUILD T N
b() { bash --norc "$T/b.bash" "$1"; }
spawn=$(b spawn) empty=$(b empty)
slow=$(b slow) fast=$(b fast) down=$(b down) cli=$(b cli)

# zsh: the hook's own __deliberate_ask (zsocket connect, print, read, close).
cat >"$T/z.zsh" <<'Z'
source "$SRC/shell-hooks/deliberate.zsh"
zmodload zsh/datetime
exec 9<>"$T/pace"
us() {
	local i t0 sum=0
	for ((i = 0; i < N; i++)); do
		t0=$EPOCHREALTIME
		"$@" >/dev/null 2>&1
		(( sum += (EPOCHREALTIME - t0) * 1e6 ))
		read -t 0.002 -u 9
	done
	echo $(( int(sum / N) ))
}
zmodload zsh/mathfunc
case $1 in
spawn)	us /bin/true ;;
empty)	us : ;;
slow)	us __deliberate_ask 'make -j4 all' 1 ;;
fast)	us __deliberate_ask 'ls -la' 1 ;;
down)	DELIBERATE_SOCKET=$T/none us __deliberate_ask 'make' 1 ;;
esac
Z
zspawn= zslow= zfast= zdown= zempty=
if command -v zsh >/dev/null; then
	export SRC
	z() { zsh -f -i -c "source '$T/z.zsh' $1" 2>/dev/null </dev/null; }
	zspawn=$(z spawn) zslow=$(z slow) zfast=$(z fast) zdown=$(z down)
	zempty=$(z empty)
fi

# Net of the timing loop's own cost (an empty builtin call, same pacing).
net() { echo $(( $1 > $2 ? $1 - $2 : 0 )); }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f%%", b ? 100 * a / b : 0 }'; }
row() {	# label value baseline spawn
	local v s
	v=$(net "$2" "$3") s=$(net "$4" "$3")
	echo "| $1 | $v µs ($(ratio "$v" "$s") of a spawn) |"
}
# Typical mix: 90% read-only fast-path lines, 10% full checks.
mix() { echo $(( (9 * $(net "$1" "$3") + $(net "$2" "$3")) / 10 )); }
shell_rows() {	# shell spawn empty fast slow down
	echo "| $1: fork+exec /bin/true (net) | $(net "$2" "$3") µs |"
	echo "| $1: timing loop overhead (subtracted) | $3 µs |"
	row "$1 hook, read-only fast path (fire-and-forget)" "$4" "$3" "$2"
	row "$1 hook, full check round trip" "$5" "$3" "$2"
	row "$1 hook, daemon down" "$6" "$3" "$2"
	row "$1 hook, typical mix (90% fast path, 10% full check)" \
	    $(( $(mix "$4" "$5" "$3") + $3 )) "$3" "$2"
}
echo "| measure | per command |"
echo "|---|---|"
shell_rows bash "$spawn" "$empty" "$fast" "$slow" "$down"
row 'bash fallback: fork+exec deliberate check' "$cli" "$empty" "$spawn"
if [ -n "$zspawn" ]; then
	shell_rows zsh "$zspawn" "$zempty" "$zfast" "$zslow" "$zdown"
fi
