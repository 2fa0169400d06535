"""`benchmark --edits N --edit-seed S`: the prefix stability table and the JSON key `prefix_stability`."""

from __future__ import annotations

import json

import pytest

from core.analysis.prefix_stability import prefix_stability
from core.analysis.session_defaults import graph_defaults
from core.cli import main
from core.formats import FORMATS
from core.io.samples import get_sample, load_sample
from core.retrieval import ORDERINGS
from core.specs import SweepSpec


def test_edits_report_every_format_and_ordering_with_the_edit_list(tmp_path, capsys):
    output = tmp_path / "report.json"
    assert main(["benchmark", "--graph", "tinkerpop-modern", "--permutations", "0", "--edits", "3",
                 "--edit-seed", "5", "--output", str(output)]) == 0
    printed = capsys.readouterr().out
    report = json.loads(output.read_text())["prefix_stability"]
    assert [edit["seed"] for edit in report["edits"]] == [5, 6, 7]
    assert report["edits_touching_the_context"] == 3 and report["radius"] is None  # the whole graph is rendered
    assert {(row["format"], row["ordering"]) for row in report["renderings"]} == {
        (format_name, ordering_name) for format_name in FORMATS.names() for ordering_name in ORDERINGS.names()}
    graph = load_sample("tinkerpop-modern")
    defaults = graph_defaults(graph, get_sample("tinkerpop-modern"))
    expected = prefix_stability(SweepSpec.from_names(graph, [defaults.query], seeds=defaults.seeds,
                                                     layouts=["nodes_then_edges"]), 3, edit_seed=5).as_dict()
    assert report == expected
    assert "prefix stability under edits (o200k_base): 3 edits from seed 5" in printed
    for edit in report["edits"]:
        assert f"(seed {edit['seed']}, {edit['kind']}): {edit['what']}" in printed
    csv_canonical = next(row for row in report["renderings"] if (row["format"], row["ordering"]) == ("csv", "canonical"))
    line = next(line for line in printed.splitlines() if line.split()[:2] == ["csv", "canonical"])
    assert line.split()[2:] == [f"{csv_canonical['tokens']:,}", f"{round(100 * csv_canonical['mean_share'])}%",
                                f"{round(100 * csv_canonical['min_share'])}%",
                                f"{round(100 * csv_canonical['max_share'])}%",
                                str(csv_canonical["edits_changing_text"]), "of", "3"]


def test_a_radius_says_how_many_edits_fell_outside_the_context(tmp_path, capsys):
    output = tmp_path / "report.json"
    assert main(["benchmark", "--permutations", "0", "--edits", "10", "--edit-radius", "1",
                 "--output", str(output)]) == 0
    report = json.loads(output.read_text())["prefix_stability"]
    outside = [edit for edit in report["edits"] if not edit["touched"]]
    assert outside and report["edits_touching_the_context"] == 10 - len(outside)
    assert f"{10 - len(outside)} of 10 edits touched the rendered units" in capsys.readouterr().out


def test_without_edits_nothing_is_measured(tmp_path):
    output = tmp_path / "report.json"
    assert main(["benchmark", "--graph", "tinkerpop-modern", "--permutations", "0", "--output", str(output)]) == 0
    assert "prefix_stability" not in json.loads(output.read_text())


@pytest.mark.parametrize("edits", ["-1", "1001", "many"])
def test_an_edit_count_out_of_range_is_refused(edits, capsys):
    with pytest.raises(SystemExit):
        main(["benchmark", "--edits", edits])
    assert "--edits" in capsys.readouterr().err
