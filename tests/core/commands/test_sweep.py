"""`graph-context-lab sweep`: seeds or a question, queries, formats, budgets, CSV or JSON, clear errors."""

from __future__ import annotations

import csv
import json

import pandas as pd
import pytest

from core.cli import main
from core.commands.sweep import budgets, write_results

SMALL = ["--services", "10", "--noise-edges", "8", "--no-progress"]


def test_a_question_seeds_the_sweep_and_the_csv_has_one_row_per_cut(tmp_path, capsys):
    output = tmp_path / "results.csv"
    code = main(["sweep", *SMALL, "--question", "If db-identity fails, who is affected?", "--formats", "jsonl,csv",
                 "--orderings", "hop_tiers,canonical", "--policies", "record", "--budgets", "256,1024",
                 "--output", str(output)])
    assert code == 0
    rows = list(csv.DictReader(output.open(encoding="utf-8", newline="")))
    assert len(rows) == 2 * 2 * 2 * 2  # formats x orderings x layouts x budgets, one query
    assert {row["format"] for row in rows} == {"jsonl", "csv"} and {row["policy"] for row in rows} == {"record"}
    assert all(row["query"] == "impact(failed=db-identity)" for row in rows)  # read from its words
    printed = capsys.readouterr().out
    assert "question read as impact(failed=db-identity), by its words: fails" in printed
    assert "'db-identity' -> node 'db-identity' (by id)" in printed and "16 cuts written" in printed
    assert "Pareto across budgets" in printed


def test_json_output_holds_parameters_summary_pareto_and_rows(tmp_path):
    output = tmp_path / "results.json"
    main(["sweep", *SMALL, "--seeds", "svc-web,db-identity", "--query", "shortest_path",
          "--query", "dependencies_within:hops=1", "--formats", "typed_edges", "--orderings", "bfs_from_seeds",
          "--budgets", "300", "--marker", "--no-grammar", "--output", str(output)])
    document = json.loads(output.read_text(encoding="utf-8"))
    assert document["parameters"]["seeds"] == ["svc-web", "db-identity"]
    assert document["parameters"]["count_grammar"] is False and document["parameters"]["marker"] is True
    assert document["parameters"]["graph_source"] == {"services": 10, "noise_edges": 8, "seed": 7}
    queries = {row["query"] for row in document["rows"]}
    assert queries == {"shortest_path(source=svc-web, target=db-identity)", "dependencies_within(hops=1, start=svc-web)"}
    assert document["summary"][0]["format"] == "typed_edges" and document["pareto_across_budgets"]
    assert all(row["shuffle_seed"] is None for row in document["rows"])


def test_csv_cells_are_neutralised_for_spreadsheets_and_missing_values_left_blank(tmp_path):
    frame = pd.DataFrame({"query": ["=HYPERLINK(1)", "plain"], "first_dropped_record": pd.array([3, None], "Int64"),
                          "parse_ok": [True, False]})
    output = tmp_path / "results.csv"
    write_results(output, frame, pd.DataFrame(), pd.DataFrame())
    assert output.read_text(encoding="utf-8").splitlines() == [
        "query,first_dropped_record,parse_ok", "'=HYPERLINK(1),3,true", "plain,,false"]


@pytest.mark.parametrize("arguments, message", [
    (["--formats", "protobuf"], "unknown format 'protobuf'"),
    (["--orderings", "random"], "unknown ordering 'random'"),
    (["--budgets", "512,lots"], "'lots' is not a whole number"),
    (["--budgets", "-4"], "negative"),
    (["--budgets", "0,512"], "budget 0 keeps nothing"),
    (["--budgets", "512;1024"], "';' does not separate budgets"),
    (["--seeds", "nope"], "not nodes of the graph"),
    (["--question", "what is love?"], "names no node"),
    (["--query", "teleport"], "unknown query 'teleport'"),
    (["--query", "dependencies_within:hops=many"], "not a whole number"),
    (["--query", "dependencies_within:depth=2"], "not PARAM=VALUE for a parameter"),
    (["--query", "shortest_path", "--seeds", "svc-web"], "seeds ran out"),
    (["--output", "results.xlsx"], "cannot write"),
    (["--seeds", "svc-web", "--question", "svc-web?"], "not allowed with"),
    (["--workers", "0"], "0 workers"),
])
def test_bad_input_exits_non_zero_with_a_clear_message(tmp_path, capsys, arguments, message):
    if "--output" not in arguments:
        arguments = [*arguments, "--output", str(tmp_path / "out.csv")]
    try:
        code = main(["sweep", *SMALL, *arguments])
    except SystemExit as exit_:
        code = exit_.code
    assert code != 0
    assert message in capsys.readouterr().err


def test_budgets_on_the_command_line_follow_the_one_grammar():
    assert budgets("1024 512,512") == [512, 1024]  # the same reading as the dashboard's budget fields


