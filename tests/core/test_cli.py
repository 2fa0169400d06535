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
    (["benchmark", "--encoding", "gpt-9"], "unknown tokenizer 'gpt-9'"),
    (["benchmark", "--encoding", "gguf:/nowhere/model.gguf"], "cannot read GGUF file"),
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


def test_benchmark_of_a_sample_without_a_question_runs_one_the_graph_answers(tmp_path, capsys):
    output = tmp_path / "report.json"
    assert main(["benchmark", "--graph", "adversarial", "--output", str(output)]) == 0  # no question of its own
    report = json.loads(output.read_text(encoding="utf-8"))
    assert report["empty_gold_queries"] == [] and len(report["gold_queries"]) == 1  # never an empty answer
    assert capsys.readouterr().out.startswith("query from the sample (--question, --query or --seeds to change): ")


def test_a_yed_file_is_described_with_one_notice_line_naming_what_was_skipped(capsys):
    """D22: the graphics data a yEd file holds is skipped, and said so once."""
    from pathlib import Path

    path = Path(__file__).parents[1] / "data" / "yed" / "yfiles_for_html.graphml"
    assert main(["describe", "--graph", str(path)]) == 0
    captured = capsys.readouterr()
    assert captured.out.startswith("4 nodes, 4 edges")
    notices = [line for line in captured.err.splitlines() if "notice" in line]
    assert notices == [line for line in captured.err.splitlines() if line.strip()]
    assert len(notices) == 1 and notices[0].startswith("graph-context-lab: notice: yfiles_for_html.graphml: skipped")


def test_benchmark_shows_each_formats_cost_stability_from_core(tmp_path, capsys):
    from core.analysis.cost_stability import cost_stability
    from core.io.samples import load_sample
    output = tmp_path / "report.json"
    assert main(["benchmark", "--graph", "tinkerpop-modern", "--permutations", "3", "--output", str(output)]) == 0
    stability = json.loads(output.read_text(encoding="utf-8"))["cost_stability"]
    expected = {item.format_name: item for item in cost_stability(load_sample("tinkerpop-modern"), "o200k_base",
                                                                  permutations=3)}
    assert list(stability) == list(expected)
    for name, item in expected.items():
        assert stability[name]["relabeled"]["counts"] == dict(zip(item.relabeled.variants, item.relabeled.counts))
        assert stability[name]["permuted"]["max"] == item.permuted.maximum
    printed = capsys.readouterr().out
    assert "cost stability (o200k_base)" in printed and "relabeled max/min" in printed
    assert main(["benchmark", "--graph", "tinkerpop-modern", "--permutations", "0", "--output", str(output)]) == 0
    assert "cost_stability" not in json.loads(output.read_text(encoding="utf-8"))


def test_a_usage_mistake_prints_the_reason_first_and_a_short_usage(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["sweep", "--direction", "sideways"])
    assert exit_.value.code == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert lines[0].startswith("graph-context-lab sweep: error: argument --direction: invalid choice: 'sideways'")
    assert len(lines) == 2 and lines[1].startswith("usage: graph-context-lab sweep [options];")
    assert "pretty_json" not in "\n".join(lines), "the usage must not spell out every format"


def test_a_long_choice_list_is_cut_to_a_few_names_and_a_count(capsys):
    with pytest.raises(SystemExit):
        main(["sweep", "--formats", "compact_jsn"])
    reason = capsys.readouterr().err.splitlines()[0]
    assert "unknown format 'compact_jsn'" in reason and reason.count(",") < 10
    assert "compact_json" in reason.split("use one or more of:")[1].split(",")[0], "the closest name comes first"
    from core.formats import FORMATS
    assert f"({len(FORMATS)} in all; --help lists them)" in reason


def test_a_long_list_of_argparse_choices_is_named_the_same_way_closest_first(capsys, tmp_path):
    with pytest.raises(SystemExit):
        main(["convert", "transport", str(tmp_path / "out.ttl"), "--to", "nturtle"])
    reason = capsys.readouterr().err.splitlines()[0]
    assert "invalid choice: 'nturtle'; use one of: turtle," in reason, "the closest name comes first"
    assert reason.endswith("in all; --help lists them)") and reason.count(",") < 10


def test_a_missing_command_says_so_in_two_lines(capsys):
    with pytest.raises(SystemExit):
        main([])
    lines = capsys.readouterr().err.strip().splitlines()
    assert lines[0] == "graph-context-lab: error: the following arguments are required: COMMAND" and len(lines) == 2


def test_benchmark_prints_its_verdict_first_and_writes_nothing_unasked(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(["benchmark"]) == 0
    printed = capsys.readouterr().out.splitlines()
    assert printed[0] == ("verdict: local_ids is the cheapest lossless format that decodes back and answers: "
                          "1,030 tokens (o200k_base) against 5,340 for ntriples, 5.2x")
    assert list(tmp_path.iterdir()) == [], "benchmark wrote a file without --output"


def test_a_server_that_does_not_answer_is_not_reported_as_a_file_problem(monkeypatch, capsys):
    import core.commands.describe as describe

    def refuse(arguments):
        raise ConnectionRefusedError(111, "Connection refused")

    monkeypatch.setattr(describe, "run", refuse)
    assert main(["describe"]) == 2
    error = capsys.readouterr().err
    assert "Connection refused" in error and "server at that address" in error and "path" not in error


HEAVY = ("openai", "plotly", "pandas", "streamlit", "ray", "tiktoken")  # what --help has no use for


def test_help_imports_no_model_client_plotting_or_dataframe_library():
    """Issue 47: `--help` is built from core.cli's table alone; each command's module is imported when it runs."""
    import subprocess
    import sys

    shown = subprocess.run([sys.executable, "-X", "importtime", "-m", "core.cli", "--help"],
                           capture_output=True, text=True, timeout=60)
    assert shown.returncode == 0 and "serve-reader" in shown.stdout
    imported = {line.split("|")[-1].strip().split(".")[0] for line in shown.stderr.splitlines()
                if line.startswith("import time:")}
    assert "core" in imported and not imported & set(HEAVY), sorted(imported & set(HEAVY))
    probe = ("import sys; from core.cli import build_parser; build_parser([]).format_help(); "
             f"print([name for name in {HEAVY!r} if name in sys.modules])")
    assert subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          timeout=60).stdout.strip() == "[]"


def test_the_table_of_commands_says_what_each_command_module_says():
    """The one-line help --help shows is the one each command's module gives when it is loaded, in the same order."""
    import argparse

    from core.cli import COMMANDS, build_parser

    subcommands = next(action for action in build_parser()._actions if isinstance(action, argparse._SubParsersAction))
    assert [(choice.dest, choice.help) for choice in subcommands._choices_actions] == [
        (name, help_text) for name, help_text, _ in COMMANDS]


def test_a_command_named_after_an_option_is_loaded_and_runs(capsys):
    assert main(["describe", "--services", "5", "--noise-edges", "2"]) == 0
    assert "nodes" in capsys.readouterr().out
