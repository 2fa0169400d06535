"""The query model: templates with deterministic solvers, queries bound to arguments, solutions."""

from __future__ import annotations

import inspect
import itertools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from core.errors import ParameterError
from core.graph.model import Graph

Answer = object  # a JSON-compatible value: sorted lists and dicts of ids or labels
LABEL = "label"


@dataclass(frozen=True)
class Solution:
    """A solver's result: the answer, and the unit keys of the evidence an answer needs.

    A chain answer (a shortest path) also carries `chain_steps`, the steps (a, b) of every equally short
    chain, so that any of them is accepted: two chains of the shortest length answer alike (ties), and the
    answer keeps one of them for display.
    """

    answer: Answer
    evidence: frozenset[str]
    chain_steps: frozenset[tuple[str, str]] | None = None

    def accepts(self, answer: Answer) -> bool:
        """Whether `answer` (a solver's on a cut, say) answers as this solution does."""
        gold = self.answer
        if self.chain_steps is None or not isinstance(answer, list) or not isinstance(gold, list) or not gold:
            return answer == gold
        return (len(answer) == len(gold) and answer[0] == gold[0] and answer[-1] == gold[-1]
                and all(step in self.chain_steps for step in itertools.pairwise(answer)))


@dataclass(frozen=True)
class QueryTemplate:
    """A question shape: `solve(graph, **arguments)`, its question text and which parameters name nodes.

    `node_parameters` are filled from seeds in order (the last takes every remaining seed when
    `collects_seeds`) and are written with the node's label, when it has one, by `Query.question_on`.
    `family` groups templates: "services" (dependency and ownership graphs), "general", "learning"
    (the CKG query types T1-T5 on learning graphs). `relation_parameters` name a relation of the
    graph and `type_parameters` a node type: `parameter_kind` says what each parameter holds, so a
    form can offer the graph's relations or types instead of guessing from the parameter's name.
    """

    name: str
    title: str
    solve: Callable[..., Solution]
    question: str  # str.format template over the parameters
    parameters: tuple[str, ...]
    node_parameters: tuple[str, ...] = ()
    family: str = "general"
    collects_seeds: bool = False
    relation_parameters: tuple[str, ...] = ()
    type_parameters: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        declared = (*self.node_parameters, *self.relation_parameters, *self.type_parameters)
        unknown = [name for name in declared if name not in self.parameters]
        if unknown or len(set(declared)) != len(declared):
            raise ValueError(f"query template {self.name!r}: node, relation and type parameters must be distinct "
                             f"parameters of {self.parameters}, not {declared}")

    def parameter_kind(self, parameter: str) -> str:
        """What the parameter holds: "nodes" (every remaining seed), "node", "relation", "type", "number" or "text"."""
        if parameter not in self.parameters:
            raise ParameterError(f"query {self.name} has no parameter {parameter!r}", "query parameter",
                                 f"use: {', '.join(self.parameters)}")
        if parameter in self.node_parameters:
            return "nodes" if self.collects_seeds and parameter == self.node_parameters[-1] else "node"
        if parameter in self.relation_parameters:
            return "relation"
        if parameter in self.type_parameters:
            return "type"
        default = self.defaults().get(parameter)
        return "number" if isinstance(default, int) and not isinstance(default, bool) else "text"

    def defaults(self) -> dict[str, object]:
        """The solver's default arguments."""
        return {name: parameter.default for name, parameter in inspect.signature(self.solve).parameters.items()
                if parameter.default is not inspect.Parameter.empty}


