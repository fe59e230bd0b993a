#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# headers_strict.sh - every public header in a user's translation unit,
# under the strict warnings users build with (CTest: headers_strict).
#
#   1. Each header of GRAIN_HEADERS on its own, first in its translation
#      unit and included twice (the include guard), with -Werror and
#        C11 (gcc, clang):        -Wall -Wextra -Wpedantic -Wcast-qual
#                                 -Wshadow -Wconversion
#        C++17, C++20 (g++, clang++): -Wall -Wextra -Wpedantic
#                                 -Wold-style-cast
#                                 -Wzero-as-null-pointer-constant -Wshadow
#   2. With liburcu: every header included before, and after, each of
#      liburcu's flavour headers (urcu.h, urcu-qsbr.h, urcu-bp.h,
#      urcu/urcu-memb.h, urcu/urcu-qsbr.h, urcu/urcu-bp.h, urcu/urcu-mb.h,
#      urcu/urcu-signal.h), as C11 and C++17 with each compiler and the
#      same flags. The translation unit also sets grain_htab_config.flavor
#      and declares a struct grain_htab_stats, as a program does: liburcu
#      defines rcu_flavor as a macro, and in C++ a call named like a struct
#      hides it. Skipped (and said) where liburcu's headers are missing.
# The header test of the build (test/CMakeLists.txt, header_check) does
# part 1 with the compiler CMake found, at build time; this adds the other
# compilers and liburcu.
#
# Exit status: 0 all passed; 1 a check failed; 77 (skipped) a compiler or
# liburcu is missing (the rest still ran and passed).
#
# Environment (set by test/CMakeLists.txt):
#   GRAIN_SOURCE_DIR  the source tree
#   GRAIN_HEADERS     the headers to check, as "grain/ring.h ..."
#   GRAIN_PKG_CONFIG  pkg-config (default: pkg-config), for liburcu's flags
set -eu

: "${GRAIN_SOURCE_DIR:?}" "${GRAIN_HEADERS:?}"
: "${GRAIN_PKG_CONFIG:=pkg-config}"

say() { printf 'headers strict: %s\n' "$*"; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/grain-headers.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

c_warnings="-Wall -Wextra -Wpedantic -Wcast-qual -Wshadow -Wconversion -Werror"
cxx_warnings="-Wall -Wextra -Wpedantic -Wold-style-cast \
-Wzero-as-null-pointer-constant -Wshadow -Werror"
include="-I$GRAIN_SOURCE_DIR/include"
failed=0
missing=0

# compile COMPILER STD FILE: one translation unit, syntax only.
compile() {
	case "$2" in
	c11) flags=$c_warnings ;;
	*) flags=$cxx_warnings ;;
	esac
	# $flags, $include and $urcu are lists of flags: split them.
	# shellcheck disable=SC2086
	"$1" -std="$2" $flags $include ${urcu:-} -fsyntax-only "$3"
}

compilers=""
for cc in gcc clang g++ clang++; do
	if command -v "$cc" >/dev/null 2>&1; then
		compilers="$compilers $cc"
	else
		say "$cc not found: skipped"
		missing=1
	fi
done

# --- 1. Each header on its own ----------------------------------------------
for cc in $compilers; do
	case "$cc" in
	gcc | clang) stds="c11" ext=c ;;
	*) stds="c++17 c++20" ext=cc ;;
	esac
	for std in $stds; do
		n=0
		for header in $GRAIN_HEADERS; do
			src="$tmp/alone.$ext"
			printf '#include <%s>\n#include <%s>\n' \
				"$header" "$header" >"$src"
			if ! compile "$cc" "$std" "$src"; then
				say "FAILED: <$header> with $cc -std=$std"
				failed=1
			fi
			n=$((n + 1))
		done
		say "$cc -std=$std: $n headers, each on its own"
	done
done

# --- 2. Before and after liburcu's flavour headers -------------------------
flavors="urcu.h urcu-qsbr.h urcu-bp.h urcu/urcu-memb.h urcu/urcu-qsbr.h
urcu/urcu-bp.h urcu/urcu-mb.h urcu/urcu-signal.h"
if ! urcu=$("$GRAIN_PKG_CONFIG" --cflags liburcu liburcu-qsbr liburcu-bp \
	2>/dev/null); then
	say "liburcu not found by $GRAIN_PKG_CONFIG: part 2 skipped"
	missing=1
	flavors=""
fi

# unit FILE FIRST SECOND EXT: a translation unit that includes FIRST then
# SECOND (each a list of headers) and uses the config and stats types.
unit() {
	: >"$1"
	for h in $2 $3; do
		printf '#include <%s>\n' "$h" >>"$1"
	done
	if [ "$4" = c ]; then
		cat >>"$1" <<'EOF'
void grain_headers_use(struct grain_htab_config *cfg,
		       const struct rcu_flavor_struct *fl);
void grain_headers_use(struct grain_htab_config *cfg,
		       const struct rcu_flavor_struct *fl)
{
	struct grain_htab_stats st = { 0 };

	cfg->flavor = fl;
	cfg->mem_high = (size_t)st.entries;
}
EOF
	else
		cat >>"$1" <<'EOF'
void grain_headers_use(grain_htab_config *cfg, const rcu_flavor_struct *fl);
void grain_headers_use(grain_htab_config *cfg, const rcu_flavor_struct *fl)
{
	grain_htab_stats st{};

	cfg->flavor = fl;
	cfg->mem_high = static_cast<size_t>(st.entries);
}
EOF
	fi
}

if [ -n "$flavors" ]; then
	for cc in $compilers; do
		case "$cc" in
		gcc | clang) std=c11 ext=c ;;
		*) std=c++17 ext=cc ;;
		esac
		n=0
		for flavor in $flavors; do
			src="$tmp/urcu.$ext"
			unit "$src" "$GRAIN_HEADERS" "$flavor" "$ext"
			if ! compile "$cc" "$std" "$src"; then
				say "FAILED: grain's headers before <$flavor>" \
					"with $cc -std=$std"
				failed=1
			fi
			unit "$src" "$flavor" "$GRAIN_HEADERS" "$ext"
			if ! compile "$cc" "$std" "$src"; then
				say "FAILED: grain's headers after <$flavor>" \
					"with $cc -std=$std"
				failed=1
			fi
			n=$((n + 1))
		done
		say "$cc -std=$std: every header before and after" \
			"$n liburcu flavour headers"
	done
fi

[ "$failed" -eq 0 ] || exit 1
[ "$missing" -eq 0 ] || exit 77
say "ok"
