# SPDX-License-Identifier: BSD-2-Clause
"""data.py - the reader of the drivers' JSON (the runs of the regime most
runs saw) and a machine-readable summary beside each file.

summarize() writes DIR/NAME.summary.json beside DIR/NAME.json: the machine
(from the JSON's context), the kernel, compilers and build type (from its
"grain" object), the checkout's revision now and at run time, the regime
kept and the runs dropped, and:
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

REGIMES = ("cheap", "middle", "dear")  # the counter regime's values


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
    """One JSON file: its context, the driver's "grain" object, and per case
    (the tuple of case_parts()) the runs that went well in the regime most
    runs saw (`regime` says which; runs of other regimes are dropped) and
    Google Benchmark's aggregates, which only a file without its runs
    (written before the drivers kept them) falls back on."""

    def __init__(self, path):
        with open(path) as f:
            doc = json.load(f)
        self.context = doc.get("context", {})
        self.grain = doc.get("grain", {})
        self.benchmarks = doc.get("benchmarks", [])
        self.aggregates, self.runs = {}, {}
        for b in self.benchmarks:
            key = case_parts(b["name"])
            if b.get("run_type") == "aggregate":
                self.aggregates.setdefault(b.get("aggregate_name"), {})[key] = b
            elif not b.get("error_occurred"):
                self.runs.setdefault(key, []).append(b)
        self.regime = self.grain.get("majority_regime") or self._majority()
        self.dropped = 0
        for key, runs in self.runs.items():
            kept = [r for r in runs if REGIMES[int(r.get("regime", 0))] == self.regime]
            self.dropped += len(runs) - len(kept)
            self.runs[key] = kept

    def _majority(self):
        """The regime most runs saw (the cheaper of a tie), None without runs."""
        count = [0] * len(REGIMES)
        for runs in self.runs.values():
            for r in runs:
                count[int(r.get("regime", 0))] += 1
        return REGIMES[count.index(max(count))] if any(count) else None

    def keys(self):
        return set(k for k, v in self.runs.items() if v) | set(self.aggregates.get("median", {}))

    def values(self, key, counter):
        """`counter` of every kept run of case `key`."""
        return [r[counter] for r in self.runs.get(key, []) if counter in r]

    def stat(self, key, counter, name="median"):
        """`counter`'s statistic `name` (median, mean, cv, min or max) over
        the kept runs of case `key`, else from the aggregates; None if
        neither has it."""
        vs = self.values(key, counter)
        if vs:
            if name == "cv":
                m = statistics.mean(vs)
                return statistics.pstdev(vs) / m if len(vs) > 1 and m else 0.0
            how = {"median": statistics.median, "mean": statistics.mean, "min": min,
                   "max": max}
            return how[name](vs) if name in how else None
        if key in self.runs and self.runs[key] == [] and self.grain:
            return None  # every run in another regime
        b = self.aggregates.get(name, {}).get(key)
        return b[counter] if b is not None and counter in b else None


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

def rnd(x, n=4):
    return None if x is None else float(f"{x:.{n}g}")


def geomean(xs):
    xs = [x for x in xs if x > 0]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else None


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
    g, u = doc.grain, platform.uname()
    src = os.path.basename(path)
    out = {
        "benchmark": name, "source": os.path.basename(path), "counter": counter,
        "ratio_meaning": (f"grain's median / the other's median of the counter {counter}, "
                          "same configuration and run; above 1: grain is faster"),
        "machine": {
            "host": ctx.get("host_name"), "num_cpus": ctx.get("num_cpus"),
            "mhz_per_cpu": ctx.get("mhz_per_cpu"),
            "cpu_scaling_enabled": ctx.get("cpu_scaling_enabled"), "cpu": g.get("cpu"),
            "caches": ctx.get("caches"), "load_avg": ctx.get("load_avg"),
            "benchmark_library_build_type": ctx.get("library_build_type"),
            "date": ctx.get("date"), "executable": ctx.get("executable")},
        "kernel": ({"value": g["kernel"], "from": src} if g.get("kernel") else
                   {"value": f"{u.system} {u.release} {u.machine}",
                    "from": "uname (when summarized)"}),
        "compiler": {"c": g.get("c_compiler"), "cxx": g.get("cxx_compiler"),
                     "build_type": g.get("build_type"),
                     "from": src if g.get("c_compiler") else None},
        "git": dict(git_now(repo), revision_at_run=g.get("revision")),
        "regime": doc.regime, "runs_dropped": doc.dropped,
        "ratios": ratios,
        "overview": overview(ratios),
    }
    dst = os.path.join(dirpath, name + ".summary.json")
    with open(dst, "w") as f:
        json.dump(out, f, indent=1)
        f.write("\n")
    return dst, len(ratios)
