"""The mutation check: break each rule of rules.py in turn and see whether some vector fails.

    verify_vectors.py --mutations [--write Verifier/MUTATIONS.md] [--only PREFIX] [VECTORS_DIR]

A rule whose mutation no vector catches is not pinned by Vectors/: an implementation could
break it and still pass every vector. The run stops each mutation at its first failing check.
"""

import time

import rules
from checks import CHECKS, FirstFailure

# Rules whose mutation cannot change anything a vector can observe, and why (reported as such).
UNOBSERVABLE = {
    "6.0.1max": "a live session's thresholds never decrease across its transitions, so any time at or past the "
                "threshold already ended the session when it was given; processing a later, smaller now at t or at "
                "now gives the same result",
    "T.fieldOrder": "every rule T1-T7 gives the same identifier malformed.<field>; their order within one field is invisible",
    "T.t6BeforeT2": "as T.fieldOrder (the `rule` annotation of displayStrings names the rule, but it is no behaviour)",
    "S1": "B5 refuses every intent but sendAccount while decoding, and sendAccount is the only intent a receiver can "
          "expect in version 2, so S1 cannot fail",
    "2.4.3order": "steps 3 and 4 both give malformed.digits",
    "S23order": "no QR can fail both: now >= expiry + skew and expiry > now + 600 + skew cannot hold together for skew >= 0",
    "K.sequenceAbort": "an abort is the last frame a session seals (it finishes right after), so its sequence is never reused",
    "H1order": "the accepted hello passes H2-H4 again by construction (same bytes, same key), so H1 decides either way",
    "K.codeFail": "all 16 candidates rejected has probability below 2^-194: no vector can reach it through HKDF",
}


# Orders and cases the Spec leaves open (SPEC-NOTES.md): no vector may pin them until the Spec decides.
OPEN = {
    "S0order": "S0 lists invalidClock and invalidConfiguration in one row; a configuration is refused when it is built",
    "6.1.start12order": "6.1 numbers the clock step 1 and the lifetime step 2, but a configuration cannot be built "
                        "outside 30...600",
    "6.1.startBuildOrder": "the account and the token are both 'valid by construction'; which is built first is the "
                           "app's order",
    "6.1.startBuildLast": "'valid by construction' puts these before start; a vector would need now = NaN with an "
                          "invalid account",
    "6.1.lateHelloRepeat": "H1 names only the accepted hello, 6.6 says 'the same hello bytes again are ignored as "
                           "replayed'; the verifier answers again, the Swift code (Vectors/COVERAGE.md) ignores it",
}

# Rules no vector pins today although a vector could, with the vector that would pin each.
GAPS = {
    "F7offer": "frames.json invalid: an offer body of 400 bytes (plaintext 384 = 1.5 blocks; every invalid offer body "
               "today is also no multiple of 128)",
    "O.2utf8surrogates": "invalidOffer: a UTF-8-encoded surrogate (ED A0 80) in username together with a rule failure "
                         "in displayName (strict UTF-8 in step 2 reports malformed.username; today the only surrogate "
                         "case is alone, where T2 refuses Cs with the same identifier)",
    "T3zwnjTransparent": "displayStrings: a ZWNJ with a transparent mark between it and a joining letter, e.g. "
                         "U+0628 U+064E U+200C U+0645 (accepted by RFC 5892 A.1)",
    "6.2.revealState": "a session where the sender forges a second reveal (sequence 1) once the receiver is in "
                       "awaitingOffer: ignored(unexpectedMessage) by E3",
}


