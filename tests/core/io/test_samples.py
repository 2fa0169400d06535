"""The sample catalogue: every entry loads with its stated size, keeps its licence, and round-trips in every format."""

from __future__ import annotations

import json

import pytest

from core.errors import GraphError, UnknownNameError
from core.io import export_format_names, load_graph, save_graph
from core.io.generate import service_graph, transport_graph
from core.io.samples import CATALOGUE, SAMPLES_DIRECTORY, default_sample, get_sample, sample_names, samples
from core.io.saving import LOSSY_EXPORTS

NAMES = sample_names()
# Every one-file export (registered lossless formats included); the CKG CSV holds learning graphs only.
EXPORTS = [name for name in export_format_names() if name not in LOSSY_EXPORTS]
# Exports that refuse a sample with a GraphError saying why (GEXF cannot tell a label equal to the id
# from no label).
REFUSED_EXPORTS = {("adversarial", "gexf"): "a label that repeats its id"}
HOSTILE_TEXTS = ["|", ",", '"', "\n", "\\", "->", "é", "🕸", "<|endoftext|>", "<img src=x onerror=alert(1)>",
                 "<script>"]


def test_the_catalogue_lists_the_promised_samples_with_one_default():
    assert NAMES == ["reference-services", "online-boutique", "deathstarbench-hotelreservation", "nvidia-jetson",
                     "tinkerpop-modern", "transport", "adversarial"]
    assert default_sample().name == "reference-services" and sum(sample.default for sample in samples()) == 1


@pytest.mark.parametrize("name", NAMES)
def test_each_sample_loads_with_its_stated_size_and_says_where_it_comes_from(name):
    sample = get_sample(name)
    graph = sample.load()
    assert (len(graph.nodes), len(graph.edges)) == (sample.nodes, sample.edges)
    assert sample.title and sample.story and sample.teaches and sample.source and sample.licence
    assert sample.path.is_file()
    readme = (SAMPLES_DIRECTORY / "README.md").read_text(encoding="utf-8")
    assert f"`{name}`" in readme


@pytest.mark.parametrize("name", [sample.name for sample in samples() if sample.query_template])
def test_a_natural_question_has_seeds_in_the_graph_and_an_answer(name):
    sample = get_sample(name)
    graph = sample.load()
    assert sample.seeds and all(seed in graph.node_by_id for seed in sample.seeds)
    assert sample.default_query().solve(graph).answer


def test_copied_data_keeps_its_licence_and_derivation_notes():
    assert (SAMPLES_DIRECTORY / "online-boutique" / "LICENSE").read_text().lstrip().startswith("Apache License")
    for folder in ("online-boutique", "deathstarbench-hotelreservation"):
        assert (SAMPLES_DIRECTORY / folder / "DERIVATION.md").is_file()
    licences = {sample.name: sample.licence for sample in samples()}
    assert licences["nvidia-jetson"].startswith("CC BY 4.0") and licences["tinkerpop-modern"] == "Apache-2.0"


def test_the_jetson_sample_brings_its_query_file():
    path = get_sample("nvidia-jetson").queries_path
    lines = path.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 164 and json.loads(lines[0])["domain"] == "nvidia-jetson"


def test_generated_samples_match_their_generators():
    assert get_sample("reference-services").load() == service_graph(40, 80, 7)
    transport = get_sample("transport").load()
    assert transport == transport_graph(4, 8, 3, 0.25, 7) and transport.schema == transport_graph().schema


def test_the_adversarial_sample_holds_every_hostile_text():
    graph = get_sample("adversarial").load()
    ids_and_labels = [node.id for node in graph.nodes] + [dict(node.properties).get("label", "") for node in graph.nodes]
    for text in HOSTILE_TEXTS:
        assert any(text in value for value in ids_and_labels), text


@pytest.mark.parametrize("name, format", [(name, format) for name in NAMES for format in EXPORTS
                                          if format != "learning-graph" or name == "nvidia-jetson"])
def test_import_export_import_keeps_the_canonical_hash(name, format):
    graph = get_sample(name).load()
    if (name, format) in REFUSED_EXPORTS:
        with pytest.raises(GraphError, match=REFUSED_EXPORTS[(name, format)]):
            save_graph(graph, format)
        return
    again = load_graph(save_graph(graph, format).encode("utf-8"), name=f"{name}.out", format=format)
    assert again.sha256 == graph.sha256


def test_an_unknown_sample_lists_the_known_ones():
    with pytest.raises(UnknownNameError, match="reference-services, online-boutique"):
        get_sample("karate-club")


def test_the_catalogue_file_is_plain_json_with_the_documented_fields():
    entries = json.loads(CATALOGUE.read_text(encoding="utf-8"))["samples"]
    required = {"name", "title", "story", "teaches", "size", "source", "licence", "file", "loader"}
    assert all(required <= set(entry) for entry in entries)
