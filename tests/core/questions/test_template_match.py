"""Slot values read back from template questions: the same values as the lazy regex, in linear time."""

from __future__ import annotations

import re
import string
import time

from hypothesis import given
from hypothesis import strategies as st

from core.queries import TEMPLATES
from core.questions.template_match import slot_values


def _lazy_regex(template_text: str) -> re.Pattern:
    """The reading this module replaces (kept here as the reference): a lazy group per slot."""
    parts = []
    for literal, name, _, _ in string.Formatter().parse(template_text):
        parts.append(re.escape(literal))
        if name is not None:
            parts.append(f"(?P<{name}>.*?)")
    return re.compile("".join(parts) + r"\Z", re.DOTALL)


def test_a_written_question_gives_back_its_values():
    assert slot_values("If {failed} fails, which nodes of type {node_type} are affected?",
                       "If db fails, which nodes of type service are affected?") == {"failed": "db",
                                                                                    "node_type": "service"}


def test_a_value_holding_the_next_literal_takes_the_shortest_reading_that_reaches_the_end():
    assert slot_values("{a} to {b}?", "x to y to z?") == {"a": "x", "b": "y to z"}
    assert slot_values("{a} to {b}!", "x to y?") is None


templates = st.sampled_from([template.question for template in TEMPLATES] + ["{a}{b}", "{a}", "ab", "{a}ab{b}a"])
pieces = st.lists(st.sampled_from(["a", "b", "ab", " to ", ", ", "?", " fails, ", "x", "If ", "What is ", ")"]),
                  max_size=8)


@given(template=templates, values=st.lists(pieces, min_size=5, max_size=5))
def test_the_values_are_those_of_the_lazy_regex(template, values):
    names = [name for _, name, _, _ in string.Formatter().parse(template) if name is not None]
    question = template.format(**{name: "".join(value) for name, value in zip(names, values)})
    expected = _lazy_regex(template).match(question)
    assert slot_values(template, question) == (expected.groupdict() if expected else None)


@given(template=templates, question=st.text(alphabet="ab ?,tofIWhisx()", max_size=40))
def test_the_values_of_any_text_are_those_of_the_lazy_regex(template, question):
    expected = _lazy_regex(template).match(question)
    assert slot_values(template, question) == (expected.groupdict() if expected else None)


def test_a_question_of_repeated_literals_is_read_in_linear_time():
    template = "Which nodes of type {node_type} are one {relation} edge away from {node} (direction: {direction})?"
    question = "Which nodes of type " + " are one  edge away from  (direction: " * 20_000 + "!"
    started = time.perf_counter()
    assert slot_values(template, question) is None
    assert time.perf_counter() - started < 1.0
