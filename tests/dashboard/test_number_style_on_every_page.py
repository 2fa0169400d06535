"""Every page's text in the one number style (core.number_style): no "4023", "0.8784", "875.222" or "6.3e-04".

Read in AppTest: titles, text, captions, alerts, metrics, and the values each table shows (its styler's display
values, the text the browser draws). Code blocks and JSON are the documents themselves and are not read.
"""

from __future__ import annotations

import re

import pyarrow as pa
import pytest

from core.number_style import unformatted_numbers
from tests.dashboard.conftest import on_page, started, unescaped

PAGES = ("overview", "contexts", "graph", "walkthrough", "advisor", "token_anatomy", "budget_survival", "orderings",
         "pareto", "question_set", "exports", "model_answers")


def shown_cells(table) -> list[str]:
    """The text a table shows: the styler's display values (dashboard.views.tables); a table drawn without the
    style has none, and its raw numbers would be drawn by the browser's own rules, so that is an offence too."""
    styler = table.proto.arrow_data.styler
    if not styler.display_values:
        frame = table.value
        numeric = [column for column in frame.columns if str(frame[column].dtype) not in ("object", "bool", "string")]
        return [f"table without the number style, numeric columns {numeric}"] if numeric else []
    shown = pa.ipc.open_stream(styler.display_values).read_pandas()
    return [str(value) for value in shown.to_numpy().ravel()]


def page_text(app) -> list[str]:
    texts = [item.value for kind in ("title", "header", "subheader", "markdown", "caption", "success", "info",
                                     "warning", "error") for item in getattr(app, kind)]
    texts += [f"{item.label}: {item.value}" for item in app.metric]
    for table in app.dataframe:
        texts += shown_cells(table)
    return texts


def prose(markdown: str) -> str:
    """Markdown as read, without its code spans (a command line's port is not a figure)."""
    return re.sub(r"`[^`]*`", "", unescaped(markdown))


@pytest.mark.parametrize("page", PAGES)
def test_every_figure_on_the_page_is_in_the_number_style(page, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # the Model answers page looks for run stores in the server's folder
    app = on_page(started(), page)
    offences = {text: found for text in page_text(app) if (found := unformatted_numbers(prose(text)))}
    assert offences == {}


# Figures that show only with other settings (issue 47): the sections policy's explanation on Contexts, with
# section limits of four digits ("1003 of 1012 edge-section tokens; nodes 20.0%, edges 26.7%" before).
SECTIONS = {"source": "generator", "generator": "services", "services_services": "300", "policy": "sections",
            "budget": "5000"}


@pytest.mark.parametrize("page", ["contexts", "budget_survival"])
def test_the_figures_other_settings_show_are_in_the_number_style(page, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    app = on_page(started(**SECTIONS), page)
    texts = page_text(app)
    assert page != "contexts" or any("1,000 node-section tokens" in unescaped(text) for text in texts)
    offences = {text: found for text in texts if (found := unformatted_numbers(prose(text)))}
    assert offences == {}


def test_code_spans_show_no_markdown_escape():
    """A code span shows its text as it is: escape_markdown inside one wrote `openai\\-chat` on Token anatomy."""
    app = on_page(started(), "token_anatomy")
    spans = [span for item in app.markdown for span in re.findall(r"`([^`]*)`", item.value)]
    assert spans and not [span for span in spans if "\\" in span]
    assert any(span == "openai-chat" for span in spans)

