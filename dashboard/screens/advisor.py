"""Advisor page: the lossless format, ordering (no oracle) and policy to use at the sidebar's budget, the
runner-up, the margin, one sentence why, warnings, and the cost per question with its dated price source."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from core.analysis.advisor import Advice, AdviceSettings, advise, advise_set
from core.analysis.cost import DEFAULT_MODEL, priced_models
from core.budget.policies import ALL_POLICIES, POLICIES
from core.errors import GraphContextError
from core.formats import FORMATS
from core.questions import load_questions
from core.retrieval import ORDERINGS
from dashboard.analysis_cache import with_progress
from dashboard.analysis_controls import budget_list, show_error, tokenizers_to_show
from dashboard.sidebar import Selection, current, format_label
from dashboard.views.markdown_text import escape_markdown

SCOPES = ("this question", "the sample's question set")


def cached_advice(key: tuple, selection: Selection, settings: AdviceSettings, scope: str) -> Advice:
    """The advice for these settings, computed once, behind a bar with the time left and a Stop button."""
    def compute(progress) -> Advice:
        if scope == SCOPES[1]:
            sample = selection.loaded.sample
            return advise_set(selection.graph, load_questions(sample.queries_path, selection.graph), settings,
                              progress=progress)
        return advise(selection.graph, [selection.query], settings, seeds=selection.seeds.node_ids or None,
                      progress=progress)

    unit = "tasks" if scope == SCOPES[1] else "cuts"
    return with_progress(("advice", *key), "Sweeping every candidate", unit, "advice", compute)


def settings_from_widgets(selection: Selection) -> tuple[AdviceSettings, str]:
    lossless = [name for name in FORMATS.names() if FORMATS.get(name).lossless]
    realistic = [name for name in ORDERINGS.names() + ORDERINGS.ends_names() if not ORDERINGS.get(name).oracle]
    columns = st.columns([3, 3, 2])
    formats = columns[0].multiselect("Lossless formats", lossless, default=lossless, format_func=format_label,
                                     key="advisor_formats", bind="query-params")
    orderings = columns[1].multiselect("Orderings (no oracle)", realistic,
                                       default=[name for name in ORDERINGS.names() if name in realistic],
                                       key="advisor_orderings", bind="query-params")
    policies = columns[2].multiselect("Policies", list(ALL_POLICIES), default=list(POLICIES), key="advisor_policies",
                                      bind="query-params")
    columns = st.columns([2, 1, 2])
    models = priced_models()
    model = columns[0].selectbox("Price per question for", models, index=models.index(DEFAULT_MODEL),
                                 key="advisor_model", bind="query-params")
    output_tokens = int(columns[1].number_input("Answer tokens to price", 0, 100_000, 0, key="advisor_output"))
    sample = selection.loaded.sample
    scopes = SCOPES if sample is not None and sample.queries_path is not None else SCOPES[:1]
    scope = columns[2].radio("Advise for", scopes, key="advisor_scope", horizontal=True)
    with st.container():
        tokenizers = tokenizers_to_show(selection.tokenizer, "advisor_compare")
    budgets = tuple(sorted({*budget_list(), selection.budget}))
    return AdviceSettings(budgets=budgets, budget=selection.budget, tokenizers=tokenizers,
                          formats=tuple(formats) or None, orderings=tuple(orderings) or None,
                          policies=tuple(policies) or POLICIES, model=model if scope == SCOPES[0] else None,
                          output_tokens=output_tokens), scope


def show() -> None:
    selection = current()
    st.title("Advisor")
    st.caption(f"{escape_markdown(selection.loaded.label)} · budget **{selection.budget:,}** tokens · "
               f"{selection.tokenizer_label}. Query: *{escape_markdown(selection.question_shown)}*")
    settings, scope = settings_from_widgets(selection)
    key = (selection.graph.content_key, selection.query_key, selection.seeds.node_ids, repr(settings), scope)
    try:
        advice = cached_advice(key, selection, settings, scope)
    except GraphContextError as error:
        show_error(error)
        return
    draw_advice(advice)


def draw_advice(advice: Advice) -> None:
    best, runner = advice.best, advice.runner_up
    st.success(f"**Use {escape_markdown(best.name)}** at {advice.budget:,} tokens ({advice.tokenizer}, "
               f"{advice.questions:,} question{'s' if advice.questions != 1 else ''}).")
    st.markdown(f"**Why:** {escape_markdown(advice.reason)}")
    first, second, third = st.columns(3)
    first.metric("Traversal accuracy", f"{best.traversal_accuracy:.0%}",
                 delta=None if advice.accuracy_margin is None else f"{advice.accuracy_margin:+.0%} vs runner-up")
    second.metric("Evidence survival", f"{best.evidence_survival:.0%}")
    third.metric("Budgeted tokens", f"{best.budgeted_tokens:,.0f}",
                 delta=None if advice.token_margin is None else f"{advice.token_margin:+,.0f} fewer than runner-up",
                 delta_color="off")
    if runner is not None:
        st.markdown(f"**Runner-up** (best in another format): {escape_markdown(runner.name)} — accuracy "
                    f"{runner.traversal_accuracy:.0%}, evidence survival {runner.evidence_survival:.0%}, "
                    f"{runner.budgeted_tokens:,.0f} tokens.")
    for warning in advice.warnings:
        st.warning(escape_markdown(warning), icon="⚠️")
    costs = [choice for choice in (best, runner) if choice is not None and choice.cost is not None]
    if costs:
        st.subheader("Cost per question")
        st.dataframe(pd.DataFrame([{
            "format": choice.format, "input tokens": choice.cost.input_tokens,
            "of which cacheable": choice.cost.cacheable_tokens, "cached": choice.cost.cached,
            "dollars": choice.cost.dollars, "dollars with a warm cache": choice.cost.dollars_cached}
            for choice in costs]), width="stretch", key="advisor_costs", hide_index=True)
        st.caption(escape_markdown(advice.price_note) + ". Input: frame, question, grammar and context; the stable "
                   "prefix (frame, grammar, preamble) at the cached-read price when it is 1,024 tokens or more.")
    st.subheader("Every candidate at this budget")
    st.dataframe(advice.ranking.drop(columns=["tokenizer", "budget"]).head(50), width="stretch",
                 key="advisor_ranking", hide_index=True)


if __name__ == "__main__":  # run as a page by st.navigation
    show()
