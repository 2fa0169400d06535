"""The advisor's ranking rule, written once: accuracy with its interval, then the budget that reaches it, then tokens.

A candidate (`Standing`) is ranked by
1. its accuracy over the question set (share answered exactly, with a 95% Wilson score interval);
2. the smallest budget swept at which it reaches that accuracy (`reach_budget`): what it costs to be
   that good, which the tokens used at a budget it fills (about the budget itself) do not tell;
3. the tokens it uses at that budget; then the policy whose cuts always parse, then by name.

Baselines (an ordering that is random, or that reads the answer) are ranked beside the rest but never
picked: a random order that wins once is luck, an oracle is an upper bound nobody can deploy.

Ties within noise: every candidate whose accuracy lies inside the most accurate one's interval could
be as good as it, so among those the pick is the cheapest (reach budget, then tokens). The verdict is
`tied` when the pick and the runner-up (the best in another format) have overlapping intervals, or the
set has fewer questions than it takes to separate their accuracies (`questions_to_separate`); the
advice then says so and names the number of questions it rests on.

Pure functions of the figures: the advisor and the dashboard share them.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from core.evaluate import statistics

SEPARATION_LIMIT = 100_000  # questions; beyond this two accuracies count as never separable


def wilson_interval(correct: int, questions: int) -> tuple[float, float]:
    """The 95% Wilson score interval of `correct` out of `questions` (0 questions: the whole [0, 1]), as
    core.evaluate.statistics computes it for every other interval the lab shows."""
    return (0.0, 1.0) if questions <= 0 else statistics.wilson_bounds(correct, questions)


def intervals_overlap(first: tuple[float, float], second: tuple[float, float]) -> bool:
    return first[0] <= second[1] and second[0] <= first[1]


def questions_to_separate(first: float, second: float, limit: int = SEPARATION_LIMIT) -> int | None:
    """The fewest questions at which accuracies `first` and `second` (shares) have disjoint Wilson intervals;
    None when they are equal (no number of questions separates them) or it takes more than `limit`."""
    if first == second:
        return None

    def apart(questions: int) -> bool:
        return not intervals_overlap(wilson_interval(round(first * questions), questions),
                                     wilson_interval(round(second * questions), questions))

    # A scan, not a halving: with counts rounded to whole questions, separation is not monotone in the count.
    return next((questions for questions in range(1, limit + 1) if apart(questions)), None)


@dataclass(frozen=True)
class Standing:
    """One candidate's figures over the question set, as ranked."""

    name: str  # what identifies it, e.g. "csv (hop_tiers, nodes_then_edges, record)"
    family: str  # the runner-up is the best standing of another family (the format)
    correct: int  # questions answered exactly
    questions: int
    reach_budget: int  # the smallest budget swept at which it reaches its accuracy
    tokens: float  # mean budgeted tokens at the reach budget
    baseline: bool = False  # a random or oracle ordering: shown, never picked
    preference: int = 0  # lower first on equal figures (a policy whose cuts always parse)

    @property
    def accuracy(self) -> float:
        return self.correct / self.questions if self.questions else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson_interval(self.correct, self.questions)


def rank_key(standing: Standing) -> tuple:
    """Accuracy (highest first), then the budget that reaches it, then tokens, then policy, then name."""
    return (-standing.accuracy, standing.reach_budget, standing.tokens, standing.preference, standing.name)


def cost_key(standing: Standing) -> tuple:
    """Among standings tied within noise: the budget that reaches their accuracy, then tokens, then accuracy."""
    return (standing.reach_budget, standing.tokens, -standing.accuracy, standing.preference, standing.name)


@dataclass(frozen=True)
class Verdict:
    pick: Standing
    runner_up: Standing | None  # the best standing of another family, in the same order
    most_accurate: Standing  # the first by accuracy alone (the pick when nothing is tied with it)
    tied: bool  # the pick and the runner-up cannot be told apart on this many questions
    questions: int
    questions_to_separate: int | None  # how many it would take to separate the pick from the runner-up
    order: tuple[Standing, ...]  # every non-baseline standing, the pick first
    baselines: tuple[Standing, ...]  # the baselines, ranked by the same rule

    @property
    def picked_by_cost(self) -> bool:
        """Whether the pick is cheaper but less accurate than the most accurate standing."""
        return self.pick.accuracy < self.most_accurate.accuracy


def choose(standings: Iterable[Standing]) -> Verdict:
    """The pick, the runner-up and whether they are tied within noise (see the module's rule)."""
    every = list(standings)
    candidates = sorted((standing for standing in every if not standing.baseline), key=rank_key)
    baselines = tuple(sorted((standing for standing in every if standing.baseline), key=rank_key))
    if not candidates:
        raise ValueError("no candidate that is not a baseline to choose from")
    top = candidates[0]
    low, high = top.interval
    within = sorted((standing for standing in candidates if low <= standing.accuracy <= high), key=cost_key)
    rest = [standing for standing in candidates if not low <= standing.accuracy <= high]
    order = tuple(within + rest)
    pick = order[0]
    runner_up = next((standing for standing in order[1:] if standing.family != pick.family), None)
    questions = max((standing.questions for standing in order), default=0)
    separate = None if runner_up is None else questions_to_separate(pick.accuracy, runner_up.accuracy)
    tied = runner_up is not None and (intervals_overlap(pick.interval, runner_up.interval)
                                      or separate is None or questions < separate)
    return Verdict(pick, runner_up, top, tied, questions, separate, order, baselines)


def reach_budget(accuracy_by_budget: Iterable[tuple[int, float]], accuracy: float) -> int:
    """The smallest budget whose accuracy is at least `accuracy` (the budgets' own figures, exact shares)."""
    reached = [budget for budget, value in accuracy_by_budget if value >= accuracy - 1e-12]
    if not reached:
        raise ValueError(f"no budget reaches an accuracy of {accuracy}")
    return min(reached)
