"""An audit of a context in words and as a JSON document: what `graph-context-lab audit` prints and the dashboard
shows, written once (figures in core.number_style)."""

from __future__ import annotations

from collections.abc import Sequence

from core.analysis.audit import Audit
from core.errors import listed
from core.number_style import share, whole

SHOWN = 10  # ids and keys listed per line; the JSON document lists them all


def _plural(count: int, one: str, many: str | None = None) -> str:
    return f"{whole(count)} {one if count == 1 else (many or one + 's')}"


def _named(items: Sequence[str]) -> str:
    return f": {listed(items, SHOWN)}" if items else ""


def duplicates_line(audit: Audit) -> str:
    """What the context writes twice, or why its records could not be counted (never a 0 it cannot tell)."""
    duplicates = audit.duplicates
    repeated = ", ".join(f"{key} ({whole(written)} times, the graph has {whole(allowed)})"
                         for key, written, allowed in duplicates.repeated[:SHOWN])
    more = f"… and {whole(len(duplicates.repeated) - SHOWN)} more" if len(duplicates.repeated) > SHOWN else ""
    if duplicates.counted:
        if not duplicates.repeated:
            return "duplicates: none (every record counted by its text)"
        return (f"duplicates: {_plural(len(duplicates.repeated), 'unit')} written more often than the graph has "
                f"{'it' if len(duplicates.repeated) == 1 else 'them'}, {_plural(duplicates.extra, 'extra record')}: "
                f"{repeated}{more}")
    bound = (f"; at least {_plural(duplicates.extra, 'extra edge record')}, which the decoder gave back more often "
             f"than the graph has them: {repeated}{more}") if duplicates.repeated else ""
    return f"duplicates: not counted ({duplicates.reason}){bound}"


def audit_lines(audit: Audit) -> list[str]:
    """The audit as lines of text, in the order a reader checks them."""
    approximate = ", approximate for its model" if audit.approximate else ""
    lossy = " (lossy: compared with what it keeps of each unit)" if not audit.lossless else ""
    total = audit.graph_nodes + audit.graph_edges
    lines = [
        f"{audit.source}: {audit.format_name}{lossy}, {whole(audit.tokens)} tokens ({audit.tokenizer_name}"
        f"{approximate}), {whole(audit.characters)} characters, {whole(audit.bytes)} bytes",
        f"holds {whole(audit.units_covered)} of the graph's {whole(total)} units ({share(audit.coverage)}): "
        f"{whole(len(audit.nodes_covered))} of {whole(audit.graph_nodes)} nodes, "
        f"{whole(len(audit.edges_covered))} of {whole(audit.graph_edges)} edges",
        f"not in the graph: {_plural(len(audit.nodes_not_in_graph), 'node record')}{_named(audit.nodes_not_in_graph)}"
        f"; {_plural(len(audit.edges_not_in_graph), 'edge record')}{_named(audit.edges_not_in_graph)}",
    ]
    if audit.nodes_differing or audit.edges_differing:
        lines.append(f"written otherwise than in the graph: "
                     f"{_plural(len(audit.nodes_differing), 'node record')}{_named(audit.nodes_differing)}; "
                     f"{_plural(len(audit.edges_differing), 'edge record')}{_named(audit.edges_differing)}")
    lines.append(f"dangling: {_plural(len(audit.dangling_edges), 'edge')} whose endpoint has no node record"
                 f"{_named(audit.dangling_edges)}")
    lines.append(duplicates_line(audit))
    checked = audit.question
    if checked is not None:
        if checked.reading:
            lines.append(f"question {checked.reading}")
        lines.append(f"evidence kept: {whole(checked.evidence_kept)} of {whole(checked.evidence_total)} evidence "
                     f"units ({share(checked.evidence_survival)})"
                     + (f"; missing{_named(checked.evidence_missing)}" if checked.evidence_missing else ""))
        lines.append(f"answered from the context: {'yes' if checked.answered else 'no'} (the query's solver run on "
                     "what the context holds, compared with its answer on the whole graph)")
    return lines


def audit_document(audit: Audit) -> dict:
    """The audit as a JSON-ready document: every list in full, the figures the lines derive."""
    duplicates = audit.duplicates
    checked = audit.question
    return {
        "source": audit.source, "format": audit.format_name, "lossless": audit.lossless,
        "tokenizer": audit.tokenizer_name, "approximate": audit.approximate, "tokens": audit.tokens,
        "characters": audit.characters, "bytes": audit.bytes,
        "graph": {"nodes": audit.graph_nodes, "edges": audit.graph_edges},
        "units_covered": audit.units_covered, "coverage": audit.coverage,
        "nodes_covered": list(audit.nodes_covered), "edges_covered": list(audit.edges_covered),
        "nodes_not_in_graph": list(audit.nodes_not_in_graph), "edges_not_in_graph": list(audit.edges_not_in_graph),
        "nodes_differing": list(audit.nodes_differing), "edges_differing": list(audit.edges_differing),
        "dangling_edges": list(audit.dangling_edges),
        "duplicates": {"counted": duplicates.counted, "reason": duplicates.reason, "extra": duplicates.extra,
                       "repeated": [{"key": key, "written": written, "graph_has": allowed}
                                    for key, written, allowed in duplicates.repeated]},
        "question": None if checked is None else {
            "query": checked.query_label, "question": checked.question, "reading": checked.reading,
            "evidence_total": checked.evidence_total, "evidence_kept": checked.evidence_kept,
            "evidence_survival": checked.evidence_survival, "evidence_missing": list(checked.evidence_missing),
            "answered": checked.answered},
    }
