"""Two controls mirroring one budget: a quick press wins over the other control's stale value, as in a browser."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from dashboard.state.mirrored_controls import Mirror, budget_range_top, needs_drawing, reconcile

LOW, HIGH = 0, 1_000
START = 500
# Values never repeat within a session, the starting one included: a value pressed again while a redraw of it is
# under way cannot be told from an echo (the limit of deciding from values alone; an arrow key moves on).
VALUES = st.integers(LOW, HIGH).filter(lambda value: value != START)


def test_three_quick_slider_presses_keep_the_last_one():
    # The browser sends 622, 623, 624 from the slider before any redraw of the number (still 621) arrives.
    mirror = Mirror(621)
    for pressed in (622, 623, 624):
        mirror = reconcile(mirror, pressed, 621, LOW, HIGH)
        assert mirror.drawn == pressed
    # the redraws arrive late and in order: the number echoes 622 and 623 before it shows 624
    for late in (622, 623):
        mirror = reconcile(mirror, 624, late, LOW, HIGH)
        assert mirror.drawn == 624
    mirror = reconcile(mirror, 624, 624, LOW, HIGH)
    assert mirror.drawn == 624 and mirror.moved is None  # caught up: nothing moved


def test_quick_presses_on_the_number_keep_the_last_one():
    mirror = Mirror(100)
    mirror = reconcile(mirror, 100, 101, LOW, HIGH)
    mirror = reconcile(mirror, 100, 102, LOW, HIGH)  # the slider still shows 100: an echo, not a move
    assert mirror.drawn == 102 and needs_drawing("slider", mirror) and not needs_drawing("number", mirror)


def test_a_press_back_to_an_earlier_value_is_the_users():
    mirror = reconcile(Mirror(621), 622, 621, LOW, HIGH)
    mirror = reconcile(mirror, 621, 621, LOW, HIGH)  # ArrowRight then ArrowLeft
    assert mirror.drawn == 621


def test_typing_twice_quickly_keeps_the_second_number():
    mirror = reconcile(Mirror(624), 624, 700, LOW, HIGH)
    mirror = reconcile(mirror, 624, 800, LOW, HIGH)  # the slider has not received 700 yet
    assert mirror.drawn == 800


def test_values_outside_the_range_are_ignored():
    assert reconcile(Mirror(5), 5_000, None, LOW, HIGH).drawn == 5
    assert reconcile(Mirror(5), None, -1, LOW, HIGH).drawn == 5


def browser_session(presses, delay):
    """A browser model: each press changes one control and sends both; the server's redraws reach the browser
    `delay` requests late, in order. Returns what both controls show once every redraw has arrived, the server's
    state, and the last value pressed."""
    shown = {"slider": START, "number": START}
    mirror, pending, last = Mirror(START), [], START
    for control, value in presses:
        if value == shown[control]:
            continue  # pressing a control to the value it shows sends nothing
        shown[control], last = value, value
        mirror = reconcile(mirror, shown["slider"], shown["number"], LOW, HIGH)
        pending.append({name: mirror.drawn for name in shown if needs_drawing(name, mirror)})
        while len(pending) > delay:
            shown.update(pending.pop(0))
    for redraw in pending:
        shown.update(redraw)
    return shown, mirror, last


PRESSES = st.lists(VALUES, min_size=1, max_size=12, unique=True).flatmap(
    lambda values: st.lists(st.sampled_from(["slider", "number"]), min_size=len(values), max_size=len(values)).map(
        lambda controls: list(zip(controls, values))))


@given(PRESSES, st.integers(0, 12))
def test_once_the_redraws_arrive_both_controls_show_what_the_server_keeps(presses, delay):
    shown, mirror, _ = browser_session(presses, delay)
    assert shown == {"slider": mirror.drawn, "number": mirror.drawn}
    assert reconcile(mirror, shown["slider"], shown["number"], LOW, HIGH).drawn == mirror.drawn  # a full run keeps it


@given(st.sampled_from(["slider", "number"]), st.lists(VALUES, min_size=1, max_size=12, unique=True),
       st.integers(0, 12))
def test_the_last_of_quick_presses_on_one_control_wins_however_late_the_redraws(control, values, delay):
    shown, mirror, last = browser_session([(control, value) for value in values], delay)
    assert mirror.drawn == last and shown == {"slider": last, "number": last}


def test_the_range_reaches_five_percent_past_the_largest_complete_text_in_hundreds():
    assert budget_range_top([950, 4_023]) == 4_300  # 4,224.15 rounded up to hundreds
    assert budget_range_top([10]) == 100 and budget_range_top([]) == 100
