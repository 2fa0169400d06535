"""Advisor page: the lossless format, ordering and policy to use at the sidebar's budget (ranked by
`core.analysis.ranking`), the runner-up, whether they are tied within noise, the baselines beside them (random
and oracle orderings, never picked), one sentence why, warnings, and the cost per question with its dated price
source.

Advice is for the sidebar's question, for the sample's bundled question set, or for a question file the reader
uploaded (here, or on the Question set page: `dashboard.state.question_file` keeps it for the session); a set is
advised over the formats, orderings and policies chosen here, like one question.

A first visit draws in two stages (issue 47): core's advice at the sidebar's budget alone (`at_budget`: no other
budget, no ladder below it; about a third of the work for one question, a fifth for the sample's set), labelled as
such and without the figures that need the other budgets (the budget each candidate's accuracy is reached from, the
smallest budget that answers); then the full advice, behind its progress bar, drawn in its place. Both are
`core.analysis.advisor`'s one ranking rule; the first is never left on screen as final."""

from __future__ import annotations

from dataclasses import replace

import pandas as pd
import streamlit as st

from core.analysis.advisor import Advice, AdviceSettings, Choice, advise_set
from core.analysis.cost import DEFAULT_MODEL, priced_models
from core.budget import DEFAULT_POLICIES, POLICIES
from core.errors import GraphContextError
from core.formats import FORMATS
from core.number_style import share, whole
from core.questions import QuestionSet, load_questions, parse_question_file
from core.retrieval import ORDERINGS
from dashboard.analysis_cache import pending, preliminary, with_progress
from dashboard.analysis_controls import budget_list, show_error, tokenizers_to_show
from dashboard.cache import workbench
from dashboard.sidebar import Selection, current, format_label
from dashboard.state.question_file import UploadedQuestions, remember, remembered
from dashboard.views.markdown_text import escape_markdown
from dashboard.views.tables import show_table

SCOPES = ("this question", "the sample's question set", "a question file")
UPLOAD_KEY = "advisor_question_upload"
AT_BUDGET_NOTE = ("**At your budget alone, so far.** The comparison across budgets (from which budget each candidate "
                  "reaches its accuracy, which can change the pick among those tied within noise) is still being "
                  "measured; this verdict is replaced when it is done.")


def question_set(selection: Selection, scope: str, uploaded: UploadedQuestions | None) -> QuestionSet | None:
    """The question set a set scope advises over (None for "this question")."""
    if scope == SCOPES[1]:
        return load_questions(selection.loaded.sample.queries_path, selection.graph)
    if scope == SCOPES[2] and uploaded is not None:
        return parse_question_file(uploaded.data, uploaded.name, graph=selection.graph)
    return None


def at_budget(settings: AdviceSettings) -> AdviceSettings:
    """The same settings at the advised budget alone: no other budget and no ladder below it."""
    return replace(settings, budgets=(settings.chosen_budget,), ladder_steps=0)


def computed_advice(selection: Selection, settings: AdviceSettings, scope: str,
                    uploaded: UploadedQuestions | None, progress) -> Advice:
    """core's advice for the scope; one question through the workbench, whose renderings the second stage reuses."""
    questions = question_set(selection, scope, uploaded)
    if questions is not None:
        return advise_set(selection.graph, questions, settings, progress=progress)
    return workbench().advise(selection.graph, [selection.query], settings, seeds=selection.seeds.node_ids or None,
                              progress=progress)


def advice_key(key: tuple) -> tuple:
    return ("advice", *key)


def cached_advice(key: tuple, selection: Selection, settings: AdviceSettings, scope: str,
                  uploaded: UploadedQuestions | None = None) -> Advice:
    """The advice for these settings, computed once, behind a bar with the time left and a Stop button."""
    unit = "cuts" if scope == SCOPES[0] else "tasks"
    return with_progress(advice_key(key), "Comparing every candidate across the budgets", unit, "advice",
                         lambda progress: computed_advice(selection, settings, scope, uploaded, progress))


def cached_first_advice(key: tuple, selection: Selection, settings: AdviceSettings, scope: str,
                        uploaded: UploadedQuestions | None = None) -> Advice:
    """The advice at the budget alone (`at_budget`), computed once, behind its own bar."""
    unit = "cuts" if scope == SCOPES[0] else "tasks"
    return preliminary(("advice at the budget", *key), f"Measuring every candidate at {settings.chosen_budget:,} "
                       "tokens", unit, "advice at your budget",
                       lambda progress: computed_advice(selection, at_budget(settings), scope, uploaded, progress))


