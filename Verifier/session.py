"""Spec 4.3, 5.3 and 6.0: the encrypted channel of one side, and the steps before every table row."""

import math

import check_order
import frames
import keyschedule
import spec_rules
from errors import ProtocolError
from primitives import aead_open, aead_seal, u32
from rules import broken

FINISHED = "finished"


class Channel:
    """Keys, sequence numbers and running transcript of one side (Spec 4.3, 5.3)."""

    def __init__(self, role, transfer_id, expiry, keys, th1):
        self.role, self.transfer_id, self.expiry, self.keys = role, transfer_id, expiry, keys
        self.th1 = self.th = th1
        receiver_first = 0 if broken("K.sequenceStart") else 1
        self.send_sequence = receiver_first if role == "receiver" else 0
        self.receive_sequence = receiver_first if role == "sender" else 0
        self.link_id = None
        self.pair = None  # the receiver public key of the handshake whose keys these are
        self.sealed = {}  # frame bytes -> the values used to seal it (checked against the frame records)

    def send_key(self):
        sender_key = "r2sKey" if broken("K.keysDirection") else "s2rKey"
        return self.keys[sender_key if self.role == "sender" else "r2sKey"]

    def receive_key(self):
        return self.keys["r2sKey" if self.role == "sender" else "s2rKey"]

    def bound_transcript(self, type_name):
        if type_name == "abort" and not broken("K.adAbortTH1"):
            return self.th1
        return self.th

    def seal(self, type_name, plaintext, forged_link_id=False):
        """Spec 5.3 sealing. A forge step (Vectors/README.md) gives its own L as `forged_link_id` (bytes or None)."""
        sequence = self.send_sequence
        header = frames.header(type_name, self.transfer_id, sequence, len(plaintext) + 16)
        transcript = self.bound_transcript(type_name)
        if forged_link_id is False:
            ad = keyschedule.additional_data(header, self.expiry, transcript, type_name, self.link_id)
        else:
            ad = header + u32(self.expiry) + transcript + (forged_link_id or b"")
        nonce = keyschedule.aead_nonce(sequence)
        sealed = aead_seal(self.send_key(), nonce, plaintext, ad)
        data = header + (sealed[-16:] + sealed[:-16] if broken("K.tagFirst") else sealed)
        if not (type_name == "abort" and broken("K.sequenceAbort")):
            self.send_sequence += 1
        if type_name != "abort" or broken("K.absorbAbort"):
            self.th = keyschedule.absorb(self.th, data)
        self.sealed[data] = {"key": "s2r" if self.role == "sender" else "r2s", "nonce": nonce, "transcriptHash": transcript,
                             "additionalData": ad, "plaintext": plaintext, "sequence": sequence, "type": type_name,
                             "pair": self.pair}
        return data

    def open(self, frame, data, expected_type, accepts_nothing=False):
        """Spec 5.3 steps E1-E4; on success advances the sequence and absorbs the frame."""
        return check_order.traced("5.3 encrypted frame", lambda: self._checks(frame, expected_type, accepts_nothing),
                                  lambda: self._open(frame, data, expected_type, accepts_nothing))

    def _checks(self, frame, expected_type, accepts_nothing):
        """E1-E4, each on its own (check_order.py)."""
        sequence, type_name = frame["sequence"], frame["type"]
        ad = keyschedule.additional_data(frame["header"], self.expiry, self.bound_transcript(type_name), type_name, self.link_id)
        try:
            aead_open(self.receive_key(), keyschedule.aead_nonce(sequence), frame["body"], ad)
            opened = None
        except ProtocolError:
            opened = "authenticationFailed"
        expected = not accepts_nothing and type_name in ("abort", expected_type)
        return [("E1", "replayed" if sequence < self.receive_sequence else None),
                ("E2", "outOfOrder" if sequence > self.receive_sequence and type_name != "abort" else None),
                ("E3", None if expected else "unexpectedMessage"), ("E4", opened)]

    def _open(self, frame, data, expected_type, accepts_nothing=False):
        sequence, type_name = frame["sequence"], frame["type"]

        def e12():
            if sequence < self.receive_sequence and not broken("E1"):
                raise ProtocolError("outOfOrder" if broken("E1error") else "replayed")
            ahead_allowed = type_name == "abort" and not broken("E2abort")
            if sequence > self.receive_sequence and not ahead_allowed and not broken("E2"):
                raise ProtocolError("outOfOrder")

        def e3():
            allowed = not accepts_nothing and (type_name == "abort" or type_name == expected_type)
            if not allowed and not broken("E3"):
                raise ProtocolError("unexpectedMessage")

        def e4():
            if broken("K.absorbBeforeOpen") and type_name != "abort":
                self.th = keyschedule.absorb(self.th, data)
            transcript = self.bound_transcript(type_name)
            ad = keyschedule.additional_data(frame["header"], self.expiry, transcript, type_name, self.link_id)
            try:
                return aead_open(self.receive_key(), keyschedule.aead_nonce(sequence), frame["body"], ad)
            except ProtocolError:
                if broken("E4"):
                    return b""
                if broken("K.absorbIgnored") and type_name != "abort":
                    self.th = keyschedule.absorb(self.th, data)
                raise

        if broken("E12order"):
            e3()
            e12()
        else:
            e12()
            if not broken("E3order"):
                e3()
        plaintext = e4()
        if broken("E3order"):
            e3()
        if not broken("E.advance"):
            self.receive_sequence = sequence + 1
        if type_name != "abort" and not broken("K.absorbBeforeOpen") or (type_name == "abort" and broken("K.absorbAbort")):
            self.th = keyschedule.absorb(self.th, data)
        return plaintext


