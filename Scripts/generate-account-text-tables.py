#!/usr/bin/env python3
"""Generates the Unicode 14.0 tables of the account-text profile (Spec/protocol.md 3.7).

Outputs (rewritten in place; run from the repository root):
  Sources/AccountHandoff/Model/JoiningType.swift         Joining_Type, resolved (R L D C T; rest U)
  Sources/AccountHandoff/Model/AccountTextProperties.swift  per code point: refused by T2, mark
                                                         (Mn/Me), virama (ccc 9), joiner
  Verifier/account_text.py (between the GENERATED markers)  Joining_Type as listed in
                                                         ArabicShaping.txt, Default_Ignorable_Code_Point,
                                                         Hangul_Syllable_Type L/V/T
  Spec/account-text-tables.txt                           the normative data of Spec 3.7: every property
                                                         value the rules read and the sets each rule
                                                         takes, as code point ranges (the independent
                                                         verifier reads only this file)

Sources of the data, and why both:
  * General_Category and Canonical_Combining_Class come from Python's `unicodedata`, which MUST
    be Unicode 14.0.0 (Python 3.11). The Unicode 15.0 UnicodeData.txt is not used for them:
    properties of old code points change between versions (U+0295 is Lo in 14.0, Ll in 15.0).
  * ArabicShaping.txt, DerivedCoreProperties.txt, HangulSyllableType.txt, PropList.txt and
    DerivedAge.txt come from Debian's `unicode-data` package (Unicode 15.0.0, /usr/share/unicode;
    `apt-get install unicode-data`). Only code points with Age <= 14.0 are kept (code points
    that are unassigned in 15.0 keep their values too: some Default_Ignorable_Code_Point ranges
    are reserved). The script checks that this agrees with `unicodedata` 14.0 code point by code
    point (the assigned set, and Default_Ignorable_Code_Point against its derivation rule).

Usage: Scripts/generate-account-text-tables.py [--ucd /usr/share/unicode] [--check]
  --check  exits 1 if a generated file differs from what is committed (writes nothing).
"""

import argparse
import os
import re
import sys
import textwrap
import unicodedata

UNICODE_VERSION = (14, 0)
MAX = 0x10FFFF
REPO = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
SWIFT_JOINING = "Sources/AccountHandoff/Model/JoiningType.swift"
SWIFT_PROPERTIES = "Sources/AccountHandoff/Model/AccountTextProperties.swift"
PYTHON_MODULE = "Verifier/account_text.py"
SPEC_TABLES = "Spec/account-text-tables.txt"
BEGIN_MARK = "# BEGIN GENERATED TABLES (Scripts/generate-account-text-tables.py; do not edit)\n"
END_MARK = "# END GENERATED TABLES\n"


def fail(message):
    sys.exit(f"generate-account-text-tables: {message}")


def read_ucd(ucd, name):
    """Yields (first, last, [fields...]) for every data line of a UCD file, and its version."""
    path = os.path.join(ucd, name)
    with open(path, encoding="utf-8") as handle:
        text = handle.read()
    version = re.search(r"^# \S+-(\d+\.\d+\.\d+)\.txt", text, re.M)
    rows = []
    for line in text.splitlines():
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        fields = [field.strip() for field in line.split(";")]
        first, _, last = fields[0].partition("..")
        rows.append((int(first, 16), int(last or first, 16), fields[1:]))
    return version.group(1) if version else "unknown", rows


def expand(rows, keep=lambda fields: True, value=lambda fields: fields[0]):
    table = {}
    for first, last, fields in rows:
        if keep(fields):
            for code in range(first, last + 1):
                table[code] = value(fields)
    return table


def ranges(codes):
    """Sorted (first, last) runs of a set of code points."""
    runs = []
    for code in sorted(codes):
        if runs and runs[-1][1] == code - 1:
            runs[-1][1] = code
        else:
            runs.append([code, code])
    return [tuple(run) for run in runs]


def runs_of(value_of):
    """(first code point, value) wherever value_of changes, over the whole code space."""
    runs = []
    previous = None
    for code in range(MAX + 1):
        value = value_of(code)
        if value != previous:
            runs.append((code, value))
            previous = value
    return runs


