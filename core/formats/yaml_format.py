"""yaml: the lab's variant of KG-LLM-Bench's structured YAML, subject -> relation -> [objects], with node types.

KG-LLM-Bench's own text, as its generator writes it, is `kgllm_structured_yaml`.

The document is the one structured_json writes, dumped by PyYAML's safe dumper (block style, keys
in rendering order, Unicode kept, no line folding) and read back by its safe loader, both libyaml's
C classes when PyYAML has them (several times faster; the pure-Python dumper differs only in writing
an empty key as the complex key `? ''`); the full rendering is exactly that dump. One exception: PyYAML writes U+0085 (NEL) raw inside single quotes, where its
own loader folds it into a space, so a graph holding a NEL anywhere is dumped with
`allow_unicode=False`, which writes every non-ASCII character as an escape in double quotes.

Each record is the text its node or edge adds to the dump. PyYAML's block style only appends, so a
record is the dump of a small document holding the record and its context (is it the first key of
its subject? the first item of its list?) minus the dump of that context alone.
"""

from __future__ import annotations

from collections.abc import Sequence

import yaml

from core.errors import FormatError
from core.formats.base import AtomKind, Format, Record, Rendering, after_whole_records, record_memo
from core.formats.structured_json import RESERVED, graph_from_document
from core.formats.subject_groups import escape_key, subject_groups
from core.graph.model import Edge, Graph, Node
from core.graph.units import Unit, escape_key_atom

NAME = "yaml"
_PLACEHOLDER = "x"  # stands for the context a record follows; it never reaches the output
_NEL = "\x85"
# libyaml's C classes when PyYAML was built with them: the same documents, several times faster
# (checked byte for byte against the pure-Python classes in tests/core/formats/test_yaml.py).
_COMPOSER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # its marks count characters like PyYAML's
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_DUMPER = getattr(yaml, "CSafeDumper", yaml.SafeDumper)
YAML_LINE_BREAKS = "\n\r\x85\u2028\u2029"  # what YAML counts as line breaks (its marks' line numbers)
_NO_FOLDING = 2**31 - 1  # libyaml takes a C int; float("inf") overflows it

GRAMMAR = """\
YAML mapping: each key is a node id (the subject), its value a mapping with the node's type, its \
properties if any, and per relation a list of target ids: `a: {r: [b]}` means a --r--> b. A \
repeated target is a parallel edge; an item with target and properties is an edge with properties. \
A relation named type or properties, or starting with ~, gets an extra leading ~."""


def dump(value: object, allow_unicode: bool = True) -> str:
    return yaml.dump(value, Dumper=_DUMPER, allow_unicode=allow_unicode, sort_keys=False, default_flow_style=False,
                     width=_NO_FOLDING)


def _holds_nel(graph: Graph) -> bool:
    return _NEL in graph.canonical_text  # JSON keeps U+0085 as it is (ensure_ascii=False)


def _node_value(node: Node) -> dict:
    value: dict = {"type": node.type}
    if node.properties:
        value["properties"] = dict(node.properties)
    return value


def _target_value(edge: Edge) -> object:
    if not edge.properties:
        return edge.target
    return {"target": edge.target, "properties": dict(edge.properties)}


Span = tuple[int, int, AtomKind]


def _scalar(node: yaml.Node, kind: AtomKind) -> list[Span]:
    return [(node.start_mark.index, node.end_mark.index, kind)]


def _property_spans(mapping: yaml.MappingNode) -> list[Span]:
    return [span for key, value in mapping.value
            for span in _scalar(key, "property_key") + _scalar(value, "property_value")]


def _atom_spans(document: yaml.MappingNode) -> list[Span]:
    """Where the ids, types, relations and properties lie in a composed dump of our own."""
    spans: list[Span] = []
    for subject, body in document.value:
        spans += _scalar(subject, "node_id")
        for key, value in body.value:
            if key.value == "type":
                spans += _scalar(value, "node_type")
            elif key.value == "properties":
                spans += _property_spans(value)
            else:
                spans += _scalar(key, "relation")
                for item in value.value:
                    if isinstance(item, yaml.ScalarNode):
                        spans += _scalar(item, "node_id")
                        continue
                    for field, content in item.value:
                        spans += (_scalar(content, "node_id") if field.value == "target"
                                  else _property_spans(content))
    return spans


class _Dumps:
    """Memoised dumps: consecutive records share their contexts."""

    def __init__(self, allow_unicode: bool) -> None:
        self.allow_unicode = allow_unicode
        self._last: tuple[str, str] = ("", "")

    def __call__(self, value: dict) -> str:
        key = repr(value)
        if self._last[0] != key:
            self._last = (key, dump(value, self.allow_unicode))
        return self._last[1]


def _record(document: dict, context: dict | None, key: str, dumps: _Dumps) -> Record:
    """The text `document` adds to the dump of `context`, with the atoms in that text."""
    full = dump(document, dumps.allow_unicode)
    base = dumps(context) if context is not None else ""
    if not full.startswith(base):  # PyYAML's block style appends; this guards that assumption
        raise AssertionError(f"yaml dump of {document!r} does not extend that of {context!r}")
    spans = _atom_spans(yaml.compose(full, Loader=_COMPOSER))
    offset = len(base)
    atoms = tuple((start - offset, end - offset, kind) for start, end, kind in sorted(spans)
                  if start >= offset and end > start)
    return Record(full[offset:], (key,), atoms)


