#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""plot.py - draw grain's benchmark results as PNG charts with gnuplot.

Usage: bench/plot.py DIR [--out PLOTDIR]

Reads the Google Benchmark JSON files that bench/run writes into DIR
(ring.json, prio.json, htab.json and reasm.json, each if present) and
writes into PLOTDIR (default DIR/plots) one PNG per chart, beside the
gnuplot script that drew it (NAME.gp, the data inline, so a chart can be
redrawn or restyled by hand):

  ring_single.png    ring, one token per call: pairs/s by configuration
  ring_bulk32.png    ring, batches of 32
                     (ring_BATCH_PLACE_CONSUMER.png, one per placement and
                     consumer, when the names carry them: pin_poll,
                     nopin_poll, pin_wait, nopin_wait)
  prio_own_core.png  prio, consumer alone on CPU 0: items/s by producers
  prio_unpinned.png  prio, no pinning
  htab_threads.png   htab, each workload: operations/s by threads
  htab_stripes.png   htab, lock granularity: grain_htab by stripe count,
                     with the one-lock and 256-spinlock baselines
  reasm_workers.png  reassembly, Gbit/s by workers, one lock against 64
  seed_pfifo.png     the lockless-pfifo_fast post's table beside prio
  seed_frag.png      the frag-queue post's table; beside it, in panels and
                     on axes of their own, reasm's in-memory Gbit/s and
                     the per-bucket / one-lock ratios of both

Every figure is a median: the *_median aggregates of the JSON, or the
median of the repetitions when a file has no aggregates. Each of our
throughput points has an error bar from the minimum to the maximum of its
repetitions, where the JSON has them (min and max aggregates, or the
single runs); a chart whose JSON has neither says so in its y label.
Points on a categorical x axis (the ring's P/C configurations) are not
joined; lines join only ordered counts (threads, producers, stripes).
Thread counts above the machine's CPUs (num_cpus in the JSON's context)
are shaded as oversubscribed. Python 3 standard library (and
bench/benchjson.py) and gnuplot (pngcairo terminal if it has one, png
otherwise); nothing else.
"""

import argparse
import collections
import os
import re
import shutil
import subprocess
import sys

from benchjson import Doc, threads_of

FAMILIES = ("ring", "prio", "htab", "reasm")

# The counter each family reports its throughput in, and its scale.
RATE = {
    "ring": ("pairs_per_sec", 1e-6),
    "prio": ("items_per_sec", 1e-6),
    "htab": ("ops_per_sec", 1e-6),
    "reasm": ("gbit_per_sec", 1.0),
}

# --- the seeds' tables ------------------------------------------------------

# pktgen packets per second through pfifo_fast as the root qdisc, by
# pktgen thread count: the classic locked qdisc ("original") against
# per-band lockless arrays ("lockless").
SEED_PFIFO_SOURCE = (
    "netdev, 14 July 2016, \"Re: [RFC PATCH v2 08/10] net: sched: "
    "pfifo_fast use alf_queue\" (John Fastabend, quoting Alexei "
    "Starovoitov's table; Message-ID 57882945.4090101@gmail.com)")
SEED_PFIFO = [  # threads, original pps, lockless pps
    (1, 1418168, 1269450),
    (2, 1587390, 1553408),
    (4, 1084961, 1683639),
    (8, 989636, 1522723),
    (12, 1014018, 1348172),
]

# Mbit/s of 20 Gbit/s UDP fragment tests, by tree. B is the tree before
# per-hash-bucket locking, C the same tree with it.
SEED_FRAG_SOURCE = (
    "netdev, April 2013, \"Re: [net-next PATCH 3/3] net: frag queue per "
    "hash bucket locking\" (Jesper Dangaard Brouer)")
SEED_FRAG_TESTS = ["20G64K", "20G3F", "20G64K+DoS", "20G3F+DoS",
                   "20G64K+MQ", "20G3F+MQ"]
SEED_FRAG = [  # row, what, Mbit/s per test as SEED_FRAG_TESTS
    ("A", "Patch-02", [18848.7, 13230.1, 4103.04, 5310.36, 130.0, 440.2]),
    ("B", "1b5ab0de, one lock",
     [18841.5, 13156.8, 4101.08, 5314.57, 129.0, 424.2]),
    ("C", "Patch-03v1, per-bucket locks",
     [18838.0, 13490.5, 4405.11, 6814.72, 196.6, 461.6]),
    ("D", "a210576c", [18321.5, 11250.4, 3635.34, 5160.13, 119.1, 405.2]),
    ("E", "Patch-03 with _bh",
     [17247.3, 11492.6, 3994.74, 6405.29, 166.7, 413.6]),
    ("F", "Patch-03 without _bh",
     [17471.3, 11298.7, 3818.05, 6102.11, 165.7, 406.3]),
]
# Our reassembly workloads and the seed's test each stands beside.
REASM_VS_SEED = [("64K", "20G64K"), ("3F", "20G3F"),
                 ("64K+DoS", "20G64K+DoS"), ("3F+DoS", "20G3F+DoS")]

# --- reading results --------------------------------------------------------

class Results:
    """One family's cases: rate() gives a case's median (or min, max) of
    the family's throughput counter, scaled."""

    def __init__(self, family, path):
        self.doc = Doc(path)
        self.family = family
        self.context = self.doc.context
        self.ncpu = int(self.context.get("num_cpus") or 0) or os.cpu_count()
        self.cases = self.doc.keys()
        counter = RATE[family][0]
        # Min-max bars need each case's extremes: min and max aggregates,
        # or the single runs; a file with neither gets points alone.
        self.spread = any(self.doc.stat(k, counter, "min") is not None and
                          (k in self.doc.aggregates.get("min", {}) or
                           len(self.doc.runs.get(k, [])) > 1)
                          for k in self.cases)

    def rate(self, key, stat="median"):
        counter, scale = RATE[self.family]
        v = self.doc.stat(tuple(key), counter, stat)
        return None if v is None else v * scale

    def cols(self, key):
        """Median, min and max of a case as datablock columns (min and
        max fall back to the median)."""
        med = self.rate(key)
        lo, hi = self.rate(key, "min"), self.rate(key, "max")
        return [num(med), num(med if lo is None else lo),
                num(med if hi is None else hi)]


