"""The dashboard in AppTest: every page on every sample, figures equal to core's, URL state, hostile input."""

from __future__ import annotations

import re

import pytest

from core.errors import LoadError
from core.formats import FORMATS
from core.graph.units import graph_units
from core.io import load_graph
from core.io.samples import default_sample, load_sample, sample_names
from core.number_style import share
from core.specs import RenderingSpec
from core.tokens import TOKENIZERS
from core.workbench import Workbench
from dashboard.sidebar import OWN_FORMATS_NOTE
from dashboard.views.graph_html import inner_page
from tests.dashboard.conftest import metric, on_page, started, unescaped

PAGES = ("overview", "contexts", "graph", "walkthrough")
PANEL_METRICS = ("Tokens used / budget", "Records kept / total", "Parses", "Evidence survival", "Traversal accuracy")
BILLION_LAUGHS = (b'<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">'
                  b'<!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]>'
                  b'<graphml><graph edgedefault="directed"><node id="&lol2;"/></graph></graphml>')


def expected_figures(format_name: str, ordering: str, policy: str, budget: int) -> tuple[str, ...]:
    """What a Contexts panel must show for the default sample (its seeds and query): the workbench's figures of the
    cut read from its decoded text, and its tokens counted by the tokenizer itself (the page reads the cut from its
    kept units: tests/core/metrics/test_inspected_cut.py checks that reading against the decoded document)."""
    sample = default_sample()
    graph, query = load_sample(sample.name), sample.default_query()
    spec = RenderingSpec.from_names(graph, format_name, ordering_name=ordering, seeds=sample.seeds,
                                    evidence=query.solve(graph).evidence, question=query.question_on(graph))
    bench = Workbench()
    result, metrics = bench.cut(spec, budget, policy_name=policy), bench.measure(spec, budget, query,
                                                                                policy_name=policy)
    counted = spec.tokenizer.count(result.text) + spec.tokenizer.count(spec.format.grammar)
    assert counted == metrics.budgeted_tokens  # the tokenizer's own count of the kept text, grammar included
    return (f"{counted:,} / {budget:,}", f"{metrics.records_kept:,} / {metrics.records_total:,}",
            "yes" if metrics.parse_ok else "no", f"{metrics.evidence_survival:.0%}",
            share(metrics.traversal_accuracy))


@pytest.mark.parametrize("sample", sample_names())
def test_every_page_runs_on_every_sample(sample):
    app = started(sample=sample)
    assert not app.exception and app.sidebar.selectbox(key="sample").value == sample
    for page in PAGES:
        on_page(app, page)
    assert not app.error


def test_the_overview_shows_exact_counts_and_marks_the_cheapest_lossless_format():
    app = started()
    table = app.dataframe[0].value
    graph = load_sample(default_sample().name)
    tokenizer = TOKENIZERS.get("o200k_base")
    counts = {name: tokenizer.count(FORMATS.get(name).render(graph, graph_units(graph)).text) for name in FORMATS}
    assert table["tokens"].to_dict() == counts  # the tokenizer's own count of each complete text
    lossless = [name for name in FORMATS if FORMATS.get(name).lossless]
    assert (table.loc[lossless, "round trip"] == "✓ exact").all() and table["lossless"].to_dict() == {
        name: name in lossless for name in FORMATS}
    lossy = table.loc[[name for name in FORMATS if name not in lossless], "round trip"]
    assert not lossy.str.startswith("✓").any() and lossy.str.contains("lossy").all()  # never read as a success
    assert f"**{min(lossless, key=counts.get)}**" in app.markdown[0].value


def test_switching_the_tokenizer_changes_the_counts():
    app = started()
    before = app.dataframe[0].value["tokens"].tolist()
    app.sidebar.selectbox(key="tokenizer").set_value("cl100k_base").run()
    assert app.dataframe[0].value["tokens"].tolist() != before


def test_contexts_show_core_figures_after_every_change():
    app = on_page(started(), "contexts")
    first, second = FORMATS.names()[:2]

    def check(formats, ordering, policy, budget):
        shown = list(zip(*(metric(app, label) for label in PANEL_METRICS)))
        assert len(shown) == len(formats)
        for panel, format_name in zip(shown, formats):
            assert panel == expected_figures(format_name, ordering, policy, budget), format_name

    app.main.slider(key="budget_slider").set_value(700).run()
    check([first, second], "canonical", "record", 700)
    before = metric(app, "Tokens used / budget")
    app.main.slider(key="budget_slider").set_value(1300).run()
    assert metric(app, "Tokens used / budget") != before
    check([first, second], "canonical", "record", 1300)
    app.main.multiselect(key="formats").set_value([second]).run()  # on this page, above its panels
    check([second], "canonical", "record", 1300)
    app.sidebar.selectbox(key="ordering").set_value("hop_tiers").run()
    check([second], "hop_tiers", "record", 1300)
    app.sidebar.button_group(key="policy").set_value("raw").run()
    check([second], "hop_tiers", "raw", 1300)
    app.main.number_input(key="budget").set_value(321).run()
    assert app.main.slider(key="budget_slider").value == 321
    check([second], "hop_tiers", "raw", 321)


