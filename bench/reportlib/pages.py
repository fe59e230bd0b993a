# SPDX-License-Identifier: BSD-2-Clause
"""pages.py - the Markdown of a run: the results page (per family, the
regime, the command, grain against each anchor and baseline, the targets
with PASS or MISS, the charts) and the full tables (every case, every
counter). Every figure comes from the JSON that the drivers wrote."""

import os
import statistics

from .targets import RATE, counts

TITLES = {"ring": "grain_ring: bounded MPMC queue",
          "prio": "grain_prio: the pfifo_fast shape",
          "htab": "grain_htab: lock granularity",
          "reasm": "examples/reasm: IP fragment reassembly"}
# Counters every case has that the tables leave out (the regime is kept
# per family, and the rate has its own column).
NOT_SHOWN = {"dear_regime", "regime", "iterations", "repetitions", "repetition_index",
             "threads", "real_time", "cpu_time", "family_index",
             "per_family_instance_index"}


def fig(v, fmt="%.2f"):
    return "–" if v is None else fmt % v


def facts(doc):
    """The run's facts, as a list of lines: command, machine, regime."""
    g = doc.grain
    if not g:
        return ["- (no machine facts: a JSON written before the drivers kept them)"]
    reg = ", ".join(f"{r['name']} {r['runs']}" for r in g.get("regimes", []))
    others = g.get("others_cpu_pct")
    quick = ["- **A quick run** (the smoke test: short runs, few repetitions, fewer "
             "shapes): its figures show what the page holds, not how fast grain is; "
             "`bench/run` without --quick measures for decisions"] if g.get("quick") else []
    return quick + [
        f"- Command: `{g.get('command')}` ({g.get('reps')} runs of "
        f"{g.get('duration_ms')} ms per case, interleaved)",
        f"- Machine: {g.get('online_cpus')} online CPUs, {g.get('cpu')} ({g.get('caches')}), "
        f"{g.get('kernel')}; C {g.get('c_compiler')}, C++ {g.get('cxx_compiler')}, "
        f"build type {g.get('build_type')}; revision {g.get('revision')}; "
        f"{doc.context.get('date', '')}",
        f"- Load average before {g.get('load_before')}, after {g.get('load_after')}; "
        f"other processes took {fig(others, '%.0f')}% of the CPU time during the run",
        f"- Regime: round trip CPU 0 <-> CPU 1 median {fig(g.get('rtt_median_ns'), '%.0f')} ns; "
        f"runs per regime: {reg}; figures from the {doc.regime} regime only "
        f"({doc.dropped} runs of other regimes dropped)",
    ]


def scaled(counter, scale):
    """The scale of the rate's column for COUNTER: the rate's own for a
    rate (per second, of the run or of a CPU), else 1."""
    rate = counter is not None and counter.endswith(("_per_sec", "_per_consumer_cpu_s"))
    return scale if rate else 1.0


def targets_table(rows, fam):
    """The targets of one family: figures, ratio, required, verdict."""
    unit = RATE[fam][2]
    scale = RATE[fam][1]
    out = [f"| target | grain, {unit} | other, {unit} | measured | required | result |",
           "|---|---:|---:|---:|---:|---|"]
    for r in rows:
        if r.get("bound"):
            g, o = fig(r["grain"], "%.1f") + f" ({r['counter']})", "–"
            m, req = fig(r["value"], "%.1f"), f">= {r['required']:g}"
        else:
            s, so = scaled(r["counter"], scale), scaled(r.get("other_counter"), scale)
            g = fig(None if r["grain"] is None else r["grain"] * s)
            o = fig(None if r["other"] is None else r["other"] * so)
            m = fig(r["value"], "%.2fx")
            req = "–" if r["required"] is None else f"{r['required']:g}x"
        verdict = f"**{r['verdict']}**" if r["verdict"] in ("PASS", "MISS") else r["verdict"]
        out.append(f"| {r['what']} | {g} | {o} | {m} | {req} | {verdict} |")
    return out


# The grain configurations the results page sets against every other
# implementation (doc/bench/tables.md and NAME.summary.json have them all).
HEADLINE = {"ring": ("grain MPMC", "grain SPSC"), "prio": ("grain_prio",),
            "htab": ("grain/256", "grain-qsbr/256"), "reasm": ("stripes64",)}


def overview_table(fam, summary):
    """grain against each other implementation: the geometric mean, least
    and greatest ratio of medians over the configurations both ran that do
    not oversubscribe the machine."""
    out = ["| grain | against | what it is | configurations | geomean | min | max |",
           "|---|---|---|---:|---:|---:|---:|"]
    for row in summary.get("overview", []):
        if row["grain"] not in HEADLINE[fam]:
            continue
        o = dict(row["not_oversubscribed"], grain=row["grain"], other=row["other"],
                 other_kind=row["other_kind"])
        out.append(f"| {o['grain']} | {o['other']} | {o['other_kind']} | "
                   f"{o['configurations']} | {fig(o['geomean'], '%.2fx')} | "
                   f"{fig(o['min'], '%.2fx')} | {fig(o['max'], '%.2fx')} |")
    return out