def load(dirpath):
    found = {}
    for fam in FAMILIES:
        p = os.path.join(dirpath, fam + ".json")
        if os.path.isfile(p):
            try:
                found[fam] = Results(fam, p)
            except (OSError, ValueError, KeyError) as e:
                print(f"plot.py: {p}: unreadable ({e}); skipped",
                      file=sys.stderr)
    return found


# --- gnuplot ----------------------------------------------------------------

def gp_str(s):
    """A gnuplot double-quoted string (escapes processed: \\n is a line
    break)."""
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') \
        .replace("\n", "\\n") + '"'


def num(v):
    return "NaN" if v is None else f"{v:.6g}"


def terminal():
    """'pngcairo' if this gnuplot has it, else 'png'."""
    try:
        r = subprocess.run(["gnuplot", "-e", "set terminal pngcairo"],
                           capture_output=True, text=True, timeout=30)
        if r.returncode == 0 and "unknown" not in r.stderr.lower():
            return "pngcairo"
    except (OSError, subprocess.SubprocessError):
        pass
    return "png"


def header(term, png, width, height):
    font = 'font "sans,10"' if term == "pngcairo" else ""
    return "\n".join([
        f"set terminal {term} size {width},{height} noenhanced {font}",
        f"set output {gp_str(png)}",
        "set grid ytics lc rgb '#dddddd'",
        "set key outside right top vertical Left reverse "
        "samplen 2 spacing 1.1",
        "set border 3",
        "set tics nomirror",
        "",
    ])


def datablock(name, rows):
    lines = [f"${name} << EOD"]
    lines += [" ".join(str(c) for c in r) for r in rows]
    lines.append("EOD")
    return "\n".join(lines) + "\n"


def oversub_rect(x_from, x_to, label=True):
    """Shade x_from..x_to (first axis units) as oversubscribed."""
    s = (f"set object 1 rect from {x_from}, graph 0 to {x_to}, graph 1 "
         "behind fc rgb '#f1e4e4' fs solid 1.0 noborder\n")
    if label:
        s += (f"set label 1 'oversubscribed' at {x_to}, graph 0.98 "
              "right offset -0.5,0 tc rgb '#a05050'\n")
    return s


# Multiplot panels of equal width that leave the right of the picture to
# one key, drawn by the last panel; KEY_PX pixels hold the longest label.
KEY_PX = 330


def key_panels(ncol, panel_px, title):
    """ncol panels of panel_px pixels and the key at their right: the
    multiplot command, the picture's width and where the key starts (in
    screen units)."""
    width = panel_px * ncol + KEY_PX
    right = 1 - (KEY_PX - 10) / width
    return (f"set multiplot layout 1,{ncol} margins 0.05, {right}, 0.12, "
            f"0.88 spacing 0.05, 0.1 title {gp_str(title)}\n", width, right)


def htab_panel(res, n, ncol, w, right):
    """The n-th of ncol htab panels, workload w: its title, the y label
    on the first, the key on the last."""
    return (f"set title {gp_str(HTAB_WORKLOADS.get(w, w))}\n" +
            (f"set ylabel 'million operations/s, {spread_note(res)}'\n"
             if n == 0 else "unset ylabel\n") +
            (f"set key at screen {right + 0.01}, 0.86 left top\n"
             if n == ncol - 1 else "unset key\n"))


# One key for a multiplot, across the foot of the picture (drawn by the
# first panel; the panels' margins leave room for it).
BOTTOM_KEY = ("set key at screen 0.5, screen 0.02 center bottom horizontal "
              "maxcols 4 width 2\n")

