"""The mutation check: break each rule of rules.py in turn and see whether some vector fails.

    verify_vectors.py --mutations [--write Verifier/MUTATIONS.md] [--only PREFIX] [VECTORS_DIR]

First the rule list is compared with the Spec (spec_rules.py): a rule of the Spec without a switch,
or a switch naming no rule of the Spec, fails the run. Then every switch is turned on alone and
every vector re-run, stopping at the first failing check. A switch that no vector catches must be
listed in UNOBSERVABLE with the reason no vector can observe it; any other is a gap, and the run
fails (exit 1), as it does when an argued switch turns out to be pinned (the argument is stale).
"""

import time

import rules
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
          "expect in version 3, so S1 cannot fail",
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
    if missing or unknown:
        return 1
    vectors = load_all(rest[0] if rest else default_directory())
    CHECKS.quiet = True
    baseline = run_once(vectors)
    if baseline is not None:
        print(f"baseline fails ({baseline}): fix the verifier or the vectors first")
        return 1
    CHECKS.stop_at_first = True
    CHECKS.behaviour_only = True
    results = []
    started = time.monotonic()
    for rule, (section, how, spec) in rules.RULES.items():
        if only and not rule.startswith(only):
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
    print(f"mutations: {len(results)}, pinned {pinned}, argued unobservable {argued}, gaps {len(gaps)}, "
          f"stale arguments {len(stale)} ({elapsed:.0f} s)")
    for rule, *_ in gaps:
        print("GAP (no vector pins it, and no argument says none can):", rule)
    for rule, *_ in stale:
        print("STALE (argued unobservable, but a vector pins it):", rule)
    if output:
        write_report(output, results, elapsed, vectors)
    return 1 if gaps or stale else 0


def vectors_digest(vectors):
    import hashlib
    import json
    return hashlib.sha256(json.dumps(vectors, sort_keys=True).encode()).hexdigest()[:16]


def write_report(path, results, elapsed, vectors):
    by_switch = {r[0]: r for r in results}
    pinned = [r for r in results if r[4]]
    argued = [r for r in results if not r[4] and r[0] in UNOBSERVABLE]
    gaps = [r for r in results if not r[4] and r[0] not in UNOBSERVABLE]
    spec = spec_rules.RULES_CACHE()
    spec_pinned = spec_argued = spec_gaps = 0
    rows = []
    for rule, section in spec:
        switches = [s for s, entry in rules.RULES.items() if rule in entry[2] and s in by_switch]
        pins = [by_switch[s][4] for s in switches if by_switch[s][4]]
        if pins:
            spec_pinned += 1
            status = f"pinned ({len(pins)} of {len(switches)} mutations): " + escape(pins[0])
        elif switches and all(s in UNOBSERVABLE for s in switches):
            spec_argued += 1
            status = "unobservable: " + escape(UNOBSERVABLE[switches[0]])
        else:
            spec_gaps += 1
            status = "**GAP**"
        rows.append(f"| {escape(rule)} | {section} | {', '.join(switches)} | {status} |")
    lines = [
        "# Mutation check of Vectors/ (generated by `verify_vectors.py --mutations --write`)", "",
        "Each switch of `Verifier/rules.py` breaks one normative rule of Spec/ in the independent Python",
        "verifier, and every vector is re-run: a switch is **pinned** when at least one vector then fails (the",
        "first failing check, which names the vector, is shown). A switch no vector catches is either argued",
        "**unobservable** (the reason is given) or a **gap**, which fails the run. The rules themselves come",
        "from the Spec's text (`Verifier/spec_rules.py`: step tables, numbered steps, definitions, value",
        "tables, every cell of the state tables); every one has at least one switch, or the run fails.", "",
        f"Result: {len(results)} mutations: {len(pinned)} pinned, {len(argued)} argued unobservable, "
        f"{len(gaps)} gaps ({elapsed:.0f} s).",
        f"Spec rules: {len(spec)}: {spec_pinned} pinned by at least one vector, {spec_argued} unobservable in "
        f"vectors (every switch argued), {spec_gaps} gaps.",
        f"Vectors: {len(vectors)} files, content digest {vectors_digest(vectors)} (SHA-256 of the parsed JSON, keys "
        "sorted, first 16 hex digits).", "",
    ]
    lines += ["## Not pinned", "", "| switch | Spec rules | how it was broken | why |", "|---|---|---|---|"]
    for rule, section, how, spec_ids, _, reached in argued + gaps:
        why = ("unobservable: " + UNOBSERVABLE[rule]) if rule in UNOBSERVABLE else (
            "**GAP**: " + ("no vector reaches it" if not reached else "no vector tells the difference"))
        lines.append(f"| {rule} | {escape(', '.join(spec_ids))} | {escape(how)} | {escape(why)} |")
    lines += ["", "## Spec rules", "", "| Spec rule | section | switches | result |", "|---|---|---|---|"] + rows
    lines += ["", "## All mutations", "", "| switch | section | how it was broken | first failing vector |", "|---|---|---|---|"]
    for rule, section, how, _, first, _ in results:
        lines.append(f"| {escape(rule)} | {section} | {escape(how)} | {escape(first) if first else '**NOT PINNED**'} |")
    with open(path, "w", encoding="utf-8") as handle:
        handle.write("\n".join(lines) + "\n")


def escape(text):
    return text.replace("|", "\\|")
