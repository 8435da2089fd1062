"""Spec 6.3: the sender and receiver registries (in memory; persistence is not observable here)."""

import check_order
import math

import frames
from errors import ProtocolError
from rules import broken
from sender import RECEIPT_WAIT

RETENTION = 3600


class SenderRegistry:
    """transfer ID -> [expiry, outcome or None while pending]."""

    def __init__(self):
        self.entries = {}

    def register(self, transfer_id, expiry):
        if transfer_id in self.entries and not broken("R.startInUse"):
            raise ProtocolError("transferIDInUse")
        if not broken("6.1.start3record"):
            self.entries[transfer_id] = [expiry, None]

    def record(self, transfer_id, outcome):
        if transfer_id in self.entries and not broken("R.recordOutcome"):
            self.entries[transfer_id][1] = outcome

    def status(self, transfer_id):
        """`unknown`, `pending` or the recorded outcome identifier."""
        entry = self.entries.get(transfer_id)
        if entry is None:
            return "unknown"
        return entry[1] or "pending"

    def admit(self, data, now):
        """Returns the frame's transfer ID, or raises the first refusal of Spec 6.3."""
        return check_order.traced("6.3 admit", lambda: self._admit_checks(data, now), lambda: self._admit(data, now))

    def _admit_checks(self, data, now):
        """The checks of admit, each on its own (check_order.py)."""
        try:
            frames.decode(data)
            decoding = None
        except ProtocolError as error:
            decoding = error.identifier
        entry = self.entries.get(data[2:18]) if len(data) >= 18 else None
        finite = isinstance(now, (int, float)) and math.isfinite(now)
        return [("decoding", decoding), ("clock", None if finite else "invalidClock"),
                ("unknown", "unknownTransfer" if len(data) >= 18 and entry is None else None),
                ("consumed", "transferConsumed" if entry is not None and entry[1] is not None else None),
                ("expired", "expired" if entry is not None and not math.isnan(now) and now >= entry[0] + RECEIPT_WAIT else None)]

    def _admit(self, data, now):
        if broken("R.admitDecode"):
            if len(data) < 18 or data[2:18] not in self.entries:
                raise ProtocolError("unknownTransfer")
        finite = isinstance(now, (int, float)) and math.isfinite(now)
        if broken("R.admitClockOrder") and not finite:
            raise ProtocolError("invalidClock")
        frame = frames.decode(data)
        if not finite and not broken("R.admitClock"):
            raise ProtocolError("invalidClock")
        transfer_id = frame["transferID"]
        entry = self.entries.get(transfer_id)
        if entry is None:
            if broken("R.admitUnknown"):
                return transfer_id
            raise ProtocolError("unknownTransfer")

        def expired_check():
            # Spec 6.3: admitted until the end of the receipt wait, expiry + 120.
            end = entry[0] + RECEIPT_WAIT
            expired = now > end if broken("R.admitExpiredBound") else now >= end
            if expired and not broken("R.admitExpired"):
                raise ProtocolError("expired")

        if broken("R.admitOrder"):
            expired_check()
        if entry[1] is not None and not broken("R.admitConsumed"):
            raise ProtocolError("transferConsumed")
        expired_check()
        return transfer_id

    def prune(self, now):
        if broken("R.senderPrune"):
            return
        for transfer_id in list(self.entries):
            expiry = self.entries[transfer_id][0]
            old = expiry + RETENTION < now if broken("R.senderPruneBound") else expiry + RETENTION <= now
            if old and self.entries[transfer_id][1] is not None and broken("R.pruneConsumed"):
                continue  # "consumed for good" read literally: a finished entry is never forgotten
            if old or (broken("R.senderPruneAll") and self.entries[transfer_id][1] is None):
                del self.entries[transfer_id]


class ReceiverRegistry:
    """The claimed transfer IDs with their expiry."""

    def __init__(self):
        self.claims = {}

    def claim(self, transfer_id, expiry):
        """S4: check and record in one step."""
        if transfer_id in self.claims:
            raise ProtocolError("alreadyScanned")
        if not broken("S4record"):
            self.claims[transfer_id] = expiry

    def give_back(self, transfer_id):
        if not broken("S6giveBack"):
            self.claims.pop(transfer_id, None)

    def release(self, transfer_id):
        if broken("R.releaseAll"):
            self.claims.clear()
        elif not broken("R.release"):
            self.claims.pop(transfer_id, None)

    def has_claimed(self, transfer_id):
        return transfer_id in self.claims and not broken("R.hasClaimed")

    def prune(self, now):
        if broken("R.receiverPrune"):
            return
        for transfer_id in list(self.claims):
            expiry = self.claims[transfer_id]
            if (expiry + RETENTION < now) if broken("R.receiverPruneBound") else (expiry + RETENTION <= now):
                del self.claims[transfer_id]
