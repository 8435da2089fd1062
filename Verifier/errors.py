"""Errors with their stable identifiers (Spec 7.2)."""


class ProtocolError(Exception):
    """An error with its stable identifier (Spec 7.2), e.g. `malformed.commitment`."""

    def __init__(self, identifier):
        super().__init__(identifier)
        self.identifier = identifier


def outcome_of(function):
    """`ok` when `function()` succeeds, otherwise the identifier of the ProtocolError it raised."""
    try:
        function()
        return "ok"
    except ProtocolError as error:
        return error.identifier