# Seed charts: panels side by side, their keys below them, and a strip at
# the foot for the source.
SEED_KEY = "set key at graph 0, graph -0.16 left top vertical maxrows 6\n"


def seed_margins(panels):
    left = 0.06 if panels > 1 else 0.1
    return f"margins {left}, 0.98, 0.30, 0.88 spacing 0.07, 0.1"


def source_label(source):
    """The seed's source in small print at the foot of the picture (drawn
    with the next plot only: unset label 99 after it)."""
    return (f"set label 99 {gp_str('Source: ' + source)} at screen 0.005, "
            "screen 0.012 left font ',8' tc rgb '#5e5c64'\n")


def seed_multiplot(panels, title, source):
    """A seed chart's panels, its source at the foot, clustered bars."""
    return (f"set multiplot layout 1,{panels} {seed_margins(panels)} "
            f"title {gp_str(title)}\n" + source_label(source) +
            "set style data histograms\n"
            "set style histogram clustered gap 1\n"
            "set style fill solid 0.85 border -1\nset boxwidth 0.9\n"
            "set yrange [0:*]\n" + SEED_KEY)


def plot_cmd(plots):
    """One gnuplot plot command of the series `plots`."""
    return "plot " + ", \\\n     ".join(plots) + "\n"


def bars(block, series, spread=None, quote=lambda t: f"'{t}'", xtic=True):
    """Clustered bars of datablock `block`, one per (column, colour,
    title) of `series`, x tics from column 2 if xtic. With spread (our
    medians, min and max in the two columns after each): min-max error
    bars if true, and the style reset after."""
    plots = []
    for j, (c, colour, title) in enumerate(series):
        using = f"{c}:{c + 1}:{c + 2}" if spread else f"{c}"
        tic = ":xtic(2)" if xtic and j == 0 else ""
        plots.append(f"{block if j == 0 else chr(39) * 2} using {using}"
                     f"{tic} lc rgb '{colour}' title {quote(title)}")
    return ("set style histogram errorbars gap 1 lw 1\n" if spread else
            "") + plot_cmd(plots) + (
                "" if spread is None else
                "set style histogram clustered gap 1\n")


def ratio_panel(title, block, series):
    """A panel of ratios (1 marked by a dashed line) as bars."""
    return (f"set title {title}\nset ylabel 'ratio (1 = no change)'\n"
            "set arrow 1 from graph 0, first 1 to graph 1, first 1 "
            "nohead dt 2 lc rgb 'black' front\n" + bars(block, series))


# Colours that stay apart in print and for the common colour blindness;
# grain first, in the strongest.
PALETTE = ["#1a5fb4", "#e66100", "#26a269", "#a51d2d", "#613583",
           "#986a44", "#5e5c64", "#c061cb", "#2ec27e", "#f5c211"]


# One chart: NAME.png and NAME.gp, width x height pixels, its script.
Chart = collections.namedtuple("Chart", "name width height script")


def cols_of(res, key):
    """Results.cols of a case, or three NaN where there is no such case."""
    return ["NaN"] * 3 if key is None else res.cols(key)


def rate_plot(block, j, x, style, title, spread, lines):
    """One throughput series of a datablock written with Results.cols (the
    j-th: columns 2 + 3j .. 4 + 3j): points, joined by lines only where x
    is an ordered quantity (lines=False for categories), with min-max
    error bars when the results have them."""
    c = 2 + 3 * j
    if spread:
        how = (f"using {x}:{c}:{c + 1}:{c + 2} with "
               f"{'yerrorlines' if lines else 'yerrorbars'}")
    else:
        how = f"using {x}:{c} with {'linespoints' if lines else 'points'}"
    return f"{block} {how} {style} title {gp_str(title)}"


def spread_note(res):
    return ("median, bars min–max" if res.spread else
            "median (no min–max in the JSON)")


def log2_xaxis(xs, label, first_over):
    """A log2 x axis over the thread counts xs, the counts from first_over
    on shaded as oversubscribed."""
    s = f"set xlabel {gp_str(label)}\nset logscale x 2\n"
    s += "set xtics (" + ", ".join(f'"{x}" {x}' for x in xs) + ")\n"
    lo, hi = xs[0] / 1.3, xs[-1] * 1.3
    s += f"set xrange [{lo}:{hi}]\nset yrange [0:*]\n"
    over = [x for x in xs if x >= first_over]
    if over:
        below = [x for x in xs if x < first_over]
        s += oversub_rect((below[-1] * over[0]) ** 0.5 if below else lo, hi)
    return s


# --- charts -----------------------------------------------------------------

