"""Subject -> relation -> [objects] grouping, shared by structured_json, yaml and turtle.

These formats nest a node's outgoing edges under it, so they reorder the given units: subjects in
the order of their first unit, a subject's node record first, then its edges grouped by relation in
the order of each relation's first edge, each group keeping the given order. Grouping is stable, so
the rendering of any prefix of the grouped records groups its own units the same way: every prefix
of a rendering equals the rendering of the units it holds.

In a subject's mapping the keys `type` and `properties` are the node's own fields; a relation with
one of these names, or whose name starts with `~`, is written with one more `~` in front.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from core.graph.units import EdgeUnit, NodeUnit, Unit

KEY_ESCAPE = "~"


@dataclass
class SubjectGroup:
    subject: str
    node: NodeUnit | None = None
    relations: dict[str, list[EdgeUnit]] = field(default_factory=dict)


def subject_groups(units: Sequence[Unit]) -> list[SubjectGroup]:
    groups: dict[str, SubjectGroup] = {}
    for unit in units:
        if unit.is_node:
            groups.setdefault(unit.node.id, SubjectGroup(unit.node.id)).node = unit
        else:
            group = groups.setdefault(unit.edge.source, SubjectGroup(unit.edge.source))
            group.relations.setdefault(unit.edge.relation, []).append(unit)
    return list(groups.values())


def escape_key(key: str, reserved: tuple[str, ...]) -> str:
    """`type` -> `~type`, `~x` -> `~~x`; every other key is written as it is."""
    return KEY_ESCAPE + key if key in reserved or key.startswith(KEY_ESCAPE) else key


def unescape_key(key: str) -> str:
    """The name behind a key that is not one of the reserved ones."""
    return key[1:] if key.startswith(KEY_ESCAPE) else key