class Data:
    def __init__(self, ucd):
        if unicodedata.unidata_version != "14.0.0":
            fail(f"Python's unicodedata is {unicodedata.unidata_version}; run with Python 3.11 (Unicode 14.0.0)")
        self.versions = {}
        age_version, age_rows = read_ucd(ucd, "DerivedAge.txt")
        self.versions["DerivedAge.txt"] = age_version
        age = expand(age_rows, value=lambda f: tuple(int(x) for x in f[0].split(".")))
        self.age = age

        def in_scope(code):  # assigned by 14.0, or still unassigned in the UCD's version
            return code not in age or age[code] <= UNICODE_VERSION

        self.in_scope = in_scope
        version, rows = read_ucd(ucd, "ArabicShaping.txt")
        self.versions["ArabicShaping.txt"] = version
        self.joining_listed = {c: t for c, t in expand(rows, value=lambda f: f[1]).items() if in_scope(c)}
        version, rows = read_ucd(ucd, "DerivedCoreProperties.txt")
        self.versions["DerivedCoreProperties.txt"] = version
        self.ignorable = {c for c in expand(rows, keep=lambda f: f[0] == "Default_Ignorable_Code_Point") if in_scope(c)}
        version, rows = read_ucd(ucd, "HangulSyllableType.txt")
        self.versions["HangulSyllableType.txt"] = version
        self.hangul = {c: t for c, t in expand(rows).items() if in_scope(c) and t in ("L", "V", "T")}
        version, rows = read_ucd(ucd, "PropList.txt")
        self.versions["PropList.txt"] = version
        self.proplist = rows
        self.noncharacters = set(expand(rows, keep=lambda f: f[0] == "Noncharacter_Code_Point"))
        self.category = [unicodedata.category(chr(c)) for c in range(MAX + 1)]
        self.combining = [unicodedata.combining(chr(c)) for c in range(MAX + 1)]
        self.cross_check()

    def cross_check(self):
        """The UCD files filtered by Age must describe the same Unicode 14.0 as unicodedata."""
        for code in range(MAX + 1):
            assigned_14 = self.category[code] != "Cn"
            by_age = code in self.age and self.age[code] <= UNICODE_VERSION and code not in self.noncharacters
            if assigned_14 != by_age:
                fail(f"U+{code:04X}: unicodedata and DerivedAge.txt disagree on whether it is assigned in 14.0")
        # Default_Ignorable_Code_Point = Other_Default_Ignorable_Code_Point + Cf + Variation_Selector
        #   - White_Space - FFF9..FFFB - Prepended_Concatenation_Mark - Egyptian format controls
        # (UAX #44), evaluated with 14.0 categories, for the code points assigned in 14.0.
        props = {}
        for first, last, fields in self.proplist:
            for code in range(first, last + 1):
                props.setdefault(fields[0], set()).add(code)
        for code in range(MAX + 1):
            if self.category[code] == "Cn":
                continue
            derived = (code in props["Other_Default_Ignorable_Code_Point"] or self.category[code] == "Cf"
                       or code in props["Variation_Selector"])
            derived = derived and code not in props["White_Space"] and not 0xFFF9 <= code <= 0xFFFB
            derived = derived and code not in props["Prepended_Concatenation_Mark"] and not 0x13430 <= code <= 0x1343F
            if derived != (code in self.ignorable):
                fail(f"U+{code:04X}: Default_Ignorable_Code_Point does not follow its derivation with 14.0 categories")

    # Spec 3.7 with Unicode 14.0 values

    def joining_type(self, code):
        listed = self.joining_listed.get(code)
        if listed is not None:
            return listed
        return "T" if self.category[code] in ("Mn", "Me", "Cf") else "U"

    def is_joiner(self, code):
        return code in (0x200C, 0x200D)

    def refused_by_t2(self, code):
        if self.is_joiner(code):
            return False  # decided by T3
        category = self.category[code]
        if category in ("Cc", "Cs", "Co", "Cn", "Zl", "Zp", "Cf"):
            return True
        if category == "Zs" and code != 0x20:
            return True
        return code in self.ignorable or code in self.hangul

    def is_mark(self, code):
        return self.category[code] in ("Mn", "Me")

    def is_virama(self, code):
        return self.combining[code] == 9


def comment_lines(prefix, text):
    return "".join(f"{prefix}{line}\n" for line in textwrap.wrap(text, 96))


def provenance(data):
    files = ", ".join(f"{name} {version}" for name, version in sorted(data.versions.items()))
    return (f"Unicode 14.0: General_Category and Canonical_Combining_Class from Python's unicodedata "
            f"{unicodedata.unidata_version}; from Debian's unicode-data ({files}) only the code points with "
            f"Age <= 14.0 (or unassigned there) are kept.")


