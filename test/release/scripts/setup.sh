#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# setup.sh - what README.md says of scripts/setup.sh: with every package
# installed it does nothing (exit 0, no output, no apt-get); as a user
# other than root with a package missing it names the package, installs
# nothing and fails; as root it installs exactly the missing ones. With
# --lib it looks at the smaller set only (a package outside it may be
# missing), and installs only that set's missing packages; --list prints
# a set and installs nothing; an unknown option is refused. The
# system's dpkg-query, id and apt-get are replaced by stand-ins on PATH
# that log their calls, so the test needs no network and changes nothing.
#
# Environment (set by CTest): GRAIN_SOURCE_DIR
set -eu

: "${GRAIN_SOURCE_DIR:?}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/bin"
fail=0

# dpkg-query -W -f=... <pkg>: "installed", except for the packages named
# in $FAKE_MISSING.
cat >"$tmp/bin/dpkg-query" <<'STUB'
#!/bin/sh
for pkg; do :; done
case " $FAKE_MISSING " in
*" $pkg "*) printf 'not-installed' ;;
*) printf 'installed' ;;
esac
STUB
cat >"$tmp/bin/id" <<'STUB'
#!/bin/sh
echo "$FAKE_UID"
STUB
cat >"$tmp/bin/apt-get" <<'STUB'
#!/bin/sh
echo "apt-get $*" >>"$FAKE_LOG"
STUB
chmod +x "$tmp/bin/dpkg-query" "$tmp/bin/id" "$tmp/bin/apt-get"

# run <missing> <uid> [option...]: runs setup.sh; leaves rc, out (stdout
# and stderr) and the apt-get log in $tmp/apt.
run() {
	: >"$tmp/apt"
	rc=0
	missing=$1 uid=$2
	shift 2
	out=$(PATH="$tmp/bin:$PATH" FAKE_MISSING="$missing" FAKE_UID="$uid" \
		FAKE_LOG="$tmp/apt" sh "$GRAIN_SOURCE_DIR/scripts/setup.sh" \
		"$@" 2>&1) || rc=$?
}

check() {
	if [ "$1" != "$2" ]; then
		printf 'FAIL: %s: expected [%s], got [%s]\n' "$3" "$2" "$1" >&2
		fail=1
	fi
}

# Everything installed: silent, exit 0, no apt-get, root or not.
for uid in 0 1000; do
	run "" "$uid"
	check "$rc" 0 "all installed, uid $uid: exit status"
	check "$out" "" "all installed, uid $uid: output"
	check "$(cat "$tmp/apt")" "" "all installed, uid $uid: apt-get calls"
done

# Missing packages, not root: named, nothing installed, exit 1.
run "spin libck-dev" 1000
check "$rc" 1 "missing, not root: exit status"
case "$out" in
*"missing packages: libck-dev spin"*) ;;
*)
	echo "FAIL: missing, not root: packages not named: [$out]" >&2
	fail=1
	;;
esac
check "$(cat "$tmp/apt")" "" "missing, not root: apt-get calls"

# Missing packages as root: update once, then install exactly those.
run "spin libck-dev" 0
check "$rc" 0 "missing, root: exit status"
check "$(cat "$tmp/apt")" "apt-get update -qq
apt-get install -y -qq --no-install-recommends libck-dev spin" \
	"missing, root: apt-get calls"

# --list: the set, one a line; nothing looked at or installed. The --lib
# set is part of the full one and holds neither spin nor libck-dev.
run "spin libck-dev" 0 --list
check "$rc" 0 "--list: exit status"
check "$(cat "$tmp/apt")" "" "--list: apt-get calls"
full=$out
run "spin libck-dev" 0 --lib --list
check "$rc" 0 "--lib --list: exit status"
lib=$out
for pkg in spin libck-dev; do
	printf '%s\n' "$full" | grep -qxF "$pkg" ||
		check "$pkg absent" "$pkg listed" "--list"
	printf '%s\n' "$lib" | grep -qxF "$pkg" &&
		check "$pkg listed" "$pkg absent" "--lib --list"
done
for pkg in $lib; do
	printf '%s\n' "$full" | grep -qxF "$pkg" ||
		check "$pkg absent" "$pkg listed" "--list (a --lib package)"
done
[ "$(printf '%s\n' "$lib" | wc -l)" -lt "$(printf '%s\n' "$full" | wc -l)" ] ||
	check "as long" "shorter" "--lib --list against --list"

# --lib with only packages outside the set missing: silent, nothing to do.
for uid in 0 1000; do
	run "spin libck-dev" "$uid" --lib
	check "$rc" 0 "--lib, others missing, uid $uid: exit status"
	check "$out" "" "--lib, others missing, uid $uid: output"
	check "$(cat "$tmp/apt")" "" "--lib, others missing, uid $uid: apt-get calls"
done

# --lib as root with one of the set missing: installs that one only.
run "spin liburcu-dev libck-dev" 0 --lib
check "$rc" 0 "--lib, missing, root: exit status"
check "$(cat "$tmp/apt")" "apt-get update -qq
apt-get install -y -qq --no-install-recommends liburcu-dev" \
	"--lib, missing, root: apt-get calls"

# --lib as a user: names the missing package of the set, and fails.
run "spin liburcu-dev" 1000 --lib
check "$rc" 1 "--lib, missing, not root: exit status"
case "$out" in
*"missing packages: liburcu-dev"*) ;;
*)
	echo "FAIL: --lib, missing, not root: not named: [$out]" >&2
	fail=1
	;;
esac

# An unknown option: refused with the usage, exit 2, nothing installed.
run "spin" 0 --bogus
check "$rc" 2 "unknown option: exit status"
check "$(cat "$tmp/apt")" "" "unknown option: apt-get calls"

[ "$fail" -eq 0 ] && echo "ok: setup.sh does nothing when all is there, installs only what is missing, of the full or the --lib set"
exit "$fail"
