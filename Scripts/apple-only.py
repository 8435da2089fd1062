#!/usr/bin/env python3
"""Lists the code that is compiled only on Apple platforms, which the Linux CI never builds.

It reads every Swift and C file under Sources/ and follows the #if/#elseif/#else/#endif
branches: a branch is Apple-only when its condition names an Apple module or platform
(canImport(Darwin), canImport(Security), canImport(LocalAuthentication), canImport(dnssd),
canImport(Network), os(macOS), os(iOS), defined(__APPLE__)), or when it is the #else of a
condition that holds on every Linux build (canImport(Glibc), canImport(CAvahi), os(Linux),
__linux__). A branch that holds only imports is left out.

  Scripts/apple-only.py            prints the table
  Scripts/apple-only.py --check    fails unless README.md holds the table as printed
"""
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
APPLE = re.compile(r"canImport\((Darwin|Security|LocalAuthentication|dnssd|Network)\)|os\((macOS|iOS)\)|defined\(__APPLE__\)")
LINUX = re.compile(r"canImport\((Glibc|CAvahi)\)|os\(Linux\)|__linux__")
DIRECTIVE = re.compile(r"^\s*#\s*(if|ifdef|ifndef|elseif|elif|else|endif)\b(.*)")
TRIVIAL = re.compile(r"^\s*(@preconcurrency\s+)?(import\s+\S+|#\s*include\s+\S+|//.*)?\s*$")
BEGIN, END = "<!-- apple-only: begin -->", "<!-- apple-only: end -->"


def apple_only_lines(path):
    """The lines of `path` inside Apple-only branches (those that are not just imports)."""
    stack = []  # per open #if: (this branch is Apple-only, a Linux condition was seen)
    lines = []
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
        match = DIRECTIVE.match(line)
        if match:
            kind, condition = match.group(1), match.group(2)
            if kind in ("if", "ifdef", "ifndef"):
                stack.append((bool(APPLE.search(condition)) and kind != "ifndef", bool(LINUX.search(condition))))
            elif kind in ("elseif", "elif") and stack:
                stack[-1] = (bool(APPLE.search(condition)), stack[-1][1] or bool(LINUX.search(condition)))
            elif kind == "else" and stack:
                stack[-1] = (stack[-1][1], stack[-1][1])
            elif kind == "endif" and stack:
                stack.pop()
            continue
        if any(apple for apple, _ in stack) and not TRIVIAL.match(line):
            lines.append(line)
    return lines


def table():
    rows = []
    for path in sorted(ROOT.joinpath("Sources").rglob("*")):
        if path.suffix not in (".swift", ".c", ".h") or not path.is_file():
            continue
        count = len(apple_only_lines(path))
        if count:
            rows.append(f"| `{path.relative_to(ROOT)}` | {count} |")
    total = sum(int(row.rsplit("|", 2)[1]) for row in rows)
    return "\n".join(["| File | Lines compiled only on Apple platforms |", "|---|---:|", *rows, f"| **{len(rows)} files** | **{total}** |"])


def main(arguments):
    generated = table()
    if arguments == ["--check"]:
        readme = ROOT.joinpath("README.md").read_text(encoding="utf-8")
        start, end = readme.find(BEGIN), readme.find(END)
        if start < 0 or end < 0:
            print(f"apple-only: README.md has no {BEGIN} ... {END} section", file=sys.stderr)
            return 1
        if readme[start + len(BEGIN):end].strip() != generated:
            print("apple-only: README.md's list differs from the code; paste what Scripts/apple-only.py prints:\n" + generated, file=sys.stderr)
            return 1
        return 0
    print(generated)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
