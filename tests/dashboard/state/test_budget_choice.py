"""The inspected budget through a session: a link opens it, the user types and slides, pages and graphs change."""

from __future__ import annotations

from dataclasses import dataclass, replace

from hypothesis import assume, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from core.number_style import whole
from dashboard.state.budget_choice import BudgetChoice, Reports, decide, follow, graph_default, switched
from dashboard.state.mirrored_controls import Mirror, budget_range_top
from tests.hypothesis_profiles import examples


@dataclass(frozen=True)
class Graph:
    key: str
    complete: int  # the one shown format's complete text, in tokens

    @property
    def limit(self) -> int:
        return budget_range_top([self.complete])

    @property
    def default(self) -> int:
        return graph_default({"shown": self.complete}, ["shown"], None)


GRAPHS = st.builds(Graph, st.text("abcdef", min_size=1, max_size=3), st.integers(10, 5_000))
LINKS = st.one_of(st.none(), st.integers(-50, 6_000).map(str), st.sampled_from(["", "abc", "12.5", "1e3"]))


class BudgetSession(RuleBasedStateMachine):
    """One browser session against the server's choice. The browser shows what the server assigned once a run
    ends; each request sends what both controls show. Values the user picks never repeat (a value the browser
    may still echo cannot be told from a press: dashboard.state.mirrored_controls's limit)."""

    def __init__(self):
        super().__init__()
        self.choice: BudgetChoice | None = None
        self.graph: Graph | None = None
        self.shown = Reports()
        self.expected = 0
        self.used: set[int] = set()

    def full_run(self, reports: Reports, url: str | None = None, wanted: int | None = None) -> None:
        previous = self.choice
        self.choice = decide(previous, self.graph.key, [self.graph.complete], self.graph.default, reports, url, wanted)
        self.draw()

    def fragment_run(self, reports: Reports) -> None:
        self.choice = follow(self.choice, reports)
        self.draw()

    def draw(self) -> None:
        drawn = {"slider": self.shown.slider, "number": self.shown.number}
        drawn.update(dict.fromkeys(self.choice.assigned(), self.choice.budget))
        self.shown = Reports(**drawn)
        self.choice = replace(self.choice, drawn=True)

    def fresh(self, data, low: int = 0) -> int:
        value = data.draw(st.integers(low, self.graph.limit))
        assume(value not in self.used)
        self.used.add(value)
        return value

    @initialize(graph=GRAPHS, link=LINKS)
    def open_a_link(self, graph, link):
        self.graph = graph
        self.used.add(graph.default)
        self.full_run(Reports(), url=link)
        valid = link is not None and link.lstrip("-").isdigit() and 0 <= int(link) <= graph.limit
        self.expected = int(link) if valid else graph.default
        self.used.add(self.expected)
        if link in (None, "") or valid:
            assert self.choice.refusal is None
        else:  # refused, and said so: which value, and what is shown instead
            assert link in self.choice.refusal.replace(",", "") and whole(graph.default) in self.choice.refusal

    @rule(graph=GRAPHS)
    def switch_the_graph(self, graph):
        assume(graph.key != self.graph.key and graph.default not in self.used)
        old = self.shown
        self.graph = graph
        self.used.add(graph.default)
        self.full_run(old)  # the browser still shows the last graph's budget
        assert self.choice.budget == graph.default and self.choice.refusal is None
        self.full_run(old)  # and may send it once more before the redraw arrives: an echo, not a move
        self.expected = graph.default

    @rule(data=st.data(), in_fragment=st.booleans())
    def type_a_budget(self, data, in_fragment):
        self.expected = self.fresh(data)
        self.shown = replace(self.shown, number=self.expected)  # the browser shows the press, and sends it
        self.fragment_run(self.shown) if in_fragment else self.full_run(self.shown)

    @rule(data=st.data(), in_fragment=st.booleans())
    def slide(self, data, in_fragment):
        self.expected = self.fresh(data)
        self.shown = replace(self.shown, slider=self.expected)  # the browser shows the press, and sends it
        self.fragment_run(self.shown) if in_fragment else self.full_run(self.shown)

    @rule(sends=st.sampled_from(["nothing", "what it shows"]))
    def switch_the_page(self, sends):
        # another page draws new controls: the browser sends no value for them, or what the old ones showed
        self.full_run(Reports() if sends == "nothing" else self.shown)

    @rule(data=st.data())
    def click_through(self, data):
        self.expected = self.fresh(data)
        self.full_run(self.shown, wanted=self.expected)

    @precondition(lambda self: self.choice is not None)
    @invariant()
    def the_budget_is_the_last_one_asked_for_and_both_controls_show_it(self):
        assert self.choice.budget == self.expected
        assert 0 <= self.choice.budget <= self.choice.limit
        assert self.shown == Reports(self.choice.budget, self.choice.budget)


TestBudgetSession = BudgetSession.TestCase
TestBudgetSession.settings = settings(max_examples=examples(100, 50), stateful_step_count=20)  # ~2 s


def test_a_sample_switch_cut_short_still_starts_the_next_run_at_the_new_graphs_default():
    # The switch's run ended before the budget was decided (a click on Contexts interrupted it): the next run,
    # on the new graph, still sees a choice made for the old one
    old = decide(None, "old", [4_000], 961, Reports())
    assert switched(old, "new") and not switched(old, "old") and not switched(None, "new")
    new = decide(replace(old, drawn=True), "new", [600], 268, Reports(961, 961))
    assert new.budget == 268 and new.mirror.slider_echoes == new.mirror.number_echoes == frozenset({961})


def test_a_narrowed_range_keeps_a_number_in_it_else_takes_the_default():
    wide = replace(decide(None, "graph", [8_000], 512, Reports(), url="7000"), drawn=True)
    assert wide.budget == 7_000
    assert decide(wide, "graph", [1_000], 400, Reports(7_000, 900)).budget == 900
    assert decide(wide, "graph", [1_000], 400, Reports(7_000, 7_000)).budget == 400


def test_a_click_through_budget_outside_the_range_is_not_taken():
    choice = replace(decide(None, "graph", [1_000], 500, Reports()), drawn=True)
    assert decide(choice, "graph", [1_000], 500, Reports(500, 500), wanted=99_999).budget == 500


def test_a_refusal_is_said_until_the_budget_changes():
    refused = replace(decide(None, "graph", [1_000], 500, Reports(), url="99999"), drawn=True)
    assert refused.refusal == ("The link's budget 99,999 is outside this graph's range, 0 to 1,100 tokens: the "
                               "default, 500, is shown.")
    assert decide(refused, "graph", [1_000], 500, Reports(500, 500)).refusal == refused.refusal
    assert decide(refused, "graph", [1_000], 500, Reports(600, 500)).refusal is None


def test_a_new_decision_assigns_both_controls_and_a_fragment_only_the_one_not_pressed():
    choice = decide(None, "graph", [1_000], 500, Reports())
    assert choice.assigned() == ("slider", "number")
    moved = follow(replace(choice, drawn=True), Reports(500, 640))
    assert moved.budget == 640 and moved.assigned() == ("slider",)
    assert isinstance(moved.mirror, Mirror)
