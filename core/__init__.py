"""Graph Context Lab's Python API: measure what writing a graph into a prompt costs and loses.

    from core import RenderingSpec, Workbench, load_sample
    graph = load_sample("online-boutique")
    bench = Workbench()
    for format_name in ("pretty_json", "csv", "semantic_text"):
        print(format_name, bench.account(RenderingSpec.from_names(graph, format_name)).total, "tokens")

A spec names what to render (`RenderingSpec`) or sweep (`SweepSpec`), resolved against the registries;
the workbench runs the data flow on it and keeps what is worth keeping. Every error the lab raises on
purpose is a `GraphContextError` saying what is wrong, where, and how to fix it.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

# Each public name and the module it comes from, imported on first use (PEP 562): `import core.cli` (the
# command line's --help) must not pay for the formats, the tokenizers, pandas and the workbench.
_PUBLIC = {
    "FORMATS": "core.formats", "ORDERINGS": "core.retrieval", "QUERIES": "core.queries", "TOKENIZERS": "core.tokens",
    "Graph": "core.graph.model", "GraphContextError": "core.errors", "RenderingSpec": "core.specs",
    "SweepSpec": "core.specs", "Workbench": "core.workbench", "load_graph_file": "core.io.loading",
    "load_sample": "core.io.samples", "query": "core.queries", "read_question": "core.questions.reading",
    "load_questions": "core.questions", "SuiteSettings": "core.analysis.suite", "suite_settings": "core.analysis.suite",
    "AdviceSettings": "core.analysis.advisor",
}
_ALIASES = {"suite_settings": "settings_for"}  # a public name the module spells otherwise

if TYPE_CHECKING:  # what a type checker and an editor see
    from core.analysis.advisor import AdviceSettings
    from core.analysis.suite import SuiteSettings
    from core.analysis.suite import settings_for as suite_settings
    from core.errors import GraphContextError
    from core.formats import FORMATS
    from core.graph.model import Graph
    from core.io.loading import load_graph_file
    from core.io.samples import load_sample
    from core.queries import QUERIES, query
    from core.questions import load_questions
    from core.questions.reading import read_question
    from core.retrieval import ORDERINGS
    from core.specs import RenderingSpec, SweepSpec
    from core.tokens import TOKENIZERS
    from core.workbench import Workbench

__all__ = ["FORMATS", "ORDERINGS", "QUERIES", "TOKENIZERS", "AdviceSettings", "Graph", "GraphContextError",
           "RenderingSpec", "SuiteSettings", "SweepSpec", "Workbench", "load_graph_file", "load_questions",
           "load_sample", "query", "read_question", "suite_settings"]


def __getattr__(name: str) -> object:
    if name not in _PUBLIC:
        raise AttributeError(f"module 'core' has no attribute {name!r}")
    value = getattr(importlib.import_module(_PUBLIC[name]), _ALIASES.get(name, name))
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
