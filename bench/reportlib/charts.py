# SPDX-License-Identifier: BSD-2-Clause
"""charts.py - draw grain's benchmark results as PNG charts with gnuplot.

draw_all() reads the JSON that bench/run writes into DIR (ring, prio, htab
and reasm.json, each if present) and writes into PLOTDIR one PNG per chart
beside the gnuplot script that drew it (NAME.gp, the data inline, to redraw
or restyle by hand):

  ring_BATCH_PLACE_CONSUMER  pairs/s of every queue by P/C configuration
  prio_own_core, prio_unpinned  items/s by producers
  htab_threads       operations/s by threads, a panel per workload
  htab_stripes       grain_htab by stripe count, with the one-lock and
                     256-spinlock baselines
  reasm_workers      reassembly, Gbit/s by workers, one lock against 64
  seed_pfifo         the lockless-pfifo_fast post's table beside prio
  seed_frag          the frag-queue post's table; beside it, in panels and
                     on axes of their own, reasm's in-memory Gbit/s and the
                     per-bucket / one-lock ratios of both
(each chart only with its family's JSON, the seed charts included)

Every figure is a median, with an error bar from the minimum to the maximum
of its repetitions (a y label says so where the JSON lacks them). Points on
a categorical axis (the ring's configurations) are not joined; lines join
only ordered counts (threads, producers, stripes). Counts above the
machine's CPUs are shaded as oversubscribed. Needs gnuplot (pngcairo,
else png).
"""

import os
import shutil
import subprocess
import sys

from .data import Doc, threads_of

# Each family's throughput counter and its scale.
RATE = {"ring": ("pairs_per_sec", 1e-6), "prio": ("items_per_sec", 1e-6),
        "htab": ("ops_per_sec", 1e-6), "reasm": ("gbit_per_sec", 1.0)}

# pktgen packets per second through pfifo_fast as the root qdisc, by pktgen
# thread count: the locked qdisc ("original") against per-band lockless arrays.
SEED_PFIFO_SOURCE = (
    "netdev, 14 July 2016, \"Re: [RFC PATCH v2 08/10] net: sched: pfifo_fast use alf_queue\" "
    "(John Fastabend, quoting Alexei Starovoitov's table; Message-ID "
    "57882945.4090101@gmail.com)")
SEED_PFIFO = [(1, 1418168, 1269450), (2, 1587390, 1553408), (4, 1084961, 1683639),
              (8, 989636, 1522723), (12, 1014018, 1348172)]  # threads, original, lockless

# Mbit/s of 20 Gbit/s UDP fragment tests, by tree: B before per-hash-bucket
# locking, C the same tree with it.
SEED_FRAG_SOURCE = ("netdev, April 2013, \"Re: [net-next PATCH 3/3] net: frag queue per hash "
                    "bucket locking\" (Jesper Dangaard Brouer)")
SEED_FRAG_TESTS = ["20G64K", "20G3F", "20G64K+DoS", "20G3F+DoS", "20G64K+MQ", "20G3F+MQ"]
SEED_FRAG = [  # row, what, Mbit/s per test
    ("A", "Patch-02", [18848.7, 13230.1, 4103.04, 5310.36, 130.0, 440.2]),
    ("B", "1b5ab0de, one lock", [18841.5, 13156.8, 4101.08, 5314.57, 129.0, 424.2]),
    ("C", "Patch-03v1, per-bucket locks", [18838.0, 13490.5, 4405.11, 6814.72, 196.6, 461.6]),
    ("D", "a210576c", [18321.5, 11250.4, 3635.34, 5160.13, 119.1, 405.2]),
    ("E", "Patch-03 with _bh", [17247.3, 11492.6, 3994.74, 6405.29, 166.7, 413.6]),
    ("F", "Patch-03 without _bh", [17471.3, 11298.7, 3818.05, 6102.11, 165.7, 406.3]),
]
# Our reassembly workloads and the seed's test each stands beside.
REASM_VS_SEED = [("64K", "20G64K"), ("3F", "20G3F"), ("64K+DoS", "20G64K+DoS"),
                 ("3F+DoS", "20G3F+DoS")]

# Colours that stay apart in print and for the common colour blindness;
# grain first, in the strongest.
PALETTE = ["#1a5fb4", "#e66100", "#26a269", "#a51d2d", "#613583", "#986a44", "#5e5c64",
           "#c061cb", "#2ec27e", "#f5c211"]