def ring_charts(res):
    """Throughput of every queue by configuration (threads), one chart per
    batch kind that every MPMC queue runs."""
    cpus = res.ncpu
    configs, impls, batches, variants = {}, [], [], []
    for key in res.cases:
        if len(key) < 5 or key[0] != "ring":
            continue
        mode, impl, cfg, batch = key[1], key[2], key[3], key[4]
        if "_elem" in impl:
            continue  # element rings: the driver's summary table only
        var = tuple(key[5:7])
        if var not in variants:
            variants.append(var)
        t = threads_of(cfg)
        if t is None:
            continue
        configs[cfg] = t
        label = f"grain {mode}" if impl == "grain" else impl
        if (mode, impl, label) not in impls:
            impls.append((mode, impl, label))
        if batch not in batches:
            batches.append(batch)
    if not configs:
        return []
    order = sorted(configs, key=lambda c: (configs[c], c))
    # grain's MPMC mode first, then the other grain modes, then the rest
    # by name.
    impls.sort(key=lambda i: (i[1] != "grain", i[0] != "MPMC", i[2]))
    charts = []
    for batch, var in [(b, v) for b in ("single", "bulk32", "burst32")
                       if b in batches for v in variants]:
        series = []
        for mode, impl, label in impls:
            keys = [("ring", mode, impl, c, batch) + var for c in order]
            if any(res.rate(k) is not None for k in keys):
                series.append((label, keys))
        if not series:
            continue
        rows = [[i] + [v for _, keys in series for v in res.cols(keys[i])]
                for i in range(len(order))]
        first_over = next((i for i, c in enumerate(order)
                           if configs[c] > cpus), None)
        what = ("one token per call" if batch == "single" else
                f"bursts of {batch[5:]} (partial enqueue and dequeue)"
                if batch.startswith("burst") else
                f"batches of {batch[4:]} (all-or-nothing enqueue, "
                "as-many-as-ready dequeue; ck_ring and wfcqueue loop "
                "single calls)")
        title = f"grain_ring against the other queues: {what}"
        if var:
            title += f" ({'/'.join(var)})"
        s = datablock("d", rows)
        s += f"set title {gp_str(title)}\n"
        s += (f"set ylabel 'million pairs/s, {spread_note(res)}, "
              "log scale'\n")
        s += ("set xlabel 'configuration: P producer and C consumer "
              "threads' offset 0,-1\nset bmargin 5\n")
        s += "set logscale y\nset format y '%g'\n"
        tics = ", ".join(
            f'"{c}\\n{configs[c]} threads" {i}' for i, c in enumerate(order))
        s += f"set xtics ({tics})\n"
        s += f"set xrange [-0.5:{len(order) - 0.5}]\n"
        # Separate configurations: points side by side in each column,
        # no line from one configuration to the next.
        s += ("set grid xtics lc rgb '#eeeeee'\n"
              f"set xtics add ('' {len(order) - 0.5})\n")
        if first_over is not None:
            s += oversub_rect(first_over - 0.5, len(order) - 0.5)
        plots = []
        width = 0.7 / max(len(series), 1)
        for j, (label, _) in enumerate(series):
            off = (j - (len(series) - 1) / 2) * width
            lw = 2 if label == "grain MPMC" else 1
            plots.append(rate_plot(
                "$d", j, f"($1 + {off:.3f})",
                f"lw {lw} pt {5 + 2 * (j % 4)} ps 1.1 "
                f"lc rgb '{PALETTE[j % len(PALETTE)]}'", label,
                res.spread, lines=False))
        s += plot_cmd(plots)
        suffix = "".join("_" + v for v in var)
        charts.append(Chart(f"ring_{batch}{suffix}", 1100, 600, s))
    return charts


def prio_charts(res):
    """Items/s by producer count, every queue and dequeue kind, one chart
    per placement."""
    cpus = res.ncpu
    placements, impls, deqs, producers = [], [], [], set()
    for key in res.cases:
        if len(key) < 5 or key[0] != "prio":
            continue
        pl, impl, deq, cfg = key[1], key[2], key[3], key[4]
        m = re.match(r"^(\d+)P1C$", cfg)
        if not m:
            continue
        producers.add(int(m[1]))
        for lst, v in ((placements, pl), (impls, impl), (deqs, deq)):
            if v not in lst:
                lst.append(v)
    if not producers:
        return []
    ps = sorted(producers)
    rank = {"grain_prio": 0, "grain_prio_bits": 1, "pfifo_spin": 2,
            "pfifo_mutex": 3}
    impls.sort(key=lambda i: (rank.get(i, 9), i))
    deqs.sort(key=lambda d: (d != "single", d))
    names = {"grain_prio": "grain_prio",
             "grain_prio_bits": "grain_prio, 8 bands (bits)",
             "pfifo_spin": "spinlock baseline",
             "pfifo_mutex": "mutex baseline"}
    where = {"own_core": "consumer alone on CPU 0, producers on CPU 1",
             "unpinned": "no pinning: the scheduler places every thread"}
    charts = []
    for pl in placements:
        series = []
        for i, impl in enumerate(impls):
            for j, deq in enumerate(deqs):
                keys = [("prio", pl, impl, deq, f"{p}P1C") for p in ps]
                if any(res.rate(k) is not None for k in keys):
                    series.append((f"{names.get(impl, impl)}, {deq}",
                                   keys, i, j))
        if not series:
            continue
        rows = [[p] + [v for _, keys, _, _ in series
                       for v in res.cols(keys[k])]
                for k, p in enumerate(ps)]
        title = (f"grain_prio against a locked pfifo_fast, three bands: "
                 f"{pl} ({where.get(pl, pl)})")
        s = datablock("d", rows)
        s += f"set title {gp_str(title)}\n"
        s += f"set ylabel 'million items dequeued/s, {spread_note(res)}'\n"
        # Oversubscribed from P + 1 > cpus, i.e. P >= cpus.
        s += log2_xaxis(ps, "producers (threads = producers + 1 consumer), "
                        "log scale", cpus)
        plots = []
        for k, (label, _, i, j) in enumerate(series):
            plots.append(rate_plot(
                "$d", k, "1",
                f"lw {2.5 if i == 0 else 1.5} dt {1 + j} pt {5 + 2 * i} "
                f"lc rgb '{PALETTE[i % len(PALETTE)]}'", label,
                res.spread, lines=True))
        s += plot_cmd(plots)
        charts.append(Chart(f"prio_{pl}", 1100, 600, s))
    return charts


