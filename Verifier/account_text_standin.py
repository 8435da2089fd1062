"""Spec 3.7, the account text profile: the verifier's own implementation.

Every character property comes from the Spec's normative data file, Spec/account-text-tables.txt
(Unicode 14.0 values, generated once), and from nothing else: no `unicodedata`, so the verifier
gives the same answers whatever Unicode version the Python running it ships.

The mutation run breaks the rules T1-T7 here, one switch per rule (see rules.py), including one
per class of T2, so T2 is decided from the data file's property groups (General_Category,
Default_Ignorable_Code_Point, Hangul_Syllable_Type) rather than from its derived `T2.refused`
set; `consistency_failures()` checks that the two agree for every code point.
"""

import bisect
import os

import rules
from errors import ProtocolError


def broken(switch):
    """rules.broken for the switches of 3.7, which all start with `T`: the mutation run relies on that to re-check the
    code point vectors only when such a switch is on (file_checks.py)."""
    if rules.ACTIVE is None:
        return False
    assert switch.startswith("T"), switch
    return rules.broken(switch)

TABLES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Spec", "account-text-tables.txt")
LENGTHS = {"displayName": (0, 256), "emailAddress": (1, 320), "username": (1, 320), "imapHost": (1, 253)}
ZWNJ, ZWJ, SPACE = 0x200C, 0x200D, 0x20
MAX = 0x10FFFF
CATEGORIES = ("Cc", "Cf", "Cn", "Co", "Cs", "Me", "Mn", "Zl", "Zp", "Zs")


def _load(path):
    """NAME -> sorted list of inclusive (first, last) ranges, from the Spec's data file."""
    groups = {}
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            span, name = (part.strip() for part in line.split(";"))
            first, _, last = span.partition("..")
            groups.setdefault(name, []).append((int(first, 16), int(last or first, 16)))
    for name, spans in groups.items():
        spans.sort()
    return groups


GROUPS = _load(TABLES)


def edge_code_points():
    """plaintexts.json#codePoints (Vectors/README.md): every code point that begins or ends a range of a group of
    the data file, and the code points just before and after such a range, in increasing order; no surrogate."""
    edges = set()
    for spans in GROUPS.values():
        for first, last in spans:
            edges.update((first - 1, first, last, last + 1))
    return sorted(cp for cp in edges if 0 <= cp <= MAX and not 0xD800 <= cp <= 0xDFFF)


class Ranges:
    """Membership in a group of the data file (binary search over its ranges)."""

    def __init__(self, name):
        self.spans = GROUPS.get(name, [])
        self.starts = [first for first, _ in self.spans]

    def __contains__(self, cp):
        index = bisect.bisect_right(self.starts, cp) - 1
        return index >= 0 and self.spans[index][1] >= cp


CATEGORY = {value: Ranges("General_Category=" + value) for value in CATEGORIES}
IGNORABLE = Ranges("Default_Ignorable_Code_Point")
JAMO = {value: Ranges("Hangul_Syllable_Type=" + value) for value in "LVT"}
VIRAMA = Ranges("Canonical_Combining_Class=9")
JOINING = {value: Ranges("Joining_Type=" + value) for value in "CDLRT"}
HANGUL_JAMO_BLOCK = (0x1100, 0x11FF)  # the jamo of the original block; extended-A and -B lie outside it


def category(cp):
    """General_Category, for the values the rules name; `other` for every other one."""
    if cp == 0x1171E and broken("T.u1171E"):  # its Unicode 16.0 value (Mc) instead of 14.0's (Mn)
        return "other"
    for value, members in CATEGORY.items():
        if cp in members:
            return value
    return "other"


def joining_type(cp):
    for value, members in JOINING.items():
        if cp in members:
            return value
    return "U"


def _is_mark(cp):
    return category(cp) in ("Mn", "Me")


def _jamo_refused(cp):
    for value, members in JAMO.items():
        if cp in members:
            if broken("T2jamo") or broken("T2jamo" + value):
                return False
            if broken("T2jamoExtended") and not HANGUL_JAMO_BLOCK[0] <= cp <= HANGUL_JAMO_BLOCK[1]:
                return False
            return True
    return False


def _disallowed(cp):
    """T2: PRECIS FreeformClass disallowed code points, as Spec 3.7 lists them (ZWNJ/ZWJ go to T3)."""
    if cp in (ZWNJ, ZWJ) and not broken("T2cf"):
        return False
    kind = category(cp)
    if kind == "Cc":
        return not broken("T2cc")
    if kind in ("Cs", "Co"):
        return not broken("T2co")
    if kind == "Cn":
        return not broken("T2cn")
    if kind in ("Zl", "Zp"):
        return not broken("T2zlzp")
    if kind == "Zs" and cp != SPACE:
        return not broken("T2zs")
    if kind == "Cf":
        return not broken("T2cf")
    if cp in IGNORABLE:
        return not broken("T2di")
    return _jamo_refused(cp)


def _after_virama(cps, index):
    before = cps[index - 1] if index > 0 else None
    skips = "T3zwjViramaSkipsMarks" if cps[index] == ZWJ else "T3zwnjViramaSkipsMarks"
    if broken(skips):  # a virama further back, across marks, would count
        back = index - 1
        while back >= 0 and _is_mark(cps[back]) and cps[back] not in VIRAMA:
            back -= 1
        before = cps[back] if back >= 0 else None
    return before is not None and before in VIRAMA


