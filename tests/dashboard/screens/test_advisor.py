"""The Advisor page shows core's advice: the pick, its figures, the sentence, warnings and dated cost."""

from __future__ import annotations

from core.analysis.advisor import AdviceSettings, advise
from core.io.samples import default_sample, load_sample
from core.number_style import share, whole
from tests.dashboard.conftest import app_test, on_page, unescaped


def test_the_page_shows_the_advice_core_computes():
    app = app_test(**{"budget": "4096", "budgets": "1024,4096", "advisor_formats": ["csv", "jsonl"],
                             "advisor_orderings": ["hop_tiers", "question_bm25", "question_bm25+ends"],
                      "advisor_policies": ["record"]})
    on_page(app.run(), "advisor")
    sample = default_sample()
    expected = advise(load_sample(sample.name), [sample.default_query()],
                      AdviceSettings(budgets=(1024, 4096), budget=4096, formats=("csv", "jsonl"),
                                     orderings=("hop_tiers", "question_bm25", "question_bm25+ends"),
                                     policies=("record",), model="gpt-4o"), seeds=sample.seeds)  # the sidebar's
    assert expected.best.traversal_accuracy > 0
    assert f"**Use {expected.best.name}**" in unescaped(app.success[0].value)
    assert expected.reason in unescaped(" ".join(item.value for item in app.markdown))
    shown = {item.label: item.value for item in app.metric}
    assert shown["Traversal accuracy"] == share(expected.best.traversal_accuracy)
    assert shown["Budgeted tokens"] == whole(expected.best.budgeted_tokens)
    assert shown["Reached from"] == f"{expected.best.reach_budget:,} tokens"
    assert bool(app.info) == expected.tied
    costs = app.dataframe[0].value
    assert costs["dollars"].tolist()[0] == expected.best.cost.dollars
    assert any("tokencost" in item.value and "2025" in item.value for item in app.caption)
    assert [unescaped(item.value) for item in app.warning] == list(expected.warnings)


def test_baselines_are_listed_beside_the_pick_never_as_it():
    app = app_test(**{"budget": "4096", "budgets": "4096", "advisor_formats": ["csv"],
                      "advisor_orderings": ["shuffled", "evidence_first", "hop_tiers"], "advisor_policies": ["record"]})
    on_page(app.run(), "advisor")
    assert "(hop_tiers," in unescaped(app.success[0].value)
    baselines = next(unescaped(item.value) for item in app.markdown if item.value.startswith("**Baselines**"))
    assert "csv (shuffled," in baselines and "csv (evidence_first," in baselines


def test_a_budget_that_answers_nothing_names_the_smallest_that_does_instead_of_a_pick():
    app = app_test(**{"budget": "16", "budgets": "16,4096", "advisor_formats": ["csv", "jsonl"],
                      "advisor_orderings": ["hop_tiers", "canonical"], "advisor_policies": ["record"]})
    on_page(app.run(), "advisor")
    sample = default_sample()
    expected = advise(load_sample(sample.name), [sample.default_query()],
                      AdviceSettings(budgets=(16, 4096), budget=16, formats=("csv", "jsonl"),
                                     orderings=("hop_tiers", "canonical"), policies=("record",),
                                     model="gpt-4o-mini"), seeds=sample.seeds)
    assert not expected.answers and expected.smallest_answering_budget is not None
    assert not app.success  # no "Use ..." at accuracy 0%
    warning = unescaped(app.warning[0].value)
    assert warning == expected.nothing_answers  # the CLI's headline, word for word
    assert warning.startswith("Nothing answers the question at 16 tokens. The smallest ")
    assert f"is {expected.smallest_answering_budget:,} tokens, with " in warning
    assert expected.reason in unescaped(" ".join(item.value for item in app.markdown))
    assert "picks by cost" not in expected.reason
    shown = {item.label: item.value for item in app.metric}
    assert "Reached from" not in shown  # a budget that reaches 0% says nothing
    assert shown["Traversal accuracy"] == "0%"
    assert shown["Smallest budget that answers"] == f"{expected.smallest_answering_budget:,} tokens"
    assert not any(item.value.startswith("**Runner-up**") for item in app.markdown)
    kept = next(unescaped(item.value) for item in app.markdown if item.value.startswith("**Most evidence kept**"))
    assert all(choice.name in kept for choice in expected.most_evidence)
    ranking = app.dataframe[-1].value
    assert ranking.loc[ranking["traversal_accuracy"] <= 0, "reach_budget"].isna().all()


