#!/usr/bin/env python3
"""Renders an export's Markdown catalog with cmark-gfm (GitHub's Markdown implementation, from Debian) and
checks its structure: one title, a Contents list whose links match the section headings (GitHub's anchors),
a list item per object, no raw HTML (so nothing the museum data held became markup), and, for a catalog split
per letter, every letter file linked and rendering the same way.

usage: check_markdown.py OUTPUT_FOLDER
"""
import html.parser
import pathlib
import re
import subprocess
import sys
import urllib.parse

failures = []


class Outline(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.headings = []  # (level, text)
        self.links = []  # (href, text)
        self.items = 0
        self._heading = None
        self._link = None

    def handle_starttag(self, tag, attrs):
        if tag in ("h1", "h2"):
            self._heading = [tag, ""]
        elif tag == "a":
            self._link = [dict(attrs).get("href", ""), ""]
        elif tag == "li":
            self.items += 1

    def handle_endtag(self, tag):
        if tag in ("h1", "h2") and self._heading:
            self.headings.append((self._heading[0], self._heading[1].strip()))
            self._heading = None
        elif tag == "a" and self._link:
            self.links.append(tuple(self._link))
            self._link = None

    def handle_data(self, data):
        if self._heading:
            self._heading[1] += data
        if self._link:
            self._link[1] += data


def github_anchor(text, seen):
    anchor = re.sub(r"[^\w\- ]", "", text.lower()).replace(" ", "-")
    count = seen.get(anchor, 0)
    seen[anchor] = count + 1
    return anchor if count == 0 else f"{anchor}-{count}"


def render(path):
    result = subprocess.run(["cmark-gfm", "--extension", "table", "--extension", "autolink", str(path)],
                            capture_output=True, text=True, check=True)
    return result.stdout


def check_sections(path, rendered):
    outline = Outline()
    outline.feed(rendered)
    if "raw HTML omitted" in rendered or "<script" in rendered:
        failures.append(f"{path.name}: data became raw HTML")
    titles = [text for level, text in outline.headings if level == "h1"]
    if len(titles) != 1:
        failures.append(f"{path.name}: {len(titles)} titles")
    sections = [text for level, text in outline.headings if level == "h2" and text != "Contents"]
    seen = {"contents": 1}
    anchors = {github_anchor(text, seen): text for text in sections}
    contents = [(href, text) for href, text in outline.links if href.startswith("#")]
    if [text for _, text in contents] != sections:
        failures.append(f"{path.name}: the contents list and the section headings differ")
    for href, text in contents:
        if urllib.parse.unquote(href[1:]) not in anchors:
            failures.append(f"{path.name}: contents link {href} ({text}) has no heading")
    return len(sections), outline.items - len(contents)


def main():
    root = pathlib.Path(sys.argv[1])
    catalog = root / "catalog.md"
    rendered = render(catalog)
    letter_files = sorted((root / "catalog").glob("*.md")) if (root / "catalog").is_dir() else []
    if letter_files:
        outline = Outline()
        outline.feed(rendered)
        linked = {href for href, _ in outline.links if href.startswith("catalog/")}
        for file in letter_files:
            if f"catalog/{file.name}" not in linked:
                failures.append(f"catalog.md does not link {file.name}")
            check_sections(file, render(file))
    else:
        sections, objects = check_sections(catalog, rendered)
        csv_rows = len((root / "collection.csv").read_text(encoding="utf-8").strip().splitlines()) - 1
        if objects != csv_rows:
            failures.append(f"catalog.md lists {objects} objects, the CSV {csv_rows}")
        if sections == 0:
            failures.append("catalog.md has no sections")
    for failure in failures:
        print(f"markdown check: {failure}", file=sys.stderr)
    print(f"markdown check: {'FAILED' if failures else 'passed'} ({1 + len(letter_files)} files)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
