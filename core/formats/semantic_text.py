"""semantic_text: the semantic datasheet, one page of plain sentences per node, decodable without loss.

    #semantic-datasheet-v1
    READINGS (relation: "reading" / "inverse reading")
    - depends_on: "depends on" / "is depended on by"

    svc-api — a service
    Definition: A deployable backend service.
    PROPERTIES
    - tier: 1
    LINKED — actual data records
    This service depends on svc-auth and db-identity.
    This service is depended on by svc-web.
    CAN BE LINKED (zero links today — never report these as existing)
    - owned by: team

After the datasheet of the semantic-text study: a header "<id> — a <type>", the type's definition
when the graph's schema has one, PROPERTIES (one `- key: value` line each, the value a JSON literal
so that 1, 1.0, "1" and true stay apart), LINKED with one sentence per relation and direction,
and CAN BE LINKED: the relations the schema allows for the node's type (without a schema: the
(source type, relation, target type) triples seen anywhere in the graph) of which this node has no
edge at all in the graph. Empty sections are left out.

Which page carries an edge: each edge is written once, on the page of whichever of its two nodes
comes first among the units rendered (on the source's page, as "This service depends on ...", or on
the target's page, as "This service is depended on by ..."). When neither node has a page, the
edge goes on a stub page "<source> — node record not included" whose sentences say "This node ...".
Pages come in the order of their first unit, so every prefix of pages is the rendering of its units.

Decoding without loss: the preamble lists, for every relation of the graph (and of its schema), its
two readings as JSON strings. Readings come from the schema, or from the relation name
(`core.graph.model.default_reading`); a reading that is empty, not one printable line, equal to another,
or a word-prefix of another ("depends on" / "depends on x") is replaced by "has link N to" /
"has link N from" (or "link-N-to" / "link-N-from" when those are blocked), so a sentence's reading
is always found by its words. Ids and types are written
bare when they are plain words (types may have several, "Stop Point") and as JSON strings otherwise;
`and` as an id is always quoted; an edge's properties follow its target as a JSON object.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence

from core.errors import FormatError
from core.formats.base import (
    Format,
    Record,
    RecordText,
    Rendering,
    Span,
    after_whole_records,
    memo_table,
    record_memo,
    without_closing,
)
from core.formats.decoding import decoded_graph
from core.formats.grouping import grouped, node_positions, split_lines
from core.formats.quoting import Cursor, Names, add_properties, frozen, json_text
from core.graph.model import Edge, Graph, Node, Properties, PropertyValue, RelationReading, default_reading
from core.graph.units import Unit, unit_edges

NAME = "semantic_text"
VERSION_MARKER = "#semantic-datasheet-v1"
READINGS_HEADER = 'READINGS (relation: "reading" / "inverse reading")'
STUB = "node record not included"
STUB_SUBJECT = "node"
DEFINITION = "Definition: "
PROPERTIES_HEADER = "PROPERTIES"
LINKED_HEADER = "LINKED — actual data records"
CAN_BE_LINKED_HEADER = "CAN BE LINKED (zero links today — never report these as existing)"
ANY_TYPE = "(any type)"

IDS = Names(extra="-/+@'", reserved=("and",))
KEYS = Names(extra="-/+@'.")
_WORD = r"\w[\w\-/+@']*"
# Safe on untrusted text: words of one class separated by a single space, which no word holds, so a
# phrase splits into words one way only.
_TYPE_PHRASE = re.compile(rf"{_WORD}( {_WORD})*\Z")

GRAMMAR = """\
One page per node, separated by blank lines, starting "id — a type" ("id — node record not \
included": edges only, subject "node"). Under PROPERTIES, "- key: value" with a JSON value. \
READINGS gives each relation a reading and an inverse reading. Under LINKED, "This <type> <reading> \
a, b and c." means page node --relation--> a, b and c; with the inverse reading, a, b and c \
--relation--> page node. Each edge is stated once. CAN BE LINKED lists links that do not exist. \
Names that are not plain words are JSON strings; a JSON object after a name holds that edge's properties."""