class Results:
    """One family's cases: rate() is a case's median (or min, max) of the
    family's throughput counter, scaled."""

    def __init__(self, family, path):
        self.doc, self.family = Doc(path), family
        self.ncpu = int(self.doc.context.get("num_cpus") or 0) or os.cpu_count()
        self.cases = self.doc.keys()
        self.spread = bool(self.doc.aggregates.get("min"))  # min-max bars, or points alone
        self.note = "median, bars min–max" if self.spread else "median (no min–max in the JSON)"

    def rate(self, key, stat="median"):
        counter, scale = RATE[self.family]
        v = None if key is None else self.doc.stat(tuple(key), counter, stat)
        return None if v is None else v * scale

    def row(self, x, keys):
        """x, then the median, min and max of each case of keys as data
        columns (NaN for None: no such case; min and max fall back to the
        median)."""
        out = [x]
        for k in keys:
            med = self.rate(k)
            out += [num(med)] + [num(med if v is None else v)
                                 for v in (self.rate(k, "min"), self.rate(k, "max"))]
        return out

    def has(self, keys):
        return any(self.rate(k) is not None for k in keys)


# --- gnuplot --------------------------------------------------------------------------------


def gp_str(s):
    """A gnuplot double-quoted string (\\n in it a line break)."""
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def num(v):
    return "NaN" if v is None else f"{v:.6g}"


def datablock(name, rows):
    return "\n".join([f"${name} << EOD"] + [" ".join(map(str, r)) for r in rows] + ["EOD"]) + "\n"


def plot_cmd(plots):
    return "plot " + ", \\\n     ".join(plots) + "\n"


def oversub_rect(x_from, x_to):
    """Shade x_from..x_to (first axis units) as oversubscribed."""
    return (f"set object 1 rect from {x_from}, graph 0 to {x_to}, graph 1 behind "
            "fc rgb '#f1e4e4' fs solid 1.0 noborder\nset label 1 'oversubscribed' at "
            f"{x_to}, graph 0.98 right offset -0.5,0 tc rgb '#a05050'\n")


def xtics(pairs):
    return "set xtics (" + ", ".join(f"{label} {x}" for label, x in pairs) + ")\n"


def log2_xaxis(xs, label, first_over):
    """A log2 x axis over the counts xs, shaded from first_over on."""
    lo, hi = xs[0] / 1.3, xs[-1] * 1.3
    s = (f"set xlabel {gp_str(label)}\nset logscale x 2\n" + xtics((f'"{x}"', x) for x in xs) +
         f"set xrange [{lo}:{hi}]\nset yrange [0:*]\n")
    below = [x for x in xs if x < first_over]
    if len(below) < len(xs):
        s += oversub_rect((below[-1] * xs[len(below)]) ** 0.5 if below else lo, hi)
    return s


def rate_plot(res, block, j, x, style, title, lines):
    """The j-th throughput series of a datablock of Results.cols (columns 2 +
    3j .. 4 + 3j) against column x: points, joined only where x is an ordered
    count (lines), with min-max bars where res has them; no key entry for an
    empty title."""
    c = 2 + 3 * j
    how = (f"using {x}:{c}:{c + 1}:{c + 2} with {'yerrorlines' if lines else 'yerrorbars'}"
           if res.spread else f"using {x}:{c} with {'linespoints' if lines else 'points'}")
    return f"{block} {how} {style} " + (f"title {gp_str(title)}" if title else "notitle")


def bars(block, series, spread=None, quote=lambda t: f"'{t}'", xtic=True):
    """Clustered bars of `block`, one per (column, colour, title) of series,
    x tics from column 2 if xtic. spread is not None for our medians (min and
    max in the next two columns): then min-max error bars if it is true, and
    the style reset after."""
    return ("set style histogram errorbars gap 1 lw 1\n" if spread else "") + plot_cmd([
        f"{block if j == 0 else chr(39) * 2} using {f'{c}:{c + 1}:{c + 2}' if spread else c}"
        f"{':xtic(2)' if xtic and j == 0 else ''} lc rgb '{colour}' title {quote(title)}"
        for j, (c, colour, title) in enumerate(series)]) + (
            "" if spread is None else "set style histogram clustered gap 1\n")


