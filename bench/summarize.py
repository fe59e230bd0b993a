#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""summarize.py - a machine-readable summary beside each benchmark result,
and the reader of bench/run's Google Benchmark JSON that plot.py shares.

Usage: bench/summarize.py DIR [NAME...]

For each DIR/NAME.json (every one in DIR without NAMEs) writes
DIR/NAME.summary.json: the machine (from the JSON's context), the kernel,
compilers and build type NAME.md states, the checkout's revision now and
NAME.md's at run time, and:
  ratios    for every configuration (a case's name less its
            implementation), grain's median / each other implementation's
            ("GRAIN / OTHER @ CONFIG"; above 1: grain is faster), with both
            medians and coefficients of variation, the threads, whether
            they oversubscribe the machine, and each side's median round
            trip (rtt_ns), share of dear-regime runs and regime (cheap,
            middle, dear, or mixed where its runs differ), and the pair's
  overview  per pair of implementations, the geometric mean, minimum and
            maximum of its ratios, over all configurations and over those
            that do not oversubscribe
Python 3 standard library only.
"""

import json
import math
import os
import platform
import re
import statistics
import subprocess
import sys


def case_parts(name):
    """('ring', 'MPMC', 'grain', '1P1C', 'single') of 'ring/MPMC/grain/1P1C/single/
    iterations:1/repeats:5/manual_time_median': the parts before the first 'key:value'
    or '*_time' one."""
    out = []
    for p in name.split("/"):
        if ":" in p or re.match(r"(manual|real|process)_time", p):
            break
        out.append(p)
    return tuple(out)


def threads_of(part):
    """The threads a name's part counts ('2P2C' 4, '8t' 8, '4W' 4), or None."""
    m = re.fullmatch(r"(\d+)P(\d+)C|(\d+)[tW]", part)
    if m is None:
        return None
    return int(m[3]) if m[3] else int(m[1]) + int(m[2])


def threads_in(config):
    return next((t for t in map(threads_of, config.values()) if t is not None), None)


class Doc:
    """One JSON file: its context, {aggregate: {case: entry}} (median, mean,
    cv, min, max...) and {case: [entries of runs that went well]}, a case
    being the tuple of case_parts(). The drivers report runs only where they
    have no aggregates (one repetition)."""

    def __init__(self, path):
        with open(path) as f:
            doc = json.load(f)
        self.context = doc.get("context", {})
        self.benchmarks = doc.get("benchmarks", [])
        self.aggregates, self.runs = {}, {}
        for b in self.benchmarks:
            key = case_parts(b["name"])
            if b.get("run_type") == "aggregate":
                self.aggregates.setdefault(b.get("aggregate_name"), {})[key] = b
            elif not b.get("error_occurred"):
                self.runs.setdefault(key, []).append(b)

    def keys(self):
        return set(self.aggregates.get("median", {})) | set(self.runs)

    def stat(self, key, counter, name="median"):
        """`counter`'s aggregate `name` (median, mean, cv, min or max) in case
        `key`, from the driver's aggregates or else its runs; None if neither."""
        b = self.aggregates.get(name, {}).get(key)
        if b is not None and counter in b:
            return b[counter]
        vs = [r[counter] for r in self.runs.get(key, []) if counter in r]
        how = {"median": statistics.median, "mean": statistics.mean, "min": min, "max": max}
        return how[name](vs) if vs and name in how else None


# Per family: the rate counter and how a case's name parts split into
# (implementation, configuration, whether it is ours), or None to skip it.
def split_ring(p):  # ring/MODE/IMPL/PxC/BATCH[/PLACE/CONSUMER]
    if len(p) < 5 or "_elem" in p[2]:  # the element rings: the summary's own table
        return None
    config = dict(zip(("threads", "batch", "placement", "consumer"),
                      p[3:7] if len(p) >= 7 else p[3:5]))
    return (f"grain {p[1]}" if p[2] == "grain" else p[2]), config, p[2] == "grain"


FAMILIES = {
    "ring": ("pairs_per_sec", split_ring),
    "prio": ("items_per_sec", lambda p: None if len(p) < 5 else (  # prio/PLACE/IMPL/DEQ/NP1C
        p[2], {"placement": p[1], "dequeue": p[3], "threads": p[4]}, p[2].startswith("grain"))),
    "htab": ("ops_per_sec", lambda p: None if len(p) < 4 else (  # htab/LOAD/Nt/IMPL[/STRIPES]
        "/".join(p[3:]), {"workload": p[1], "threads": p[2]}, p[3].startswith("grain"))),
    # reasm/LOAD/LOCK/NW[/FANOUT]: both sides are grain_htab in the engine;
    # the striped table is "ours" against its one-lock configuration.
    "reasm": ("dgrams_per_sec", lambda p: None if len(p) < 4 else (
        p[2], {"workload": p[1], "threads": p[3], "fanout": p[4] if len(p) > 4 else "-"},
        p[2].startswith("stripes"))),
}

# What each other implementation is, for the reader of a ratio.
KIND = {
    "mutex": "baseline: one global lock (pthread mutex)",
    "twolock": "baseline: producer lock + consumer lock (ptr_ring style)",
    "twolock_pspin": "baseline: twolock with pthread spinlocks (never yield)",
    "scq": "prototype: fetch-and-add tickets a dequeuer may give up (SCQ)",
    "pfifo_spin": "baseline: one global spinlock over three lists",
    "pfifo_mutex": "baseline: one global mutex over three lists",
    "striped": "baseline: 256 spinlock stripes, bare chains",
    "ck_ring": "anchor: ConcurrencyKit ck_ring",
    "rte_ring": "anchor: DPDK rte_ring",
    "rte_ring_rts": "anchor: DPDK rte_ring, RTS sync mode",
    "rte_ring_hts": "anchor: DPDK rte_ring, HTS sync mode",
    "boost_queue": "anchor: Boost.Lockfree queue (fixed-size)",
    "boost_spsc": "anchor: Boost.Lockfree spsc_queue",
    "tbb_queue": "anchor: oneTBB concurrent_bounded_queue",
    "moody_queue": "anchor: moodycamel ConcurrentQueue, no tokens",
    "moody_queue_tok": "anchor: moodycamel ConcurrentQueue, producer and consumer tokens",
    "moody_blocking": "anchor: moodycamel BlockingConcurrentQueue (waiting consumers)",
    "moody_rwq": "anchor: moodycamel ReaderWriterQueue (SPSC)",
    "wfcqueue": "anchor: liburcu wfcqueue",
    "cds_lfht": "anchor: liburcu cds_lfht",
    "ck_ht": "anchor: ConcurrencyKit ck_ht",
    "tbb_hash_map": "anchor: oneTBB concurrent_hash_map",
    "libcuckoo": "anchor: libcuckoo cuckoohash_map",
    "libcds_michael": "anchor: libcds MichaelHashMap (hazard pointers)",
    "global": "the same engine with one global lock (1 stripe)",
    "librte_ip_frag": "anchor: DPDK librte_ip_frag, one thread, datagram made contiguous",
}
REGIMES = ("cheap", "middle", "dear")  # the counter regime's values


def rnd(x, n=4):
    return None if x is None else float(f"{x:.{n}g}")


def geomean(xs):
    xs = [x for x in xs if x > 0]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else None


def md_facts(path):
    """CPU, kernel, compilers, build type and revision as NAME.md states them
    ("- Machine: 2 online CPUs, AMD EPYC (L1 ...), Linux 6.1.0 x86_64")."""
    facts = dict.fromkeys(("kernel", "c", "cxx", "build_type", "revision", "cpu"))
    try:
        with open(path) as f:
            text = f.read()
    except OSError:
        return facts

    def find(rx, where):
        m = re.search(rx, where or "", re.M)
        return m[1].strip().rstrip(".;,") if m else None

    for s in re.split(r",\s+(?![^()]*\))", find(r"^- Machine: (.*)$", text) or ""):
        if re.match(r"(Linux|Darwin|FreeBSD)\b", s):
            facts["kernel"] = s
        elif s and not re.search(r"online CPUs?", s):
            facts["cpu"] = facts["cpu"] or s
    comp = find(r"^- Compilers?: (.*)$", text)
    facts.update(c=find(r"\bC (.+?)(?:,|;|$)", comp), cxx=find(r"\bC\+\+ (.+?)(?:,|;|$)", comp),
                 build_type=find(r"build type (\S+)", comp),
                 revision=find(r"^- Source revision: (.*)$", text))
    return facts


def git_now(cwd):
    def run(*args):
        r = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True)
        return r.stdout.strip() if r.returncode == 0 else None
    try:
        rev, status = run("rev-parse", "--short", "HEAD"), run("status", "--porcelain",
                                                                "--untracked-files=no")
    except OSError:
        return {"revision": None, "dirty": None}
    return {"revision": rev, "dirty": None if status is None else status != ""}