def test_contexts_choose_their_formats_on_the_page_and_other_pages_in_the_sidebar():
    app = on_page(started(formats=["jsonl", "csv"]), "contexts")
    assert app.main.multiselect(key="formats").value == ["jsonl", "csv"]
    assert "formats" not in [widget.key for widget in app.sidebar.multiselect]
    assert any(caption.value == OWN_FORMATS_NOTE for caption in app.sidebar.caption)
    assert [subheader.value for subheader in app.subheader] == ["jsonl · record", "csv · record"]
    app.main.multiselect(key="formats").set_value(["toon"]).run()
    on_page(app, "walkthrough")  # the choice made on Contexts is the sidebar's on every other page
    assert app.sidebar.multiselect(key="formats").value == ["toon"]
    assert "formats" not in [widget.key for widget in app.main.multiselect]
    assert app.session_state["selection"].formats == ("toon",)


def test_one_format_under_both_policies_shows_core_figures():
    app = on_page(started(budget="900"), "contexts")
    app.button_group(key="compare").set_value("policies").run()
    first = FORMATS.names()[0]
    shown = list(zip(*(metric(app, label) for label in PANEL_METRICS)))
    assert [subheader.value for subheader in app.subheader][:2] == [f"{first} · raw", f"{first} · record"]
    for panel, policy in zip(shown, ("raw", "record")):
        assert panel == expected_figures(first, "canonical", policy, 900)


def test_url_parameters_set_the_widgets():
    app = started(tokenizer="cl100k_base", budget="777", formats=["jsonl", "csv"], ordering="hop_tiers",
                  policy="raw", sample="transport")
    assert app.sidebar.selectbox(key="tokenizer").value == "cl100k_base"
    assert app.sidebar.slider(key="budget_slider").value == 777
    assert app.sidebar.multiselect(key="formats").value == ["jsonl", "csv"]
    assert app.sidebar.selectbox(key="ordering").value == "hop_tiers"
    assert app.sidebar.button_group(key="policy").value == "raw"
    assert app.sidebar.selectbox(key="sample").value == "transport"


def test_bogus_url_parameters_fall_back_to_the_defaults():
    defaults = started()
    app = started(tokenizer="no-such-tokenizer", budget="-5", formats=["no-such-format"], ordering="sideways",
                  policy="maybe", sample="missing", source="ftp", seeds=["ghost"])
    assert not app.exception
    for kind, key in (("selectbox", "tokenizer"), ("number_input", "budget"), ("multiselect", "formats"),
                      ("selectbox", "ordering"), ("button_group", "policy"), ("selectbox", "sample"),
                      ("button_group", "source"), ("multiselect", "seeds")):
        assert getattr(app.sidebar, kind)(key=key).value == getattr(defaults.sidebar, kind)(key=key).value, key


def test_a_budget_beyond_the_range_falls_back_to_the_default():
    assert started(budget="99999999").sidebar.slider(key="budget_slider").value == started().sidebar.slider(key="budget_slider").value


def core_error(data: bytes, name: str) -> str:
    with pytest.raises(LoadError) as raised:
        load_graph(data, name=name)
    return str(raised.value)


def test_a_hostile_upload_shows_the_core_error_and_keeps_the_previous_graph():
    app = started()
    graph_caption = app.caption[0].value
    app.sidebar.button_group(key="source").set_value("upload").run()
    app.sidebar.file_uploader(key="upload_file").set_value(("lol.graphml", BILLION_LAUGHS, "application/xml")).run()
    assert not app.exception and len(app.error) == 1
    assert core_error(BILLION_LAUGHS, "lol.graphml") in unescaped(app.error[0].value)
    assert app.caption[0].value == graph_caption  # the reference sample is still loaded
    assert app.dataframe[0].value.shape[0] == len(FORMATS)


def test_an_error_naming_a_hostile_file_stays_text():
    name = "![x](http://example.com/p.png) <img src=x onerror=alert(1)>.graphml"
    app = started(source="upload")
    app.sidebar.file_uploader(key="upload_file").set_value((name, b"<graphml><node", "application/xml")).run()
    message = app.error[0].value
    assert core_error(b"<graphml><node", name) in unescaped(message)
    assert "](http" not in message and "<img" not in message.replace("\\<img", "")


