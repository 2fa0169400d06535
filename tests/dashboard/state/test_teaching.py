"""The teaching sentences say what the numbers say."""

import pandas as pd

from dashboard.state.teaching import comparison_sentence, orderings_sentence


def frame(rows):
    return pd.DataFrame(rows, columns=["ordering", "budget", "evidence_survival"])


def test_the_leader_is_the_ordering_with_the_most_evidence_and_the_oracle_is_left_out():
    rows = [("canonical", 256, 0.45), ("hop_tiers", 256, 0.47), ("evidence_first", 256, 1.0),
            ("canonical", 512, 0.9), ("hop_tiers", 512, 0.6), ("evidence_first", 512, 1.0)]
    sentence = orderings_sentence(frame(rows))
    assert sentence.startswith("At 256 tokens") and "hop_tiers keeps the most (evidence survival 47%)" in sentence
    assert "canonical the least (45%)" in sentence and "evidence_first" not in sentence


def test_budgets_where_all_agree_are_skipped_and_equal_curves_say_so():
    rows = [("canonical", 100, 0.0), ("hop_tiers", 100, 0.0), ("canonical", 200, 0.9), ("hop_tiers", 200, 0.5)]
    assert orderings_sentence(frame(rows)).startswith("At 200 tokens, the first budget of the list where they "
                                                       "differ, canonical keeps the most (evidence survival 90%)")
    assert orderings_sentence(frame(rows[:2])).startswith("Every real ordering gives the same")


def test_the_comparison_says_ahead_or_behind_from_the_figures():
    rows = [("canonical", 256, 0.47), ("hop_tiers", 256, 0.45), ("canonical", 1024, 0.5), ("hop_tiers", 1024, 0.9)]
    sentence = comparison_sentence(frame(rows), "hop_tiers", "canonical")
    assert "at 256 tokens hop_tiers is behind canonical (45% vs 47%)" in sentence
    assert "at 1,024 tokens hop_tiers is ahead of canonical (90% vs 50%)" in sentence


def test_several_leaders_keep_in_the_plural():
    rows = [("canonical", 100, 0.5), ("hop_tiers", 100, 0.5), ("bfs_from_seeds", 100, 0.2)]
    assert "canonical, hop_tiers keep the most (evidence survival 50%)" in orderings_sentence(frame(rows))


def test_the_tight_budget_is_a_quarter_of_the_complete_texts_exact_tokens():
    from core.formats import FORMATS
    from core.graph.units import graph_units
    from core.io.generate import service_graph
    from core.tokens import TOKENIZERS
    from dashboard.state.teaching import tight_budget

    graph = service_graph(6, 4, 3)
    text = FORMATS.get("csv").render(graph, graph_units(graph)).text
    assert tight_budget(graph, "csv", "cl100k_base") == TOKENIZERS.get("cl100k_base").count(text) // 4 > 0


def test_the_walkthrough_plan_shows_each_steps_point_and_its_sentences_say_its_figures():
    from core.analysis.budget_sweep import budget_sweep
    from core.io.samples import load_sample
    from core.queries import QUERIES, Query
    from core.retrieval.seeds import Seeds
    from dashboard.state.teaching import step_sentences, walkthrough_plan

    graph = load_sample("reference-services")
    query = Query(QUERIES.get("dependencies_within"), (("hops", 2), ("relation", "depends_on"),
                                                        ("start", "svc-noise-0016")))
    plan = walkthrough_plan(graph, query, Seeds(("svc-noise-0016",)), "pretty_json", "o200k_base")
    _raw, canonical, tiers = plan.steps
    assert plan.shows_its_points and tiers.traversal_accuracy == 1  # accuracy is not 0 in every step
    # The figures are the sweep's at the plan's budget, measured apart.
    frame = budget_sweep(graph, query, Seeds(("svc-noise-0016",)), formats=["pretty_json"],
                         orderings=["canonical", "hop_tiers"], layout="nodes_then_edges", policies=["raw", "record"],
                         budgets=[plan.budget], tokenizer="o200k_base").set_index(["ordering", "policy"])
    for step in plan.steps:
        row = frame.loc[(step.ordering, step.policy)]
        assert (step.parse_ok, step.evidence_survival, step.traversal_accuracy) == (
            row["parse_ok"], row["evidence_survival"], row["traversal_accuracy"])
    first, second, third = step_sentences(plan, "pretty JSON")
    assert f"At {plan.budget:,} tokens" in first and "does not parse" in first
    assert f"it keeps {canonical.evidence_survival:.0%} of the evidence" in second and "parses" in second
    assert f"evidence survival {tiers.evidence_survival:.0%} (more than canonical's" in third
    assert f"D_{plan.hops}(S)" in third and "traversal accuracy 1" in third


def test_a_plan_whose_hop_tiers_keep_no_more_says_so():
    from dashboard.state.teaching import StepFigures, WalkthroughPlan, step_sentences

    level = StepFigures("hop_tiers", "record", True, 0.5, 0.0, 3, 9)
    plan = WalkthroughPlan(1_200, 2, (StepFigures("canonical", "raw", True, 0.5, 0.0, 3, 9),
                                      StepFigures("canonical", "record", True, 0.5, 0.0, 3, 9), level))
    assert not plan.shows_its_points
    first, _, third = step_sentences(plan, "CSV")
    assert "still parses" in first and "(as much as canonical's 50%)" in third