def swift_header(data, what):
    return ("// GENERATED by Scripts/generate-account-text-tables.py; do not edit.\n"
            + comment_lines("// ", what) + comment_lines("// ", provenance(data)))


def swift_array(entries, per_line=6):
    lines = []
    for index in range(0, len(entries), per_line):
        lines.append("        " + ", ".join(f"0x{entry:08X}" for entry in entries[index:index + per_line]) + ",")
    return "\n".join(lines)


JOINING_CODES = {"U": 0, "R": 1, "L": 2, "D": 3, "C": 4, "T": 5}


def swift_joining_type(data):
    runs = runs_of(lambda code: JOINING_CODES[data.joining_type(code)])
    counts = {t: sum(1 for c in range(MAX + 1) if data.joining_type(c) == t) for t in "RLDCT"}
    summary = ", ".join(f"{t} {counts[t]}" for t in "RLDCT")
    return swift_header(data, f"Joining_Type of every code point: {summary} code points, the rest U; {len(runs)} runs.") + f"""
/// `Joining_Type` of Unicode 14.0 (`ArabicShaping.txt`), as CONTEXTJ needs it (Spec 3.7, T3).
///
/// Resolved for every code point: the values listed in `ArabicShaping.txt`, and for the others
/// T when their Unicode 14.0 General_Category is Mn, Me or Cf, and U otherwise. It does not
/// depend on the Unicode version of the Swift runtime.
enum JoiningType: UInt8, Equatable {{
    case nonJoining = 0, right = 1, left = 2, dual = 3, joinCausing = 4, transparent = 5

    /// The Joining_Type of `scalar`.
    static func of(_ scalar: Unicode.Scalar) -> JoiningType {{
        JoiningType(rawValue: UInt8(truncatingIfNeeded: CodePointRuns.value(of: scalar, in: runs))) ?? .nonJoining
    }}

    /// `(first code point << 8) | value`, sorted: each value holds up to the next entry's first
    /// code point.
    private static let runs: [UInt32] = [
{swift_array([(first << 8) | value for first, value in runs])}
    ]
}}
"""


REFUSED, MARK, VIRAMA, JOINER = 1, 2, 4, 8


def swift_properties(data):
    def flags(code):
        value = 0
        if data.refused_by_t2(code):
            value |= REFUSED
        if data.is_mark(code):
            value |= MARK
        if data.is_virama(code):
            value |= VIRAMA
        if data.is_joiner(code):
            value |= JOINER
        return value

    runs = runs_of(flags)
    refused = sum(1 for c in range(MAX + 1) if data.refused_by_t2(c))
    marks = sum(1 for c in range(MAX + 1) if data.is_mark(c))
    viramas = sum(1 for c in range(MAX + 1) if data.is_virama(c))
    return swift_header(data, f"Per code point: {refused} refused by T2, {marks} marks (Mn, Me), {viramas} viramas (ccc 9); {len(runs)} runs.") + f"""
/// The Unicode 14.0 properties the account-text rules need (Spec 3.7), one table lookup per
/// code point, independent of the Unicode version of the Swift runtime (whose data differs from
/// 14.0 for some code points: U+1171E is Mn in 14.0 and Mc from Unicode 16.0).
struct AccountTextProperties: OptionSet {{
    let rawValue: UInt8

    /// Refused anywhere by T2: General_Category Cc, Cs, Co, Cn (also every code point assigned
    /// after 14.0, and noncharacters), Zl, Zp, Cf, Zs other than U+0020, Default_Ignorable_Code_Point,
    /// Hangul_Syllable_Type L, V, T. Not set for U+200C and U+200D, which T3 decides.
    static let refused = AccountTextProperties(rawValue: {REFUSED})
    /// General_Category Mn or Me (T5, T6).
    static let mark = AccountTextProperties(rawValue: {MARK})
    /// Canonical_Combining_Class 9, Virama (T3).
    static let virama = AccountTextProperties(rawValue: {VIRAMA})
    /// U+200C ZERO WIDTH NON-JOINER or U+200D ZERO WIDTH JOINER (T3, T6).
    static let joiner = AccountTextProperties(rawValue: {JOINER})

    /// The properties of `scalar`.
    static func of(_ scalar: Unicode.Scalar) -> AccountTextProperties {{
        AccountTextProperties(rawValue: UInt8(truncatingIfNeeded: CodePointRuns.value(of: scalar, in: runs)))
    }}

    /// `(first code point << 8) | flags`, sorted: each value holds up to the next entry's first
    /// code point.
    private static let runs: [UInt32] = [
{swift_array([(first << 8) | value for first, value in runs])}
    ]
}}

/// Lookup in a run table of `(first code point << 8) | value` entries sorted by code point,
/// the first at U+0000.
enum CodePointRuns {{
    /// The value of the last run that starts at or before `scalar`.
    static func value(of scalar: Unicode.Scalar, in runs: [UInt32]) -> UInt32 {{
        var low = 0
        var high = runs.count  // invariant: runs[low] starts at or before scalar, runs[high] after it
        while high - low > 1 {{
            let middle = (low + high) / 2
            if runs[middle] >> 8 <= scalar.value {{ low = middle }} else {{ high = middle }}
        }}
        return runs[low] & 0xFF
    }}
}}
"""