def side(doc, key, counter):
    """One case as a side of a ratio: its median, cv, median round trip, share
    of dear-regime runs and regime."""
    lo, hi = doc.stat(key, "regime", "min"), doc.stat(key, "regime", "max")
    return {"median": doc.stat(key, counter), "cv": doc.stat(key, counter, "cv"),
            "rtt_ns": doc.aggregates.get("median", {}).get(key, {}).get("rtt_ns"),
            "dear_share": doc.stat(key, "dear_regime", "mean"),
            "regime": None if lo is None or hi is None else
            REGIMES[int(lo)] if lo == hi else "mixed"}


def ratio(gi, g, oi, o, config, ncpu):
    t = threads_in(config)
    out = {"name": f"{gi} / {oi} @ {' '.join(config.values())}", "grain": gi, "other": oi,
           "other_kind": KIND.get(oi, "other"), "configuration": config, "threads": t,
           "oversubscribed": t is not None and t > ncpu,
           "ratio": rnd(g["median"] / o["median"]),
           "grain_median": rnd(g["median"], 6), "other_median": rnd(o["median"], 6),
           "grain_cv": rnd(g["cv"], 3), "other_cv": rnd(o["cv"], 3)}
    if g["regime"] is not None and o["regime"] is not None:
        for k, n in (("rtt_ns", 4), ("dear_share", 3)):
            out[f"grain_{k}"], out[f"other_{k}"] = rnd(g[k], n), rnd(o[k], n)
        out.update(grain_regime=g["regime"], other_regime=o["regime"],
                   regime=g["regime"] if g["regime"] == o["regime"] else "mixed")
    return out


