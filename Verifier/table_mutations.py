"""The mutations of Spec/account-text-tables.txt (Spec 3.7): every edge of every range, and every code point the
rules of 3.7 name, decided the other way; each must change a verdict of plaintexts.json or be shown to change
nothing a rule reads.

For every group of the data file (the Unicode 14.0 property values and the sets the rules take, which an
implementation may use instead) and every range FIRST..LAST of it, four mutations: FIRST left out, LAST left out, the
code point before FIRST taken in, the one after LAST taken in (a one-code-point range has three; a neighbour already in
the group, or a surrogate, which no string holds, has none). A property with one value per code point (General_Category,
Joining_Type, Hangul_Syllable_Type) moves the code point to or from that value; the others are sets.

Each mutation changes what the rules read about one code point c. The rules of 3.7 read, per field, only: whether T2
refuses c (for a host: whether T7's letters, digits, hyphen and dot hold it), whether it is a mark (T5, T6), a joiner
or mark that counts 0 units (T6), a virama (T3), and its Joining_Type as T3 reads it (L, D, R, T; C and U alike). So a
mutation is **equivalent** when those features stay the same in every field (with the reason), and otherwise it must
be **pinned**: some vector string that holds c gets another verdict (the string's verdict is recomputed from the
features, by `decide` below, which must agree with every vector unmutated). Anything else is a gap.

The sets the rules take (T2.refused, T3.virama, T5.mark, T6.zeroUnits, allowed.<field>) are mutated as an
implementation that reads them instead of the properties would see them: T2 from `T2.refused` (variant A) or from the
field's `allowed.` set (variant B).
"""

import re

from account_text_standin import GROUPS, LENGTHS, MAX, SPACE, ZWJ, ZWNJ, _ldh, edge_code_points