def test_query_parameters_take_numbers_and_lists_of_nodes(tmp_path):
    output = tmp_path / "results.json"
    assert main(["sweep", *SMALL, "--seeds", "svc-api", "--query", "owners_of:nodes=svc-api+svc-web",
                 "--query", "dependencies_within:hops=1", "--formats", "csv", "--orderings", "canonical",
                 "--layouts", "interleaved", "--budgets", "5000", "--output", str(output)]) == 0
    rows = json.loads(output.read_text(encoding="utf-8"))["rows"]
    assert {row["query"] for row in rows} == {"owners_of(nodes=('svc-api', 'svc-web'))",
                                              "dependencies_within(hops=1, start=svc-api)"}
    assert all(row["traversal_accuracy"] == 1.0 for row in rows)


def test_verify_decode_checks_every_cell_and_workers_reach_the_sweep(tmp_path, capsys, monkeypatch):
    from core.commands import sweep as command
    output = tmp_path / "one.csv"
    common = ["sweep", *SMALL, "--seeds", "db-identity", "--formats", "jsonl,yaml", "--orderings", "hop_tiers",
              "--budgets", "150,600", "--output", str(output)]
    assert main([*common, "--workers", "1", "--verify-decode"]) == 0
    seen = {}
    real = command.Workbench.sweep
    monkeypatch.setattr(command.Workbench, "sweep", lambda self, spec, **options: seen.update(options) or real(
        self, spec, **{**options, "workers": 1}))
    assert main([*common, "--workers", "3"]) == 0
    assert seen["workers"] == 3 and seen["verify"] is False
    assert "--workers" in main_help(capsys) and "--verify-decode" in main_help(capsys)


def main_help(capsys) -> str:
    with pytest.raises(SystemExit):
        main(["sweep", "--help"])
    return capsys.readouterr().out


@pytest.mark.parametrize("sample", ["online-boutique", "nvidia-jetson"])
def test_a_plain_sweep_of_a_sample_uses_its_catalogue_seeds_and_question(tmp_path, capsys, sample):
    from core.io.samples import get_sample

    output = tmp_path / "results.csv"
    code = main(["sweep", "--graph", sample, "--formats", "jsonl", "--orderings", "hop_tiers", "--policies",
                 "record", "--budgets", "512", "--no-progress", "--output", str(output)])
    assert code == 0
    entry = get_sample(sample)
    rows = list(csv.DictReader(output.open(encoding="utf-8", newline="")))
    assert {row["query"].split("(")[0] for row in rows} == {entry.query_template}
    printed = capsys.readouterr().out
    assert "from the sample's catalogue entry" in printed and f"'{entry.seeds[0]}'" in printed


def test_a_plain_sweep_of_the_generated_graph_asks_the_reference_question(tmp_path, capsys):
    output = tmp_path / "results.csv"
    assert main(["sweep", *SMALL, "--formats", "csv", "--orderings", "canonical", "--budgets", "512",
                 "--output", str(output)]) == 0
    rows = list(csv.DictReader(output.open(encoding="utf-8", newline="")))
    assert {row["query"].split(",")[0] for row in rows} == {"impact_owners(failed=db-identity"}


def test_the_verdict_comes_first_the_groups_only_with_verbose_and_nothing_is_written_unasked(tmp_path, capsys,
                                                                                            monkeypatch):
    monkeypatch.chdir(tmp_path)
    arguments = ["sweep", "--seeds", "db-identity", "--query", "impact_owners", "--formats", "csv,compact_json",
                 "--orderings", "canonical,hop_tiers", "--budgets", "1024,2048"]
    assert main(arguments) == 0
    captured = capsys.readouterr()
    lines = captured.out.splitlines()
    assert lines[0].startswith("verdict: the best lossless choice at each budget")
    assert [line.split()[0] for line in lines[3:5]] == ["1,024", "2,048"]
    assert lines[4].split()[1:8] == ["compact_json", "/", "canonical", "/", "nodes_then_edges", "/", "record"]
    assert sum("non-dominated" in line for line in lines) == 0 and "(--verbose lists each group)" in captured.out
    assert "cuts measured; --output results.csv" in captured.out and list(tmp_path.iterdir()) == []
    assert "measuring the complete renderings" in captured.err
    assert main([*arguments, "--verbose", "--no-progress"]) == 0
    verbose = capsys.readouterr()
    assert sum("non-dominated" in line for line in verbose.out.splitlines()) == 8  # 2 orderings x 2 layouts x 2 policies
    assert verbose.err == ""


def test_the_steps_after_the_bar_are_named_and_the_file_is_stated(tmp_path, capsys):
    output = tmp_path / "cuts.csv"
    assert main(["sweep", "--seeds", "db-identity", "--formats", "csv", "--orderings", "hop_tiers", "--budgets",
                 "512", "--output", str(output)]) == 0
    captured = capsys.readouterr()
    assert "measuring the complete renderings…" in captured.err and f"writing {output}…" in captured.err
    assert captured.out.rstrip().endswith(f"cuts written to {output}") and output.exists()