HTAB_WORKLOADS = {"read90": "90% lookup, 5% insert, 5% remove",
                  "mix50": "50% lookup, 25% insert, 25% remove",
                  "churn": "churn: every op inserts into a full table "
                           "and evicts"}


HTAB_LABEL = {"grain/1": "grain/1 (one stripe)",
              "grain-rcu/256": "grain-rcu/256 (RCU lookups)",
              "grain-qsbr/256": "grain-qsbr/256 (RCU lookups, qsbr)",
              "mutex": "mutex baseline (1 lock)",
              "striped": "striped baseline (256 spinlocks)",
              "cds_lfht": "cds_lfht (liburcu)",
              "ck_ht": "ck_ht (ConcurrencyKit)"}
# The baselines drawn on the stripes chart, at their lock count.
HTAB_REFS = [("mutex", 1), ("striped", 256)]
HTAB_REF_PT = {"mutex": 9, "striped": 13}


def htab_index(res):
    """{(workload, impl label): {threads: case key}}, impl labels as in
    the summaries ('grain/256', 'grain-rcu/256', 'mutex', ...)."""
    out, workloads, impls, threads = {}, [], [], set()
    for key in res.cases:
        if len(key) < 4 or key[0] != "htab":
            continue
        w, t = key[1], threads_of(key[2])
        if t is None:
            continue
        impl = "/".join(key[3:])
        if res.rate(key) is None:
            continue
        out.setdefault((w, impl), {})[t] = key
        threads.add(t)
        if w not in workloads:
            workloads.append(w)
        if impl not in impls:
            impls.append(impl)
    order = list(HTAB_WORKLOADS)
    workloads.sort(key=lambda w: (order.index(w) if w in order else 99, w))
    return out, workloads, impls, sorted(threads)


def stripes_of(impl):
    m = re.match(r"^grain/(\d+)$", impl)
    return int(m[1]) if m else None


