# SPDX-License-Identifier: BSD-2-Clause
"""benchjson.py - reading bench/run's Google Benchmark JSON, shared by
bench/plot.py and bench/summarize.py.

A benchmark's name carries what ran ('ring/MPMC/grain/1P1C/single/
iterations:1/repeats:5/manual_time_median'); case_parts() keeps the parts
before the first 'key:value' or '*_time' part. read() groups a file's
entries by those parts: the aggregates by name (median, mean, cv, and
min and max where a driver reports them) and the single runs, when the
file has them. Python 3 standard library only.
"""

import json
import re
import statistics

THREADS_RE = [
    (re.compile(r"^(\d+)P(\d+)C$"), lambda m: int(m[1]) + int(m[2])),
    (re.compile(r"^(\d+)t$"), lambda m: int(m[1])),
    (re.compile(r"^(\d+)W$"), lambda m: int(m[1])),
]


def case_parts(name):
    """['ring', 'MPMC', 'grain', '1P1C', 'single'] for the name above."""
    out = []
    for p in name.split("/"):
        if ":" in p or re.match(r"^(manual|real|process)_time", p):
            break
        out.append(p)
    return out


def threads_of(part):
    """Threads a configuration part names ('2P2C' 4, '8t' 8, '4W' 4), or
    None."""
    for rx, f in THREADS_RE:
        m = rx.match(part)
        if m:
            return f(m)
    return None


class Doc:
    """One JSON file: context, {aggregate name: {key: entry}} and
    {key: [run entries]} (keys are tuples of case_parts)."""

    def __init__(self, path):
        with open(path) as f:
            doc = json.load(f)
        self.context = doc.get("context", {})
        self.benchmarks = doc.get("benchmarks", [])
        self.aggregates, self.runs = {}, {}
        for b in self.benchmarks:
            key = tuple(case_parts(b["name"]))
            if b.get("run_type") == "aggregate":
                self.aggregates.setdefault(
                    b.get("aggregate_name"), {})[key] = b
            elif not b.get("error_occurred"):
                self.runs.setdefault(key, []).append(b)

    def keys(self):
        return set(self.aggregates.get("median", {})) | set(self.runs)

    def stat(self, key, counter, name="median"):
        """The aggregate `name` (median, min, max) of `counter` for the
        case `key`, from the driver's aggregate or else from the runs;
        None where neither has it."""
        b = self.aggregates.get(name, {}).get(key)
        if b is not None and counter in b:
            return b[counter]
        vs = [r[counter] for r in self.runs.get(key, []) if counter in r]
        if not vs:
            return None
        return {"median": statistics.median, "min": min,
                "max": max}[name](vs)