def ratio_panel(title, block, series):
    """A panel of ratios as bars, 1 marked by a dashed line."""
    return (f"set title {title}\nset ylabel 'ratio (1 = no change)'\nset arrow 1 from graph 0, "
            "first 1 to graph 1, first 1 nohead dt 2 lc rgb 'black' front\n" + bars(block, series))


def seed_multiplot(panels, title, source):
    """A seed chart: panels side by side with their keys below them, the
    source in small print at the foot (until 'unset label 99'), bars."""
    return (f"set multiplot layout 1,{panels} margins {0.06 if panels > 1 else 0.1}, 0.98, "
            f"0.30, 0.88 spacing 0.07, 0.1 title {gp_str(title)}\n"
            f"set label 99 {gp_str('Source: ' + source)} at screen 0.005, screen 0.012 left "
            "font ',8' tc rgb '#5e5c64'\nset style data histograms\n"
            "set style histogram clustered gap 1\nset style fill solid 0.85 border -1\n"
            "set boxwidth 0.9\nset yrange [0:*]\n"
            "set key at graph 0, graph -0.16 left top vertical maxrows 6\n")


# --- charts: each a (name, width, height, script) ------------------------------------------

RING_BATCH = {
    "single": "one token per call",
    "bulk32": ("batches of 32 (all-or-nothing enqueue, as-many-as-ready dequeue; ck_ring and "
               "wfcqueue loop single calls)"),
    "burst32": "bursts of 32 (partial enqueue and dequeue)",
}


def ring_charts(res):
    """Every queue's pairs/s by configuration, a chart per batch kind and
    variant (placement, consumer), each configuration's points side by side
    in its column."""
    configs, impls, batches, variants = {}, {}, set(), {}
    for key in res.cases:
        if len(key) < 5 or key[0] != "ring" or "_elem" in key[2]:
            continue  # the element rings: in the tables only
        mode, impl, cfg, batch = key[1:5]
        variants[tuple(key[5:7])] = None
        if threads_of(cfg) is not None:
            configs[cfg] = threads_of(cfg)
            impls[mode, impl, f"grain {mode}" if impl == "grain" else impl] = None
            batches.add(batch)
    order = sorted(configs, key=lambda c: (configs[c], c))
    # grain's MPMC mode first, then its other modes, then the rest by name.
    impls = sorted(impls, key=lambda i: (i[1] != "grain", i[0] != "MPMC", i[2]))
    first_over = next((i for i, c in enumerate(order) if configs[c] > res.ncpu), None)
    charts = []
    for batch, var in [(b, v) for b in RING_BATCH if b in batches for v in variants]:
        series = [(label, [("ring", mode, impl, c, batch) + var for c in order])
                  for mode, impl, label in impls]
        series = [(label, keys) for label, keys in series if res.has(keys)]
        if not series:
            continue
        end = len(order) - 0.5
        s = datablock("d", [res.row(i, [keys[i] for _, keys in series])
                            for i in range(len(order))])
        title = f"grain_ring against the other queues: {RING_BATCH[batch]}"
        title += " (" + "/".join(var) + ")" if var else ""
        s += (f"set title {gp_str(title)}\n"
              f"set ylabel 'million pairs/s, {res.note}, log scale'\n"
              "set xlabel 'configuration: P producer and C consumer threads' offset 0,-1\n"
              "set bmargin 5\nset logscale y\nset format y '%g'\n" +
              xtics((f'"{c}\\n{configs[c]} threads"', i) for i, c in enumerate(order)) +
              f"set xrange [-0.5:{end}]\nset grid xtics lc rgb '#eeeeee'\n"
              f"set xtics add ('' {end})\n")
        if first_over is not None:
            s += oversub_rect(first_over - 0.5, end)
        s += plot_cmd([rate_plot(
            res, "$d", j, f"($1 + {(j - (len(series) - 1) / 2) * (0.7 / len(series)):.3f})",
            f"lw {2 if label == 'grain MPMC' else 1} pt {5 + 2 * (j % 4)} ps 1.1 "
            f"lc rgb '{PALETTE[j % len(PALETTE)]}'", label, False)
            for j, (label, _) in enumerate(series)])
        charts.append(("_".join(("ring", batch) + var), 1100, 600, s))
    return charts