# ---- readings -------------------------------------------------------------------------------------

def _usable(phrase: str) -> bool:
    return bool(phrase) and phrase.isprintable() and " ".join(phrase.split()) == phrase


def _clashes(phrase: str, taken: list[str]) -> bool:
    return any(phrase == other or phrase.startswith(other + " ") or other.startswith(phrase + " ")
               for other in taken)


def _phrase(candidate: str, taken: list[str], direction: str) -> str:
    """The reading itself when usable and free, else the first free "has link N to" / "link-N-to".

    A taken phrase blocks at most one one-word candidate (its first word), so among len(taken) + 1
    of them one is always free, even when "has" or "has link" is itself a reading.
    """
    numbers = range(1, len(taken) + 2)
    options = [candidate] if _usable(candidate) else []
    options += [f"has link {number} {direction}" for number in numbers]
    options += [f"link-{number}-{direction}" for number in numbers]
    return next(option for option in options if not _clashes(option, taken))


def readings(graph: Graph) -> dict[str, tuple[str, str]]:
    """relation -> (forward, inverse) phrase, unique and prefix-free, for the graph's relations."""
    schema = graph.schema
    relations = {edge.relation for edge in graph.edges}
    if schema is not None:
        relations |= {reading.relation for reading in schema.relations}
    taken: list[str] = []
    phrases: dict[str, tuple[str, str]] = {}
    for relation in sorted(relations):
        reading = schema.reading_of(relation) if schema is not None else default_reading(relation)
        forward = _phrase(reading.forward, taken, "to")
        taken.append(forward)
        inverse = _phrase(reading.inverse, taken, "from")
        taken.append(inverse)
        phrases[relation] = (forward, inverse)
    return phrases


def _readings_preamble(phrases: dict[str, tuple[str, str]]) -> str:
    lines = [VERSION_MARKER, READINGS_HEADER]
    lines += [f"- {KEYS.write(relation)}: {json_text(forward)} / {json_text(inverse)}"
              for relation, (forward, inverse) in phrases.items()]
    return "\n".join(lines)


# ---- what a page may offer: CAN BE LINKED ------------------------------------------------------------

class _Allowed:
    """Per node type, the (direction, relation) -> other-end types the schema or the data allows."""

    def __init__(self, graph: Graph) -> None:
        self.by_type: dict[str, dict[tuple[str, str], list[str]]] = defaultdict(dict)
        self.linked: dict[str, set[tuple[str, str]]] = defaultdict(set)
        self.any_type: list[tuple[str, str, tuple[str, ...]]] = []
        for edge in graph.edges:
            self.linked[edge.source].add(("out", edge.relation))
            self.linked[edge.target].add(("in", edge.relation))
        if graph.schema is not None:
            for reading in graph.schema.relations:
                self._add_reading(reading)
        else:
            types = graph.node_by_id
            for edge in graph.edges:
                self._add(types[edge.source].type, "out", edge.relation, types[edge.target].type)
                self._add(types[edge.target].type, "in", edge.relation, types[edge.source].type)

    def _add(self, node_type: str, direction: str, relation: str, other: str) -> None:
        others = self.by_type[node_type].setdefault((direction, relation), [])
        if other not in others:
            others.append(other)

    def _add_reading(self, reading: RelationReading) -> None:
        for direction, own, other in (("out", reading.source_types, reading.target_types),
                                      ("in", reading.target_types, reading.source_types)):
            if own:
                for node_type in own:
                    self.by_type[node_type][(direction, reading.relation)] = list(other) or [ANY_TYPE]
            else:
                self.any_type.append((direction, reading.relation, other))

    def missing(self, node: Node) -> list[tuple[str, str, list[str]]]:
        options = dict(self.by_type.get(node.type, {}))
        for direction, relation, other in self.any_type:
            options.setdefault((direction, relation), list(other) or [ANY_TYPE])
        ordered = sorted(options.items(), key=lambda item: (item[0][0] != "out", item[0][1]))
        return [(direction, relation, sorted(others)) for (direction, relation), others in ordered
                if (direction, relation) not in self.linked[node.id]]


