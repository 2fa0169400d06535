"""`graph-context-lab convert`: any file or sample to any export format, with clear errors."""

from __future__ import annotations

import pytest

from core.cli import main
from core.io import load_graph_file
from core.io.samples import get_sample


def test_a_sample_converts_to_graphml_and_reads_back_the_same(tmp_path, capsys):
    output = tmp_path / "modern.graphml"
    assert main(["convert", "tinkerpop-modern", str(output), "--to", "graphml"]) == 0
    assert load_graph_file(output) == get_sample("tinkerpop-modern").load()
    assert "6 nodes, 6 edges" in capsys.readouterr().out


def test_a_file_with_loader_options_converts_to_a_registered_format(tmp_path):
    edges = tmp_path / "edges.csv"
    edges.write_text("source,target\na,b\n", encoding="utf-8")
    output = tmp_path / "graph.jsonl"
    assert main(["convert", str(edges), str(output), "--to", "jsonl", "--default-relation", "calls",
                 "--default-node-type", "service"]) == 0
    assert output.read_text(encoding="utf-8").splitlines()[-1] == '{"k":"e","s":"a","r":"calls","t":"b"}'


def test_the_edge_list_export_writes_a_nodes_table_beside_it(tmp_path):
    output = tmp_path / "adversarial.csv"
    assert main(["convert", "adversarial", str(output), "--to", "edge-list"]) == 0
    nodes = (tmp_path / "adversarial.nodes.csv").read_text(encoding="utf-8")
    assert "'=1+1" in nodes and "'@SUM(A1)" in nodes  # spreadsheet formulas neutralised
    assert output.read_text(encoding="utf-8").startswith("source,relation,target")


@pytest.mark.parametrize("arguments, message", [
    (["convert", "no-such-sample", "out.json", "--to", "node-link"], "no file or sample graph named 'no-such-sample'"),
    (["convert", "online-boutique", "out.csv", "--to", "learning-graph"], "do not fit a learning graph"),
])
def test_errors_exit_with_a_clear_message(arguments, message, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(arguments) == 2
    assert message in capsys.readouterr().err


def test_an_unknown_target_format_is_refused_by_the_parser(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # nothing may be written beside the checkout, whatever the parser does
    with pytest.raises(SystemExit):
        main(["convert", "transport", "out.x", "--to", "no-such-format"])
    assert "invalid choice: 'no-such-format'" in capsys.readouterr().err
