"""Prefix stability: the tokens a prompt cache keeps after an edit equal those of a direct tiktoken encode."""

from __future__ import annotations

from dataclasses import replace

import pytest

from core.analysis.prefix_stability import cached_tokens, prefix_stability, rendering_specs, stability_under
from core.formats import FORMATS
from core.graph.edits import GraphEdit
from core.graph.model import Edge, Graph, Node
from core.graph.units import graph_units
from core.queries import QUERIES
from core.queries.model import query_from_seeds
from core.specs import SweepSpec
from core.tokens import TOKENIZERS

ENCODING = TOKENIZERS.get("o200k_base").encoding  # tiktoken itself, as the test's second opinion

FOUR = Graph.build([Node(name, "service", (("owner", f"team-{name}"), ("port", 8000 + index)))
                    for index, name in enumerate(("api", "auth", "cart", "db"))],
                   [Edge("api", "calls", "auth"), Edge("api", "calls", "cart"), Edge("cart", "reads", "db")])


def neighbours_of(graph: Graph, seed: str):
    """A query around the seed: the orderings read its evidence and its question."""
    return query_from_seeds(QUERIES.get("typed_neighbours"), [seed], relation=graph.edges[0].relation,
                            direction="both", node_type="s")


def spec_of(graph: Graph, format_names, ordering_names=("canonical",), seed: str = "api", **options) -> SweepSpec:
    return SweepSpec.from_names(graph, [neighbours_of(graph, seed)], seeds=[seed], format_names=list(format_names),
                                ordering_names=list(ordering_names), layouts=["nodes_then_edges"], **options)


def changed_property(graph: Graph, node_id: str, key: str, value) -> GraphEdit:
    """A hand-made edit: one property of one node set to `value`."""
    nodes = [replace(node, properties=tuple((name, value if name == key else old) for name, old in node.properties))
             if node.id == node_id else node for node in graph.nodes]
    return GraphEdit("change_property", f"{key} of {node_id}", 0, frozenset({f"n:{node_id}"}),
                     Graph.build(nodes, graph.edges, graph.schema))


def kept_by_tiktoken(original: str, edited: str) -> tuple[int, int]:
    """(tokens of the original whose bytes stay a prefix of the edited text, tokens of the original), by tiktoken."""
    tokens = ENCODING.encode_ordinary(original)
    target, prefix, kept = edited.encode("utf-8"), b"", 0
    for token in tokens:
        prefix += ENCODING.decode_single_token_bytes(token)
        if not target.startswith(prefix):
            break
        kept += 1
    return kept, len(tokens)


@pytest.mark.parametrize("format_name", ["jsonl", "pretty_json", "csv", "semantic_text"])
def test_changing_the_last_nodes_property_keeps_the_tokens_before_it(format_name):
    edit = changed_property(FOUR, "db", "owner", "team-data")  # db is the last node in canonical order
    result = stability_under(spec_of(FOUR, [format_name]), [edit])
    (rendering,) = result.renderings
    format_ = FORMATS.get(format_name)
    original = format_.render(FOUR, graph_units(FOUR)).text
    edited = format_.render(edit.graph, graph_units(edit.graph)).text
    kept, total = kept_by_tiktoken(original, edited)
    assert 0 < kept < total
    assert rendering.tokens == total and rendering.kept == (kept,)
    assert rendering.shares == (kept / total,) == (rendering.mean_share,)
    assert result.touched == (True,) and rendering.changed == (True,)


def test_an_unchanged_text_keeps_every_token_and_an_empty_prefix_none():
    text = "alpha beta gamma"
    tokens = TOKENIZERS.get("o200k_base").encode_array(text)
    tokenizer = TOKENIZERS.get("o200k_base")
    assert cached_tokens(tokenizer, tokens, text, text) == len(tokens)
    assert cached_tokens(tokenizer, tokens, text, "Alpha beta gamma") == 0
    assert cached_tokens(tokenizer, tokens, text, text + " delta") == len(tokens)
    assert cached_tokens(tokenizer, tokens, text, "alpha beta gam") == kept_by_tiktoken(text, "alpha beta gam")[0]


