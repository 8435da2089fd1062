"""Which implementation of the Spec 3.7 string rules a run uses.

Normal runs use the project's Verifier/account_text.py when it exists, else the verifier's
own account_text_standin.py. A mutation run breaks rules T1-T7 in the stand-in, so while a
rule of section 3.7 is broken, the stand-in decides.
"""

import os

import account_text_standin
import rules
from errors import ProtocolError

_HERE = os.path.dirname(os.path.abspath(__file__))
_PROJECT = None
if os.path.exists(os.path.join(_HERE, "account_text.py")):
    import account_text as _PROJECT  # noqa: E402

FORCE_STANDIN = False  # the mutation run's baseline checks the stand-in on its own too

TEXT_RULES = {rule for rule, (section, _) in rules.RULES.items() if section.startswith("3.7")}


def implementation_name():
    return "account_text.py" if _PROJECT is not None else "account_text_standin.py"


def check_field(field, text):
    """Raises ProtocolError(`malformed.<field>`) when `text` breaks a rule T1-T7 of Spec 3.7."""
    surrogates = any(0xD800 <= ord(ch) <= 0xDFFF for ch in text)  # only with O.2utf8surrogates broken
    if _PROJECT is None or FORCE_STANDIN or rules.ACTIVE in TEXT_RULES or surrogates:
        account_text_standin.check_field(field, text)
        return
    try:
        _PROJECT.validate(text, field)
    except _PROJECT.AccountTextError as error:
        raise ProtocolError(error.identifier)


def first_broken_rule(field, text):
    """The rule T1-T7 that `text` breaks first, by the implementation in use, or None."""
    if _PROJECT is None or FORCE_STANDIN:
        return account_text_standin.first_broken_rule(field, text)
    return _PROJECT.first_broken_rule(text, field)
