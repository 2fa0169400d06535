"""A sweep's seed share, rank inversions and whole request per row, checked against figures computed another way."""

from __future__ import annotations

import math

import pandas as pd

from core.analysis.sweep import sweep
from core.budget.policies import cut
from core.formats import FORMATS
from core.io.generate import service_graph
from core.pipeline import accounted_rendering
from core.prompt.answers import schema_for
from core.prompt.frame import TEMPLATE
from core.queries import IMPACT_OWNERS, query
from core.retrieval import ORDERINGS
from core.specs import SweepSpec
from core.tokens import TOKENIZERS

GRAPH = service_graph(8, 8, 7)
QUERY = query(IMPACT_OWNERS, failed="db-identity")
O200K = TOKENIZERS.get("o200k_base")


def swept(**options) -> pd.DataFrame:
    settings = dict(format_names=["jsonl", "semantic_text"], ordering_names=["canonical", "hop_tiers"],
                    budgets=[60, 200, 100_000], policy_names=["raw", "record", "sections"], marker=True)
    return sweep(SweepSpec.from_names(GRAPH, [QUERY], **{**settings, **options}), workers=1)


def test_each_rows_request_is_the_cookbook_count_of_the_request_built_by_hand():
    frame = swept()
    spec = SweepSpec.from_names(GRAPH, [QUERY], marker=True)
    gold = QUERY.solve(GRAPH)
    example = schema_for(QUERY.name, gold.answer).example_json()
    for row in frame.itertuples():
        format_ = FORMATS.get(row.format)
        accounting = accounted_rendering(spec.rendering(format_, ORDERINGS.get(row.ordering), row.layout, QUERY))
        text = cut(accounting, format_, row.policy, row.budget, marker=True).text
        prompt = (TEMPLATE.replace("{answer_schema}", example).replace("{question}", QUERY.question_on(GRAPH))
                  .replace("{format_name}", format_.name).replace("{grammar}", format_.grammar)
                  .replace("{graph_data}", text))
        # gpt-4o, o200k_base's family: OpenAI's rule, 3 tokens per message + its role, 3 priming the reply
        assert row.request_tokens == 3 + len(O200K.encode("user")) + len(O200K.encode(prompt)) + 3
        assert row.within_window  # a few hundred tokens of gpt-4o's 128,000
    assert frame["within_window"].dtype == "boolean" and frame["request_tokens"].dtype == "Int64"
    parameters = frame.attrs["parameters"]
    assert parameters["reader"] == "gpt-4o" and parameters["chat_template"] == "openai-chat"
    assert parameters["context_window"] == 128_000 and "128,000" in parameters["request_note"]


def test_a_reader_without_a_template_or_a_window_leaves_its_columns_empty_and_says_why():
    claude = swept(format_names=["jsonl"], ordering_names=["canonical"], reader_name="claude")
    assert claude["request_tokens"].isna().all() and claude["within_window"].isna().all()
    assert "claude publishes no chat template" in claude.attrs["parameters"]["request_note"]
    qwen = swept(format_names=["jsonl"], ordering_names=["canonical"], tokenizer_name="qwen3.6")
    assert qwen["request_tokens"].notna().all() and qwen["within_window"].isna().all()
    assert "no context window is recorded for qwen3.6" in qwen.attrs["parameters"]["request_note"]


def test_prefix_cuts_keep_the_rank_order_and_seed_shares_are_the_seed_records_tokens():
    frame = swept()
    assert (frame[frame["policy"].isin(["raw", "record"])]["rank_inversions"] == 0).all()
    spec = SweepSpec.from_names(GRAPH, [QUERY], marker=True)
    record = frame[(frame["policy"] == "record") & (frame["budget"] == 100_000)]
    for row in record.itertuples():
        format_ = FORMATS.get(row.format)
        rendering = accounted_rendering(spec.rendering(format_, ORDERINGS.get(row.ordering), row.layout,
                                                       QUERY)).rendering
        [page] = [index for index, record in enumerate(rendering.records) if "n:db-identity" in record.unit_keys]
        added = len(O200K.encode(rendering.prefix_text(page + 1))) - len(O200K.encode(rendering.prefix_text(page)))
        assert row.seed_token_share == added / len(O200K.encode(rendering.prefix_text(len(rendering.records))))
    empty = frame[frame["empty"]]
    assert len(empty) and empty["seed_token_share"].map(math.isnan).all()
