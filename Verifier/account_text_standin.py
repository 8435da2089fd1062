"""Spec 3.7, the account text profile: the verifier's own implementation.

The project's implementation of these rules in Python is Verifier/account_text.py (written
by another engineer from the same text). This one exists for two reasons: it stands in
until that module exists, and the mutation run needs one switch per rule T1-T7, which it
breaks here (see account_rules.py for which one a run uses).

Character properties are Unicode 14.0: Python 3.11's `unicodedata` is exactly 14.0.0
(checked at import). Default_Ignorable_Code_Point and Hangul_Syllable_Type are small and
listed here in full; Joining_Type is listed for the Arabic blocks only (everything else
falls back to the Spec's rule for unlisted code points: T for Mn, Me, Cf, otherwise U).
"""

import unicodedata

from errors import ProtocolError
from rules import broken

UNICODE_VERSION = unicodedata.unidata_version
if UNICODE_VERSION != "14.0.0":  # Spec 3.7: Unicode 14.0 exactly (a later version would pass newer code points)
    raise ImportError(f"the account text rules need Unicode 14.0.0 in unicodedata (Python 3.11), not {UNICODE_VERSION}")

LENGTHS = {"displayName": (0, 256), "emailAddress": (1, 320), "username": (1, 320), "imapHost": (1, 253)}

# DerivedCoreProperties.txt 14.0, Default_Ignorable_Code_Point.
DEFAULT_IGNORABLE = [(0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160), (0x17B4, 0x17B5),
                     (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E), (0x2060, 0x206F), (0x3164, 0x3164),
                     (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF), (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0x1BCA0, 0x1BCA3),
                     (0x1D173, 0x1D17A), (0xE0000, 0xE0FFF)]

# HangulSyllableType.txt: L, V and T (conjoining jamo).
CONJOINING_JAMO = [(0x1100, 0x115F), (0xA960, 0xA97C), (0x1160, 0x11A7), (0xD7B0, 0xD7C6), (0x11A8, 0x11FF), (0xD7CB, 0xD7FB)]

# ArabicShaping.txt: the Arabic blocks, and the Cf code points it lists explicitly (as U, not the default T).
JOINING = [(0x0620, 0x0620, "D"), (0x0621, 0x0621, "U"), (0x0622, 0x0625, "R"), (0x0626, 0x0626, "D"), (0x0627, 0x0627, "R"),
           (0x0628, 0x0628, "D"), (0x0629, 0x0629, "R"), (0x062A, 0x062E, "D"), (0x062F, 0x0632, "R"), (0x0633, 0x063F, "D"),
           (0x0640, 0x0640, "C"), (0x0641, 0x0647, "D"), (0x0648, 0x0648, "R"), (0x0649, 0x064A, "D"), (0x066E, 0x066F, "D"),
           (0x0671, 0x0673, "R"), (0x0674, 0x0674, "U"), (0x0675, 0x0677, "R"), (0x0678, 0x0687, "D"), (0x0688, 0x0699, "R"),
           (0x069A, 0x06BF, "D"), (0x06C0, 0x06C0, "R"), (0x06C1, 0x06C2, "D"), (0x06C3, 0x06CB, "R"), (0x06CC, 0x06CC, "D"),
           (0x06CD, 0x06CD, "R"), (0x06CE, 0x06CE, "D"), (0x06CF, 0x06CF, "R"), (0x06D0, 0x06D1, "D"), (0x06D2, 0x06D3, "R"),
           (0x06D5, 0x06D5, "R"), (0x06EE, 0x06EF, "R"), (0x06FA, 0x06FC, "D"), (0x06FF, 0x06FF, "D"), (0x0750, 0x0758, "D"),
           (0x0759, 0x075B, "R"), (0x075C, 0x076A, "D"), (0x076B, 0x076C, "R"), (0x076D, 0x0770, "D"), (0x0771, 0x0771, "R"),
           (0x0772, 0x0772, "D"), (0x0773, 0x0774, "R"), (0x0775, 0x0777, "D"), (0x0778, 0x0779, "R"), (0x077A, 0x077F, "D"),
           (0x0600, 0x0605, "U"), (0x0608, 0x0608, "U"), (0x060B, 0x060B, "U"), (0x06DD, 0x06DD, "U"),
           (0x08E2, 0x08E2, "U"), (0x180E, 0x180E, "U"), (0x200C, 0x200C, "U"), (0x200D, 0x200D, "C"), (0x202F, 0x202F, "U"),
           (0x2066, 0x2069, "U")]

ZWNJ, ZWJ = 0x200C, 0x200D


def _in(ranges, cp):
    return any(low <= cp <= high for low, high in ranges)


try:  # the complete Unicode 14.0 table, generated from ArabicShaping.txt, when the project has it
    import account_text as _complete
except ImportError:  # pragma: no cover - the stand-in's own Arabic-block table
    _complete = None


def joining_type(cp):
    if _complete is not None:
        return _complete.joining_type(chr(cp))
    for low, high, kind in JOINING:
        if low <= cp <= high:
            return kind
    return "T" if unicodedata.category(chr(cp)) in ("Mn", "Me", "Cf") else "U"


def _is_mark(cp):
    return unicodedata.category(chr(cp)) in ("Mn", "Me")


def _disallowed(cp):
    """T2: PRECIS FreeformClass disallowed code points, as Spec 3.7 lists them (ZWNJ/ZWJ go to T3)."""
    if cp in (ZWNJ, ZWJ) and not broken("T2cf"):
        return False
    category = unicodedata.category(chr(cp))
    if category == "Cc":
        return not broken("T2cc")
    if category in ("Cs", "Co"):
        return not broken("T2co")
    if category == "Cn":
        return not broken("T2cn")
    if category in ("Zl", "Zp"):
        return not broken("T2zlzp")
    if category == "Zs" and cp != 0x20:
        return not broken("T2zs")
    if category == "Cf":
        return not broken("T2cf")
    if _in(DEFAULT_IGNORABLE, cp):
        return not broken("T2di")
    if _in(CONJOINING_JAMO, cp):
        return not broken("T2jamo")
    return False


def _joiner_allowed(cps, index):
    cp = cps[index]
    before = cps[index - 1] if index > 0 else None
    after_virama = before is not None and unicodedata.combining(chr(before)) == 9
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
    return (left >= 0 and joining_type(cps[left]) in ("L", "D")
            and right < len(cps) and joining_type(cps[right]) in ("R", "D"))


def check_field(field, text):
    """Spec 3.7 rules T1-T7, in order; raises `malformed.<field>` on the first one broken."""
    if first_broken_rule(field, text) is not None:
        raise ProtocolError("malformed." + field)


def first_broken_rule(field, text):
    """The first rule of T1-T7 that `text` breaks as `field`, or None."""
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
            run = run + 1 if _is_mark(cp) else 0
            if (run >= 4 if broken("T5bound") else run > 4) and not broken("T5"):
                return True
        return False

    def t6():
        if field != "displayName" or broken("T6"):
            return False
        weightless = (lambda cp: False) if broken("T6weights") else (lambda cp: cp in (ZWNJ, ZWJ) or _is_mark(cp))
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
