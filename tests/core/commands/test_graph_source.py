"""`--graph FILE_OR_SAMPLE` and the loader options that every graph-reading command shares."""

from __future__ import annotations

import json

from core.cli import main
from core.io import save_graph
from core.io.generate import transport_graph


def test_benchmark_reads_a_sample_by_name(tmp_path):
    output = tmp_path / "report.json"
    assert main(["benchmark", "--graph", "online-boutique", "--output", str(output)]) == 0
    report = json.loads(output.read_text(encoding="utf-8"))
    assert report["graph"] == {"nodes": 13, "edges": 18}
    assert report["parameters"]["graph"] == "online-boutique"


def test_benchmark_reads_a_file_with_its_nodes_table(tmp_path):
    (tmp_path / "edges.csv").write_text("source,relation,target\na,calls,b\n", encoding="utf-8")
    (tmp_path / "nodes.csv").write_text("id,type\na,service\nb,service\nc,service\n", encoding="utf-8")
    output = tmp_path / "report.json"
    assert main(["benchmark", "--graph", str(tmp_path / "edges.csv"), "--nodes", str(tmp_path / "nodes.csv"),
                 "--output", str(output)]) == 0
    assert json.loads(output.read_text(encoding="utf-8"))["graph"] == {"nodes": 3, "edges": 1}


def test_limits_can_be_lowered_and_raised_from_the_command_line(tmp_path, capsys):
    path = tmp_path / "transport.json"
    path.write_text(save_graph(transport_graph(), "node-link"), encoding="utf-8")
    output = tmp_path / "report.json"
    assert main(["benchmark", "--graph", str(path), "--max-edges", "50", "--output", str(output)]) == 2
    assert "83 edges, the limit is 50" in capsys.readouterr().err
    assert main(["benchmark", "--graph", str(path), "--max-edges", "83", "--output", str(output)]) == 0


def test_a_chosen_format_is_used_and_reported(tmp_path, capsys):
    path = tmp_path / "graph.txt"
    path.write_text(save_graph(transport_graph(), "jsonl"), encoding="utf-8")
    output = tmp_path / "report.json"
    assert main(["benchmark", "--graph", str(path), "--format", "jsonl", "--output", str(output)]) == 0
    assert json.loads(output.read_text(encoding="utf-8"))["parameters"]["format"] == "jsonl"


def test_without_a_graph_the_service_graph_is_generated_as_before(tmp_path):
    output = tmp_path / "report.json"
    assert main(["benchmark", "--services", "6", "--noise-edges", "2", "--output", str(output)]) == 0
    parameters = json.loads(output.read_text(encoding="utf-8"))["parameters"]
    assert (parameters["services"], parameters["noise_edges"], parameters["seed"]) == (6, 2, 7)


def test_any_registered_generator_makes_the_graph_with_its_options(tmp_path, capsys):
    output = tmp_path / "report.json"
    assert main(["benchmark", "--generator", "transport", "--generator-option", "lines=2",
                 "--generator-option", "stations-per-line=3", "--output", str(output)]) == 0
    report = json.loads(output.read_text(encoding="utf-8"))
    expected = transport_graph(lines=2, stations_per_line=3)
    assert report["graph_hash"] == expected.sha256
    assert report["parameters"]["generator"] == "transport"
    assert report["parameters"]["generator_options"] == {"lines": 2, "stations_per_line": 3}


def test_an_unknown_or_bad_generator_option_is_refused_with_the_names_to_use(tmp_path, capsys):
    output = tmp_path / "report.json"
    assert main(["benchmark", "--generator", "transport", "--generator-option", "trains=3",
                 "--output", str(output)]) != 0
    error = capsys.readouterr().err
    assert "'trains=3' is not a parameter of the transport generator" in error and "stations_per_line" in error
    assert main(["benchmark", "--generator", "learning", "--generator-option", "concepts=many",
                 "--output", str(output)]) != 0
    assert "concepts='many' is not a whole number" in capsys.readouterr().err
