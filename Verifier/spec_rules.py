"""Enumerates the normative rules of Spec/ by reading the Spec's own text, so that the mutation run
(rules.py) can be compared with the Spec: a rule added to the Spec without a switch fails the run.

    spec_rules.py            prints every rule ID with its section
    spec_rules.py --check    compares them with the switches of rules.py (exit 1 on a difference)

What counts as a rule, section by section (sections 1, 6.4.1, 6.6, 6.7 and 7-10 restate or explain
what the rules below decide, and 11.5-11.9 are behaviour over time and sockets that no vector holds
(Tests/AccountHandoffTransportTests pin them), apart from 11.7's handshake line; none of these is
enumerated):

- step tables, whose first column is a step or rule ID: 2.4 (steps 1-6 as `2.4.N`, B1-B12),
  2.5 (S0-S7), 3.3 (F1-F7), 3.7 (T1-T7), 5.1 (H1-H4), 5.3 (E1-E4), and in transport.md the
  decoding rules of 11.1 and 11.2 and the admission rules of 11.4 (`11.1[truncated]`,
  `11.2[relayHost.padGroup]`, `11.4[A3]`: bracketed, as their names are the vectors' words);
- numbered steps: 2.3, 3.4, 4.4, 11.2 (`SECTION.N`), 6.0 (`6.0.N`, its sub-bullets `6.0.N(a)`...,
  and the frame-event steps `6.0 frame.N`), 6.1 `start` (`6.1 start.0a` ... `6.1 start.3`);
- every definition `NAME = ...` (and `if ...`) in the code blocks of 2.1-5.3, 11.1, 11.3, 11.4 and 11.7:
  `SECTION[NAME]`;
- rows of the value tables: 2.1 fields, 3.2 types, 3.6 frames and every receipt status and abort
  reason value (`3.6[receipt 4]`), 6 actions, 6.4 outcomes (`6.4[FIRST IDENTIFIER]`);
- the bullets of 4.3 (keys, sequence numbers, nonce, additional data, body), 4.4 (the code's forms,
  typed entry, tries), 6.3 (each registry operation), 6.5 (what each side wipes), 11.1 (encoding)
  and 11.2 (what a relay host is);
- the README's version and extension rules (`README[N]`);
- every row of the incoming-frame tables of 6.1 and 6.2 (`6.1 frame[STATE | FRAME]`) and every cell
  of their local-event tables (`6.1 local[STATE | EVENT COLUMN]`);
- in typed-code.md (version 4): the numbered steps of 12.3 and 12.5, the definitions of the code
  blocks of 12.2, 12.6 and 12.8, and the bullets of 12.4, 12.6 and 12.7;
- every normative sentence of every Spec/*.md file, outside tables and code blocks, sections 1, 6.4.1, 6.6, 6.7 and
  7-10 included: a sentence with MUST, must, refuses, refused, ends, never or only is the rule
  `SECTION "first words" #hash` (sentences.py names the switches that break each; an edited sentence gets a new hash).
"""

import os
import re
import sys

SPEC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Spec")
FILES = ("README.md", "protocol.md", "state-machines.md", "transport.md", "typed-code.md")
SKIPPED_SECTIONS = ("1", "6.4.1", "6.6", "6.7", "10", "10.1")
STEP_TABLE_SECTIONS = {"2.4", "2.5", "3.3", "3.7", "5.1", "5.3", "11.1", "11.2", "11.4"}
NUMBERED_SECTIONS = {"2.3", "3.4", "4.4", "6.0", "6.1", "11.2"}
BULLET_SECTIONS = {"4.3", "4.4", "6.3", "6.5", "11.1", "11.2"}
CODE_SECTIONS = {"2.1", "2.2", "2.3", "3.1", "3.4", "3.5", "3.8", "4.1", "4.2", "4.3", "4.4", "4.5", "5.1", "11.1", "11.3", "11.4",
                 "11.7"}
TRANSPORT_SECTIONS = {"11.1", "11.2", "11.3", "11.4", "11.7"}
# typed-code.md (version 4): numbered steps of 12.3 and 12.5, definitions of 12.2, 12.6 and 12.8,
# bullets of 12.4, 12.6 and 12.7 (12.1 and 12.9 describe; the switches are in typed_code_rules.py).
TYPED_SECTIONS = {"12.2", "12.3", "12.4", "12.5", "12.6", "12.7", "12.8"}
NUMBERED_SECTIONS |= {"12.3", "12.5"}
CODE_SECTIONS |= {"12.2", "12.6", "12.8"}
BULLET_SECTIONS |= {"12.4", "12.6", "12.7"}