def overview(ratios):
    def figures(rs):
        return {"configurations": len(rs), "geomean": rnd(geomean(rs)),
                "min": rnd(min(rs)) if rs else None, "max": rnd(max(rs)) if rs else None}
    out = []
    for gi, oi in sorted({(r["grain"], r["other"]) for r in ratios}):
        sel = [r for r in ratios if r["grain"] == gi and r["other"] == oi]
        out.append({"name": f"{gi} / {oi}", "grain": gi, "other": oi,
                    "other_kind": KIND.get(oi, "other"), **figures([r["ratio"] for r in sel]),
                    "not_oversubscribed": figures([r["ratio"] for r in sel
                                                   if not r["oversubscribed"]])})
    return out


def summarize(dirpath, name, repo):
    path = os.path.join(dirpath, name + ".json")
    doc = Doc(path)
    ctx = doc.context
    ncpu = int(ctx.get("num_cpus") or 0) or os.cpu_count()
    counter, split = FAMILIES.get(name, (None, None))
    if counter is None:  # an unknown family: its first *_per_sec counter
        counter = min((k for b in doc.benchmarks for k in b if k.endswith("_per_sec")),
                      default=None)
    groups, configs = {}, {}  # {configuration: {implementation: (side, ours)}}
    for key in doc.keys():
        s = split and key and key[0] == name and split(key)
        if s and doc.stat(key, counter) is not None:
            impl, config, ours = s
            ck = tuple(sorted(config.items()))
            configs[ck] = config
            groups.setdefault(ck, {})[impl] = (side(doc, key, counter), ours)
    ratios = []
    for ck in sorted(groups, key=lambda k: (threads_in(configs[k]) or 0,
                                            " ".join(configs[k].values()))):
        g = sorted(groups[ck].items())
        ratios += [ratio(gi, gs, oi, os_, configs[ck], ncpu) for gi, (gs, ours) in g if ours
                   for oi, (os_, oours) in g if not oours and os_["median"] > 0]
    md, u = md_facts(os.path.join(dirpath, name + ".md")), platform.uname()
    out = {
        "benchmark": name, "source": os.path.basename(path), "counter": counter,
        "ratio_meaning": (f"grain's median / the other's median of the counter {counter}, "
                          "same configuration and run; above 1: grain is faster"),
        "machine": {
            "host": ctx.get("host_name"), "num_cpus": ctx.get("num_cpus"),
            "mhz_per_cpu": ctx.get("mhz_per_cpu"),
            "cpu_scaling_enabled": ctx.get("cpu_scaling_enabled"), "cpu": md["cpu"],
            "caches": ctx.get("caches"), "load_avg": ctx.get("load_avg"),
            "benchmark_library_build_type": ctx.get("library_build_type"),
            "date": ctx.get("date"), "executable": ctx.get("executable")},
        "kernel": ({"value": md["kernel"], "from": name + ".md"} if md["kernel"] else
                   {"value": f"{u.system} {u.release} {u.machine}",
                    "from": "uname (when summarized)"}),
        "compiler": {"c": md["c"], "cxx": md["cxx"], "build_type": md["build_type"],
                     "from": name + ".md" if md["c"] or md["cxx"] else None},
        "git": dict(git_now(repo), revision_at_run=md["revision"]),
        "ratios": ratios,
        "overview": overview(ratios),
    }
    dst = os.path.join(dirpath, name + ".summary.json")
    with open(dst, "w") as f:
        json.dump(out, f, indent=1)
        f.write("\n")
    return dst, len(ratios)


def main(argv):
    if len(argv) < 2 or argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if len(argv) >= 2 else 2
    dirpath, names = argv[1], argv[2:]
    names = names or sorted(f[:-5] for f in os.listdir(dirpath) if f.endswith(".json") and
                            not f.endswith(".summary.json") and f != "instructions.json")
    repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    status = 0
    for n in names:
        try:
            dst, k = summarize(dirpath, n, repo)
            print(f"summarize.py: {dst} ({k} ratios)")
        except (OSError, ValueError, KeyError) as e:
            print(f"summarize.py: {n}: {e}", file=sys.stderr)
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv))
