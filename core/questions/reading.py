"""Reading a question: from its text and the graph to seeds, a query and a sentence saying how it was read.

The one reader of questions. The CLI's `--question`, the dashboard's question box and the free-text
questions of a question file all come here, so a question means the same query on every surface.
Two ways, in order:

1. Its wording: the question is a template's own text, as `Query.question_on` writes it, with each node
   named by its label or its id ("What are the prerequisites for Tensorrt?").
2. Its words: the nodes it names are found first (whole names, the longest first, as
   `core.retrieval.seeds.seeds_from_question` finds them). Plain-word rules then read the rest of the
   text with those names taken out, so the words of a label ("Shortest Path", "Impact Analysis") never
   choose the template. The rules cover the CKG types T1-T5 in close paraphrases and the service
   templates.

A question neither way reads is refused with `QuestionNotRead`, which names what was tried. It is never
answered with another query.
"""

from __future__ import annotations

import ast
import itertools
import re
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from core.errors import GraphContextError, ParameterError
from core.graph.model import Graph
from core.queries import TEMPLATES, Query, QueryTemplate, query
from core.queries.model import label_of, spoken_name
from core.questions.graph_check import TYPE_NAMED_TEXT
from core.questions.template_match import slot_values, template_pieces
from core.retrieval.question_templates import stated_hops
from core.retrieval.seeds import Seeds, seeds_from_ids, seeds_from_question

TEMPLATES_BY_NAME = {template.name: template for template in TEMPLATES}
PLACE = "\u25ca"  # stands where a node's name was, so the rules never read a label's words
SHAPES = ("What is X?", "What are the prerequisites for X?", "What is the prerequisite chain from X to Y?",
          "List all TYPE concepts", "How does X relate to Y?", "If X fails, which services are affected (and who "
          "owns them)?", "Which nodes does X reach within 2 hops?", "What is the shortest path from X to Y?")


class QuestionNotRead(ParameterError):
    """A question the reader cannot turn into a query: it names what it found and what it tried."""


@dataclass(frozen=True)
class QuestionReading:
    """A question read: its query, its seeds (with the text each matched) and how it was read."""

    question: str
    query: Query
    seeds: Seeds
    how: str  # "by its wording" or "by its words: prerequisite, chain"

    def sentence(self, graph: Graph) -> str:
        """'read as t2_prerequisites(concept=12 "Tensorrt"), by its wording': printed and shown on every surface."""
        anchored = "" if self.query.seeds or not self.seeds.node_ids else \
            f"; seeds: the {len(self.seeds.node_ids):,} nodes of the type it names"
        return f"read as {described(self.query, graph)}, {self.how}{anchored}"


def described(bound: Query, graph: Graph) -> str:
    """The query with its given arguments, each node with its label: `t2_prerequisites(concept=12 "Tensorrt")`."""
    parts = []
    for name, value in bound.arguments:
        if name in bound.template.node_parameters:
            values = value if isinstance(value, tuple) else (value,)
            value = "+".join(_node_shown(graph, str(item)) for item in values)
        parts.append(f"{name}={value}")
    return f"{bound.name}({', '.join(parts)})"


def _node_shown(graph: Graph, node_id: str) -> str:
    label = label_of(graph, node_id)
    return f'{node_id} "{label}"' if label != node_id else node_id


def read_question(graph: Graph, question: str, templates: Iterable[QueryTemplate] = TEMPLATES) -> QuestionReading:
    """The query `question` asks on `graph`, its seeds and how it was read; QuestionNotRead when neither way reads it."""
    text = question.strip()
    if not text:
        raise QuestionNotRead("the question is empty", "question", "ask a question that names nodes of the graph")
    templates = tuple(templates)
    worded = by_wording(text, templates, graph)
    if worded is not None:
        return QuestionReading(text, worded, _seeds_of(graph, worded, text), "by its wording")
    return _by_words(graph, text, {template.name for template in templates})


def _seeds_of(graph: Graph, bound: Query, text: str) -> Seeds:
    """The nodes the text names where it names them (the matches are shown), else the query's own nodes."""
    try:
        found = seeds_from_question(graph, text)
    except ParameterError:
        found = None
    if bound.seeds and found is not None and set(found.node_ids) >= set(bound.seeds):
        return found
    if bound.seeds:
        return seeds_from_ids(graph, bound.seeds)
    return _type_members(graph, bound, text)


