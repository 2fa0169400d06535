"""Auditing a context another pipeline built: its exact tokens, the graph's units it holds, the records it writes
twice, its dangling edges and, for a query, the evidence it keeps and whether it answers.

    result = audit_context(graph, text, FORMATS.get("jsonl"), TOKENIZERS.get("o200k_base"), query=query)
    result.tokens, result.nodes_covered, result.dangling_edges, result.duplicates.extra

The context is decoded by its format's own decoder (a `FormatError` says what, where and how to fix) and the
decoded graph is matched against the graph `G` unit by unit: a node record holds G's node when it is what the
format gives back of it (`Format.image` for a lossy format), an edge record holds one of G's edges the same way
(parallel copies one each). An edge whose endpoint has no node record in the context decodes to a stand-in node
(type "unknown", no properties: `ORPHAN_TYPE`, as every decoder writes); such an edge is dangling.

Duplicates need a record-level view, and a decoded Graph collapses repeated node records. So the records are
counted by their text: the decoded graph is rendered again in the format with every unit twice, the second copy
of each (its record as it reads after another: no section header, its separator) is a record's text, and the
context's lines are searched for each, line by line with white space and `,;.` trimmed at both ends. The count
is trusted only when it can be: every record of the decoded graph is found in the context, and in the lab's own
rendering each record's text occurs exactly as often as it is written there (so no record's text reads inside
another's). When either fails (a format that numbers its nodes, a dictionary of codes, a single-line document,
records written in another layout) the audit says duplicates are not counted, and why, instead of reporting 0;
edges a decoder gave back more often than the graph has them are still reported, as a lower bound.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import cast

from core.errors import FormatError, GraphContextError
from core.formats.base import Format, Record, forget_records
from core.graph.model import ORPHAN_TYPE, Edge, Graph, Node
from core.graph.units import EdgeUnit, NodeUnit, Unit, edge_keys, graph_units, node_key
from core.io.limits import DEFAULT_LIMITS, Limits
from core.metrics.cut_metrics import DecodedCut, answers
from core.queries import Query
from core.queries.answerable import require_answer
from core.questions.reading import QuestionReading, read_question
from core.tokens.protocol import Tokenizer

TRIMMED = " \t\r\f\v,;."  # trimmed from both ends of every line before records are compared by their text
# What a decoder may raise on odd text besides FormatError (parsers underneath raise these): caught at this boundary,
# so a context that trips a decoder is refused with a message, never a traceback.
DECODER_SLIPS = (ValueError, KeyError, IndexError, TypeError, AttributeError)


@dataclass(frozen=True)
class Duplicates:
    """The units the context writes more often than the graph has them.

    `repeated` holds (unit key, times written, times the graph has it) for each; `counted` says whether every
    record was counted (else `reason` says why not, and `repeated` holds only the edges the decoder itself gave
    back more often than the graph has them: a lower bound)."""

    counted: bool
    repeated: tuple[tuple[str, int, int], ...] = ()
    reason: str = ""

    @property
    def extra(self) -> int:
        """Records written beyond what the graph has: 1 for a record written twice."""
        return sum(written - allowed for _, written, allowed in self.repeated)


@dataclass(frozen=True)
class QuestionAudit:
    """What the context keeps of one query's evidence, and whether the query's solver answers from it."""

    query_label: str
    question: str  # the query's question on the graph, in words
    reading: str  # how the question text was read ("read as ..., by its wording"); "" when a query was given
    evidence_total: int
    evidence_missing: tuple[str, ...]  # evidence unit keys the context does not hold
    answered: bool

    @property
    def evidence_kept(self) -> int:
        return self.evidence_total - len(self.evidence_missing)

    @property
    def evidence_survival(self) -> float:
        """Share of the evidence unit keys present (1.0 when the answer needs none, as for a cut)."""
        return self.evidence_kept / self.evidence_total if self.evidence_total else 1.0


@dataclass(frozen=True)
class Audit:
    """A context audited against a graph: the figures `graph-context-lab audit` and the dashboard show."""

    source: str
    format_name: str
    lossless: bool
    tokenizer_name: str
    approximate: bool  # the tokenizer only estimates its model's counts
    tokens: int
    characters: int
    bytes: int
    graph_nodes: int
    graph_edges: int
    nodes_covered: tuple[str, ...]  # unit keys of the graph's nodes whose record the context holds
    edges_covered: tuple[str, ...]
    nodes_not_in_graph: tuple[str, ...]  # ids of node records naming no node of the graph
    nodes_differing: tuple[str, ...]  # ids of node records whose type or properties differ from the graph's
    edges_not_in_graph: tuple[str, ...]  # keys of edge records naming no edge of the graph
    edges_differing: tuple[str, ...]  # keys of edge records whose ends and relation are the graph's, not the rest
    dangling_edges: tuple[str, ...]  # keys of edge records with an endpoint whose node record is absent
    duplicates: Duplicates
    question: QuestionAudit | None = None

    @property
    def units_covered(self) -> int:
        return len(self.nodes_covered) + len(self.edges_covered)

    @property
    def coverage(self) -> float:
        """Share of the graph's units the context holds."""
        total = self.graph_nodes + self.graph_edges
        return self.units_covered / total if total else 1.0

    @property
    def foreign_records(self) -> int:
        """Records naming a node or an edge the graph does not have (or has otherwise)."""
        return (len(self.nodes_not_in_graph) + len(self.nodes_differing) + len(self.edges_not_in_graph)
                + len(self.edges_differing))


