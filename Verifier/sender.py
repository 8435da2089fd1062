"""Spec 6.1: the sender (start, incoming frames, local events), with 5.1 hello and 5.2 reveal."""

import check_order
import math

import frames
import keyschedule
import plaintexts
import qr
import typed_way
from errors import ProtocolError
from primitives import equal_constant_time, x25519, x25519_public
from rules import broken
from session import FINISHED, Channel, Session, finite

RECEIPT_WAIT = 120
SHARED_STATES = ("awaitingCodeConfirmation", "awaitingAccept", "awaitingCredential")
CODE_ENTRIES = 3  # Spec 4.4: entries per session
ANSWERED_HELLOS = 8  # Spec 5.1 H1: the second-device hellos remembered in awaitingReceipt


class Sender(Session):
    TELLS_EXPIRY = SHARED_STATES
    SECTION = "6.1"

    @classmethod
    def start(cls, account, rendezvous, lifetime, random, now, registry=None, local_gate=1, typed_routes=()):
        """Spec 6.1 `start`: steps 0a-0c (the inputs are built: configuration, token, account), then 1-3 (the
        arena of step 2 is an environment the vectors do not refuse)."""
        def step0a():
            low, high = (29, 601) if broken("6.1.start0a") else (30, 600)
            if not low <= lifetime <= high:
                raise ProtocolError("invalidConfiguration")

        def step0b():
            if len(rendezvous) > qr.MAX_RENDEZVOUS and not (broken("6.1.start0b") and len(rendezvous) == 33):
                raise ProtocolError("rendezvousTooLong")

        def step0c():
            if not broken("6.1.start0c"):
                plaintexts.validate_account(account)

        def step1():
            if not finite(now) and not broken("6.1.start1"):
                raise ProtocolError("invalidClock")
            if finite(now):
                if math.floor(now) < 0 and not broken("6.1.start1neg"):
                    raise ProtocolError("invalidClock")
                limit = 2 ** 32 if broken("6.1.start1max") else 2 ** 32 - 1
                if math.floor(now) + lifetime > limit:
                    raise ProtocolError("invalidClock")


        order = [step0a, step0b, step0c, step1]
        for rule, first in (("6.1.start0aOrder", 0), ("6.1.start0bOrder", 1), ("6.1.start0cOrder", 2)):
            if broken(rule):  # this step swapped with the next one
                order[first], order[first + 1] = order[first + 1], order[first]
        for step in order:
            step()
        self = cls()
        if broken("Q.drawOrder"):
            self.private_key = random.fill(32)
            self.nonce = random.fill(32)
        else:
            self.nonce = random.fill(32)
            self.private_key = random.fill(32)
        self.public_key = x25519_public(self.private_key)
        start = (round(now) if broken("Q.expiryFloor") else math.floor(now)) if finite(now) else 0  # not finite: only with 6.1.start1 broken
        self.expiry = (start + lifetime) % 2 ** 32  # above 2^32 - 1 only with 6.1.start1max broken
        self.commitment = keyschedule.commitment(self.nonce)
        self.account = account
        self.local_gate = local_gate  # what the offer declares (senderGate, 3.4)
        self.binary = qr.encode_binary({"version": 3 if broken("Q.version") else qr.VERSION,
                                        "intent": 2 if broken("Q.intent") else qr.INTENT_SEND_ACCOUNT, "expiry": self.expiry,
                                        "commitment": self.commitment, "senderPublicKey": self.public_key,
                                        "rendezvous": rendezvous})
        self.text = qr.encode_text(self.binary)
        self.transfer_id = qr.transfer_id(self.binary)
        self.th0 = keyschedule.th0(self.binary)
        if registry is not None and not broken("6.1.start3"):
            registry.register(self.transfer_id, self.expiry)
        self.registry = registry
        self.t = now
        self.state = "awaitingHello"
        self.accepted_hello = None
        self.code = None
        self.code_index = None
        self.second_devices = []  # (hello bytes, keys, th1) of every second device answered
        typed_way.sender_open(self, typed_routes, random)  # Spec 6.8: the first typed code after the nonce and key
        return self

    # ---------------------------------------------------------------- 6.0 hooks

    def on_finish(self, outcome):
        if self.registry is not None:
            self.registry.record(self.transfer_id, outcome)

    def expiry_threshold(self):
        if self.state == FINISHED:
            return None
        if self.state == "awaitingReceipt" and not broken("6.0.3receiptWait"):
            return self.expiry + RECEIPT_WAIT
        return self.expiry

    def expired_comparison(self, t, threshold):
        if self.state == "awaitingReceipt" and broken("6.0.3receiptWaitBound"):
            return t > threshold
        return t > threshold if broken("6.0.3sender") else t >= threshold

    def expired_outcome(self):
        if self.state == "awaitingReceipt" and not broken("6.0.3outcome"):
            return "deliveredUnconfirmed.expired"
        return "expired"

    def deadline_for_state(self):
        if broken("6.0.deadline"):
            return self.expiry + RECEIPT_WAIT
        if self.state == "awaitingReceipt" and not broken("6.0.deadlineReceipt"):
            return self.expiry + RECEIPT_WAIT
        return self.expiry

    # ---------------------------------------------------------------- table rows

    def row(self, event):
        kind = event["type"]
        if kind == "frameReceived":
            return self.receive(event["bytes"])
        state = self.state
        if kind == "codeEntered":
            if broken("4.4.entryBeforeState"):
                keyschedule.typed_entry(event["typed"])
            if state == "awaitingCodeConfirmation" or (broken("6.1.codeEnteredAccept") and state == "awaitingAccept"):
                return self.code_entered(event["typed"])
            return self.refuse(kind)
        if kind == "reject":
            if state in SHARED_STATES:
                return self.abort(1 if broken("6.1.rejectReason") else 2, "rejected.local")
            if state == "awaitingHello" and broken("6.1.rejectHello"):
                return self.finish("rejected.local")
            if state == "awaitingReceipt" and broken("6.1.rejectReceipt"):
                return self.abort(2, "deliveredUnconfirmed.rejected.local")
            return self.refuse(kind)
        if kind == "cancel":
            if state == "awaitingHello":
                if broken("6.1.cancelHello"):
                    raise ProtocolError("invalidEvent")
                return self.finish("cancelled.local")
            if state == "awaitingReceipt":
                outcome = "cancelled.local" if broken("6.1.cancelReceiptOutcome") else "deliveredUnconfirmed.cancelled.local"
                if broken("6.1.cancelReceipt"):
                    return self.abort(1, outcome)
                return self.finish(outcome)
            return self.abort(2 if broken("6.1.cancelReason") else 1, "cancelled.local")
        if kind in ("notAuthenticated", "storeUnavailable"):
            if state == "awaitingCredential":
                if kind == "notAuthenticated":
                    return self.abort(4 if broken("6.1.notAuthenticatedReason") else 5, "notAuthenticated.local")
                return self.abort(5 if broken("6.1.storeUnavailableReason") else 4, "storeUnavailable.local")
            return self.refuse(kind)
        if kind == "credentialProvided":
            if state == "awaitingCredential" or (broken("6.1.credentialState") and state == "awaitingAccept"):
                try:
                    padded = plaintexts.encode_credential(event["credential"])
                except ProtocolError:
                    if broken("6.1.credentialLength"):
                        return self.finish("failed.malformed.credential")
                    raise
                frame = self.channel.seal("credential", padded)
                self.state = "awaitingReceipt"
                return [("send", frame)]
            return self.refuse(kind)
        if kind == "tick":
            if broken("6.1.tick"):
                return self.finish("expired")
            return []
        if kind in typed_way.SENDER_EVENTS:
            return typed_way.sender_local(self, kind, event)
        if kind == "transportLost":
            if broken("6.1.transportLost"):
                return []
            if state == "awaitingReceipt" and not broken("6.1.transportLostReceipt"):
                return self.finish("deliveredUnconfirmed.failed.transportLost")
            return self.finish("failed.transportLost")
        raise ValueError("unknown event " + kind)

    def code_entered(self, typed):
        """Spec 4.4 typed entry and tries, the awaitingCodeConfirmation cell of 6.1."""
        try:
            entry = keyschedule.typed_entry(typed)
        except ProtocolError:
            if broken("4.4.entryNoTry"):
                return self.mismatch()
            raise
        if keyschedule.typed_matches(self.code["digits"], entry):
            return self.seal_offer()
        return self.mismatch()

    def seal_offer(self):
        """Spec 3.4: the offer, with senderGate; next awaitingAccept."""
        self.channel.link_id = self.account["linkID"]
        frame = self.channel.seal("offer", plaintexts.encode_offer(self.account, self.local_gate))
        self.state = "awaitingAccept"
        return [("send", frame)]

    def mismatch(self):
        self.entries_left -= 1
        if self.entries_left <= 0:
            return self.abort(1 if broken("4.4.lastEntryReason") else 2, "rejected.local")
        return [("codeMismatch", CODE_ENTRIES - self.entries_left if broken("4.4.remaining") else self.entries_left)]

    def refuse(self, kind):
        """A refused cell of the local-event table: invalidEvent, state unchanged."""
        raise ProtocolError("sessionFinished" if broken("6.1.invalidEvent") else "invalidEvent")

    def abort(self, reason, outcome):
        frame = self.channel.seal("abort", bytes([reason]))
        return [("send", frame)] + self.finish(outcome)

    def receive(self, data):
        try:
            if broken("6.1.earlyOrder") and self.state == "awaitingHello":
                early = frames.decode(data)
                if early["type"] != "hello":
                    raise ProtocolError("unexpectedMessage")
            frame = self.receive_checks(data)
            if frame["type"] == "hello":
                if broken("6.1.helloAnyState") and self.state != "awaitingHello":
                    raise ProtocolError("unexpectedMessage")
                return self.receive_hello(frame, data)
            if self.state == "awaitingHello" and frame["type"] == "pakeReply" and self.typed is not None:
                return typed_way.sender_pake_reply(self, frame, data)
            if self.state == "awaitingHello":
                if not broken("6.1.nonHelloEarly"):
                    raise ProtocolError("unexpectedMessage")
                raise ProtocolError("authenticationFailed")
            if frame["type"] == "pakeReply" and broken("6.8.replyLate"):
                raise ProtocolError("unexpectedMessage")
            expected = {"awaitingAccept": "accept", "awaitingReceipt": "receipt"}.get(self.state)
            if broken("6.1.expectCodeConfirmation") and self.state == "awaitingCodeConfirmation":
                expected = "accept"
            if broken("6.1.expectCredential") and self.state == "awaitingCredential":
                expected = "receipt"
            plaintext = self.channel.open(frame, data, expected)
        except ProtocolError as error:
            return [("ignored", error.identifier)]
        delivered = self.state == "awaitingReceipt"
        if frame["type"] == "accept":
            gate = plaintexts.receiver_gate(plaintext)
            if gate is None:
                if broken("6.1.receiverGateAbort"):
                    return self.abort(4, "failed.malformed.receiverGate")
                return self.finish("failed.malformed.receiverGate")
            self.state = "awaitingReceipt" if broken("6.1.accept") else "awaitingCredential"
            return [("requestCredential", 1 if broken("6.1.receiverGateShown") else gate)]
        if frame["type"] == "receipt":
            status = plaintexts.receipt_status(plaintext)
            if status is None and broken("6.1.receipt"):
                status = "declined"
            if status is not None:
                return self.finish(("deliveredUnconfirmed.completed." if broken("6.1.receiptCompleted") else "completed.") + status)
            if broken("6.1.receiptUnconfirmed"):
                return self.finish("failed.malformed.receiptStatus")
            return self.finish("deliveredUnconfirmed.failed.malformed.receiptStatus")
        outcome = plaintexts.abort_outcome(plaintext)
        if broken("6.1.abortOutcome") and outcome == "contested":
            outcome = "rejected.peer"
        if delivered and not broken("6.1.abortUnconfirmed"):
            outcome = "deliveredUnconfirmed." + outcome
        return self.finish(outcome)

    def hello_keys(self, frame, data):
        """Spec 5.1 steps H2-H4 for a hello other than the accepted one; returns (keys, hh)."""
        peer, tag = frame["body"][:32], frame["body"][32:]

        def h2():
            if frame["sequence"] != 0 and not broken("H2"):
                raise ProtocolError("malformed.sequence")

        def h3():
            try:
                return x25519(self.private_key, peer)
            except ProtocolError:
                if broken("H3"):
                    return bytes(32)
                raise

        if broken("H3order"):
            shared = h3()
            h2()
        elif not broken("H2order"):
            h2()
            shared = h3()
        else:
            shared = h3()
        hh = keyschedule.handshake_hash(self.th0, peer)
        keys = keyschedule.derive_keys(shared, self.commitment, hh)
        if not equal_constant_time(tag, keyschedule.hello_tag(keys["helloKey"], hh, self.th0)) and not broken("H4"):
            raise ProtocolError("authenticationFailed")
        if broken("H2order"):
            h2()
        return keys, hh

    def receive_hello(self, frame, data):
        return check_order.traced("5.1 hello", lambda: self._hello_checks(frame, data), lambda: self._receive_hello(frame, data))

    def _hello_checks(self, frame, data):
        """H1-H4, each on its own (check_order.py)."""
        answered = [hello for hello, *_ in self.second_devices][-ANSWERED_HELLOS:]
        replayed = (self.accepted_hello is not None and data == self.accepted_hello) or (
            self.state == "awaitingReceipt" and data in answered)
        peer, tag = frame["body"][:32], frame["body"][32:]
        try:
            shared, low = x25519(self.private_key, peer), False
        except ProtocolError:
            shared, low = bytes(32), True  # what an H4-first reading derives its tag key from
        hh = keyschedule.handshake_hash(self.th0, peer)
        keys = keyschedule.derive_keys(shared, self.commitment, hh)
        wrong_tag = not equal_constant_time(tag, keyschedule.hello_tag(keys["helloKey"], hh, self.th0))
        return [("H1", "replayed" if replayed else None), ("H2", "malformed.sequence" if frame["sequence"] != 0 else None),
                ("H3", "lowOrderPublicKey" if low else None), ("H4", "authenticationFailed" if wrong_tag else None)]

    def _receive_hello(self, frame, data):
        def h1():
            if self.accepted_hello is not None and data == self.accepted_hello and not broken("H1"):
                raise ProtocolError("replayed")

        if not broken("H1order"):
            h1()
        # H1 also covers a second device's hello already answered in awaitingReceipt (the last 8).
        memory = 1 if broken("H1memory") else 9 if broken("H1memoryLonger") else ANSWERED_HELLOS
        hellos = [hello for hello, *_ in self.second_devices]
        if broken("H1rememberAgain"):  # a hello answered again once forgotten is not remembered again
            hellos = [hello for index, hello in enumerate(hellos) if hello not in hellos[:index]]
        answered = hellos[-memory:]
        if self.state == "awaitingReceipt" and data in answered and not broken("H1answered"):
            raise ProtocolError("replayed")
        keys, hh = self.hello_keys(frame, data)
        if broken("H1order"):
            h1()
        th1 = keyschedule.th1(self.th0, hh, data)
        if self.state == "awaitingHello":
            actions = self.accept_hello(data, keys, th1)
            if self.typed is not None and self.state != FINISHED:
                self.typed = None  # Spec 6.8: the QR way paired first; the typed way is withdrawn
                if not broken("6.8.qrWithdraw"):
                    actions = actions + [("typedWayWithdrawn", "pairedByQR")]
            return actions
        second = Channel("sender", self.transfer_id, self.expiry, keys, self.channel.th1 if broken("K.adSecondTH1") else th1)
        second.pair = data[24:56]
        if broken("6.1.contestedSequence"):
            second.send_sequence = self.channel.send_sequence
        to_second = second.seal("abort", bytes([3]))
        self.second_devices.append((data, keys, th1, second))
        if self.state == "awaitingReceipt":
            if broken("6.1.lateHello"):
                return [("reply", to_second)] + self.finish("deliveredUnconfirmed.contested")
            return [("reply", to_second)] + ([] if broken("6.1.lateHelloWarn") else [("anotherDeviceJoined",)])
        if broken("6.1.contested"):
            return [("reply", to_second)] + self.finish("contested")
        established = self.channel.seal("abort", bytes([3]))
        if broken("6.1.contestedSecond"):
            return [("send", established)] + self.finish("contested")
        if broken("6.1.contestedOrder"):
            return [("reply", to_second), ("send", established)] + self.finish("contested")
        return [("send", established), ("reply", to_second)] + self.finish("contested")

    def accept_hello(self, data, keys, th1):
        """Spec 5.2, the sender's side, and the awaitingHello row of 6.1."""
        self.channel = Channel("sender", self.transfer_id, self.expiry, keys, th1)
        self.channel.pair = data[24:56]
        self.accepted_hello = data
        self.keys = keys
        _, material = keyschedule.code_material(keys["codeKey"], self.nonce, th1, keyschedule.handshake_hash(self.th0, data[24:56]))
        self.code_material = material
        try:
            self.code_index, self.code = keyschedule.short_code(material)
        except ProtocolError as error:
            return self.finish("failed." + error.identifier)
        if broken("6.1.helloReveal"):
            self.state = "awaitingCodeConfirmation"
            self.entries_left = CODE_ENTRIES
            return [("askForCode",)]
        saved = self.channel.th
        reveal = self.channel.seal("reveal", self.commitment if broken("V.reveal") else self.nonce)
        if broken("6.1.revealTranscript"):
            self.channel.th = saved
        self.state = "awaitingCodeConfirmation"
        self.entries_left = CODE_ENTRIES + (1 if broken("4.4.entries") else 0)
        if broken("6.1.helloFirst"):
            return [("askForCode",), ("send", reveal)]
        if broken("6.1.showsCode"):
            return [("send", reveal), ("showShortCode", self.code["digits"])]
        return [("send", reveal), ("askForCode",)]

    def sealed_frames(self):
        sealed = dict(self.channel.sealed) if self.channel else {}
        for *_, channel in self.second_devices:
            sealed.update(channel.sealed)
        return sealed
