"""Specs: names resolved once at the edge, every mistake refused before work starts, one key per rendering."""

from __future__ import annotations

import pytest

from core.errors import ParameterError, UnknownNameError
from core.formats import FORMATS
from core.io.samples import load_sample
from core.queries import IMPACT, query
from core.retrieval import ORDERINGS
from core.retrieval.seeds import Seeds
from core.specs import RenderingSpec, SweepSpec
from core.tokens import TOKENIZERS

GRAPH = load_sample("reference-services")
QUERY = query(IMPACT, failed="db-identity", node_type="service", relation="depends_on")


def test_a_rendering_spec_holds_the_objects_its_names_name():
    spec = RenderingSpec.from_names(GRAPH, "csv", ordering_name="hop_tiers", tokenizer_name="llama3",
                                    seeds=("db-identity",))
    assert spec.format is FORMATS.get("csv") and spec.ordering is ORDERINGS.get("hop_tiers")
    assert spec.tokenizer is TOKENIZERS.get("llama3") and spec.inputs.seeds == ("db-identity",)


@pytest.mark.parametrize("names, wrong", [
    (dict(format_name="nope"), "format"),
    (dict(format_name="csv", ordering_name="nope"), "ordering"),
    (dict(format_name="csv", tokenizer_name="nope"), "tokenizer"),
])
def test_an_unknown_name_is_refused_with_the_known_ones(names, wrong):
    with pytest.raises(UnknownNameError, match=f"unknown {wrong} 'nope'"):
        RenderingSpec.from_names(GRAPH, **names)


def test_seeds_change_the_key_only_where_the_rendering_depends_on_them():
    def key(format_name: str, ordering_name: str, seeds: tuple[str, ...]) -> tuple:
        return RenderingSpec.from_names(GRAPH, format_name, ordering_name=ordering_name, seeds=seeds).key

    assert key("csv", "canonical", ("svc-web",)) == key("csv", "canonical", ("db-identity",))
    assert key("csv", "hop_tiers", ("svc-web",)) != key("csv", "hop_tiers", ("db-identity",))
    assert FORMATS.get("local_ids").uses_hops  # prints hop levels: its text changes with the seeds in any order
    assert key("local_ids", "canonical", ("svc-web",)) != key("local_ids", "canonical", ("db-identity",))


def test_the_digest_is_a_stable_text_of_the_key():
    spec = RenderingSpec.from_names(GRAPH, "csv", ordering_name="evidence_first",
                                    evidence=frozenset({"n:b", "n:a", "e:a|x|b"}))
    same = RenderingSpec.from_names(GRAPH, "csv", ordering_name="evidence_first",
                                    evidence=frozenset({"e:a|x|b", "n:a", "n:b"}))
    other = RenderingSpec.from_names(GRAPH, "csv", ordering_name="evidence_first", evidence=frozenset({"n:a"}))
    assert spec.digest == same.digest != other.digest and len(spec.digest) == 32


def test_a_sweep_spec_defaults_to_every_registered_format_and_ordering_and_the_queries_seeds():
    spec = SweepSpec.from_names(GRAPH, [QUERY], budgets=[512])
    assert [format_.name for format_ in spec.formats] == FORMATS.names()
    assert [ordering.name for ordering in spec.orderings] == ORDERINGS.names()
    assert spec.seeds == QUERY.seeds and spec.named_queries == {QUERY.label: QUERY}


@pytest.mark.parametrize("options, message", [
    (dict(budgets=[]), "no budget was given"),
    (dict(budgets=[-1]), "budget -1 is not a whole number"),
    (dict(budgets=[True]), "budget True is not a whole number"),
    (dict(policy_names=["nope"]), "nope"),
    (dict(layouts=["sideways"]), "sideways"),
    (dict(direction="up"), "unknown direction 'up'"),
])
def test_a_sweep_spec_refuses_bad_settings_before_any_work(options, message):
    with pytest.raises(ParameterError, match=message):
        SweepSpec.from_names(GRAPH, [QUERY], **options)


def test_seed_orderings_without_seeds_are_refused():
    no_seeds = Seeds(())  # an empty seed set, as a question naming no node gives
    SweepSpec.from_names(GRAPH, [QUERY], seeds=no_seeds, ordering_names=["canonical"], budgets=[512])  # fine
    with pytest.raises(ParameterError, match="no seeds"):
        SweepSpec.from_names(GRAPH, [QUERY], seeds=no_seeds, ordering_names=["hop_tiers"], budgets=[512])