def finite(now):
    return isinstance(now, (int, float)) and not isinstance(now, bool) and math.isfinite(now)


class Session:
    """What both roles share: the clock (6.0 step 1), finished (step 2), expiry (step 3), deadlines."""

    TELLS_EXPIRY = ()  # the states in which step 3 seals abort(6 expired)
    SECTION = None  # the Spec section of this role's tables, "6.1" or "6.2"
    state = None
    outcome = None
    channel = None
    final_threshold = None
    last_deadline = None

    def finish(self, outcome):
        self.final_threshold = self.expiry_threshold()
        for row, identifiers in spec_rules.OUTCOME_ROWS.items():
            if broken(row) and spec_rules.outcome_in(outcome, identifiers):
                outcome += ".x"
        self.state, self.outcome = FINISHED, outcome
        if self.channel is not None and not broken("W.keep"):
            self.channel.keys = None  # Spec 6.5: a finished session holds no key (nothing can use one again)
        self.on_finish(outcome)
        return [("finished", outcome)]

    def on_finish(self, outcome):
        pass

    def expiry_threshold(self):
        """The time at which step 3 ends the session in its current state, or None."""
        raise NotImplementedError

    def expired_outcome(self):
        return "expired"

    def is_expired(self):
        threshold = self.expiry_threshold()
        if threshold is None:
            return False
        t = math.ceil(self.t) if broken("6.0.1frac") and finite(self.t) else self.t
        return self.expired_comparison(t, threshold)

    def expired_comparison(self, t, threshold):
        return t >= threshold

    def next_deadline(self):
        if self.state == FINISHED:
            return self.last_deadline if broken("6.0.deadlineFinished") else None
        return self.deadline_for_state()

    def handle(self, event, now):
        """One event (Spec 6.0, then the table row). Returns (actions, next deadline); raises a refusal."""
        actions = check_order.traced("6.0 steps", lambda: self._order_checks(event, now), lambda: self._steps(event, now),
                                     raised=False)
        deadline = self.next_deadline()
        if self.state != FINISHED:
            self.last_deadline = deadline
        return actions, deadline

    def _order_checks(self, event, now):
        """Steps 1-3 and the frame steps 1-2 of 6.0, each on its own (check_order.py)."""
        threshold = self.expiry_threshold() if self.state != FINISHED else self.final_threshold
        t = self.t if math.isnan(now) else max(self.t, now)
        decoding = transfer = None
        if event["type"] == "frameReceived":
            data = event["bytes"]
            try:
                frames.decode(data)
            except ProtocolError as error:
                decoding = error.identifier
            # A typed session before its pakeInit has no transfer ID yet (Spec 6.8): nothing to compare.
            if len(data) >= 18 and self.transfer_id is not None and data[2:18] != self.transfer_id:
                transfer = "unknownTransfer"
        return [("1 clock", None if finite(now) else "invalidClock"), ("2 finished", "finished" if self.state == FINISHED else None),
                ("3 expiry", "expired" if threshold is not None and t >= threshold else None),
                ("frame 1 decoding", decoding), ("frame 2 transfer ID", transfer)]

    def _steps(self, event, now):
        kind = event["type"]

        def step1():
            if not finite(now) and not broken("6.0.1"):
                check_order.decided("invalidClock")
                raise ProtocolError("invalidClock")
            if broken("6.0.1back") and finite(now) and now < self.t:
                raise ProtocolError("invalidClock")
            if broken("6.0.1max") or not finite(now):
                self.t = now
            else:
                self.t = max(self.t, now)

        def step2():
            if self.state != FINISHED:
                return None
            check_order.decided("finished")
            self.wipe_event(event)
            if kind == "frameReceived":
                if broken("6.0.2frame"):
                    raise ProtocolError("sessionFinished")
                return [("ignored", "sessionFinished")]
            if kind == "cancel" and not broken("6.0.2cancel"):
                return []
            if kind == "typedRunRequested":  # Spec 6.0 step 2: the typed way's connection is closed
                if broken("6.0.2typed"):
                    return []
                raise ProtocolError("invalidEvent")
            if kind in ("typedRunEnded", "typedNameTaken"):
                return []
            if kind in ("tick", "transportLost") and not broken("6.0.2tick"):
                return []
            if kind not in ("cancel", "tick", "transportLost") and broken("6.0.2local"):
                return []
            raise ProtocolError("sessionFinished")

        def step3():
            if self.state != FINISHED and self.is_expired():
                check_order.decided("expired")
                self.wipe_event(event)
                return self.expire()
            if broken("6.0.2") and self.state == FINISHED and self.final_threshold is not None and self.t >= self.final_threshold:
                return [("finished", "expired")]
            return None

        if broken("6.0.1order"):
            done = step2()
            if done is not None:
                return done
            step1()
        else:
            step1()
        if broken("6.0.2"):
            done = step3()
            if done is not None:
                return done
        if not broken("6.0.1order"):
            done = step2()
            if done is not None:
                return done
        if not broken("6.0.2") and not broken("6.0.3beforeRow"):
            done = step3()
            if done is not None:
                return done
        cell = spec_rules.local_cell(self.SECTION, self.state, kind) if kind != "frameReceived" else None
        if cell is not None and broken(cell):  # the mutation of one cell of the local-event table
            if spec_rules.CELL_TEXT[cell].startswith("refused"):
                return []
            raise ProtocolError("invalidEvent")
        actions = self.row(event)
        if broken("6.0.3beforeRow") and self.state != FINISHED and self.is_expired():
            actions = actions + self.expire()
        return actions

    def expire(self):
        """Spec 6.0 step 3: a side that holds the session's keys and has not sent the credential seals abort(6)."""
        silent = {"awaitingReveal": "6.0.3abortReveal", "awaitingCredential": "6.0.3abortCredential",
                  "awaitingCredentialFrame": "6.0.3abortCredentialFrame"}.get(self.state)
        if self.state in self.TELLS_EXPIRY and not broken("6.0.3abort") and not (silent and broken(silent)):
            frame = self.channel.seal("abort", bytes([1 if broken("6.0.3abortReason") else 6]))
            finished = self.finish("expired")
            return finished + [("send", frame)] if broken("6.0.3abortOrder") else [("send", frame)] + finished
        return self.finish(self.expired_outcome())

    def wipe_event(self, event):
        """A password handed in is wiped (not observable here)."""

    def receive_checks(self, data):
        """Frame events, steps 1 and 2 (Spec 6.0): decode, then the transfer ID."""
        if broken("6.0.frame2") and len(data) >= 18 and data[2:18] != self.transfer_id:
            raise ProtocolError("unknownTransfer")
        try:
            frame = frames.decode(data)
        except ProtocolError as error:
            check_order.decided(error.identifier)
            raise
        if frame["transferID"] != self.transfer_id and not broken("6.0.frame2skip"):
            check_order.decided("unknownTransfer")
            raise ProtocolError("unknownTransfer")
        return frame
