"""The mutation check: break each rule of rules.py in turn and see whether some vector fails.

    verify_vectors.py --mutations [--write Verifier/MUTATIONS.md] [--only PREFIX] [VECTORS_DIR]

First the rule list is compared with the Spec (spec_rules.py): a rule of the Spec without a switch,
or a switch naming no rule of the Spec, fails the run. Then every switch is turned on alone and
every vector re-run, stopping at the first failing check. A switch that no vector catches must be
listed in UNOBSERVABLE with the reason no vector can observe it; any other is a gap, and the run
fails (exit 1), as it does when an argued switch turns out to be pinned (the argument is stale).
"""

import re
import time

import check_order
import rules
import table_mutations
import sentences
import spec_rules
import typed_code_rules
from checks import CHECKS, FirstFailure
from vector_run import check_all, default_directory, load_all

# Switches whose mutation no vector can observe, with the argument why.
UNOBSERVABLE = {
    "T.fieldOrder": "every rule T1-T7 gives the same identifier malformed.<field>; their order within one field is "
                    "invisible (the `rule` annotation of displayStrings names the rule, but it is no behaviour)",
    "T.t6BeforeT2": "as T.fieldOrder",
    "S1": "B5 refuses every intent but sendAccount while decoding, and sendAccount is the only intent a receiver can "
          "expect in version 4, so S1 cannot fail",
    "2.4.3order": "steps 3 and 4 both give malformed.digits",
    "S23order": "no QR can fail both: now >= expiry + skew and expiry > now + 600 + skew cannot hold together for "
                "skew >= 0",
    "K.sequenceAbort": "an abort is the last frame a session seals (it finishes right after), so its sequence is never "
                       "reused",
    "H1order": "the accepted hello passes H2-H4 again by construction (same bytes, same key), and an answered "
               "second-device hello passes them again too, so H1 decides either way",
    "11.4.freshNonce": "each vector gives its challenge nonce; whether a sender draws a new one per connection is "
                       "behaviour over connections (AdmissionTests.everyConnectionIsChallengedAtOnceWithTheSessionHintAndAFreshNonce)",
    "11.4.deadline": "no vector holds a clock or a connection; the 5 s admission deadline is pinned by AdmissionTests "
                     "(aSilentConnectionIsClosedAtTheAdmissionDeadline, theConnectorWaitsForTheChallengeOnlyUntilTheAdmissionDeadline)",
    "11.4.retry": "no vector holds a clock or a connection: making a connection again after 250 ms is behaviour over time "
                  "of the connector (Tests/AccountHandoffTransportTests)",
    "W.keep": "a finished session answers every event at 6.0 step 2 before anything could use a key, so keys kept "
              "after the end change no output; the Swift replay checks that every finished party's secrets are zero",
}

UNOBSERVABLE.update(typed_code_rules.UNOBSERVABLE)


UNOBSERVABLE.update({switch: why for switch, (_, _, why) in sentences.UNRUN.items()})


def run_once(vectors):
    CHECKS.passed = CHECKS.failed = 0
    CHECKS.first = CHECKS.last = None
    try:
        check_all(vectors)
    except FirstFailure as failure:
        return str(failure)
    except Exception as error:  # a crash is a failure the vectors caused
        return f"crash ({type(error).__name__}: {error}) right after: {CHECKS.last}"
    return CHECKS.first


