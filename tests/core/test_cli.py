"""The command line: the reference benchmark report, contexts on disk, clear errors."""

from __future__ import annotations

import json

import pytest

from core.cli import main


def test_benchmark_with_defaults_reproduces_the_reference_figures(tmp_path, capsys):
    output = tmp_path / "baseline.json"
    assert main(["benchmark", "--output", str(output), "--contexts-dir", str(tmp_path / "contexts")]) == 0
    report = json.loads(output.read_text(encoding="utf-8"))
    assert report["graph"] == {"nodes": 43, "edges": 88}
    assert report["parameters"]["services"] == 40 and report["tokenizer"] == "o200k_base"
    reference = {"pretty_json": (12576, 4023), "compact_json": (5375, 1871), "jsonl": (7852, 3088),
                 "csv": (4716, 2000), "typed_edges": (4671, 1999)}
    for name, (size, tokens) in reference.items():
        figures = report["formats"][name]
        assert (figures["utf8_bytes"], figures["tokens"]) == (size, tokens)
        assert figures["round_trip_equal"] and figures["traversal_accuracy"] == 1.0
    assert len(report["graph_hash"]) == 64 and report["versions"]["tiktoken"]
    written = (tmp_path / "contexts" / "graph.typed_edges.txt").read_text(encoding="utf-8")
    assert written.startswith("#graph-v1\nN|db-identity|database")
    assert "typed_edges" in capsys.readouterr().out


def test_the_report_lists_every_registered_format(tmp_path):
    from core.formats import FORMATS
    output = tmp_path / "report.json"
    main(["benchmark", "--services", "6", "--noise-edges", "3", "--output", str(output)])
    assert list(json.loads(output.read_text())["formats"]) == FORMATS.names()


@pytest.mark.parametrize("arguments, message", [
    (["benchmark", "--services", "-3"], "negative"),
    (["benchmark", "--services", "many"], "not a whole number"),
    (["benchmark", "--encoding", "gpt-9"], "invalid choice"),
])
def test_bad_arguments_exit_non_zero_with_a_clear_message(arguments, message, capsys):
    with pytest.raises(SystemExit) as exit_:
        main(arguments)
    assert exit_.value.code != 0
    assert message in capsys.readouterr().err


def test_an_unwritable_output_is_a_clear_error(tmp_path, capsys):
    assert main(["benchmark", "--output", str(tmp_path / "missing" / "report.json")]) == 2
    assert "does not exist" in capsys.readouterr().err


def test_benchmark_of_a_sample_asks_its_own_question_and_lossy_formats_fail_it(tmp_path, capsys):
    output = tmp_path / "report.json"
    assert main(["benchmark", "--graph", "online-boutique", "--output", str(output)]) == 0
    report = json.loads(output.read_text(encoding="utf-8"))
    assert list(report["gold_queries"]) == ["impact(failed=cartservice, node_type=service, relation=calls)"]
    assert next(iter(report["gold_queries"].values())) and report["empty_gold_queries"] == []
    assert report["formats"]["untyped_pairs"]["traversal_accuracy"] == 0.0
    assert report["formats"]["jsonl"]["traversal_accuracy"] == 1.0
    assert "is empty on this graph" not in capsys.readouterr().out


def test_benchmark_says_when_a_gold_answer_is_empty(tmp_path, capsys):
    output = tmp_path / "report.json"
    assert main(["benchmark", "--graph", "adversarial", "--output", str(output)]) == 0  # no question of its own
    report = json.loads(output.read_text(encoding="utf-8"))
    assert report["empty_gold_queries"] == list(report["gold_queries"])
    assert capsys.readouterr().out.count("is empty on this graph") == len(report["gold_queries"])
