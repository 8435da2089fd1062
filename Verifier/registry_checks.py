"""Checks of registries.json: scripts of operations on one sender or receiver registry (Spec 6.3)."""

import check_order
import qr
from checks import CHECKS, FirstFailure, h, time_of
from errors import ProtocolError
from primitives import SplitMix64
from receiver import Receiver
from registries import ReceiverRegistry, SenderRegistry
from session_checks import start_sender


def sender_operation(registry, sessions, operation):
    op = operation["op"]
    if op == "start":
        sender = start_sender(operation, registry)
        sessions[operation["session"]] = sender
        return {"transferID": sender.transfer_id.hex(), "expiry": sender.expiry}
    if op == "event":
        sender = sessions[operation["session"]]
        sender.handle({"type": operation["event"]}, time_of(operation["now"]))
        return sender.outcome
    if op == "admit":
        check_order.CURRENT = "registry admit " + operation.get("note", "")
        return {"transferID": registry.admit(h(operation["frame"]), time_of(operation["now"])).hex()}
    if op == "status":
        status = registry.status(h(operation["transferID"]))
        return {"unknown": None, "pending": "pending"}.get(status, "finished." + status)
    if op == "prune":
        return registry.prune(time_of(operation["now"]))
    raise ValueError("unknown sender registry operation " + op)


def receiver_operation(registry, operation):
    op = operation["op"]
    if op == "scan":
        binary, payload = qr.decode_text(operation["text"])
        CHECKS.equal((qr.transfer_id(binary).hex(), payload["expiry"]),
                     (operation.get("transferID"), operation.get("expiry")), "receiver registry scan: recorded ID and expiry")
        Receiver.scan(binary, payload, qr.INTENT_SEND_ACCOUNT, operation["skew"], SplitMix64(operation["seed"]),
                      time_of(operation["now"]), registry)
        return "ok"
    if op == "hasClaimed":
        return registry.has_claimed(h(operation["transferID"]))
    if op == "release":
        return registry.release(h(operation["transferID"]))
    if op == "prune":
        return registry.prune(time_of(operation["now"]))
    raise ValueError("unknown receiver registry operation " + op)


def run_script(script, kind):
    registry = SenderRegistry() if kind == "sender" else ReceiverRegistry()
    sessions = {}
    for index, operation in enumerate(script["operations"]):
        where = f"{kind} registry {script['name']} op {index} ({operation['op']})"
        try:
            if kind == "sender":
                result = sender_operation(registry, sessions, operation)
            else:
                result = receiver_operation(registry, operation)
        except ProtocolError as error:
            result = error.identifier
        CHECKS.equal(result, operation["result"], where)


def check_registries(vectors):
    for kind in ("sender", "receiver"):
        for script in vectors[kind]:
            try:
                run_script(script, kind)
            except FirstFailure:
                raise
            except Exception as error:  # a crash in one script is a failure, not the end of the run
                CHECKS.crash(f"{kind} registry {script['name']}", error)
