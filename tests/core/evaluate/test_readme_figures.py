"""The figures the README's model-answer section quotes, recomputed."""

from __future__ import annotations

from core.analysis.answer_contexts import SweepOptions, sweep_contexts
from core.evaluate.client import Endpoint
from core.evaluate.run import RunSettings, plan
from core.io.generate import service_graph
from core.queries import IMPACT_OWNERS, query

REFERENCE = ("pretty_json", "compact_json", "jsonl", "csv", "typed_edges")


def test_where_the_oracle_turns_exact_on_the_reference_graph_and_the_frame_size():
    graph = service_graph()
    question = query(IMPACT_OWNERS, failed="db-identity")
    contexts, _ = sweep_contexts(graph, [question], SweepOptions(formats=REFERENCE), seeds=["db-identity"])
    first_exact = {name: min(c.budget_tokens for c in contexts if c.format == name and c.traversal_accuracy == 1.0)
                   for name in REFERENCE}
    assert first_exact == {"pretty_json": 4096, "compact_json": 2048, "jsonl": 4096, "csv": 4096, "typed_edges": 4096}
    planned = plan(graph, contexts, RunSettings(Endpoint("http://127.0.0.1:9/v1", "oracle")), "run")
    assert {item.cell.frame_tokens for item in planned} == {148, 149}  # "csv" is one token shorter to name
