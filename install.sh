#!/bin/sh
# Deliberate installer.  POSIX sh, idempotent: running it twice changes
# nothing the second time.
#
#   ./install.sh                 deps, build, install to ~/.local, start the
#                                daemon, hook ~/.bashrc and ~/.zshrc
#   ./install.sh --system        the same, into /usr/local
#   ./install.sh --deps          only install build, runtime and test deps
#   ./install.sh --uninstall     remove what was installed and the rc lines;
#                                keep the data unless --purge-data is given
set -eu

usage() {
	cat <<'EOF'
usage: ./install.sh [--system] [--prefix DIR] [--no-deps] [--no-start]
                    [--no-hooks] [--dry-run]
       ./install.sh --deps
       ./install.sh --uninstall [--system] [--prefix DIR] [--purge-data]
       ./install.sh --help

  (no flag)      install dependencies, build, install into ~/.local, start
                 the daemon, and add one source line to ~/.bashrc and ~/.zshrc
  --system       install into /usr/local instead of ~/.local
  --prefix DIR   install into DIR
  --deps         only install the build, runtime and test dependencies
                 (apt-get on Debian/Ubuntu, dnf on Fedora); CI uses this
  --no-deps      skip the dependency step
  --no-start     do not start the daemon
  --no-hooks     do not touch ~/.bashrc and ~/.zshrc
  --uninstall    stop the daemon, remove the installed files, the units and
                 the rc lines; the data in ~/.deliberate is kept
  --purge-data   with --uninstall, also delete ~/.deliberate
  --dry-run      print what would be done
EOF
}

die() {
	echo "install.sh: $*" >&2
	exit 1
}

usage_error() {
	echo "install.sh: $*" >&2
	usage >&2
	exit 2
}

mode=install prefix= system=0 deps=1 start=1 hooks=1 purge=0 dry=0
while [ $# -gt 0 ]; do
	case $1 in
	--deps) mode=deps ;;
	--uninstall) mode=uninstall ;;
	--system) system=1 ;;
	--prefix)
		[ $# -ge 2 ] || usage_error "--prefix needs a directory"
		prefix=$2; shift ;;
	--prefix=*) prefix=${1#--prefix=} ;;
	--no-deps) deps=0 ;;
	--no-start) start=0 ;;
	--no-hooks) hooks=0 ;;
	--purge-data) purge=1 ;;
	--dry-run) dry=1 ;;
	-h|--help) usage; exit 0 ;;
	*) usage_error "unknown option '$1'" ;;
	esac
	shift
done
[ $purge -eq 0 ] || [ $mode = uninstall ] ||
	usage_error "--purge-data only goes with --uninstall"

if [ -z "$prefix" ]; then
	if [ $system -eq 1 ]; then prefix=/usr/local; else prefix=$HOME/.local; fi
