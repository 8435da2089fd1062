#!/usr/bin/env python3
"""The account-text profile of Spec/protocol.md 3.7 (rules T1-T7), written from the Spec.

Independent of the Swift code: General_Category and Canonical_Combining_Class come from
Python's own `unicodedata` (which must be Unicode 14.0.0, as in Python 3.11), and the three
properties it lacks (Joining_Type, Default_Ignorable_Code_Point, Hangul_Syllable_Type) from the
tables below, generated from the Unicode data files by Scripts/generate-account-text-tables.py.

    validate(value, field)   returns None, or raises AccountTextError("malformed.<field>")

`field` is one of displayName, emailAddress, username, imapHost. Run as a script it reads JSON
lines `{"field": ..., "value": ...}` on stdin and answers each with `{"result": "accepted" or
"malformed.<field>"}`; with `--properties` it prints, for every code point, the properties
the rules use (for the Swift test that compares both implementations code point by code point).
"""

import json
import re
import sys
import unicodedata

if unicodedata.unidata_version != "14.0.0":
    raise ImportError(f"account_text needs Unicode 14.0.0 in unicodedata (Python 3.11), not {unicodedata.unidata_version}")


class AccountTextError(ValueError):
    """A string broke a rule of Spec 3.7; `identifier` is `malformed.<field>`."""

    def __init__(self, field):
        self.identifier = "malformed." + field
        super().__init__(self.identifier)


# T1: UTF-8 byte lengths per field.
BYTE_LENGTHS = {"displayName": (0, 256), "emailAddress": (1, 320), "username": (1, 320), "imapHost": (1, 253)}
MAXIMUM_MARK_RUN = 4          # T5
MAXIMUM_DISPLAY_UNITS = 64    # T6
ZWNJ, ZWJ, SPACE = "\u200c", "\u200d", " "
LDH_LABEL = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\Z", re.ASCII)

