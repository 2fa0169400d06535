"""`graph-context-lab advise`: the printed and written advice is core's advice."""

from __future__ import annotations

import json

from core.analysis.advisor import AdviceSettings, advise
from core.cli import main
from core.io.generate import service_graph
from core.queries import IMPACT_OWNERS, query

SMALL = ["--services", "12", "--noise-edges", "14", "--seed", "7"]


def test_the_advice_written_as_json_equals_cores(tmp_path, capsys):
    output = tmp_path / "advice.json"
    code = main(["advise", *SMALL, "--seeds", "db-identity", "--formats", "csv,jsonl", "--orderings",
                 "hop_tiers,question_bm25+ends", "--policies", "record", "--budgets", "256,1024",
                 "--price-model", "gpt-4o-mini", "--output", str(output)])
    assert code == 0
    written = json.loads(output.read_text(encoding="utf-8"))
    expected = advise(service_graph(12, 14, 7), [query(IMPACT_OWNERS, failed="db-identity")],
                      AdviceSettings(budgets=(256, 1024), formats=("csv", "jsonl"),
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
