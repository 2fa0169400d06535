"""Tokens saved per format by a property filter (exact counts), and the refusal to drop what a query needs."""

from __future__ import annotations

import pytest

from core.analysis.property_savings import check_needed_properties, needed_properties, property_savings
from core.cli import main
from core.errors import ParameterError
from core.formats import FORMATS
from core.graph.property_filter import PropertyFilter, filter_properties
from core.graph.units import graph_units
from core.io.samples import get_sample
from core.queries import PREREQUISITE_PATH, query
from core.tokens import TOKENIZERS

SAMPLE = get_sample("nvidia-jetson")
GRAPH = SAMPLE.load()
PATH = query(PREREQUISITE_PATH, start="9", concept="38")  # answered in labels


def test_the_tokens_saved_are_the_counts_of_both_renderings():
    chosen = PropertyFilter(exclude=("label",))
    filtered = filter_properties(GRAPH, chosen)
    encoder = TOKENIZERS.get("o200k_base")
    for saving in property_savings(GRAPH, filtered, ["csv", "jsonl", "yaml"]):
        format_ = FORMATS.get(saving.format)
        assert saving.tokens_before == encoder.count(format_.render(GRAPH, graph_units(GRAPH)).text)
        assert saving.tokens_after == encoder.count(format_.render(filtered, graph_units(filtered)).text)
        assert saving.saved > 0


def test_dropping_a_property_the_query_answers_in_is_refused_by_name():
    chosen = PropertyFilter(exclude=("lab*",))
    assert needed_properties(GRAPH, chosen, [PATH]) == (("node", "label", PATH.label),)
    with pytest.raises(ParameterError, match="node property 'label'"):
        check_needed_properties(GRAPH, chosen, [PATH])
    check_needed_properties(GRAPH, chosen, [SAMPLE.default_query()])  # answered in ids: nothing needed


def test_the_command_line_filters_and_refuses(tmp_path, capsys):
    arguments = ["sweep", "--graph", "nvidia-jetson", "--formats", "csv", "--orderings", "hop_tiers",
                 "--budgets", "512", "--output", str(tmp_path / "rows.csv"), "--no-progress"]
    assert main([*arguments, "--exclude-property", "node:label"]) == 0
    saving, = property_savings(GRAPH, filter_properties(GRAPH, PropertyFilter(exclude=("node:label",))), ["csv"])
    assert (f"csv: {saving.tokens_before:,} -> {saving.tokens_after:,} ({saving.saved:,} saved)"
            in capsys.readouterr().out)
    code = main([*arguments, "--query", "t3_prerequisite_path:start=9,concept=38", "--exclude-property", "label"])
    assert code != 0 and "node property 'label'" in capsys.readouterr().err