PRIO_NAMES = {"grain_prio": "grain_prio", "grain_prio_bits": "grain_prio, 8 bands (bits)",
              "pfifo_spin": "spinlock baseline", "pfifo_mutex": "mutex baseline"}
PRIO_WHERE = {"own_core": "consumer alone on CPU 0, producers on CPU 1",
              "unpinned": "no pinning: the scheduler places every thread",
              "own_core_yield": "as own_core, producers yield after a full band",
              "unpinned_yield": "as unpinned, producers yield after a full band"}


def prio_charts(res):
    """Items/s by producers, every queue and dequeue kind, a chart per
    placement."""
    placements, impls, deqs, producers = {}, {}, {}, set()
    for key in res.cases:
        if len(key) >= 5 and key[0] == "prio" and key[4][-3:] == "P1C" and key[4][:-3].isdigit():
            producers.add(int(key[4][:-3]))
            placements[key[1]] = impls[key[2]] = deqs[key[3]] = None
    ps = sorted(producers)
    impls = sorted(impls, key=lambda i: (list(PRIO_NAMES).index(i) if i in PRIO_NAMES else 9, i))
    deqs = sorted(deqs, key=lambda d: (d != "single", d))
    charts = []
    for pl in placements:
        series = [(f"{PRIO_NAMES.get(impl, impl)}, {deq}", keys, i, j)
                  for i, impl in enumerate(impls) for j, deq in enumerate(deqs)
                  for keys in [[("prio", pl, impl, deq, f"{p}P1C") for p in ps]]
                  if res.has(keys)]
        if not series:
            continue
        s = datablock("d", [res.row(p, [keys[k] for _, keys, _, _ in series])
                            for k, p in enumerate(ps)])
        title = ("grain_prio against a locked pfifo_fast, three bands: "
                 f"{pl} ({PRIO_WHERE.get(pl, pl)})")
        s += (f"set title {gp_str(title)}\n"
              f"set ylabel 'million items dequeued/s, {res.note}'\n" +
              # Oversubscribed from P + 1 > cpus, i.e. P >= cpus.
              log2_xaxis(ps, "producers (threads = producers + 1 consumer), log scale", res.ncpu))
        s += plot_cmd([rate_plot(res, "$d", k, "1", f"lw {2.5 if i == 0 else 1.5} dt {1 + j} "
                                 f"pt {5 + 2 * i} lc rgb '{PALETTE[i % len(PALETTE)]}'", label,
                                 True) for k, (label, _, i, j) in enumerate(series)])
        charts.append((f"prio_{pl}", 1100, 600, s))
    return charts


HTAB_WORKLOADS = {"read90": "90% lookup, 5% insert, 5% remove",
                  "mix50": "50% lookup, 25% insert, 25% remove",
                  "churn": "churn: every op inserts into a full table and evicts",
                  "bulk16": "lookups in bursts of 16 keys",
                  "bulk32": "lookups in bursts of 32 keys"}
HTAB_LABEL = {"grain/1": "grain/1 (one stripe)", "grain-rcu/256": "grain-rcu/256 (RCU lookups)",
              "grain-rcu-bulk/256": "grain-rcu-bulk/256 (bulk RCU lookups)",
              "rte_hash": "rte_hash (DPDK)",
              "grain-qsbr/256": "grain-qsbr/256 (RCU lookups, qsbr)",
              "mutex": "mutex baseline (1 lock)", "striped": "striped baseline (256 spinlocks)",
              "cds_lfht": "cds_lfht (liburcu)", "ck_ht": "ck_ht (ConcurrencyKit)",
              "tbb_hash_map": "concurrent_hash_map (oneTBB)",
              "libcuckoo": "cuckoohash_map (libcuckoo)",
              "libcds_michael": "MichaelHashMap (libcds)"}
# The baselines on the stripes chart: at their lock count, their point type.
HTAB_REFS = [("mutex", 1, 9), ("striped", 256, 13)]


def stripes_of(impl):
    """grain/N's stripe count N, else None."""
    n = impl[6:] if impl.startswith("grain/") else ""
    return int(n) if n.isdigit() else None


