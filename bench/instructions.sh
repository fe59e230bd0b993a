#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# bench/instructions.sh - instructions per operation, single-threaded, for
# grain_ring, grain_htab and grain_prio and what they are measured against.
#
# Usage: bench/instructions.sh [--out DIR] [--ops N] [--quick] [--exe PATH]
#                              [--only FAMILY]...
#
#   --out DIR     where instructions.md and instructions.json go (default
#                 build/bench-results)
#   --ops N       operations per kind (default 65536; rounded up to 32)
#   --quick       --ops 8192
#   --exe PATH    the instr_ops program (default
#                 build/release/bench/instr/instr_ops, built by the release
#                 preset)
#   --only NAME   ring, htab or prio (default: all); may be repeated
#
# Each kind of instr_ops --list (one implementation, one operation) runs in
# its own process under valgrind's callgrind, which counts only the
# instructions executed inside instr_measure() (--collect-atstart=no
# --toggle-collect=instr_measure): setup, checks and teardown are left out.
# (Ir - the inclusive Ir of malloc and free) / operations is the figure:
# the htab adapters allocate and free a node per insert and remove, as in
# the timed runs, and the allocator's share is reported apart. Counts are
# exact and do not depend on the machine's load; they do depend on the
# compiler and its flags. Hardware counters (perf stat -e instructions)
# are not used: virtual machines often do not expose them. Needs valgrind
# (with callgrind_annotate) and python3 (scripts/setup.sh).
set -euo pipefail

cd "$(dirname "$0")/.."

out=build/bench-results
ops=65536
exe=build/release/bench/instr/instr_ops
only=()
while [[ $# -gt 0 ]]; do
	case $1 in
	--out) out=$2; shift ;;
	--ops) ops=$2; shift ;;
	--quick) ops=8192 ;;
	--exe) exe=$2; shift ;;
	--only) only+=("$2"); shift ;;
	-h | --help) sed -n '2,28p' "$0"; exit 0 ;;
	*) echo "instructions.sh: unknown argument: $1" >&2; exit 2 ;;
	esac
	shift
done
die() { echo "instructions.sh: $*" >&2; exit 1; }
[[ $ops =~ ^[0-9]+$ && $ops -gt 0 ]] ||
	{ echo "instructions.sh: --ops wants a positive number" >&2; exit 2; }
