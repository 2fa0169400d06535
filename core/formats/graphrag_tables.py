"""graphrag_tables: entity and relationship tables laid out as Microsoft GraphRAG's local-search context is.

    -----Entities-----
    id|entity|description|number of relationships
    0|db-identity|database|1

    -----Relationships-----
    id|source|target|description
    0|svc-api|svc-auth|depends_on

An entity's description is its node type and a relationship's description its relation, so the
tables decode back to the graph; `id` is the position of the node (edge) in the graph's canonical
order and `number of relationships` the node's degree in the whole graph (GraphRAG's rank), both
ignored when decoding. A graph with properties gains a "properties" column (a JSON object, empty
when none) where GraphRAG puts its attribute columns. Fields are escaped as in typed_edges (`\\\\`,
`\\p` for `|`, `\\n`, `\\r`). Both sections are always present: a context cut among the entities
ends with the relationships header.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from core.errors import FormatError
from core.formats.base import (
    AtomKind,
    Format,
    Record,
    RecordText,
    Rendering,
    after_whole_records,
    edges_header_context,
    memo_table,
    nodes_then_edges,
    record_memo,
)
from core.formats.decoding import decoded_graph, properties_from_json
from core.formats.escaping import escape_atom, split_fields
from core.graph.model import Edge, Graph, Node, Properties, properties_json
from core.graph.units import Unit, edge_keys

NAME = "graphrag_tables"
ENTITIES = "-----Entities-----"
RELATIONSHIPS = "-----Relationships-----"
ENTITY_COLUMNS = ["id", "entity", "description", "number of relationships"]
RELATIONSHIP_COLUMNS = ["id", "source", "target", "description"]
PROPERTIES_COLUMN = "properties"

GRAMMAR = """\
Two |-separated tables. Under -----Entities-----, each row is a node: id|entity|description|number \
of relationships, where entity is the node id and description its type. Under \
-----Relationships-----, id|source|target|description is an edge: source --description--> target. \
In a field \\p is |, \\n a line break, \\r a carriage return, \\\\ a backslash. A properties field \
holds a JSON object."""


def _entity_columns(with_properties: bool) -> list[str]:
    return ENTITY_COLUMNS[:3] + [PROPERTIES_COLUMN] * with_properties + ENTITY_COLUMNS[3:]


def _relationship_columns(with_properties: bool) -> list[str]:
    return RELATIONSHIP_COLUMNS + [PROPERTIES_COLUMN] * with_properties


def _numbers(graph: Graph) -> tuple[dict[str, int], dict[str, int], Counter]:
    """Row ids of nodes and edges (canonical positions) and each node's degree in the whole graph."""
    degrees: Counter = Counter()
    for edge in graph.edges:
        degrees[edge.source] += 1
        degrees[edge.target] += 1
    node_ids = {node.id: index for index, node in enumerate(graph.nodes)}
    edge_ids = {key: index for index, (key, _) in enumerate(edge_keys(graph))}
    return node_ids, edge_ids, degrees


def _row(lead: str, row_id: int, fields: list[tuple[str, AtomKind | None]], key: str) -> Record:
    record = RecordText().add(f"{lead}\n{row_id}")
    for value, kind in fields:
        record.add("|").add(escape_atom(value), kind)
    return record.build(key)


def _properties_field(properties: Properties, present: bool) -> list[tuple[str, AtomKind | None]]:
    if not present:
        return []
    return [(properties_json(properties), "property_value") if properties else ("", None)]


def render(graph: Graph, units: Sequence[Unit]) -> Rendering:
    with_properties = graph.has_properties
    memo = record_memo(graph, NAME)  # a row depends on its unit, the graph's numbering and what precedes it
    node_ids, edge_ids, degrees = memo_table(memo, "numbers", lambda: _numbers(graph))
    relationships = f"\n\n{RELATIONSHIPS}\n" + "|".join(_relationship_columns(with_properties))
    records: list[Record] = []
    closings = [relationships]
    in_relationships = False
    for unit in nodes_then_edges(units):
        if unit.is_node:
            record = memo.get((unit.key, ""))
            if record is None:
                node = unit.node
                fields: list[tuple[str, AtomKind | None]] = [(node.id, "node_id"), (node.type, "node_type")]
                fields += _properties_field(node.properties, with_properties) + [(str(degrees[node.id]), None)]
                record = memo[unit.key, ""] = _row("", node_ids[node.id], fields, unit.key)
            records.append(record)
            closings.append(relationships)
        else:
            lead = "" if in_relationships else relationships
            record = memo.get((unit.key, lead))
            if record is None:
                edge = unit.edge
                fields = [(edge.source, "node_id"), (edge.target, "node_id"), (edge.relation, "relation")]
                fields += _properties_field(edge.properties, with_properties)
                record = memo[unit.key, lead] = _row(lead, edge_ids[unit.key], fields, unit.key)
            records.append(record)
            in_relationships = True
            closings.append("")
    preamble = f"{ENTITIES}\n" + "|".join(_entity_columns(with_properties))
    return Rendering(NAME, preamble, tuple(records), tuple(closings))


