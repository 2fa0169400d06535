"""Where a budget is chosen, a budget that answers nothing says the smallest budget that does, and with what."""

from __future__ import annotations

from core.budget.policies import grammar_tokens
from core.formats import FORMATS
from tests.dashboard.conftest import on_page, started, unescaped


def test_contexts_names_the_exact_smallest_answering_budget_with_its_scope_when_no_panel_answers():
    from core.analysis.answering_budget import rendering_answering_budget
    from core.budget.policies import cut
    from dashboard.renderings import accounting_for

    app = on_page(started(budget="300", formats=["csv", "local_ids"]), "contexts")
    assert [item.value for item in app.metric if item.label == "Traversal accuracy"] == ["0%", "0%"]
    warning = unescaped(next(item.value for item in app.warning if "Nothing answers" in item.value))
    selection = app.session_state["selection"]  # the Selection the sidebar made (dashboard.sidebar.store)
    budgets = {}
    for name in ("csv", "local_ids"):
        accounting = accounting_for(selection, name)
        grammar = grammar_tokens(FORMATS.get(name), accounting.tokenizer)
        budgets[name] = rendering_answering_budget(accounting, selection.graph, selection.query, selection.solution,
                                                   grammar)
        kept = [cut(accounting, FORMATS.get(name), "record", budget).records_kept
                for budget in (budgets[name] - 1, budgets[name])]
        assert kept[0] < kept[1]  # one token less keeps a shorter prefix
    cheapest = min(budgets, key=lambda name: (budgets[name], name))
    assert warning.startswith(f"Nothing answers the query at 300 tokens. The smallest budget that does is "
                              f"{budgets[cheapest]:,} tokens, with {cheapest} (record policy, "
                              f"{selection.ordering}, {selection.layout})")


def test_contexts_says_nothing_more_when_a_panel_answers():
    app = on_page(started(budget="5000", formats=["csv"]), "contexts")
    assert not [item for item in app.warning if "Nothing answers" in item.value]


def test_budget_survival_names_what_answers_from_the_sweep():
    app = on_page(started(budgets="300,1200,5000", budget="300", formats=["csv", "local_ids"]), "budget_survival")
    text = " ".join(unescaped(item.value) for item in [*app.warning, *app.markdown])
    contexts = on_page(started(budget="300", formats=["csv", "local_ids"]), "contexts")
    said = unescaped(next(item.value for item in contexts.warning if "Nothing answers" in item.value))
    exact = said.split("The smallest budget that does is ")[1].split(" tokens")[0]
    # the same exact figure as Contexts for the same scope (record policy, this ordering and layout), not a swept one
    assert f"The smallest budget that does is {exact} tokens" in text and exact not in ("1,200", "5,000")