def htab_panels(res, workloads, panel_px, title, xaxis, plots_of):
    """A panel per workload, with one key at the right of the last in 330
    pixels that hold the longest label; the y label on the first. The script
    and the picture's width."""
    ncol = len(workloads)
    width = panel_px * ncol + 330
    right = 1 - 320 / width
    s = (f"set multiplot layout 1,{ncol} margins 0.05, {right}, 0.12, 0.88 spacing 0.05, 0.1 "
         f"title {gp_str(title)}\n" + xaxis)
    for n, w in enumerate(workloads):
        s += (f"set title {gp_str(HTAB_WORKLOADS.get(w, w))}\n" +
              (f"set ylabel 'million operations/s, {res.note}'\n" if n == 0
               else "unset ylabel\n") +
              (f"set key at screen {right + 0.01}, 0.86 left top\n" if n == ncol - 1
               else "unset key\n") + plot_cmd(plots_of(w)))
    return s + "unset multiplot\n", width


def htab_charts(res):
    """Operations/s by threads, every table; lock granularity by stripes."""
    idx, workloads, impls, threads = {}, {}, {}, set()  # idx: {(workload, impl): {threads: case}}
    for key in res.cases:
        t = threads_of(key[2]) if len(key) >= 4 and key[0] == "htab" else None
        if t is not None and res.rate(key) is not None:
            idx.setdefault((key[1], "/".join(key[3:])), {})[t] = key
            threads.add(t)
            workloads[key[1]] = impls["/".join(key[3:])] = None
    if not idx:
        return []
    order = list(HTAB_WORKLOADS)
    workloads = sorted(workloads, key=lambda w: (order.index(w) if w in order else 99, w))
    threads = sorted(threads)

    def row(x, w, impls, ts):
        return res.row(x, [idx.get((w, i), {}).get(t) for i in impls for t in ts])

    # 1. By threads, every table, but of grain's stripe counts only 1 (its
    # global lock) and 256 (as the striped baseline): the stripes chart has
    # the rest.
    shown = sorted((i for i in impls if stripes_of(i) in (None, 1, 256)),
                   key=lambda i: (not i.startswith("grain"), stripes_of(i) or 10**6, i))
    s = "".join(datablock(w.replace("-", "_"), [row(t, w, shown, [t]) for t in threads])
                for w in workloads)
    script, width = htab_panels(
        res, workloads, 400, "grain_htab against the baselines and anchors: throughput by "
        "threads (1M-key universe, 500k entries)", log2_xaxis(threads, "threads", res.ncpu + 1),
        lambda w: [rate_plot(res, f"${w.replace('-', '_')}", j, "1",
                             f"lw {2.5 if i.startswith('grain') else 1.5} pt {5 + 2 * (j % 4)} "
                             f"lc rgb '{PALETTE[j % len(PALETTE)]}'", HTAB_LABEL.get(i, i), True)
                   for j, i in enumerate(shown)])
    charts = [("htab_threads", width, 560, s + script)]

    # 2. Lock granularity: grain_htab by stripe count at each thread count,
    # the one-mutex table at 1 lock and the striped one at its 256 beside.
    grains = sorted({stripes_of(i) for i in impls} - {None})
    # Only the workloads the striped tables ran (not the bulk lookups).
    workloads = [w for w in workloads if any((w, f"grain/{g}") in idx for g in grains)]
    if len(grains) < 2 or not workloads:
        return charts
    s = "".join(datablock(f"g_{w}", [row(st, w, [f"grain/{st}"], threads) for st in grains]) +
                "".join(datablock(f"{i}_{w}", [row(x, w, [i], threads)]) for i, x, _ in HTAB_REFS)
                for w in workloads)

    def plots(w):
        out = []
        for k, t in enumerate(threads):
            col, over = PALETTE[k % len(PALETTE)], t > res.ncpu
            out.append(rate_plot(res, f"$g_{w}", k, "1",
                                 f"lw 2.5 dt {2 if over else 1} pt 7 lc rgb '{col}'",
                                 f"grain_htab, {t} thread{'s' if t > 1 else ''}" +
                                 (" (oversubscribed)" if over else ""), True))
            out += [rate_plot(res, f"${i}_{w}", k, "1", f"pt {pt} ps 2 lc rgb '{col}'", "", False)
                    for i, _, pt in HTAB_REFS]
        return out + [f"NaN with points pt {pt} ps 2 lc rgb 'black' title {gp_str(HTAB_LABEL[i])}"
                      for i, _, pt in HTAB_REFS]

    script, width = htab_panels(
        res, workloads, 420, "Lock granularity: grain_htab by stripe count (locked lookups), "
        "with the baselines: one mutex (at 1) and 256 spinlocks (at 256)",
        "set xlabel 'lock stripes'\nset logscale x 2\n" + xtics((f'"{g}"', g) for g in grains) +
        f"set xrange [{grains[0] / 2}:{grains[-1] * 2}]\nset yrange [0:*]\n", plots)
    return charts + [("htab_stripes", width, 560, s + script)]


