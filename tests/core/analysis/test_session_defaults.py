"""A session's starting point on each graph: the sample's own seeds and question, budgets that fit the graph."""

from __future__ import annotations

from collections import Counter

import pytest

from core.analysis.session_defaults import (
    budget_text,
    complete_tokens,
    graph_defaults,
    inspected_budget,
    parameter_choices,
    parameter_presets,
    sweep_budgets,
)
from core.budget.policies import cut
from core.formats import FORMATS
from core.graph.hops import hop_units
from core.graph.units import graph_units
from core.io.generate import service_graph
from core.io.samples import get_sample, load_sample, sample_names
from core.queries.model import label_of
from core.retrieval import ORDERINGS
from core.retrieval.ordering import OrderingInputs, order_units
from core.retrieval.seeds import seeds_from_question
from core.tokens import TOKENIZERS
from core.tokens.prefix_tokens import prefix_tokens

SHOWN = ("pretty_json", "compact_json")


def record_cut(graph, format_name: str, budget: int):
    tokenizer = TOKENIZERS.get("o200k_base")
    ordered = order_units(graph, hop_units(graph, ()), ORDERINGS.get("canonical"), "nodes_then_edges",
                          OrderingInputs())
    return cut(prefix_tokens(FORMATS.get(format_name).render(graph, ordered), tokenizer), FORMATS.get(format_name),
               "record", budget)


def test_complete_tokens_count_the_text_and_the_grammar_as_the_budget_does():
    graph = load_sample("tinkerpop-modern")
    tokenizer = TOKENIZERS.get("o200k_base")
    for name, tokens in complete_tokens(graph, "o200k_base").items():
        text = FORMATS.get(name).render(graph, graph_units(graph)).text
        assert tokens == len(tokenizer.encode(text)) + len(tokenizer.encode(FORMATS.get(name).grammar))


@pytest.mark.parametrize("sample", sample_names())
def test_the_inspected_budget_keeps_records_in_every_shown_format_of_every_sample(sample):
    graph = load_sample(sample)
    budget = inspected_budget(complete_tokens(graph, "o200k_base"), SHOWN)
    for name in SHOWN:
        result = record_cut(graph, name, budget)
        assert 0 < result.records_kept < result.records_total, (sample, name, budget)


@pytest.mark.parametrize("sample", sample_names())
def test_sweep_budgets_span_the_complete_texts(sample):
    totals = complete_tokens(load_sample(sample), "o200k_base")
    budgets = sweep_budgets(totals)
    assert list(budgets) == sorted(set(budgets)) and len(budgets) >= 5
    assert budgets[0] <= min(totals.values()) / 2  # below the smallest complete text
    assert max(totals.values()) <= budgets[-1] <= max(totals.values()) * 1.1  # the largest one fits at the end


def test_a_large_graphs_budgets_reach_its_complete_texts():
    totals = complete_tokens(service_graph(400, 800, 7), "o200k_base")
    assert sweep_budgets(totals)[-1] >= max(totals.values()) > 32_768  # the fixed list stopped at 65,536 for all


def test_a_sample_brings_its_own_seeds_and_question():
    sample = get_sample("online-boutique")
    defaults = graph_defaults(load_sample(sample.name), sample)
    assert defaults.seeds == ("cartservice",) and defaults.query.name == "impact"
    assert defaults.query_arguments["relation"] == "calls" and "cartservice" in defaults.question


def test_a_samples_default_question_names_its_nodes_by_label():
    graph, sample = load_sample("nvidia-jetson"), get_sample("nvidia-jetson")
    defaults = graph_defaults(graph, sample)
    label = label_of(graph, "12")
    assert defaults.seeds == ("12",) and defaults.query_arguments["start"] == "12"
    assert defaults.question == f"Which nodes does {label} reach over depends_on edges in at most 3 hops?"
    matches = seeds_from_question(graph, defaults.question).matches
    assert (matches[0].text, matches[0].node_id, matches[0].matched_by) == (label, "12", "label")


def test_a_graph_without_a_sample_starts_from_its_first_node():
    graph = load_sample("tinkerpop-modern")
    defaults = graph_defaults(graph, None)
    assert defaults.seeds == (graph.nodes[0].id,)
    assert defaults.query.name == "dependencies_within" and defaults.query_arguments["start"] == graph.nodes[0].id


def test_a_sample_whose_seeds_are_missing_falls_back_to_the_first_node_with_an_answer():
    from core.queries.answerable import has_answer

    graph = service_graph(3, 0, 1)  # no db-identity here
    defaults = graph_defaults(graph, get_sample("online-boutique"))
    assert defaults.query.name == "dependencies_within" and has_answer(defaults.query, defaults.query.solve(graph))
    first = next(node.id for node in graph.nodes if node.id == defaults.seeds[0])
    earlier = [node.id for node in graph.nodes][:[node.id for node in graph.nodes].index(first)]
    assert all(not has_answer(query, query.solve(graph))
               for query in (defaults.query.__class__(defaults.query.template, (("start", node),)) for node in earlier))