CELL_TEXT = {}  # local-event cell ID -> its text (filled while enumerating)
OUTCOME_ROWS = {}  # 6.4 row ID -> the outcome identifiers it lists


def plain(text):
    """Cell or bullet text without markdown: no backticks, bold or escapes, single spaces."""
    text = text.replace("\\|", "|").replace("`", "").replace("**", "")
    return re.sub(r"\s+", " ", text).strip()


def split_row(line):
    """The cells of a markdown table row (pipes escaped as \\| stay in their cell)."""
    cells = re.split(r"(?<!\\)\|", line.strip())
    return [cell.strip() for cell in cells[1:-1]]


def sections():
    """(section number, title, lines) for every heading of the Spec files, in order."""
    out = []
    for name in FILES:
        with open(os.path.join(SPEC, name), encoding="utf-8") as handle:
            lines = handle.read().split("\n")
        number, title, body = ("README" if name == "README.md" else None), name, []
        for line in lines:
            heading = re.match(r"^#{1,3} (?:(\d+(?:\.\d+)*)\.? )?(.*)$", line)
            if heading:
                if number is not None:
                    out.append((number, title, body))
                number = heading.group(1) or ("README" if name == "README.md" else heading.group(2))
                title, body = heading.group(2), []
            else:
                body.append(line)
        if number is not None:
            out.append((number, title, body))
    return out


def tables(lines):
    """Every table of a section as (header cells, [row cells])."""
    found, index = [], 0
    while index < len(lines):
        if lines[index].startswith("|") and index + 1 < len(lines) and re.match(r"^\|[-| ]+\|$", lines[index + 1]):
            header = [plain(cell) for cell in split_row(lines[index])]
            rows, index = [], index + 2
            while index < len(lines) and lines[index].startswith("|"):
                row = split_row(lines[index])
                if len(row) != len(header):
                    raise ValueError(f"table row with {len(row)} cells under a header of {len(header)}: {lines[index][:80]}")
                rows.append(row)
                index += 1
            found.append((header, rows))
        else:
            index += 1
    return found


def first_words(text, count=6):
    words = plain(text).rstrip(":.").split(" ")
    return " ".join(words[:count])