@dataclass(frozen=True)
class Query:
    """A template with its parameters bound: `solve(graph)` gives the answer and evidence on that graph."""

    template: QueryTemplate
    arguments: tuple[tuple[str, object], ...]

    @property
    def name(self) -> str:
        return self.template.name

    @property
    def all_arguments(self) -> dict[str, object]:
        return {**self.template.defaults(), **dict(self.arguments)}

    @property
    def question(self) -> str:
        """The question with node ids as they are."""
        arguments = self.all_arguments
        return _counted_wording(self.template.question, arguments).format(**arguments)

    def question_on(self, graph: Graph) -> str:
        """The question in natural words: each node named by its `label` property when it has one (a node
        whose name is blank is described, so no slot of the question stays empty)."""
        return self._question_naming(lambda node_id: spoken_name(graph, node_id))

    def question_shown(self, graph: Graph) -> str:
        """The question as a page caption shows it: each node by its label with its id, "TensorRT (node 12)",
        or by its id alone when it has no label; a blank parameter is said to be missing. Not read back by
        readers (`question_on` is)."""
        return self._question_naming(lambda node_id: shown_name(graph, node_id), fill_blanks=True)

    def _question_naming(self, name_of: Callable[[str], str], fill_blanks: bool = False) -> str:
        arguments = self.all_arguments
        for name in self.template.node_parameters:
            value = arguments.get(name)
            if isinstance(value, (tuple, list)):
                arguments[name] = ", ".join(name_of(item) for item in value)
            elif isinstance(value, str):
                arguments[name] = name_of(value)
        if fill_blanks:  # a blank text parameter ("List all  concepts") is said so
            for name, value in arguments.items():
                if value is None or (isinstance(value, str) and not value.strip()):
                    arguments[name] = f"(no {name.replace('_', ' ')} given)"
        return _counted_wording(self.template.question, self.all_arguments).format(**arguments)

    @property
    def seeds(self) -> tuple[str, ...]:
        """The node ids the query names (its natural seeds), in parameter order."""
        arguments = dict(self.arguments)
        found: list[str] = []
        for name in self.template.node_parameters:
            value = arguments.get(name)
            found.extend(value if isinstance(value, (tuple, list)) else [value] if isinstance(value, str) else [])
        return tuple(dict.fromkeys(found))

    @property
    def label(self) -> str:
        """A short unique name: the template and its given arguments."""
        shown = ", ".join(f"{name}={value}" for name, value in self.arguments)
        return f"{self.name}({shown})"

    def solve(self, graph: Graph) -> Solution:
        return self.template.solve(graph, **dict(self.arguments))


def _counted_wording(question: str, arguments: Mapping[str, object]) -> str:
    """The template with "{hops} hops" in the singular when the count is one ("in at most 1 hop")."""
    if arguments.get("hops") == 1:
        return question.replace("{hops} hops", "{hops} hop")
    return question


def label_of(graph: Graph, node_id: str) -> str:
    """A node's `label` property, else its id (also for a node the graph does not hold)."""
    node = graph.node_by_id.get(node_id)
    label = dict(node.properties).get(LABEL) if node is not None else None
    return label if isinstance(label, str) else node_id


BLANK_NAME = "the node with the empty id"


def spoken_name(graph: Graph, node_id: str) -> str:
    """`label_of`, except that a blank label gives way to the id and a blank id is described (never an empty slot)."""
    label = label_of(graph, node_id)
    if label.strip():
        return label
    if node_id.strip():
        return node_id
    return BLANK_NAME if not node_id else f"the node with the id {node_id!r}"


def shown_name(graph: Graph, node_id: str) -> str:
    """A node as a caption names it: its label with its id when it has a label of its own, else `spoken_name`."""
    name = spoken_name(graph, node_id)
    return f"{name} (node {node_id})" if name != node_id and node_id.strip() else name


def query(template: QueryTemplate, **arguments: object) -> Query:
    unknown = sorted(set(arguments) - set(template.parameters))
    if unknown:
        raise ParameterError(f"{template.name} has no parameter(s) {', '.join(unknown)}", f"query {template.name}",
                             f"use: {', '.join(template.parameters)}")
    return Query(template, tuple(sorted(arguments.items())))


def query_from_seeds(template: QueryTemplate, seeds: Sequence[str], **arguments: object) -> Query:
    """Bind the template's node parameters to the seeds in order; explicit arguments win."""
    remaining = list(seeds)
    for position, name in enumerate(template.node_parameters):
        if name in arguments:
            continue
        last = position == len(template.node_parameters) - 1
        if template.collects_seeds and last:
            arguments[name], remaining = tuple(remaining), []
        elif remaining:
            arguments[name] = remaining.pop(0)
        if name not in arguments or arguments[name] == ():
            raise ParameterError(f"{template.name} needs a node for {name!r} and the seeds ran out",
                                 f"query {template.name}", f"give {len(template.node_parameters)} seed(s) "
                                 f"({', '.join(template.node_parameters)}), or set {name}=ID")
    return query(template, **arguments)
