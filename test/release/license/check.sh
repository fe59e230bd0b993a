#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# test/release/license/check.sh - every source, header, script and CMake file
# that git tracks carries the SPDX line of grain's license (BSD-2-Clause, see
# LICENSE) within its first three lines. Run from anywhere: the repository
# root is three levels above the script. Exit 0: all do; 1: the missing ones
# are listed.
root=$(cd "$(dirname "$0")/../../.." && pwd)
cd "$root" || exit 1
command -v git >/dev/null 2>&1 && [ -e .git ] || { echo "not a git checkout: skipped"; exit 77; }
grep -q 'BSD 2-Clause License' LICENSE || { echo "LICENSE is not BSD-2-Clause"; exit 1; }
missing=0
for f in $(git ls-files | grep -E '\.(c|h|cc|sh|py|cmake|gp|in|supp|pml)$|CMakeLists\.txt$|^bench/run$|^\.ci/run$'); do
	[ -f "$f" ] || continue
	if ! head -3 "$f" | grep -q 'SPDX-License-Identifier: BSD-2-Clause'; then
		echo "no SPDX line: $f"
		missing=$((missing + 1))
	fi
done
[ "$missing" -eq 0 ] && echo "every tracked source file carries the SPDX line"
[ "$missing" -eq 0 ]
