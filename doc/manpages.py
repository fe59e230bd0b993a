#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""manpages.py - grain's man pages, one per call, type and macro, from
Doxygen's XML output over include/grain/*.h.

    manpages.py --xml <doxygen xml dir> --examples <doc/examples>
                --out <man3 dir> --version <x.y.z>
                --common <include/grain/common.h>
    manpages.py --readme <README.md> --out <mainpage.md>

The header comments are the source of truth. Each call, macro, enum,
typedef and struct of a public header gets a page with the sections NAME,
SYNOPSIS (its public header, never impl/), DESCRIPTION, RETURN VALUE,
ERRORS, THREAD SAFETY AND ORDERING, EXAMPLE and SEE ALSO; enum values get
a link to their enum's page; each header gets an overview page
(grain_<h>.h.3, grain.h.3) that renders its synchronization table with tbl.

RETURN VALUE is the comment's @return text; a call without one that
refers to another (a _fast form, an old name, a one-call form of a
_locked call) shows that call's, else what its summary says (void calls
return nothing). ERRORS lists every -E... value that text names, with its
reason, or common.h's meaning of the value (--common). THREAD SAFETY AND ORDERING
is what the call's own comment says about threads and ordering, then the
header's synchronization table and ordering rules.

EXAMPLE: doc/examples/*.c hold the examples. Each file starts with its
#include lines and any code its examples share; each example begins with
a line `/* example */` and defines one function `int example_<name>(void)`
that returns 0 when all went well. A page shows the shortest example that
uses its name as a whole word (an example of deprecated names only where
no other does): the file's code before its first example, then that
block. A name that no example uses is an error, as is a summary that
names another call. test/release/docs/check_examples.sh compiles, links and runs
every EXAMPLE as the pages show it.

With --readme, it writes the Doxygen main page instead (mainpage()).
"""
import argparse
import glob
import os
import re
import xml.etree.ElementTree as ET

all_headers = {}
MISSING = []
# What each errno means where a call gives no reason of its own: the
# table of common.h, "Error convention" (read by read_errno_meanings()).
ERRNO_MEANING = {}


def read_errno_meanings(common_h):
    with open(common_h) as f:
        for ln in f:
            m = re.match(r"^ \*\s+-(E[A-Z]+)\s+(.*)$", ln)
            if m:
                ERRNO_MEANING[m.group(1)] = m.group(2).strip()


def esc(text):
    """Escape text for troff (not at a line start: see line())."""
    return text.replace("\\", "\\e").replace("-", "\\-")


def line(text):
    """A troff text line: a leading . or ' would be a request."""
    text = text.strip()
    if text.startswith((".", "'")):
        text = "\\&" + text
    return text


def plain(el):
    """The text of an element, without markup."""
    if el is None:
        return ""
    return re.sub(r"\s+", " ", "".join(el.itertext())).strip()


class Out:
    """Inline and block rendering of Doxygen's description markup."""

    def __init__(self):
        self.refs = []

    def inline(self, el, skip=()):
        parts = [esc(el.text or "")]
        for c in el:
            if c.tag in skip:
                pass
            elif c.tag in ("computeroutput", "bold"):
                parts.append("\\fB" + self.inline(c, skip) + "\\fR")
            elif c.tag in ("emphasis", "parametername"):
                parts.append("\\fI" + self.inline(c, skip) + "\\fR")
            elif c.tag == "ref":
                name = plain(c)
                self.refs.append(re.sub(r"\(\)$", "", name))
                parts.append("\\fB" + esc(name) + "\\fR")
            elif c.tag == "linebreak":
                parts.append(" ")
            elif c.tag in ("itemizedlist", "orderedlist", "simplesect",
                           "parameterlist", "table", "programlisting",
                           "verbatim", "preformatted"):
                pass  # blocks: rendered by block()
            else:
                parts.append(self.inline(c, skip))
            parts.append(esc(c.tail or ""))
        return re.sub(r"\s+", " ", "".join(parts))

    def para(self, p, skip=("simplesect",)):
        """A <para>: its text, then the blocks nested in it."""
        out = []
        text = self.inline(p, skip).strip()
        if text:
            out += [".PP", line(text)]
        for c in p:
            if c.tag in skip:
                continue
            if c.tag in ("itemizedlist", "orderedlist"):
                n = 0
                for item in c.findall("listitem"):
                    n += 1
                    mark = "\\(bu" if c.tag == "itemizedlist" else "%d." % n
                    out += [".IP %s 4" % mark]
                    first = True
                    for ip in item.findall("para"):
                        sub = self.para(ip, skip)
                        if first and sub[:1] == [".PP"]:
                            sub = sub[1:]
                        first = False
                        out += sub
            elif c.tag == "table":
                out += self.table(c)
            elif c.tag in ("programlisting", "verbatim", "preformatted"):
                out += code_block(code_text(c))
        return out

    def table(self, t):
        """A Markdown table as tbl. A row whose first cell is empty goes on
        the row above it (the headers wrap long cells that way)."""
        rows = []
        head = None
        for r in t.findall("row"):
            cells = [plain(e) for e in r.findall("entry")]
            if r.find("entry").get("thead") == "yes":
                head = cells
            elif rows and not cells[0]:
                rows[-1] = [a + (" " + b if b else "")
                            for a, b in zip(rows[-1], cells)]
            else:
                rows.append(cells)
        ncol = len(head or rows[0])
        out = [".PP", ".TS", "allbox tab(\t);",
               " ".join(["lb"] * ncol), " ".join(["lx"] * ncol) + "."]
        if head:
            out.append("\t".join(esc(c) for c in head))
        for cells in rows:
            out.append("\t".join("T{\n%s\nT}" % line(esc(c))
                                 for c in cells))
        out.append(".TE")
        return out


def code_text(el):
    """The source text of a <programlisting> (one <codeline> a line) or a
    <verbatim>."""
    if el.tag == "programlisting":
        lines = []
        for cl in el.findall("codeline"):
            s = ""
            for node in cl.iter():
                if node.tag == "sp":
                    s += " "
                else:
                    s += node.text or ""
                if node is not cl and node.tail:
                    s += node.tail
            lines.append(s)
        return "\n".join(lines)
    return "".join(el.itertext())


def verbatim(text):
    """A line of a no-fill block: indentation kept (tabs as 8 columns)."""
    text = esc(text.rstrip().expandtabs(8))
    return "\\&" + text if text.startswith((".", "'")) else text


def code_block(text):
    out = [".PP", ".EX"]
    for ln in text.rstrip("\n").split("\n"):
        out.append(verbatim(ln))
    out += [".EE"]
    return out


ERRNO = re.compile(r"-(E[A-Z0-9]+)")


def clause(s):
    """The reason that follows an errno name: a parenthesis, or the words
    up to the next ";" or sentence end outside parentheses."""
    if s.startswith("("):
        depth = 0
        for i, ch in enumerate(s):
            depth += ch == "("
            depth -= ch == ")"
            if depth == 0:
                return s[1:i]
        return ""
    if not re.match(r"^(if|when|as|for|on|while)\b", s):
        return ""
    depth = 0
    for i, ch in enumerate(s):
        depth += ch == "("
        depth -= ch == ")"
        if depth == 0 and (ch == ";" or (ch == "." and
                                         s[i + 1:i + 2] in (" ", ""))):
            return s[:i]
    return s


def errors_of(text):
    """[(ERRNO, reason)] for every -E... in @p text, in order; a name given
    twice gets both reasons."""
    found = []
    for m in ERRNO.finditer(text):
        name = m.group(1)
        reason = clause(text[m.end():].lstrip()).strip()
        names = [f[0] for f in found]
        if name not in names:
            found.append((name, reason))
        elif reason:
            i = names.index(name)
            old = found[i][1]
            found[i] = (name, old + "; " + reason if old else reason)
    return found


def sentences(text):
    return re.split(r"(?<=[.;])\s+(?=[A-Z(])", text)


THREAD_WORDS = re.compile(
    r"thread|Ordering|acquire|release|concurrent|happens-before|any thread|"
    r"Any thread|RCU read|read-side|blocks|Blocks|spins|sleeps|never waits|"
    r"Never waits|lock held|no lock", re.I)


class Member:
    def __init__(self, el, header):
        self.el = el
        self.kind = el.get("kind")
        self.name = el.findtext("name")
        self.header = header
        self.static = el.get("static") == "yes"


class Header:
    def __init__(self, name, cd):
        self.name = name            # ring.h
        self.cd = cd
        self.members = []
        self.sync = []              # troff lines: table and ordering rules
        self.brief = plain(cd.find("briefdescription"))

    @property
    def page(self):
        return self.name if self.name.startswith("grain") else \
            "grain_" + self.name

    @property
    def lib(self):
        return "grain\\-htab" if self.name in ("htab.h", "rcu.h") else "grain"


def load(xmldir):
    headers = {}
    structs = {}
    index = ET.parse(os.path.join(xmldir, "index.xml")).getroot()
    for comp in index.findall("compound"):
        path = os.path.join(xmldir, comp.get("refid") + ".xml")
        if comp.get("kind") == "file":
            cd = ET.parse(path).getroot().find("compounddef")
            for t in cd.iter("xreftitle"):
                t.text = (t.text or "") + ": "
            name = cd.findtext("compoundname")
            if not name.endswith(".h"):
                continue  # the main page
            h = Header(name, cd)
            for m in cd.iter("memberdef"):
                h.members.append(Member(m, h))
            headers[name] = h
        elif comp.get("kind") == "struct":
            cd = ET.parse(path).getroot().find("compounddef")
            structs[cd.findtext("compoundname")] = cd
    return headers, structs


def is_heading(text):
    """A section title of a header's overview: a short line of its own
    that ends no sentence ("Zero copy", "Bytes, watermarks, eviction,
    TTL"), or one numbered as older headers had them."""
    return bool(re.match(r"^\d+\.? ", text)) or (
        len(text) < 60 and text[:1].isupper()
        and not re.search(r"[.:;,!?]$", text))


def sync_section(h, out):
    """The header's synchronization table and the ordering paragraphs after
    it, up to the next section title; or, without a table, the header's
    paragraphs about threads."""
    paras = h.cd.find("detaileddescription").findall("para")
    lines = []
    for i, p in enumerate(paras):
        if p.find("table") is not None:
            lines += out.table(p.find("table"))
            for q in paras[i + 1:]:
                t = plain(q)
                if is_heading(t) or q.find("orderedlist") is not None:
                    break
                lines += out.para(q)
            return lines
    for p in paras:
        t = plain(p)
        if re.search(r"[Tt]hread|concurrently|synchronization table", t):
            lines += out.para(p)
        other = re.search(r"synchronization table of (\w+\.h)", t)
        if other and other.group(1) in all_headers:
            lines += [".PP", "The synchronization table of "
                      "\\fB<grain/%s>\\fR:" % other.group(1)]
            lines += sync_section(all_headers[other.group(1)], out)
    return lines


def decl_type(el):
    return re.sub(r"\s+", " ", plain(el.find("type")))


def synopsis(m):
    el = m.el
    if m.kind == "function":
        args = ", ".join(
            (decl_type(p) + " " + (p.findtext("declname") or "")).strip()
            .replace("* ", "*").replace(" *", " *") for p in el.findall("param")
        ) or "void"
        typ = decl_type(el)
        typ = re.sub(r"^static\s+", "", typ)
        pre = "static inline " if m.static else ""
        sep = "" if typ.endswith("*") else " "
        head = "%s%s%s%s(" % (pre, typ, sep, m.name)
        if len(head) + len(args) < 72:
            return [head + args + ");"]
        params = args.split(", ")
        return [head + params[0] + ","] + \
            [" " * len(head) + p + "," for p in params[1:-1]] + \
            [" " * len(head) + params[-1] + ");"]
    if m.kind == "define":
        params = [p.findtext("defname") for p in el.findall("param")]
        head = m.name + ("(" + ", ".join(params) + ")" if params or
                         el.find("param") is not None else "")
        init = re.sub(r"\s*\\\s*", " ", plain(el.find("initializer")))
        if len(init) > 60 or "\n" in init:
            init = "..."
        return ["#define %s %s" % (head, init)]
    if m.kind == "enum":
        lines = ["enum %s {" % m.name]
        vals = el.findall("enumvalue")
        for i, v in enumerate(vals):
            init = plain(v.find("initializer"))
            lines.append("    %s%s%s" % (v.findtext("name"),
                                        (" " + init) if init else "",
                                        "," if i + 1 < len(vals) else ""))
        return lines + ["};"]
    if m.kind == "typedef":
        return [plain(el.find("definition")) + ";"]
    if m.kind == "variable":
        return ["extern %s %s%s;" % (decl_type(el), m.name,
                                     el.findtext("argsstring") or "")]
    raise ValueError(m.kind)


def struct_synopsis(cd):
    lines = ["struct %s {" % cd.findtext("compoundname")]
    for m in cd.iter("memberdef"):
        if m.get("kind") != "variable":
            continue
        typ = decl_type(m)
        args = m.findtext("argsstring") or ""
        name = m.findtext("name")
        if typ.endswith("(*"):  # a function pointer
            args = args.replace("void(*", "void (*")
            lines.append("    %s (*%s%s;" % (typ[:-2], name, args))
        else:
            sep = "" if typ.endswith("*") else " "
            lines.append("    %s%s%s%s;" % (typ, sep, name, args))
    if len(lines) == 1:
        lines.append("    /* private: only grain's calls use the fields */")
    return lines + ["};"]


def summary_of(name, brief, group):
    """The summary after "name - " in a brief. A brief that starts with
    another member's name is a documentation defect."""
    m = re.match(r"^(\d+\.\s+)?([A-Za-z_][A-Za-z0-9_]*(?:\(\))?"
                 r"(?:\s*/\s*[A-Za-z_][A-Za-z0-9_]*)*)\s+-\s+(.*)$", brief)
    if m:
        named = [n.strip().rstrip("()") for n in m.group(2).split("/")]
        named = [re.sub(r"\(.*", "", n) for n in named]
        if name not in named and any(n in group for n in named):
            raise SystemExit("manpages.py: %s: its summary names %s" %
                             (name, "/".join(named)))
        return m.group(3)
    return brief


class Examples:
    def __init__(self, root):
        self.blocks = []   # (file, prelude, block, length)
        for path in sorted(glob.glob(os.path.join(root, "*.c"))):
            with open(path) as f:
                text = f.read()
            parts = re.split(r"^/\* example \*/\n", text, flags=re.M)
            # The prelude: the file up to the first example, without its
            # opening comment.
            prelude = parts[0]
            while prelude.startswith("/*"):
                prelude = prelude[prelude.index("*/") + 2:].lstrip("\n")
            prelude = prelude.strip("\n")
            for b in parts[1:]:
                self.blocks.append((os.path.basename(path), prelude,
                                    b.strip("\n")))

    def find(self, name):
        pat = re.compile(r"(?<![A-Za-z0-9_])%s(?![A-Za-z0-9_])" %
                         re.escape(name))
        best = None
        for f, prelude, b in self.blocks:
            size = len(prelude) + len(b)
            # The examples of old names only for what no other shows.
            if "deprecat" in b:
                size += 1 << 20
            if pat.search(prelude + "\n" + b) and (best is None or
                                                  size < best[0]):
                best = (size, prelude, b)
        if best is None:
            return None
        return best[1] + "\n\n" + best[2] + "\n"


def borrowed_returns(m, by_name, depth):
    """(name, its @return sections) of the call whose returns @p m refers
    to, following such references; (None, [])."""
    if depth > 3:
        return None, []
    text = plain(m.el.find("briefdescription")) + " " + \
        plain(m.el.find("detaileddescription"))
    text = re.sub(r"^%s\s+-\s+" % re.escape(m.name), "", text)
    for base in borrow_candidates(m, text):
        b = by_name.get(base)
        if b is None or b is m:
            continue
        got = [s for s in b.el.iter("simplesect")
               if s.get("kind") == "return"]
        if got:
            return base, got
        name, got = borrowed_returns(b, by_name, depth + 1)
        if got:
            return name, got
    return None, []


def borrow_candidates(m, summary):
    names = []
    if m.name.endswith("_fast"):
        names.append(m.name[:-len("_fast")])
    names += re.findall(r"([a-z_0-9]+)\(\)", summary)
    if re.match(r"^as the _locked form", summary):
        names.append(m.name + "_locked")
    return names


def page_head(name, version, title):
    return ['.\\" Generated by doc/manpages.py from include/grain; do not edit.',
            '.TH "%s" 3 "" "grain %s" "grain"' % (name, version),
            ".SH NAME",
            "%s \\- %s" % (esc(name), line(esc(title)))]


def see_also(names):
    seen = []
    for n in names:
        if n not in seen:
            seen.append(n)
    return [".SH SEE ALSO", ",\n".join("\\fB%s\\fR(3)" % esc(n)
                                       for n in seen)]


def member_page(m, h, headers, structs, examples, version, all_names,
                neighbours, by_name):
    out = Out()
    el = m.el
    brief_el = el.find("briefdescription")
    detail_el = el.find("detaileddescription")
    brief = out.inline(brief_el.find("para")) if brief_el.find("para") \
        is not None else ""
    brief_plain = plain(brief_el)
    group = [x.name for x in h.members]
    summary_plain = summary_of(m.name, brief_plain, group)
    from_detail = summary_plain in ("", m.name + " -", m.name)
    if from_detail:
        summary_plain = sentences(plain(detail_el))[0]
    if re.match(r"^[a-z_0-9]+\(\)\.?$", summary_plain):
        summary_plain = "The same as %s." % summary_plain.rstrip(".")
    first = summary_plain.split(" ")[0]
    if "_" not in first and "(" not in first:
        summary_plain = summary_plain[:1].upper() + summary_plain[1:]
    summary = esc(summary_plain) if brief and not from_detail else ""
    title = summary_plain.split(". ")[0].rstrip(".") or m.name
    if len(title) > 70:
        title = title[:title.rfind(" ", 0, 68)] + " ..."
    lines = page_head(m.name, version, title)

    # SYNOPSIS
    lines += [".SH SYNOPSIS", ".nf", "\\fB#include <grain/%s>\\fR" % h.name,
              ""]
    if m.kind == "struct":
        syn = struct_synopsis(structs[m.name])
    else:
        syn = synopsis(m)
    lines += [verbatim(s) for s in syn]
    lines += [".fi"]
    if m.kind == "function" and not m.static:
        lines += [".PP", "Link with \\fB\\-l%s\\fR (pkg\\-config \\fB%s\\fR)."
                  % (h.lib, h.lib)]
    elif m.static:
        lines += [".PP", "C only: a \\fBstatic inline\\fR call with no "
                  "exported copy (C++ callers use the call without "
                  "\\fB_fast\\fR)."]

    # DESCRIPTION
    lines += [".SH DESCRIPTION"]
    body = []
    if summary:
        body += [".PP", line(summary)]
    returns = []
    for p in detail_el.findall("para"):
        body += out.para(p)
        for s in p.iter("simplesect"):
            if s.get("kind") == "return":
                returns.append(s)
            elif s.get("kind") in ("note", "warning", "see", "par"):
                for sp in s.findall("para"):
                    body += out.para(sp)
    fields = []
    if m.kind == "struct":
        fields = [f for f in structs[m.name].iter("memberdef")
                  if f.get("kind") == "variable"]
    if m.kind == "enum":
        fields = el.findall("enumvalue")
    if fields:
        for f in fields:
            fo = out.inline(f.find("briefdescription").find("para")) if \
                f.find("briefdescription").find("para") is not None else ""
            fd = [".IP" if q == ".PP" else q
                  for p in f.find("detaileddescription").findall("para")
                  for q in out.para(p)]
            body += [".TP", "\\fB%s\\fR" % esc(f.findtext("name"))]
            body += [line(fo)] if fo else []
            body += fd
    for extra in m.extra:
        body += extra
    if not body:
        body = [".PP", "See \\fB%s\\fR(3)." % h.page]
    lines += body

    # RETURN VALUE, ERRORS. A call that refers its returns to another
    # (a _fast form, an old name, a one-call form of a _locked call) gets
    # that call's.
    ret_lines = []
    if not returns and m.kind == "function" and \
            decl_type(el) not in ("void", "static void"):
        base, returns = borrowed_returns(m, by_name, 0)
        if returns:
            ret_lines = [".PP", "As \\fB%s\\fR(3):" % esc(base)]
    ret_text = " ".join(plain(s) for s in returns)
    for s in returns:
        for p in s.findall("para"):
            ret_lines += out.para(p)
    all_text = plain(brief_el) + " " + plain(detail_el)
    lines += [".SH RETURN VALUE"]
    if m.kind == "function":
        typ = decl_type(el)
        if ret_lines:
            lines += ret_lines
        elif typ in ("void", "static void"):
            lines += [".PP", "None."]
        else:
            lines += [".PP", "Returns " + line(summary or esc(title)) if
                      summary else "See DESCRIPTION."]
    elif m.kind == "typedef":
        lines += [".PP", "The callback returns:"] + ret_lines if ret_lines \
            else [".PP", "None: %s is a type, not a call." % esc(m.name)]
    elif m.kind == "define" and el.find("param") is not None:
        lines += [".PP", "None: %s is a macro, not a call; it expands to "
                  "what SYNOPSIS shows." % esc(m.name)]
    else:
        lines += [".PP", "None: %s is a %s, not a call." %
                  (esc(m.name), {"define": "constant", "enum": "type",
                                 "struct": "type", "variable": "table"}
                   [m.kind])]
    errs = errors_of(ret_text or (all_text if m.kind in
                                  ("function", "typedef") else ""))
    # "or the errors of X()": X's too.
    for other in re.findall(r"errors of ([a-z_0-9]+)\(\)", ret_text):
        if other in by_name:
            o_text = " ".join(plain(x) for x in by_name[other].el.iter(
                "simplesect") if x.get("kind") == "return")
            errs += [e for e in errors_of(o_text)
                     if e[0] not in [f[0] for f in errs]]
    lines += [".SH ERRORS"]
    if errs:
        for name, reason in errs:
            generic = ERRNO_MEANING.get(name, "see RETURN VALUE")
            if not reason:
                reason = generic
            elif len(reason.split()) < 3:  # "(none)": say what it means
                reason = "%s (%s)" % (generic, reason)
            lines += [".TP", "\\fB%s\\fR" % name,
                      line(esc(reason[:1].upper() + reason[1:]) + ".")]
    elif m.kind == "function":
        lines += [".PP", "None: the call cannot fail."
                  if decl_type(el) in ("void", "static void") else
                  "None: the result is the only output (see RETURN VALUE)."]
    else:
        lines += [".PP", "None."]

    # THREAD SAFETY AND ORDERING
    lines += [".SH THREAD SAFETY AND ORDERING"]
    own = [s for s in sentences(all_text) if THREAD_WORDS.search(s) and
           m.kind in ("function", "typedef", "struct")]
    if own:
        lines += [".PP", line(esc(" ".join(own)))]
    if h.sync:
        lines += [".PP", "The rules of \\fB<grain/%s>\\fR:" % h.name]
        lines += h.sync
    elif not own:
        lines += [".PP", "No shared state: any thread, at any time."]

    # EXAMPLE
    ex = examples.find(m.name)
    if ex is None:
        MISSING.append(m.name)
        ex = ""
    lines += [".SH EXAMPLE"] + code_block(ex)[1:]

    # SEE ALSO
    refs = [r for r in out.refs if r in all_names and r != m.name]
    lines += see_also(refs + [n for n in neighbours if n != m.name] +
                      [h.page])
    return "\n".join(lines) + "\n"


def header_page(h, version, names):
    out = Out()
    brief = plain(h.cd.find("briefdescription"))
    lines = page_head(h.page, version, re.sub(r"\.$", "", brief))
    lines += [".SH SYNOPSIS", ".nf",
              "\\fB#include <grain/%s>\\fR" % h.name, ".fi",
              ".PP", "Link with \\fB\\-l%s\\fR (pkg\\-config \\fB%s\\fR)." %
              (h.lib, h.lib)]
    lines += [".SH DESCRIPTION"]
    for p in h.cd.find("detaileddescription").findall("para"):
        lines += out.para(p)
    if names:
        lines += [".SH CALLS, TYPES AND MACROS"]
        for n, t in names:
            lines += [".TP", "\\fB%s\\fR(3)" % esc(n), line(esc(t))]
    others = [x.page for x in sorted(all_headers.values(),
                                     key=lambda x: x.page) if x is not h]
    lines += see_also([n for n, _ in names] + others)
    return "\n".join(lines) + "\n"


def mainpage(readme, out):
    """The Doxygen main page: README.md's overview, from its title to the
    section "Building", with links that point outside the page made plain
    text, and where the manual pages and the example programs are."""
    with open(readme) as f:
        text = f.read()
    start = text.index("## What it is")
    end = text.index("## Building")
    body = text[start:end]
    # [text](#anchor) and [text](file): the text (and the file's name).
    body = re.sub(r"\[([^\]]+)\]\(#[^)]*\)", r"\1 (README.md)", body)
    body = re.sub(r"\[([^\]]+)\]\(([^)#]+)(#[^)]*)?\)",
                  lambda m: m.group(1) if m.group(1) == m.group(2) else
                  "%s (`%s`)" % (m.group(1), m.group(2)), body)
    body = re.sub(r"^## ", "# ", body, flags=re.M)
    body = re.sub(r"^### ", "## ", body, flags=re.M)
    page = ["grain {#mainpage}", "=====", "",
            "The overview from grain's README.md. Every call, type and macro "
            "has its own manual page (`man grain_ring_try_enqueue`), and "
            "each header one with its synchronization table "
            "(`man grain_ring.h`, `grain_htab.h`, `grain_prio.h`, ...). "
            "Three short example programs (`ring_pipeline.c`, "
            "`prio_scheduler.c`, `htab_cache.c`) are installed in "
            "`share/doc/grain/examples`, with a CMakeLists.txt and a "
            "Makefile that build them against the installed library.", "",
            body]
    with open(out, "w") as f:
        f.write("\n".join(page))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--xml")
    ap.add_argument("--examples")
    ap.add_argument("--out", required=True)
    ap.add_argument("--version")
    ap.add_argument("--common", help="include/grain/common.h")
    ap.add_argument("--readme", help="write the main page from README.md")
    a = ap.parse_args()
    if a.readme:
        mainpage(a.readme, a.out)
        return

    read_errno_meanings(a.common)
    headers, structs = load(a.xml)
    examples = Examples(a.examples)
    os.makedirs(a.out, exist_ok=True)
    for f in glob.glob(os.path.join(a.out, "*.3")):
        os.remove(f)

    # Structs belong to the header that defines them.
    for sname, cd in structs.items():
        hname = cd.find("location").get("file").split("/")[-1]
        h = headers[hname]
        s = Member.__new__(Member)
        s.el = cd
        s.kind = "struct"
        s.name = sname
        s.header = h
        s.static = False
        line_no = int(cd.find("location").get("line"))
        h.members.append(s)
        s.line = line_no
    for h in headers.values():
        for m in h.members:
            m.extra = []
            if not hasattr(m, "line"):
                m.line = int(m.el.find("location").get("line"))
        h.members.sort(key=lambda m: m.line)
        all_headers[h.name] = h
    for h in headers.values():
        h.sync = sync_section(h, Out())

    pages = {}
    all_names = {m.name for h in headers.values() for m in h.members}
    by_name = {m.name: m for h in headers.values() for m in h.members
               if m.kind == "function"}
    for h in headers.values():
        # A struct named as a call (grain_htab_stats) is shown on the
        # call's page.
        funcs = {m.name: m for m in h.members if m.kind != "struct"}
        members = []
        for m in h.members:
            if m.kind == "struct" and m.name in funcs:
                extra = [".SS struct %s" % esc(m.name), ".nf"]
                extra += [verbatim(x) for x in struct_synopsis(m.el)]
                extra += [".fi"]
                for f in m.el.iter("memberdef"):
                    if f.get("kind") != "variable":
                        continue
                    d = plain(f.find("briefdescription"))
                    if d:
                        extra += [".TP", "\\fB%s\\fR" %
                                  esc(f.findtext("name")), line(esc(d))]
                funcs[m.name].extra.append(extra)
                continue
            members.append(m)
        summaries = []
        for i, m in enumerate(members):
            near = [x.name for x in members[max(0, i - 3):i + 4]]
            text = member_page(m, h, headers, structs, examples, a.version,
                               all_names, near, by_name)
            pages[m.name + ".3"] = text
            summaries.append((m.name, text.split("\n")[3].split(" \\- ",
                                                              1)[1]))
            if m.kind == "enum":
                for v in m.el.findall("enumvalue"):
                    pages[v.findtext("name") + ".3"] = \
                        ".so man3/%s.3\n" % m.name
        summaries = [(n, t.replace("\\-", "-").replace("\\e", "\\"))
                     for n, t in summaries]
        pages[h.page + ".3"] = header_page(h, a.version, summaries)

    if MISSING:
        raise SystemExit("manpages.py: no example in %s uses %s" %
                         (a.examples, ", ".join(MISSING)))
    for name, text in pages.items():
        if "\n.TS\n" in text:  # man runs tbl for the page
            text = "'\\\" t\n" + text
        with open(os.path.join(a.out, name), "w") as f:
            f.write(text)
    print("manpages.py: %d pages in %s" % (len(pages), a.out))


if __name__ == "__main__":
    main()
