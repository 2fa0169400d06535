"""What a question names must exist in the graph it is asked of: nodes, relations, node types.

A question about a node, relation or type the graph does not have has an empty gold answer, and an
empty context answers it perfectly: it scored 100% at the smallest budget. Only the values a
question gives are checked (a template's default relation may legitimately be absent).
"""

from __future__ import annotations

from core.graph.model import Graph
from core.queries import Query
from core.questions.lines import LineProblem

SHOWN = 5
# Text parameters a solver compares with node types: CKG T4's taxonomy code is a learning graph's node type
# (core.io.learning_graph), though the template keeps it a free text for its question wording.
TYPE_NAMED_TEXT = ("taxonomy",)


def check_on_graph(query: Query, graph: Graph) -> None:
    """Raise the LineProblem naming the first thing `query` names that `graph` lacks."""
    template, given = query.template, dict(query.arguments)
    for name in template.node_parameters:
        if name not in given:
            continue
        value = given[name]
        values = list(value) if isinstance(value, tuple) else [value]
        if not values:
            raise LineProblem(f"parameter {name!r} names no node; give at least one node id")
        absent = [value for value in values if str(value) not in graph.node_by_id]
        if absent:
            raise LineProblem(f"node(s) {', '.join(map(repr, absent[:SHOWN]))} are not in the graph")
    _check_names(given, template.relation_parameters, {edge.relation for edge in graph.edges}, "relation")
    types = template.type_parameters + tuple(name for name in TYPE_NAMED_TEXT if name in template.parameters)
    _check_names(given, types, {node.type for node in graph.nodes}, "node type")


def _check_names(given: dict[str, object], parameters: tuple[str, ...], known: set[str], kind: str) -> None:
    for name in parameters:
        if name in given and given[name] not in known:
            shown = ", ".join(sorted(known)[:10]) + (", ..." if len(known) > 10 else "")
            raise LineProblem(f"{kind} {given[name]!r} ({name}) is not in the graph; its {kind}s: {shown or 'none'}")
