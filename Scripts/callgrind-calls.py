#!/usr/bin/env python3
"""Calls per session from two callgrind profiles of session-probe (Scripts/allocations.sh).

    callgrind-calls.py BASE.out MORE.out SESSIONS [--sites N] [--json]

BASE ran W warm-up sessions and 1 measured one, MORE the same plus SESSIONS more; both were
taken with --separate-callers, so every call edge carries its callers. A call counted in MORE
and not in BASE belongs to those extra sessions, so (MORE - BASE) / SESSIONS is what one
session in steady state does: warm-up work (metadata, lazy statics) cancels.

Prints calls per session to the heap allocator (malloc, calloc, realloc, posix_memalign,
aligned_alloc, memalign: what `handoff-dev bench` counts as heap_allocations) and to swift_retain /
swift_release (and their _n and bridge-object variants), then, per counted function, the
sites: the innermost frame of AccountHandoff code that led to the call (with the
standard-library frame in between, if any).
"""
import collections
import json
import re
import subprocess
import sys

HEAP = ["malloc", "calloc", "realloc", "posix_memalign", "aligned_alloc", "memalign"]
RETAINS = ["swift_retain", "swift_retain_n", "swift_bridgeObjectRetain", "swift_bridgeObjectRetain_n",
           "swift_unknownObjectRetain"]
RELEASES = ["swift_release", "swift_release_n", "swift_bridgeObjectRelease", "swift_bridgeObjectRelease_n",
            "swift_unknownObjectRelease"]
# Runtime and allocator frames between a counted call and the code that caused it.
PLUMBING = {"swift_slowAlloc", "swift_allocObject", "swift_allocBox", "swift_release_dealloc", "_swift_release_dealloc",
            "swift_deallocObject", "swift_deallocClassInstance", "swift_task_localValuePush",
            "swift_task_localValuePop"}


def load(path):
    """Call counts per (caller context, callee context) edge."""
    names, edges = {}, collections.Counter()
    caller = callee = None

    def resolve(text):
        match = re.match(r"\((\d+)\)(?: (.*))?$", text)
        if not match:
            return text
        if match.group(2) is not None:
            names[match.group(1)] = match.group(2)
        return names[match.group(1)]

    with open(path, encoding="utf-8", errors="replace") as profile:
        for line in profile:
            if line.startswith("fn="):
                caller = resolve(line[3:].rstrip("\n"))
            elif line.startswith("cfn="):
                callee = resolve(line[4:].rstrip("\n"))
            elif line.startswith("calls="):
                edges[(caller, callee)] += int(line[6:].split()[0])
    return edges


def demangled(symbols):
    """Full demangled names (module-qualified), from the toolchain's `swift demangle`."""
    symbols = sorted(symbols)
    output = subprocess.run(["swift", "demangle", "--compact"], input="\n".join(symbols) + "\n",
                            capture_output=True, text=True, check=True).stdout.split("\n")
    return dict(zip(symbols, output))


def entity(name):
    """The function a demangled name is about, without specialisation or closure prefixes."""
    while True:
        stripped = re.sub(r"^(specialized |static |merged |partial apply for |outlined copy of |outlined destroy of |"
                          r"closure #\d+ (?:\([^)]*\) )?in |implicit closure #\d+ (?:\([^)]*\) )?in |"
                          r"function signature specialization <[^>]*> of )", "", name)
        if stripped.startswith("generic specialization <"):
            depth, index = 0, len("generic specialization ")
            for index in range(index, len(stripped)):
                depth += {"<": 1, ">": -1}.get(stripped[index], 0)
                if depth == 0:
                    break
            stripped = stripped[index + 1:].removeprefix(" of ")
        if stripped == name:
            return name
        name = stripped


def short(name):
    """`Module.Type.method(labels...)` without the module and parameter types."""
    name = re.sub(r"\((\w+) in _[0-9A-F]+\)", r"\1", entity(name))  # private names
    name = re.sub(r"^AccountHandoff(Bench)?\.", "", name)
    name = re.sub(r"\(.*", "", name)
    return name