CATEGORIES = ("Cc", "Cf", "Cn", "Co", "Cs", "Me", "Mn", "Zl", "Zp", "Zs")
SINGLE_VALUED = {"General_Category": CATEGORIES, "Joining_Type": ("C", "D", "L", "R", "T"), "Hangul_Syllable_Type": ("L", "V", "T")}
FIELDS = ("displayName", "emailAddress", "username", "imapHost")
LDH = set(map(ord, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-."))
SURROGATES = range(0xD800, 0xE000)


class Membership:
    """Which groups hold a code point, with at most one code point's membership overridden."""

    def __init__(self):
        self.sets = {name: self._spans(spans) for name, spans in GROUPS.items()}
        self.override = {}  # group name -> {cp: bool}

    @staticmethod
    def _spans(spans):
        import bisect
        starts = [first for first, _ in spans]

        def contains(cp):
            index = bisect.bisect_right(starts, cp) - 1
            return index >= 0 and spans[index][1] >= cp
        return contains

    def has(self, name, cp):
        if cp in self.override.get(name, {}):
            return self.override[name][cp]
        return self.sets[name](cp)

    def value(self, prop, cp):
        for value in SINGLE_VALUED[prop]:
            if self.has(f"{prop}={value}", cp):
                return value
        return None


def property_features(m, cp):
    """Per field, what the rules read about `cp`, from the property groups (how the verifier's own 3.7 reads them)."""
    gc = m.value("General_Category", cp)
    jt = m.value("Joining_Type", cp) or "U"
    refused = cp not in (ZWNJ, ZWJ) and (
        gc in ("Cc", "Cs", "Co", "Cn", "Zl", "Zp", "Cf") or (gc == "Zs" and cp != SPACE)
        or m.has("Default_Ignorable_Code_Point", cp) or m.value("Hangul_Syllable_Type", cp) is not None)
    mark = gc in ("Mn", "Me")
    rest = (mark, mark or cp in (ZWNJ, ZWJ), m.has("Canonical_Combining_Class=9", cp), jt if jt in "DLRT" else "U")
    return {field: _field(field, cp, refused, rest) for field in FIELDS}


def derived_features(m, cp, variant):
    """The same from the sets the rules take: T2 from T2.refused (variant A) or from each field's allowed set (B)."""
    jt = m.value("Joining_Type", cp) or "U"
    rest = (m.has("T5.mark", cp), m.has("T6.zeroUnits", cp), m.has("T3.virama", cp), jt if jt in "DLRT" else "U")
    allowed = {"displayName": "allowed.displayName", "username": "allowed.displayName", "emailAddress": "allowed.emailAddress",
               "imapHost": "allowed.imapHost"}
    out = {}
    for field in FIELDS:
        refused = m.has("T2.refused", cp) if variant == "A" else not m.has(allowed[field], cp)
        if variant == "B" and field == "emailAddress" and cp == SPACE:
            refused = False  # T4 refuses a space in an e-mail address; allowed.emailAddress leaves it out for that
        out[field] = _field(field, cp, refused, rest)
    return out


def _field(field, cp, refused, rest):
    if refused or (field == "imapHost" and cp not in LDH):
        return ("refused",)
    mark, zero, virama, jt = rest
    return (mark, zero if field == "displayName" else None, virama, jt)


def decide(field, text, features):
    """`ok` or `malformed.<field>`: rules T1-T7 of Spec 3.7 read through `features(cp)[field]`."""
    bad = "malformed." + field
    low, high = LENGTHS[field]
    if not low <= len(text.encode("utf-8", "surrogatepass")) <= high:
        return bad
    cps = [ord(ch) for ch in text]
    feats = [features(cp)[field] for cp in cps]
    if any(f == ("refused",) for f in feats):
        return bad
    for i, cp in enumerate(cps):  # T3
        if cp not in (ZWNJ, ZWJ):
            continue
        after_virama = i > 0 and feats[i - 1][2]
        if cp == ZWJ and not after_virama:
            return bad
        if cp == ZWNJ and not after_virama:
            left = i - 1
            while left >= 0 and feats[left][3] == "T":
                left -= 1
            right = i + 1
            while right < len(cps) and feats[right][3] == "T":
                right += 1
            if not (left >= 0 and feats[left][3] in "LD" and right < len(cps) and feats[right][3] in "RD"):
                return bad
    if field in ("displayName", "username"):  # T4
        if text.startswith(" ") or text.endswith(" ") or "  " in text:
            return bad
    elif " " in text:
        return bad
    run = 0
    for f in feats:  # T5
        run = run + 1 if f[0] else 0
        if run > 4:
            return bad
    if field == "displayName" and sum(0 if f[1] else 1 for f in feats) > 64:  # T6
        return bad
    if field == "imapHost" and not _ldh(text):  # T7
        return bad
    return "ok"


def vector_strings(vectors):
    """(field, text, verdict, name) of every account string plaintexts.json decides."""
    out = []
    plain = vectors["plaintexts.json"]
    for entry in plain.get("displayStrings", []):
        out.append((entry["field"], entry["text"], entry["result"], "displayStrings: " + entry["name"]))
    edges = edge_code_points()
    for entry in plain.get("codePoints", []):
        refused = bytes.fromhex(entry["refused"])
        for index, cp in enumerate(edges):
            text = entry["before"] + chr(cp) * entry["repeat"] + entry["after"]
            verdict = "malformed." + entry["field"] if refused[index // 8] & (0x80 >> index % 8) else "ok"
            out.append((entry["field"], text, verdict, "codePoints: U+%04X %s" % (cp, entry["name"])))
    return out


def spec_named_code_points():
    """Every code point (and both ends of every range) that section 3.7 of Spec/protocol.md names."""
    import os
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Spec", "protocol.md")
    with open(path, encoding="utf-8") as handle:
        text = handle.read()
    section = text[text.index("### 3.7"):text.index("## 4.")]
    return sorted({int(cp, 16) for cp in re.findall(r"U\+([0-9A-F]{4,6})", section)})


def mutations():
    """(name, group, cp, membership after) of every edge mutation, in the data file's order."""
    out = []
    for name, spans in GROUPS.items():
        members = Membership()
        for first, last in spans:
            edges = [("first", first, False)] + ([("last", last, False)] if last != first else [])
            edges += [("before", first - 1, True), ("after", last + 1, True)]
            for edge, cp, joins in edges:
                if not 0 <= cp <= MAX or (joins and members.has(name, cp)):
                    continue
                out.append((f"{name} {first:04X}..{last:04X} {edge}", name, cp, joins))
    return out


def _features_for(group):
    prop = group.split("=")[0]
    if prop in SINGLE_VALUED or group in ("Default_Ignorable_Code_Point", "Canonical_Combining_Class=9"):
        return [("properties", property_features)]
    if group.startswith("allowed."):
        return [("allowed sets", lambda m, cp: derived_features(m, cp, "B"))]
    if group == "T2.refused":
        return [("T2.refused", lambda m, cp: derived_features(m, cp, "A"))]
    return [("sets A", lambda m, cp: derived_features(m, cp, "A")), ("sets B", lambda m, cp: derived_features(m, cp, "B"))]


def _apply(m, group, cp, joins):
    prop = group.split("=")[0]
    if prop in SINGLE_VALUED:
        current = m.value(prop, cp)
        override = {f"{prop}={value}": False for value in SINGLE_VALUED[prop]}
        if joins:
            override[group] = True
        elif current is not None and f"{prop}={current}" != group:
            override[f"{prop}={current}"] = True
        for name, member in override.items():
            m.override.setdefault(name, {})[cp] = member
    else:
        m.override.setdefault(group, {})[cp] = joins


def _why_equal(group, before, after, cp):
    if all(f == ("refused",) for f in before.values()) and all(f == ("refused",) for f in after.values()):
        return "T2 refuses U+%04X either way" % cp
    if group.startswith("General_Category=M"):
        return "U+%04X stays a mark: Mn and Me count alike (T5, T6)" % cp
    if group.startswith("Joining_Type=C"):
        return "Joining_Type C and U act alike in T3 (neither is L, D, R or T)"
    if group == "allowed.imapHost":
        return "T7 refuses U+%04X in a host either way" % cp
    if cp == SPACE:
        return "U+0020 is refused or allowed by T4, not by T2"
    return "U+%04X keeps every feature a rule reads (T2, mark, units, virama, Joining_Type as T3 reads it)" % cp


def run(vectors, report=None):
    """Classifies every mutation; returns (pinned, equivalent, gaps) lists of (name, detail)."""
    strings = vector_strings(vectors)
    by_cp = {}
    for item in strings:
        for cp in set(map(ord, item[1])):
            by_cp.setdefault(cp, []).append(item)
    base = Membership()
    disagreements = [s for s in strings if decide(s[0], s[1], lambda cp: property_features(base, cp)) != s[2]]
    if disagreements:
        raise AssertionError("the feature reading of 3.7 disagrees with vectors: %s" % disagreements[:3])
    pinned, equivalent, gaps = [], [], []
    cases = [(name, group, cp, joins, None) for name, group, cp, joins in mutations()]
    cases += [("named in 3.7: U+%04X decided the other way" % cp, None, cp, None, "flip") for cp in spec_named_code_points()]
    for name, group, cp, joins, kind in cases:
        if 0xD800 <= cp <= 0xDFFF:
            equivalent.append((name, "a surrogate: no string holds one"))
            continue
        readings = _features_for(group) if group else [("properties", property_features)]
        found, changed = None, False
        for reading, features in readings:
            before = features(base, cp)
            mutated = Membership()
            if group:
                _apply(mutated, group, cp, joins)
                after = features(mutated, cp)
            else:  # a named code point: refused where it was accepted, accepted where refused (the rest as it is)
                after = {f: (("refused",) if v != ("refused",) else (False, False, False, "U")) for f, v in before.items()}
            if after == before:
                continue
            changed = True

            def mutated_features(c, after=after, features=features, before_all=base):
                return after if c == cp else features(before_all, c)
            for field, text, verdict, vector in by_cp.get(cp, []):
                if before[field] != after[field] and decide(field, text, mutated_features) != verdict:
                    found = f"{vector} ({reading})"
                    break
            if found:
                break
        if found:
            pinned.append((name, found))
        elif not changed:
            equivalent.append((name, _why_equal(group or "", before, after, cp)))
        else:
            gaps.append((name, "no vector string holding U+%04X changes its verdict" % cp))
    return pinned, equivalent, gaps
