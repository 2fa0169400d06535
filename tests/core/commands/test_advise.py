"""`graph-context-lab advise`: the printed and written advice is core's advice."""

from __future__ import annotations

import json

from core.analysis.advisor import AdviceSettings, advise
from core.cli import main
from core.io.generate import service_graph
from core.io.samples import load_sample
from core.queries import IMPACT_OWNERS, QUERIES, query, query_from_seeds

SMALL = ["--services", "12", "--noise-edges", "14", "--seed", "7"]


def test_the_advice_written_as_json_equals_cores(tmp_path, capsys):
    output = tmp_path / "advice.json"
    code = main(["advise", *SMALL, "--seeds", "db-identity", "--formats", "csv,jsonl", "--orderings",
                 "hop_tiers,question_bm25+ends", "--policies", "record", "--budgets", "256,1024", "--budget", "1024",
                 "--price-model", "gpt-4o-mini", "--output", str(output)])
    assert code == 0
    written = json.loads(output.read_text(encoding="utf-8"))
    expected = advise(service_graph(12, 14, 7), [query(IMPACT_OWNERS, failed="db-identity")],
                      AdviceSettings(budgets=(256, 1024), budget=1024, formats=("csv", "jsonl"),
                                     orderings=("hop_tiers", "question_bm25+ends"), policies=("record",),
                                     model="gpt-4o-mini"), seeds=("db-identity",))
    assert written["reason"] == expected.reason and written["best"]["format"] == expected.best.format
    assert written["best"]["cost"]["dollars"] == expected.best.cost.dollars
    assert written["accuracy_margin"] == expected.accuracy_margin
    printed = capsys.readouterr().out
    assert expected.reason in printed and "tokencost" in printed


def test_baseline_orderings_alone_are_refused_by_the_command_line(capsys):
    code = main(["advise", *SMALL, "--orderings", "evidence_first"])
    assert code != 0 and "(evidence_first) is a baseline" in capsys.readouterr().err


def test_a_sample_without_seeds_is_advised_on_its_own_catalogue_question(capsys):
    code = main(["advise", "--graph", "online-boutique", "--formats", "csv,ckg_lines", "--orderings", "hop_tiers",
                 "--policies", "record", "--budgets", "1024"])
    printed = capsys.readouterr().out
    assert code == 0
    assert "seeds and query from the sample's catalogue entry" in printed and "If cartservice fails" in printed
    assert "best:" in printed


def test_the_sweep_shows_a_bar_on_stderr_unless_asked_not_to(capsys):
    arguments = ["advise", *SMALL, "--seeds", "db-identity", "--formats", "csv", "--orderings", "hop_tiers",
                 "--policies", "record", "--budgets", "256"]
    assert main(arguments) == 0
    assert "advise" in capsys.readouterr().err
    assert main([*arguments, "--no-progress"]) == 0
    assert "advise" not in capsys.readouterr().err


def test_when_nothing_answers_at_the_budget_the_headline_says_so_and_there_is_no_best(tmp_path, capsys):
    output = tmp_path / "advice.json"
    arguments = ["advise", "--graph", "nvidia-jetson", "--seeds", "12", "--budget", "16", "--formats",
                 "csv,ckg_lines,compact_json", "--orderings", "hop_tiers,bfs_from_seeds,shuffled", "--policies", "record",
                 "--no-progress", "--output", str(output)]
    assert main(arguments) == 0
    printed = capsys.readouterr().out.splitlines()
    graph = load_sample("nvidia-jetson")
    expected = advise(graph, [query_from_seeds(QUERIES.get("dependencies_within"), ("12",))],
                      AdviceSettings(budget=16, formats=("csv", "ckg_lines", "compact_json"),
                                     orderings=("hop_tiers", "bfs_from_seeds", "shuffled"), policies=("record",)),
                      seeds=("12",))
    assert not expected.answers
    headline = next(line for line in printed if line.startswith("at 16 tokens"))
    assert headline == f"at 16 tokens (o200k_base, 1 question): {expected.nothing_answers}"
    assert "The smallest" in headline and f"{expected.smallest_answering_budget:,} tokens" in headline
    assert not any(line.lstrip().startswith(("best:", "runner-up:", "margin:")) for line in printed)
    kept = [line for line in printed if line.startswith("  most evidence kept: ")]
    assert len(kept) == len(expected.most_evidence) and expected.most_evidence[0].name in kept[0]
    assert not any("accuracy 0%" in line and "reached from" in line for line in printed)  # nothing reached at 0%
    assert "picks by cost" not in "\n".join(printed)
    written = json.loads(output.read_text(encoding="utf-8"))
    assert written["answers"] is False and written["best"] is None and written["runner_up"] is None
    assert written["smallest_answering_budget"] == expected.smallest_answering_budget
    assert f"is {written['smallest_answering_budget']:,} tokens, with {written['answering'][0]['choice']}" in headline
    assert [item["format"] for item in written["most_evidence_kept"]] == [c.format for c in expected.most_evidence]