fi
case $prefix in /*) ;; *) usage_error "--prefix must be absolute: '$prefix'" ;; esac

top=$(cd "$(dirname "$0")" && pwd)
dhome=${DELIBERATE_HOME:-$HOME/.deliberate}
marker='# deliberate: shell hook'

run() {
	if [ $dry -eq 1 ]; then echo "+ $*"; else "$@"; fi
}

as_root() {
	if [ "$(id -u)" -eq 0 ]; then run "$@"
	elif command -v sudo >/dev/null 2>&1; then run sudo "$@"
	else die "need root for '$*' (no sudo found)"
	fi
}

# The packages: build and runtime, then what the tests and benches use.
APT_BUILD="build-essential pkg-config libseccomp-dev zlib1g-dev libjson-c-dev libpcre2-dev libsodium-dev bash-builtins zsh-dev"
APT_TEST="zsh tmux python3 python3-jsonschema jq bc procps util-linux gzip clang libclang-rt-14-dev valgrind snoopy systemd file binutils"
DNF_BUILD="gcc make pkgconf-pkg-config libseccomp-devel zlib-devel json-c-devel pcre2-devel libsodium-devel bash-devel"
DNF_TEST="zsh tmux python3 python3-jsonschema jq bc procps-ng util-linux gzip clang compiler-rt valgrind systemd file binutils"

install_deps() {
	if command -v apt-get >/dev/null 2>&1; then
		export DEBIAN_FRONTEND=noninteractive
		as_root apt-get update -qq
		# shellcheck disable=SC2086
		as_root apt-get install -y -qq --no-install-recommends $APT_BUILD
		if [ "$1" = all ]; then
			# snoopy is only for the benchmark: never let its
			# package enable a global /etc/ld.so.preload.
			if ! [ -e /etc/ld.so.preload ]; then nopreload=1; else nopreload=0; fi
			# shellcheck disable=SC2086
			as_root apt-get install -y -qq --no-install-recommends $APT_TEST
			if [ $nopreload -eq 1 ] && [ -e /etc/ld.so.preload ] &&
			    grep -q snoopy /etc/ld.so.preload; then
				as_root rm -f /etc/ld.so.preload
			fi
		fi
	elif command -v dnf >/dev/null 2>&1; then
		# shellcheck disable=SC2086
		as_root dnf install -y $DNF_BUILD
		# shellcheck disable=SC2086
		[ "$1" = all ] && as_root dnf install -y $DNF_TEST || true
	else
		die "no apt-get or dnf: install these yourself: $APT_BUILD"
	fi
}

rc_add() {
	rc=$1 file=$2
	line="[ -f '$file' ] && . '$file' $marker"
	if [ -f "$rc" ] && grep -qF "$marker" "$rc"; then
		# Already there; refresh it if the path changed.
		if ! grep -qF "$line" "$rc"; then
			run sed -i "\\|$marker|d" "$rc"
			[ $dry -eq 1 ] || printf '%s\n' "$line" >>"$rc"
		fi
		return
	fi
	echo "adding the hook to $rc"
	[ $dry -eq 1 ] || printf '%s\n' "$line" >>"$rc"
}

rc_remove() {
	rc=$1
	if [ -f "$rc" ] && grep -qF "$marker" "$rc"; then
		echo "removing the hook from $rc"
		run sed -i "\\|$marker|d" "$rc"
	fi
}

have_user_manager() {
	command -v systemctl >/dev/null 2>&1 &&
	    systemctl --user show-environment >/dev/null 2>&1
}

unit_dir=${XDG_CONFIG_HOME:-$HOME/.config}/systemd/user

start_daemon() {
	bin=$prefix/bin
	if have_user_manager && [ -f "$top/systemd/deliberate.service" ]; then
		run mkdir -p "$unit_dir"
		for u in deliberate.service deliberate-rotate.service deliberate-rotate.timer; do
			[ -f "$top/systemd/$u" ] || continue
			if [ $dry -eq 1 ]; then echo "+ install $u into $unit_dir"; continue; fi
			sed "s|@BINDIR@|$bin|g" "$top/systemd/$u" >"$unit_dir/$u"
		done
		run systemctl --user daemon-reload
		run systemctl --user enable --now deliberate.service
		if [ -f "$unit_dir/deliberate-rotate.timer" ]; then
			run systemctl --user enable --now deliberate-rotate.timer
		fi
		echo "daemon running as the systemd user unit deliberate.service"
	else
		run "$bin/deliberate" daemon start
	fi
}

stop_daemon() {
	if have_user_manager && [ -f "$unit_dir/deliberate.service" ]; then
		run systemctl --user disable --now deliberate-rotate.timer 2>/dev/null || true
		run systemctl --user disable --now deliberate.service || true
		run rm -f "$unit_dir/deliberate.service" \
		    "$unit_dir/deliberate-rotate.service" \
		    "$unit_dir/deliberate-rotate.timer"
		run systemctl --user daemon-reload || true
	fi
	if [ -x "$prefix/bin/deliberate" ]; then
		run "$prefix/bin/deliberate" daemon stop || true
	fi
}

case $mode in
deps)
	install_deps all
	echo "dependencies installed"
	exit 0
	;;
uninstall)
	stop_daemon
	if [ -f "$top/Makefile" ]; then
		run make -C "$top" uninstall PREFIX="$prefix" >/dev/null
	else
		run rm -f "$prefix/bin/deliberate" "$prefix/bin/deliberated"
		run rm -rf "$prefix/lib/deliberate" "$prefix/share/deliberate"
	fi
	rc_remove "$HOME/.bashrc"
	rc_remove "$HOME/.zshrc"
	if [ $purge -eq 1 ]; then
		echo "deleting $dhome"
		run rm -rf "$dhome"
	else
		echo "kept your data in $dhome (use --purge-data to delete it)"
	fi
	echo "uninstalled"
	exit 0
	;;
esac

[ $deps -eq 1 ] && install_deps build
echo "building"
run make -C "$top" -j2 all >/dev/null
echo "installing into $prefix"
run make -C "$top" install PREFIX="$prefix" >/dev/null
run mkdir -p "$dhome"
run chmod 0700 "$dhome"
[ $start -eq 1 ] && start_daemon
if [ $hooks -eq 1 ]; then
	rc_add "$HOME/.bashrc" "$prefix/share/deliberate/shell-hooks/deliberate.bash"
	rc_add "$HOME/.zshrc" "$prefix/share/deliberate/shell-hooks/deliberate.zsh"
fi
case ":$PATH:" in
*":$prefix/bin:"*) ;;
*) echo "note: add $prefix/bin to your PATH" ;;
esac
echo "done: open a new shell, then try 'deliberate status'"
