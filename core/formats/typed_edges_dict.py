"""typed_edges_dict: typed edges whose relations and node types are replaced by short dictionary codes.

    #graph-dict-v1
    REL: D=depends_on|B=owned_by
    TYPE: s=service|t=team|d=database
    N|svc-api|s
    E|svc-api|D|svc-auth

The two code tables are the preamble, so they are always counted. Codes are derived from the whole
graph, not from the units rendered, so every prefix uses the same dictionary: names are taken in
order of decreasing use (then by name), and each gets the first free code among its mnemonic
candidates (its word initials, then its other letters, then its first letter followed by another
letter or a digit) and, failing those, the next free code of the plain sequence A..Z, AA, AB, ...
Relation codes are upper case, type codes lower case, both drawn from letters and digits that
cannot be confused: no I, L, O (i, l, o), no 0 or 1. Fields use the escaping of `typed_edges`
(`\\\\`, `\\p` for `|`, `\\n`, `\\r`), and so do the names in the tables, whose entries are separated
by `|` and split at their first `=` (a code never holds `=`), so a relation called `d=x, y|z` is
written `X=d=x, y\\pz`. A code the tables do not define is a format error naming its line.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from itertools import count, product

from core.errors import FormatError
from core.formats.base import (
    AtomKind,
    Format,
    RecordText,
    Rendering,
    after_whole_records,
    memo_table,
    record_memo,
    without_closing,
)
from core.formats.decoding import decoded_graph
from core.formats.escaping import escape_atom, split_fields
from core.formats.quoting import read_properties
from core.graph.model import Edge, Graph, Node, Properties, properties_json
from core.graph.units import Unit

NAME = "typed_edges_dict"
VERSION_MARKER = "#graph-dict-v1"
RELATION_TABLE = "REL:"
TYPE_TABLE = "TYPE:"
RELATION_LETTERS = "ABCDEFGHJKMNPQRSTUVWXYZ"  # no I, L, O
TYPE_LETTERS = RELATION_LETTERS.lower()
DIGITS = "23456789"  # no 0, 1

GRAMMAR = """\
First line #graph-dict-v1. Line 2, REL: code=relation|..., and line 3, TYPE: code=type|..., are \
the dictionaries. Then one record per line, fields separated by |: N|id|type-code is a node; \
E|source|relation-code|target is an edge: source --relation--> target. In a field or a dictionary \
name, \\p stands for |, \\n for a line break, \\r for a carriage return and \\\\ for a backslash. \
An optional last field holds the properties as a JSON object."""


def _mnemonics(name: str, letters: str) -> Iterator[str]:
    """Codes that recall the name: word initials, then other letters, then pairs and letter-digit."""
    allowed = set(letters)
    cased = name.upper() if letters.isupper() else name.lower()
    words = [word for word in cased.replace("-", " ").replace("_", " ").split() if word]
    initials = [word[0] for word in words if word[0] in allowed]
    others = [char for char in cased if char in allowed]
    yield from initials
    yield from others
    if others:
        first = others[0]
        yield from (first + second for second in initials[1:] + others[1:])
        yield from (first + digit for digit in DIGITS)


def _plain_sequence(letters: str) -> Iterator[str]:
    for length in count(1):
        for combination in product(letters, repeat=length):
            yield "".join(combination)


def assign_codes(usage: Counter[str], letters: str) -> dict[str, str]:
    """name -> code: most used names first (ties by name), each taking its first free candidate."""
    codes: dict[str, str] = {}
    taken: set[str] = set()
    for name in sorted(usage, key=lambda item: (-usage[item], item)):
        for candidate in _mnemonics(name, letters):
            if candidate not in taken:
                break
        else:
            candidate = next(code for code in _plain_sequence(letters) if code not in taken)
        codes[name] = candidate
        taken.add(candidate)
    return codes


def relation_codes(graph: Graph) -> dict[str, str]:
    return assign_codes(Counter(edge.relation for edge in graph.edges), RELATION_LETTERS)


def type_codes(graph: Graph) -> dict[str, str]:
    return assign_codes(Counter(node.type for node in graph.nodes), TYPE_LETTERS)


def _table_line(label: str, codes: dict[str, str]) -> str:
    entries = "|".join(f"{code}={escape_atom(name)}" for name, code in codes.items())
    return f"{label} {entries}" if entries else label


def _line(prefix: str, atoms: Iterable[tuple[str, AtomKind]], properties, key: str):
    record = RecordText().add("\n" + prefix)
    for value, kind in atoms:
        record.add("|").add(value, kind)
    if properties:
        record.add("|").add(escape_atom(properties_json(properties)), "property_value")
    return record.build(key)


def render(graph: Graph, units: Sequence[Unit]) -> Rendering:
    memo = record_memo(graph, NAME)  # a line depends on its unit and the graph's codes only
    relations, types = memo_table(memo, "codes", lambda: (relation_codes(graph), type_codes(graph)))
    preamble = "\n".join([VERSION_MARKER, _table_line(RELATION_TABLE, relations), _table_line(TYPE_TABLE, types)])
    records = []
    for unit in units:
        known = memo.get(unit.key)
        if known is not None:
            records.append(known)
            continue
        if unit.is_node:
            node = unit.node
            atoms: list[tuple[str, AtomKind]] = [(escape_atom(node.id), "node_id"), (types[node.type], "node_type")]
            records.append(memo.setdefault(unit.key, _line("N", atoms, node.properties, unit.key)))
        else:
            edge = unit.edge
            atoms = [(escape_atom(edge.source), "node_id"), (relations[edge.relation], "relation"),
                     (escape_atom(edge.target), "node_id")]
            records.append(memo.setdefault(unit.key, _line("E", atoms, edge.properties, unit.key)))
    return without_closing(NAME, preamble, records)


def _read_table(line: str, label: str, letters: str, number: int) -> dict[str, str]:
    """code -> name from one dictionary line."""
    if not line.startswith(label):
        raise FormatError(f"line {number} is not the {label} dictionary", f"line {number}",
                          f"write the {label} code table on line {number}", line=number)
    body = line[len(label):]
    if not body:
        return {}
    if not body.startswith(" "):
        raise FormatError(f"expected a space after {label}", f"line {number}", f"write {label} code=name|...",
                          line=number)
    table: dict[str, str] = {}
    for entry in split_fields(body[1:], number):
        code, equals, name = entry.partition("=")
        if not equals or not code or code[0] not in letters or any(char not in letters + DIGITS for char in code):
            raise FormatError(f"{entry[:30]!r} is not a code=name entry", f"line {number}",
                              f"write code=name, the code a letter of {letters} then letters or digits {DIGITS}",
                              line=number)
        if code in table:
            raise FormatError(f"code {code!r} is defined twice", f"line {number}", "give each code once",
                              line=number)
        table[code] = name
    return table


def _decoded(table: dict[str, str], code: str, what: str, number: int) -> str:
    try:
        return table[code]
    except KeyError:
        raise FormatError(f"unknown {what} code {code!r}", f"line {number}",
                          f"use a code defined in the {what} dictionary", line=number) from None


def _properties(field: str, number: int) -> Properties:
    """The last field's JSON object (read strictly: nothing may follow it)."""
    properties, end = read_properties(field, 0, number)
    if end != len(field):
        raise FormatError("text after the properties object", f"line {number}",
                          "end the line with the properties", line=number)
    return properties


