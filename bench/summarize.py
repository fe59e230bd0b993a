#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""summarize.py - one machine-readable summary beside each benchmark result.

Usage: bench/summarize.py DIR [NAME...]

For each DIR/NAME.json (Google Benchmark JSON from bench/run; every
NAME.json in DIR when no NAME is given) writes DIR/NAME.summary.json:

  machine    from the JSON's context: host, num_cpus, mhz_per_cpu, caches,
             load average before the run, the Google Benchmark library's
             build type, date, executable
  kernel     the kernel the run names in NAME.md ("Machine:" line), else
             this machine's uname
  compiler   C and C++ compilers and the build type, as NAME.md states
             them (null where it does not)
  git        the revision of the checkout now (git rev-parse --short HEAD)
             and whether it has uncommitted changes, beside the revision
             NAME.md recorded at run time
  ratios     for every configuration (everything in a benchmark's name but
             the implementation), grain's median divided by each other
             implementation's median, one entry per pair, named
             "GRAIN / OTHER @ CONFIG"; with the two medians, their
             coefficients of variation, the thread count and whether the
             configuration oversubscribes the machine; and each side's
             median cache-line round trip before its runs (rtt_ns), the
             share of its runs in the dear regime (dear_share), its regime
             (the counter regime of every run: "cheap", "middle" or
             "dear", "mixed" where its runs differ) and the pair's (the
             sides' if they agree, else "mixed"), so that a reader can
             split the ratios by regime or drop the mixed ones
  overview   per pair of implementations, the geometric mean, minimum and
             maximum of those ratios, over all configurations and over
             those that do not oversubscribe

