"""Spec 3.7 as the verifier applies it: the verifier's own rules (account_text_standin.py), which read
every character property from the Spec's data file Spec/account-text-tables.txt.

Verifier/account_text.py is another Python implementation of 3.7 (derived from Python 3.11's own
Unicode 14.0 `unicodedata`) that the Swift tests compare with the Swift tables; the verifier does
not use it, so that it runs the same on any Python 3 whatever Unicode version that Python ships.
"""

import account_text_standin


def implementation_name():
    return "account_text_standin.py with Spec/account-text-tables.txt"


def check_field(field, text):
    """Raises ProtocolError(`malformed.<field>`) when `text` breaks a rule T1-T7 of Spec 3.7."""
    account_text_standin.check_field(field, text)


def first_broken_rule(field, text):
    """The rule T1-T7 that `text` breaks first, or None."""
    return account_text_standin.first_broken_rule(field, text)