def test_a_yed_upload_loads_and_says_once_what_was_skipped():
    """D22: a yFiles for HTML / yEd Live file loads; the skipped graphics are named in one caption line."""
    from pathlib import Path

    data = (Path(__file__).parents[1] / "data" / "yed" / "yfiles_for_html.graphml").read_bytes()
    app = started(source="upload")
    app.sidebar.file_uploader(key="upload_file").set_value(("diagram.graphml", data, "application/xml")).run()
    assert not app.exception and not app.error
    notices = [caption.value for caption in app.sidebar.caption if "skipped" in caption.value]
    assert len(notices) == 1 and unescaped(notices[0]).startswith("diagram.graphml: skipped yEd/yFiles graphics")
    app.run()  # a rerun serves the cached graph and still shows the notice
    assert len([caption for caption in app.sidebar.caption if "skipped" in caption.value]) == 1


def test_an_upload_headed_by_many_comments_loads_at_once():
    """D1: a GraphML upload whose head was 24 comment lines stalled the server 22.7 s for every session."""
    import time

    head = "<?xml version='1.0' ?>\n" + "<!-- a comment line of a public sample's header block -->\n" * 80
    data = (head + '<graphml xmlns="http://graphml.graphdrawing.org/xmlns"><graph edgedefault="directed">'
            '<node id="a"/><node id="b"/><edge source="a" target="b"/></graph></graphml>\n').encode()
    app = started(source="upload")
    started_at = time.perf_counter()
    app.sidebar.file_uploader(key="upload_file").set_value(("routes.dat", data, "application/xml")).run()
    assert not app.exception and not app.error
    assert time.perf_counter() - started_at < 60  # the page's whole run; detection itself takes under 1 ms
    assert "upload: routes.dat" in unescaped(app.caption[0].value)


def test_bad_generator_parameters_show_the_error_and_keep_the_previous_graph():
    app = started(source="generator", generator="transport")
    graph_caption = app.caption[0].value
    assert "generated transport: lines 4" in unescaped(graph_caption) and not app.error
    app.sidebar.number_input(key="transport_lines").set_value(50).run()
    assert not app.exception and app.error
    assert "lines" in app.error[0].value
    assert app.caption[0].value == graph_caption


def data_section(page: str) -> str:
    return "\n".join(re.findall(r"new vis\.DataSet\((.*?)\);", page, re.S))


def test_the_graph_of_the_adversarial_sample_is_inert_and_offline():
    app = on_page(started(sample="adversarial"), "graph")
    outer = app.get("iframe")[0].proto.srcdoc
    assert "<script" not in outer.lower()  # the outer frame runs nothing; the picture runs scripts-only sandboxed
    assert re.search(r'<iframe[^>]* sandbox="allow-scripts" ', outer)
    page = inner_page(outer)
    data = data_section(page)
    assert data
    for marker in ("<img", "<script", "onerror="):
        assert marker not in data.lower()
    assert not re.search(r"""(?:src|href)\s*=\s*["']?\s*(?:https?:)?//""", page, re.I)
    assert "bootstrap" not in page


def test_the_walkthrough_sets_the_sidebar_step_by_step():
    from core.retrieval.seeds import Seeds
    from dashboard.screens import walkthrough
    from dashboard.state.teaching import walkthrough_plan

    plan = walkthrough_plan(load_sample(default_sample().name), walkthrough.QUERY, Seeds((walkthrough.SEED,)),
                            FORMATS.names()[0], "o200k_base")
    app = on_page(started(), "walkthrough")
    for number, (policy, ordering) in enumerate((("raw", "canonical"), ("record", "canonical"),
                                                 ("record", "hop_tiers")), start=1):
        app.button(key=f"step_{number}").click().run()
        assert not app.exception
        assert app.sidebar.button_group(key="policy").value == policy
        assert app.sidebar.selectbox(key="ordering").value == ordering
        assert app.sidebar.button_group(key="seed_mode").value == "nodes"
        assert app.sidebar.multiselect(key="seeds").value == [walkthrough.SEED]
        assert app.sidebar.multiselect(key="formats").value == [FORMATS.names()[0]]
        assert app.sidebar.number_input(key="budget").value == plan.budget
    assert app.sidebar.selectbox(key="query").value == "dependencies_within"
    assert app.sidebar.number_input(key="q_hops").value == 2