def block(fam, doc, summary, rows, charts, plots_rel):
    """One family's section of the results page."""
    c = counts(rows)
    out = [f"## {TITLES[fam]}", "",
           f"`bench/run --only {fam}`; method: [bench/README.md](bench/README.md#{fam}); "
           f"every case: [doc/bench/tables.md](doc/bench/tables.md#{fam}).", ""]
    out += facts(doc) + ["", f"### Targets: {c.get('PASS', 0)} PASS, {c.get('MISS', 0)} MISS",
                         ""]
    out += targets_table(rows, fam) + ["", "### grain against each anchor and baseline", "",
                                       "Ratios of medians, same configuration and run, "
                                       "over the configurations that do not oversubscribe "
                                       "the machine (above 1: grain is faster).", ""]
    out += overview_table(fam, summary) + [""]
    for name in sorted(n for n in charts if n.startswith(fam) or
                       (fam == "prio" and n == "seed_pfifo") or
                       (fam == "reasm" and n == "seed_frag")):
        out += [f"![{name}]({plots_rel}/{name}.png)", ""]
    return out


def results_page(docs, summaries, rows, charts, plots_rel, date, dirpath):
    """The whole results page, as text, with the transmit ring's table
    (txring.md in dirpath, written by bench/run) where there is one."""
    c = counts(rows)
    out = ["# grain benchmarks", "",
           f"Generated by `bench/report.py` on {date} from the JSON that `bench/run` wrote; "
           "do not edit by hand: run `bench/run` (or `bench/run --md-only`) again. "
           "Every figure is a median of the runs of one regime, every comparison a ratio "
           "of medians measured in the same run; on a shared 2-core machine thread counts "
           "above 2 are oversubscribed. How each family measures: "
           "[bench/README.md](bench/README.md); every case and counter: "
           "[doc/bench/tables.md](doc/bench/tables.md); the investigations behind the "
           "figures: [doc/bench/](doc/bench/README.md). The targets live in "
           "[bench/targets.json](bench/targets.json).", "",
           f"Targets in all: {c.get('PASS', 0)} PASS, {c.get('MISS', 0)} MISS, "
           f"{c.get('not measured', 0)} not measured, {c.get('context', 0)} context rows.", ""]
    for fam in TITLES:
        if fam in docs:
            out += block(fam, docs[fam], summaries.get(fam, {}),
                         [r for r in rows if r["family"] == fam], charts, plots_rel)
    tx = os.path.join(dirpath, "txring.md")
    if os.path.isfile(tx):
        with open(tx) as f:
            out += ["## examples/reasm: PACKET_MMAP transmit ring against sendto()", "",
                    f.read().strip(), ""]
    return "\n".join(out).rstrip() + "\n"


def case_table(fam, doc):
    """Every case of one family: its kept runs, the rate and every other
    counter's median."""
    counter, scale, unit = RATE[fam]
    keys = sorted(k for k in doc.keys() if k and k[0] == fam)
    names = sorted({n for k in keys for r in doc.runs.get(k, []) for n, v in r.items()
                    if isinstance(v, (int, float)) and n not in NOT_SHOWN and n != counter})
    out = [f"| case | runs | {unit}, median (min–max) | " + " | ".join(names) + " |",
           "|---|---:|---:|" + "---:|" * len(names)]
    for k in keys:
        med = doc.stat(k, counter)
        lo, hi = doc.stat(k, counter, "min"), doc.stat(k, counter, "max")
        rate = "–" if med is None else f"{med * scale:.2f} ({lo * scale:.2f}–{hi * scale:.2f})"
        cells = []
        for n in names:
            vs = doc.values(k, n)
            cells.append(f"{statistics.median(vs):.4g}" if vs else "")
        out.append(f"| {'/'.join(k)} | {len(doc.runs.get(k, []))} | {rate} | " +
                   " | ".join(cells) + " |")
    return out


def tables_page(docs, dirpath, date):
    """The full tables: every case of every family, then the instruction
    counts if the run made them."""
    out = ["# grain benchmarks: every case", "",
           f"Generated by `bench/report.py` on {date} from the JSON that `bench/run` wrote "
           "(the results page is [BENCHMARKS.md](../../BENCHMARKS.md)). Each row: a case's "
           "runs of the regime most runs saw, the median (min–max) of its rate and the "
           "median of every other counter (bench/README.md says what each counts).", ""]
    for fam in TITLES:
        if fam in docs:
            out += [f"## {fam}", "", f"{TITLES[fam]}.", ""] + facts(docs[fam]) + [""]
            out += case_table(fam, docs[fam]) + [""]
    instr = os.path.join(dirpath, "instructions.md")
    if os.path.isfile(instr):
        with open(instr) as f:
            out += ["## Instructions per operation", "", f.read().strip(), ""]
    return "\n".join(out).rstrip() + "\n"