def python_ranges(name, table_ranges, per_line=6):
    lines = [f"{name} = ("]
    for index in range(0, len(table_ranges), per_line):
        lines.append("    " + " ".join(f"{entry}," for entry in table_ranges[index:index + per_line]))
    lines.append(")")
    return "\n".join(lines)


def python_tables(data):
    def typed_ranges(table):
        by_value = {}
        for code, value in table.items():
            by_value.setdefault(value, set()).add(code)
        typed = sorted((a, b, value) for value, codes in by_value.items() for a, b in ranges(codes))
        return [f"(0x{a:04X}, 0x{b:04X}, {value!r})" for a, b, value in typed]

    joining = typed_ranges(data.joining_listed)
    hangul = typed_ranges(data.hangul)
    ignorable = [f"(0x{a:04X}, 0x{b:04X})" for a, b in ranges(data.ignorable)]
    return (BEGIN_MARK
            + comment_lines("# ", provenance(data) + " Ranges are inclusive.")
            + "# Joining_Type as listed in ArabicShaping.txt (joining_type() derives the others).\n"
            + python_ranges("JOINING_TYPE_LISTED", joining, 3) + "\n"
            + "# Default_Ignorable_Code_Point (DerivedCoreProperties.txt).\n"
            + python_ranges("DEFAULT_IGNORABLE", ignorable, 5) + "\n"
            + "# Hangul_Syllable_Type L, V and T (HangulSyllableType.txt): conjoining jamo.\n"
            + python_ranges("HANGUL_JAMO", hangul, 3) + "\n"
            + END_MARK)


ZWNJ, ZWJ, SPACE = 0x200C, 0x200D, 0x20
LDH = set(range(0x30, 0x3A)) | set(range(0x41, 0x5B)) | set(range(0x61, 0x7B)) | {0x2D, 0x2E}