# ---------------------------------------------------------------------------------------------- decoding

def _section(lines: list[tuple[int, str]], index: int, title: str, headers: tuple[list[str], list[str]]
             ) -> tuple[bool, list[tuple[int, list[str]]], int]:
    """(has a properties column, rows, index after the section) of the section at lines[index]."""
    number = lines[index][0] if index < len(lines) else lines[-1][0]
    if index >= len(lines) or lines[index][1] != title:
        raise FormatError(f"expected the line {title}", f"line {number}",
                          f"write {ENTITIES}, its rows, a blank line, then {RELATIONSHIPS} and its rows",
                          line=number)
    if index + 1 >= len(lines) or lines[index + 1][1].split("|") not in headers:
        raise FormatError(f"expected the header {'|'.join(headers[0])} under {title}", f"line {number + 1}",
                          "write the column names after the section title", line=number + 1)
    width = len(lines[index + 1][1].split("|"))
    rows = []
    index += 2
    while index < len(lines) and lines[index][1]:
        number, line = lines[index]
        fields = split_fields(line, number)
        if len(fields) != width or not fields[0].isdigit() or not fields[0].isascii():
            raise FormatError(f"expected {width} fields starting with a row number: {line[:60]!r}",
                              f"line {number}", "write one row per line with every column", line=number)
        rows.append((number, fields[1:]))
        index += 1
    return width > len(headers[0]), rows, index


def decode(text: str) -> Graph:
    return decode_lines(list(enumerate(text.split("\n"), start=1)))


def decode_lines(numbered: list[tuple[int, str]]) -> Graph:
    """Decode the given (line number, line) pairs, in order; a section's rows each read alone."""
    lines = [(number, line.removesuffix("\r")) for number, line in numbered]
    entity_headers = (_entity_columns(False), _entity_columns(True))
    relationship_headers = (_relationship_columns(False), _relationship_columns(True))
    with_node_properties, entity_rows, index = _section(lines, 0, ENTITIES, entity_headers)
    while index < len(lines) and not lines[index][1]:
        index += 1
    with_edge_properties, relationship_rows, index = _section(lines, index, RELATIONSHIPS, relationship_headers)
    for number, line in lines[index:]:
        if line:
            raise FormatError("text after the relationships", f"line {number}",
                              "end the text with the relationships table", line=number)
    nodes = []
    for number, fields in entity_rows:
        if not fields[-1].isdigit() or not fields[-1].isascii():
            raise FormatError(f"number of relationships {fields[-1]!r:.40} is not a whole number",
                              f"line {number}", "write the node's degree", line=number)
        properties = _properties(fields[2], number) if with_node_properties else ()
        nodes.append(Node(fields[0], fields[1], properties))
    edges = [Edge(fields[0], fields[2], fields[1], _properties(fields[3], number) if with_edge_properties else ())
             for number, fields in relationship_rows]
    return decoded_graph(nodes, edges)


def _properties(field: str, number: int) -> Properties:
    return properties_from_json(field, f"line {number} properties") if field else ()


FORMAT = Format(
    name=NAME,
    title="GraphRAG local-search tables",
    lossless=True,
    grammar=GRAMMAR,
    render=render,
    decode=decode,
    example="-----Relationships----- then rows like  0|svc-api|svc-auth|depends_on",
    interleaves=False,
    tail_start=after_whole_records,  # rows read alone; a blank line ends a section, so lines are left out instead
    tail_context=edges_header_context,
    decode_lines=decode_lines,
)
