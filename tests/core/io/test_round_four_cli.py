"""Issue 48's reproductions through the command line: each gives one clear line (an error or a notice) in seconds."""

from __future__ import annotations

import json
import time

import pytest

from core.cli import main
from tests.core.io.test_gml import karate_gml


def run(capsys, *arguments: str) -> tuple[int, list[str], float]:
    started = time.perf_counter()
    code = main(list(arguments))
    seconds = time.perf_counter() - started
    return code, capsys.readouterr().err.splitlines(), seconds


@pytest.mark.timeout(60)
def test_a_pajek_label_of_ten_megabytes_is_refused_in_seconds(tmp_path, capsys):
    """N1: `describe` on this file was killed at 50 s with no output."""
    path = tmp_path / "p.net"
    path.write_text('*Vertices 2\n1 "' + "P" * 10**7 + '"\n2 "b"\n*Arcs\n1 2 1\n')
    code, lines, seconds = run(capsys, "describe", "--graph", str(path))
    assert code == 2 and seconds < 10 and len(lines) == 1
    assert "a text value is too long: 10,000,000 characters, the limit is 100,000" in lines[0]


def test_a_trimmed_csv_id_that_meets_another_is_refused(tmp_path, capsys):
    """N2: `convert e.csv o.jsonl --to jsonl` gave 1 node and a self-loop."""
    (tmp_path / "e.csv").write_text("source,target,relation\na,a ,r\n")
    code, lines, _ = run(capsys, "convert", str(tmp_path / "e.csv"), str(tmp_path / "o.jsonl"), "--to", "jsonl")
    assert code == 2 and len(lines) == 1 and not (tmp_path / "o.jsonl").exists()
    assert "two ids become the same node 'a': 'a' (line 2, column 'source') and 'a ' (line 2, column 'target')" in lines[0]


def test_a_number_and_its_text_as_node_link_ids_are_refused(tmp_path, capsys):
    """N3: one node and a self-loop, no notice."""
    path = tmp_path / "n.json"
    path.write_text(json.dumps({"nodes": [{"id": 1}, {"id": "1"}], "links": [{"source": 1, "target": "1"}]}))
    code, lines, _ = run(capsys, "describe", "--graph", str(path))
    assert code == 2 and len(lines) == 1 and "two ids become the same node '1': 1 (nodes[0]) and '1' (nodes[1])" in lines[0]


def test_a_header_of_half_a_million_columns_gives_a_short_line(tmp_path, capsys):
    """N4: the error line was 5 MB."""
    path = tmp_path / "wide.csv"
    path.write_text("source,target," + ",".join(f"c{index}" for index in range(500_000)) + "\na,b\n")
    code, lines, _ = run(capsys, "describe", "--graph", str(path), "--max-bytes", "10000000")
    assert code == 2 and len(lines) == 1 and len(lines[0]) < 1_000 and "… and 499,990 more" in lines[0]


def test_karate_gml_says_its_edges_were_read_both_ways(tmp_path, capsys):
    """N5: igraph's karate.gml read as 156 edges with no notice."""
    path = tmp_path / "karate.gml"
    path.write_bytes(karate_gml())
    code, lines, _ = run(capsys, "describe", "--graph", str(path))
    assert code == 0 and lines == [
        "graph-context-lab: notice: karate.gml: the file declares an undirected graph (it has no `directed 1`): its "
        "78 edges were read as 156 directed edges, one each way"]


def test_a_gexf_without_graph_says_so(tmp_path, capsys):
    """D21: refused with a message about its namespace."""
    path = tmp_path / "g.gexf"
    path.write_text('<gexf xmlns="http://www.gexf.net/1.2draft" version="1.2"><nodes><node id="a"/></nodes></gexf>')
    code, lines, _ = run(capsys, "describe", "--graph", str(path))
    assert code == 2 and len(lines) == 1 and "the file has no <graph> element inside <gexf>" in lines[0]
    assert "namespace" not in lines[0]