def rules_of(number, title, lines):
    """(rule ID, section) for every rule of one section."""
    found = []

    def add(rule):
        if rule not in [r for r, _ in found]:
            found.append((rule, number))

    if number == "README":
        if title == "Version and extension rules":
            for index, bullet in enumerate([line for line in lines if line.startswith("- ")], 1):
                add(f"README[{index}]")
        return found
    if number in SKIPPED_SECTIONS or not (re.match(r"^[2-6](\.\d+)?$", number) or number in TRANSPORT_SECTIONS
                                          or number in TYPED_SECTIONS):
        return found
    for header, rows in tables(lines):
        key = header[0]
        if key in ("step", "rule") and number in STEP_TABLE_SECTIONS:
            for row in rows:
                step = plain(row[0])
                if number in TRANSPORT_SECTIONS:
                    add(f"{number}[{step}]")
                else:
                    add(f"{number}.{step}" if step.isdigit() else step)
        elif key == "field" and number == "2.1":
            for row in rows:
                add(f"2.1[{plain(row[0])}]")
        elif key == "type" and number == "3.2":
            for row in rows:
                add(f"3.2[{plain(row[0])}]")
        elif key == "frame" and number == "3.6":
            for row in rows:
                frame = plain(row[0])
                add(f"3.6[{frame}]")
                for value in re.findall(r"`(\d+)` \w", row[2]):
                    add(f"3.6[{frame} {value}]")
        elif key == "action":
            for row in rows:
                add(f"6[{plain(row[0]).split('(')[0]}]")
        elif key == "identifier" and number == "6.4":
            for row in rows:
                add(f"6.4[{plain(row[0]).split(',')[0]}]")
                OUTCOME_ROWS[f"6.4[{plain(row[0]).split(',')[0]}]"] = re.findall(r"`([^`]+)`", row[0])
        elif key == "state" and len(header) > 1 and header[1] == "frame":
            for row in rows:
                add(f"{number} frame[{plain(row[0])} | {plain(row[1])}]")
        elif key == "state":
            for row in rows:
                for column, cell in zip(header[1:], row[1:]):
                    add(f"{number} local[{plain(row[0])} | {column}]")
                    CELL_TEXT[f"{number} local[{plain(row[0])} | {column}]"] = plain(cell)
    in_code = False
    owner = ""
    numbered = 0
    last_step = None
    sub = 0
    for line in lines:
        if line.startswith("```"):
            in_code = not in_code
            continue
        if in_code:
            if number in CODE_SECTIONS:
                definition = re.match(r"^([A-Za-z][\w()+]*(?: \w+)?)\s+=\s", line)
                if definition:
                    add(f"{number}[{definition.group(1)}]")
                elif line.startswith("if "):
                    add(f"{number}[{first_words(line, 4)}]")
            continue
        step = re.match(r"^(\d+)\. ", line)
        if step and number in NUMBERED_SECTIONS:
            if step.group(1) == "1":
                numbered += 1
            if number == "6.1":
                last_step = f"6.1 start.{step.group(1)}"
            elif number == "6.0" and numbered == 2:
                last_step = f"6.0 frame.{step.group(1)}"
            else:
                last_step = f"{number}.{step.group(1)}"
            sub = 0
            add(last_step)
            continue
        lettered = re.match(r"^- (0[a-z])\. ", line)
        if lettered and number == "6.1":
            add(f"6.1 start.{lettered.group(1)}")
            continue
        if re.match(r"^   - ", line) and last_step and number == "6.0":
            sub += 1
            add(f"{last_step}({'abcdefgh'[sub - 1]})")
            continue
        registry = re.match(r"^\*\*(Sender|Receiver) registry\*\*", line)
        if registry:
            owner = registry.group(1).lower() + " "
        if line.startswith("- ") and number in BULLET_SECTIONS:
            if number == "4.4" and not re.match(r"^- (`\w+`|Typed entry|Tries)", line):
                continue  # the two bullets before "Forms:" explain, they decide nothing
            operation = re.match(r"^- `(\w+)", line)
            if number == "6.3":
                name = owner + (operation.group(1) if operation else "outcome recorded")
            else:
                name = first_words(plain(line[2:]).split(":")[0].split(" (")[0], 4)
            add(f"{number}[{name}]")
        if not line.strip():
            last_step = last_step if number == "6.0" else None
    return found


# The words that make a sentence normative (the README's RFC 2119 words, and the verbs with which the Spec states
# refusals, endings and limits). Every sentence outside the tables and code blocks of Spec/*.md with one of them is
# a rule: `SECTION "first words" #hash` (the hash is of the whole sentence, so an edited sentence is a new rule).
NORMATIVE = re.compile(r"\b(MUST|must|refuses|refused|ends|never|only)\b")
# Every Markdown file of Spec/, found on disk, so that a new file cannot hide its sentences.
SENTENCE_FILES = tuple(sorted(name for name in os.listdir(SPEC) if name.endswith(".md")))
SENTENCE_TEXT = {}  # sentence rule ID -> the sentence


def prose_units(lines):
    """The paragraphs and bullets of a section, outside code blocks and tables, each as one line of text."""
    units, current, in_code = [], [], False
    for line in lines + [""]:
        if line.startswith("```"):
            in_code = not in_code
            if current:
                units.append(" ".join(current))
                current = []
            continue
        starts_unit = re.match(r"^\s*(?:- |\d+\. |\d+[a-z]\. |- \d+[a-z]\. )", line)
        if in_code or not line.strip() or line.startswith("|") or starts_unit:
            if current:
                units.append(" ".join(current))
                current = []
            if in_code or not line.strip() or line.startswith("|"):
                continue
        current.append(line.strip())
    return units


def split_sentences(unit):
    """The sentences of a paragraph: a full stop followed by a space and a capital, a backtick or a parenthesis."""
    text = re.sub(r"^\s*(?:- |\d+\. |\d+[a-z]\. |- \d+[a-z]\. )", "", unit)
    parts = re.split(r"(?<!e\.g\.)(?<!i\.e\.)(?<=[.!?])\s+(?=[A-Z`(*\"])", text)
    return [plain(part) for part in parts if plain(part)]


