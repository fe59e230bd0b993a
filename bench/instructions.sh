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
[[ $ops =~ ^[0-9]+$ && $ops -gt 0 ]] || {
	echo "instructions.sh: --ops wants a positive number" >&2
	exit 2
}
[[ ${#only[@]} -gt 0 ]] || only=(ring htab prio)

for tool in valgrind callgrind_annotate python3; do
	if ! command -v "$tool" >/dev/null 2>&1; then
		echo "instructions.sh: $tool not found (scripts/setup.sh installs it)" >&2
		exit 1
	fi
done
if [[ ! -x $exe ]]; then
	echo "instructions.sh: $exe not built (cmake --workflow --preset release)" >&2
	exit 1
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$out"

"$exe" --list >"$tmp/kinds"
: >"$tmp/results.tsv"
n=0
while IFS=$'\t' read -r kind family impl op per; do
	want=0
	for f in "${only[@]}"; do
		[[ $f == "$family" ]] && want=1
	done
	[[ $want -eq 1 ]] || continue
	cg=$tmp/callgrind.$n.out
	n=$((n + 1))
	if ! valgrind --tool=callgrind --callgrind-out-file="$cg" \
		--collect-atstart=no --toggle-collect=instr_measure \
		"$exe" "$kind" "$ops" >"$tmp/log" 2>&1; then
		echo "instructions.sh: $kind failed under callgrind:" >&2
		tail -n 20 "$tmp/log" >&2
		exit 1
	fi
	ir=$(sed -n 's/^summary: *//p' "$cg")
	[[ -n $ir ]] || ir=$(sed -n 's/^totals: *//p' "$cg")
	done_ops=$(sed -n "s|^$kind ops=||p" "$tmp/log")
	if [[ -z $ir || -z $done_ops ]]; then
		echo "instructions.sh: $kind: no count in callgrind's output" >&2
		exit 1
	fi
	# The C allocator's share: the inclusive cost of malloc and free (and
	# their kin) inside the counted region, where the htab adapters
	# allocate each inserted node and free each removed one.
	fns='malloc|free|calloc|realloc|cfree|__libc_malloc|__libc_free'
	alloc=$(callgrind_annotate --inclusive=yes --threshold=100 "$cg" |
		awk -v fns="$fns" '$NF ~ /^\[.*libc/ &&
			$(NF-1) ~ ":(" fns ")$" { gsub(",", "", $1); s += $1 }
			END { print s + 0 }')
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$kind" "$family" "$impl" \
		"$op" "$per" "$done_ops" "$ir" "$alloc" >>"$tmp/results.tsv"
	printf 'instructions.sh: %-28s %8.1f Ir/op (allocator %.1f)\n' "$kind" \
		"$(awk -v a="$ir" -v m="$alloc" -v b="$done_ops" 'BEGIN { print (a - m) / b }')" \
		"$(awk -v m="$alloc" -v b="$done_ops" 'BEGIN { print m / b }')"
done <"$tmp/kinds"

if [[ ! -s $tmp/results.tsv ]]; then
	echo "instructions.sh: no kind of ${only[*]} in $exe --list; nothing written" >&2
	exit 0
fi

# Facts for the report: the compiler and flags of the build, valgrind,
# the revision.
cache=$(dirname "$exe")/../../CMakeCache.txt
cc=unknown
cflags=unknown
if [[ -f $cache ]]; then
	ccpath=$(sed -n 's/^CMAKE_C_COMPILER:[A-Z]*=//p' "$cache")
	[[ -z $ccpath ]] || cc=$("$ccpath" --version 2>/dev/null | head -n 1) || cc=$ccpath
	bt=$(sed -n 's/^CMAKE_BUILD_TYPE:[A-Z]*=//p' "$cache")
	fl=$(sed -n "s/^CMAKE_C_FLAGS_$(echo "$bt" | tr '[:lower:]' '[:upper:]'):[A-Z]*=//p" "$cache")
	cflags="$bt${fl:+ ($fl)}"
fi
rev=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
if [[ -n $(git status --porcelain --untracked-files=no 2>/dev/null) ]]; then
	rev="$rev (with uncommitted changes)"
fi

python3 - "$tmp/results.tsv" "$out" "$ops" "$(valgrind --version)" \
	"$cc" "$cflags" "$rev" "$(uname -srm)" "$exe" <<'EOF'
import json
import sys

tsv, out, ops, vg, cc, cflags, rev, kernel, exe = sys.argv[1:10]
rows = []
with open(tsv) as f:
    for line in f:
        kind, fam, impl, op, per, n, ir, alloc = \
            line.rstrip("\n").split("\t")
        n, ir, alloc = int(n), int(ir), int(alloc)
        rows.append({"kind": kind, "family": fam, "implementation": impl,
                     "operation": op, "per": per, "ops": n,
                     "ir": ir, "ir_allocator": alloc,
                     "ir_per_op": round((ir - alloc) / n, 2),
                     "allocator_per_op": round(alloc / n, 2)})

doc = {
    "method": ("valgrind --tool=callgrind --collect-atstart=no "
               "--toggle-collect=instr_measure, one process per kind; "
               "Ir (instructions executed) inside instr_measure(), less "
               "the inclusive Ir of malloc and free there (ir_allocator), "
               "/ operations; setup, checks and teardown not counted"),
    "valgrind": vg, "compiler": cc, "build": cflags, "kernel": kernel,
    "revision": rev, "program": exe, "ops_per_kind": int(ops),
    "results": rows,
}
with open(f"{out}/instructions.json", "w") as f:
    json.dump(doc, f, indent=1)
    f.write("\n")

titles = {
    "ring": "grain_ring and the other queues: instructions per pair "
            "(one enqueue + one dequeue)",
    "htab": "grain_htab and the other tables: instructions per operation",
    "prio": "grain_prio and the pfifo_fast baselines: instructions per "
            "item (enqueue by priority + dequeue)",
}
md = []
md.append(f"Instructions per operation, single thread, counted by {vg} "
          "(callgrind, only inside the measured loop, less the C "
          "allocator's share: "
          f"{int(ops)} operations per kind, each kind in its own process). "
          f"Build: {cc}, {cflags}. Source revision: {rev}. Counts are exact "
          "and independent of the machine's load; they include the driving "
          "loop's few instructions, the same for every implementation of a "
          "table. Made by `bench/instructions.sh` with `instr_ops` "
          "(bench/instr/), which drives the timed benchmarks' own "
          "adapters.")
for fam in ("ring", "prio", "htab"):
    sel = [r for r in rows if r["family"] == fam]
    if not sel:
        continue
    ops_cols = []
    impls = []
    for r in sel:
        if r["operation"] not in ops_cols:
            ops_cols.append(r["operation"])
        if r["implementation"] not in impls:
            impls.append(r["implementation"])
    val = {(r["implementation"], r["operation"]): r["ir_per_op"]
           for r in sel}
    md.append("")
    md.append(f"### {titles[fam]}")
    md.append("")
    md.append("| implementation | " + " | ".join(ops_cols) + " |")
    md.append("|---|" + "---:|" * len(ops_cols))
    for impl in impls:
        cells = []
        for op in ops_cols:
            v = val.get((impl, op))
            cells.append("–" if v is None else f"{v:.1f}")
        md.append(f"| {impl} | " + " | ".join(cells) + " |")
    if fam == "htab":
        def alloc_per(op):
            v = [r["allocator_per_op"] for r in sel
                 if r["operation"] == op and r["allocator_per_op"] > 0]
            if not v:
                return "–"
            lo, hi = f"{min(v):.0f}", f"{max(v):.0f}"
            return lo if lo == hi else f"{lo}–{hi}"
        md.append("")
        md.append("grain's tables have their LRU, byte accounting, a high "
                  "watermark and a TTL on (neither reached), as in the "
                  "timed mixed runs, each made by the benchmark's adapter. "
                  "As in the timed runs, each insert mallocs its node and "
                  "each remove frees it; the C allocator's instructions are "
                  "left out of these figures (about "
                  f"{alloc_per('insert')} per insert and "
                  f"{alloc_per('remove')} per remove, counted apart in "
                  "instructions.json). grain-rcu's remove counts its "
                  "call_rcu hand-off, not the free on liburcu's thread. "
                  f"Tables hold at most {int(ops)} entries, except for "
                  "churn: one insert into a table made as for the timed "
                  "churn runs (mem_high = mem_low = its limit, reached), "
                  "filled and churned once through first, so that each "
                  "insert evicts one entry.")
md.append("")
md.append("– : no such call in that implementation's API.")
with open(f"{out}/instructions.md", "w") as f:
    f.write("\n".join(md) + "\n")
print(f"instructions.sh: {out}/instructions.md, {out}/instructions.json")
EOF
