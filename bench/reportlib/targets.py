# SPDX-License-Identifier: BSD-2-Clause
"""targets.py - the performance targets of bench/targets.json against one
run's JSON: each target's figures and its PASS or MISS.

A target names a family, its grain case (or a list of them: the fastest in
the run), the other case (an anchor or a baseline) and the ratio of medians
it requires; a null ratio is context, shown without a verdict. Optional:
counter (the counter of both cases instead of the family's rate),
other_counter (the other case's counter instead of its rate), at_least (a
bound on the grain case's own counter, no other case) and seed (the figure
of the published measurement the target comes from).
"""

import json

from .data import case_parts

# Each family's rate counter and how the tables scale it.
RATE = {"ring": ("pairs_per_sec", 1e-6, "M pairs/s"),
        "prio": ("items_per_sec", 1e-6, "M items/s"),
        "htab": ("ops_per_sec", 1e-6, "M ops/s"),
        "reasm": ("dgrams_per_sec", 1e-3, "k dgrams/s")}


def load(path):
    with open(path) as f:
        return json.load(f)["targets"]


def median(doc, case, counter):
    """The median of `counter` over the kept runs of `case`, None if none."""
    return None if case is None else doc.stat(case_parts(case), counter)


def side(doc, cases, counter):
    """(case, median) of the fastest of `cases` (one name or a list) that
    ran, or (the first, None)."""
    names = cases if isinstance(cases, list) else [cases]
    ran = [(median(doc, c, counter), c) for c in names]
    ran = [(v, c) for v, c in ran if v is not None]
    if not ran:
        return names[0], None
    v, c = max(ran)
    return c, v


def evaluate(t, doc):
    """One target against the family's Doc: a dict of its cases, figures,
    measured value and verdict (PASS, MISS, "context" or "not measured")."""
    rate = RATE[t["family"]][0]
    counter = t.get("counter", rate)
    g_case, g = side(doc, t["grain"], counter)
    row = {"what": t["what"], "family": t["family"], "threads": t.get("threads"),
           "grain_case": g_case, "grain": g, "counter": counter,
           "other_case": t.get("other"), "other": None, "value": None,
           "required": t.get("ratio"), "seed": t.get("seed")}
    if "at_least" in t:
        row.update(value=g, required=t["at_least"], bound=True)
    else:
        o_counter = t.get("other_counter", counter)
        row["other"] = median(doc, t.get("other"), o_counter)
        row["other_counter"] = o_counter
        if g is not None and row["other"]:
            row["value"] = g / row["other"]
    if row["value"] is None:
        row["verdict"] = "not measured"
    elif row["required"] is None:
        row["verdict"] = "context"
    else:
        row["verdict"] = "PASS" if row["value"] >= row["required"] else "MISS"
    return row


def evaluate_all(targets, docs):
    """Every target whose family ran, in the file's order."""
    return [evaluate(t, docs[t["family"]]) for t in targets if t["family"] in docs]


def counts(rows):
    """{verdict: how many} of the rows."""
    out = {}
    for r in rows:
        out[r["verdict"]] = out.get(r["verdict"], 0) + 1
    return out