def main(arguments):
    output, only, rest = None, None, []
    items = iter(arguments)
    for item in items:
        if item == "--write":
            output = next(items)
        elif item == "--only":
            only = next(items)
        elif item != "--mutations":
            rest.append(item)
    missing, unknown = spec_rules.compare({switch: entry[2] for switch, entry in rules.RULES.items()})
    for rule in missing:
        print("no switch in rules.py breaks Spec rule:", rule)
    for entry in unknown:
        print("a switch names a rule the Spec does not have:", entry)
    unlisted = check_order.unlisted_steps()
    for step in unlisted:
        print("a step of an ordered Spec table that check_order.py neither lists nor explains:", step)
    if missing or unknown or unlisted:
        return 1
    vectors = load_all(rest[0] if rest else default_directory())
    CHECKS.quiet = True
    baseline = run_once(vectors)
    if baseline is not None:
        print(f"baseline fails ({baseline}): fix the verifier or the vectors first")
        return 1
    started = time.monotonic()
    order, inconsistent = check_order.run(vectors)
    for table, vector, first, expected in inconsistent:
        print(f"ORDER ORACLE DISAGREES: {table}, {vector}: its first failing check gives {first}, the vector {expected}")
    tables = table_mutations.run(vectors)
    CHECKS.stop_at_first = True
    CHECKS.behaviour_only = True
    results = []
    for rule, (section, how, spec) in rules.RULES.items():
        if only and not rule.startswith(only):
            continue
        if rule in sentences.UNRUN:  # no verifier code asks for these switches: a run would change nothing
            results.append((rule, section, how, spec, None, False))
            continue
        rules.ACTIVE = rule
        rules.REACHED.clear()
        first = run_once(vectors)
        reached = rule in rules.REACHED
        rules.ACTIVE = None
        results.append((rule, section, how, spec, first, reached))
        print(f"{rule[:60]:60} {'pinned' if first else 'NOT PINNED':10} {first or ''}"[:220], flush=True)
    elapsed = time.monotonic() - started
    gaps = [r for r in results if not r[4] and r[0] not in UNOBSERVABLE]
    stale = [r for r in results if r[4] and r[0] in UNOBSERVABLE]
    pinned = sum(1 for r in results if r[4])
    argued = sum(1 for r in results if not r[4] and r[0] in UNOBSERVABLE)
    print(f"switch mutations: {len(results)}, pinned {pinned}, argued unobservable {argued}, gaps {len(gaps)}, "
          f"stale arguments {len(stale)}")
    order_gaps = [r for r in order if r[3] == "gap"]
    print(f"check-order mutations: {len(order)}, pinned {sum(1 for r in order if r[3] == 'pinned')}, argued "
          f"{sum(1 for r in order if r[3] == 'argued')}, gaps {len(order_gaps)}")
    table_pinned, table_equivalent, table_gaps = tables
    print(f"account-text table mutations: {sum(map(len, tables))}, pinned {len(table_pinned)}, equivalent "
          f"{len(table_equivalent)}, gaps {len(table_gaps)} ({elapsed:.0f} s in all)")
    for rule, *_ in gaps:
        print("GAP (no vector pins it, and no argument says none can):", rule)
    for rule, *_ in stale:
        print("STALE (argued unobservable, but a vector pins it):", rule)
    for table, earlier, later, _, detail in order_gaps:
        print(f"GAP in the order of {table}: {later} before {earlier}: {detail}")
    for name, detail in table_gaps:
        print(f"GAP in the account-text tables: {name}: {detail}")
    if output:
        write_report(output, results, elapsed, vectors, order, tables)
    return 1 if gaps or stale or order_gaps or table_gaps or inconsistent else 0


def vectors_digest(vectors):
    import hashlib
    import json
    return hashlib.sha256(json.dumps(vectors, sort_keys=True).encode()).hexdigest()[:16]


def kind_of(rule):
    """The kind of a Spec rule, for the report's counts."""
    if rule in spec_rules.SENTENCE_TEXT:
        return "normative sentences"
    if " local[" in rule or " frame[" in rule:
        return "state-table cells"
    return "steps, definitions and values"


