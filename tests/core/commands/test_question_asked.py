"""Every command answers the question asked: read by the one reader, printed, and refused when it has no answer."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from core.cli import build_parser, main
from core.commands.graph_source import graph_from_arguments
from core.commands.sweep import seeds_and_queries
from core.questions.ckg import ckg_query

SAMPLE = Path(__file__).parents[3] / "sample_graphs" / "nvidia-jetson"
EMPTY = ["--graph", "nvidia-jetson", "--query", "t2_prerequisites:concept=1"]  # Jetson Orin needs nothing


@pytest.fixture(scope="module")
def uploaded(tmp_path_factory) -> Path:
    """The sample's learning graph under another name: a user's own file, with no catalogue entry."""
    copy = tmp_path_factory.mktemp("upload") / "copy.csv"
    shutil.copy(SAMPLE / "learning-graph.csv", copy)
    return copy


def test_every_bundled_question_asked_of_an_uploaded_copy_is_read_as_its_record_means(uploaded, capsys):
    records = [json.loads(line) for line in (SAMPLE / "queries_nvidia-jetson.jsonl").read_text().splitlines()]
    graph = None
    for record in records:
        arguments = build_parser().parse_args(["sweep", "--graph", str(uploaded), "--question", record["query"]])
        graph = graph or graph_from_arguments(arguments)
        _, queries = seeds_and_queries(graph, arguments)
        assert queries == [ckg_query(record)], record["query"]
    assert capsys.readouterr().out.count("question read as ") == len(records)


def test_sweep_on_an_uploaded_file_answers_the_question_it_was_asked(uploaded, capsys):
    code = main(["sweep", "--graph", str(uploaded), "--question", "What are the prerequisites for Tensorrt?",
                 "--formats", "csv,compact_json", "--orderings", "canonical", "--budgets", "1024", "--no-progress"])
    printed = capsys.readouterr().out
    assert code == 0
    assert 'question read as t2_prerequisites(concept=12 "Tensorrt"), by its wording' in printed
    assert "query t2_prerequisites(concept=12): What are the prerequisites for Tensorrt?" in printed


def test_a_question_naming_only_a_type_runs_anchored_at_its_members(uploaded, capsys):
    code = main(["sweep", "--graph", str(uploaded), "--question", "List all SDK concepts in this knowledge graph",
                 "--formats", "csv", "--orderings", "hop_tiers", "--budgets", "2048", "--no-progress"])
    assert code == 0
    assert "seeds: the 9 nodes of the type it names" in capsys.readouterr().out


@pytest.mark.parametrize("command", [
    ["sweep", *EMPTY, "--formats", "csv,compact_json", "--orderings", "canonical", "--budgets", "32,64,128",
     "--no-progress"],
    ["advise", *EMPTY, "--budget", "64", "--no-progress"],
    ["benchmark", *EMPTY, "--permutations", "0"],
    ["evaluate", *EMPTY, "--formats", "csv", "--budgets", "64"],
    ["sweep", "--graph", "nvidia-jetson", "--question", "What are the prerequisites for Jetson Orin?",
     "--no-progress"],
])
def test_a_query_with_no_answer_is_refused_by_every_command(command, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)  # evaluate's run store would land here
    assert main(command) == 2
    error = capsys.readouterr().err
    assert "has no answer on this graph" in error and "Fix: ask about a node" in error


def test_a_question_it_cannot_read_exits_2_naming_how_to_ask(capsys):
    assert main(["sweep", "--graph", "nvidia-jetson", "--question", "Is Tensorrt good?", "--no-progress"]) == 2
    error = capsys.readouterr().err
    assert "could not be read as a query: it names 'Tensorrt'" in error and "--query TEMPLATE:PARAMETER=ID" in error


def test_the_readme_s_advise_example_adds_its_budget(capsys):
    assert main(["advise", "--graph", "nvidia-jetson", "--seeds", "12", "--budget", "2048", "--no-progress"]) == 0
    assert "at 2,048 tokens" in capsys.readouterr().out


def test_benchmark_on_a_user_s_file_runs_a_question_the_graph_answers(uploaded, capsys):
    assert main(["benchmark", "--graph", str(uploaded), "--permutations", "0"]) == 0
    printed = capsys.readouterr().out
    assert printed.startswith("query from the graph (--question, --query or --seeds to change): ")
    assert "pick a query with an answer" not in printed


def test_seeds_alone_on_a_user_s_file_take_the_first_template_that_answers_there_and_say_so(uploaded, capsys):
    code = main(["sweep", "--graph", str(uploaded), "--seeds", "12", "--formats", "csv", "--orderings", "hop_tiers",
                 "--budgets", "1024", "--no-progress"])
    printed = capsys.readouterr().out
    assert code == 0  # impact_owners, the reference question, has no answer on a learning graph
    assert printed.startswith("query dependencies_within around the seeds (the first template with an answer there")