def question_reading(graph: Graph, question: str) -> QuestionReading:
    """The question read by the lab's one reader of questions; refused when it cannot be read or has no answer."""
    reading = read_question(graph, question)
    require_answer(reading.query, graph)
    return reading


def decoded_context(text: str, format_: Format, source: str = "context", limits: Limits = DEFAULT_LIMITS) -> Graph:
    """The graph the context's text holds, by its format's own decoder, within the import limits."""
    try:
        decoded = format_.decode(text)
    except FormatError as error:
        where = f"{source}, {error.where}" if error.where else source
        fix = f"{error.fix}; or name the format the context is written in" if error.fix else \
            "name the format the context is written in"
        raise FormatError(f"the context is not valid {format_.name}: {error.what}", where, fix, line=error.line,
                          offset=error.offset) from None
    except RecursionError:
        raise FormatError(f"the context is not valid {format_.name}: it nests too deeply", source,
                          "a graph context nests at most a few levels") from None
    except DECODER_SLIPS as error:
        raise FormatError(f"the context is not valid {format_.name}: its decoder stopped at "
                          f"{type(error).__name__}: {error}", source,
                          "check that the context is written in this format, as the lab writes it") from None
    limits.check_graph(decoded, source)
    return decoded


def audit_context(graph: Graph, text: str, format_: Format, tokenizer: Tokenizer, *, query: Query | None = None,
                  reading: str = "", source: str = "context", limits: Limits = DEFAULT_LIMITS) -> Audit:
    """Every figure of the audit (`query`, when given, must have an answer on `graph`: `question_reading`)."""
    decoded = decoded_context(text, format_, source, limits)
    images = _Images(graph, format_, decoded)
    stand_ins = _stand_ins(decoded, images)
    duplicates = record_copies(text, format_, decoded, images, stand_ins)
    covered_nodes, not_in_graph, differing = _node_matches(decoded, images, stand_ins)
    covered_edges, edges_not_in_graph, edges_differing = _edge_matches(decoded, images)
    dangling = tuple(key for key, edge in edge_keys(decoded) if edge.source in stand_ins or edge.target in stand_ins)
    checked = None
    if query is not None:
        checked = _question_audit(graph, decoded, query, reading, set(covered_nodes) | set(covered_edges))
    return Audit(source=source, format_name=format_.name, lossless=format_.lossless, tokenizer_name=tokenizer.name,
                 approximate=tokenizer.approximate, tokens=tokenizer.count(text), characters=len(text),
                 bytes=len(text.encode("utf-8", "surrogatepass")), graph_nodes=len(graph.nodes),
                 graph_edges=len(graph.edges), nodes_covered=covered_nodes, edges_covered=covered_edges,
                 nodes_not_in_graph=not_in_graph, nodes_differing=differing, edges_not_in_graph=edges_not_in_graph,
                 edges_differing=edges_differing, dangling_edges=dangling, duplicates=duplicates, question=checked)


def _question_audit(graph: Graph, decoded: Graph, query: Query, reading: str, covered: set[str]) -> QuestionAudit:
    gold = query.solve(graph)
    missing = tuple(sorted(key for key in gold.evidence if key not in covered))
    # The solver runs on what the context holds, as core.metrics does for a cut's decoded document.
    return QuestionAudit(query.label, query.question_on(graph), reading, len(gold.evidence), missing,
                         answers(query, gold, DecodedCut(decoded)))


