#!/usr/bin/env python3
"""Checks a bspcost Markdown report, MDFILE, as GitHub Flavored Markdown.

usage: md_cells.py MDFILE [--code TEXT]...

- In the source, every table row has as many cells as its header: a row is
  split at each '|' not escaped by a backslash, in code spans too, as GFM
  does (a formula with '||' in a code span would add two cells).
- Rendered by cmark-gfm (-e table), no text outside a <code> element has a
  backquote: no code span was cut.  (cmark-gfm drops the cells past the
  header's number, so the rendered rows alone could not show a split.)
- With --code TEXT (repeatable), TEXT, a formula as the text report prints
  it, is the whole text of some <code> element: the formulas come out whole.

Prints `N tables, N rows` and exits 1 at the first violation."""
import html.parser
import subprocess
import sys


def source_cells(line):
    """The cells of a GFM table row: split at unescaped '|', the outer pipes
    dropped."""
    cells, cur, i = [], "", 0
    while i < len(line):
        ch = line[i]
        if ch == "\\" and i + 1 < len(line):
            cur += line[i:i + 2]
            i += 2
            continue
        if ch == "|":
            cells.append(cur)
            cur = ""
        else:
            cur += ch
        i += 1
    cells.append(cur)
    if line.startswith("|"):
        cells = cells[1:]
    if line.rstrip().endswith("|") and not line.rstrip().endswith("\\|"):
        cells = cells[:-1]
    return len(cells)


def check_source(text):
    tables = rows = 0
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        if (lines[i].startswith("|") and i + 1 < len(lines)
                and lines[i + 1].startswith("|-")):
            tables += 1
            want = source_cells(lines[i])
            if source_cells(lines[i + 1]) != want:
                return f"line {i + 2}: the delimiter row does not match the header", 0, 0
            j = i + 2
            while j < len(lines) and lines[j].startswith("|"):
                n = source_cells(lines[j])
                rows += 1
                if n != want:
                    return f"line {j + 1}: {n} cells, the header has {want}", 0, 0
                j += 1
            i = j
        else:
            i += 1
    return None, tables, rows


class Html(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.code = None
        self.codes = []
        self.stray = None

    def handle_starttag(self, tag, attrs):
        if tag == "code":
            self.code = ""

    def handle_endtag(self, tag):
        if tag == "code" and self.code is not None:
            self.codes.append(self.code)
            self.code = None

    def handle_data(self, data):
        if self.code is not None:
            self.code += data
        elif "`" in data and self.stray is None:
            self.stray = data


def main():
    args = sys.argv[1:]
    if not args:
        print(__doc__)
        return 2
    md = args[0]
    want_codes = [args[i + 1] for i in range(1, len(args) - 1) if args[i] == "--code"]
    with open(md, encoding="utf-8") as f:
        text = f.read()
    err, tables, rows = check_source(text)
    if err:
        print(f"{md}: {err}")
        return 1
    html_text = subprocess.run(["cmark-gfm", "-e", "table", md], check=True,
                               capture_output=True, text=True).stdout
    p = Html()
    p.feed(html_text)
    if p.stray is not None:
        print(f"{md}: a code span was cut: {p.stray.strip()[:120]!r}")
        return 1
    for c in want_codes:
        if c not in p.codes:
            print(f"{md}: no <code> element is the formula {c!r}")
            return 1
    print(f"{md}: {tables} tables, {rows} rows")
    return 0


if __name__ == "__main__":
    sys.exit(main())
