"""A first pass over untrusted XML before a library parses it: no DTD or entities, nesting and counts limited.

defusedxml refuses <!DOCTYPE>, entity declarations and external references; a parser target counts
the elements named as nodes and edges while the file streams through, so a file over the count
limits is refused as soon as it passes them, before any graph is built.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from xml.etree.ElementTree import ParseError

from defusedxml import DTDForbidden, EntitiesForbidden, ExternalReferenceForbidden
from defusedxml.ElementTree import XMLParser

from core.errors import LoadError
from core.io.limits import Limits


@dataclass
class XmlSummary:
    """What the first pass saw: the root's local name and namespace, the local names of its children, the ids of
    the node elements in order."""

    root: str
    namespace: str = ""
    children: set[str] = field(default_factory=set)
    node_ids: list[str] = field(default_factory=list)


class _Counter:
    def __init__(self, limits: Limits, source: str, node_tag: str, edge_tag: str) -> None:
        self.limits, self.source, self.node_tag, self.edge_tag = limits, source, node_tag, edge_tag
        self.depth = self.nodes = self.edges = 0
        self.root: str | None = None
        self.namespace = ""
        self.children: set[str] = set()  # local names of the root's children
        self.node_ids: list[str] = []  # the id attribute of each node element, in order
        self.line = lambda: 0

    def start(self, tag: str, attributes: dict[str, str]) -> None:
        self.depth += 1
        self.limits.check_depth(self.depth, self.source, f"line {self.line()}")
        local = tag.rsplit("}", 1)[-1]
        if self.root is None:
            self.root = local
            self.namespace = tag[1:].partition("}")[0] if tag.startswith("{") else ""
        elif self.depth == 2:
            self.children.add(local)
        if local == self.node_tag:
            self.nodes += 1
            self.node_ids.append(attributes.get("id", ""))
        elif local == self.edge_tag:
            self.edges += 1
        else:
            return
        self.limits.check_counts(self.nodes, self.edges, f"{self.source}, line {self.line()}")

    def end(self, tag: str) -> None:
        self.depth -= 1

    def close(self) -> str | None:
        return self.root


def check_xml(data: bytes, source: str, limits: Limits, *, node_tag: str = "node", edge_tag: str = "edge",
              fix: str = "check that the file was exported by a graph tool, and that every tag is closed"
              ) -> XmlSummary:
    """The root element's name, namespace and children and the ids of the node elements, or a LoadError naming
    the line of the first problem."""
    if not bytes(data).strip():
        raise LoadError("the file is empty", source, "choose the graph file itself")
    counter = _Counter(limits, source, node_tag, edge_tag)
    root = feed_xml(counter, data, source, fix)
    if root is None:
        raise LoadError("the file holds no XML element", source, fix)
    return XmlSummary(root, counter.namespace, counter.children, counter.node_ids)


def feed_xml(target, data: bytes, source: str, fix: str):
    """Parse `data` into a parser target through defusedxml, every refusal a LoadError with its line.

    The target gets a `line()` callable (the parser's current line) for its own messages.
    """
    parser = XMLParser(target=target, forbid_dtd=True, forbid_entities=True, forbid_external=True)
    target.line = lambda: parser.parser.CurrentLineNumber
    try:
        parser.feed(data)
        return parser.close()
    except DTDForbidden:
        raise LoadError("the file declares a document type (<!DOCTYPE ...>); DTDs can define entities that "
                        "expand without bound or read other files, so they are refused",
                        f"{source}, line {target.line()}", "remove the <!DOCTYPE ...> declaration") from None
    except (EntitiesForbidden, ExternalReferenceForbidden):
        raise LoadError("the file declares or references an XML entity, which is refused",
                        f"{source}, line {target.line()}", "remove the entity declarations and references") from None
    except ParseError as error:
        line, column = getattr(error, "position", (target.line(), 0))
        reason = str(error).split(": line ")[0]  # the message repeats the position
        raise LoadError(f"the XML is not well-formed: {reason}", f"{source}, line {line}, column {column}", fix) from None
    except LookupError as error:  # <?xml ... encoding="x"?> names an encoding Python does not know
        raise LoadError(f"the XML declaration names an unknown encoding ({error})", f"{source}, line 1",
                        'save the file as UTF-8 and declare encoding="UTF-8"') from None
