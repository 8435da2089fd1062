"""Checks of sessions.json: sender starts, and every scripted session replayed through this
verifier's own state machines (Spec 4-6), with every derived value and frame annotation."""

import check_order
import frames
import keyschedule
import qr
from checks import CHECKS, FirstFailure, account_from_json, account_to_json, h, time_of
from errors import ProtocolError
from primitives import SplitMix64, aead_seal
from receiver import Receiver
from registries import ReceiverRegistry
from sender import Sender
from rules import RULES, broken
from session import FINISHED
from typed_way import TypedLog, typed_code_shown
import typed_session_checks


def start_sender(setup, registry=None):
    return Sender.start(account_from_json(setup["account"]), h(setup["rendezvous"]), setup["lifetime"],
                        SplitMix64(setup["seed"]), time_of(setup.get("start", setup.get("now"))), registry,
                        setup.get("localGate", 1), setup.get("typedRoutes", ()))


def check_starts(entries):
    for entry in entries:
        name = "start " + entry["name"]
        try:
            sender = start_sender(entry)
        except ProtocolError as error:
            CHECKS.equal(error.identifier, entry["result"], name)
            continue
        CHECKS.equal("ok", entry["result"], name)
        CHECKS.equal((sender.expiry, sender.transfer_id.hex(), sender.text),
                     (entry.get("expiry"), entry.get("transferID"), entry.get("text")), name + " payload")


def action_json(action, frame_ids):
    kind = action[0]
    # the action reported under another name (the typed way's actions, 6.8, are not rows of 6's table)
    if f"6[{kind}]" in RULES and broken(f"6[{kind}]"):
        return {"type": kind + "Renamed"}
    if kind in ("send", "reply"):
        return {"type": kind, "frame": frame_ids.get(action[1], "unrecorded frame " + action[1][:40].hex())}
    if kind == "showShortCode":
        return {"type": kind, "code": action[1]}
    if kind == "showAccount":
        return {"type": kind, "account": account_to_json(action[1]), "senderGate": action[2]}
    if kind == "requestCredential":
        return {"type": kind, "receiverGate": action[1]}
    if kind == "deliverAccount":
        return {"type": kind, "account": account_to_json(action[1]), "credential": action[2].hex()}
    if kind == "codeMismatch":
        return {"type": kind, "remainingEntries": action[1]}
    if kind == "ignored":
        return {"type": kind, "error": action[1]}
    if kind == "finished":
        return {"type": kind, "outcome": action[1]}
    if kind == "startTypedRun":
        return {"type": kind, "run": action[1].hex(), "frame": frame_ids.get(action[2], "unrecorded frame " + action[2][:40].hex())}
    if kind == "typedCodeRetired":
        return {"type": kind, "newCode": action[1], "wrongGuesses": action[2]}
    if kind == "typedCodeReplaced":
        return {"type": kind, "code": action[1]}
    if kind == "typedWayWithdrawn":
        return {"type": kind, "reason": action[1]}
    if kind == "pairedByTypedCode":
        return {"type": kind, "run": action[1].hex()}
    return {"type": kind}


def expected_action(action):
    action = dict(action)
    if "account" in action:
        action["account"] = account_to_json(account_from_json(action["account"]))
    return action


def after_json(party):
    if party is None:
        return None
    transcript = None
    if party.state != FINISHED and party.channel is not None:
        transcript = party.channel.th.hex()
    after = {"state": party.state, "transcript": transcript, "nextDeadline": party.next_deadline()}
    if getattr(party, "typed_routes", None):
        after["typedCode"] = typed_code_shown(party)
    return after


def event_of(step, frames_bytes):
    event = dict(step["event"])
    if "frame" in event:
        event["bytes"] = frames_bytes[event["frame"]]
    if "credential" in event:
        event["credential"] = h(event["credential"])
    if "run" in event:
        event["run"] = h(event["run"])
    return event


