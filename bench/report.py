#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""report.py - turn the JSON that bench/run's drivers wrote into ratios,
targets, tables, charts and the results page.

Usage: bench/report.py DIR [--publish] [--no-charts]

Reads DIR/ring.json, prio.json, htab.json and reasm.json (each if present)
and writes beside them:
  NAME.summary.json  the machine, the revisions, every ratio of grain
                     against each other implementation and their overview
  targets.json       every target of bench/targets.json with its figures
                     and PASS, MISS, context or not measured
  report.md          the results page; tables.md, every case
  plots/             the charts (PNG, each beside its gnuplot script)
--publish also writes BENCHMARKS.md and doc/bench/tables.md at the top of
the checkout, and copies the charts to doc/bench/plots/. Python 3's
standard library and gnuplot only.
"""

import argparse
import datetime
import json
import os
import shutil
import sys

from reportlib import charts, data, pages, targets

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FAMILIES = ("ring", "prio", "htab", "reasm")


def load(dirpath):
    """{family: Doc} of the JSON files in dirpath."""
    docs = {}
    for fam in FAMILIES:
        p = os.path.join(dirpath, fam + ".json")
        if os.path.isfile(p):
            try:
                docs[fam] = data.Doc(p)
            except (OSError, ValueError, KeyError) as e:
                print(f"report.py: {p}: unreadable ({e}); skipped", file=sys.stderr)
    return docs


def summarize(dirpath, docs):
    """NAME.summary.json for each family; {family: its summary}."""
    out = {}
    for fam in docs:
        dst, n = data.summarize(dirpath, fam, REPO)
        with open(dst) as f:
            out[fam] = json.load(f)
        print(f"report.py: {dst} ({n} ratios)")
    return out


def write(path, text):
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    with open(path, "w") as f:
        f.write(text)
    print(f"report.py: {path}")


def publish(dirpath, docs, summaries, rows, drawn, date):
    """BENCHMARKS.md, doc/bench/tables.md and doc/bench/plots/."""
    plots = os.path.join(REPO, "doc", "bench", "plots")
    if drawn:
        shutil.rmtree(plots, ignore_errors=True)
        os.makedirs(plots)
        for name in drawn:
            for ext in (".png", ".gp"):
                shutil.copy(os.path.join(dirpath, "plots", name + ext), plots)
    else:  # charts not drawn this time: keep those there
        drawn = sorted(f[:-4] for f in os.listdir(plots) if f.endswith(".png")) \
            if os.path.isdir(plots) else []
    write(os.path.join(REPO, "BENCHMARKS.md"),
          pages.results_page(docs, summaries, rows, drawn, "doc/bench/plots", date,
                             dirpath))
    write(os.path.join(REPO, "doc", "bench", "tables.md"),
          pages.tables_page(docs, dirpath, date))


def main(argv):
    ap = argparse.ArgumentParser(description="Report bench/run's results.")
    ap.add_argument("dir", help="results folder (NAME.json files)")
    ap.add_argument("--publish", action="store_true",
                    help="also write BENCHMARKS.md, doc/bench/tables.md and doc/bench/plots/")
    ap.add_argument("--no-charts", action="store_true", help="draw no charts")
    args = ap.parse_args(argv[1:])
    docs = load(args.dir)
    if not docs:
        print(f"report.py: no ring/prio/htab/reasm .json in {args.dir}", file=sys.stderr)
        return 1
    summaries = summarize(args.dir, docs)
    rows = targets.evaluate_all(targets.load(os.path.join(REPO, "bench", "targets.json")),
                                docs)
    write(os.path.join(args.dir, "targets.json"), json.dumps(rows, indent=1) + "\n")
    drawn, ok = [], True
    if not args.no_charts:
        drawn, ok = charts.draw_all(args.dir, os.path.join(args.dir, "plots"))
    date = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d")
    write(os.path.join(args.dir, "report.md"),
          pages.results_page(docs, summaries, rows, drawn, "plots", date, args.dir))
    write(os.path.join(args.dir, "tables.md"), pages.tables_page(docs, args.dir, date))
    if args.publish:
        publish(args.dir, docs, summaries, rows, drawn, date)
    c = targets.counts(rows)
    print(f"report.py: targets: {c.get('PASS', 0)} PASS, {c.get('MISS', 0)} MISS, "
          f"{c.get('not measured', 0)} not measured")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
