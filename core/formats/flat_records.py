"""flat_records: nodes and edges as flat records, the shape ISONGraph's benchmark gives its graphs.

    {"id": 1, "type": "person", "name": "Alice", "age": 28}
    {"source": 1, "target": 2, "relation": "follows", "since": 2020}

A node is its id, its type, then its properties in the order the source gave them; an edge its source,
target and relation, then its properties. An id read as a whole number (`Node.id_value`) is written as
that number, everywhere it appears; every other id is text. A record one of whose property keys is one of
its own fields (a node property named `id`) holds its properties in a nested `"properties"` object
instead: no property value is an object, so a reader tells the two apart. `flat_json`,
`flat_compact_json` and `toon` write these records; `records_graph` reads them back.
"""

from __future__ import annotations

from collections.abc import Hashable

from core.errors import FormatError
from core.formats.base import Record, memo_table
from core.formats.decoding import decoded_graph, expect_list, expect_object, expect_string, properties_from
from core.graph.model import Edge, Graph, Node, PropertyValue

NODE_FIELDS = ("id", "type")
EDGE_FIELDS = ("source", "target", "relation")
NESTED = "properties"
FlatValue = PropertyValue | dict[str, PropertyValue]


def written_id(graph: Graph, node_id: str) -> str | int:
    """A node id as the flat records write it: its source's whole number when it had one."""
    node = graph.node_by_id.get(node_id)
    return node.id_value if node is not None and node.id_value is not None else node_id


def node_record(graph: Graph, node: Node) -> dict[str, FlatValue]:
    record: dict[str, FlatValue] = {"id": written_id(graph, node.id), "type": node.type}
    return _with_properties(record, node.properties, NODE_FIELDS)


def edge_record(graph: Graph, edge: Edge) -> dict[str, FlatValue]:
    record: dict[str, FlatValue] = {"source": written_id(graph, edge.source),
                                    "target": written_id(graph, edge.target), "relation": edge.relation}
    return _with_properties(record, edge.properties, EDGE_FIELDS)


def _with_properties(record: dict[str, FlatValue], properties, fields: tuple[str, ...]) -> dict[str, FlatValue]:
    if any(key in fields for key, _ in properties):
        if properties:
            record[NESTED] = dict(properties)
        return record
    record.update(properties)
    return record


# A tabular header's field: a name, or a nested object's name with its fields (TOON folds `properties{a,b}`).
Field = str | tuple[str, tuple[str, ...]]


def section_fields(memo: dict[Hashable, Record], graph: Graph, section: str) -> tuple[Field, ...] | None:
    """The fields of a section's table when every record of the graph's section has the same fields, and a nested
    object (`properties`, where a property is named like a field) the same non-empty fields in every record: TOON's
    tabular arrays, as toon_format 1.2 folds them. In the order of the first record; None otherwise."""
    def shape(record: dict) -> tuple[Field, ...]:
        return tuple((key, tuple(value)) if isinstance(value, dict) else key for key, value in record.items())

    def same(one: tuple[Field, ...], other: tuple[Field, ...]) -> bool:
        def key_sets(fields: tuple[Field, ...]) -> set:
            return {(field[0], frozenset(field[1])) if isinstance(field, tuple) else field for field in fields}
        return key_sets(one) == key_sets(other)

    def build() -> tuple[Field, ...] | None:
        records = ([node_record(graph, node) for node in graph.nodes] if section == "nodes"
                   else [edge_record(graph, edge) for edge in graph.edges])
        if not records:
            return None
        first = shape(records[0])
        if any(isinstance(field, tuple) and not field[1] for field in first):
            return None  # an empty nested object is written as a list item, not folded
        return first if all(same(shape(record), first) for record in records[1:]) else None

    return memo_table(memo, f"{section} fields", build)


def _identifier(value: object, where: str) -> tuple[str, int | None]:
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value), value
    return expect_string(value, where), None


def _properties(record: dict, fields: tuple[str, ...], where: str):
    nested = record.get(NESTED)
    if isinstance(nested, dict):
        extra = sorted(set(record) - set(fields) - {NESTED})
        if extra:
            raise FormatError(f"a record has both a properties object and the fields {extra!r:.60}", where,
                              "write the properties either flat or in the properties object")
        return properties_from(nested, f"{where}.properties")
    return properties_from({key: value for key, value in record.items() if key not in fields}, where)


def _fields_present(record: dict, fields: tuple[str, ...], where: str) -> None:
    missing = [field for field in fields if field not in record]
    if missing:
        raise FormatError(f"a record has no {', '.join(missing)}", where, f"give every record {', '.join(fields)}")


def records_graph(document: object) -> Graph:
    """The graph of a {"nodes": [...], "edges": [...]} document of flat records."""
    document = expect_object(document, "document")
    if set(document) != {"nodes", "edges"}:
        raise FormatError(f"the document has the keys {sorted(document)!r:.80}", "document",
                          "write a nodes list and an edges list")
    nodes = []
    for index, record in enumerate(expect_list(document["nodes"], "nodes")):
        where = f"nodes[{index}]"
        record = expect_object(record, where)
        _fields_present(record, NODE_FIELDS, where)
        node_id, number = _identifier(record["id"], f"{where}.id")
        nodes.append(Node(node_id, expect_string(record["type"], f"{where}.type"),
                          _properties(record, NODE_FIELDS, where), number))
    edges = []
    for index, record in enumerate(expect_list(document["edges"], "edges")):
        where = f"edges[{index}]"
        record = expect_object(record, where)
        _fields_present(record, EDGE_FIELDS, where)
        edges.append(Edge(_identifier(record["source"], f"{where}.source")[0],
                          expect_string(record["relation"], f"{where}.relation"),
                          _identifier(record["target"], f"{where}.target")[0],
                          _properties(record, EDGE_FIELDS, where)))
    return decoded_graph(nodes, edges)