CHAIN = Graph.build([Node("a", "s", (("note", "seed"),)), Node("b", "s", (("note", "one hop"),)),
                     Node("c", "s", (("note", "two hops"),)), Node("d", "s", (("note", "three hops"),))],
                    [Edge("a", "to", "b"), Edge("b", "to", "c"), Edge("c", "to", "d")])


def test_an_edit_outside_the_rendered_units_keeps_every_format_whole():
    edit = changed_property(CHAIN, "d", "note", "far away")  # d is three hops from a; the radius is one
    spec = spec_of(CHAIN, FORMATS.names(), ["canonical", "hop_tiers"], seed="a", radius=1)
    result = stability_under(spec, [edit])
    assert result.touched == (False,) and result.touching == 0
    assert len(result.renderings) == 2 * len(FORMATS)
    assert {(item.format_name, item.mean_share, item.changed) for item in result.renderings} == {
        (name, 1.0, (False,)) for name in FORMATS.names()}


def test_a_graph_wide_ordering_can_move_the_context_for_an_edit_outside_it():
    # b and c are one hop from a; c's extra edges (to x and y, two hops) rank it before b by degree. Removing c -> x
    # touches no rendered unit (its hop is 2) but ties c with b, and the tie goes by key: b first.
    graph = Graph.build([Node(name, "s") for name in "abcxyz"],
                        [Edge("a", "to", "b"), Edge("a", "to", "c"), Edge("b", "to", "z"), Edge("c", "to", "x"),
                         Edge("c", "to", "y")])
    edit = GraphEdit("remove_edge", "c -> x", 0, frozenset({"e:c|to|x"}),
                     Graph.build(graph.nodes, [edge for edge in graph.edges if edge.target != "x"]))
    spec = spec_of(graph, ["jsonl"], ["canonical", "centrality"], seed="a", radius=1)
    result = stability_under(spec, [edit])
    shares = {item.ordering_name: item.mean_share for item in result.renderings}
    assert result.touched == (False,)
    assert shares["canonical"] == 1.0 and shares["centrality"] < 1.0


def test_the_recorded_seed_gives_the_same_edits_and_shares():
    spec = spec_of(FOUR, ["csv", "toon"], ["canonical", "shuffled", "hop_tiers"])
    first, again = prefix_stability(spec, 6, edit_seed=4), prefix_stability(spec, 6, edit_seed=4)
    assert first.as_dict() == again.as_dict()
    assert [edit["seed"] for edit in first.as_dict()["edits"]] == [4, 5, 6, 7, 8, 9]
    assert prefix_stability(spec, 6, edit_seed=5).as_dict()["edits"] != first.as_dict()["edits"]


def test_the_summary_gives_mean_min_and_max_per_rendering():
    spec = spec_of(FOUR, ["csv", "jsonl"], ["canonical", "bfs_from_seeds"])
    result = prefix_stability(spec, 5, edit_seed=1)
    summary = result.summary()
    assert list(zip(summary["format"], summary["ordering"])) == [
        ("csv", "canonical"), ("csv", "bfs_from_seeds"), ("jsonl", "canonical"), ("jsonl", "bfs_from_seeds")]
    for (_, row), item in zip(summary.iterrows(), result.renderings):
        assert row["min cached share"] == min(item.shares) <= row["mean cached share"] <= max(item.shares)
        assert row["max cached share"] == max(item.shares)
    assert len(result.samples()) == 4 * 5
    report = result.as_dict()
    assert report["edits_touching_the_context"] == 5 and len(report["renderings"]) == 4


def test_the_workbench_measures_the_same_and_keeps_the_original_renderings():
    from core.workbench import Workbench
    bench, spec = Workbench(), spec_of(FOUR, ["csv", "jsonl"], ["canonical", "hop_tiers"])
    result = bench.prefix_stability(spec, 3, edit_seed=2)
    assert result.as_dict() == prefix_stability(spec, 3, edit_seed=2).as_dict()
    assert all(each.key in bench.renderings for each in rendering_specs(spec))