# BEGIN GENERATED TABLES (Scripts/generate-account-text-tables.py; do not edit)
# Unicode 14.0: General_Category and Canonical_Combining_Class from Python's unicodedata 14.0.0;
# from Debian's unicode-data (ArabicShaping.txt 15.0.0, DerivedAge.txt 15.0.0,
# DerivedCoreProperties.txt 15.0.0, HangulSyllableType.txt 15.0.0, PropList.txt 15.0.0) only the
# code points with Age <= 14.0 (or unassigned there) are kept. Ranges are inclusive.
# Joining_Type as listed in ArabicShaping.txt (joining_type() derives the others).
JOINING_TYPE_LISTED = (
    (0x0600, 0x0605, 'U'), (0x0608, 0x0608, 'U'), (0x060B, 0x060B, 'U'),
    (0x0620, 0x0620, 'D'), (0x0621, 0x0621, 'U'), (0x0622, 0x0625, 'R'),
    (0x0626, 0x0626, 'D'), (0x0627, 0x0627, 'R'), (0x0628, 0x0628, 'D'),
    (0x0629, 0x0629, 'R'), (0x062A, 0x062E, 'D'), (0x062F, 0x0632, 'R'),
    (0x0633, 0x063F, 'D'), (0x0640, 0x0640, 'C'), (0x0641, 0x0647, 'D'),
    (0x0648, 0x0648, 'R'), (0x0649, 0x064A, 'D'), (0x066E, 0x066F, 'D'),
    (0x0671, 0x0673, 'R'), (0x0674, 0x0674, 'U'), (0x0675, 0x0677, 'R'),
    (0x0678, 0x0687, 'D'), (0x0688, 0x0699, 'R'), (0x069A, 0x06BF, 'D'),
    (0x06C0, 0x06C0, 'R'), (0x06C1, 0x06C2, 'D'), (0x06C3, 0x06CB, 'R'),
    (0x06CC, 0x06CC, 'D'), (0x06CD, 0x06CD, 'R'), (0x06CE, 0x06CE, 'D'),
    (0x06CF, 0x06CF, 'R'), (0x06D0, 0x06D1, 'D'), (0x06D2, 0x06D3, 'R'),
    (0x06D5, 0x06D5, 'R'), (0x06DD, 0x06DD, 'U'), (0x06EE, 0x06EF, 'R'),
    (0x06FA, 0x06FC, 'D'), (0x06FF, 0x06FF, 'D'), (0x070F, 0x070F, 'T'),
    (0x0710, 0x0710, 'R'), (0x0712, 0x0714, 'D'), (0x0715, 0x0719, 'R'),
    (0x071A, 0x071D, 'D'), (0x071E, 0x071E, 'R'), (0x071F, 0x0727, 'D'),
    (0x0728, 0x0728, 'R'), (0x0729, 0x0729, 'D'), (0x072A, 0x072A, 'R'),
    (0x072B, 0x072B, 'D'), (0x072C, 0x072C, 'R'), (0x072D, 0x072E, 'D'),
    (0x072F, 0x072F, 'R'), (0x074D, 0x074D, 'R'), (0x074E, 0x0758, 'D'),
    (0x0759, 0x075B, 'R'), (0x075C, 0x076A, 'D'), (0x076B, 0x076C, 'R'),
    (0x076D, 0x0770, 'D'), (0x0771, 0x0771, 'R'), (0x0772, 0x0772, 'D'),
    (0x0773, 0x0774, 'R'), (0x0775, 0x0777, 'D'), (0x0778, 0x0779, 'R'),
    (0x077A, 0x077F, 'D'), (0x07CA, 0x07EA, 'D'), (0x07FA, 0x07FA, 'C'),
    (0x0840, 0x0840, 'R'), (0x0841, 0x0845, 'D'), (0x0846, 0x0847, 'R'),
    (0x0848, 0x0848, 'D'), (0x0849, 0x0849, 'R'), (0x084A, 0x0853, 'D'),
    (0x0854, 0x0854, 'R'), (0x0855, 0x0855, 'D'), (0x0856, 0x0858, 'R'),
    (0x0860, 0x0860, 'D'), (0x0861, 0x0861, 'U'), (0x0862, 0x0865, 'D'),
    (0x0866, 0x0866, 'U'), (0x0867, 0x0867, 'R'), (0x0868, 0x0868, 'D'),
    (0x0869, 0x086A, 'R'), (0x0870, 0x0882, 'R'), (0x0883, 0x0885, 'C'),
    (0x0886, 0x0886, 'D'), (0x0887, 0x0888, 'U'), (0x0889, 0x088D, 'D'),
    (0x088E, 0x088E, 'R'), (0x0890, 0x0891, 'U'), (0x08A0, 0x08A9, 'D'),
    (0x08AA, 0x08AC, 'R'), (0x08AD, 0x08AD, 'U'), (0x08AE, 0x08AE, 'R'),
    (0x08AF, 0x08B0, 'D'), (0x08B1, 0x08B2, 'R'), (0x08B3, 0x08B8, 'D'),
    (0x08B9, 0x08B9, 'R'), (0x08BA, 0x08C8, 'D'), (0x08E2, 0x08E2, 'U'),
    (0x1806, 0x1806, 'U'), (0x1807, 0x1807, 'D'), (0x180A, 0x180A, 'C'),
    (0x180E, 0x180E, 'U'), (0x1820, 0x1878, 'D'), (0x1880, 0x1884, 'U'),
    (0x1885, 0x1886, 'T'), (0x1887, 0x18A8, 'D'), (0x18AA, 0x18AA, 'D'),
    (0x200C, 0x200C, 'U'), (0x200D, 0x200D, 'C'), (0x202F, 0x202F, 'U'),
    (0x2066, 0x2069, 'U'), (0xA840, 0xA871, 'D'), (0xA872, 0xA872, 'L'),
    (0xA873, 0xA873, 'U'), (0x10AC0, 0x10AC4, 'D'), (0x10AC5, 0x10AC5, 'R'),
    (0x10AC6, 0x10AC6, 'U'), (0x10AC7, 0x10AC7, 'R'), (0x10AC8, 0x10AC8, 'U'),
    (0x10AC9, 0x10ACA, 'R'), (0x10ACB, 0x10ACC, 'U'), (0x10ACD, 0x10ACD, 'L'),
    (0x10ACE, 0x10AD2, 'R'), (0x10AD3, 0x10AD6, 'D'), (0x10AD7, 0x10AD7, 'L'),
    (0x10AD8, 0x10ADC, 'D'), (0x10ADD, 0x10ADD, 'R'), (0x10ADE, 0x10AE0, 'D'),
    (0x10AE1, 0x10AE1, 'R'), (0x10AE2, 0x10AE3, 'U'), (0x10AE4, 0x10AE4, 'R'),
    (0x10AEB, 0x10AEE, 'D'), (0x10AEF, 0x10AEF, 'R'), (0x10B80, 0x10B80, 'D'),
    (0x10B81, 0x10B81, 'R'), (0x10B82, 0x10B82, 'D'), (0x10B83, 0x10B85, 'R'),
    (0x10B86, 0x10B88, 'D'), (0x10B89, 0x10B89, 'R'), (0x10B8A, 0x10B8B, 'D'),
    (0x10B8C, 0x10B8C, 'R'), (0x10B8D, 0x10B8D, 'D'), (0x10B8E, 0x10B8F, 'R'),
    (0x10B90, 0x10B90, 'D'), (0x10B91, 0x10B91, 'R'), (0x10BA9, 0x10BAC, 'R'),
    (0x10BAD, 0x10BAE, 'D'), (0x10BAF, 0x10BAF, 'U'), (0x10D00, 0x10D00, 'L'),
    (0x10D01, 0x10D21, 'D'), (0x10D22, 0x10D22, 'R'), (0x10D23, 0x10D23, 'D'),
    (0x10F30, 0x10F32, 'D'), (0x10F33, 0x10F33, 'R'), (0x10F34, 0x10F44, 'D'),
    (0x10F45, 0x10F45, 'U'), (0x10F51, 0x10F53, 'D'), (0x10F54, 0x10F54, 'R'),
    (0x10F70, 0x10F73, 'D'), (0x10F74, 0x10F75, 'R'), (0x10F76, 0x10F81, 'D'),
    (0x10FB0, 0x10FB0, 'D'), (0x10FB1, 0x10FB1, 'U'), (0x10FB2, 0x10FB3, 'D'),
    (0x10FB4, 0x10FB6, 'R'), (0x10FB7, 0x10FB7, 'U'), (0x10FB8, 0x10FB8, 'D'),
    (0x10FB9, 0x10FBA, 'R'), (0x10FBB, 0x10FBC, 'D'), (0x10FBD, 0x10FBD, 'R'),
    (0x10FBE, 0x10FBF, 'D'), (0x10FC0, 0x10FC0, 'U'), (0x10FC1, 0x10FC1, 'D'),
    (0x10FC2, 0x10FC3, 'R'), (0x10FC4, 0x10FC4, 'D'), (0x10FC5, 0x10FC8, 'U'),
    (0x10FC9, 0x10FC9, 'R'), (0x10FCA, 0x10FCA, 'D'), (0x10FCB, 0x10FCB, 'L'),
    (0x110BD, 0x110BD, 'U'), (0x110CD, 0x110CD, 'U'), (0x1E900, 0x1E943, 'D'),
    (0x1E94B, 0x1E94B, 'T'),
)
# Default_Ignorable_Code_Point (DerivedCoreProperties.txt).
DEFAULT_IGNORABLE = (
    (0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160), (0x17B4, 0x17B5),
    (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E), (0x2060, 0x206F), (0x3164, 0x3164),
    (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF), (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A), (0xE0000, 0xE0FFF),
)
# Hangul_Syllable_Type L, V and T (HangulSyllableType.txt): conjoining jamo.
HANGUL_JAMO = (
    (0x1100, 0x115F, 'L'), (0x1160, 0x11A7, 'V'), (0x11A8, 0x11FF, 'T'),
    (0xA960, 0xA97C, 'L'), (0xD7B0, 0xD7C6, 'V'), (0xD7CB, 0xD7FB, 'T'),
)
# END GENERATED TABLES