def _type_members(graph: Graph, bound: Query, text: str) -> Seeds:
    """A question naming no node but a node type ("List all SDK concepts") is anchored where a retriever's type
    filter would anchor it: at the nodes of that type."""
    named_types = {value for name, value in bound.arguments
                   if name in (*bound.template.type_parameters, *TYPE_NAMED_TEXT)}
    members = tuple(node.id for node in graph.nodes if node.type in named_types)
    return Seeds(members, (), text)


# --- 1. by wording ------------------------------------------------------------------------------------------


def by_wording(question: str, templates: Iterable[QueryTemplate], graph: Graph | None = None) -> Query | None:
    """The query whose question text (by label, as `Query.question_on(graph)` writes it, or by id) is exactly
    `question`, or None. Node names are read back through `graph` (labels to ids); without a graph, names are
    ids. A list of nodes is split at ", ". A parameter the question does not mention takes the solver's default.
    With a graph, every node the query names must be in it."""
    graph = graph if graph is not None else Graph.build([], [])
    names = _names(graph)
    # "What is {concept}?" also matches every longer question: the template whose own words cover most of the
    # question is tried first.
    for template in sorted(templates, key=_literal_length, reverse=True):
        match = slot_values(template.question, question)
        if match is None:
            continue
        try:
            candidate = query(template, **_arguments(template, match, names))
        except (ValueError, SyntaxError, TypeError, GraphContextError):
            continue
        if question not in (candidate.question_on(graph), candidate.question):
            continue
        if graph.nodes and any(node not in graph.node_by_id for node in candidate.seeds):
            continue
        return candidate
    return None


def _literal_length(template: QueryTemplate) -> int:
    return sum(len(literal) for literal in template_pieces(template.question)[0])


def _names(graph: Graph) -> dict[str, str]:
    """Name -> node id. An id names its node; a label names its node unless the label is also an id. A label
    shared by several nodes names the smallest id (ids are sorted in a canonical graph)."""
    names: dict[str, str] = {}
    for node in graph.nodes:
        names.setdefault(spoken_name(graph, node.id), node.id)  # as question_on names it
    names.update((node.id, node.id) for node in graph.nodes)
    return names


def _value(template: QueryTemplate, name: str, text: str) -> object:
    """A parameter read back from question text: a number where the solver's default is one, else text."""
    default = template.defaults().get(name)
    if isinstance(default, (int, float)) and not isinstance(default, bool):
        return type(default)(text)
    return text


def _arguments(template: QueryTemplate, match: dict[str, str], names: dict[str, str]) -> dict[str, object]:
    arguments: dict[str, object] = {}
    for name, text in match.items():
        if name not in template.node_parameters:
            arguments[name] = _value(template, name, text)
        elif template.collects_seeds:  # a list of nodes: "a, b, c" by label, "('a', 'b', 'c')" by id
            parts = ast.literal_eval(text) if text.startswith("(") else text.split(", ")
            arguments[name] = tuple(names.get(part, part) for part in parts)
        else:
            arguments[name] = names.get(text, text)
    return arguments


# --- 2. by words --------------------------------------------------------------------------------------------

# Question text is untrusted: each pattern is a few literal alternatives inside word boundaries (no nested
# quantifier), so a search is linear in the text.
_WORD = re.compile(r"[^\W_]++(?:[-_][^\W_]++)*+")
_FAIL = r"\b(?:fail|fails|failed|failing|failure|breaks?|broke|down|outage|affected|impact|impacted)\b"
_OWN = r"\b(?:owns?|owned|owners?|ownership|teams?|responsible)\b"
_PREREQUISITE = r"\b(?:prerequisites?|prereqs?|requires?|required|requirements?)\b"
_CHAIN = r"\b(?:chain|path|paths|sequence|route|order)\b"


@dataclass(frozen=True)
class Rule:
    """A reading by words: the template, the words that must all occur, the named nodes it needs."""

    template: str
    words: tuple[str, ...]
    nodes: int
    said: str  # the words, as the reading sentence names them


