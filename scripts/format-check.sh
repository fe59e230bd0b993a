#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# format-check.sh - the tracked C and C++ sources are formatted as
# .clang-format says: runs `clang-format --dry-run -Werror` over them and
# fails, listing what clang-format would change, if any file differs.
#
# Usage: scripts/format-check.sh          check (CI, .ci/run)
#        scripts/format-check.sh --fix    format the files in place
#
# clang-format 14 (Debian 12's; scripts/setup.sh installs it): other
# versions break some lines differently, so the check insists on 14.
# CLANG_FORMAT names another binary of version 14.
#
# Files: every tracked *.c, *.h and *.cc, less the paths matched by
# $exclude (generated or third-party code; none today: add an extended
# regular expression there when some arrives).
set -eu

cd "$(dirname "$0")/.."

exclude='^$'

mode=check
case "${1:-}" in
--fix) mode=fix ;;
"") ;;
*)
	echo "usage: $0 [--fix]" >&2
	exit 2
	;;
esac

cf=${CLANG_FORMAT:-}
if [ -z "$cf" ]; then
	for c in clang-format-14 clang-format; do
		if command -v "$c" >/dev/null 2>&1; then
			cf=$c
			break
		fi
	done
fi
if [ -z "$cf" ]; then
	echo "format-check.sh: clang-format 14 not found (scripts/setup.sh" \
		"installs it)" >&2
	exit 1
fi
version=$("$cf" --version | sed -n 's/.*version \([0-9][0-9]*\)\..*/\1/p')
if [ "$version" != 14 ]; then
	echo "format-check.sh: $cf is version ${version:-unknown}, not 14" >&2
	exit 1
fi

files=$(git ls-files -- '*.c' '*.h' '*.cc' '*.hpp' | grep -Ev "$exclude" || true)
if [ -z "$files" ]; then
	echo "format-check.sh: no C or C++ file tracked" >&2
	exit 1
fi
count=$(printf '%s\n' "$files" | wc -l)

if [ "$mode" = fix ]; then
	# The names have no blanks (git ls-files of this tree): split them.
	# shellcheck disable=SC2086
	"$cf" -i --style=file $files
	echo "format-check.sh: formatted $count files"
	exit 0
fi

# shellcheck disable=SC2086
if ! "$cf" --dry-run -Werror --style=file $files; then
	echo "format-check.sh: FAILED: the files above are not formatted as" \
		".clang-format says; run scripts/format-check.sh --fix" >&2
	exit 1
fi
echo "format-check.sh: $count files formatted as .clang-format says"