def spec_properties(data):
    """(name, meaning, set of code points) for every line group of Spec/account-text-tables.txt, in file order."""
    every = range(MAX + 1)
    category = data.category

    def gc(value):
        return {c for c in every if category[c] == value}

    refused = {c for c in every if data.refused_by_t2(c)}
    marks = {c for c in every if data.is_mark(c)}
    allowed = set(every) - refused - set(range(0xD800, 0xE000))
    groups = [(f"General_Category={value}", f"General_Category {value} ({meaning})", gc(value)) for value, meaning in (
        ("Cc", "control"), ("Cf", "format"), ("Cn", "unassigned, noncharacters included"), ("Co", "private use"),
        ("Cs", "surrogate"), ("Me", "enclosing mark"), ("Mn", "nonspacing mark"), ("Zl", "line separator"),
        ("Zp", "paragraph separator"), ("Zs", "space separator"))]
    groups.append(("Default_Ignorable_Code_Point", "Default_Ignorable_Code_Point (DerivedCoreProperties.txt)", set(data.ignorable)))
    for value in "LVT":
        groups.append((f"Hangul_Syllable_Type={value}", f"Hangul_Syllable_Type {value} (HangulSyllableType.txt)",
                       {c for c, t in data.hangul.items() if t == value}))
    groups.append(("Canonical_Combining_Class=9", "Canonical_Combining_Class 9, Virama", {c for c in every if data.is_virama(c)}))
    for value in "CDLRT":
        groups.append((f"Joining_Type={value}", f"Joining_Type {value}, resolved: as listed in ArabicShaping.txt, "
                       "otherwise T for General_Category Mn, Me and Cf; every code point listed under no Joining_Type is U",
                       {c for c in every if data.joining_type(c) == value}))
    groups += [
        ("T2.refused", "T2: refused in every field: General_Category Cc, Cs, Co, Cn, Zl, Zp, Cf, Zs other than U+0020, "
         "Default_Ignorable_Code_Point, Hangul_Syllable_Type L, V, T; without U+200C and U+200D, which T3 decides", refused),
        ("T3.virama", "T3: a ZWJ or ZWNJ directly after one of these is allowed (Canonical_Combining_Class 9)",
         {c for c in every if data.is_virama(c)}),
        ("T5.mark", "T5: the marks of a run (General_Category Mn or Me); T6 counts them 0 units", marks),
        ("T6.zeroUnits", "T6: code points that count 0 display units (T5.mark, U+200C, U+200D); every other code point counts 1",
         marks | {ZWNJ, ZWJ}),
        ("allowed.displayName", "code points that a displayName or username can hold at all (not T2.refused, not a surrogate); "
         "U+0020, U+200C and U+200D only where T3 and T4 allow them", allowed),
        ("allowed.emailAddress", "code points that an emailAddress can hold at all: allowed.displayName without U+0020 (T4)",
         allowed - {SPACE}),
        ("allowed.imapHost", "code points that an imapHost can hold at all (T7): ASCII letters, digits, '-' and '.'", LDH),
    ]
    return groups


def spec_tables(data):
    groups = spec_properties(data)
    lines = [
        "# AccountHandoff protocol version 4, Spec/protocol.md 3.7: the character data of the account",
        "# text rules T2-T7. NORMATIVE: an implementation MUST decide every code point as this file does,",
        "# whatever Unicode version its platform ships.",
        "#",
        "# GENERATED by Scripts/generate-account-text-tables.py from the Unicode 14.0 character database;",
        "# do not edit.",
    ] + ["# " + line for line in textwrap.wrap(provenance(data), 94)] + [
        "#",
        "# Format: one line per range, `FIRST..LAST ; NAME` or `CODE ; NAME`, code points as hexadecimal",
        "# (at least 4 digits, upper case), ranges inclusive, grouped by NAME in the order below and sorted",
        "# by code point within a group. A code point not listed under a NAME does not have it. `#` starts",
        "# a comment. The first groups are Unicode 14.0 property values, the rest the sets the rules take",
        "# (derived from them as each group's comment says, so an implementation may use either).",
        "#",
    ]
    for name, meaning, codes in groups:
        lines.append(f"# {name}: {len(codes)} code points in {len(ranges(codes))} ranges")
    for name, meaning, codes in groups:
        lines += ["", f"# {name}"] + ["#   " + line for line in textwrap.wrap(meaning, 92)]
        for first, last in ranges(codes):
            span = f"{first:04X}" if first == last else f"{first:04X}..{last:04X}"
            lines.append(f"{span:14} ; {name}")
    return "\n".join(lines) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ucd", default="/usr/share/unicode")
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    data = Data(args.ucd)
    outputs = {SWIFT_JOINING: swift_joining_type(data), SWIFT_PROPERTIES: swift_properties(data)}
    module_path = os.path.join(REPO, PYTHON_MODULE)
    with open(module_path, encoding="utf-8") as handle:
        module = handle.read()
    if BEGIN_MARK not in module or END_MARK not in module:
        fail(f"{PYTHON_MODULE} lacks the generated-table markers")
    head, rest = module.split(BEGIN_MARK, 1)
    _, tail = rest.split(END_MARK, 1)
    outputs[PYTHON_MODULE] = head + python_tables(data) + tail
    outputs[SPEC_TABLES] = spec_tables(data)
    stale = []
    for relative, text in outputs.items():
        path = os.path.join(REPO, relative)
        current = open(path, encoding="utf-8").read() if os.path.exists(path) else None
        if current == text:
            continue
        stale.append(relative)
        if not args.check:
            with open(path, "w", encoding="utf-8") as handle:
                handle.write(text)
    if args.check and stale:
        fail("out of date: " + ", ".join(stale))
    print(("would change: " if args.check else "wrote: ") + (", ".join(stale) or "nothing"))


if __name__ == "__main__":
    main()