def uploaded_questions(selection: Selection) -> UploadedQuestions | None:
    """The question file to advise over: one uploaded here, else the one uploaded on the Question set page."""
    upload = st.file_uploader("Question file (CKG queries_*.jsonl, or the project's JSONL / CSV schema)",
                              type=["jsonl", "json", "csv"], key=UPLOAD_KEY)
    if upload is not None:
        return remember(st.session_state, upload.name, upload.getvalue(), selection.graph.content_key)
    kept = remembered(st.session_state, selection.graph.content_key)
    if kept is None:
        st.info("Upload a question file here or on the Question set page to advise over its questions.")
    else:
        st.caption(f"Advising over {escape_markdown(kept.name)}, uploaded earlier in this session.")
    return kept


def settings_from_widgets(selection: Selection) -> tuple[AdviceSettings, str]:
    lossless = [name for name in FORMATS.names() if FORMATS.get(name).lossless]
    every = ORDERINGS.names() + ORDERINGS.ends_names()
    columns = st.columns([3, 3, 2])
    formats = columns[0].multiselect("Lossless formats", lossless, default=lossless, format_func=format_label,
                                     key="advisor_formats", bind="query-params")
    orderings = columns[1].multiselect("Orderings (baselines shown, never picked)", every,
                                       default=ORDERINGS.names(), key="advisor_orderings", bind="query-params")
    policies = columns[2].multiselect("Policies", POLICIES.names(), default=list(DEFAULT_POLICIES), key="advisor_policies",
                                      bind="query-params")
    columns = st.columns([2, 1, 2])
    models = priced_models()
    # The sidebar's model where the price table has it (GPT-4o), else the price table's default (gpt-4o-mini); it
    # follows the sidebar's model until the reader picks another price here.
    default = selection.model if selection.model in models else DEFAULT_MODEL
    state = st.session_state
    if state.get("advisor_model") == state.get("advisor_model_default") != default:
        state["advisor_model"] = default
    state["advisor_model_default"] = default
    model = columns[0].selectbox("Price per question for", models,
                                 index=0 if "advisor_model" in state else models.index(default),
                                 key="advisor_model", bind="query-params",
                                 help=f"Starts from the model chosen in the sidebar where the price table has it "
                                      f"(else {DEFAULT_MODEL})")
    output_tokens = int(columns[1].number_input("Answer tokens to price", 0, 100_000, 0, key="advisor_output"))
    sample = selection.loaded.sample
    scopes = SCOPES if sample is not None and sample.queries_path is not None else (SCOPES[0], SCOPES[2])
    scope = columns[2].radio("Advise for", scopes, key="advisor_scope", horizontal=True,
                             help="a set is advised over the formats, orderings and policies chosen here")
    with st.container():
        tokenizers = tokenizers_to_show(selection.tokenizer, "advisor_compare")
    budgets = tuple(sorted({*budget_list(), selection.budget}))
    return AdviceSettings(budgets=budgets, budget=selection.budget, tokenizers=tokenizers,
                          formats=tuple(formats) or None, orderings=tuple(orderings) or None,
                          policies=tuple(policies) or DEFAULT_POLICIES, model=model if scope == SCOPES[0] else None,
                          output_tokens=output_tokens), scope


def show() -> None:
    selection = current()
    st.title("Advisor")
    st.caption(f"{escape_markdown(selection.loaded.label)} · budget **{selection.budget:,}** tokens · "
               f"{selection.tokenizer_label}. Query: *{escape_markdown(selection.question_shown)}*")
    settings, scope = settings_from_widgets(selection)
    uploaded = uploaded_questions(selection) if scope == SCOPES[2] else None
    if scope == SCOPES[2] and uploaded is None:
        return
    key = (selection.graph.content_key, selection.query_key, selection.seeds.node_ids, repr(settings), scope,
           None if uploaded is None else uploaded.digest)
    # The verdict at the budget alone, then the full advice just below it once it is emptied. Two places, not one:
    # Streamlit sends only the last of the messages for one place in a batch, and a container drawn over another
    # keeps the old one's elements until each is overwritten (both verdicts were on screen together for a moment).
    first_place, verdict = st.empty(), st.empty()
    try:
        if pending(advice_key(key)):  # a first visit: the verdict at the budget alone first, then the rest
            first = cached_first_advice(key, selection, settings, scope, uploaded)
            with first_place.container():
                draw_first_advice(first)
        advice = cached_advice(key, selection, settings, scope, uploaded)
    except GraphContextError as error:
        first_place.empty()
        show_error(error)
        return
    first_place.empty()
    with verdict.container():
        draw_advice(advice)


