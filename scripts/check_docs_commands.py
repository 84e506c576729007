#!/usr/bin/env python3
"""Runs every `$ memplan ...` command shown in the README, the tutorials
and the reference pages' examples, and checks that its output still reads
as the page shows it.

Usage: check_docs_commands.py MEMPLAN_BINARY [REPO_ROOT]

A documented command is a line starting with `$ memplan ` inside a fenced
block: any fenced block of README.md and docs/tutorials/*.md, and the blocks
fenced as ```console in the other docs/*.md pages (their plain ``` blocks
show commands on inputs the repository does not bundle, such as the shared
data set's models, and are not run). The lines after it, up to the next `$ ` line or the end
of the block, are its expected output (standard output and standard error
together). Rules:

* a line that is exactly `...` stands for any number of lines (zero or
  more): use it to leave out the middle or the end of a long output, or
  lines that legitimately vary (there are none today: memplan's output is
  byte-identical for the same input and options unless `--timings` or
  `--time-limit` is given, so documented commands never use those);
* the exit code is not checked: an expected error message is the check;
* the commands of one page run in order, in one temporary folder holding
  links to the repository's `examples/` and `tests/` (its test data), so a page may write a file
  (`--json plan.json`) and use it in a later command, and nothing is
  written into the repository.

Commands are split like a shell would split them (shlex), with no shell:
no pipes, globs or variables. Exit code 0 when every command matches,
1 otherwise (each mismatch is printed with the page and line), 2 on usage.
"""

import difflib
import os
import pathlib
import shlex
import subprocess
import sys
import tempfile

ANY_LINES = "..."
PROMPT = "$ "


def documented_commands(page, console_only=False):
    """Yields (line_number, command, expected_lines) for each `$ memplan` line."""
    in_block = False
    checked = False
    current = None
    for number, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1):
        if line.lstrip().startswith("```"):
            if current:
                yield current
                current = None
            in_block = not in_block
            checked = in_block and (not console_only or line.strip() == "```console")
            continue
        if not checked:
            continue
        if line.startswith(PROMPT):
            if current:
                yield current
            current = None
            if line.startswith(PROMPT + "memplan "):
                current = (number, line[len(PROMPT):], [])
        elif current:
            current[2].append(line)
    if current:
        yield current


def matches(expected, actual):
    """True when `actual` lines match `expected`, `...` matching any run of lines."""
    if not expected:
        return not actual
    head = expected[0]
    if head == ANY_LINES:
        return any(matches(expected[1:], actual[i:]) for i in range(len(actual) + 1))
    return bool(actual) and actual[0] == head and matches(expected[1:], actual[1:])


def run_page(page, binary, root, console_only):
    failures = 0
    with tempfile.TemporaryDirectory(prefix="memplan-docs-") as work:
        for folder in ("examples", "tests"):
            os.symlink(root / folder, pathlib.Path(work) / folder)
        for number, command, expected in documented_commands(page, console_only):
            argv = shlex.split(command)
            argv[0] = str(binary)
            result = subprocess.run(argv, cwd=work, stdout=subprocess.PIPE,
                                    stderr=subprocess.STDOUT, text=True, timeout=60)
            actual = result.stdout.splitlines()
            while expected and expected[-1] == "":
                expected = expected[:-1]
            if matches(expected, actual):
                continue
            failures += 1
            print(f"{page.relative_to(root)}:{number}: output of `{command}` "
                  f"(exit {result.returncode}) no longer matches the page:")
            for diff_line in difflib.unified_diff(expected, actual, "page", "memplan",
                                                  lineterm="", n=2):
                print("  " + diff_line)
    return failures


def main(argv):
    if len(argv) not in (2, 3):
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    binary = pathlib.Path(argv[1]).resolve()
    root = pathlib.Path(argv[2] if len(argv) == 3 else
                        pathlib.Path(__file__).resolve().parent.parent).resolve()
    if not os.access(binary, os.X_OK):
        print(f"{binary}: error: not an executable memplan binary", file=sys.stderr)
        return 2
    pages = [(root / "README.md", False)]
    pages += [(page, False) for page in sorted((root / "docs" / "tutorials").glob("*.md"))]
    pages += [(page, True) for page in sorted((root / "docs").glob("*.md"))]
    commands = sum(1 for page, console_only in pages
                   for _ in documented_commands(page, console_only))
    failures = sum(run_page(page, binary, root, console_only) for page, console_only in pages)
    print(f"{commands} documented commands on {len(pages)} pages, {failures} mismatched")
    if commands == 0:
        print("error: no documented commands found", file=sys.stderr)
        return 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