Ratios above 1 mean grain is faster. Python 3 standard library only.
"""

import json
import math
import os
import platform
import re
import subprocess
import sys

from benchjson import Doc, threads_of

# Per family: the throughput counter, and how to split a benchmark name
# (its parts before "iterations:") into (implementation, configuration).
# An implementation is "grain" (ours) or another one.


def split_ring(p):
    # ring/MODE/IMPL/PxC/BATCH[/PLACE/CONSUMER]
    if len(p) < 5:
        return None
    # The element rings (grain_elem*, rte_elem*: 1P1C burst32 only) have a
    # table of their own in the driver's summary; they are not pointer
    # queues to hold grain_ring against.
    if "_elem" in p[2]:
        return None
    impl = f"grain {p[1]}" if p[2] == "grain" else p[2]
    config = {"threads": p[3], "batch": p[4]}
    if len(p) >= 7:
        config["placement"] = p[5]
        config["consumer"] = p[6]
    return impl, config, p[2] == "grain"


def split_prio(p):
    # prio/PLACEMENT/IMPL/DEQ/NP1C
    if len(p) < 5:
        return None
    return (p[2], {"placement": p[1], "dequeue": p[3], "threads": p[4]},
            p[2].startswith("grain"))


def split_htab(p):
    # htab/WORKLOAD/Nt/IMPL[/STRIPES]
    if len(p) < 4:
        return None
    impl = "/".join(p[3:])
    return (impl, {"workload": p[1], "threads": p[2]},
            impl.startswith("grain"))


def split_reasm(p):
    # reasm/WORKLOAD/LOCK/NW: both sides are grain_htab inside the engine;
    # the striped table is "ours" against its own one-lock configuration.
    if len(p) < 4:
        return None
    return (p[2], {"workload": p[1], "threads": p[3]},
            p[2].startswith("stripes"))


FAMILIES = {
    "ring": ("pairs_per_sec", split_ring),
    "prio": ("items_per_sec", split_prio),
    "htab": ("ops_per_sec", split_htab),
    "reasm": ("dgrams_per_sec", split_reasm),
}

# What each other implementation is, for the reader of a ratio.
KIND = {
    "mutex": "baseline: one global lock (pthread mutex)",
    "twolock": "baseline: producer lock + consumer lock (ptr_ring style)",
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
    "wfcqueue": "anchor: liburcu wfcqueue",
    "cds_lfht": "anchor: liburcu cds_lfht",
    "ck_ht": "anchor: ConcurrencyKit ck_ht",
    "global": "the same engine with one global lock (1 stripe)",
    "librte_ip_frag": ("anchor: DPDK librte_ip_frag, one thread, datagram "
                       "made contiguous"),
}

# The counter regime's values (bench/common/driver.h).
REGIMES = ("cheap", "middle", "dear")


def threads_in(config):
    for v in config.values():
        t = threads_of(v)
        if t is not None:
            return t
    return None


def config_label(config):
    return " ".join(config.values())


def geomean(xs):
    xs = [x for x in xs if x > 0]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else None


def rnd(x, n=4):
    return None if x is None else float(f"{x:.{n}g}")


# --- NAME.md ----------------------------------------------------------------

def md_facts(path):
    """Kernel, compilers, build type and revision as NAME.md states them."""
    facts = {"kernel": None, "c": None, "cxx": None, "build_type": None,
             "revision": None, "cpu": None}
    try:
        with open(path) as f:
            text = f.read()
    except OSError:
        return facts
    m = re.search(r"^- Machine: (.*)$", text, re.M)
    if m:
        # "2 online CPUs, AMD EPYC (L1 ...), Linux 6.1.0 x86_64"
        parts = [s.strip() for s in re.split(r",\s+(?![^()]*\))", m[1])]
        for s in parts:
            if re.match(r"^(Linux|Darwin|FreeBSD)\b", s):
                facts["kernel"] = s
            elif not re.search(r"online CPUs?", s):
                facts["cpu"] = facts["cpu"] or s
    m = re.search(r"^- Compilers?: (.*)$", text, re.M)
    if m:
        line = m[1]
        c = re.search(r"\bC (.+?)(?:,|;|$)", line)
        cxx = re.search(r"\bC\+\+ (.+?)(?:,|;|$)", line)
        bt = re.search(r"build type (\S+)", line)
        facts["c"] = c[1].strip() if c else None
        facts["cxx"] = cxx[1].strip() if cxx else None
        facts["build_type"] = bt[1].rstrip(".;,") if bt else None
    m = re.search(r"^- Source revision: (.*)$", text, re.M)
    if m:
        facts["revision"] = m[1].strip()
    return facts


def git_now(cwd):
    def run(*args):
        r = subprocess.run(["git", *args], cwd=cwd, capture_output=True,
                           text=True)
        return r.stdout.strip() if r.returncode == 0 else None
    try:
        rev = run("rev-parse", "--short", "HEAD")
        status = run("status", "--porcelain", "--untracked-files=no")
    except OSError:
        return {"revision": None, "dirty": None}
    return {"revision": rev,
            "dirty": None if status is None else status != ""}


# --- one file ---------------------------------------------------------------

def summarize(dirpath, name, repo):
    path = os.path.join(dirpath, name + ".json")
    doc = Doc(path)
    ctx = doc.context
    ncpu = int(ctx.get("num_cpus") or 0) or os.cpu_count()
    counter, split = FAMILIES.get(name, (None, None))
    med = doc.aggregates.get("median", {})
    mean = doc.aggregates.get("mean", {})
    cv = doc.aggregates.get("cv", {})
    runs = doc.runs
    if counter is None:
        # An unknown family: the first *_per_sec counter it reports.
        names = sorted({k for b in doc.benchmarks for k in b
                        if k.endswith("_per_sec")})
        counter = names[0] if names else None

    def value(key):
        return doc.stat(key, counter)

    # Group by configuration: {config tuple: {impl: (value, cv, ours)}}
    groups, configs = {}, {}
    for key in doc.keys():
        parts = list(key)
        if split is None or not parts or parts[0] != name:
            continue
        s = split(parts)
        if s is None:
            continue
        impl, config, ours = s
        v = value(key)
        if v is None:
            continue
        ck = tuple(sorted(config.items()))
        configs[ck] = config
        c = cv.get(key, {}).get(counter)
        # The round-trip regime of the case's runs, where recorded.
        rtt = med.get(key, {}).get("rtt_ns")
        dear = mean.get(key, {}).get("dear_regime")
        if dear is None and runs.get(key):
            ds = [r["dear_regime"] for r in runs[key] if "dear_regime" in r]
            dear = sum(ds) / len(ds) if ds else None
        lo, hi = doc.stat(key, "regime", "min"), doc.stat(key, "regime", "max")
        regime = (None if lo is None or hi is None else
                  REGIMES[int(lo)] if lo == hi else "mixed")
        groups.setdefault(ck, {})[impl] = (v, c, ours, rtt, dear, regime)

    ratios = []
    for ck in sorted(groups, key=lambda k: (threads_in(configs[k]) or 0,
                                            config_label(configs[k]))):
        config, g = configs[ck], groups[ck]
        t = threads_in(config)
        for gi, (gv, gcv, ours, grtt, gdear, greg) in sorted(g.items()):
            if not ours:
                continue
            for oi, (ov, ocv, oours, ortt, odear, oreg) in sorted(g.items()):
                if oours or ov <= 0:
                    continue
                extra = {}
                if greg is not None and oreg is not None:
                    extra = {"grain_rtt_ns": rnd(grtt, 4),
                             "other_rtt_ns": rnd(ortt, 4),
                             "grain_dear_share": rnd(gdear, 3),
                             "other_dear_share": rnd(odear, 3),
                             "grain_regime": greg,
                             "other_regime": oreg,
                             "regime": greg if greg == oreg else "mixed"}
                ratios.append({
                    "name": f"{gi} / {oi} @ {config_label(config)}",
                    "grain": gi,
                    "other": oi,
                    "other_kind": KIND.get(oi, "other"),
                    "configuration": config,
                    "threads": t,
                    "oversubscribed": t is not None and t > ncpu,
                    "ratio": rnd(gv / ov),
                    "grain_median": rnd(gv, 6),
                    "other_median": rnd(ov, 6),
                    "grain_cv": rnd(gcv, 3),
                    "other_cv": rnd(ocv, 3),
                    **extra,
                })

    overview = []
    pairs = sorted({(r["grain"], r["other"]) for r in ratios})
    for gi, oi in pairs:
        sel = [r for r in ratios if r["grain"] == gi and r["other"] == oi]
        fit = [r["ratio"] for r in sel if not r["oversubscribed"]]
        alls = [r["ratio"] for r in sel]
        overview.append({
            "name": f"{gi} / {oi}",
            "grain": gi, "other": oi, "other_kind": KIND.get(oi, "other"),
            "configurations": len(alls),
            "geomean": rnd(geomean(alls)),
            "min": rnd(min(alls)), "max": rnd(max(alls)),
            "not_oversubscribed": {
                "configurations": len(fit),
                "geomean": rnd(geomean(fit)),
                "min": rnd(min(fit)) if fit else None,
                "max": rnd(max(fit)) if fit else None,
            },
        })

    md = md_facts(os.path.join(dirpath, name + ".md"))
    u = platform.uname()
    out = {
        "benchmark": name,
        "source": os.path.basename(path),
        "counter": counter,
        "ratio_meaning": ("grain's median / the other's median of the "
                          f"counter {counter}, same configuration and "
                          "run; above 1: grain is faster"),
        "machine": {
            "host": ctx.get("host_name"),
            "num_cpus": ctx.get("num_cpus"),
            "mhz_per_cpu": ctx.get("mhz_per_cpu"),
            "cpu_scaling_enabled": ctx.get("cpu_scaling_enabled"),
            "cpu": md["cpu"],
            "caches": ctx.get("caches"),
            "load_avg": ctx.get("load_avg"),
            "benchmark_library_build_type": ctx.get("library_build_type"),
            "date": ctx.get("date"),
            "executable": ctx.get("executable"),
        },
        "kernel": ({"value": md["kernel"], "from": name + ".md"}
                   if md["kernel"] else
                   {"value": f"{u.system} {u.release} {u.machine}",
                    "from": "uname (when summarized)"}),
        "compiler": {"c": md["c"], "cxx": md["cxx"],
                     "build_type": md["build_type"],
                     "from": name + ".md" if md["c"] or md["cxx"] else None},
        "git": dict(git_now(repo), revision_at_run=md["revision"]),
        "ratios": ratios,
        "overview": overview,
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
    dirpath = argv[1]
    names = argv[2:]
    if not names:
        names = sorted(f[:-5] for f in os.listdir(dirpath)
                       if f.endswith(".json") and
                       not f.endswith(".summary.json") and
                       f != "instructions.json")
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