def decode(text: str) -> Graph:
    lines = [line.removesuffix("\r") for line in text.split("\n")]
    if lines[0] != VERSION_MARKER:
        raise FormatError(f"the first line is not {VERSION_MARKER}", "line 1",
                          f"start the text with the version marker {VERSION_MARKER}", line=1)
    if len(lines) < 3:
        raise FormatError("the code tables are missing", f"line {len(lines) + 1}",
                          "write the REL: and TYPE: lines after the version marker", line=len(lines) + 1)
    relations = _read_table(lines[1], RELATION_TABLE, RELATION_LETTERS, 2)
    types = _read_table(lines[2], TYPE_TABLE, TYPE_LETTERS, 3)
    nodes, edges = [], []
    for number, line in enumerate(lines[3:], start=4):
        if not line:
            continue
        fields = split_fields(line, number)
        kind, size, where = fields[0], len(fields), f"line {number}"
        if kind == "N" and size in (3, 4):
            properties = _properties(fields[3], number) if size == 4 else ()
            nodes.append(Node(fields[1], _decoded(types, fields[2], "type", number), properties))
        elif kind == "E" and size in (4, 5):
            properties = _properties(fields[4], number) if size == 5 else ()
            edges.append(Edge(fields[1], _decoded(relations, fields[2], "relation", number), fields[3], properties))
        else:
            raise FormatError(f"not a node or edge record: {line[:60]!r}", where,
                              "write N|id|type-code or E|source|relation-code|target", line=number)
    return decoded_graph(nodes, edges)


FORMAT = Format(
    name=NAME,
    title="Dictionary-coded typed edges",
    lossless=True,
    grammar=GRAMMAR,
    render=render,
    decode=decode,
    tail_start=after_whole_records,  # each line (page) reads alone
    example="E|svc-api|D|svc-auth (after REL: D=depends_on|B=owned_by)",
)