def reasm_index(res):
    """{(workload, lock): {workers: case}}, and every worker count: one
    worker, and several by datagram (reasm's default fanout)."""
    out, workers = {}, set()
    for key in res.cases:
        w = threads_of(key[3]) if len(key) >= 4 and key[0] == "reasm" else None
        if len(key) > 4 and key[4] != "datagram":
            w = None
        if w is not None and res.rate(key) is not None:
            out.setdefault((key[1], key[2]), {})[w] = key
            workers.add(w)
    return out, sorted(workers)


def reasm_charts(res):
    """Gbit/s by workers, one lock against 64 stripes: four panels above a
    strip for the one key, which the first draws."""
    idx, workers = reasm_index(res)
    if not idx:
        return []
    loads = [w for w, _ in REASM_VS_SEED if any(k[0] == w for k in idx)]
    locks = sorted({k[1] for k in idx}, key=lambda x: (x != "global", x))
    names = {"global": "one lock (1 stripe)", "stripes64": "64 stripes"}
    s = "".join(datablock(f"w{n}", [res.row(x, [idx.get((w, lk), {}).get(x) for lk in locks])
                                    for x in workers]) for n, w in enumerate(loads))
    s += ("set multiplot layout 2,2 margins 0.08, 0.98, 0.14, 0.90 spacing 0.08, 0.14 title " +
          gp_str("Fragment reassembly (examples/reasm engine, in memory): one lock against "
                 f"per-bucket-group locks; each datagram whole to one worker; {res.note}") +
          "\n" +
          log2_xaxis(workers, "workers (threads)", res.ncpu + 1) +
          "set ylabel 'Gbit/s reassembled'\n")
    for n, w in enumerate(loads):
        s += (f"set title {gp_str(w)}\n" + ("set key at screen 0.5, screen 0.02 center bottom "
                                            "horizontal maxcols 4 width 2\n" if n == 0
                                            else "unset key\n"))
        s += plot_cmd([rate_plot(res, f"$w{n}", j, "1",
                                 f"lw 2.5 pt {5 + 2 * j} lc rgb '{PALETTE[(j + 1) % 2]}'",
                                 names.get(lk, lk), True) for j, lk in enumerate(locks)])
    return [("reasm_workers", 1100, 800, s + "unset multiplot\n")]


