"""The advisor over a stored run: the same ranking rule on the model's exact matches, and the advice says so."""

from __future__ import annotations

import json

import pytest

from core.analysis.advisor import AdviceSettings, advise_answers
from core.analysis.answer_advice import answer_rows
from core.cli import main
from core.errors import ParameterError
from core.evaluate.store import RunStore
from tests.core.evaluate.conftest import API_KEY


@pytest.fixture
def stored_run(server, tmp_path, monkeypatch):
    monkeypatch.setenv("GCL_TEST_API_KEY", API_KEY)
    store = tmp_path / "runs.sqlite"
    assert main(["evaluate", "--services", "8", "--noise-edges", "6", "--seeds", "db-identity",
                 "--formats", "jsonl,csv", "--budgets", "60,120,2000", "--trials", "1", "--base-url", server.url,
                 "--store", str(store), "--api-key-env", "GCL_TEST_API_KEY", "--price", "1.5,6"]) == 0
    with RunStore(store) as opened:
        run_id = opened.runs()[0]["run_id"]
        return store, run_id, opened.results(run_id)


def test_the_answers_are_ranked_by_the_same_rule_and_the_layer_is_named(stored_run, tmp_path, capsys):
    store, run_id, results = stored_run
    advice = advise_answers(results, AdviceSettings(budget=2000), run_id)
    # by hand: the candidates whose stored answer matched exactly at 2,000 tokens, cheapest first
    at = [row for row in results if row["budget_tokens"] == 2000]
    matched = [row for row in at if row["exact_match"] == 1]
    assert advice.best.traversal_accuracy == (1.0 if matched else 0.0)
    assert advice.best.format in {row["format"] for row in (matched or at)}
    assert advice.reason.endswith(f"Ranked by the model's answers (exact match, run {run_id}).")
    assert advice.budget == 2000 and advice.questions == 1
    reached = {row["budget_tokens"] for row in results if row["format"] == advice.best.format
               and row["exact_match"] == advice.best.traversal_accuracy}
    assert advice.best.reach_budget == min(reached)
    capsys.readouterr()
    output = tmp_path / "advice.json"
    assert main(["advise", "--from-run", run_id, "--store", str(store), "--budget", "2000",
                 "--output", str(output)]) == 0
    written = json.loads(output.read_text(encoding="utf-8"))
    assert written["layer"] == advice.layer and written["best"]["format"] == advice.best.format


def test_a_run_without_answers_is_refused():
    with pytest.raises(ParameterError, match="no scored answer"):
        answer_rows([{"exact_match": None}])