def _in_ranges(table, code):
    low, high = 0, len(table)
    while low < high:
        middle = (low + high) // 2
        if table[middle][1] < code:
            low = middle + 1
        else:
            high = middle
    return table[low] if low < len(table) and table[low][0] <= code else None


def joining_type(char):
    """Joining_Type: as listed in ArabicShaping.txt; otherwise T for Mn, Me, Cf, and U."""
    listed = _in_ranges(JOINING_TYPE_LISTED, ord(char))
    if listed:
        return listed[2]
    return "T" if unicodedata.category(char) in ("Mn", "Me", "Cf") else "U"


def is_default_ignorable(char):
    return _in_ranges(DEFAULT_IGNORABLE, ord(char)) is not None


def is_conjoining_jamo(char):
    return _in_ranges(HANGUL_JAMO, ord(char)) is not None


def is_mark(char):
    return unicodedata.category(char) in ("Mn", "Me")


def is_virama(char):
    return unicodedata.combining(char) == 9


def refused_everywhere(char):
    """T2 for every code point but the two joiners (which T3 decides)."""
    category = unicodedata.category(char)
    if category in ("Cc", "Cs", "Co", "Cn", "Zl", "Zp", "Cf"):
        return True
    if category == "Zs":
        return char != SPACE
    return is_default_ignorable(char) or is_conjoining_jamo(char)