def test_budget_text_reads_back():
    from core.budget.budget_list import parse_budgets

    assert parse_budgets(budget_text((10, 200, 3000))) == (10, 200, 3000)


def test_parameter_presets_follow_the_declared_kinds():
    from core.queries import QUERIES

    sample = get_sample("online-boutique")
    graph = load_sample(sample.name)
    defaults = graph_defaults(graph, sample)
    impact = parameter_presets(graph, QUERIES.get("impact"), defaults.seeds, defaults)
    assert impact == {"failed": "cartservice", "node_type": defaults.query_arguments["node_type"], "relation": "calls"}
    # another template: nodes from the seeds in order, a relation the graph lacks falls back to its most common
    owners = parameter_presets(graph, QUERIES.get("owners_of"), ("cartservice", "frontend", "ghost"), defaults)
    relations = Counter(edge.relation for edge in graph.edges)
    assert owners == {"nodes": ("cartservice", "frontend"), "relation": relations.most_common(1)[0][0]}
    assert parameter_presets(graph, QUERIES.get("dependencies_within"), (), defaults)["hops"] == 3


def test_parameter_choices_are_the_graphs_ids_relations_and_types():
    from core.queries import QUERIES

    graph = load_sample("online-boutique")
    impact = QUERIES.get("impact")
    assert parameter_choices(graph, impact, "failed") == [node.id for node in graph.nodes]
    assert parameter_choices(graph, impact, "relation") == sorted({edge.relation for edge in graph.edges})
    assert parameter_choices(graph, impact, "node_type") == sorted({node.type for node in graph.nodes})
    assert parameter_choices(graph, QUERIES.get("dependencies_within"), "hops") == []


def test_complete_tokens_of_some_formats_are_those_formats_figures_of_every_format():
    graph = load_sample("nvidia-jetson")
    every = complete_tokens(graph, "o200k_base")
    assert complete_tokens(graph, "o200k_base", SHOWN) == {name: every[name] for name in SHOWN}
    assert list(every) == FORMATS.names()


@pytest.mark.parametrize("sample", sample_names())
def test_every_samples_questions_name_their_seeds_and_leave_no_slot_empty(sample):
    """The default question finds the default seeds again, and every template's caption names the seeds by label
    (with the id where the node has a label) and has no empty slot ("What depends on ?" on the adversarial sample)."""
    from core.queries import QUERIES, query
    from core.queries.model import shown_name

    graph = load_sample(sample)
    defaults = graph_defaults(graph, get_sample(sample))
    assert seeds_from_question(graph, defaults.question).node_ids[:1] == defaults.seeds[:1]
    assert "  " not in defaults.question and " ?" not in defaults.question, defaults.question
    for name in QUERIES.names():
        template = QUERIES.get(name)
        bound = query(template, **parameter_presets(graph, template, defaults.seeds, defaults))
        text = bound.question_shown(graph)
        assert "  " not in text and " ?" not in text and " ," not in text and "None" not in text, text
        if template.node_parameters:
            assert shown_name(graph, defaults.seeds[0]) in bound.question_shown(graph)
    if label_of(graph, defaults.seeds[0]) != defaults.seeds[0]:  # nvidia-jetson: "Tensorrt (node 12)"
        assert f"{label_of(graph, defaults.seeds[0])} (node {defaults.seeds[0]})" in defaults.query.question_shown(graph)


@pytest.mark.parametrize("format_name", FORMATS.names())
def test_an_accounted_renderings_complete_text_fits_exactly_at_its_rendered_tokens(format_name):
    from core.analysis.session_defaults import rendered_tokens

    graph = load_sample("nvidia-jetson")
    tokenizer = TOKENIZERS.get("o200k_base")
    ordered = order_units(graph, hop_units(graph, ()), ORDERINGS.get("canonical"), "nodes_then_edges",
                          OrderingInputs())
    accounting = prefix_tokens(FORMATS.get(format_name).render(graph, ordered), tokenizer)
    total = rendered_tokens(accounting, FORMATS.get(format_name))
    assert total == tokenizer.count(accounting.rendering.text) + tokenizer.count(FORMATS.get(format_name).grammar)
    whole = cut(accounting, FORMATS.get(format_name), "record", total)
    assert whole.records_kept == len(accounting.rendering.records)  # the whole text fits at that budget
    assert cut(accounting, FORMATS.get(format_name), "record", total - 1).records_kept < whole.records_kept
