"""kgllm_list_of_edges: KG-LLM-Bench's list of edges, as its generator writes it. LOSSY.

    Edges: [
    (United States of America, shares border with, Canada),
    (Canada, capital, Ottawa)
    ]

`KnowledgeGraphTextPresenter.to_list_of_edges`: one `(head, relation, tail)` per DiGraph edge, heads and
tails by label, nothing quoted (`core.formats.kgllm_presenter` says which edges, in which order). On
the shared countries graph the text is the generator's byte for byte. A node unit writes nothing: its
record is empty. The lab's own variant with ids, types and properties is `edge_tuples`.

Decoding reads each tuple's first part as the source and its last as the target, split at `, `; a label
or relation holding `, ` makes a tuple ambiguous, and the relation then takes the extra parts.
"""

from __future__ import annotations

from collections.abc import Sequence

from core.errors import FormatError
from core.formats.base import Format, Record, RecordText, Rendering, record_memo
from core.formats.decoding import decoded_graph
from core.formats.kgllm_presenter import LOST_BY_LABEL, Pair, digraph_order, empty_record, labels, place_lone_nodes
from core.graph.model import Edge, Graph
from core.graph.units import Unit

NAME = "kgllm_list_of_edges"
PREAMBLE = "Edges: [\n"
CLOSING = "\n]\n"
LOST = LOST_BY_LABEL + "; a label or relation holding \", \" makes its tuple ambiguous"

# The generator's own description of the format (FORMAT_DESCRIPTION["list_of_edges"]).
GRAMMAR = "The knowledge graph is presented as a list of directed edges of the form (subject, relation, object)."

_FIX = "write Edges: [ then one (subject, relation, object) per line, separated by commas, then ]"


def _pair_record(pair: Pair, names: dict[str, str], lead: str) -> Record:
    record = RecordText().add(lead + "(").add(names[pair.source], "node_id").add(", ")
    record.add(pair.relation, "relation").add(", ").add(names[pair.target], "node_id")
    return record.add(")").build(*pair.keys)


def render(graph: Graph, units: Sequence[Unit]) -> Rendering:
    names = labels(graph)
    memo = record_memo(graph, NAME)  # a record depends on its pair and on being the first line or not
    subjects, lone = digraph_order(units)
    records: list[Record] = []
    targets: list[str | None] = []
    written = False  # has an edge line been written: the next one follows ",\n"
    for subject in subjects:
        if subject.node is not None:
            records.append(empty_record(subject.node))
            targets.append(None)
        for pair in subject.pairs:
            lead = ",\n" if written else ""
            written = True
            variant = (pair, lead)
            record = memo.get(variant)
            if record is None:
                record = memo[variant] = _pair_record(pair, names, lead)
            records.append(record)
            targets.append(pair.target)
    records = place_lone_nodes(records, lone, targets, empty_record)
    return Rendering(NAME, PREAMBLE, tuple(records), tuple(CLOSING for _ in range(len(records) + 1)))


def decode(text: str) -> Graph:
    if not text.startswith(PREAMBLE):
        raise FormatError("the text does not open with `Edges: [` on a line of its own", "line 1", _FIX, line=1)
    body = text[len(PREAMBLE):]
    if not body.endswith(CLOSING):
        line = text.count("\n") + 1
        raise FormatError("the list does not end with `]` on a line of its own", f"line {line}", _FIX, line=line)
    body = body[:-len(CLOSING)]
    edges = []
    if body:
        if not (body.startswith("(") and body.endswith(")")):
            raise FormatError("an edge is not written as (subject, relation, object)", "line 2", _FIX, line=2)
        line = 2
        for tuple_text in body[1:-1].split("),\n("):
            parts = tuple_text.split(", ")
            if len(parts) < 3:
                raise FormatError(f"the edge ({tuple_text[:60]}) has fewer than three parts", f"line {line}", _FIX,
                                  line=line)
            edges.append(Edge(parts[0], ", ".join(parts[1:-1]), parts[-1]))
            line += tuple_text.count("\n") + 1
    return decoded_graph([], edges)


FORMAT = Format(
    name=NAME,
    title="KG-LLM-Bench list of edges (lossy)",
    lossless=False,
    lost=LOST,
    grammar=GRAMMAR,
    render=render,
    decode=decode,
    example="Edges: [ (Canada, capital, Ottawa) ] with one edge per line",
)