def accuracy_words(margin: float) -> str:
    """The accuracy margin over the runner-up in plain words: "12 points above the runner-up"."""
    points = round(100 * margin)
    if points == 0:
        return "as accurate as the runner-up"
    return f"{abs(points):,} point{'s' if abs(points) != 1 else ''} {'above' if points > 0 else 'below'} the runner-up"


def token_words(margin: float) -> str:
    """The token margin (runner-up minus pick) in plain words: "52 fewer tokens than the runner-up"."""
    tokens = round(margin)
    if tokens == 0:
        return "as many tokens as the runner-up"
    noun = "token" if abs(tokens) == 1 else "tokens"
    return f"{abs(tokens):,} {'fewer' if tokens > 0 else 'more'} {noun} than the runner-up"


def draw_advice(advice: Advice) -> None:
    if not advice.answers:  # "Use X" at accuracy 0% would recommend a choice that answers nothing
        draw_nothing_answers(advice)
        return
    best = advice.best
    st.success(f"**Use {escape_markdown(best.name)}** at {advice.budget:,} tokens ({advice.tokenizer}, "
               f"{advice.questions:,} question{'s' if advice.questions != 1 else ''}).")
    st.markdown(f"**Why:** {escape_markdown(advice.reason)}")
    first, second, third = st.columns(3)
    accuracy_metric(first, advice)
    second.metric("Reached from", f"{best.reach_budget:,} tokens",
                  help="the smallest budget from which this accuracy is reached")
    tokens_metric(third, advice)
    tie_and_runner_up(advice, reached=True)
    draw_rest(advice, (best, advice.runner_up))


def draw_first_advice(advice: Advice) -> None:
    """The verdict at the budget alone, labelled so: the pick (or that nothing answers) by core's rule, its accuracy
    and tokens, the runner-up and the baselines, and no budget they are reached from (that needs the other budgets)."""
    st.info(AT_BUDGET_NOTE, icon=":material/hourglass_empty:")  # an emoji font may be missing
    plural = "s" if advice.questions != 1 else ""
    if not advice.answers:
        st.warning(f"Nothing answers {'the question' if advice.questions == 1 else 'the questions'} at "
                   f"{advice.budget:,} tokens ({advice.tokenizer}, {advice.questions:,} question{plural}); the "
                   "budgets that would are still being measured.", icon="⚠️")
        if advice.most_evidence:
            st.markdown("**Most evidence kept** (nothing is picked at 0%): " + "; ".join(
                f"{escape_markdown(choice.name)} — evidence survival {share(choice.evidence_survival)}, "
                f"{whole(choice.budgeted_tokens)} tokens" for choice in advice.most_evidence) + ".")
        return
    st.success(f"**Best at {advice.budget:,} tokens so far: {escape_markdown(advice.best.name)}** "
               f"({advice.tokenizer}, {advice.questions:,} question{plural}).")
    first, second = st.columns(2)
    accuracy_metric(first, advice)
    tokens_metric(second, advice)
    tie_and_runner_up(advice, reached=False)
    baselines(advice, reached=False)


def accuracy_metric(column, advice: Advice) -> None:
    """The pick's traversal accuracy, its margin over the runner-up and its 95% interval."""
    best = advice.best
    low, high = best.interval
    column.metric("Traversal accuracy", share(best.traversal_accuracy),
                  delta=None if advice.accuracy_margin is None else accuracy_words(advice.accuracy_margin),
                  delta_color="normal" if advice.accuracy_margin else "off",
                  delta_arrow="auto" if advice.accuracy_margin else "off",
                  help=f"{best.correct:,} of {best.questions:,} questions; 95% interval {share(low)}-{share(high)}")


def tokens_metric(column, advice: Advice) -> None:
    """The pick's budgeted tokens and its margin over the runner-up."""
    column.metric("Budgeted tokens", whole(advice.best.budgeted_tokens),
                  delta=None if advice.token_margin is None else token_words(advice.token_margin), delta_color="off",
                  delta_arrow="off")