RULES = (  # the first rule that reads the question wins, so the more specific come first
    Rule("t3_prerequisite_path", (_PREREQUISITE, _CHAIN), 2, "prerequisite, chain"),
    Rule("shortest_path", (r"\b(?:path|paths|route)\b",), 2, "path"),
    Rule("t5_relation", (r"\b(?:relate|relates|related|relation|relationship|connected|connection|link|linked)\b",),
         2, "relate"),
    Rule("impact_owners", (_FAIL, _OWN), 1, "fails, own"),
    Rule("impact", (_FAIL,), 1, "fails"),
    Rule("owners_of", (_OWN,), 1, "owns"),
    Rule("typed_neighbours", (r"\b(?:neighbours?|neighbors?|adjacent|connected|linked)\b",), 1, "neighbours"),
    Rule("t2_prerequisites", (_PREREQUISITE,), 1, "prerequisites"),
    Rule("t2_prerequisites", (r"\b(?:learn|know|study|master|understand)\b", r"\bbefore\b"), 1, "learn before"),
    Rule("dependencies_within", (r"\b(?:depend|depends|dependencies|dependency|reach|reaches|reachable|needs?|"
                                 r"hops?)\b",), 1, "depends"),
    Rule("t4_taxonomy_members", (r"\b(?:list|all|every|which|what|name|show)\b",), 0, "list, a node type"),
    Rule("t1_entity", (), 1, "what is"),
)
# The words a "What is X?" question may hold beside the name (T1 reads nothing else).
_ENTITY_WORDS = frozenset(("what", "is", "whats", "s", "who", "describe", "tell", "me", "about", "explain", "define",
                           "the", "a", "an", "please", "concept", "node", "entity"))


@dataclass(frozen=True)
class _Text:
    """The question with its named nodes taken out, and what the rules need from the graph."""

    graph: Graph
    question: str
    masked: str  # lower case, each named node replaced by PLACE
    seeds: Seeds | None
    types: tuple[str, ...]  # node types the text names, in order

    @property
    def nodes(self) -> tuple[str, ...]:
        return self.seeds.node_ids if self.seeds is not None else ()


def _by_words(graph: Graph, question: str, allowed: set[str]) -> QuestionReading:
    text = _masked(graph, question)
    for rule in RULES:
        if rule.template not in allowed or len(text.nodes) < rule.nodes:
            continue
        if not all(re.search(pattern, text.masked) for pattern in rule.words):
            continue
        arguments = BINDERS[rule.template](text)
        if arguments is None:
            continue
        bound = query(TEMPLATES_BY_NAME[rule.template], **arguments)
        seeds = text.seeds if text.seeds is not None and bound.seeds else _type_members(graph, bound, question)
        return QuestionReading(question, bound, seeds, f"by its words: {rule.said}")
    named = (f"it names {', '.join(repr(match.text) for match in text.seeds.matches)}" if text.seeds is not None
             else "it names no node of the graph (by id or label, as whole words)")
    raise QuestionNotRead(f"the question could not be read as a query: {named}, and neither a template's wording "
                          "nor the words of any reading fit it", f"question {question[:80]!r}",
                          f"ask it in one of these shapes: {'; '.join(SHAPES)}; or name the query itself "
                          "(command line: --query TEMPLATE:PARAMETER=ID; dashboard: the query template box)")


def _masked(graph: Graph, question: str) -> _Text:
    try:
        seeds: Seeds | None = seeds_from_question(graph, question)
    except ParameterError:
        seeds = None
    pieces, position = [], 0
    for match in seeds.matches if seeds is not None else ():
        pieces += [question[position:match.start], f" {PLACE} "]
        position = match.end
    masked = ("".join(pieces) + question[position:]).lower()
    return _Text(graph, question, masked, seeds, _types_named(graph, masked))


def _types_named(graph: Graph, masked: str) -> tuple[str, ...]:
    """Node types of the graph the text names as whole words (a plural "services" names "service")."""
    by_lower: dict[str, str] = {}
    for node_type in sorted({node.type for node in graph.nodes}):
        by_lower.setdefault(node_type.lower(), node_type)
    found = []
    for word in _words(masked):
        for candidate in (word, word[:-1] if word.endswith("s") else "", word[:-2] if word.endswith("es") else ""):
            if candidate and candidate in by_lower:
                found.append(by_lower[candidate])
                break
    return tuple(dict.fromkeys(found))


def _words(text: str) -> list[str]:
    """The words of the text in order, a hyphenated or underscored name as one ("cuda-toolkit")."""
    return _WORD.findall(text)


def _from_to(text: _Text) -> tuple[str, str]:
    """The two nodes in path order: "from A to B" and "to B from A" both give (A, B); else as named."""
    first, second = text.nodes[0], text.nodes[1]
    places = [position for position, char in enumerate(text.masked) if char == PLACE]
    if len(places) >= 2 and re.search(r"\bfrom\s*+$", text.masked[:places[1]]) and \
            not re.search(r"\bfrom\s*+$", text.masked[:places[0]]):
        return second, first
    return first, second


