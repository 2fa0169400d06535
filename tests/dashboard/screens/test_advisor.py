"""The Advisor page shows core's advice: the pick, its figures, the sentence, warnings and dated cost."""

from __future__ import annotations

import re
from pathlib import Path

from streamlit.testing.v1 import AppTest

from core.advisor import AdviceSettings, advise
from core.samples import default_sample, load_sample


def unescaped(markdown: str) -> str:
    return re.sub(r"\\(.)", r"\1", markdown)


APP = str(Path(__file__).resolve().parents[3] / "dashboard" / "app.py")


def test_the_page_shows_the_advice_core_computes():
    app = AppTest.from_file(APP, default_timeout=300)
    app.query_params.update({"budget": "1024", "budgets": "512,1024", "advisor_formats": ["csv", "jsonl"],
                             "advisor_orderings": ["hop_tiers", "question_bm25", "question_bm25+ends"],
                             "advisor_policies": ["record"]})
    app.run()
    app.switch_page("screens/advisor.py").run()
    assert not app.exception, [item.value for item in app.exception]
    sample = default_sample()
    expected = advise(load_sample(sample.name), [sample.default_query()],
                      AdviceSettings(budgets=(512, 1024), budget=1024, formats=("csv", "jsonl"),
                                     orderings=("hop_tiers", "question_bm25", "question_bm25+ends"),
                                     policies=("record",), model="gpt-4o-mini"), seeds=sample.seeds)
    assert f"**Use {expected.best.name}**" in unescaped(app.success[0].value)
    assert expected.reason in unescaped(" ".join(item.value for item in app.markdown))
    shown = {item.label: item.value for item in app.metric}
    assert shown["Traversal accuracy"] == f"{expected.best.traversal_accuracy:.0%}"
    assert shown["Budgeted tokens"] == f"{expected.best.budgeted_tokens:,.0f}"
    costs = app.dataframe[0].value
    assert costs["dollars"].tolist()[0] == expected.best.cost.dollars
    assert any("tokencost" in item.value and "2025" in item.value for item in app.caption)
    assert [unescaped(item.value) for item in app.warning] == list(expected.warnings)