def test_the_margins_read_in_plain_words():
    from dashboard.screens.advisor import accuracy_words, token_words

    assert accuracy_words(0.12) == "12 points above the runner-up" and accuracy_words(0) == "as accurate as the runner-up"
    assert token_words(52) == "52 fewer tokens than the runner-up" and token_words(-1) == "1 more token than the runner-up"


def test_the_price_model_starts_from_the_sidebars_model_where_the_price_table_has_it():
    app = on_page(app_test(budget="4096", budgets="4096").run(), "advisor")
    assert app.selectbox(key="advisor_model").value == "gpt-4o"  # the sidebar's GPT-4o, not gpt-4o-mini
    app = on_page(app_test(budget="4096", budgets="4096").run(), "advisor")
    app.sidebar.selectbox(key="model").set_value("claude").run()
    assert app.selectbox(key="advisor_model").value == "gpt-4o-mini"  # claude is not in the price table by that name



def test_a_first_visit_shows_cores_verdict_at_the_budget_alone_labelled_until_the_full_advice_replaces_it(monkeypatch):
    import streamlit as st

    from dashboard import analysis_cache
    from dashboard.screens.advisor import AT_BUDGET_NOTE, at_budget

    full = AdviceSettings(budgets=(2048, 4096), budget=4096, formats=("csv", "jsonl"),
                          orderings=("hop_tiers", "shuffled"), policies=("record",), model="gpt-4o")
    assert at_budget(full) == AdviceSettings(budgets=(4096,), budget=4096, formats=full.formats,
                                             orderings=full.orderings, policies=full.policies, model="gpt-4o",
                                             ladder_steps=0)
    computing = analysis_cache.with_progress

    def full_advice_still_running(key, *arguments, **options):  # the page as drawn while the full advice runs
        if key[0] == "advice":
            st.stop()
        return computing(key, *arguments, **options)

    monkeypatch.setattr(analysis_cache, "with_progress", full_advice_still_running)
    app = app_test(**{"budget": "4096", "budgets": "2048,4096", "advisor_formats": ["csv", "jsonl"],
                      "advisor_orderings": ["hop_tiers", "shuffled"], "advisor_policies": ["record"]})
    on_page(app.run(), "advisor")
    sample = default_sample()
    expected = advise(load_sample(sample.name), [sample.default_query()], at_budget(full), seeds=sample.seeds)
    assert expected.answers
    assert AT_BUDGET_NOTE in app.info[0].value
    assert unescaped(app.success[0].value).startswith(f"**Best at 4,096 tokens so far: {expected.best.name}**")
    shown = {item.label: item.value for item in app.metric}
    assert shown == {"Traversal accuracy": share(expected.best.traversal_accuracy),
                     "Budgeted tokens": whole(expected.best.budgeted_tokens)}  # no "Reached from": needs the budgets
    text = unescaped(" ".join(item.value for item in app.markdown))
    assert f"**Runner-up** (best in another format): {expected.runner_up.name} — accuracy" in text
    assert "csv (shuffled," in text and "reached from" not in text

    monkeypatch.setattr(analysis_cache, "with_progress", computing)
    app.run()  # the full advice done: drawn in the first verdict's place, without its label
    assert not any(AT_BUDGET_NOTE in item.value for item in app.info)
    assert len(app.success) == 1 and unescaped(app.success[0].value).startswith("**Use ")
    assert "Reached from" in {item.label for item in app.metric}