# T3 follows RFC 5892 Appendix A.1 and A.2 literally: a regular expression over the Joining_Type
# letters of the string, evaluated around each joiner.
_JOINING_CONTEXT_BEFORE = re.compile(r"[LD]T*\Z")
_JOINING_CONTEXT_AFTER = re.compile(r"T*[RD]")


def joiner_allowed(chars, index):
    if index > 0 and is_virama(chars[index - 1]):
        return True
    if chars[index] == ZWJ:
        return False
    types = "".join(joining_type(char) for char in chars)
    return bool(_JOINING_CONTEXT_BEFORE.search(types[:index]) and _JOINING_CONTEXT_AFTER.match(types, index + 1))


def _rules(value, field):
    """Yields (rule, holds) for T1-T7 in order; T5 and T6 only where they apply."""
    low, high = BYTE_LENGTHS[field]
    yield "T1", low <= len(value.encode("utf-8", "surrogatepass")) <= high
    yield "T2", not any(refused_everywhere(char) for char in value if char not in (ZWNJ, ZWJ))
    yield "T3", all(joiner_allowed(value, i) for i, char in enumerate(value) if char in (ZWNJ, ZWJ))
    if field in ("displayName", "username"):
        yield "T4", not value.startswith(SPACE) and not value.endswith(SPACE) and SPACE * 2 not in value
    else:
        yield "T4", SPACE not in value
    run = 0
    longest = 0
    for char in value:
        run = run + 1 if is_mark(char) else 0
        longest = max(longest, run)
    yield "T5", longest <= MAXIMUM_MARK_RUN
    if field == "displayName":
        yield "T6", sum(0 if char in (ZWNJ, ZWJ) or is_mark(char) else 1 for char in value) <= MAXIMUM_DISPLAY_UNITS
    if field == "imapHost":
        yield "T7", all(LDH_LABEL.match(label) for label in value.split("."))


def first_broken_rule(value, field):
    """The first of T1-T7 that `value` breaks as `field`, or None when it follows them all."""
    for rule, holds in _rules(value, field):
        if not holds:
            return rule
    return None


def validate(value, field):
    """Checks rules T1-T7 of Spec 3.7; raises AccountTextError("malformed.<field>") on the first
    broken one. `value` is a str of code points (a decoder checks strict UTF-8 before)."""
    if field not in BYTE_LENGTHS:
        raise KeyError(field)
    if first_broken_rule(value, field) is not None:
        raise AccountTextError(field)


def _properties_line(code):
    """`refused mark virama joiningType` for one code point; joiners count as not refused."""
    char = chr(code)
    refused = char not in (ZWNJ, ZWJ) and refused_everywhere(char)
    return f"{int(refused)}{int(is_mark(char))}{int(is_virama(char))}{joining_type(char)}"


def main(arguments):
    if arguments == ["--properties"]:
        sys.stdout.write("".join(_properties_line(code) + "\n" for code in range(0x110000)
                                 if not 0xD800 <= code <= 0xDFFF))
        return 0
    if arguments:
        sys.stderr.write("usage: account_text.py [--properties] < JSON lines\n")
        return 2
    for line in sys.stdin:
        case = json.loads(line)
        try:
            validate(case["value"], case["field"])
            result = "accepted"
        except AccountTextError as error:
            result = error.identifier
        sys.stdout.write(json.dumps({"result": result}) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