def htab_charts(res):
    idx, workloads, impls, threads = htab_index(res)
    if not idx:
        return []
    cpus = res.ncpu
    charts = []
    ncol = len(workloads)

    # 1. Operations/s by threads, every table; of grain's stripe counts
    # only 1 (its global lock) and 256 (as the striped baseline), the
    # rest are in the stripes chart.
    shown = [i for i in impls if stripes_of(i) in (None, 1, 256)]
    shown.sort(key=lambda i: (not i.startswith("grain"),
                              stripes_of(i) or 10**6, i))
    s = ""
    for w in workloads:
        rows = [[t] + [v for i in shown
                       for v in cols_of(res, idx.get((w, i), {}).get(t))]
                for t in threads]
        s += datablock(w.replace("-", "_"), rows)
    title = ("grain_htab against the baselines and anchors: throughput by "
             "threads (1M-key universe, 500k entries)")
    multiplot, width, right = key_panels(ncol, 400, title)
    s += multiplot
    s += log2_xaxis(threads, "threads", cpus + 1)
    for n, w in enumerate(workloads):
        s += htab_panel(res, n, ncol, w, right)
        plots = []
        for j, impl in enumerate(shown):
            lw = 2.5 if impl.startswith("grain") else 1.5
            plots.append(rate_plot(
                f"${w.replace('-', '_')}", j, "1",
                f"lw {lw} pt {5 + 2 * (j % 4)} "
                f"lc rgb '{PALETTE[j % len(PALETTE)]}'",
                HTAB_LABEL.get(impl, impl), res.spread, lines=True))
        s += plot_cmd(plots)
    s += "unset multiplot\n"
    charts.append(Chart("htab_threads", width, 560, s))

    # 2. Lock granularity: grain_htab by stripe count at each thread
    # count, the one-mutex table at 1 lock and the striped table at its
    # 256 spinlocks beside it.
    grains = sorted({stripes_of(i) for i in impls} - {None})
    if len(grains) >= 2:
        s = ""
        for w in workloads:
            rows = []
            for st in grains:
                rows.append([st] + [
                    v for t in threads
                    for v in cols_of(res, idx.get((w, f"grain/{st}"), {})
                                     .get(t))])
            s += datablock(f"g_{w}", rows)
            for impl, x in HTAB_REFS:
                row = [x] + [v for t in threads
                             for v in cols_of(res, idx.get((w, impl), {})
                                              .get(t))]
                s += datablock(f"{impl}_{w}", [row])
        title = ("Lock granularity: grain_htab by stripe count (locked "
                 "lookups), with the baselines: one mutex (at 1) and 256 "
                 "spinlocks (at 256)")
        multiplot, width, right = key_panels(ncol, 420, title)
        s += multiplot
        s += "set xlabel 'lock stripes'\nset logscale x 2\n"
        s += ("set xtics (" + ", ".join(f'"{st}" {st}' for st in grains) +
              ")\n")
        s += f"set xrange [{grains[0] / 2}:{grains[-1] * 2}]\n"
        s += "set yrange [0:*]\n"
        for n, w in enumerate(workloads):
            s += htab_panel(res, n, ncol, w, right)
            plots = []
            for k, t in enumerate(threads):
                col = PALETTE[k % len(PALETTE)]
                o = t > cpus
                lab = (f"grain_htab, {t} thread{'s' if t > 1 else ''}" +
                       (" (oversubscribed)" if o else ""))
                plots.append(rate_plot(
                    f"$g_{w}", k, "1",
                    f"lw 2.5 dt {2 if o else 1} pt 7 lc rgb '{col}'", lab,
                    res.spread, lines=True))
                for impl, _ in HTAB_REFS:
                    plots.append(rate_plot(
                        f"${impl}_{w}", k, "1",
                        f"pt {HTAB_REF_PT[impl]} ps 2 lc rgb '{col}'", "",
                        res.spread, lines=False).replace(
                            'title ""', "notitle"))
            for impl, _ in HTAB_REFS:
                plots.append(
                    f"NaN with points pt {HTAB_REF_PT[impl]} ps 2 "
                    f"lc rgb 'black' title {gp_str(HTAB_LABEL[impl])}")
            s += plot_cmd(plots)
        s += "unset multiplot\n"
        charts.append(Chart("htab_stripes", width, 560, s))
    return charts


def reasm_index(res):
    """{(workload, lock): {workers: case key}}"""
    out, workers = {}, set()
    for key in res.cases:
        if len(key) < 4 or key[0] != "reasm":
            continue
        w = threads_of(key[3])
        if w is None or res.rate(key) is None:
            continue
        out.setdefault((key[1], key[2]), {})[w] = key
        workers.add(w)
    return out, sorted(workers)


def reasm_charts(res):
    idx, workers = reasm_index(res)
    if not idx:
        return []
    cpus = res.ncpu
    loads = [w for w, _ in REASM_VS_SEED if any(k[0] == w for k in idx)]
    locks = sorted({k[1] for k in idx}, key=lambda x: (x != "global", x))
    s = ""
    for n, w in enumerate(loads):
        rows = [[x] + [v for lk in locks
                       for v in cols_of(res, idx.get((w, lk), {}).get(x))]
                for x in workers]
        s += datablock(f"w{n}", rows)
    # Four panels above a strip for the one key.
    s += ("set multiplot layout 2,2 margins 0.08, 0.98, 0.14, 0.90 "
          "spacing 0.08, 0.14 title " + gp_str(
              "Fragment reassembly (examples/reasm engine, in memory): one "
              f"lock against per-bucket-group locks; {spread_note(res)}")
          + "\n")
    s += log2_xaxis(workers, "workers (threads)", cpus + 1)
    s += "set ylabel 'Gbit/s reassembled'\n"
    names = {"global": "one lock (1 stripe)",
             "stripes64": "64 stripes"}
    for n, w in enumerate(loads):
        s += f"set title {gp_str(w)}\n"
        s += BOTTOM_KEY if n == 0 else "unset key\n"
        plots = []
        for j, lk in enumerate(locks):
            plots.append(rate_plot(
                f"$w{n}", j, "1",
                f"lw 2.5 pt {5 + 2 * j} lc rgb '{PALETTE[(j + 1) % 2]}'",
                names.get(lk, lk), res.spread, lines=True))
        s += plot_cmd(plots)
    s += "unset multiplot\n"
    return [Chart("reasm_workers", 1100, 800, s)]


