"""The JSON formats' atoms: read back as JSON values, a record's atoms are its unit's values, in the order written."""

from __future__ import annotations

import json

import pytest
from hypothesis import given

from core.formats import FORMATS
from core.graph.units import graph_units
from tests.strategies import graphs


def written_values(unit) -> list[tuple[object, str]]:
    """What a node or edge record writes, with each value's atom kind."""
    item = unit.node if unit.is_node else unit.edge
    head = ([(item.id, "node_id"), (item.type, "node_type")] if unit.is_node else
            [(item.source, "node_id"), (item.relation, "relation"), (item.target, "node_id")])
    return head + [pair for key, value in item.properties for pair in ((key, "property_key"), (value, "property_value"))]


def read_atom(text: str, start: int, end: int) -> object:
    """An atom's value: a string's content sits between quotes, any other scalar is the whole JSON value."""
    quoted = start > 0 and text[start - 1] == '"' and text[end:end + 1] == '"'
    return json.loads(f'"{text[start:end]}"' if quoted else text[start:end])


@pytest.mark.parametrize("name", ["pretty_json", "compact_json"])
@given(graph=graphs())
def test_each_atom_reads_back_as_the_value_its_kind_names(name, graph):
    units = {unit.key: unit for unit in graph_units(graph)}
    for record in FORMATS.get(name).render(graph, list(units.values())).records:
        expected = [(value, kind) for value, kind in written_values(units[record.unit_keys[0]])
                    if not (isinstance(value, str) and value == "")]  # an empty string has no atom
        assert [(read_atom(record.text, *span[:2]), span[2]) for span in record.spans] == expected