def seed_pfifo_chart(prio, ncpu):
    """The seed's pps table as bars; beside it ours (one consumer's items/s,
    the consumer on its own core), and the two sets of ratios on one axis:
    the only figures comparable across machines."""
    ps = [p for p, _, _ in SEED_PFIFO]
    seed = [[i, p, o / 1e6, lk / 1e6, lk / o] for i, (p, o, lk) in enumerate(SEED_PFIFO)]
    keys = [[("prio", "own_core", impl, deq, f"{p}P1C") for impl, deq in (
        ("pfifo_spin", "single"), ("grain_prio", "single"), ("pfifo_spin", "burst32"),
        ("grain_prio", "burst32"))] for p in ps]
    meds = [[prio.rate(k) for k in ks] for ks in keys] if prio else []
    ours = any(v is not None for m in meds for v in m)

    def ratio(a, b):
        return "NaN" if None in (a, b) else f"{b / a:.4g}"

    s = datablock("seed", seed)
    if ours:
        s += datablock("ours", [[i] + prio.row(p, keys[i]) for i, p in enumerate(ps)])
        s += datablock("ratio", [[i, p, f"{r:.4g}", ratio(m[0], m[1]), ratio(m[2], m[3])]
                                 for (i, p, _, _, r), m in zip(seed, meds)])
    s += seed_multiplot(3 if ours else 1, "The lockless-pfifo_fast table (netdev, July 2016)" +
                        (" beside grain_prio" if ours else ""), SEED_PFIFO_SOURCE)
    s += (xtics((f'"{p}"', i) for i, p in enumerate(ps)) + "set xlabel 'pktgen threads'\n"
          "set title " + gp_str("Seed: pktgen through pfifo_fast as root qdisc\n(the poster's "
                                "machine, in the kernel)") + "\nset ylabel 'million packets/s'\n")
    s += bars("$seed", [(3, "#9a9996", "original (one qdisc lock)"),
                        (4, "#5e5c64", "lockless (skb_array per band)")]) + "unset label 99\n"
    if ours:
        s += ("set xlabel 'producers (1 consumer on its own core)'\nset title " +
              gp_str("Ours: one consumer, this machine\n(oversubscribed from "
                     f"{max(ncpu - 1, 1) + 1} producers on)") +
              f"\nset ylabel 'million items dequeued/s, {prio.note}'\n")
        s += bars("$ours", [(3, "#f9c19a", "spinlock baseline, single"),
                            (6, "#1a5fb4", "grain_prio, single"),
                            (9, "#e66100", "spinlock baseline, burst32"),
                            (12, "#99c1f1", "grain_prio, burst32")], prio.spread)
        s += "set xlabel 'threads (seed) / producers (ours)'\n" + ratio_panel(
            "'Ratios: lockless / locked'", "$ratio",
            [(3, "#5e5c64", "seed: lockless / original"),
             (4, "#1a5fb4", "ours single: grain_prio / spinlock baseline"),
             (5, "#99c1f1", "ours burst32: grain_prio / spinlock baseline")])
    s += f"unset multiplot\n# Seed: {SEED_PFIFO_SOURCE}\n"
    return ("seed_pfifo", 1680 if ours else 560, 660, s)


def seed_frag_chart(reasm, ncpu):
    """The seed's Mbit/s table as bars (rows A-F by test); with reasm.json,
    in a panel and on an axis of their own (an in-memory engine on this
    machine, in Gbit/s, is not the seed's NIC test in Mbit/s), our 64K, 3F
    and +DoS at the most workers that do not oversubscribe, and the
    per-bucket / one-lock ratios of both (seed rows C / B) side by side."""
    s = datablock("seed", [[t, test] + [r[2][t] for r in SEED_FRAG]
                           for t, test in enumerate(SEED_FRAG_TESTS)])
    ours, workers = [], None
    if reasm is not None:
        idx, ws = reasm_index(reasm)
        fit = [w for w in ws if w <= ncpu]
        workers = fit[-1] if fit else (ws[0] if ws else None)
        for n, (w, test) in enumerate(REASM_VS_SEED):
            g, st = (idx.get((w, lock), {}).get(workers) for lock in ("global", "stripes64"))
            if g is None and st is None:
                continue
            ti = SEED_FRAG_TESTS.index(test)
            gv, sv = reasm.rate(g), reasm.rate(st)
            ours.append([n] + reasm.row(w, [g, st]) + [
                f"{SEED_FRAG[2][2][ti] / SEED_FRAG[1][2][ti]:.4g}",
                num(sv / gv if gv and sv else None)])
    s += datablock("ours", ours) if ours else ""
    s += seed_multiplot(3 if ours else 1, "The frag-queue per-hash-bucket locking table (netdev, "
                        "April 2013)" + (" beside examples/reasm" if ours else ""),
                        SEED_FRAG_SOURCE)
    # Two-line tick labels ("20G64K" over "+DoS"), which sit side by side.
    s += ("set title 'Seed: 20 Gbit/s UDP fragment tests, rows A-F'\nset ylabel 'Mbit/s'\n"
          "set xlabel 'test' offset 0,-1\nset key maxrows 3 at graph 0, graph -0.22\n" +
          xtics((gp_str(t.replace("+", "\n+")), i) for i, t in enumerate(SEED_FRAG_TESTS)))
    grey = ["#c0bfbc", "#9a9996", "#1a5fb4", "#77767b", "#5e5c64", "#3d3846"]
    s += bars("$seed", [(j + 3, grey[j], f"{row}: {what}")
                        for j, (row, what, _) in enumerate(SEED_FRAG)], quote=gp_str, xtic=False)
    s += "set xtics autofreq\nunset label 99\n"
    if ours:
        s += ("set title " + gp_str(f"Ours: examples/reasm in memory, {workers} workers by "
                                    "datagram, this machine\n(not comparable with the "
                                    "seed's NIC figures)") +
              f"\nset ylabel 'Gbit/s reassembled, {reasm.note}'\n"
              "set xlabel 'workload' offset 0,0\nset key maxrows 6 at graph 0, graph -0.16\n")
        s += bars("$ours", [(3, "#f9c19a", "ours: one lock"), (6, "#1a5fb4", "ours: 64 stripes")],
                  reasm.spread)
        s += ratio_panel(gp_str("Ratios, each against its own one-lock figure:\nper-bucket "
                                "locks / one lock"), "$ours",
                         [(9, "#5e5c64", "seed: row C / row B"),
                          (10, "#1a5fb4", "ours: 64 stripes / one lock")])
    s += f"unset multiplot\n# Seed: {SEED_FRAG_SOURCE}\n"
    return ("seed_frag", 1860 if ours else 900, 660, s)


