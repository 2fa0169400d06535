"""Read a CKG learning-graph CSV (`ConceptID,ConceptLabel,Dependencies,TaxonomyID`) into a Graph.

Each row is a concept: a node with id ConceptID, type TaxonomyID and the property `label`
(ConceptLabel); any further columns become text properties when not empty. Dependencies lists
prerequisite ConceptIDs separated by `|`; each gives an edge `concept --depends_on--> prerequisite`.
A prerequisite may be declared later in the file (forward reference); cycles, self-dependencies and
repeated prerequisites are kept as written (a repeated one gives parallel edges).
"""

from __future__ import annotations

import csv
import io
from pathlib import Path

from core.errors import GraphError, LoadError
from core.graph import Edge, Graph, Node
from core.io.text import decode_utf8

COLUMNS = ("ConceptID", "ConceptLabel", "Dependencies", "TaxonomyID")
RELATION = "depends_on"
DEPENDENCY_SEPARATOR = "|"
_FIX_ROW = "give every row the four columns ConceptID,ConceptLabel,Dependencies,TaxonomyID (quote a value holding a comma)"


def parse_learning_graph(data: bytes, *, source: str = "learning-graph.csv") -> Graph:
    """The learning graph in `data` (UTF-8 CSV, csv.DictReader rules); LoadError names file, line and fix."""
    reader = csv.DictReader(io.StringIO(decode_utf8(data, source), newline=""))
    try:
        header = reader.fieldnames
        _check_header(header, source)
        concepts, dependencies = _read_rows(reader, source)
    except csv.Error as error:
        raise LoadError(f"the CSV cannot be read: {error}", f"{source}, line {reader.line_num}",
                        "quote fields that hold commas, quotes or line breaks; keep each field under "
                        "131,072 characters") from None
    edges = _dependency_edges(concepts, dependencies, source)
    try:
        return Graph.build(concepts.values(), edges)
    except GraphError as error:  # validated above; kept so no other error type can escape
        raise LoadError(error.what, f"{source}: {error.where}", error.fix) from None


def read_learning_graph(path: str | Path) -> Graph:
    """Thin file wrapper around `parse_learning_graph`."""
    path = Path(path)
    return parse_learning_graph(path.read_bytes(), source=path.name)


def _check_header(header: list[str] | None, source: str) -> None:
    if header is None:
        raise LoadError("the file is empty", source, f"start with the header line {','.join(COLUMNS)}")
    missing = [column for column in COLUMNS if column not in header]
    if missing:
        raise LoadError(f"the header lacks the column(s) {', '.join(missing)}; it reads {','.join(header)!r:.200}",
                        f"{source}, line 1", f"start with the header line {','.join(COLUMNS)}")
    repeated = sorted({name for name in header if header.count(name) > 1})
    if repeated:
        raise LoadError(f"the header names the column(s) {', '.join(repeated)} more than once",
                        f"{source}, line 1", "name each column once")


def _read_rows(reader: csv.DictReader, source: str) -> tuple[dict[str, Node], list[tuple[int, str, list[str]]]]:
    concepts: dict[str, Node] = {}
    declared_at: dict[str, int] = {}
    dependencies: list[tuple[int, str, list[str]]] = []
    for row in reader:
        line = reader.line_num
        where = f"{source}, line {line}"
        _check_row_length(row, where)
        concept_id = row["ConceptID"].strip()
        if not concept_id:
            raise LoadError("the row has an empty ConceptID", where, "give every concept an id")
        if concept_id in declared_at:
            raise LoadError(f"ConceptID {concept_id!r} is declared twice (first on line {declared_at[concept_id]})",
                            where, "give each concept its own id")
        taxonomy = row["TaxonomyID"].strip()
        if not taxonomy:
            raise LoadError(f"concept {concept_id!r} has an empty TaxonomyID", where,
                            "give every concept a taxonomy code (it becomes the node type)")
        declared_at[concept_id] = line
        properties = {"label": row["ConceptLabel"]}
        properties.update({name: value for name, value in row.items() if name not in COLUMNS and value})
        concepts[concept_id] = Node(concept_id, taxonomy, tuple(properties.items()))
        prerequisites = [part.strip() for part in row["Dependencies"].split(DEPENDENCY_SEPARATOR)]
        dependencies.append((line, concept_id, [part for part in prerequisites if part]))
    return concepts, dependencies


def _check_row_length(row: dict, where: str) -> None:
    """csv.DictReader files extra fields under the key None and fills missing ones with None."""
    if None in row:
        raise LoadError(f"the row has {len(row[None])} field(s) more than the header", where, _FIX_ROW)
    missing = [name for name, value in row.items() if value is None]
    if missing:
        raise LoadError(f"the row has no field for the column(s) {', '.join(missing)}", where, _FIX_ROW)


def _dependency_edges(concepts: dict[str, Node], dependencies: list[tuple[int, str, list[str]]],
                      source: str) -> list[Edge]:
    edges = []
    for line, concept_id, prerequisites in dependencies:
        for prerequisite in prerequisites:
            if prerequisite not in concepts:
                raise LoadError(f"concept {concept_id!r} depends on {prerequisite!r}, which is not a ConceptID "
                                "in this file", f"{source}, line {line}",
                                "add a row for the prerequisite or remove it from Dependencies "
                                f"(ids are separated by {DEPENDENCY_SEPARATOR!r})")
            edges.append(Edge(concept_id, RELATION, prerequisite))
    return edges
