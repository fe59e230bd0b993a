#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""rules.py - two rules of common.h ("Error convention"), checked on the public
headers, and what its attribute macros promise, checked with a compiler
(CTest: api_rules).

Usage: rules.py INCLUDE_DIR

Reads INCLUDE_DIR/grain/*.h and grain/impl/*.h with their comments left
out and finds every declaration and inline definition of a public grain_
call (not grain_impl_).

1. Errors: every call that returns int (0 or a negative errno, or a count)
   is GRAIN_NODISCARD in one of its declarations (the _fast calls have
   only their definition in impl/), except the reads in READS, which write
   nothing when they fail.
2. Verbs: every call that moves objects through a queue (its name has
   enqueue, dequeue, reserve or peek) is named try_ (it never waits) or
   ends in _wait (it sleeps), unless it is deprecated (0.3.0's names).

Before it judges the headers it runs each rule on a copy of them with one
call broken (the attribute taken off grain_ring_try_enqueue; the try_
taken off grain_ring_try_dequeue_burst) and fails unless the rule catches
it. It also fails if it finds fewer calls than the headers have had
(MIN_INT_CALLS, MIN_QUEUE_CALLS): their shape changed under it.

3. Attributes (common.h, "Attributes"): a caller that drops the result of a
   GRAIN_NODISCARD call gets a warning (grain_hash_key_random()), and one
   that calls a GRAIN_DEPRECATED alias gets a warning with the alias's
   message (grain_ring_enqueue_bulk()). Small programs are compiled with
   the C compiler ($CC, else cc, gcc or clang) as C11, and with the C++
   one ($CXX, else c++, g++ or clang++) as C++17, when there is one; the
   same program with the result used and the new name called must compile
   without a warning, so that the rule sees the attributes and nothing
   else. With no compiler at all the rule is skipped, and says so.
"""
import glob
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

READS = {"grain_prio_stats"}
MIN_INT_CALLS = 60
MIN_QUEUE_CALLS = 40

# A declaration or definition: the attributes and specifiers before the
# return type, the return type, the name, the parameters, then ; or {.
DECL = re.compile(r"((?:(?:GRAIN_[A-Z_]+(?:\(\"[^\"]*\"\))?|static|inline)"
                  r"\s+)+)([\w\s\*]*?)\b(grain_(?!impl_)\w+)\s*"
                  r"\([^;{]*\)\s*[;{]")
QUEUE_VERB = re.compile(r"_(?:try_)?(?:enqueue|dequeue|reserve|peek)")


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"//[^\n]*", " ", text)


def calls(headers):
    """name -> (returns int, NODISCARD somewhere, deprecated somewhere)."""
    out = {}
    for text in headers.values():
        for m in DECL.finditer(strip_comments(text)):
            attrs, ret, name = m.group(1), m.group(2).split(), m.group(3)
            is_int, nd, dep = out.get(name, (False, False, False))
            out[name] = (is_int or ret == ["int"],
                         nd or "GRAIN_NODISCARD" in attrs,
                         dep or "GRAIN_DEPRECATED" in attrs)
    return out


def unmarked(found):
    return sorted(n for n, (is_int, nd, _) in found.items()
                  if is_int and not nd and n not in READS)


def misnamed(found):
    bad = []
    for name, (_, _, dep) in found.items():
        if dep or not QUEUE_VERB.search(name):
            continue
        if "_try_" not in name and not name.endswith("_wait"):
            bad.append(name)
    return sorted(bad)


def mutate(headers, pattern, repl):
    out = {p: re.sub(pattern, repl, t) for p, t in headers.items()}
    if out == headers:
        sys.exit("rules.py: FAILED: nothing matched %r to mutate" % pattern)
    return out


# Rule 3: each case is a body for attr_program() and the diagnostics that
# its compilation must show (all of them), or none for the clean one.
DEPRECATED_MSG = "use grain_ring_try_enqueue_bulk()"
ATTR_CASES = [
    ("clean",
     "return grain_hash_key_random(k) + "
     "grain_ring_try_enqueue_bulk(r, objs, 1);", []),
    ("dropped GRAIN_NODISCARD result",
     "grain_hash_key_random(k); return 0;", ["-Wunused-result"]),
    ("GRAIN_DEPRECATED alias",
     "return grain_ring_enqueue_bulk(r, objs, 1);",
     ["-Wdeprecated-declarations", DEPRECATED_MSG]),
]


def attr_program(body):
    return ("#include <grain/hash.h>\n#include <grain/ring.h>\n"
            "int use(struct grain_hash_key *k, struct grain_ring *r,\n"
            "        void *const *objs);\n"
            "int use(struct grain_hash_key *k, struct grain_ring *r,\n"
            "        void *const *objs)\n{\n    %s\n}\n" % body)


def find_compiler(env, names):
    for cmd in [os.environ.get(env)] + names:
        if cmd and shutil.which(shlex.split(cmd)[0]):
            return shlex.split(cmd)
    return None


def attribute_failures(include):
    """Rule 3: a list of what went wrong; None if no compiler was found."""
    langs = [(find_compiler("CC", ["cc", "gcc", "clang"]), "c", "-std=c11"),
             (find_compiler("CXX", ["c++", "g++", "clang++"]), "c++",
              "-std=c++17")]
    langs = [lang for lang in langs if lang[0]]
    if not langs:
        return None
    bad = []
    with tempfile.TemporaryDirectory(prefix="grain-rules.") as tmp:
        for cc, lang, std in langs:
            for name, body, want in ATTR_CASES:
                src = os.path.join(tmp, "use." + ("c" if lang == "c"
                                                  else "cc"))
                with open(src, "w", encoding="utf-8") as f:
                    f.write(attr_program(body))
                res = subprocess.run(
                    cc + ["-x", lang, std, "-c", "-o", os.devnull, "-Wall",
                          "-I", include, src],
                    stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                    universal_newlines=True, check=False)
                out = res.stdout
                if res.returncode != 0:
                    bad.append("%s, %s: does not compile:\n%s"
                               % (lang, name, out))
                elif not want and "warning" in out:
                    bad.append("%s, %s: warns:\n%s" % (lang, name, out))
                elif [w for w in want if w not in out]:
                    bad.append("%s, %s: no warning with %s:\n%s"
                               % (lang, name, " and ".join(want), out))
    return bad


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: rules.py INCLUDE_DIR")
    root = os.path.join(sys.argv[1], "grain")
    paths = sorted(glob.glob(os.path.join(root, "*.h")) +
                   glob.glob(os.path.join(root, "impl", "*.h")))
    headers = {p: open(p, encoding="utf-8").read() for p in paths}

    # Each rule must catch a call broken on purpose.
    m1 = mutate(headers, r"GRAIN_NODISCARD(\s+GRAIN_INLINE_API\s+int\s+"
                r"grain_ring_try_enqueue\s*\()", r"\1")
    if "grain_ring_try_enqueue" not in unmarked(calls(m1)):
        sys.exit("rules.py: FAILED: rule 1 missed a call without "
                 "GRAIN_NODISCARD")
    m2 = mutate(headers, r"\bgrain_ring_try_dequeue_burst\b",
                "grain_ring_dequeue_burst_now")
    if "grain_ring_dequeue_burst_now" not in misnamed(calls(m2)):
        sys.exit("rules.py: FAILED: rule 2 missed a queue call named "
                 "neither try_ nor _wait")

    found = calls(headers)
    ints = [n for n, (is_int, _, _) in found.items() if is_int]
    queue = [n for n in found if QUEUE_VERB.search(n)]
    if len(ints) < MIN_INT_CALLS or len(queue) < MIN_QUEUE_CALLS:
        sys.exit("rules.py: FAILED: found %d int calls and %d queue calls "
                 "(at least %d and %d expected): the parse no longer "
                 "matches the headers" % (len(ints), len(queue),
                                          MIN_INT_CALLS, MIN_QUEUE_CALLS))
    status = 0
    if unmarked(found):
        print("rules.py: FAILED: not GRAIN_NODISCARD: " +
              ", ".join(unmarked(found)))
        status = 1
    if misnamed(found):
        print("rules.py: FAILED: queue calls named neither try_ nor _wait: "
              + ", ".join(misnamed(found)))
        status = 1
    attr = attribute_failures(sys.argv[1])
    if attr:
        print("rules.py: FAILED: attributes:\n" + "\n".join(attr))
        status = 1
    if status == 0:
        print("rules.py: %d int calls, every one GRAIN_NODISCARD but %s; "
              "%d queue calls, each try_, _wait or deprecated; %s"
              % (len(ints), ", ".join(sorted(READS)), len(queue),
                 "attributes not checked: no compiler" if attr is None
                 else "GRAIN_NODISCARD and GRAIN_DEPRECATED warn"))
    sys.exit(status)


if __name__ == "__main__":
    main()