# --- main -----------------------------------------------------------------------------------


def terminal():
    """'pngcairo' if this gnuplot has it, else 'png'."""
    try:
        r = subprocess.run(["gnuplot", "-e", "set terminal pngcairo"], capture_output=True,
                           text=True, timeout=30)
        if r.returncode == 0 and "unknown" not in r.stderr.lower():
            return "pngcairo"
    except (OSError, subprocess.SubprocessError):
        pass
    return "png"


def draw(name, width, height, script, term, out, source):
    """Write NAME.gp into out and run gnuplot there; whether it drew NAME.png."""
    font = 'font "sans,10"' if term == "pngcairo" else ""
    with open(os.path.join(out, name + ".gp"), "w") as f:
        f.write(f"# SPDX-License-Identifier: BSD-2-Clause\n# {name}.gp - drawn by bench/report.py "
                f"from {source}; run: gnuplot {name}.gp\n"
                f"set terminal {term} size {width},{height} noenhanced {font}\n"
                f"set output {gp_str(name + '.png')}\nset grid ytics lc rgb '#dddddd'\n"
                "set key outside right top vertical Left reverse samplen 2 spacing 1.1\n"
                "set border 3\nset tics nomirror\n" + script)
    r = subprocess.run(["gnuplot", name + ".gp"], cwd=out, capture_output=True, text=True)
    png = os.path.join(out, name + ".png")
    if r.returncode != 0 or not os.path.isfile(png) or os.path.getsize(png) == 0:
        print(f"report.py: {os.path.join(out, name)}.gp: gnuplot failed:\n{r.stderr}",
              file=sys.stderr)
        return False
    print(f"report.py: {png}")
    for line in filter(str.strip, r.stderr.splitlines()):  # warnings: an empty series, say
        print(f"report.py: {name}.gp: {line}", file=sys.stderr)
    return True


def draw_all(dirpath, out):
    """Every chart that the JSON in dirpath allows, into out: the names of
    the PNGs drawn, and whether every chart was drawn."""
    if shutil.which("gnuplot") is None:
        print("report.py: gnuplot not found (scripts/setup.sh installs gnuplot-nox)",
              file=sys.stderr)
        return [], False
    res = {}
    for fam in RATE:
        p = os.path.join(dirpath, fam + ".json")
        try:
            if os.path.isfile(p):
                res[fam] = Results(fam, p)
        except (OSError, ValueError, KeyError) as e:
            print(f"report.py: {p}: unreadable ({e}); skipped", file=sys.stderr)
    if not res:
        return [], True
    os.makedirs(out, exist_ok=True)
    ncpu = next(iter(res.values())).ncpu
    charts = [c for fam, charts_of in (("ring", ring_charts), ("prio", prio_charts),
                                       ("htab", htab_charts), ("reasm", reasm_charts))
              if fam in res for c in charts_of(res[fam])]
    # Each seed chart with its family's results only.
    charts += [seed(res[fam], ncpu) for fam, seed in (("prio", seed_pfifo_chart),
                                                     ("reasm", seed_frag_chart))
               if fam in res]
    term = terminal()
    repo = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    source = os.path.relpath(os.path.abspath(dirpath), repo)  # no machine's paths
    drawn = [(c[0], draw(*c, term, out, source)) for c in charts]
    return [n for n, ok in drawn if ok], all(ok for _, ok in drawn)