def sentence_rules():
    """[(rule ID, section)] for every normative sentence outside the tables and code blocks of Spec/*.md."""
    import hashlib
    found = []
    for name in SENTENCE_FILES:
        with open(os.path.join(SPEC, name), encoding="utf-8") as handle:
            text = handle.read().split("\n")
        number, body, chunks = ("README" if name == "README.md" else None), [], []
        for line in text:
            heading = re.match(r"^#{1,4} (?:(\d+(?:\.\d+)*)\.? )?(.*)$", line)
            if heading:
                chunks.append((number, body))
                number = heading.group(1) or ("README" if name == "README.md" else number)
                body = []
            else:
                body.append(line)
        chunks.append((number, body))
        for number, body in chunks:
            if number is None:
                continue
            sentences = [sentence for unit in prose_units(body) for sentence in split_sentences(unit) if NORMATIVE.search(sentence)]
            for sentence in sentences:
                words = sentence.split(" ")
                count = 6
                while count < len(words) and sum(1 for other in sentences if other.split(" ")[:count] == words[:count]) > 1:
                    count += 1
                digest = hashlib.sha256(sentence.encode("utf-8")).hexdigest()[:4]
                rule = f'{number} "{" ".join(words[:count]).rstrip(",;:")}" #{digest}'
                if rule in SENTENCE_TEXT:
                    continue
                SENTENCE_TEXT[rule] = sentence
                found.append((rule, number))
    return found


def all_rules():
    """Every rule ID of the Spec, in Spec order, with its section: [(rule, section)]."""
    out = []
    for number, title, lines in sections():
        for rule, section in rules_of(number, title, lines):
            if rule not in [r for r, _ in out]:
                out.append((rule, section))
    return out + sentence_rules()


_CELLS = {}


def local_cell(role_section, state, event):
    """The ID of the local-event cell of 6.1 or 6.2 for `state` and an event name (e.g. `codeEntered`)."""
    if not _CELLS:
        for rule, section in RULES_CACHE():
            match = re.match(r"^(6\.[12]) local\[(\w+) \| (.*)\]$", rule)
            if match:
                for name in match.group(3).split(","):
                    _CELLS[(match.group(1), match.group(2), name.split("(")[0].strip())] = rule
    return _CELLS.get((role_section, state, event))


def outcome_in(outcome, identifiers):
    """Whether `outcome` is one of a 6.4 row's identifiers (`failed.<error identifier>` covers every `failed.X`)."""
    for identifier in identifiers:
        if "<" in identifier:
            if outcome.startswith(identifier.split("<")[0]):
                return True
        elif outcome == identifier:
            return True
    return False


_CACHE = []


def RULES_CACHE():  # noqa: N802 - a cached constant
    if not _CACHE:
        _CACHE.extend(all_rules())
    return _CACHE


def compare(switch_rules):
    """Differences between the Spec's rules and the rule IDs the switches of rules.py break.
    `switch_rules`: {switch: [spec rule IDs]}. Returns (rules without a switch, unknown IDs)."""
    spec = [rule for rule, _ in RULES_CACHE()]
    covered = {rule for rules in switch_rules.values() for rule in rules}
    missing = [rule for rule in spec if rule not in covered]
    unknown = sorted({f"{switch}: {rule}" for switch, rules in switch_rules.items() for rule in rules if rule not in spec})
    return missing, unknown


def main(arguments):
    if arguments == ["--check"]:
        sys.dont_write_bytecode = True
        import rules
        missing, unknown = compare({switch: entry[2] for switch, entry in rules.RULES.items()})
        for rule in missing:
            print("no switch in rules.py breaks Spec rule:", rule)
            if rule in SENTENCE_TEXT:
                print("    the sentence:", SENTENCE_TEXT[rule])
                stale = sorted({entry.split(": ", 1)[1] for entry in unknown if entry.split(": ", 1)[1].split(" #")[0] == rule.split(" #")[0]})
                for old in stale:
                    print(f"    it was {old} in sentences.py: check that its switches still break what it says now, then rename it")
        for entry in unknown:
            print("a switch names a rule the Spec does not have:", entry)
        print(f"spec rules: {len(RULES_CACHE())}, switches: {len(rules.RULES)}, "
              f"without a switch: {len(missing)}, unknown: {len(unknown)}")
        return 1 if missing or unknown else 0
    for rule, section in RULES_CACHE():
        print(f"{section:8} {rule}")
    print(f"{len(RULES_CACHE())} rules")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