class Replay:
    def __init__(self, session):
        self.session = session
        self.name = session["name"]
        self.setup = session["setup"]
        self.frames = [h(frame["bytes"]) for frame in session["frames"]]
        self.frame_ids = {}
        for index, data in enumerate(self.frames):
            self.frame_ids.setdefault(data, index)
        self.parties = {}
        self.registries = {}
        self.shown = {}
        self.forged = set()
        self.log = TypedLog()

    def run(self):
        for sender_name, setup in self.setup["senders"].items():
            sender = start_sender(setup)
            sender.name, sender.log = sender_name, self.log
            self.parties[sender_name] = sender
            self.check_qr(sender_name, sender)
        for receiver_name in self.setup["receivers"]:
            self.parties.setdefault(receiver_name, None)
        for index, step in enumerate(self.session["steps"]):
            self.step(index, step)
        self.check_handshakes()
        self.check_frames()
        typed_session_checks.check(self)
        CHECKS.equal(self.shown, self.session.get("shortCodes", {}), f"{self.name}: short codes shown")
        outcomes = {name: (party.outcome if party is not None else None) for name, party in self.parties.items()}
        CHECKS.equal(outcomes, self.session["outcomes"], f"{self.name}: outcomes")
        sender = self.parties.get("sender")
        if self.name.startswith("mitm") and sender is not None and sender.code is not None and "receiver" in self.shown:
            # Spec 8.2: the code the honest sender expects and the one the honest receiver shows differ
            # when they are not in one session.
            CHECKS.true(sender.code["digits"] != self.shown["receiver"], f"{self.name}: the honest parties' codes differ")

    def check_qr(self, sender_name, sender):
        record = self.session["qrs"][sender_name]
        mine = {"nonce": sender.nonce.hex(), "commitment": sender.commitment.hex(), "senderPrivateKey": sender.private_key.hex(),
                "senderPublicKey": sender.public_key.hex(), "expiry": sender.expiry, "binary": sender.binary.hex(),
                "text": sender.text, "transferID": sender.transfer_id.hex(), "th0": sender.th0.hex()}
        CHECKS.equal(mine, {key: record.get(key) for key in mine}, f"{self.name}: qr of {sender_name}")

    def step(self, index, step):
        actor, event, now = step["actor"], event_of(step, self.frames), time_of(step["now"])
        where = f"{self.name} step {index} ({actor} {event['type']})"
        check_order.CURRENT = where
        thrown, actions = None, []
        try:
            if event["type"] == "scan":
                actions = self.scan(actor, now)
            elif event["type"] == "startTyped":
                actions = self.start_typed(actor, event, now)
            elif event["type"] == "forge":
                forged = self.forge(actor, event)
                CHECKS.equal(self.frame_ids.get(forged, "unrecorded " + forged[:40].hex()), step.get("forged"), where + " forged frame")
            else:
                actions, _ = self.parties[actor].handle(event, now)
        except ProtocolError as error:
            thrown = error.identifier
        outcomes = [key for key in ("throws", "actions", "forged") if key in step]
        CHECKS.equal(len(outcomes), 1, where + " records one of throws, actions, forged")
        CHECKS.equal("after" in step, not (event["type"] in ("scan", "startTyped") and "throws" in step), where + " records after")
        if "throws" in step:
            CHECKS.equal(thrown, step["throws"], where + " throws")
        else:
            CHECKS.equal(thrown, None, where + " does not throw")
            if "actions" in step:
                mine = [action_json(action, self.frame_ids) for action in actions]
                CHECKS.equal(mine, [expected_action(action) for action in step["actions"]], where + " actions")
        for action in actions:
            if action[0] == "showShortCode":
                self.shown[actor] = action[1]
        if "after" in step:
            CHECKS.equal(after_json(self.parties.get(actor)), step["after"], where + " after")

    def scan(self, actor, now):
        setup = self.setup["receivers"][actor]
        registry = None
        if setup.get("registry") is not None:
            registry = self.registries.setdefault(setup["registry"], ReceiverRegistry())
        binary, payload = qr.decode_text(self.session["qrs"][setup["scans"]]["text"])
        receiver, actions, _ = Receiver.scan(binary, payload, qr.INTENT_SEND_ACCOUNT, setup["skew"], SplitMix64(setup["seed"]),
                                             now, registry, setup["localGate"])
        receiver.sender_name = setup["scans"]
        self.parties[actor] = receiver
        return actions

    def start_typed(self, actor, event, now):
        setup = self.setup["receivers"][actor]
        registry = None
        if setup.get("registry") is not None:
            registry = self.registries.setdefault(setup["registry"], ReceiverRegistry())
        receiver = Receiver.start_typed(event["typed"], event["route"], setup["skew"], SplitMix64(setup["seed"]), now, registry,
                                        setup["localGate"])
        receiver.name, receiver.log = actor, self.log
        self.parties[actor] = receiver
        return []

    def forge(self, actor, event):
        party = self.parties[actor]
        link_id = h(event["linkID"]) if event.get("linkID") is not None else None
        data = party.channel.seal(event["frameType"], h(event["plaintext"]), forged_link_id=link_id)
        self.forged.add(data)
        return data

    def handshake_index(self):
        return {h(record["receiverPublicKey"]): index for index, record in enumerate(self.session["handshakes"])}

    def check_handshakes(self):
        for index, record in enumerate(self.session["handshakes"]):
            where = f"{self.name}: handshake {index} ({record['receiver']})"
            receiver = self.parties.get(record["receiver"])
            if receiver is None:
                CHECKS.true(False, where + " has a receiver session")
                continue
            keys = receiver.keys
            nonce = h(self.session["qrs"][record["sender"]]["nonce"])
            code_prk, material = keyschedule.code_material(keys["codeKey"], nonce, receiver.th1, receiver.hh)
            try:
                code_index, code = keyschedule.short_code(material)
            except ProtocolError as error:
                code_index, code = None, error.identifier
            mine = {"sender": receiver.sender_name, "receiverPrivateKey": receiver.private_key.hex(),
                    "receiverPublicKey": receiver.public_key.hex(), "hh": receiver.hh.hex(), "sharedSecret": receiver.shared.hex(),
                    "prk": keys["prk"].hex(), "helloKey": keys["helloKey"].hex(), "s2rKey": keys["s2rKey"].hex(),
                    "r2sKey": keys["r2sKey"].hex(), "codeKey": keys["codeKey"].hex(), "helloTag": receiver.hello_tag.hex(),
                    "helloFrame": self.frame_ids.get(receiver.hello), "th1": receiver.th1.hex(), "codePRK": code_prk.hex(),
                    "codeMaterial": material.hex(), "codeCandidateIndex": code_index, "shortCode": code}
            CHECKS.equal(mine, {key: record.get(key) for key in mine}, where)
            # The sender, if it accepted this hello, derived the same keys and code.
            sender = self.parties[record["sender"]]
            if sender.accepted_hello == receiver.hello:
                CHECKS.equal((sender.keys, sender.code_material), (keys, material), where + " sender side")

    def check_frames(self):
        pairs = self.handshake_index()
        sealed = {}
        hellos = {}
        for party_name, party in self.parties.items():
            if party is None:
                continue
            for data, record in party.sealed_frames().items():
                sealed[data] = dict(record, sealedBy=party_name)
            if isinstance(party, Receiver) and getattr(party, "hello", None) is not None:
                hellos[party.hello] = (party_name, party)
        for record in self.session["frames"]:
            where = f"{self.name}: frame {record['id']}"
            data = h(record["bytes"])
            if record.get("type") == "hello" and "sealedBy" in record:
                owner = hellos.get(data)
                CHECKS.true(owner is not None, where + " is a hello the verifier built")
                if owner is not None:
                    party_name, receiver = owner
                    mine = {"sealedBy": party_name, "sequence": 0, "receiverPublicKey": receiver.public_key.hex(),
                            "helloTag": receiver.hello_tag.hex(), "handshake": pairs.get(receiver.public_key)}
                    CHECKS.equal(mine, {key: record.get(key) for key in mine}, where + " annotations")
                continue
            if record.get("type") in typed_session_checks.HANDSHAKE_FRAMES and "sealedBy" in record:
                typed_session_checks.check_handshake_frame(self, record, data, where)
                continue
            if "key" not in record:
                CHECKS.true("sealedBy" not in record, where + " sealed by a party is a hello or encrypted")
                continue
            if data in sealed and "origin" not in record:
                ours = sealed[data]
                mine = {"sealedBy": ours["sealedBy"], "type": ours["type"], "sequence": ours["sequence"], "key": ours["key"],
                        "nonce": ours["nonce"].hex(), "transcriptHash": ours["transcriptHash"].hex(),
                        "additionalData": ours["additionalData"].hex(), "plaintext": ours["plaintext"].hex(),
                        "handshake": pairs.get(ours["pair"]), "forged": True if data in self.forged else None}
                if isinstance(ours["pair"], tuple):  # a typed pair (Spec 4.5): named by its typedHandshake
                    mine["handshake"] = None
                    mine[ours["pair"][0]] = ours["pair"][1]
                CHECKS.equal(mine, {key: record.get(key) for key in mine}, where + " annotations")
            elif "origin" in record:
                self.check_script_sealed(record, where)
            else:
                CHECKS.true(False, where + f" sealed by {record.get('sealedBy')} was sealed by the verifier's parties")

    def check_script_sealed(self, record, where):
        """A frame the script sealed with a pair's real keys: recompute it from the handshake's keys."""
        handshake = self.session["handshakes"][record["handshake"]]
        key = h(handshake["s2rKey" if record["key"] == "s2r" else "r2sKey"])
        data = h(record["bytes"])
        ad = h(record["additionalData"])
        expiry = self.session["qrs"][handshake["sender"]]["expiry"]
        CHECKS.equal(ad[:28 + 32].hex(), (data[:24] + expiry.to_bytes(4, "big") + h(record["transcriptHash"])).hex(),
                     where + " AD = header | expiry | T | L")
        CHECKS.equal(keyschedule.aead_nonce(record["sequence"]).hex(), record["nonce"], where + " nonce")
        CHECKS.equal((frames.TYPES.get(data[1]), int.from_bytes(data[18:22], "big")), (record["type"], record["sequence"]),
                     where + " header type and sequence")
        sealed = data[:24] + aead_seal(key, h(record["nonce"]), h(record["plaintext"]), ad)
        CHECKS.equal(sealed.hex(), record["bytes"], where + " sealed bytes")


def check_sessions(vectors):
    check_starts(vectors.get("starts", []))
    for session in vectors["sessions"]:
        try:
            Replay(session).run()
        except FirstFailure:
            raise
        except Exception as error:  # a crash in one session is a failure, not the end of the run
            CHECKS.crash(f"session {session['name']}", error)

