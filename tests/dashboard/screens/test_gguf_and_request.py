"""A GGUF file's own tokenizer in the sidebar, what fits in the reader's request, and the whole request's parts."""

from __future__ import annotations

from core.analysis.request_anatomy import request_rows
from core.prompt.answers import schema_for
from core.tokens import TOKENIZERS
from tests.dashboard.conftest import on_page, started
from tests.llama_server import smollm2_path


def test_a_gguf_path_offers_and_picks_its_tokenizer_and_the_anatomy_shows_the_whole_request():
    app = started()
    app.sidebar.text_input(key="gguf_path").set_value(smollm2_path()).run()
    assert not app.exception, [item.value for item in app.exception]
    name = f"gguf:{smollm2_path()}"
    assert app.sidebar.selectbox(key="tokenizer").value == name
    assert name in app.sidebar.selectbox(key="tokenizer").options
    fits = [item.value for item in app.sidebar.caption if item.value.startswith("**What fits**")]
    assert fits and "window 8,192" in fits[0]
    app = on_page(app, "token_anatomy")
    table = app.dataframe[-1].value  # after the anatomy table
    assert (table["wrapper"] + table["frame"] + table["context"] == table["total"]).all()
    from core.io.samples import default_sample, load_sample
    graph = load_sample(default_sample().name)
    query = default_sample().default_query()
    rows = request_rows(name, TOKENIZERS.get(name), schema_for(query.name, query.solve(graph).answer),
                        query.question_on(graph), graph, list(table.index))
    assert table["total"].tolist() == [row["total"] for row in rows]


def test_a_path_that_is_no_gguf_file_is_explained_and_changes_nothing(tmp_path):
    app = started()
    before = app.sidebar.selectbox(key="tokenizer").value
    app.sidebar.text_input(key="gguf_path").set_value(str(tmp_path / "notes.txt")).run()
    assert not app.exception
    assert any("cannot read GGUF file" in item.value for item in app.sidebar.warning)
    assert app.sidebar.selectbox(key="tokenizer").value == before


def test_a_model_without_a_published_template_says_so_on_the_anatomy_page():
    app = started()
    app.sidebar.selectbox(key="model").set_value("claude").run()
    app = on_page(app, "token_anatomy")
    assert any("publishes no chat template" in item.value for item in app.info)
