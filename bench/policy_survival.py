"""Evidence survival of every budget policy at the same budgets, over two samples' question sets.

    .venv/bin/python bench/policy_survival.py                       # reference-services and nvidia-jetson
    .venv/bin/python bench/policy_survival.py --questions 40        # an evenly spread subset of each set

Settings: each sample's own question set (seeds from the question text, as a deployed retriever has
them), formats csv and jsonl, orderings personalized_pagerank and hop_tiers, nodes_then_edges, the
prefix policies (raw, record), sections, and the selecting ones (density, knapsack, connected), at
budgets 128 ... 2,048 (o200k_base, grammar counted). Prints, per sample and budget, the mean evidence
survival and traversal accuracy of each policy over every (question, format, ordering) cut, and the
share of non-empty cuts that parse. Exact figures from core; not part of the test suite.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from core.analysis.suite import run_suite, settings_for
from core.budget import POLICIES
from core.io.samples import get_sample
from core.questions import load_questions

SAMPLES = ("reference-services", "nvidia-jetson")
BUDGETS = (128, 256, 512, 1024, 2048)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--questions", type=int, help="an evenly spread subset of this many questions per sample")
    arguments = parser.parse_args()
    settings = settings_for(("csv", "jsonl"), ("personalized_pagerank", "hop_tiers"), layouts=("nodes_then_edges",),
                            policies=POLICIES.names(), budgets=BUDGETS, seedings=("text",))
    for name in SAMPLES:
        sample = get_sample(name)
        graph = sample.load()
        questions = load_questions(sample.queries_path, graph)
        if arguments.questions:
            every = [question.id for question in questions.questions]
            step = max(1, len(every) // arguments.questions)
            questions = questions.subset(every[::step][:arguments.questions])
        rows = run_suite(graph, questions, settings, workers=1).rows
        table = rows.pivot_table(index="budget", columns="policy", values="evidence_survival", aggfunc="mean")
        accuracy = rows.pivot_table(index="budget", columns="policy", values="traversal_accuracy", aggfunc="mean")
        cut = rows[rows["tokens"] > 0]  # an empty cut (nothing fits, or a refused knapsack) says why instead
        parses = cut.groupby("policy")["parse_ok"].mean()
        order = [policy for policy in POLICIES.names() if policy in table.columns]
        count = len(questions.questions)
        print(f"\n{name}: {len(graph.nodes)} nodes, {len(graph.edges)} edges, {count} questions; mean evidence "
              f"survival (traversal accuracy) over {len(rows) // (len(order) * len(BUDGETS))} cuts per cell")
        print("| budget | " + " | ".join(order) + " |")
        print("|---:|" + "---:|" * len(order))
        for budget in table.index:
            print(f"| {budget:,} | " + " | ".join(f"{table.loc[budget, policy]:.1%} ({accuracy.loc[budget, policy]:.1%})"
                                                for policy in order) + " |")
        print("non-empty cuts that parse: " + ", ".join(f"{policy} {parses[policy]:.1%}" for policy in order))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
