"""Counting comparisons, and the shared JSON conventions of Vectors/README.md."""

import math


class FirstFailure(Exception):
    """Raised in a mutation run at the first failing comparison (the run needs no more)."""


class Checks:
    """Counts every comparison; prints the first failures (or stops at the first, for mutations)."""

    def __init__(self, stop_at_first=False, quiet=False):
        self.passed = 0
        self.failed = 0
        self.stop_at_first = stop_at_first
        self.behaviour_only = False  # mutation runs skip annotations that describe no behaviour
        self.quiet = quiet
        self.first = None
        self.last = None

    def equal(self, actual, expected, what):
        self.last = what
        if same(actual, expected):
            self.passed += 1
            return True
        self.failed += 1
        if self.first is None:
            self.first = what
        if self.stop_at_first:
            raise FirstFailure(what)
        if not self.quiet and self.failed <= 40:
            if isinstance(actual, dict) and isinstance(expected, dict):  # show only what differs
                keys = [k for k in sorted(set(actual) | set(expected), key=str) if not same(actual.get(k), expected.get(k))]
                actual, expected = {k: actual.get(k) for k in keys}, {k: expected.get(k) for k in keys}
            print(f"FAIL {what}: got {shown(actual)}, expected {shown(expected)}")
        return False

    def true(self, condition, what):
        return self.equal(bool(condition), True, what)

    def crash(self, what, error):
        self.failed += 1
        if self.first is None:
            self.first = f"{what} (crash: {type(error).__name__})"
        if self.stop_at_first:
            raise FirstFailure(self.first)
        if not self.quiet:
            print(f"FAIL {what}: {type(error).__name__}: {error}")


CHECKS = Checks()


def same(a, b):
    """Equality where numbers compare by value (1800000180 == 1800000180.0) but True != 1."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return a == b


def shown(value):
    """A short printable form: bytes as hex, long texts cut."""
    if isinstance(value, (bytes, bytearray)):
        value = value.hex()
    text = repr(value)
    return text if len(text) <= 160 else text[:157] + "..."


def h(text):
    return bytes.fromhex(text)


def time_of(value):
    """A time of Vectors/README.md: a JSON number, or "nan", "+infinity", "-infinity"."""
    if isinstance(value, str):
        return {"nan": math.nan, "+infinity": math.inf, "-infinity": -math.inf}[value]
    return value


def account_from_json(value):
    account = {key: value[key] for key in ("displayName", "emailAddress", "username", "imapHost", "imapPort", "imapSecurity")}
    account["linkID"] = h(value["linkID"])
    return account


def account_to_json(account):
    value = dict(account)
    value["linkID"] = account["linkID"].hex()
    return value
