"""yaml: KG-LLM-Bench's structured YAML through PyYAML's safe_dump and safe_load."""

from __future__ import annotations

import pytest
import yaml
from hypothesis import given

from core.errors import FormatError
from core.formats import yaml_format
from core.graph.model import Edge, Graph, Node
from core.graph.units import graph_units
from core.io.generate import service_graph
from tests.core.formats.test_structured_json import document
from tests.strategies import graphs


def render(graph):
    return yaml_format.render(graph, graph_units(graph))


def test_each_node_lists_its_targets_per_relation_in_block_style():
    text = render(service_graph()).text
    assert text.startswith("db-identity:\n  type: database\nsvc-api:\n  type: service\n  depends_on:\n"
                           "  - svc-auth\n  owned_by:\n  - team-core\n")


@given(graph=graphs())
def test_a_full_rendering_is_the_safe_dump_of_the_document(graph):
    # libyaml's CSafeDumper when PyYAML has it (it writes an empty key as '' where the pure-Python
    # dumper writes a complex key ? ''); both are safe YAML that loads back to the same document.
    options = dict(allow_unicode="\x85" not in graph.canonical_text, sort_keys=False, default_flow_style=False)
    expected = yaml.dump(document(graph), Dumper=yaml_format._DUMPER, width=2**31 - 1, **options)
    assert render(graph).text == expected
    assert yaml.safe_load(expected) == yaml.safe_load(yaml.safe_dump(document(graph), width=float("inf"), **options))


def test_a_record_is_what_its_node_or_edge_adds_to_the_dump():
    records = render(service_graph()).records
    assert [record.text for record in records[1:4]] == [
        "svc-api:\n  type: service\n", "  depends_on:\n  - svc-auth\n", "  owned_by:\n  - team-core\n"]
    assert records[6].text == "  - svc-noise-0000\n"  # a second target of svc-auth's depends_on


def test_atoms_are_the_scalars_as_written():
    graph = Graph.build([Node("yes", "1", (("k", True),)), Node("a: b", "é")], [Edge("yes", "r", "a: b")])
    for record in render(graph).records:
        shown = [(record.text[atom.start:atom.end], atom.kind) for atom in record.atoms]
        assert [(yaml.safe_load(text), kind) for text, kind in shown] in (
            [("yes", "node_id"), ("1", "node_type"), ("k", "property_key"), (True, "property_value")],
            [("r", "relation"), ("a: b", "node_id")],
            [("a: b", "node_id"), ("é", "node_type")])


@given(graph=graphs())
def test_libyaml_finds_the_same_atoms_as_pyyaml(graph):
    fast = render(graph).records
    original = yaml_format._COMPOSER
    yaml_format._COMPOSER = yaml.SafeLoader
    try:
        assert render(graph).records == fast
    finally:
        yaml_format._COMPOSER = original


def test_a_next_line_character_switches_the_whole_dump_to_escapes():
    # PyYAML writes U+0085 raw inside single quotes and its loader folds it into a space.
    assert yaml.safe_load(yaml.safe_dump({"k": "\x85"}, allow_unicode=True)) == {"k": " "}
    plain = Graph.build([Node("é", "t")], [])
    with_nel = Graph.build([Node("é", "a\x85b")], [])
    assert render(plain).text == "é:\n  type: t\n"
    assert render(with_nel).text == '"\\xE9":\n  type: "a\\Nb"\n'
    assert yaml_format.decode(render(with_nel).text) == with_nel


@pytest.mark.parametrize("text, problem", [
    ("a:\n  type: t\n b: x\n", "invalid YAML"),
    ("a:\n\ttype: t\n", "invalid YAML"),
    ("- a\n- b\n", "expected an object"),
    ("a:\n  type: t\n  r: b\n", "expected a list"),
    ("1:\n  type: t\n", "expected text"),
    ("a:\n  type: 2001-01-01\n", "expected text"),
    ("a:\n  type: t\n  properties:\n    k: .inf\n", "'k' is inf"),
])
def test_malformed_documents_are_format_errors(text, problem):
    with pytest.raises(FormatError, match=problem) as error:
        yaml_format.decode(text)
    assert error.value.where
