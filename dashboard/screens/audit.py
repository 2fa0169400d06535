"""Audit page: upload a context another pipeline built, pick its format, and see what it holds of the sidebar's graph.

The same report as `graph-context-lab audit` (core.analysis.audit through the workbench, written by
core.reports.audit_report). The upload is untrusted text: it is read within the import limits (core.io.context_text)
and shown only as text (a code block, tables), never as Markdown or HTML.
"""

from __future__ import annotations

import hashlib
import json

import pandas as pd
import streamlit as st

from core.analysis.audit import Audit
from core.errors import GraphContextError
from core.formats import FORMATS
from core.graph.model import Graph
from core.io.context_text import context_text
from core.number_style import share, whole
from core.queries import Query
from core.reports.audit_report import audit_document, audit_lines
from core.tokens import TOKENIZERS
from dashboard.cache import USER_DATA_ENTRIES, workbench
from dashboard.sidebar import Selection, current, format_label
from dashboard.state.upload_words import dashboard_words
from dashboard.views.markdown_text import escape_markdown
from dashboard.views.tables import show_table


@st.cache_data(max_entries=USER_DATA_ENTRIES, show_spinner="Decoding and auditing the context…")
def audited(data_key: str, _data: bytes, name: str, format_name: str, graph_key: str, _graph: Graph,
            tokenizer: str, query_key: str | None, _query: Query | None) -> Audit:
    """The audit of one upload, once per (its bytes, format, graph, tokenizer, question)."""
    text = context_text(_data, name)
    return workbench().audit(_graph, text, FORMATS.get(format_name), tokenizer=TOKENIZERS.get(tokenizer),
                             question=_query, source=name)


def figures(audit: Audit) -> None:
    row = st.container(horizontal=True, wrap=True, gap="medium")
    total = audit.graph_nodes + audit.graph_edges
    row.metric("Tokens", whole(audit.tokens), width="content", help=f"counted with {audit.tokenizer_name}")
    row.metric("Units of the graph held", f"{whole(audit.units_covered)} / {whole(total)}", width="content",
               help=f"{share(audit.coverage)}: {whole(len(audit.nodes_covered))} nodes, "
                    f"{whole(len(audit.edges_covered))} edges")
    row.metric("Records not in the graph", whole(audit.foreign_records), width="content",
               help="node or edge records naming what the graph does not have, or has otherwise")
    row.metric("Dangling edges", whole(len(audit.dangling_edges)), width="content",
               help="edges whose endpoint has no node record in the context")
    counted = audit.duplicates.counted
    row.metric("Records written twice" if counted else "Records written twice (not counted)",
               whole(audit.duplicates.extra) if counted else "—", width="content",
               help=None if counted else escape_markdown(audit.duplicates.reason))
    checked = audit.question
    if checked is not None:
        row.metric("Evidence kept", share(checked.evidence_survival), width="content",
                   help=f"{whole(checked.evidence_kept)} of {whole(checked.evidence_total)} evidence units")
        row.metric("Answered from it", "yes" if checked.answered else "no", width="content")


def listings(audit: Audit) -> None:
    """Each list of the report in a table (ids are the upload's text: tables show them as text)."""
    parts = [("Dangling edges", "dangling_edges", list(audit.dangling_edges)),
             ("Node records not in the graph", "nodes_not_in_graph", list(audit.nodes_not_in_graph)),
             ("Edge records not in the graph", "edges_not_in_graph", list(audit.edges_not_in_graph)),
             ("Records written otherwise than in the graph", "differing",
              [*audit.nodes_differing, *audit.edges_differing]),
             ("Evidence missing", "evidence_missing", list(audit.question.evidence_missing) if audit.question else [])]
    for title, key, items in parts:
        if items:
            with st.expander(f"{title} ({whole(len(items))})"):
                show_table(pd.DataFrame({"record": items}), f"audit_{key}", hide_index=True)
    repeated = audit.duplicates.repeated
    if repeated:
        with st.expander(f"Units written more often than the graph has them ({whole(len(repeated))})"):
            show_table(pd.DataFrame(repeated, columns=["unit", "written", "the graph has"]), "audit_repeated",
                       hide_index=True, rename=False)


def show() -> None:
    selection: Selection = current()
    graph = selection.graph
    st.title("Audit a context")
    st.caption(f"A context another pipeline built, decoded in its format and checked against "
               f"{escape_markdown(selection.loaded.label)} ({whole(len(graph.nodes))} nodes, "
               f"{whole(len(graph.edges))} edges), counted with {escape_markdown(selection.tokenizer)}. The same "
               "report as `graph-context-lab audit`.")
    upload = st.file_uploader("Context file (text)", key="audit_upload",
                              help="the exact text a pipeline sent, in one of the lab's formats")
    format_name = st.selectbox("Written in", FORMATS.names(), format_func=format_label, key="audit_format",
                               bind="query-params")
    ask = st.checkbox("Check the sidebar's question against it", value=True, key="audit_question",
                      help=escape_markdown(selection.query.question_shown(graph)))
    if upload is None:
        st.info("Upload a context file to see its tokens, the graph's units it holds, its duplicate and dangling "
                "records and, for the sidebar's question, the evidence it keeps.")
        return
    data = upload.getvalue()
    try:
        audit = audited(hashlib.sha256(data).hexdigest(), data, upload.name, format_name, graph.content_key, graph,
                        selection.tokenizer, selection.query_key if ask else None, selection.query if ask else None)
    except GraphContextError as error:
        st.error(f"**This context cannot be audited.**\n\n{escape_markdown(dashboard_words(error))}", icon="⚠️")
        return
    figures(audit)
    st.code("\n".join(audit_lines(audit)), language=None, wrap_lines=True)  # the CLI's report, as plain text
    listings(audit)
    st.download_button("Audit as JSON", json.dumps(audit_document(audit), indent=1, ensure_ascii=False),
                       file_name="audit.json", mime="application/json", key="audit_json", on_click="ignore")


if __name__ == "__main__":  # run as a page by st.navigation
    show()
