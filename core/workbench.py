"""The front door: the data flow as methods over specs, and the one owner of the renderings the flow keeps.

    bench = Workbench()
    spec = RenderingSpec.from_names(graph, "csv", tokenizer_name="llama3")
    bench.account(spec).counts[-1]                      # exact tokens of the complete text
    bench.measure(spec, 512, query).evidence_survival   # what a 512-token cut keeps of the query's evidence

The dashboard keeps one workbench per session, the CLI one per command, a test a fresh one. Every
stage below is a pure function of its inputs; what is worth keeping between calls (accounted
renderings, bounded by the bytes of their texts) is kept here, under the spec's key.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from functools import partial

import pandas as pd

from core.analysis import advisor, answer_contexts, budget_sweep, format_anatomies, format_markers, suite
from core.analysis.audit import Audit, audit_context, question_reading
from core.analysis.count_caps import CapCost, count_caps
from core.analysis.estimator_error import EstimatorError, estimator_error
from core.analysis.prefix_stability import DEFAULT_EDITS, PrefixStability, prefix_stability
from core.analysis.sweep import sweep
from core.analysis.token_anatomy import Anatomy
from core.analysis.tokenizer_comparison import sweep_over_tokenizers
from core.budget import DEFAULT_POLICIES
from core.budget.policies import Cut, cut
from core.budget.sections import DEFAULT_SECTIONS, Sections
from core.formats.base import Format, Rendering, forget_records
from core.graph.model import Graph
from core.io.limits import DEFAULT_LIMITS, Limits
from core.memory.rendering_cache import DEFAULT_CACHE_BYTES, RenderingCache, rendering_cache
from core.metrics.coverage import seed_region
from core.metrics.cut_metrics import CutMetrics, decode_cut, measure_cut
from core.metrics.cut_reading import index_ahead
from core.metrics.inspected_cut import inspected_metrics
from core.pipeline import accounted_rendering, rendering_units
from core.prompt.context import Context
from core.queries import Query, Solution
from core.queries.answerable import require_answer
from core.questions import QuestionSet
from core.retrieval.seeds import Seeds
from core.specs import DEFAULT_TOKENIZER_NAME, RenderingSpec, SweepSpec
from core.tokens import TOKENIZERS
from core.tokens.prefix_tokens import PrefixTokens
from core.tokens.protocol import Tokenizer

Progress = Callable[[int, int, str], None]  # (done, in all, what)


class Workbench:
    """Render, account, cut, measure, sweep, run suites, advise, build answer contexts, price count caps and weigh
    token estimators, from specs."""

    def __init__(self, renderings: RenderingCache | None = None) -> None:
        """`renderings`: where accounted renderings are kept (default: up to DEFAULT_CACHE_BYTES, least recently
        used first out); the dashboard gives one that keeps what a page read in the last minutes."""
        self.renderings = renderings if renderings is not None else rendering_cache(DEFAULT_CACHE_BYTES)

    # One rendering at a time.

    def account(self, spec: RenderingSpec) -> PrefixTokens:
        """The rendering with the exact token count of every record prefix (built once per spec key)."""
        return accounted_rendering(spec, cache=self.renderings)

    def account_many(self, specs: Sequence[RenderingSpec]) -> list[PrefixTokens]:
        """`account` of each spec. Those neither kept nor being built are made at the same time: all but the last
        each in a thread of its own (`account_in_background`), the last here."""
        new = self._unbuilt(specs)
        elsewhere = {spec.key for spec in self.account_in_background(new[:-1])} if len(new) > 1 else set()
        for spec in new:  # those made here first; then those made elsewhere are waited for
            if spec.key not in elsewhere:
                accounting = self.account(spec)
                if elsewhere:  # while the others are counted
                    _index_ahead(spec, accounting.rendering)
        return [self.account(spec) for spec in specs]

    def account_in_background(self, specs: Sequence[RenderingSpec]) -> list[RenderingSpec]:
        """Start accounting the specs neither kept nor being built, each in a thread of its own that renders it,
        counts it and indexes it for reading (`index_ahead`), and return those started, at once: from now on,
        `account` of one of them waits for it rather than build it.

        Why threads: rendering holds the GIL, but tiktoken's encode lets go of it (0.14), so one rendering is
        counted while another is made. A forked counting process made each rendering twice and sent its counts
        back, for more CPU and a slower first open (the performance page compares the two)."""
        new = self._unbuilt(specs)
        for spec in new:  # made once, here: threads that render one graph at once would each make them
            rendering_units(spec)
        started = []
        for spec in new:
            build = self.renderings.claim(spec.key)
            if build is not None:
                threading.Thread(target=build, args=(partial(_accounted_and_indexed, spec),), daemon=True).start()
                started.append(spec)
        return started

    def _unbuilt(self, specs: Sequence[RenderingSpec]) -> list[RenderingSpec]:
        cache = self.renderings
        return list({spec.key: spec for spec in specs if spec.key not in cache and not cache.building(spec.key)}
                    .values())

    def render(self, spec: RenderingSpec) -> Rendering:
        return self.account(spec).rendering

    def cut(self, spec: RenderingSpec, budget: int, *, policy_name: str = "record", count_grammar: bool = True,
            marker: bool = False, sections: Sections = DEFAULT_SECTIONS) -> Cut:
        """What of the rendering survives `budget` tokens under the policy."""
        return cut(self.account(spec), spec.format, policy_name, budget, count_grammar=count_grammar, marker=marker,
                   sections=sections)

    def measure(self, spec: RenderingSpec, budget: int, query: Query, *, policy_name: str = "record",
                count_grammar: bool = True, marker: bool = False, hops: int = 2) -> CutMetrics:
        """Every metric of the cut for the query, from its decoded text (the proof path, one cut at a time)."""
        result = self.cut(spec, budget, policy_name=policy_name, count_grammar=count_grammar, marker=marker)
        gold = query.solve(spec.graph)
        candidates = _candidate_keys(spec, hops)
        return measure_cut(result, query, gold, decode_cut(result, spec.format), candidates=candidates)

    def measure_cut(self, spec: RenderingSpec, result: Cut, query: Query, gold: Solution | None = None) -> CutMetrics:
        """`measure` of a cut of the spec's rendering already made (a page's), the document read from its kept units
        where the format allows and remembered per record prefix on the accounting (`core.metrics.inspected_cut`):
        quick enough for every budget step on a large graph. Without candidate recall; `gold`: the query's answer
        on the graph, when the caller has it."""
        gold = gold if gold is not None else query.solve(spec.graph)
        return inspected_metrics(result, spec.format, self.account(spec), spec.graph, query, gold)

    # Many cuts.

    def sweep(self, spec: SweepSpec, *, progress: Progress | None = None, workers: int | None = None,
              verify: bool = False, metrics_from: str = "kept") -> pd.DataFrame:
        """One row per (query, format, ordering, layout, policy, budget) cut (`core.analysis.sweep`)."""
        return sweep(spec, progress=progress, cache=self.renderings, workers=workers, verify=verify,
                     metrics_from=metrics_from)

    def sweep_over_tokenizers(self, spec: SweepSpec, tokenizer_names: Sequence[str], *,
                              progress: Progress | None = None, workers: int | None = None) -> pd.DataFrame:
        return sweep_over_tokenizers(spec, tokenizer_names, progress=progress, cache=self.renderings,
                                     workers=workers)

    def budget_sweep(self, graph: Graph, query: Query, seeds: Seeds, *, formats: Sequence[str],
                     orderings: Sequence[str], layout: str, policies: Sequence[str] = DEFAULT_POLICIES,
                     budgets: Sequence[int] = budget_sweep.DEFAULT_BUDGET_LIST, tokenizer: str = DEFAULT_TOKENIZER_NAME,
                     progress: Progress | None = None, workers: int = 1) -> pd.DataFrame:
        """The analysis pages' sweep: one query, each format in a layout it can show."""
        return budget_sweep.budget_sweep(graph, query, seeds, formats=formats, orderings=orderings, layout=layout,
                                         policies=policies, budgets=budgets, tokenizer=tokenizer, progress=progress,
                                         workers=workers, cache=self.renderings)

    def prefix_stability(self, spec: SweepSpec, edits: int = DEFAULT_EDITS, edit_seed: int = 0, *,
                         progress: Progress | None = None) -> PrefixStability:
        """What a prompt cache keeps of each rendering (formats x orderings x layouts) after each of `edits` edits to
        the graph drawn from `edit_seed` (`core.analysis.prefix_stability`); the originals come from this cache."""
        return prefix_stability(spec, edits, edit_seed, cache=self.renderings, progress=progress)

    def suite(self, graph: Graph, question_set: QuestionSet, settings: suite.SuiteSettings, *,
              engine: str = "local", workers: int | None = None, ray_address: str | None = None,
              progress: Progress | None = None) -> suite.SuiteResult:
        """A question set over formats and budgets; each task keeps its own renderings where it runs."""
        return suite.run_suite(graph, question_set, settings, engine=engine, workers=workers, ray_address=ray_address,
                               progress=progress)

    def advise(self, graph: Graph, queries: Sequence[Query], settings: advisor.AdviceSettings, *,
               seeds: Sequence[str] | None = None, progress: Progress | None = None) -> advisor.Advice:
        return advisor.advise(graph, queries, settings, seeds=seeds, progress=progress, cache=self.renderings)

    def advise_set(self, graph: Graph, question_set: QuestionSet, settings: advisor.AdviceSettings, *,
                   workers: int | None = 1, progress: Progress | None = None) -> advisor.Advice:
        return advisor.advise_set(graph, question_set, settings, workers=workers, progress=progress)

    def answer_contexts(self, graph: Graph, queries: Sequence[Query], options: answer_contexts.SweepOptions, *,
                        seeds: Seeds | Sequence[str] | None = None, progress: Progress | None = None
                        ) -> tuple[list[Context], pd.DataFrame]:
        """The sweep's rows and the kept text of each cut, to ask a model about."""
        return answer_contexts.sweep_contexts(graph, queries, options, seeds=seeds, progress=progress,
                                              cache=self.renderings)

    def format_markers(self, graph: Graph, query: Query, seeds: Seeds, *, formats: Sequence[str], ordering: str,
                       layout: str, tokenizer: str = DEFAULT_TOKENIZER_NAME, hops: int = 2,
                       progress: Progress | None = None) -> pd.DataFrame:
        """Per format: D_k(S) and the full text's budgeted tokens (the analysis pages' markers)."""
        return format_markers.format_markers(graph, query, seeds, formats=formats, ordering=ordering, layout=layout,
                                             tokenizer=tokenizer, hops=hops, progress=progress, cache=self.renderings)

    def format_anatomies(self, graph: Graph, query: Query, seeds: Seeds, *, formats: Sequence[str], ordering: str,
                         layout: str, tokenizer: str, budget: int | None = None, policy: str = "record",
                         marker: bool = False, progress: Progress | None = None) -> list[Anatomy]:
        """Each format's token anatomy, of its complete text (budget None) or of its cut at the budget."""
        return format_anatomies.format_anatomies(graph, query, seeds, formats=formats, ordering=ordering,
                                                 layout=layout, tokenizer=tokenizer, budget=budget, policy=policy,
                                                 marker=marker, progress=progress, cache=self.renderings)

    def count_caps(self, spec: SweepSpec, caps: Sequence[int], *, kind: str = "edges",
                   tokenizer_names: Sequence[str] | None = None) -> tuple[CapCost, ...]:
        """What a cap of N edges, nodes or records costs in each of the spec's formats, per tokenizer: exact tokens in
        the seed-anchored order and their spread over the spec's orderings (`core.analysis.count_caps`)."""
        return count_caps(spec, caps, kind=kind, tokenizer_names=tokenizer_names, cache=self.renderings)

    def estimator_error(self, specs: Sequence[RenderingSpec]) -> list[EstimatorError]:
        """chars/4, chars/3 and words × 1.3 beside the exact tokens of each spec's complete text
        (`core.analysis.estimator_error`; `complete_text_specs` gives the benchmark's texts)."""
        return [estimator_error(self.account(spec)) for spec in specs]

    def audit(self, target: RenderingSpec | Graph, context: str, format_: Format | None = None, *,
              tokenizer: Tokenizer | None = None, question: str | Query | None = None, source: str = "context",
              limits: Limits = DEFAULT_LIMITS) -> Audit:
        """A context another pipeline built, audited against a graph (`core.analysis.audit`): from a spec (its
        graph, format and tokenizer) or a graph with `format_` (and `tokenizer`, default the lab's). A question's
        text is read by the lab's one reader of questions; a query without an answer on the graph is refused."""
        if isinstance(target, RenderingSpec):
            graph, format_, tokenizer = target.graph, target.format, tokenizer or target.tokenizer
        else:
            graph = target
            if format_ is None:
                raise TypeError("audit of a graph needs the context's format")
        tokenizer = tokenizer or TOKENIZERS.get(DEFAULT_TOKENIZER_NAME)
        query, reading = question if isinstance(question, Query) else None, ""
        if isinstance(question, str):
            read = question_reading(graph, question)
            query, reading = read.query, read.sentence(graph)
        elif query is not None:
            require_answer(query, graph)
        return audit_context(graph, context, format_, tokenizer, query=query, reading=reading, source=source,
                             limits=limits)

    def clear(self) -> None:
        """Forget every kept rendering (a test's fresh start, or memory given back)."""
        self.renderings.clear()

    def forget(self, graph: Graph, format_name: str | None = None) -> int:
        """Let go of the records the formats keep on `graph` (`core.formats.base.record_memo`), in `format_name` or
        in every format; the number of records let go. For one-off work on a large graph (every format's complete
        text measured once): a format no page shows would otherwise hold hundreds of MB of records with the graph."""
        return forget_records(graph, format_name)


def _candidate_keys(spec: RenderingSpec, hops: int) -> frozenset[str]:
    if not spec.inputs.seeds:
        return frozenset()
    return frozenset(seed_region(spec.graph, spec.inputs.seeds, spec.inputs.direction).candidate_keys(hops))


def _accounted_and_indexed(spec: RenderingSpec) -> PrefixTokens:
    accounting = accounted_rendering(spec)
    _index_ahead(spec, accounting.rendering)
    return accounting


def _index_ahead(spec: RenderingSpec, rendering: Rendering) -> None:
    index_ahead(rendering, spec.format, spec.graph)
