"""A linear Pajek reader: networkx's rules for sections and fields, with shlex's splitting done by two regexes.

networkx's parse_pajek splits each line with `shlex.split`, which grows each field one character at a
time (`token = token + char` on an attribute): quadratic in a field's length. One label of 10 MB ran for
minutes, and 100,000 characters take 0.6 s per field. This reader splits the same way (POSIX shell words:
white space separates fields, "double" and 'single' quotes group, a backslash escapes a character, and
inside double quotes only a quote or a backslash) in one pass, and checks each field against the string
limit as it is read, with its line.

The sections follow networkx's parse_pajek: `*Vertices N` then N vertex lines `number label [x y shape]
[key value ...]`; `*Arcs` and `*Edges` lines `from to [weight] [key value ...]`, numbers resolved to
labels; `*Matrix` rows of whole numbers. Two differences, each where networkx loses data: a section
ends at the next line starting with `*` (networkx reads every line after `*Arcs` or `*Edges` as an edge
line, so a file with both read its arcs as undirected edges or its edges as arcs), and an `*Edges` line
is added in both directions into one directed graph (networkx turns the whole graph undirected), so a
mixed network keeps both kinds. What the vertex rule drops or moves is counted for a notice.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import networkx as nx

from core.errors import LoadError
from core.io.limits import Limits

_FIX = "check the *Vertices count and that every line is `number \"label\" ...` or `from to [weight]`"
_FIELDS_FIX = "a line has more or fewer fields than its section allows"
# One field: runs of plain characters, escaped characters and quoted parts, without white space between them.
# Safe on untrusted text: the four alternatives start with different characters (plain, backslash, double,
# single quote), each run is possessive, so nothing is tried twice; an unclosed quote fails once, at its end.
_FIELD = re.compile(r"""(?:[^ \t"'\\]++|\\.|"(?:[^"\\]++|\\.)*+"|'[^']*+')++""", re.DOTALL)
# The pieces of one field, to undo quoting and escapes (the same four alternatives).
_PIECE = re.compile(r"""[^"'\\]++|\\(.)|"((?:[^"\\]++|\\.)*+)"|'([^']*+)'""", re.DOTALL)
_QUOTED_ESCAPE = re.compile(r'\\(["\\])')  # inside double quotes, a backslash escapes only these two
_SPACE = " \t"


@dataclass
class PajekNetwork:
    """A parsed network as networkx would build it, and what the reader noticed on the way."""

    graph: nx.MultiDiGraph
    undirected_lines: int = 0  # *Edges lines read (each became two arcs, a self-loop one)
    undirected_arcs: int = 0
    vertex_number_as_shape: list[int] = field(default_factory=list)  # lines whose shape field is a number (a z)
    vertex_fields_dropped: list[int] = field(default_factory=list)  # lines with fields the vertex rule drops


def split_fields(line: str) -> list[str]:
    """The fields of a line as `shlex.split(line)` gives them (ValueError with shlex's words on an unclosed
    quote or a trailing backslash), in linear time."""
    fields: list[str] = []
    position, end = 0, len(line)
    while True:
        while position < end and line[position] in _SPACE:
            position += 1
        if position >= end:
            return fields
        found = _FIELD.match(line, position)
        stop = found.end() if found else position
        if stop < end and line[stop] not in _SPACE:  # an unclosed quote, or a backslash at the end
            raise ValueError("No escaped character" if line[stop] == "\\" else "No closing quotation")
        fields.append(_PIECE.sub(_unquoted, found.group()))  # type: ignore[union-attr]
        position = stop


def _unquoted(piece: re.Match) -> str:
    text = piece.group()
    if text[0] == "\\":
        return piece.group(1)
    if text[0] == '"':
        return _QUOTED_ESCAPE.sub(r"\1", piece.group(2))
    if text[0] == "'":
        return piece.group(3)
    return text


class _Lines:
    """The file's non-blank lines with their numbers in the file, read one after another."""

    def __init__(self, lines: list[str], numbers: list[int], source: str, limits: Limits) -> None:
        self.lines, self.numbers, self.source, self.limits = lines, numbers, source, limits
        self.position = 0

    def more(self) -> bool:
        return self.position < len(self.lines)

    def next(self) -> str:
        self.position += 1
        return self.lines[self.position - 1]

    def at_section(self) -> bool:
        return self.more() and self.lines[self.position].startswith("*")

    def where(self) -> str:
        return f"{self.source}, line {self.numbers[self.position - 1]}"

    def fields(self, line: str) -> list[str]:
        try:
            fields = split_fields(line)
        except ValueError as error:
            what = "a quote is never closed" if "quotation" in str(error) else "a line ends with a backslash"
            raise LoadError(f"the Pajek network cannot be read: {what} ({error})", self.where(),
                            'close every quote on its line ("label"), or escape the backslash (\\\\)') from None
        for text in fields:
            self.limits.check_string(text, self.source, f"line {self.numbers[self.position - 1]}")
        return fields

    def error(self, what: str) -> LoadError:
        return LoadError(f"the Pajek network cannot be read: {what}", self.where(), _FIX)


def read_network(lines: list[str], numbers: list[int], source: str, limits: Limits) -> PajekNetwork:
    """The network in the file's non-blank `lines` (`numbers`: each one's line in the file)."""
    reader = _Lines(lines, numbers, source, limits)
    network = PajekNetwork(nx.MultiDiGraph())
    labels: list[str] = []  # in the order of the file, for *Matrix rows and columns
    numbered: dict[str, str] = {}  # Pajek number -> label
    while reader.more():
        line = reader.next()
        lower = line.lower()
        if lower.startswith("*network"):
            parts = line.split(None, 1)
            if len(parts) == 2:
                network.graph.graph["name"] = parts[1]
        elif lower.startswith("*vertices"):
            numbered = {}
            parts = line.split()
            if len(parts) != 2:
                raise reader.error(_FIELDS_FIX)
            if not parts[1].isdigit() or len(parts[1]) > 9:
                raise reader.error(f"the *Vertices count {parts[1][:40]!r} is not a whole number")
            for _ in range(int(parts[1])):
                if not reader.more():
                    raise reader.error("the file ends before the *Vertices count is reached")
                _vertex(reader, reader.fields(reader.next()), network, labels, numbered)
        elif lower.startswith(("*edges", "*arcs")):
            both_ways = lower.startswith("*edge")
            while reader.more() and not reader.at_section():
                _edge(reader.fields(reader.next()), numbered, network, both_ways)
        elif lower.startswith("*matrix"):
            row = 0
            while reader.more() and not reader.at_section():
                _matrix_row(reader, reader.next(), row, labels, network)
                row += 1
    return network


def _vertex(reader: _Lines, fields: list[str], network: PajekNetwork, labels: list[str],
            numbered: dict[str, str]) -> None:
    """networkx's rule: number and label, then x y shape only when all three are there and x, y are numbers,
    then key value pairs from the sixth field on (an unpaired last field is dropped)."""
    if len(fields) < 2:
        raise reader.error(_FIELDS_FIX)
    number, label = fields[0], fields[1]
    labels.append(label)
    network.graph.add_node(label)
    numbered[number] = label
    data = network.graph.nodes[label]
    data["id"] = number
    line = reader.numbers[reader.position - 1]
    position = _position(fields[2:5]) if len(fields) >= 5 else None
    if position is not None:
        data.update(position)
        if _is_number(fields[4]):
            network.vertex_number_as_shape.append(line)
    if (2 < len(fields) < 5) or (len(fields) >= 5 and position is None) or (len(fields) > 5 and len(fields) % 2 == 0):
        network.vertex_fields_dropped.append(line)
    data.update(zip(fields[5::2], fields[6::2]))


def _position(fields: list[str]) -> dict | None:
    try:
        return {"x": float(fields[0]), "y": float(fields[1]), "shape": fields[2]}
    except ValueError:
        return None


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def _edge(fields: list[str], numbered: dict[str, str], network: PajekNetwork, both_ways: bool) -> None:
    if len(fields) < 2:  # networkx skips such lines
        return
    start, end = numbered.get(fields[0], fields[0]), numbered.get(fields[1], fields[1])
    data: dict = {}
    if len(fields) > 2 and _is_number(fields[2]):
        data["weight"] = float(fields[2])
    data.update(zip(fields[3::2], fields[4::2]))
    network.graph.add_edge(start, end, **data)
    if both_ways:
        network.undirected_lines += 1
        network.undirected_arcs += 1
        if start != end:
            network.graph.add_edge(end, start, **data)
            network.undirected_arcs += 1


def _matrix_row(reader: _Lines, line: str, row: int, labels: list[str], network: PajekNetwork) -> None:
    for column, text in enumerate(line.split()):
        try:
            value = int(text)
        except ValueError:
            raise reader.error(f"the *Matrix entry {text[:40]!r} is not a whole number") from None
        if value == 0:
            continue
        if row >= len(labels) or column >= len(labels):
            raise reader.error(f"the *Matrix has more rows or columns than the {len(labels):,} vertices")
        network.graph.add_edge(labels[row], labels[column], weight=value)

