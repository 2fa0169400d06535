"""`benchmark --caps` and the estimator-error table: the figures printed and written equal direct encodes."""

from __future__ import annotations

import json
import math

import pytest

from core.cli import main
from core.formats import FORMATS
from core.graph.hops import hop_units
from core.graph.units import graph_units
from core.io.samples import load_sample
from core.retrieval import ORDERINGS
from core.retrieval.ordering import OrderingInputs, order_units
from core.tokens import TOKENIZERS

GRAPH = load_sample("tinkerpop-modern")  # its sample question is seeded at node 1
ENCODING = TOKENIZERS.get("o200k_base").encoding


def benchmark(tmp_path, *options: str) -> dict:
    output = tmp_path / "report.json"
    assert main(["benchmark", "--graph", "tinkerpop-modern", "--permutations", "0", "--output", str(output),
                 *options]) == 0
    return json.loads(output.read_text(encoding="utf-8"))


def test_a_cap_of_two_edges_costs_what_the_two_edge_csv_encodes_to(tmp_path, capsys):
    report = benchmark(tmp_path, "--caps", "2,100")
    caps = report["count_caps"]
    assert (caps["kind"], caps["caps"], caps["seeds"], caps["anchor_ordering"]) == ("edges", [2, 100], ["1"],
                                                                                      "hop_tiers")
    ordered = order_units(GRAPH, hop_units(GRAPH, ["1"]), ORDERINGS.get("hop_tiers"), "nodes_then_edges",
                          OrderingInputs(("1",)))
    edges = [unit for unit in ordered if not unit.is_node]
    rows = {(row["format"], row["cap"]): row for row in caps["rows"]}
    assert len(rows) == 2 * len(FORMATS)
    assert rows["csv", 2]["tokens"] == len(ENCODING.encode_ordinary(FORMATS.get("csv").render(GRAPH, edges[:2]).text))
    assert rows["csv", 100]["held"] == 6  # the graph's every edge
    printed = capsys.readouterr().out
    assert "count caps (o200k_base)" in printed and "2 edges" in printed and "(all 6)" in printed
    csv_line = next(line for line in printed.splitlines() if line.startswith("csv ") and "prefix" in line)
    assert f"{rows['csv', 2]['tokens']:,}" in csv_line.split()


def test_nodes_caps_and_no_caps(tmp_path, capsys):
    report = benchmark(tmp_path, "--caps", "3", "--cap-kind", "nodes")
    assert report["count_caps"]["kind"] == "nodes" and "3 nodes" in capsys.readouterr().out
    assert "count_caps" not in benchmark(tmp_path)


def test_the_estimator_error_is_printed_and_written_for_every_format_and_tokenizer(tmp_path, capsys):
    report = benchmark(tmp_path, "--encodings", "o200k_base,cl100k_base")
    rows = report["estimator_error"]["rows"]
    assert [(row["tokenizer"], row["format"]) for row in rows] == [
        (tokenizer, name) for tokenizer in ("o200k_base", "cl100k_base") for name in FORMATS.names()]
    row = next(row for row in rows if row["format"] == "jsonl" and row["tokenizer"] == "o200k_base")
    text = FORMATS.get("jsonl").render(GRAPH, graph_units(GRAPH)).text
    exact = len(ENCODING.encode_ordinary(text))
    assert row["exact"] == exact == report["tokens_by_tokenizer"]["o200k_base"]["jsonl"]
    by_hand = 100 * (math.ceil(len(text) / 3) - exact) / exact
    assert row["estimators"]["chars/3"] == {"estimate": math.ceil(len(text) / 3), "error_percent": round(by_hand, 1)}
    printed = capsys.readouterr().out
    assert "estimator error: chars/4, chars/3 and words×1.3" in printed
    line = next(line for line in printed.splitlines() if line.startswith("jsonl ") and "o200k_base" in line)
    assert f"{round(by_hand):+d}%".replace("-", "−") in line.split()


@pytest.mark.parametrize("caps", ["0", "30,x", ""])
def test_bad_caps_exit_with_a_clear_message(caps, capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["benchmark", "--graph", "tinkerpop-modern", "--caps", caps])
    assert exit_.value.code == 2 and "--caps" in capsys.readouterr().err