def _relation(text: _Text, default: object) -> str | None:
    """The relation a question means: one it names, else the template's default where the graph has it, else the
    graph's most common relation."""
    counts = Counter(edge.relation for edge in text.graph.edges)
    for relation in sorted(counts, key=len, reverse=True):
        spoken = relation.lower().replace("_", " ")
        if re.search(r"\b" + re.escape(spoken) + r"\b", text.masked.replace("_", " ")):
            return relation
    if isinstance(default, str) and default in counts:
        return default
    return min(counts, key=lambda relation: (-counts[relation], relation)) if counts else None


def _with_relation(text: _Text, template_name: str, arguments: dict[str, object]) -> dict[str, object] | None:
    """The arguments with the template's relation parameters read from the text and the graph; None when a
    relation the template needs cannot be found (a graph without edges)."""
    template = TEMPLATES_BY_NAME[template_name]
    defaults = template.defaults()
    for name in template.relation_parameters:
        if name == "owner_relation":
            continue  # its default (owned_by) is what "own" means; another is named with --query
        relation = _relation(text, defaults.get(name))
        if relation is not None and relation != defaults.get(name):
            arguments[name] = relation
        elif relation is None and name not in defaults:
            return None
    return arguments


def _node_type(text: _Text, arguments: dict[str, object] | None) -> dict[str, object] | None:
    """The arguments with the node type the text names ("which services": service), where it names one."""
    if arguments is not None and text.types:
        arguments["node_type"] = text.types[0]
    return arguments


_TYPE_WORDS = frozenset(("type", "taxonomy", "kind", "category"))
_MEMBER_WORDS = frozenset(("concept", "concepts", "node", "nodes", "members", "entities", "items", "entries"))


def _taxonomy(text: _Text) -> dict[str, object] | None:
    """T4: the type named after "type" or "taxonomy" ("of type SDK"), or right before "concepts", "nodes"...
    ("List all SDK concepts"), else the one type named."""
    by_lower = {node_type.lower(): node_type for node_type in text.types}
    words = _words(text.masked)
    after_type = [after for word, after in itertools.pairwise(words) if word in _TYPE_WORDS]
    before_members = [word for word, after in itertools.pairwise(words) if after in _MEMBER_WORDS]
    for word in (*after_type, *before_members):
        if word in by_lower:
            return {"taxonomy": by_lower[word]}
    return {"taxonomy": text.types[0]} if len(text.types) == 1 else None


def _entity(text: _Text) -> dict[str, object] | None:
    """T1: only when the question holds nothing but the name and a few words of asking ("What is X?")."""
    words = set(re.findall(r"[^\W\d_]++", text.masked.replace(PLACE, " ")))
    return {"concept": text.nodes[0]} if len(text.nodes) == 1 and words <= _ENTITY_WORDS else None


def _path(text: _Text, template_name: str, first: str, second: str) -> dict[str, object] | None:
    source, target = _from_to(text)
    return _with_relation(text, template_name, {first: source, second: target})


BINDERS: dict[str, Callable[[_Text], dict[str, object] | None]] = {
    "t3_prerequisite_path": lambda text: _path(text, "t3_prerequisite_path", "start", "concept"),
    "shortest_path": lambda text: {"source": _from_to(text)[0], "target": _from_to(text)[1]},
    "t5_relation": lambda text: _with_relation(text, "t5_relation", {"first": text.nodes[0],
                                                                     "second": text.nodes[1]}),
    "impact_owners": lambda text: _node_type(text, _with_relation(text, "impact_owners", {"failed": text.nodes[0]})),
    "impact": lambda text: _node_type(text, _with_relation(text, "impact", {"failed": text.nodes[0]})),
    "owners_of": lambda text: {"nodes": tuple(text.nodes)},
    "typed_neighbours": lambda text: _node_type(text, _with_relation(
        text, "typed_neighbours", {"node": text.nodes[0], "direction": "both"})),
    "t2_prerequisites": lambda text: _with_relation(text, "t2_prerequisites", {"concept": text.nodes[0]}),
    "dependencies_within": lambda text: _with_relation(text, "dependencies_within", {
        "start": text.nodes[0], **({"hops": hops} if (hops := stated_hops(text.question)) is not None else {})}),
    "t4_taxonomy_members": _taxonomy,
    "t1_entity": _entity,
}