# ---- rendering -------------------------------------------------------------------------------------

def type_text(node_type: str) -> str:
    return node_type if _TYPE_PHRASE.match(node_type) else json_text(node_type)


def _article(text: str) -> str:
    return "an" if text[0].lower() in "aeiou" else "a"


def _free_text(text: str) -> str:
    return text if _usable(text) else json_text(text)


def _item(far_id: str, properties: Properties) -> tuple[str, tuple[Span, ...]]:
    record = RecordText().add(IDS.write(far_id), "node_id")
    add_properties(record, properties)
    return record.piece()


def _add_items(record: RecordText, edges: list[Edge], far_end: str, items: dict) -> None:
    for index, edge in enumerate(edges):
        if index:
            record.add(" and " if index == len(edges) - 1 else ", ")
        far_id = edge.target if far_end == "target" else edge.source
        piece = items.get((far_id, edge.properties))
        if piece is None:
            piece = items[far_id, edge.properties] = _item(far_id, edge.properties)
        record.add_piece(piece)
    record.add(".")


def _add_sentences(record: RecordText, subject: str, edges: list[Edge], page_id: str,
                   phrases: dict[str, tuple[str, str]], items: dict) -> None:
    outgoing = [edge for edge in edges if edge.source == page_id]
    incoming = [edge for edge in edges if edge.source != page_id]
    for side, far_end, group in ((0, "target", outgoing), (1, "source", incoming)):
        for relation in sorted({edge.relation for edge in group}):
            record.add("\nThis ").add(subject, "node_type").add(" ")
            record.add(phrases[relation][side], "relation").add(" ")
            _add_items(record, [edge for edge in group if edge.relation == relation], far_end, items)


def _head(graph: Graph, node: Node) -> tuple[str, tuple[Span, ...]]:
    """A page's header, definition and PROPERTIES: fixed per node."""
    subject = type_text(node.type)
    record = RecordText().add("\n\n").add(IDS.write(node.id), "node_id")
    record.add(f" — {_article(subject)} ").add(subject, "node_type")
    definition = graph.schema.definition_of(node.type) if graph.schema is not None else None
    if definition:
        record.add(f"\n{DEFINITION}{_free_text(definition)}")
    if node.properties:
        record.add("\n" + PROPERTIES_HEADER)
        for key, value in node.properties:
            record.add("\n- ").add(KEYS.write(key), "property_key").add(": ").add(json_text(value), "property_value")
    return record.piece()


def _tail(node: Node, phrases, allowed: _Allowed) -> str:
    """A page's CAN BE LINKED section (no atoms): fixed per node."""
    missing = allowed.missing(node)
    if not missing:
        return ""
    lines = ["\n" + CAN_BE_LINKED_HEADER]
    for direction, relation, others in missing:
        phrase = phrases[relation][0 if direction == "out" else 1]
        lines.append(f"\n- {phrase}: {', '.join(o if o == ANY_TYPE else type_text(o) for o in others)}")
    return "".join(lines)


def _page(graph: Graph, node: Node, edges: list[Edge], phrases, allowed: _Allowed, keys: list[str],
          parts: dict) -> Record:
    """A node's page, from its fixed head and tail (kept in `parts` per node) and the sentences of its edges."""
    fixed = parts.get(node.id)
    if fixed is None:
        fixed = parts[node.id] = (_head(graph, node), _tail(node, phrases, allowed))
    head, tail = fixed
    record = RecordText().add_piece(head)
    if edges:
        record.add("\n" + LINKED_HEADER)
        _add_sentences(record, type_text(node.type), edges, node.id, phrases, parts)
    return record.add(tail).build(*keys)


def _stub(source: str, edges: list[Edge], phrases, keys: list[str], parts: dict) -> Record:
    record = RecordText().add("\n\n").add(IDS.write(source), "node_id").add(f" — {STUB}\n{LINKED_HEADER}")
    _add_sentences(record, STUB_SUBJECT, edges, source, phrases, parts)
    return record.build(*keys)


