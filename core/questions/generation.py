"""Question sets generated from a template over the graph, seeded, so the same spec gives the same set.

A spec is `TEMPLATE[:key=value,...]`:
- one-node templates (impact, t1_entity, ...): every node, or `type=T` every node of type T;
  `count=N` draws N of them at random;
- two-node templates (t3_prerequisite_path, t5_relation, shortest_path): pairs whose second node is
  reached from the first over the template's relation in `distance=A-B` steps (default 1-5), `count=N`
  drawn at random (default 50; fewer when fewer pairs exist);
- `seed=S` seeds the draw (default 0); any other key is a template parameter (`relation=calls`).
Examples: `impact:type=database`, `t3_prerequisite_path:count=50,distance=1-5,seed=7`.
A generated question's hop depth is the pair's distance (pairs) or 0 (one node).
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

from core.errors import ParameterError
from core.graph.model import Graph
from core.queries import TEMPLATES, Query, QueryTemplate, query
from core.registry import Registry

# For pair templates: which parameter is the walk's first node, which its last (T3 walks concept -> start).
PAIR_ROLES = {"t3_prerequisite_path": ("concept", "start"), "t5_relation": ("first", "second"),
              "shortest_path": ("source", "target")}
GENERATOR_KEYS = ("type", "count", "distance", "seed")


@dataclass(frozen=True)
class GenerationSpec:
    template: QueryTemplate
    node_type: str | None = None
    count: int | None = None
    distance: tuple[int, int] = (1, 5)
    seed: int = 0
    fixed: tuple[tuple[str, str], ...] = ()  # other template parameters, as given

    @property
    def text(self) -> str:
        parts = [f"type={self.node_type}"] if self.node_type else []
        parts += [f"count={self.count}"] if self.count is not None else []
        parts += [f"distance={self.distance[0]}-{self.distance[1]}"] if self.template.name in PAIR_ROLES else []
        parts += [f"seed={self.seed}", *(f"{key}={value}" for key, value in self.fixed)]
        return f"{self.template.name}:{','.join(parts)}"


def parse_spec(text: str) -> GenerationSpec:
    """`TEMPLATE[:key=value,...]` as a GenerationSpec; unknown templates or keys are refused by name."""
    name, _, given = text.strip().partition(":")
    templates = {template.name: template for template in TEMPLATES}
    if name.strip() not in templates:
        raise ParameterError(f"unknown query template {name.strip()!r}", f"--generate {text}",
                             f"start the spec with one of: {', '.join(templates)}")
    template = templates[name.strip()]
    values: dict[str, str] = {}
    for pair in filter(None, (part.strip() for part in given.split(","))):
        key, separator, value = pair.partition("=")
        if not separator or not value.strip():
            raise ParameterError(f"{pair!r} is not key=value", f"--generate {text}",
                                 f"write e.g. {template.name}:count=50,seed=7")
        values[key.strip()] = value.strip()
    unknown = sorted(set(values) - set(GENERATOR_KEYS) - set(template.parameters))
    if unknown:
        raise ParameterError(f"unknown key(s) {', '.join(unknown)}", f"--generate {text}",
                             f"use {', '.join(GENERATOR_KEYS)} or a parameter of {template.name}: "
                             f"{', '.join(template.parameters)}")
    return GenerationSpec(template, values.get("type"), _number(values, "count", text), _distance(values, text),
                          _number(values, "seed", text) or 0,
                          tuple(sorted((key, value) for key, value in values.items() if key not in GENERATOR_KEYS)))


def _number(values: dict[str, str], key: str, text: str) -> int | None:
    if key not in values:
        return None
    try:
        number = int(values[key])
    except ValueError:
        raise ParameterError(f"{key}={values[key]!r} is not a whole number", f"--generate {text}",
                             f"write e.g. {key}=50") from None
    if number < 0:
        raise ParameterError(f"{key}={number} is negative", f"--generate {text}", "give 0 or more")
    return number


def _distance(values: dict[str, str], text: str) -> tuple[int, int]:
    low, _, high = values.get("distance", "1-5").partition("-")
    try:
        bounds = (int(low), int(high or low))
    except ValueError:
        raise ParameterError(f"distance={values['distance']!r} is not A-B", f"--generate {text}",
                             "write e.g. distance=1-5") from None
    if bounds[0] < 1 or bounds[1] < bounds[0]:
        raise ParameterError(f"distance={values['distance']} is not a range of 1 or more steps",
                             f"--generate {text}", "write e.g. distance=1-5")
    return bounds


def _fixed_arguments(spec: GenerationSpec) -> dict[str, object]:
    """The parameters given in the spec, a number where the template declares one (parameter_kind)."""
    return {key: int(value) if spec.template.parameter_kind(key) == "number" else value for key, value in spec.fixed}


def single_nodes(graph: Graph, spec: GenerationSpec) -> list[tuple[Query, int]]:
    """One question per node (of the type); `count` draws that many at random."""
    nodes = [node.id for node in graph.nodes if spec.node_type is None or node.type == spec.node_type]
    if spec.count is not None:
        nodes = sorted(random.Random(spec.seed).sample(nodes, min(spec.count, len(nodes))))
    parameter = spec.template.node_parameters[0]
    value = (lambda node: (node,)) if spec.template.collects_seeds else (lambda node: node)
    return [(query(spec.template, **_fixed_arguments(spec), **{parameter: value(node)}), 0) for node in nodes]


def node_pairs(graph: Graph, spec: GenerationSpec) -> list[tuple[Query, int]]:
    """Random pairs at a hop distance within the range, over the template's relation (forwards)."""
    first_role, second_role = PAIR_ROLES.get(spec.template.name, spec.template.node_parameters[:2])
    fixed = _fixed_arguments(spec)
    relation = fixed.get("relation", spec.template.defaults().get("relation"))
    forwards: dict[str, list[str]] = {}
    for edge in graph.edges:
        if relation is None or edge.relation == relation:
            forwards.setdefault(edge.source, []).append(edge.target)
    low, high = spec.distance
    pairs = []
    for node in graph.nodes:
        if spec.node_type is not None and node.type != spec.node_type:
            continue
        for target, distance in _distances(forwards, node.id, high).items():
            if low <= distance <= high:
                pairs.append((node.id, target, distance))
    pairs.sort()
    count = 50 if spec.count is None else spec.count
    chosen = sorted(random.Random(spec.seed).sample(pairs, min(count, len(pairs))))
    return [(query(spec.template, **fixed, **{first_role: first, second_role: second}), distance)
            for first, second, distance in chosen]


def _distances(forwards: dict[str, list[str]], start: str, limit: int) -> dict[str, int]:
    found = {start: 0}
    queue = deque([start])
    while queue:
        node = queue.popleft()
        if found[node] == limit:
            continue
        for target in forwards.get(node, ()):
            if target not in found:
                found[target] = found[node] + 1
                queue.append(target)
    found.pop(start)
    return found


Generator = Callable[[Graph, GenerationSpec], list[tuple[Query, int]]]
GENERATOR_LIST: tuple[tuple[str, Generator], ...] = (("single_nodes", single_nodes), ("node_pairs", node_pairs))

# How question sets are generated from a template over a graph, by name.
QUESTION_GENERATORS: Registry[Generator] = Registry("question generator", GENERATOR_LIST)


def generator_for(template: QueryTemplate) -> str:
    """The generator a template uses: node pairs for two-node templates, single nodes otherwise."""
    if len(template.node_parameters) >= 2:
        return "node_pairs"
    if not template.node_parameters:
        raise ParameterError(f"{template.name} names no node, so there is nothing to generate over",
                             f"template {template.name}", "pick a template with a node parameter")
    return "single_nodes"
