"""The Question set page's model answers: the set asked of a reader at one cut, beside the traversal accuracy there."""

from __future__ import annotations

import time
from pathlib import Path

import pandas as pd
import streamlit as st

from core.analysis.answer_contexts import SweepOptions, question_contexts
from core.analysis.answer_summary import exact_match_by, sufficiency
from core.analysis.suite import SuiteResult
from core.errors import GraphContextError
from core.evaluate.client import ChatClient, Endpoint
from core.evaluate.run import Progress, RunSettings, evaluate
from core.evaluate.store import DEFAULT_PATH, RunStore
from core.questions import QuestionSet
from dashboard.bundled_model import bundled_endpoint, bundled_model, reference_readers
from dashboard.sidebar import Selection
from dashboard.views.markdown_text import escape_markdown

READERS = {"bundled": "the bundled model (SmolLM2-135M-Instruct)", "oracle": "the oracle reader"}
SEEDING = "annotations"  # the cut a reader is given is the one the traversal accuracy below is computed on


def draw(selection: Selection, questions: QuestionSet, result: SuiteResult, formats: tuple[str, ...], ordering: str,
         budgets: tuple[int, ...]) -> None:
    st.subheader("Model answers on this set")
    st.caption("Each question's cut (seeds from its annotations) at one format and budget, written into the prompt "
               "frame and asked of a reader; its exact match, with Wilson 95% intervals, beside the traversal accuracy "
               "of the same cuts. Answers are stored, so asking again sends only what is missing.")
    controls = st.columns(4)
    reader = controls[0].selectbox("Reader", list(READERS), format_func=READERS.get, key="qs_reader")
    format_name = controls[1].selectbox("Format", formats, key="qs_answers_format")
    budget = controls[2].selectbox("Budget", budgets, index=len(budgets) // 2, format_func="{:,} tokens".format,
                                   key="qs_answers_budget")
    store_path = Path(controls[3].text_input("Run store", str(DEFAULT_PATH), key="qs_answers_store"))
    if st.button(f"Ask about {len(result.questions)} questions", key="qs_answers_run"):  # those with an answer
        try:
            st.session_state["qs_answers_run_id"] = ask(selection, questions, reader, format_name, ordering, budget,
                                                        store_path)
        except GraphContextError as error:
            st.error(escape_markdown(str(error)))
            return
    run_id = st.session_state.get("qs_answers_run_id")
    if run_id and store_path.exists():
        with RunStore(store_path) as store:
            rows = store.results(run_id)
        if rows:
            show(rows, result, ordering, selection)


def ask(selection: Selection, questions: QuestionSet, reader: str, format_name: str, ordering: str, budget: int,
        store_path: Path) -> str:
    options = SweepOptions((format_name,), (ordering,), (selection.layout,), (selection.policy,), (budget,),
                           selection.tokenizer)
    contexts = question_contexts(selection.graph, questions, options, seeding=SEEDING)
    if reader == "bundled":
        endpoint, counter = bundled_endpoint(), bundled_model().request_counter()
    else:
        endpoint, counter = Endpoint(reference_readers().url, reader, max_retries=0), None
    bar = st.progress(0.0, text="Asking…")
    started = time.monotonic()

    def progress(counts: Progress) -> None:
        left = (time.monotonic() - started) / counts.sent * (counts.total - counts.done) if counts.sent else 0
        bar.progress(counts.done / max(counts.total, 1), text=f"{counts.done} of {counts.total} questions · "
                     f"{counts.cached} stored before · {counts.failed} failed" + (f" · about {left:.0f} s left"
                                                                                  if left else ""))

    client = ChatClient(endpoint)
    try:
        with RunStore(store_path) as store:
            run_id, _ = evaluate(selection.graph, contexts, RunSettings(endpoint, concurrency=1,
                                                                        tokenizer=selection.tokenizer,
                                                                        request_counter=counter),
                                 store, client=client, progress=progress,
                                 extra_settings={"source": "dashboard question set", "questions": questions.source,
                                                 "seeding": SEEDING, **options.recorded()})
    finally:
        client.close()
    bar.empty()
    return run_id


def show(rows: list[dict], result: SuiteResult, ordering: str, selection: Selection) -> None:
    first = rows[0]
    model = exact_match_by(rows, ("query_type",))
    suite = result.rows
    cut = suite[(suite["seeding"] == SEEDING) & (suite["format"] == first["format"]) & (suite["ordering"] == ordering)
                & (suite["layout"] == selection.layout) & (suite["policy"] == selection.policy)
                & (suite["budget"] == first["budget_tokens"])]
    traversal = cut.groupby("query_type")["traversal_accuracy"].mean().rename("traversal_accuracy").reset_index()
    table = model.merge(traversal, on="query_type", how="left")
    st.markdown(f"**{escape_markdown(first['model'])}** on {escape_markdown(first['format'])} at "
                f"{first['budget_tokens']:,} tokens: {sum(row['exact_match'] or 0 for row in rows)} of {len(rows)} "
                "exact.")
    st.dataframe(pd.DataFrame(table), hide_index=True, width="stretch", key="qs_answers_table")
    st.dataframe(sufficiency(rows), hide_index=True, width="stretch", key="qs_answers_sufficiency")