def render(graph: Graph, units: Sequence[Unit]) -> Rendering:
    memo = record_memo(graph, NAME)  # a page or stub depends on its units, in their order (and on the graph)
    # fixed per graph: built once for every ordering and layout
    phrases = memo_table(memo, "readings", lambda: readings(graph))
    allowed = memo_table(memo, "allowed", lambda: _Allowed(graph))
    preamble = memo_table(memo, "preamble", lambda: _readings_preamble(phrases))
    # a page's fixed head and tail by node id, an item's text by (far end id, properties): the same
    # in every page that holds them, whichever edges the page carries in this ordering
    parts: dict = memo_table(memo, "parts", dict)
    positions = node_positions(units)

    def carrier(unit: Unit) -> tuple[str, str]:
        if unit.is_node:
            return ("page", unit.node.id)
        source, target = unit.edge.source, unit.edge.target
        at_source, at_target = positions.get(source), positions.get(target)
        if at_target is None or (at_source is not None and at_source <= at_target):
            return ("page", source) if at_source is not None else ("stub", source)
        return ("page", target)

    records = []
    for (kind, node_id), members in grouped(units, carrier):
        keys = [unit.key for unit in members]
        memo_key = (kind, node_id, tuple(keys))
        record = memo.get(memo_key)
        if record is None:
            edges = unit_edges(members)
            if kind == "page":
                node = next(unit.node for unit in members if unit.is_node)
                record = _page(graph, node, edges, phrases, allowed, keys, parts)
            else:
                record = _stub(node_id, edges, phrases, keys, parts)
            memo[memo_key] = record
        records.append(record)
    return without_closing(NAME, preamble, records)


# ---- decoding --------------------------------------------------------------------------------------

_PAGE_FIX = "see the datasheet grammar: a header line, then PROPERTIES, LINKED and CAN BE LINKED sections"


def _read_readings(lines: list[tuple[int, str]]) -> tuple[dict[str, tuple[str, int]], int]:
    """phrase -> (relation, 0 forward / 1 inverse), and the index of the first line after the legend."""
    if lines[0][1] != VERSION_MARKER:
        raise FormatError(f"the first line is not {VERSION_MARKER}", "line 1",
                          f"start the text with {VERSION_MARKER}", line=1)
    if len(lines) < 2 or lines[1][1] != READINGS_HEADER:
        raise FormatError("the READINGS header is missing", "line 2", f"write {READINGS_HEADER} on line 2", line=2)
    legend: dict[str, tuple[str, int]] = {}
    index = 2
    while index < len(lines) and lines[index][1]:
        number, line = lines[index]
        cursor = Cursor(line, number)
        cursor.expect("- ", 'write - relation: "reading" / "inverse reading"')
        relation = cursor.name(KEYS, "a relation")
        cursor.expect(": ", 'write - relation: "reading" / "inverse reading"')
        for side in (0, 1):
            if side:
                cursor.expect(" / ", 'separate the two readings with " / "')
            start = cursor.position
            phrase = cursor.scalar()
            if not isinstance(phrase, str) or not _usable(phrase) or _clashes(phrase, list(legend)):
                cursor.position = start
                raise cursor.error("a reading must be a distinct one-line text, no word-prefix of another",
                                   "give every relation two distinct readings")
            legend[phrase] = (relation, side)
        cursor.end("end the line after the inverse reading")
        index += 1
    return legend, index


def _read_header(cursor: Cursor) -> tuple[str, str | None]:
    """(node id, type text as written) or (node id, None) for a stub."""
    node_id = cursor.name(IDS, "a node id")
    cursor.expect(" — ", "write id — a type")
    if cursor.take(STUB):
        cursor.end(_PAGE_FIX)
        return node_id, None
    if not (cursor.take("a ") or cursor.take("an ")):
        raise cursor.error("expected 'a' or 'an' and the node type", "write id — a type")
    written = cursor.text[cursor.position:]
    if written.startswith('"'):
        cursor.name(KEYS, "a node type")
        cursor.end("end the header after the quoted type")
    elif not _TYPE_PHRASE.match(written):
        raise cursor.error(f"{written[:30]!r} is not a node type", "quote a type that is not plain words")
    return node_id, written


