"""`graph-context-lab suite`: the bundled set, a generated set, three output kinds, clear errors."""

from __future__ import annotations

import json

import pandas as pd
import pytest

from core.analysis.suite import run_suite, settings_for
from core.analysis.suite_aggregates import aggregate
from core.cli import main
from core.io.samples import get_sample
from core.questions import load_questions

SMALL = ["--formats", "csv,jsonl", "--orderings", "canonical,hop_tiers", "--budgets", "256,2048",
         "--policies", "record", "--workers", "1", "--no-progress"]


def test_the_bundled_ckg_set_prints_the_tables_and_writes_cores_aggregate(tmp_path, capsys):
    output = tmp_path / "results.json"
    assert main(["suite", "--graph", "nvidia-jetson", *SMALL, "--verbose", "--output", str(output)]) == 0
    printed = capsys.readouterr().out
    assert "questions: 164 (ckg)" in printed and "163 match, 1 tie" in printed
    assert "tie: nvidia-jetson_T3_1_20" in printed
    assert "seeds from text: 157 questions seeded, 7 name no node (nvidia-jetson_T4_" in printed
    assert "Pareto across budgets on the aggregate" in printed and "seeds from text, canonical/" in printed
    assert "by query type" in printed and "T5_cross_concept" in printed and "by hop depth" in printed
    document = json.loads(output.read_text())
    sample = get_sample("nvidia-jetson")
    expected = aggregate(run_suite(sample.load(), load_questions(sample.queries_path), settings_for(
        ["csv", "jsonl"], ["canonical", "hop_tiers"], policies=["record"], budgets=[256, 2048]), workers=1).rows)
    written = pd.DataFrame(document["aggregate"])
    assert written["traversal_accuracy"].tolist() == expected["traversal_accuracy"].tolist()
    assert written["accuracy_low"].tolist() == pytest.approx(expected["accuracy_low"].tolist())
    assert {"by_query_type", "by_hop_depth", "smallest_budgets", "pareto_across_budgets", "questions"} <= set(document)


def test_a_generated_set_to_parquet_and_csv(tmp_path, capsys):
    for name in ("rows.parquet", "rows.csv"):
        assert main(["suite", "--graph", "nvidia-jetson", "--generate", "t5_relation:count=4,seed=3", *SMALL,
                     "--output", str(tmp_path / name)]) == 0
    rows = pd.read_parquet(tmp_path / "rows.parquet")
    assert rows["question_id"].nunique() == 4 and set(rows["seeding"]) == {"text", "annotations"}
    assert (tmp_path / "rows.csv").read_text().startswith("question_id,seeding,tokenizer,template")


@pytest.mark.parametrize("arguments, message", [
    (["--graph", "online-boutique"], "no questions: give a question file or a template spec"),
    (["--graph", "nvidia-jetson", "--generate", "teleport"], "unknown query template 'teleport'"),
    (["--graph", "nvidia-jetson", "--output", "x.xlsx"], "cannot write 'x.xlsx'"),
    (["--graph", "nvidia-jetson", "--ray-address", "10.1.2.3:6379"], "--ray-address needs --engine ray"),
])
def test_bad_requests_are_refused_with_a_fix(arguments, message, capsys):
    assert main(["suite", *arguments, "--no-progress"]) == 2
    assert message in capsys.readouterr().err


def test_a_bad_question_file_names_its_line(tmp_path, capsys):
    path = tmp_path / "mine.jsonl"
    path.write_text('{"question": "What is Sbsa?", "query": "t1_entity", "parameters": {"concept": "9"}}\n'
                    '{"question": "What is it?", "query": "t1_entity", "parameters": {"concept": "999"}}\n')
    assert main(["suite", "--graph", "nvidia-jetson", "--questions", str(path), "--no-progress"]) == 2
    assert "line 2: node(s) '999' are not in the graph" in capsys.readouterr().err


def test_several_tokenizers_give_one_table_with_a_tokenizer_column(tmp_path, capsys):
    output = tmp_path / "rows.csv"
    assert main(["suite", "--graph", "nvidia-jetson", "--generate", "t5_relation:count=4,seed=3", *SMALL,
                 "--encodings", "o200k_base,tekken", "--verbose", "--output", str(output)]) == 0
    rows = pd.read_csv(output)
    assert set(rows["tokenizer"]) == {"o200k_base", "tekken"}
    per_tokenizer = rows.groupby("tokenizer").size()
    assert per_tokenizer["o200k_base"] == per_tokenizer["tekken"]  # the same cuts, counted twice
    printed = capsys.readouterr().out
    assert "== tokenizer o200k_base ==" in printed and "== tokenizer tekken ==" in printed
    table = aggregate(rows)
    assert set(table["tokenizer"]) == {"o200k_base", "tekken"}  # aggregates never mix tokenizers


def test_the_headline_comes_first_with_intervals_and_nothing_is_written_unasked(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    arguments = [argument for argument in SMALL if argument != "--no-progress"]
    assert main(["suite", "--graph", "nvidia-jetson", *arguments, "--seedings", "text"]) == 0
    captured = capsys.readouterr()
    lines = captured.out.splitlines()
    assert lines[0].startswith("headline: the best lossless choice at each budget over the question set (164 ")
    assert lines[1] == "o200k_base, seeds from text:" and "95% interval" in lines[2]
    assert lines[4].split()[:2] == ["256", "jsonl"] and any(cell.endswith("]") for cell in lines[4].split())  # the advisor's pick
    assert "by query type (" not in captured.out and "Pareto across budgets, over" in captured.out
    assert len(lines) < 20, "without --verbose the suite prints its headline and a few lines"
    assert "rows measured; --output results.csv" in captured.out
    assert list(tmp_path.iterdir()) == [], "suite wrote a file without --output"
    assert "aggregating" in captured.err, "the step after the bar is named on stderr"
