"""kgllm_structured_yaml: KG-LLM-Bench's structured YAML, as its generator writes it. LOSSY.

`KnowledgeGraphTextPresenter.to_structured_yaml`: `yaml.dump(structured_data, default_flow_style=False)`
of head label -> relation -> [tail labels] over the DiGraph's edges (`core.formats.kgllm_presenter`):
PyYAML's defaults, so heads and relations sorted by name, non-ASCII text escaped in double quotes
(`"C\\xF4te d'Ivoire"`), long scalars folded at 80 columns. On the shared countries graph the text is the
generator's byte for byte. One record per pair: the text it adds to the dump (PyYAML's block style only
appends), found as the dump of the pair in its context minus the dump of that context, as `yaml` does. A
node unit writes nothing (its record is empty). The lab's own variant, with ids, types and properties,
is `yaml`.
"""

from __future__ import annotations

from collections.abc import Sequence

import yaml

from core.formats.base import Format, Record, Rendering
from core.formats.kgllm_presenter import LOST_BY_LABEL, Pair, structured_records
from core.formats.kgllm_structured_json import graph_from_document
from core.formats.yaml_format import YAML_LINE_BREAKS, read_document
from core.graph.model import Graph
from core.graph.units import Unit

NAME = "kgllm_structured_yaml"
EMPTY = "{}\n"
_X = 0  # stands for the context a record follows (no label: labels are text); it never reaches the output

# The generator's own description of the format (FORMAT_DESCRIPTION["structured_yaml"]).
GRAMMAR = ("The knowledge graph is presented as a structured YAML format. Each entity is a key, and the value is a "
           "dictionary of relations and objects.")


def dump(value: object) -> str:
    """yaml.dump(..., default_flow_style=False) in the order given (the records come sorted already)."""
    return yaml.dump(value, Dumper=yaml.Dumper, default_flow_style=False, sort_keys=False)


def _pair_record(head: str, relation: str, pair: Pair, tail: str, place: int) -> Record:
    """place: 0 a later tail of its list, 1 the first tail of a later relation, 2 of a later head, 3 of the first."""
    if place == 3:
        return Record(dump({head: {relation: [tail]}}), pair.keys)
    context = {_X: {_X: [_X]}}
    document = ({_X: {_X: [_X, tail]}} if place == 0 else {_X: {_X: [_X], relation: [tail]}} if place == 1
                else {_X: {_X: [_X]}, head: {relation: [tail]}})
    full, base = dump(document), dump(context)
    assert full.startswith(base), "PyYAML's block style appends"
    return Record(full[len(base):], pair.keys)


def render(graph: Graph, units: Sequence[Unit]) -> Rendering:
    records = structured_records(graph, units, NAME, True, _pair_record)
    closings = [EMPTY]
    for record in records:
        closings.append("" if record.text or not closings[-1] else EMPTY)
    return Rendering(NAME, "", tuple(records), tuple(closings))


def decode(text: str) -> Graph:
    return graph_from_document(read_document(text))  # read as the yaml format reads (no aliases)


FORMAT = Format(
    name=NAME,
    title="KG-LLM-Bench structured YAML (lossy)",
    lossless=False,
    lost=LOST_BY_LABEL,
    grammar=GRAMMAR,
    render=render,
    decode=decode,
    line_breaks=YAML_LINE_BREAKS,
    example="Canada: / capital: / - Ottawa (block style, keys sorted)",
)
