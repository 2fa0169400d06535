"""The walkthrough tells the truth after any sample: "Show me" sets everything its lesson depends on, and the
panel's figures are the ones its sentences state."""

from __future__ import annotations

import pytest

from core.formats import FORMATS
from core.io.samples import default_sample, sample_names
from core.number_style import share
from core.retrieval.seeds import Seeds
from dashboard.state.teaching import walkthrough_plan
from tests.dashboard.conftest import metric, on_page, started

OTHER_SAMPLES = [name for name in sample_names() if name != default_sample().name]


@pytest.mark.parametrize("sample", OTHER_SAMPLES)
def test_show_me_after_another_sample_draws_the_figures_the_text_states(sample):
    from core.io.samples import load_sample
    from dashboard.screens import walkthrough

    plan = walkthrough_plan(load_sample(default_sample().name), walkthrough.QUERY, Seeds((walkthrough.SEED,)),
                            FORMATS.names()[0], "o200k_base")
    app = started(sample=sample)
    app.sidebar.selectbox(key="ordering").set_value("bfs_from_seeds").run()
    on_page(app, "walkthrough")
    for number, figures in enumerate(plan.steps, start=1):
        app.button(key=f"step_{number}").click().run()
        assert not app.exception, [item.value for item in app.exception]
        assert app.sidebar.selectbox(key="sample").value == default_sample().name
        assert app.sidebar.number_input(key="budget").value == plan.budget
        assert metric(app, "Evidence survival") == [share(figures.evidence_survival)]
        assert metric(app, "Traversal accuracy") == [share(figures.traversal_accuracy)]
        assert metric(app, "Records kept / total") == [f"{figures.records_kept:,} / {figures.records_total:,}"]
        assert not [item for item in app.error if "do not match" in item.value]
        assert [item for item in app.caption if f"Step {number}, as its sentence states" in item.value]
