"""The sample graphs of `sample_graphs/`: their catalogue (story, lesson, size, source, licence) and loading."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from core.errors import LoadError, UnknownNameError
from core.graph.model import Graph
from core.io.limits import DEFAULT_LIMITS, Limits
from core.io.loading import load_graph_file
from core.io.options import LoadOptions
from core.queries import QUERIES, Query, query

SAMPLES_DIRECTORY = Path(__file__).resolve().parents[2] / "sample_graphs"
CATALOGUE = SAMPLES_DIRECTORY / "catalogue.json"


@dataclass(frozen=True)
class Sample:
    """One catalogue entry. Paths are relative to `sample_graphs/`."""

    name: str
    title: str
    story: str  # one line: what the graph is
    teaches: str  # one or two sentences: what it shows about writing graphs into prompts
    nodes: int
    edges: int
    source: str
    licence: str
    file: str
    format: str
    options: LoadOptions
    nodes_file: str | None = None  # the nodes table of an edge-list sample
    seeds: tuple[str, ...] = ()
    query_template: str | None = None
    query_arguments: tuple[tuple[str, object], ...] = ()
    queries_file: str | None = None  # a file of ready-made questions (the CKG benchmark's)
    default: bool = False

    @property
    def path(self) -> Path:
        return SAMPLES_DIRECTORY / self.file

    @property
    def queries_path(self) -> Path | None:
        return SAMPLES_DIRECTORY / self.queries_file if self.queries_file else None

    def load(self, limits: Limits = DEFAULT_LIMITS) -> Graph:
        nodes_path = SAMPLES_DIRECTORY / self.nodes_file if self.nodes_file else None
        return load_graph_file(self.path, format=self.format, options=self.options, limits=limits,
                               nodes_path=nodes_path)

    def default_query(self) -> Query | None:
        """The sample's natural question, bound to its arguments, if it has one."""
        if self.query_template is None:
            return None
        return query(QUERIES.get(self.query_template), **dict(self.query_arguments))


@lru_cache(maxsize=1)
def samples() -> tuple[Sample, ...]:
    """Every sample, in catalogue order."""
    try:
        entries = json.loads(CATALOGUE.read_text(encoding="utf-8"))["samples"]
        return tuple(_sample(entry) for entry in entries)
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise LoadError(f"the sample catalogue cannot be read: {error}", str(CATALOGUE),
                        "restore sample_graphs/catalogue.json from the repository") from None


def _sample(entry: dict) -> Sample:
    loader = dict(entry["loader"])
    unknown = sorted(set(loader) - {"format", "nodes", "options"})
    if unknown:
        raise ValueError(f"sample {entry['name']!r} has unknown loader keys {unknown}")
    query_entry = entry.get("query") or {}
    return Sample(
        name=entry["name"], title=entry["title"], story=entry["story"], teaches=entry["teaches"],
        nodes=entry["size"]["nodes"], edges=entry["size"]["edges"], source=entry["source"],
        licence=entry["licence"], file=entry["file"], format=loader["format"], nodes_file=loader.get("nodes"),
        options=LoadOptions.from_mapping(loader.get("options", {})), seeds=tuple(entry.get("seeds", ())),
        query_template=query_entry.get("template"),
        query_arguments=tuple(sorted(_hashable(query_entry.get("arguments", {})).items())),
        queries_file=entry.get("queries_file"), default=bool(entry.get("default", False)),
    )


def _hashable(arguments: dict) -> dict:
    return {key: tuple(value) if isinstance(value, list) else value for key, value in arguments.items()}


def sample_names() -> list[str]:
    return [sample.name for sample in samples()]


def get_sample(name: str) -> Sample:
    for sample in samples():
        if sample.name == name:
            return sample
    raise UnknownNameError(f"unknown sample graph {name!r}", "sample name", f"use one of: {', '.join(sample_names())}")


def default_sample() -> Sample:
    return next(sample for sample in samples() if sample.default)


def load_sample(name: str, limits: Limits = DEFAULT_LIMITS) -> Graph:
    return get_sample(name).load(limits)