def _joiner_allowed(cps, index):
    cp = cps[index]
    after_virama = _after_virama(cps, index)
    if cp == ZWJ:
        return after_virama or broken("T3zwj")
    if after_virama:
        return not broken("T3zwnjVirama")
    if broken("T3zwnjJoining"):
        return False
    transparent = not broken("T3zwnjTransparent")
    left = index - 1
    while transparent and left >= 0 and joining_type(cps[left]) == "T":
        left -= 1
    right = index + 1
    while transparent and right < len(cps) and joining_type(cps[right]) == "T":
        right += 1
    before_ok = ("L", "D") if not broken("T3zwnjBefore") else ("L", "D", "R")
    after_ok = ("R", "D") if not broken("T3zwnjAfter") else ("R", "D", "L")
    return (left >= 0 and joining_type(cps[left]) in before_ok
            and right < len(cps) and joining_type(cps[right]) in after_ok)


def check_field(field, text):
    """Spec 3.7 rules T1-T7, in order; raises `malformed.<field>` on the first one broken."""
    if first_broken_rule(field, text) is not None:
        raise ProtocolError("malformed." + field)


def first_broken_rule(field, text):
    """The first rule of T1-T7 that `text` breaks as `field`, or None."""
    if broken("T.mapping"):  # the Nickname profile's space mapping applied instead of refusing
        text = " ".join(part for part in text.split(" ") if part) if field in ("displayName", "username") else text
    cps = [ord(ch) for ch in text]
    low, high = LENGTHS[field]
    if broken("T1bounds"):
        high += 1
    if broken("T1min"):
        low = 0

    def t1():
        size = len(text.encode("utf-8", "surrogatepass"))
        return (size < low or size > high) and not broken("T1")

    def t2():
        return not broken("T2") and any(_disallowed(cp) for cp in cps)

    def t3():
        return not broken("T3") and any(cp in (ZWNJ, ZWJ) and not _joiner_allowed(cps, i) for i, cp in enumerate(cps))

    def t4():
        if broken("T4"):
            return False
        if field in ("displayName", "username"):
            edge = (text.startswith(" ") or text.endswith(" ")) and not broken("T4edge")
            return edge or ("  " in text and not broken("T4double"))
        return " " in text and not broken("T4none")

    def t5():
        run = 0
        for cp in cps:
            counted = _is_mark(cp) and not (broken("T5enclosing") and category(cp) == "Me")
            run = run + 1 if counted else 0
            if (run >= 4 if broken("T5bound") else run > 4) and not broken("T5"):
                return True
        return False

    def t6():
        if field != "displayName" or broken("T6"):
            return False

        def weightless(cp):
            if broken("T6weights"):
                return False
            if cp in (ZWNJ, ZWJ):
                return not broken("T6joiners")
            return _is_mark(cp)

        units = sum(0 if weightless(cp) else 1 for cp in cps)
        return units >= 64 if broken("T6bound") else units > 64

    def t7():
        return field == "imapHost" and not broken("T7") and not _ldh(text)

    order = [("T1", t1), ("T2", t2), ("T3", t3), ("T4", t4), ("T5", t5), ("T6", t6), ("T7", t7)]
    if broken("T.fieldOrder"):
        order[0], order[1] = order[1], order[0]
    if broken("T.t6BeforeT2"):
        order.insert(1, order.pop(5))
    for name, rule in order:
        if rule():
            return name
    return None


def _ldh(host):
    allowed = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-")
    if broken("T7chars"):
        allowed.add("_")
    labels = host.split(".")
    if broken("T7empty"):
        labels = [label for label in labels if label]
    for label in labels:
        if not 1 <= len(label) <= (64 if broken("T7label") else 63):
            return False
        if any(ch not in allowed for ch in label):
            return False
        if (label.startswith("-") or label.endswith("-")) and not broken("T7hyphen"):
            return False
    return bool(labels)


# ------------------------------------------------------------------ consistency of the data file


def _bits(*names, without=()):
    """The union of groups as one integer bit set over the code space (bit c = code point c)."""
    value = 0
    for name in names:
        for first, last in GROUPS.get(name, []):
            value |= ((1 << (last - first + 1)) - 1) << first
    for cp in without:
        value &= ~(1 << cp)
    return value


def consistency_failures():
    """The derived groups of the data file must follow from its property groups as their comments say."""
    failures = []
    every = (1 << (MAX + 1)) - 1
    surrogates = _bits("General_Category=Cs")
    refused = (_bits(*("General_Category=" + value for value in ("Cc", "Cs", "Co", "Cn", "Zl", "Zp", "Cf")),
                     "Default_Ignorable_Code_Point", "Hangul_Syllable_Type=L", "Hangul_Syllable_Type=V",
                     "Hangul_Syllable_Type=T", without=(ZWNJ, ZWJ))
               | _bits("General_Category=Zs", without=(SPACE,)))
    marks = _bits("General_Category=Mn", "General_Category=Me")
    expected = {
        "T2.refused": refused,
        "T3.virama": _bits("Canonical_Combining_Class=9"),
        "T5.mark": marks,
        "T6.zeroUnits": marks | (1 << ZWNJ) | (1 << ZWJ),
        "allowed.displayName": every & ~refused & ~surrogates,
        "allowed.emailAddress": every & ~refused & ~surrogates & ~(1 << SPACE),
        "allowed.imapHost": sum(1 << ord(ch) for ch in "-.0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"),
    }
    for name, value in expected.items():
        if _bits(name) != value:
            failures.append(f"{name} does not follow from the property groups")
    categories = [_bits("General_Category=" + value) for value in CATEGORIES]
    joining = [_bits("Joining_Type=" + value) for value in "CDLRT"]
    for label, sets in (("General_Category", categories), ("Joining_Type", joining)):
        seen = 0
        for members in sets:
            if seen & members:
                failures.append(f"a code point has two {label} values")
            seen |= members
    return failures

