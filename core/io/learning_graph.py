"""Read a CKG learning-graph CSV (`ConceptID,ConceptLabel,Dependencies,TaxonomyID`) into a Graph, and write one.

Each row is a concept: a node with id ConceptID, type TaxonomyID and the property `label`
(ConceptLabel); any further columns become text properties when not empty. Dependencies lists
prerequisite ConceptIDs separated by `|`; each gives an edge `concept --depends_on--> prerequisite`.
A prerequisite may be declared later in the file (forward reference); cycles, self-dependencies and
repeated prerequisites are kept as written (a repeated one gives parallel edges). Ids and taxonomy
codes are stripped of surrounding spaces; labels are kept as written.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path

from core.errors import GraphError, LoadError
from core.graph.model import Edge, Graph, Node
from core.io.building import build_graph
from core.io.csv_tables import read_table
from core.io.limits import DEFAULT_LIMITS, Limits
from core.io.options import DEFAULT_OPTIONS
from core.io.reading import read_file

COLUMNS = ("ConceptID", "ConceptLabel", "Dependencies", "TaxonomyID")
RELATION = "depends_on"
LABEL = "label"
DEPENDENCY_SEPARATOR = "|"


def parse_learning_graph(data: bytes, *, source: str = "learning-graph.csv",
                         limits: Limits = DEFAULT_LIMITS) -> Graph:
    """The learning graph in `data` (UTF-8 CSV, csv.DictReader rules); LoadError names file, line and fix."""
    header, rows = read_table(data, source, COLUMNS, limits=limits)
    if LABEL in header:  # ConceptLabel becomes the property `label`: an extra column of that name would replace it
        raise LoadError(f"the header has a column named {LABEL!r}, the property that ConceptLabel becomes",
                        f"{source}, line 1", f"rename the {LABEL!r} column (or remove it)")
    concepts: dict[str, Node] = {}
    declared_at: dict[str, int] = {}
    for line, row in rows:
        node = _concept(line, row, source, declared_at)
        concepts[node.id] = node
    edges = [edge for line, row in rows for edge in _dependency_edges(line, row, concepts, source)]
    return build_graph(concepts.values(), edges, source, DEFAULT_OPTIONS, limits=limits)


def read_learning_graph(path: str | Path, *, limits: Limits = DEFAULT_LIMITS) -> Graph:
    """Thin file wrapper around `parse_learning_graph` (a regular file, read only up to the byte limit)."""
    path = Path(path)
    return parse_learning_graph(read_file(path, limits), source=path.name, limits=limits)


def _concept(line: int, row: dict[str, str], source: str, declared_at: dict[str, int]) -> Node:
    where = f"{source}, line {line}"
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
    properties = {LABEL: row["ConceptLabel"]}
    properties.update({name: value for name, value in row.items() if name not in COLUMNS and value})
    return Node(concept_id, taxonomy, tuple(properties.items()))


def _dependency_edges(line: int, row: dict[str, str], concepts: dict[str, Node], source: str) -> list[Edge]:
    concept_id = row["ConceptID"].strip()
    edges = []
    for part in row["Dependencies"].split(DEPENDENCY_SEPARATOR):
        prerequisite = part.strip()
        if not prerequisite:
            continue
        if prerequisite not in concepts:
            raise LoadError(f"concept {concept_id!r} depends on {prerequisite!r}, which is not a ConceptID "
                            "in this file", f"{source}, line {line}",
                            "add a row for the prerequisite or remove it from Dependencies "
                            f"(ids are separated by {DEPENDENCY_SEPARATOR!r})")
        edges.append(Edge(concept_id, RELATION, prerequisite))
    return edges


def write_learning_graph(graph: Graph) -> str:
    """The CKG CSV of a learning-shaped graph: `label` properties only, `depends_on` edges only.

    Concepts are written in the graph's canonical order, each with its prerequisites in edge order.
    """
    problems = [f"node {node.id!r}" for node in graph.nodes
                if set(dict(node.properties)) != {LABEL} or not isinstance(dict(node.properties)[LABEL], str)
                or DEPENDENCY_SEPARATOR in node.id or node.id != node.id.strip() or not node.id
                or not node.type.strip() or node.type != node.type.strip()]
    problems += [f"edge {edge.source!r} -[{edge.relation}]-> {edge.target!r}" for edge in graph.edges
                 if edge.relation != RELATION or edge.properties]
    if problems:
        raise GraphError(f"{len(problems)} item(s) do not fit a learning graph, first {problems[0]}",
                         "learning-graph CSV export", "give each concept one text `label` property, an id "
                         "without `|` or surrounding spaces, and use only plain `depends_on` edges")
    prerequisites: dict[str, list[str]] = {node.id: [] for node in graph.nodes}
    for edge in graph.edges:
        prerequisites[edge.source].append(edge.target)
    output = io.StringIO()
    writer = csv.writer(output, lineterminator="\n")
    writer.writerow(COLUMNS)
    for node in graph.nodes:
        writer.writerow([node.id, dict(node.properties)[LABEL], DEPENDENCY_SEPARATOR.join(prerequisites[node.id]),
                         node.type])
    return output.getvalue()