def main():
    arguments = sys.argv[1:]
    as_json = "--json" in arguments
    arguments = [a for a in arguments if a != "--json"]
    sites_shown = 40
    if "--sites" in arguments:
        index = arguments.index("--sites")
        sites_shown = int(arguments[index + 1])
        del arguments[index:index + 2]
    base, more, sessions = load(arguments[0]), load(arguments[1]), int(arguments[2])

    calls = collections.Counter()
    for edge in set(base) | set(more):
        difference = more[edge] - base[edge]
        if difference:
            calls[edge] = difference
    frames = {frame for (caller, callee) in calls for frame in (caller + "'" + callee).split("'")}
    names = demangled(frames)

    totals = collections.Counter()
    sites = {group: collections.Counter() for group in ("heap", "retain", "release")}
    for (caller, callee), count in calls.items():
        chain = callee.split("'")  # the callee, then its callers, innermost first
        target = chain[0]
        group = "heap" if target in HEAP else "retain" if target in RETAINS else "release" if target in RELEASES else None
        if group is None:
            continue
        totals[target] += count
        project, via = None, None
        for frame in chain[1:]:
            if frame in PLUMBING or frame.isdigit():  # callgrind marks recursion as name'2
                continue
            full = names.get(frame, frame)
            if entity(full).startswith(("AccountHandoff", "session_probe")):
                project = short(full)
                break
            if via is None:
                via = short(full)
        site = (project or "(outside AccountHandoff)") + (f"  [via {via}]" if via else "")
        if group == "heap" and "swift_task_localValuePush" in chain[1:3]:
            site += "  [task-local push]"
        sites[group][site] += count

    objects = sum(count for (caller, callee), count in calls.items() if callee.split("'")[0] == "swift_allocObject")
    per_session = {name: totals[name] / sessions for name in HEAP + RETAINS + RELEASES}
    summary = {
        "sessions": sessions,
        "heap_allocations": sum(per_session[name] for name in HEAP),
        "swift_allocObject": objects / sessions,
        "swift_retain": per_session["swift_retain"],
        "swift_release": per_session["swift_release"],
        "retains_all": sum(per_session[name] for name in RETAINS),
        "releases_all": sum(per_session[name] for name in RELEASES),
        "calls": {name: value for name, value in per_session.items() if value},
    }
    if as_json:
        summary["sites"] = {group: [{"site": site, "per_session": count / sessions} for site, count in counter.most_common()]
                            for group, counter in sites.items()}
        print(json.dumps(summary, indent=2, sort_keys=True))
        return
    print(f"Per session (steady state, {sessions} sessions measured):")
    print(f"  heap allocations (malloc, calloc, realloc, posix_memalign, aligned_alloc, memalign): "
          f"{summary['heap_allocations']:.1f}")
    print(f"    of which through swift_allocObject (Swift objects and buffers): {summary['swift_allocObject']:.1f}")
    print(f"  swift_retain: {summary['swift_retain']:.1f}   all retains (with _n and bridge-object): {summary['retains_all']:.1f}")
    print(f"  swift_release: {summary['swift_release']:.1f}   all releases (with _n and bridge-object): {summary['releases_all']:.1f}")
    for name, value in sorted(summary["calls"].items()):
        print(f"    {name}: {value:.1f}")
    titles = {"heap": "Heap allocations", "retain": "Retains", "release": "Releases"}
    for group, counter in sites.items():
        print(f"\n{titles[group]} per session, by site (innermost AccountHandoff frame):")
        for site, count in counter.most_common(sites_shown):
            print(f"  {count / sessions:7.1f}  {site}")
        rest = sum(count for _, count in counter.most_common()[sites_shown:])
        if rest:
            print(f"  {rest / sessions:7.1f}  (other sites)")


if __name__ == "__main__":
    main()
