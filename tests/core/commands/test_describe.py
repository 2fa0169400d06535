"""`graph-context-lab describe`: the graph's own figures, exact and without rendering, and the large-graph verdict."""

from __future__ import annotations

from core.cli import main
from core.io.samples import load_sample
from core.reports.graph_size import graph_figures


def test_a_sample_is_described_by_its_counts(capsys):
    assert main(["describe", "--graph", "nvidia-jetson"]) == 0
    out = capsys.readouterr().out.splitlines()
    figures = graph_figures(load_sample("nvidia-jetson"))
    assert out[0].startswith(f"{figures.nodes:,} nodes, {figures.edges:,} edges ({figures.units:,} units), "
                             f"{figures.property_values:,} property values")
    assert out[1] == f"largest out-degree {figures.largest_out_degree:,}, largest in-degree {figures.largest_in_degree:,}"
    name, count = figures.node_types[0]
    assert out[2].startswith(f"{len(figures.node_types):,} node types: {name} {count:,}, ")
    assert out[3] == f"1 relation: {figures.relations[0][0]} {figures.relations[0][1]:,}"
    assert out[4].startswith("not large (at most 20,000 units)")


def test_the_threshold_can_be_set_and_says_what_changes(capsys):
    assert main(["describe", "--graph", "nvidia-jetson", "--large-graph-units", "100"]) == 0
    assert capsys.readouterr().out.splitlines()[-1].startswith("large: more than 100 units, so the dashboard's Overview "
                                                               "measures every format only when asked")


def test_a_generated_graph_lists_its_most_common_types_first(capsys):
    assert main(["describe", "--services", "30", "--noise-edges", "10"]) == 0
    out = capsys.readouterr().out
    assert "3 node types: service 30, team " in out  # most common first