[[ ${#only[@]} -gt 0 ]] || only=(ring htab prio)
for tool in valgrind callgrind_annotate python3; do
	command -v "$tool" >/dev/null 2>&1 || die "$tool not found (scripts/setup.sh installs it)"
done
[[ -x $exe ]] || die "$exe not built (cmake --workflow --preset release)"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$out"

"$exe" --list >"$tmp/kinds"
: >"$tmp/results.tsv"
n=0
while IFS=$'\t' read -r kind family impl op per; do
	[[ " ${only[*]} " == *" $family "* ]] || continue
	cg=$tmp/callgrind.$((n++)).out
	if ! valgrind --tool=callgrind --callgrind-out-file="$cg" --collect-atstart=no \
		--toggle-collect=instr_measure "$exe" "$kind" "$ops" >"$tmp/log" 2>&1; then
		echo "instructions.sh: $kind failed under callgrind:" >&2
		tail -n 20 "$tmp/log" >&2
		exit 1
	fi
	ir=$(sed -n 's/^summary: *//p' "$cg")
	[[ -n $ir ]] || ir=$(sed -n 's/^totals: *//p' "$cg")
	done_ops=$(sed -n "s|^$kind ops=||p" "$tmp/log")
	[[ -n $ir && -n $done_ops ]] || die "$kind: no count in callgrind's output"
	# The C allocator's share: the inclusive cost of malloc and free (and
	# their kin) inside the counted region, where the htab adapters
	# allocate each inserted node and free each removed one.
	alloc=$(callgrind_annotate --inclusive=yes --threshold=100 "$cg" | awk '
		$NF ~ /^\[.*libc/ &&
		$(NF-1) ~ ":(malloc|free|calloc|realloc|cfree|__libc_malloc|__libc_free)$" {
			gsub(",", "", $1); s += $1 } END { print s + 0 }')
	printf '%s\t' "$kind" "$family" "$impl" "$op" "$per" "$done_ops" "$ir" >>"$tmp/results.tsv"
	echo "$alloc" >>"$tmp/results.tsv"
	awk -v k="$kind" -v a="$ir" -v m="$alloc" -v b="$done_ops" 'BEGIN {
		printf "instructions.sh: %-28s %8.1f Ir/op (allocator %.1f)\n", k, (a - m) / b, m / b }'
done <"$tmp/kinds"
[[ -s $tmp/results.tsv ]] ||
	{ echo "instructions.sh: no kind of ${only[*]} in $exe --list; nothing written" >&2; exit 0; }

# Facts for the report: the compiler and flags of the build, valgrind, the
# revision.
cache=$(dirname "$exe")/../../CMakeCache.txt
cc=unknown
cflags=unknown
if [[ -f $cache ]]; then
	ccpath=$(sed -n 's/^CMAKE_C_COMPILER:[A-Z]*=//p' "$cache")
	[[ -z $ccpath ]] || cc=$("$ccpath" --version 2>/dev/null | head -n 1) || cc=$ccpath
	bt=$(sed -n 's/^CMAKE_BUILD_TYPE:[A-Z]*=//p' "$cache")
	fl=$(sed -n "s/^CMAKE_C_FLAGS_${bt^^}:[A-Z]*=//p" "$cache")
	cflags="$bt${fl:+ ($fl)}"
fi
rev=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
[[ -z $(git status --porcelain --untracked-files=no 2>/dev/null) ]] ||
	rev="$rev (with uncommitted changes)"

python3 - "$tmp/results.tsv" "$out" "$ops" "$(valgrind --version)" \
	"$cc" "$cflags" "$rev" "$(uname -srm)" "$exe" <<'EOF'
import json
import sys

tsv, out, ops, vg, cc, cflags, rev, kernel, exe = sys.argv[1:10]
ops, rows = int(ops), []
for line in open(tsv):
    kind, fam, impl, op, per, n, ir, alloc = line.rstrip("\n").split("\t")
    n, ir, alloc = int(n), int(ir), int(alloc)
    rows.append({"kind": kind, "family": fam, "implementation": impl,
                 "operation": op, "per": per, "ops": n, "ir": ir,
                 "ir_allocator": alloc, "ir_per_op": round((ir - alloc) / n, 2),
                 "allocator_per_op": round(alloc / n, 2)})
with open(f"{out}/instructions.json", "w") as f:
    json.dump({"method": "valgrind --tool=callgrind --collect-atstart=no "
               "--toggle-collect=instr_measure, one process per kind; Ir "
               "(instructions executed) inside instr_measure(), less the "
               "inclusive Ir of malloc and free there (ir_allocator), / "
               "operations; setup, checks and teardown not counted",
               "valgrind": vg, "compiler": cc, "build": cflags,
               "kernel": kernel, "revision": rev, "program": exe,
               "ops_per_kind": ops, "results": rows}, f, indent=1)
    f.write("\n")

md = [f"Instructions per operation, single thread, counted by {vg} "
      "(callgrind, only inside the measured loop, less the C allocator's "
      f"share: {ops} operations per kind, each kind in its own process). "
      f"Build: {cc}, {cflags}. Source revision: {rev}. Counts are exact "
      "and independent of the machine's load; they include the driving "
      "loop's few instructions, the same for every implementation of a "
      "table. Made by `bench/instructions.sh` with `instr_ops` "
      "(bench/instr/), which drives the timed benchmarks' own adapters."]
titles = {"ring": "grain_ring and the other queues: instructions per pair "
                  "(one enqueue + one dequeue)",
          "prio": "grain_prio and the pfifo_fast baselines: instructions "
                  "per item (enqueue by priority + dequeue)",
          "htab": "grain_htab and the other tables: instructions per "
                  "operation"}
for fam, title in titles.items():
    sel = [r for r in rows if r["family"] == fam]
    if not sel:
        continue
    cols = list(dict.fromkeys(r["operation"] for r in sel))
    val = {(r["implementation"], r["operation"]): r["ir_per_op"] for r in sel}
    md += ["", f"### {title}", "",
           "| implementation | " + " | ".join(cols) + " |",
           "|---|" + "---:|" * len(cols)]
    for impl in dict.fromkeys(r["implementation"] for r in sel):
        md.append(f"| {impl} | " + " | ".join(
            "–" if val.get((impl, op)) is None else f"{val[impl, op]:.1f}"
            for op in cols) + " |")
    if fam != "htab":
        continue

    def alloc_per(op):
        v = [r["allocator_per_op"] for r in sel
             if r["operation"] == op and r["allocator_per_op"] > 0]
        lo, hi = (f"{min(v):.0f}", f"{max(v):.0f}") if v else ("–", "–")
        return lo if lo == hi else f"{lo}–{hi}"
    md += ["", "grain's tables have their LRU, byte accounting, a high "
           "watermark and a TTL on (neither reached), as in the timed mixed "
           "runs, each made by the benchmark's adapter. As in the timed "
           "runs, each insert mallocs its node and each remove frees it; "
           "the C allocator's instructions are left out of these figures "
           f"(about {alloc_per('insert')} per insert and "
           f"{alloc_per('remove')} per remove, counted apart in "
           "instructions.json). grain-rcu's remove counts its call_rcu "
           "hand-off, not the free on liburcu's thread. Tables hold at most "
           f"{ops} entries, except for churn: one insert into a table made "
           "as for the timed churn runs (mem_high = mem_low = its limit, "
           "reached), filled and churned once through first, so that each "
           "insert evicts one entry."]
md += ["", "– : no such call in that implementation's API."]
with open(f"{out}/instructions.md", "w") as f:
    f.write("\n".join(md) + "\n")
print(f"instructions.sh: {out}/instructions.md, {out}/instructions.json")
EOF