def tie_and_runner_up(advice: Advice, *, reached: bool) -> None:
    """A tie within noise, and the runner-up's line (with the budget it is reached from when that was measured)."""
    if advice.tied:
        plural = "s" if advice.questions != 1 else ""
        st.info(f"Tied within noise on {advice.questions:,} question{plural}: picked by cost.", icon="⚖️")
    runner = advice.runner_up
    if runner is not None:
        st.markdown(f"**Runner-up** (best in another format): {escape_markdown(runner.name)} — accuracy "
                    f"{share(runner.traversal_accuracy)} ({share(runner.interval[0])}-{share(runner.interval[1])})"
                    f"{_reached(runner) if reached else ''}, evidence survival "
                    f"{share(runner.evidence_survival)}, {whole(runner.budgeted_tokens)} tokens.")


def baselines(advice: Advice, *, reached: bool) -> None:
    """The baselines' accuracies: shown beside the pick, never picked."""
    if advice.baselines:
        st.markdown("**Baselines** (random or reading the answer; never picked): " + "; ".join(
            f"{escape_markdown(choice.name)} — accuracy {share(choice.traversal_accuracy)}"
            f"{_reached(choice) if reached else ''}" for choice in advice.baselines) + ".")


def _reached(choice: Choice) -> str:
    """", reached from N tokens", or nothing at accuracy 0 (every budget reaches 0%)."""
    return "" if choice.traversal_accuracy <= 0 else f", reached from {choice.reach_budget:,} tokens"


def draw_nothing_answers(advice: Advice) -> None:
    """No pick: core's sentence naming the smallest budget that answers, the candidates keeping the most evidence,
    and no "Reached from" (a budget that reaches 0% says nothing)."""
    st.warning(escape_markdown(advice.nothing_answers), icon="⚠️")
    st.markdown(f"**Why:** {escape_markdown(advice.reason)}")
    shown = advice.most_evidence[0] if advice.most_evidence else advice.best
    first, second, third = st.columns(3)
    low, high = shown.interval
    first.metric("Traversal accuracy", share(shown.traversal_accuracy),
                 help=f"every candidate: {shown.correct:,} of {shown.questions:,} questions; 95% interval "
                      f"{share(low)}-{share(high)}")
    smallest = advice.smallest_answering_budget
    second.metric("Smallest budget that answers", "—" if smallest is None else f"{smallest:,} tokens",
                  help="from which a candidate compared answers (see the sentence above for its scope)")
    third.metric("Most evidence kept", share(shown.evidence_survival),
                 help=f"{shown.name}, in {whole(shown.budgeted_tokens)} tokens")
    if advice.most_evidence:
        st.markdown("**Most evidence kept** (nothing is picked at 0%): " + "; ".join(
            f"{escape_markdown(choice.name)} — evidence survival {share(choice.evidence_survival)}, "
            f"{whole(choice.budgeted_tokens)} tokens" for choice in advice.most_evidence) + ".")
    draw_rest(advice, advice.most_evidence)


def draw_rest(advice: Advice, priced) -> None:
    """The baselines, warnings, cost per question and every candidate at the budget."""
    baselines(advice, reached=True)
    for warning in advice.warnings:
        st.warning(escape_markdown(warning), icon="⚠️")
    costs = [choice for choice in priced if choice is not None and choice.cost is not None]
    if costs:
        st.subheader("Cost per question")
        show_table(pd.DataFrame([{
            "format": choice.format, "input tokens": choice.cost.input_tokens,
            "of which cacheable": choice.cost.cacheable_tokens, "cached": choice.cost.cached,
            "dollars": choice.cost.dollars, "dollars with a warm cache": choice.cost.dollars_cached}
            for choice in costs]), "advisor_costs", hide_index=True)
        st.caption(escape_markdown(advice.price_note) + ". Input: frame, question, grammar and context; the stable "
                   "prefix (frame, grammar, preamble) at the cached-read price when it is 1,024 tokens or more.")
    st.subheader("Every candidate at this budget")
    table = advice.ranking.drop(columns=["tokenizer", "budget"]).head(50)
    nothing = table["traversal_accuracy"] <= 0  # every budget reaches 0%: no "reached from" there
    table = table.assign(reach_budget=table["reach_budget"].astype("Int64").mask(nothing),
                         reach_tokens=table["reach_tokens"].mask(nothing))
    show_table(table, "advisor_ranking", hide_index=True)


if __name__ == "__main__":  # run as a page by st.navigation
    show()