def seed_pfifo_chart(prio, ncpu):
    """The seed's pps table as bars, ours beside it (one consumer's
    items/s, consumer on its own core), and the two sets of ratios on one
    axis: the only figures comparable across machines."""
    ps = [p for p, _, _ in SEED_PFIFO]
    seed_rows = [[i, p, o / 1e6, lk / 1e6, lk / o]
                 for i, (p, o, lk) in enumerate(SEED_PFIFO)]
    ours, meds = [], []
    placement = "own_core"
    series = (("pfifo_spin", "single"), ("grain_prio", "single"),
              ("pfifo_spin", "burst32"), ("grain_prio", "burst32"))
    if prio is not None:
        for i, p in enumerate(ps):
            keys = [("prio", placement, impl, deq, f"{p}P1C")
                    for impl, deq in series]
            ours.append([i, p] + [v for k in keys for v in prio.cols(k)])
            meds.append([prio.rate(k) for k in keys])
        if all(v is None for m in meds for v in m):
            ours = []
    panels = 3 if ours else 1
    s = datablock("seed", seed_rows)
    if ours:
        def ratio(a, b):
            return "NaN" if None in (a, b) else f"{b / a:.4g}"
        rat = [[i, p, f"{r:.4g}", ratio(m[0], m[1]), ratio(m[2], m[3])]
               for (i, p, _, _, r), m in zip(seed_rows, meds)]
        s += datablock("ours", ours) + datablock("ratio", rat)
    xt = "set xtics (" + ", ".join(f'"{p}" {i}' for i, p in
                                   enumerate(ps)) + ")\n"
    title = ("The lockless-pfifo_fast table (netdev, July 2016)" +
             (" beside grain_prio" if ours else ""))
    s += seed_multiplot(panels, title, SEED_PFIFO_SOURCE)
    s += xt
    s += "set xlabel 'pktgen threads'\n"
    s += "set title " + gp_str(
        "Seed: pktgen through pfifo_fast as root qdisc\n"
        "(the poster's machine, in the kernel)") + "\n"
    s += "set ylabel 'million packets/s'\n"
    s += bars("$seed", [(3, "#9a9996", "original (one qdisc lock)"),
                        (4, "#5e5c64", "lockless (skb_array per band)")])
    s += "unset label 99\n"
    if ours:
        s += "set xlabel 'producers (1 consumer on its own core)'\n"
        s += "set title " + gp_str(
            "Ours: one consumer, this machine\n(oversubscribed from "
            f"{max(ncpu - 1, 1) + 1} producers on)") + "\n"
        s += f"set ylabel 'million items dequeued/s, {spread_note(prio)}'\n"
        s += bars("$ours", [(3, "#f9c19a", "spinlock baseline, single"),
                            (6, "#1a5fb4", "grain_prio, single"),
                            (9, "#e66100", "spinlock baseline, burst32"),
                            (12, "#99c1f1", "grain_prio, burst32")],
                  prio.spread)
        s += "set xlabel 'threads (seed) / producers (ours)'\n"
        s += ratio_panel("'Ratios: lockless / locked'", "$ratio", [
            (3, "#5e5c64", "seed: lockless / original"),
            (4, "#1a5fb4", "ours single: grain_prio / spinlock baseline"),
            (5, "#99c1f1", "ours burst32: grain_prio / spinlock baseline")])
    s += "unset multiplot\n"
    s += f"# Seed: {SEED_PFIFO_SOURCE}\n"
    return Chart("seed_pfifo", 560 * panels, 660, s)