class _Images:
    """What the format's decoder gives back of the graph's units, for those the context may hold.

    `nodes`: an image's id -> (the graph's node key, the image); `edge_keys`: an edge's image -> the graph's keys
    having it. A lossless format gives every unit back as it is, a lossy one with `Format.image` as that says (both
    keep node ids, so only the nodes the context names and the edges between them are looked at). A lossy format
    without one (it may write labels for ids) has each unit rendered alone and decoded: every unit of the graph,
    once per audit; a unit that does not decode to one node or one edge alone cannot be held."""

    def __init__(self, graph: Graph, format_: Format, decoded: Graph) -> None:
        self.graph, self.format = graph, format_
        ids = decoded.node_by_id.keys()
        keeps_ids = format_.lossless or format_.image is not None
        self.nodes: dict[str, tuple[str, Node]] = {}
        for node in graph.nodes:
            if keeps_ids and node.id not in ids:
                continue
            image = self._image(NodeUnit(node_key(node.id), node))
            if isinstance(image, Node):
                self.nodes.setdefault(image.id, (node_key(node.id), image))  # one label, one subject: the first
        self.edge_keys: dict[Edge, list[str]] = defaultdict(list)
        for key, edge in edge_keys(graph):
            if keeps_ids and not (edge.source in ids and edge.target in ids):
                continue
            image = self._image(EdgeUnit(key, edge))
            if isinstance(image, Edge):
                self.edge_keys[image].append(key)
        self.triples = {(edge.source, edge.relation, edge.target) for edge in self.edge_keys}

    def node(self, node_id: str) -> Node | None:
        """The image of the graph's node the decoded id stands for, if any."""
        found = self.nodes.get(node_id)
        return found[1] if found is not None else None

    def _image(self, unit: Unit) -> Node | Edge | None:
        if self.format.lossless:
            return unit.node if unit.is_node else unit.edge
        if self.format.image is not None:
            return cast(Node | Edge, self.format.image(unit))
        return self._decoded_image(unit)

    def _decoded_image(self, unit: Unit) -> Node | Edge | None:
        by_id = self.graph.node_by_id
        if unit.is_node:
            alone = Graph.build([unit.node], [])
        else:
            alone = Graph.build({by_id[unit.edge.source], by_id[unit.edge.target]}, [unit.edge])
        try:
            decoded = self.format.decode(self.format.render(alone, graph_units(alone)).text)
        except (GraphContextError, *DECODER_SLIPS):
            return None
        if unit.is_node:
            return decoded.nodes[0] if len(decoded.nodes) == 1 else None
        return decoded.edges[0] if len(decoded.edges) == 1 else None


def _stand_ins(decoded: Graph, images: _Images) -> set[str]:
    """Ids of decoded nodes that are only an edge's endpoint, as decoders write them: typed "unknown", no
    properties, unlike the graph's node of that id. A record saying just that is read as no record (it tells
    nothing more); a node the graph itself has so is taken as written."""
    ends = {end for edge in decoded.edges for end in (edge.source, edge.target)}
    return {node.id for node in decoded.nodes if node.type == ORPHAN_TYPE and not node.properties and node.id in ends
            and images.node(node.id) != node}


def _node_matches(decoded: Graph, images: _Images, stand_ins: set[str]
                  ) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
    covered, not_in_graph, differing = [], [], []
    for node in decoded.nodes:
        if node.id in stand_ins:
            continue
        found = images.nodes.get(node.id)
        if found is None:
            not_in_graph.append(node.id)
        elif found[1] == node:
            covered.append(found[0])
        else:
            differing.append(node.id)
    return tuple(covered), tuple(not_in_graph), tuple(differing)


def _edge_matches(decoded: Graph, images: _Images) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
    covered, not_in_graph, differing = [], [], []
    taken: Counter[Edge] = Counter()
    for key, edge in edge_keys(decoded):
        keys = images.edge_keys.get(edge, [])
        if taken[edge] < len(keys):  # the graph's parallel copies are held one by one
            covered.append(keys[taken[edge]])
            taken[edge] += 1
        elif keys:
            continue  # a copy beyond the graph's: a duplicate (record_copies), not a foreign record
        elif (edge.source, edge.relation, edge.target) in images.triples:
            differing.append(key)
        else:
            not_in_graph.append(key)
    return tuple(covered), tuple(not_in_graph), tuple(differing)


# --- duplicates: records counted by their text ----------------------------------------------------------------


def record_copies(text: str, format_: Format, decoded: Graph, images: _Images, stand_ins: set[str]) -> Duplicates:
    """The units written more often than the graph has them (see the module's docstring for when records can be
    counted); `stand_ins` are the decoded nodes that have no record of their own."""
    distinct = Graph.build(decoded.nodes, list(dict.fromkeys(decoded.edges)))  # each edge once, under its own key
    edge_of = dict(edge_keys(distinct))
    allowed = {node_key(node.id): 1 for node in distinct.nodes}
    allowed.update((key, max(1, len(images.edge_keys.get(edge, ())))) for key, edge in edge_of.items())
    decoder_copies = Counter(decoded.edges)  # a decoder never invents a copy: more than the graph has is a duplicate
    lower_bound = tuple((key, decoder_copies[edge], allowed[key]) for key, edge in edge_of.items()
                        if decoder_copies[edge] > allowed[key])
    try:
        found = _found_records(text, format_, distinct, stand_ins)
    except _NotCounted as reason:
        return Duplicates(False, lower_bound, str(reason))
    finally:
        forget_records(distinct)  # a one-off graph: its records need not stay in the format's memo
    repeated = []
    for key, copies in found.items():
        written = max(copies, decoder_copies[edge_of[key]]) if key in edge_of else copies
        if written > allowed[key]:
            repeated.append((key, written, allowed[key]))
    return Duplicates(True, tuple(repeated))