@pytest.mark.parametrize("sample", sample_names())
def test_each_sample_opens_with_its_own_defaults(sample):
    from core.analysis.session_defaults import (
        budget_text,
        complete_tokens,
        graph_defaults,
        inspected_budget,
        sweep_budgets,
    )
    from core.io.samples import get_sample

    graph = load_sample(sample)
    defaults = graph_defaults(graph, get_sample(sample))
    totals = complete_tokens(graph, "o200k_base")
    app = started(sample=sample)
    assert app.sidebar.multiselect(key="seeds").value == list(defaults.seeds)
    assert app.sidebar.selectbox(key="query").value == defaults.query.name
    assert app.sidebar.number_input(key="budget").value == inspected_budget(totals, FORMATS.names()[:2])
    assert app.sidebar.text_input(key="budgets").value == budget_text(sweep_budgets(totals))


def test_switching_the_sample_in_a_session_takes_the_new_samples_defaults():
    from core.analysis.session_defaults import complete_tokens, graph_defaults, inspected_budget
    from core.io.samples import get_sample

    app = started()
    app.sidebar.slider(key="budget_slider").set_value(900).run()
    app.sidebar.selectbox(key="sample").set_value("online-boutique").run()
    graph = load_sample("online-boutique")
    defaults = graph_defaults(graph, get_sample("online-boutique"))
    assert app.sidebar.multiselect(key="seeds").value == ["cartservice"]
    assert app.sidebar.selectbox(key="query").value == defaults.query.name == "impact"
    assert app.sidebar.selectbox(key="q_relation").value == "calls"
    budget = inspected_budget(complete_tokens(graph, "o200k_base"), FORMATS.names()[:2])
    assert app.sidebar.number_input(key="budget").value == budget != 900


@pytest.mark.parametrize("page", ["contexts", "graph", "walkthrough", "budget_survival", "pareto"])
def test_the_glossary_is_reachable_from_every_page(page):
    from dashboard.sidebar import GLOSSARY_LABEL
    from dashboard.state.glossary import GLOSSARY

    app = on_page(started(), page)
    glossary = [item for item in app.sidebar.expander if item.label == GLOSSARY_LABEL]
    assert len(glossary) == 1
    text = "\n".join(item.value for item in glossary[0].markdown)
    assert all(f"**{term}**" in text for term in GLOSSARY)


def test_a_typed_question_drives_the_query_it_evaluates():
    app = started(seed_mode="question")
    assert app.sidebar.selectbox(key="query").value == "impact_owners"
    app.sidebar.text_input(key="question").set_value("What is the shortest path from svc-web to db-identity?").run()
    assert app.sidebar.selectbox(key="query").value == "shortest_path"
    assert app.sidebar.selectbox(key="q_source").value == "svc-web"
    assert app.sidebar.selectbox(key="q_target").value == "db-identity"
    app.sidebar.text_input(key="question").set_value("What does svc-api depend on within 2 hops?").run()
    assert app.sidebar.selectbox(key="query").value == "dependencies_within"
    assert app.sidebar.selectbox(key="q_start").value == "svc-api"
    assert app.sidebar.number_input(key="q_hops").value == 2
    app.sidebar.text_input(key="question").set_value("Tell me about svc-auth").run()
    assert app.sidebar.selectbox(key="query").value == "t1_entity"
    app.sidebar.text_input(key="question").set_value("Is svc-auth healthy?").run()  # no reading: said, query kept
    assert app.sidebar.selectbox(key="query").value == "t1_entity" and not app.exception
    assert any("could not be read as a query" in item.value for item in app.sidebar.warning)


def test_the_walkthrough_states_the_figures_it_computed():
    from core.retrieval.seeds import Seeds
    from dashboard.screens import walkthrough
    from dashboard.state.teaching import step_sentences, walkthrough_plan

    app = on_page(started(), "walkthrough")
    first = FORMATS.names()[0]
    plan = walkthrough_plan(load_sample(default_sample().name), walkthrough.QUERY, Seeds((walkthrough.SEED,)),
                            first, "o200k_base")
    captions = [unescaped(item.value) for item in app.caption]
    for sentence in step_sentences(plan, FORMATS.get(first).title):
        assert sentence in captions
    steps = app.dataframe[0].value  # the steps table comes first
    assert steps["evidence survival"].tolist() == [step.evidence_survival for step in plan.steps]
    assert steps["traversal accuracy"].tolist() == [step.traversal_accuracy for step in plan.steps]


def test_the_server_collects_garbage_at_the_sweeps_thresholds():
    """At Python's default thresholds a 2,000-service graph's first open spent 1.9 s in full collections that
    freed almost nothing; the app sets the sweeps' thresholds for its process."""
    import gc

    from core.execution.workers import SWEEP_THRESHOLDS

    before = gc.get_threshold()
    gc.set_threshold(700, 10, 10)
    try:
        started(sample="transport")
        assert gc.get_threshold() == SWEEP_THRESHOLDS
    finally:
        gc.set_threshold(*before)