def seed_frag_chart(reasm, ncpu):
    """The seed's Mbit/s table as bars (rows A-F by test); with reasm.json,
    in a panel and on an axis of their own, our 64K/3F/+DoS in Gbit/s at
    the largest worker count that is not oversubscribed, and the
    per-bucket / one-lock ratios of both (seed rows C / B) side by side."""
    s = ""
    seed_rows = []
    for t, test in enumerate(SEED_FRAG_TESTS):
        seed_rows.append([t, test] + [r[2][t] for r in SEED_FRAG])
    s += datablock("seed", seed_rows)
    ours = []
    workers = None
    if reasm is not None:
        idx, ws = reasm_index(reasm)
        fit = [w for w in ws if w <= ncpu]
        workers = fit[-1] if fit else (ws[0] if ws else None)
        for n, (w, test) in enumerate(REASM_VS_SEED):
            g = idx.get((w, "global"), {}).get(workers)
            st = idx.get((w, "stripes64"), {}).get(workers)
            if g is None and st is None:
                continue
            ti = SEED_FRAG_TESTS.index(test)
            b, c = SEED_FRAG[1][2][ti], SEED_FRAG[2][2][ti]
            gv = reasm.rate(g) if g else None
            sv = reasm.rate(st) if st else None
            ours.append([n, w] + cols_of(reasm, g) + cols_of(reasm, st) +
                        [f"{c / b:.4g}", num(sv / gv if gv and sv else None)])
    panels = 3 if ours else 1
    s += datablock("ours", ours) if ours else ""
    title = ("The frag-queue per-hash-bucket locking table "
             "(netdev, April 2013)" +
             (" beside examples/reasm" if ours else ""))
    s += seed_multiplot(panels, title, SEED_FRAG_SOURCE)
    s += "set title 'Seed: 20 Gbit/s UDP fragment tests, rows A-F'\n"
    s += ("set ylabel 'Mbit/s'\nset xlabel 'test' offset 0,-1\n"
          "set key maxrows 3 at graph 0, graph -0.22\n")
    grey = ["#c0bfbc", "#9a9996", "#1a5fb4", "#77767b", "#5e5c64",
            "#3d3846"]
    # Two-line tick labels ("20G64K" over "+DoS"): they sit side by side.
    tics = ", ".join(gp_str(t.replace("+", "\n+")) + f" {i}"
                     for i, t in enumerate(SEED_FRAG_TESTS))
    s += f"set xtics ({tics})\n"
    s += bars("$seed", [(j + 3, grey[j], row + ": " + what)
                        for j, (row, what, _) in enumerate(SEED_FRAG)],
              quote=gp_str, xtic=False)
    s += "set xtics autofreq\nunset label 99\n"
    if ours:
        # Ours on an axis of its own: an in-memory engine on this machine,
        # in Gbit/s, is not the seed's NIC test in Mbit/s.
        s += ("set title " + gp_str(
            f"Ours: examples/reasm in memory, {workers} workers, this "
            "machine\n(not comparable with the seed's NIC figures)") + "\n")
        s += (f"set ylabel 'Gbit/s reassembled, {spread_note(reasm)}'\n"
              "set xlabel 'workload' offset 0,0\n"
              "set key maxrows 6 at graph 0, graph -0.16\n")
        s += bars("$ours", [(3, "#f9c19a", "ours: one lock"),
                            (6, "#1a5fb4", "ours: 64 stripes")],
                  reasm.spread)
        s += ratio_panel(gp_str("Ratios, each against its own one-lock "
                                "figure:\nper-bucket locks / one lock"),
                         "$ours", [(9, "#5e5c64", "seed: row C / row B"),
                                   (10, "#1a5fb4",
                                    "ours: 64 stripes / one lock")])
    s += "unset multiplot\n"
    s += f"# Seed: {SEED_FRAG_SOURCE}\n"
    return Chart("seed_frag", 620 * panels if ours else 900, 660, s)


# --- main -------------------------------------------------------------------

def main():
    ap = argparse.ArgumentParser(
        description="Draw PNG charts of bench/run's results with gnuplot.")
    ap.add_argument("dir", help="results folder (NAME.json files)")
    ap.add_argument("--out", help="where the charts go (default DIR/plots)")
    args = ap.parse_args()

    if shutil.which("gnuplot") is None:
        print("plot.py: gnuplot not found (scripts/setup.sh installs "
              "gnuplot-nox)", file=sys.stderr)
        return 1
    res = load(args.dir)
    if not res:
        print(f"plot.py: no ring/prio/htab/reasm .json in {args.dir}",
              file=sys.stderr)
        return 1
    out = args.out or os.path.join(args.dir, "plots")
    os.makedirs(out, exist_ok=True)
    ncpu = next(iter(res.values())).ncpu

    charts = []
    for fam, draw in (("ring", ring_charts), ("prio", prio_charts),
                      ("htab", htab_charts), ("reasm", reasm_charts)):
        if fam in res:
            charts += draw(res[fam])
    charts.append(seed_pfifo_chart(res.get("prio"), ncpu))
    charts.append(seed_frag_chart(res.get("reasm"), ncpu))

    term = terminal()
    failed = 0
    for c in charts:
        png = os.path.join(out, c.name + ".png")
        gp = os.path.join(out, c.name + ".gp")
        with open(gp, "w") as f:
            f.write("# SPDX-License-Identifier: BSD-2-Clause\n")
            f.write(f"# {c.name}.gp - drawn by bench/plot.py from "
                    f"{os.path.abspath(args.dir)}; "
                    f"run: gnuplot {c.name}.gp\n")
            f.write(header(term, c.name + ".png", c.width, c.height))
            f.write(c.script)
        r = subprocess.run(["gnuplot", c.name + ".gp"], cwd=out,
                           capture_output=True, text=True)
        ok = (r.returncode == 0 and os.path.isfile(png) and
              os.path.getsize(png) > 0)
        if not ok:
            failed += 1
            print(f"plot.py: {gp}: gnuplot failed:\n{r.stderr}",
                  file=sys.stderr)
        else:
            print(f"plot.py: {png}")
            # gnuplot's warnings (an empty series, say) are worth seeing.
            for line in r.stderr.splitlines():
                if line.strip():
                    print(f"plot.py: {c.name}.gp: {line}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