class _NotCounted(Exception):
    """Why the records of this context cannot be counted by their text."""


def _found_records(text: str, format_: Format, distinct: Graph, stand_ins: set[str]) -> dict[str, int]:
    """How many times the context writes each unit's record (unit key -> copies)."""
    # Stand-ins are rendered as the context holds them: as edges' ends only, with no record of their own.
    units = [unit for unit in graph_units(distinct) if not (unit.is_node and unit.node.id in stand_ins)]
    try:
        rendering = format_.render(distinct, units)
        pairs = _record_texts(format_, distinct, units, rendering.records)
    except (GraphContextError, *DECODER_SLIPS) as error:  # a format that refuses the graph (its own limits)
        raise _NotCounted(f"{format_.name} cannot write the decoded units again: {error}") from None
    own = _LineIndex(_lines(rendering.text))
    shared = Counter(core for _, core in pairs)
    for _, core in pairs:
        there = own.count(core)
        if there == 0:
            raise _NotCounted(f"{format_.name} writes several records on one line, so they cannot be counted by "
                              "their text")
        if there > 1 or shared[core] > 1:
            raise _NotCounted(f"in {format_.name}, records of different units read alike (or one inside another), "
                              "so they cannot be told apart by their text")
    context = _LineIndex(_lines(text))
    found: dict[str, int] = {}
    for keys, core in pairs:
        copies = context.count(core)
        if copies == 0:
            raise _NotCounted(f"the record of {keys[0]} is not written as the lab writes it in {format_.name} "
                              "(another layout, numbering, dictionary or line breaks), so records cannot be counted "
                              "by their text")
        for key in keys:
            found[key] = copies
    return found


def _record_texts(format_: Format, graph: Graph, units: Sequence[Unit], records: Sequence[Record]
                  ) -> list[tuple[tuple[str, ...], tuple[str, ...]]]:
    """(unit keys, lines of its text) of each record as it reads after another record of its section.

    The first record of a section may carry the section's header (`"edges": [`, a table's header rows): the
    graph is rendered again with the first node and the first edge moved last, and where a record's lines there
    are a tail of its lines here, the tail is its text."""
    nodes: list[Unit] = [unit for unit in units if unit.is_node]
    edges: list[Unit] = [unit for unit in units if not unit.is_node]
    moved = format_.render(graph, nodes[1:] + nodes[:1] + edges[1:] + edges[:1]).records
    elsewhere = {record.unit_keys: tuple(_lines(record.text)) for record in moved}
    pairs = []
    for record in records:
        lines = tuple(_lines(record.text))
        other = elsewhere.get(record.unit_keys, lines)
        if len(other) < len(lines) and lines[len(lines) - len(other):] == other:
            lines = other
        if not lines:
            raise _NotCounted(f"{format_.name} writes a record with no text of its own, so records cannot be counted "
                              "by their text")
        pairs.append((record.unit_keys, lines))
    return pairs


def _lines(text: str) -> list[str]:
    """The text's non-blank lines, each with white space and `,;.` trimmed at both ends."""
    return [trimmed for line in text.split("\n") if (trimmed := line.strip(TRIMMED))]


class _LineIndex:
    """Where each line of a text is, to count the places a run of lines (a record's text) occurs."""

    def __init__(self, lines: Iterable[str]) -> None:
        self.lines = list(lines)
        self.where: dict[str, list[int]] = defaultdict(list)
        for index, line in enumerate(self.lines):
            self.where[line].append(index)
        self._counted: dict[tuple[str, ...], int] = {}

    def count(self, core: tuple[str, ...]) -> int:
        """The places `core` occurs as whole lines, found from its rarest line (cheap even for `{` lines)."""
        if core in self._counted:
            return self._counted[core]
        offset = min(range(len(core)), key=lambda index: len(self.where.get(core[index], ())))
        length, lines = len(core), self.lines
        count = sum(1 for place in self.where.get(core[offset], ())
                    if place >= offset and tuple(lines[place - offset:place - offset + length]) == core)
        self._counted[core] = count
        return count