def run_once(vectors, check_all):
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
    from verify_vectors import check_all, default_directory, load_all

    output, only, rest = None, None, []
    items = iter(arguments)
    for item in items:
        if item == "--write":
            output = next(items)
        elif item == "--only":
            only = next(items)
        elif item != "--mutations":
            rest.append(item)
    vectors = load_all(rest[0] if rest else default_directory())
    CHECKS.quiet = True
    baseline = run_once(vectors, check_all)
    if baseline is not None:
        print(f"baseline fails ({baseline}): fix the verifier or the vectors first")
        return 1
    CHECKS.stop_at_first = True
    CHECKS.behaviour_only = True
    results = []
    started = time.monotonic()
    for rule, (section, how) in rules.RULES.items():
        if only and not rule.startswith(only):
            continue
        rules.ACTIVE = rule
        rules.REACHED.clear()
        first = run_once(vectors, check_all)
        reached = rule in rules.REACHED
        rules.ACTIVE = None
        results.append((rule, section, how, first, reached))
        print(f"{rule:28} {'pinned' if first else 'NOT PINNED':10} {first or ''}"[:200], flush=True)
    elapsed = time.monotonic() - started
    pinned = sum(1 for result in results if result[3])
    print(f"mutations: {len(results)} rules, {pinned} pinned, {len(results) - pinned} not pinned ({elapsed:.0f} s)")
    if output:
        write_report(output, results, elapsed, vectors)
    return 0


def vectors_digest(vectors):
    import hashlib
    import json
    return hashlib.sha256(json.dumps(vectors, sort_keys=True).encode()).hexdigest()[:16]


def write_report(path, results, elapsed, vectors):
    pinned = [r for r in results if r[3]]
    missing = [r for r in results if not r[3]]
    unobservable = [r for r in missing if r[0] in UNOBSERVABLE]
    open_rules = [r for r in missing if r[0] in OPEN]
    gaps = [r for r in missing if r[0] not in UNOBSERVABLE and r[0] not in OPEN]
    lines = ["# Mutation check of Vectors/ (generated by `verify_vectors.py --mutations --write`)", "",
             "Each row breaks one normative rule of Spec/ in the independent Python verifier and re-runs every",
             "vector. A rule is **pinned** when at least one vector then fails (the first failing check is shown);",
             "**NOT PINNED** means an implementation could break that rule and still pass every vector.", "",
             f"Result: {len(results)} rules, {len(pinned)} pinned, {len(missing)} not pinned ({elapsed:.0f} s): "
             f"{len(unobservable)} of them cannot be observed by any vector (the reason is given), "
             f"{len(open_rules)} are left open by the Spec (no vector may pin them until it decides), "
             f"{len(gaps)} are gaps a vector could close.",
             f"Vectors: {len(vectors)} files, content digest {vectors_digest(vectors)} (SHA-256 of the parsed JSON, "
             "keys sorted, first 16 hex digits).", "",
             "Rules are the verifier's own list (`rules.py`): every decoding step, every derivation, each expiry",
             "comparison (>= vs >), each state-table row and refused cell, each registry operation, and the",
             "orders between checks that the Spec fixes.", ""]
    if missing:
        lines += ["## Not pinned", "", "| rule | Spec | how it was broken | why |", "|---|---|---|---|"]
        for rule, section, how, _, reached in missing:
            if rule in UNOBSERVABLE:
                why = "unobservable: " + UNOBSERVABLE[rule]
            elif rule in OPEN:
                why = "open in the Spec: " + OPEN[rule]
            elif rule in GAPS:
                why = "gap; would be pinned by " + GAPS[rule]
            else:
                why = "no vector reaches it" if not reached else "no vector tells the difference"
            lines.append(f"| {rule} | {section} | {how} | {why} |")
        lines.append("")
    lines += ["## All rules", "", "| rule | Spec | how it was broken | first failing vector |", "|---|---|---|---|"]
    for rule, section, how, first, _ in results:
        lines.append(f"| {rule} | {section} | {how} | {escape(first) if first else '**NOT PINNED**'} |")
    with open(path, "w", encoding="utf-8") as handle:
        handle.write("\n".join(lines) + "\n")


def escape(text):
    return text.replace("|", "\\|")