def write_report(path, results, elapsed, vectors, order, tables):
    by_switch = {r[0]: r for r in results}
    pinned = [r for r in results if r[4]]
    argued = [r for r in results if not r[4] and r[0] in UNOBSERVABLE]
    gaps = [r for r in results if not r[4] and r[0] not in UNOBSERVABLE]
    spec = spec_rules.RULES_CACHE()
    counts = {}
    rows = []
    for rule, section in spec:
        switches = [s for s, entry in rules.RULES.items() if rule in entry[2] and s in by_switch]
        pins = [by_switch[s][4] for s in switches if by_switch[s][4]]
        kind = counts.setdefault(kind_of(rule), [0, 0, 0])
        if pins:
            kind[0] += 1
            status = f"pinned ({len(pins)} of {len(switches)} mutations): " + escape(pins[0])
        elif switches and all(s in UNOBSERVABLE for s in switches):
            kind[1] += 1
            status = "unobservable: " + escape(UNOBSERVABLE[switches[0]])
        else:
            kind[2] += 1
            status = "**GAP**"
        rows.append(f"| {escape(rule)} | {section} | {', '.join(switches)} | {status} |")
    table_pinned, table_equivalent, table_gaps = tables
    order_counts = [sum(1 for r in order if r[3] == status) for status in ("pinned", "argued", "gap")]
    lines = [
        "# Mutation check of Vectors/ (generated by `verify_vectors.py --mutations --write`)", "",
        "Four kinds of mutation, each breaking one thing the Spec says, and every vector re-run or re-read: a mutation is",
        "**pinned** when at least one vector then fails (the vector is shown), **argued** when no vector can tell (the",
        "reason is given), and otherwise a **gap**, which fails the run.", "",
        "- **Switches** (`Verifier/rules.py`): one rule of the Spec broken in the independent verifier. The rules come from",
        "  the Spec's text (`Verifier/spec_rules.py`): step tables, numbered steps, definitions, value tables, every cell",
        "  of the state tables, and every normative sentence outside the tables (MUST, must, refuses, refused, ends, never,",
        "  only; `Verifier/sentences.py` names the switches that break each). Every rule has a switch, or the run fails.",
        "- **Check order** (`Verifier/check_order.py`): for every ordered list of checks of the Spec (2.4, B1-B12, S0-S6,",
        "  F1-F7, 3.4, 3.5, 3.7, H1-H4, E1-E4, 6.0, 6.1 start, 6.3 admit, 11.1 and its encoder, 11.2, 11.4) and every two",
        "  checks i before j, j moved before i: pinned by a vector that fails both and expects i's identifier.",
        "- **Account-text tables** (`Verifier/table_mutations.py`): every range of every group of",
        "  `Spec/account-text-tables.txt` with its first or last code point left out or its neighbour taken in, and every",
        "  code point 3.7 names decided the other way: pinned by a vector string, or equivalent (changes nothing a rule",
        "  reads).",
        "- **Encoder refusals** are switches (`11.1.encode*`, `C.encode*`, `6.1.start0*`) and the check order of the 11.1",
        "  encoder.", "",
        f"Result: {len(results)} switch mutations: {len(pinned)} pinned, {len(argued)} argued unobservable, {len(gaps)} gaps; "
        f"{len(order)} check-order mutations: {order_counts[0]} pinned, {order_counts[1]} argued, {order_counts[2]} gaps; "
        f"{sum(map(len, tables))} account-text table mutations: {len(table_pinned)} pinned, {len(table_equivalent)} "
        f"equivalent, {len(table_gaps)} gaps ({elapsed:.0f} s).",
        f"Spec rules: {len(spec)}: "
        + "; ".join(f"{kind} {sum(c)} ({c[0]} pinned, {c[1]} unobservable in vectors, {c[2]} gaps)" for kind, c in counts.items())
        + ".",
        f"Vectors: {len(vectors)} files, content digest {vectors_digest(vectors)} (SHA-256 of the parsed JSON, keys "
        "sorted, first 16 hex digits).", "",
    ]
    lines += ["## Switches not pinned", "", "| switch | Spec rules | how it was broken | why |", "|---|---|---|---|"]
    for rule, section, how, spec_ids, _, reached in argued + gaps:
        why = ("unobservable: " + UNOBSERVABLE[rule]) if rule in UNOBSERVABLE else (
            "**GAP**: " + ("no vector reaches it" if not reached else "no vector tells the difference"))
        lines.append(f"| {rule} | {escape(', '.join(spec_ids))} | {escape(how)} | {escape(why)} |")
    lines += ["", "## Check order", "", "| list | check | moved before | result |", "|---|---|---|---|"]
    for table, earlier, later, status, detail in order:
        lines.append(f"| {table} | {escape(later)} | {escape(earlier)} | "
                     f"{'**GAP**: ' if status == 'gap' else status + ': '}{escape(detail)} |")
    lines += ["", "## Account-text tables", ""]
    groups = {}
    for name, _ in table_pinned + table_equivalent + table_gaps:
        groups.setdefault(name.split(" ")[0] if not name.startswith("named") else "named in 3.7", [0, 0, 0])
    for index, items in enumerate(tables):
        for name, _ in items:
            groups[name.split(" ")[0] if not name.startswith("named") else "named in 3.7"][index] += 1
    lines += ["| group | pinned | equivalent | gaps |", "|---|---|---|---|"]
    lines += [f"| {group} | {c[0]} | {c[1]} | {c[2]} |" for group, c in groups.items()]
    reasons = {}
    for name, why in table_equivalent:
        reasons.setdefault(re.sub(r"U\+[0-9A-F]{4,6}", "U+…", why), []).append(name)
    lines += ["", "Equivalent mutations, by reason (each changes nothing a rule of 3.7 reads):", ""]
    lines += [f"- {escape(reason)}: {len(names)}, e.g. {escape(names[0])}" for reason, names in sorted(reasons.items())]
    for name, detail in table_gaps:
        lines.append(f"- **GAP** {escape(name)}: {escape(detail)}")
    lines += ["", "## Spec rules", "", "| Spec rule | section | switches | result |", "|---|---|---|---|"] + rows
    lines += ["", "## All switch mutations", "", "| switch | section | how it was broken | first failing vector |",
              "|---|---|---|---|"]
    for rule, section, how, _, first, _ in results:
        lines.append(f"| {escape(rule)} | {section} | {escape(how)} | {escape(first) if first else '**NOT PINNED**'} |")
    with open(path, "w", encoding="utf-8") as handle:
        handle.write("\n".join(lines) + "\n")


def escape(text):
    return text.replace("|", "\\|")
