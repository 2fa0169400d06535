"""The inspected budget, decided once per run, without Streamlit.

It comes from five places: a shared link's `budget`, the slider, the exact-number box, a click-through that asks
for one (a Pareto point, a failing question, the walkthrough, the way back), and the graph's own default (half
the cheapest shown format's complete text, never more than fits in one request). `decide` chooses among them
once per full run, `follow` once per fragment rerun (a page's budget controls moved); the sidebar draws the
choice and keeps it in the session. Which control the user moved, when the browser still sends the other's old
value, is dashboard.state.mirrored_controls's call.

A choice remembers the graph it was made for, so a sample switch whose run was cut short by a click still
starts the next run from the new graph's default (a flag set in one run and read in the next was lost then).
Before the first decision there is no budget: `None`, never a sentinel number.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace

from core.analysis.session_defaults import inspected_budget
from core.number_style import whole
from dashboard.state.mirrored_controls import Control, Mirror, budget_range_top, needs_drawing, reconcile

CONTROLS: tuple[Control, ...] = ("slider", "number")


@dataclass(frozen=True)
class Reports:
    """The whole numbers the browser sent for the two budget controls (None: not drawn, or not a number)."""

    slider: int | None = None
    number: int | None = None


@dataclass(frozen=True)
class BudgetChoice:
    """The budget shown for one graph: the value, its range, what both controls last drew, and why a link's
    budget was refused (said beside the controls until the budget changes)."""

    graph_key: str
    limit: int  # the top of the range: the largest shown complete text and 5% more (budget_range_top)
    mirror: Mirror
    refusal: str | None = None
    drawn: bool = False  # the controls show this decision: a later call in the session is a fragment rerun's

    @property
    def budget(self) -> int:
        return self.mirror.drawn

    def assigned(self) -> tuple[Control, ...]:
        """The controls to assign the budget before drawing them: both for a new decision (a full run may draw
        them anew, and a new control shows its default unless assigned), else those showing another value."""
        return CONTROLS if not self.drawn else tuple(name for name in CONTROLS if needs_drawing(name, self.mirror))


def graph_default(complete_tokens: Mapping[str, int], formats: Iterable[str], fits: int | None) -> int:
    """The graph's default budget: half the cheapest shown format's complete text, never above what fits in the
    reader's request with its answer (`fits`, when known)."""
    default = inspected_budget(dict(complete_tokens), list(formats))
    return min(default, fits) if isinstance(fits, int) and fits > 0 else default


def switched(previous: BudgetChoice | None, graph_key: str) -> bool:
    """Whether this run shows another graph than the last decision's (not the session's first graph)."""
    return previous is not None and previous.graph_key != graph_key


def decide(previous: BudgetChoice | None, graph_key: str, complete_tokens: Iterable[int], default: int,
           reports: Reports, url: str | None = None, wanted: int | None = None) -> BudgetChoice:
    """The full run's budget. In order: a click-through's `wanted` budget; the session's first run takes the
    link's `url` value when it is a whole number in range, else the default, saying why; another graph starts
    at its default; a budget outside a narrowed range (fewer formats shown) starts from the number box if in
    range, else the default; otherwise the user's move. Values the browser showed before a fresh start are
    echoes (it may send them once more before it shows the start)."""
    limit = budget_range_top(complete_tokens)
    if wanted is not None and 0 <= wanted <= limit:
        return _started(graph_key, limit, wanted, reports)
    if previous is None:
        budget, refusal = from_url(url, limit, default)
        return _started(graph_key, limit, budget, reports, refusal)
    if switched(previous, graph_key):
        return _started(graph_key, limit, default, reports)
    if not 0 <= previous.budget <= limit:
        number = reports.number
        return _started(graph_key, limit, number if number is not None and 0 <= number <= limit else default, reports)
    return _moved(previous, limit, reports)


def follow(choice: BudgetChoice, reports: Reports) -> BudgetChoice:
    """A fragment rerun's budget: the control the user moved, within the range the full run decided."""
    return _moved(choice, choice.limit, reports, drawn=True)


def from_url(url: str | None, limit: int, default: int) -> tuple[int, str | None]:
    """A link's budget when it is a whole number in [0, limit]; else the default, and why."""
    if url is None or url == "":
        return default, None
    try:
        value = int(url)
    except ValueError:
        return default, f"The link's budget “{url}” is not a whole number of tokens: the default, {whole(default)}, is shown."
    if 0 <= value <= limit:
        return value, None
    return default, (f"The link's budget {whole(value)} is outside this graph's range, 0 to {whole(limit)} tokens: "
                     f"the default, {whole(default)}, is shown.")


def _started(graph_key: str, limit: int, budget: int, reports: Reports, refusal: str | None = None) -> BudgetChoice:
    stale = frozenset({reports.slider, reports.number} - {None, budget})
    return BudgetChoice(graph_key, limit, Mirror(budget, stale, stale), refusal)


def _moved(previous: BudgetChoice, limit: int, reports: Reports, drawn: bool = False) -> BudgetChoice:
    mirror = reconcile(previous.mirror, reports.slider, reports.number, 0, limit)
    refusal = previous.refusal if mirror.drawn == previous.budget else None
    return replace(previous, limit=limit, mirror=mirror, refusal=refusal, drawn=drawn)
