#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""nodiscard.py - every public call that returns an error code carries
GRAIN_NODISCARD (CTest: api_nodiscard).

Usage: nodiscard.py INCLUDE_DIR

Reads INCLUDE_DIR/grain/*.h and grain/impl/*.h with their comments left
out and finds every declaration and inline definition of a public grain_
call (not grain_impl_) that returns int: 0 or a negative errno, or a
count. One of each call's declarations must be GRAIN_NODISCARD (the _fast
calls have only their definition in impl/), except the reads in READS,
which write nothing on error. Before it judges
the headers it runs itself on a copy of them with the attribute taken off
one call, and fails unless it catches that; it also fails if it finds
fewer than MIN_CALLS such calls (the headers' shape changed under it).
"""
import glob
import os
import re
import sys

# Reads that return an error code: a failed one writes nothing.
READS = {"grain_prio_stats"}
MIN_CALLS = 60

DECL = re.compile(r"((?:(?:GRAIN_[A-Z_]+|static|inline)\s+)+)int\s+"
                  r"(grain_(?!impl_)\w+)\s*\([^;{]*\)\s*[;{]")


def calls(text):
    """(name, has NODISCARD) for each int-returning declaration."""
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r"//[^\n]*", " ", text)
    return [(m.group(2), "GRAIN_NODISCARD" in m.group(1).split())
            for m in DECL.finditer(text)]


def missing(headers):
    """How many calls were found, and those never marked."""
    marked = {}
    for text in headers.values():
        for name, ok in calls(text):
            marked[name] = marked.get(name, False) or ok
    bad = [n for n, ok in marked.items() if not ok and n not in READS]
    return len(marked), bad


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: nodiscard.py INCLUDE_DIR")
    paths = sorted(glob.glob(os.path.join(sys.argv[1], "grain", "*.h")) +
                   glob.glob(os.path.join(sys.argv[1], "grain", "impl", "*.h")))
    headers = {p: open(p, encoding="utf-8").read() for p in paths}

    # Self-test: the attribute taken off one call must be caught.
    probe = "grain_ring_try_enqueue"
    mutant = {}
    for p, t in headers.items():
        mutant[p] = re.sub(r"GRAIN_NODISCARD(\s+GRAIN_INLINE_API\s+int\s+"
                           + probe + r"\s*\()", r"\1", t)
    if mutant == headers:
        sys.exit("nodiscard.py: FAILED: could not find %s to mutate" % probe)
    if probe not in missing(mutant)[1]:
        sys.exit("nodiscard.py: FAILED: a mutant without the attribute on "
                 "%s was not caught" % probe)

    found, bad = missing(headers)
    if found < MIN_CALLS:
        sys.exit("nodiscard.py: FAILED: only %d int-returning calls found "
                 "(at least %d expected): the parse no longer matches the "
                 "headers" % (found, MIN_CALLS))
    if bad:
        sys.exit("nodiscard.py: FAILED: not GRAIN_NODISCARD: "
                 + ", ".join(sorted(set(bad))))
    print("nodiscard.py: %d int-returning calls, every one GRAIN_NODISCARD "
          "but %s" % (found, ", ".join(sorted(READS))))


if __name__ == "__main__":
    main()