def _type_of(written: str, line: int) -> str:
    if written.startswith('"'):
        return Cursor(written, line).name(KEYS)
    return written


def _read_item(cursor: Cursor) -> tuple[str, Properties]:
    """A node id, and the edge's properties when a JSON object follows it."""
    return cursor.name(IDS, "a node id"), cursor.optional_properties()


def _read_sentence(cursor: Cursor, subject: str, page_id: str, legend: dict[str, tuple[str, int]],
                   edges: list[Edge]) -> None:
    cursor.expect(f"This {subject} ", f"start the sentence with 'This {subject}'")
    phrase = next((phrase for phrase in legend if cursor.startswith(phrase + " ")), None)
    if phrase is None:
        raise cursor.error("the sentence uses no reading listed in READINGS", "use a listed reading")
    cursor.take(phrase + " ")
    relation, side = legend[phrase]
    ends = [_read_item(cursor)]
    while not cursor.startswith(".") or len(ends) > 1:
        if cursor.take(" and "):
            ends.append(_read_item(cursor))
            break
        cursor.expect(", ", "separate names with ', ' and the last with ' and '")
        ends.append(_read_item(cursor))
    cursor.expect(".", "end the sentence with '.'")
    cursor.end("end the sentence with '.'")
    for other, properties in ends:
        source, target = (page_id, other) if side == 0 else (other, page_id)
        edges.append(Edge(source, relation, target, properties))


def _read_property(cursor: Cursor) -> tuple[str, PropertyValue]:
    cursor.expect("- ", "write - key: value")
    key = cursor.name(KEYS, "a property key")
    cursor.expect(": ", "write - key: value")
    value = cursor.scalar()
    cursor.end("write one property per line")
    return key, value


_SECTIONS = {PROPERTIES_HEADER: 1, LINKED_HEADER: 2, CAN_BE_LINKED_HEADER: 3}


def _read_page(page: list[tuple[int, str]], legend, nodes: list[Node], edges: list[Edge]) -> None:
    number, header = page[0]
    node_id, written = _read_header(Cursor(header, number))
    subject = STUB_SUBJECT if written is None else written
    section, pairs = 0, []
    for number, line in page[1:]:
        cursor = Cursor(line, number)
        if line in _SECTIONS and _SECTIONS[line] > section and (written is not None or line == LINKED_HEADER):
            section = _SECTIONS[line]
        elif section == 0 and written is not None and line.startswith(DEFINITION):
            continue
        elif section == 1:
            pairs.append(_read_property(cursor))
        elif section == 2:
            _read_sentence(cursor, subject, node_id, legend, edges)
        elif section == 3 and line.startswith("- "):
            continue
        else:
            raise cursor.error(f"unexpected line {line[:30]!r}", _PAGE_FIX)
    if written is not None:
        nodes.append(Node(node_id, _type_of(written, page[0][0]), frozen(pairs, page[0][0])))


def decode(text: str) -> Graph:
    lines = split_lines(text)
    legend, index = _read_readings(lines)
    nodes: list[Node] = []
    edges: list[Edge] = []
    page: list[tuple[int, str]] = []
    for number, line in lines[index:] + [(len(lines) + 1, "")]:
        if line:
            page.append((number, line))
        elif page:
            _read_page(page, legend, nodes, edges)
            page = []
    return decoded_graph(nodes, edges)


def tail_context(rendering: Rendering, kept: int, tail: str) -> list[int]:
    """A tail that does not open a page with its blank line continues the last whole page: keep that page."""
    return [kept - 1] if kept and not tail.startswith("\n\n") else []


FORMAT = Format(
    name=NAME,
    title="Semantic datasheet (one page of sentences per node)",
    lossless=True,
    grammar=GRAMMAR,
    render=render,
    decode=decode,
    tail_start=after_whole_records,  # each page reads alone, with the preamble's readings
    tail_context=tail_context,
    example="svc-api — a service / LINKED — This service depends on svc-auth and db-identity.",
)
