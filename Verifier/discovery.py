"""Spec 11.10, DNS-SD on the local network: the advertisement of a nameplate, the TXT record's
wire format (RFC 6763 6.1), which resolved services are ours, and the receiving device's decision
over a browse; and the checks of discovery.json. Written from the Spec only."""

import ipaddress

from checks import CHECKS, h
from rules import broken

SERVICE_TYPE = "_accounthandoff._tcp"
DOMAIN = "local"
NAME_PREFIX = "AccountHandoff "
VERSION_STRING = b"v=4"
NAMEPLATE_PREFIX = b"np="
ASCII_DIGITS = b"0123456789"


def service_type():
    return "_accounthandoff._udp" if broken("11.10.serviceType") else SERVICE_TYPE


def instance_name(digits):
    return ("AccountHandoff" if broken("11.10.nameSpace") else NAME_PREFIX) + digits


def txt_strings(digits):
    strings = [VERSION_STRING, NAMEPLATE_PREFIX + digits.encode("ascii")]
    return strings[::-1] if broken("11.10.txtOrder") else strings


def txt_wire(strings):
    """RFC 6763 6.1: each string preceded by one byte holding its length."""
    extra = 1 if broken("11.10.wireLength") else 0
    return b"".join(bytes([len(s) + extra]) + s for s in strings)


def parse_txt_wire(wire):
    """The strings of a TXT record, or None when a length byte runs past the end."""
    strings, offset = [], 0
    while offset < len(wire):
        length = wire[offset]
        offset += 1
        if offset + length > len(wire):
            if not broken("11.10.wireOverrun"):
                return None
        strings.append(wire[offset:offset + length])
        offset += length
    return strings


def _digits(text):
    """The 3 digits of a nameplate (ASCII 0-9 only) as an int, or None."""
    if broken("11.10.nameDigits"):
        return int(text) if text.isdigit() and len(text) == 3 else None
    if broken("11.10.digitCount"):
        return int(text) if 1 <= len(text) <= 4 and all(c in "0123456789" for c in text) else None
    if len(text) == 3 and all(c in "0123456789" for c in text):
        return int(text)
    return None


def name_nameplate(name):
    if broken("11.10.nameCase"):
        if name[:len(NAME_PREFIX)].lower() == NAME_PREFIX.lower():
            return _digits(name[len(NAME_PREFIX):])
        return None
    if broken("11.10.nameSpaces"):
        if name.startswith(NAME_PREFIX.rstrip()):
            return _digits(name[len(NAME_PREFIX.rstrip()):].lstrip(" "))
        return None
    if not name.startswith(NAME_PREFIX):
        return None
    return _digits(name[len(NAME_PREFIX):])


def txt_nameplate(strings):
    """The nameplate of a TXT record that is exactly v=4, np=NNN, or None."""
    if broken("11.10.txtOrder") and len(strings) == 2 and strings[1] == VERSION_STRING:
        strings = strings[::-1]
    if broken("11.10.txtCount"):
        if len(strings) < 2:
            return None
        strings = strings[:2]
    elif len(strings) != 2:
        return None
    version, entry = strings
    if version != VERSION_STRING and not (broken("11.10.version") and version.startswith(b"v=")):
        return None
    if not entry.startswith(NAMEPLATE_PREFIX):
        return None
    digits = entry[len(NAMEPLATE_PREFIX):]
    if broken("11.10.txtDigits"):
        ok = 1 <= len(digits) <= 3 and all(b in ASCII_DIGITS for b in digits)
    else:
        ok = len(digits) == 3 and all(b in ASCII_DIGITS for b in digits)
    return int(digits) if ok else None


def domain_is_ours(domain):
    if broken("11.10.anyDomain"):
        return True
    if broken("11.10.rootLabel"):
        return domain == DOMAIN
    return domain in (DOMAIN, DOMAIN + ".")


def service_nameplate(service):
    """The nameplate (an int) a resolved service advertises when it is ours, or None."""
    named = name_nameplate(service["instanceName"])
    if named is None or not domain_is_ours(service["domain"]):
        return None
    recorded = txt_nameplate([h(s) for s in service["txt"]])
    if recorded is None:
        return None
    if recorded != named and not broken("11.10.nameplateMatch"):
        return None
    if service["family"] != "ipv4" and not broken("11.10.ipv4Only"):
        return None
    if service["port"] == 0 and not broken("11.10.portZero"):
        return None
    return named


def decision(typed, services):
    """11.10: connect to exactly one IPv4 address and port, none, or several."""
    endpoints = []
    for service in services:
        nameplate = service_nameplate(service)
        if nameplate is None or (nameplate != typed and not broken("11.10.typedOnly")):
            continue
        address = str(ipaddress.IPv4Address(service["address"]))
        endpoint = (address, 0 if broken("11.10.portDistinct") else service["port"], service["port"])
        if broken("11.10.sameEndpoint"):
            endpoints.append(endpoint)
        elif endpoint[:2] not in [e[:2] for e in endpoints]:
            endpoints.append(endpoint)
    if not endpoints:
        return {"decision": "none"}
    if len(endpoints) > 1 and not broken("11.10.several"):
        return {"decision": "several"}
    address, _, port = endpoints[0]
    return {"decision": "connect", "address": address, "port": port}


def digits_of(nameplate):
    return None if nameplate is None else f"{nameplate:03d}"


def check_discovery(vectors):
    for entry in vectors["advertisements"]:
        digits = entry["nameplate"]
        strings = txt_strings(digits)
        wire = txt_wire(strings)
        CHECKS.equal({"serviceType": service_type(), "domain": DOMAIN, "instanceName": instance_name(digits),
                      "txt": [s.hex() for s in strings], "txtWire": wire.hex()},
                     {k: entry[k] for k in ("serviceType", "domain", "instanceName", "txt", "txtWire")},
                     f"discovery advertisement {digits}")
        CHECKS.equal(len(wire), 11, f"discovery advertisement {digits}: 11 bytes of TXT")
    for entry in vectors["txtWireFormats"]:
        strings = parse_txt_wire(h(entry["wire"]))
        got = {"strings": None if strings is None else [s.hex() for s in strings],
               "nameplate": None if strings is None else digits_of(txt_nameplate(strings))}
        CHECKS.equal(got, {"strings": entry["strings"], "nameplate": entry["nameplate"]}, f"discovery TXT {entry['name']}")
    for entry in vectors["services"]:
        CHECKS.equal(digits_of(service_nameplate(entry)), entry["nameplate"], f"discovery service {entry['name']}")
    for entry in vectors["browses"]:
        expected = {k: entry[k] for k in ("decision", "address", "port") if k in entry}
        CHECKS.equal(decision(int(entry["typed"]), entry["services"]), expected, f"discovery browse {entry['name']}")