def render(graph: Graph, units: Sequence[Unit]) -> Rendering:
    dumps = _Dumps(allow_unicode=not _holds_nel(graph))
    # A record depends on its unit and on its place in its subject's mapping (first key, first item).
    memo = record_memo(graph, NAME)
    records: list[Record] = []
    for group in subject_groups(units):
        subject = group.subject
        if group.node is not None:
            record = memo.get(group.node.key)
            if record is None:
                record = memo[group.node.key] = _record({subject: _node_value(group.node.node)}, None,
                                                        group.node.key, dumps)
            records.append(record)
        for relation_index, (relation, edges) in enumerate(group.relations.items()):
            name = escape_key(relation, RESERVED)
            first_key = group.node is None and relation_index == 0
            before: dict[str, object] = {} if first_key else {"type": _PLACEHOLDER}
            for edge_index, unit in enumerate(edges):
                known = memo.get((unit.key, edge_index > 0, first_key))
                if known is not None:
                    records.append(known)
                    continue
                target = _target_value(unit.edge)
                if edge_index:
                    document = {subject: {**before, name: [_PLACEHOLDER, target]}}
                    context = {subject: {**before, name: [_PLACEHOLDER]}}
                elif first_key:
                    document, context = {subject: {name: [target]}}, None
                else:
                    document = {subject: {**before, name: [target]}}
                    context = {subject: before}
                records.append(memo.setdefault((unit.key, edge_index > 0, first_key),
                                               _record(document, context, unit.key, dumps)))
    closings = ("{}\n",) + ("",) * len(records)
    return Rendering(NAME, "", tuple(records), closings)


def _load_without_aliases(text: str) -> object:
    """yaml.safe_load (libyaml's when present), refusing aliases before anything is built: each `*alias` repeats its anchor's whole
    value, so a 15 KB document of nested aliases stands for more edges than memory holds."""
    loader = _LOADER(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return None
        _refuse_aliases(node)
        return loader.construct_document(node)
    finally:
        loader.dispose()


def _refuse_aliases(root: yaml.Node) -> None:
    """The composer makes an alias the very node object of its anchor: a node met twice is an alias."""
    seen: set[int] = set()
    stack = [root]
    while stack:
        node = stack.pop()
        if id(node) in seen:
            mark = node.start_mark
            raise FormatError("the YAML repeats a value through an alias (*name); aliases are refused",
                              f"line {mark.line + 1} column {mark.column + 1} (the anchored value)",
                              "write every value out in full", line=mark.line + 1)
        seen.add(id(node))
        if isinstance(node, yaml.SequenceNode):
            stack.extend(node.value)
        elif isinstance(node, yaml.MappingNode):
            stack.extend(item for pair in node.value for item in pair)


def read_document(text: str) -> object:
    """The YAML document, read safely (no aliases), every failure a FormatError that says where."""
    try:
        return _load_without_aliases(text)
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        line = mark.line + 1 if mark else None
        raise FormatError(f"invalid YAML: {error.problem or error.context}",
                          f"line {line} column {mark.column + 1}" if mark else "document",
                          "check the indentation and quoting", line=line) from None
    except (yaml.YAMLError, ValueError, TypeError, OverflowError, RecursionError) as error:
        raise FormatError(f"invalid YAML: {str(error)[:120]}", "document",
                          "check the indentation and quoting") from None


def decode(text: str) -> Graph:
    return graph_from_document(read_document(text))


def _place(key: str) -> tuple[str, str | None]:
    """(subject, relation) of a record's unit key, escaped as in an edge key (equal exactly when the names are)."""
    if key.startswith("n:"):
        return escape_key_atom(key[2:]), None  # a node key holds the id as it is
    parts = key[2:].split("|")  # `|` inside a name is escaped as \\p
    return parts[0], parts[1]


def tail_context(rendering: Rendering, kept: int, tail: str) -> list[int] | None:
    """The whole records a raw cut's partial record needs in place to read as in the whole cut.

    The first record (so the top-level mapping starts where it does), the record that opened the tail's
    subject (its key, and its type) and every record of the tail's relation list (a list item's error
    names its index). A tail with an explicit `?` key (PyYAML's form for keys over 128 characters) is
    left to the whole decode: cut short, it could repeat a key above it, and YAML keeps the last.
    """
    records = rendering.records
    if kept >= len(records) or any(line.lstrip(" -").startswith("?") for line in tail.split("\n")):
        return None
    subject, relation = _place(records[kept].unit_keys[0])
    context = [0]
    index = kept - 1
    while index >= 0:
        place = _place(records[index].unit_keys[0])
        if place[0] != subject:
            break
        if relation is not None and place[1] == relation:
            context.append(index)  # the tail's relation list, item by item
        index -= 1
    if index + 1 < kept:
        context.append(index + 1)  # the record that opened the subject
    return context


FORMAT = Format(
    name=NAME,
    title="Structured YAML (subject → relation → objects)",
    lossless=True,
    grammar=GRAMMAR,
    render=render,
    decode=decode,
    tail_start=after_whole_records,  # block YAML skips blank lines; the context keeps the keys above the tail
    tail_context=tail_context,
    line_breaks=YAML_LINE_BREAKS,
    example="svc-api: / type: service / depends_on: / - svc-auth (one per line, indented)",
)
