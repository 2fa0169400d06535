"""The dashboard's readers: the bundled model's server (started on first use, kept while the dashboard runs, stopped
at its exit) and the reference readers' server."""

from __future__ import annotations

import streamlit as st

from core.evaluate.client import Endpoint
from core.evaluate.model_process import ModelProcess
from core.evaluate.reader_server import ReaderServer

BUNDLED_MAX_TOKENS = 128  # answers are a few identifiers; a rambling constrained reply is cut here


@st.cache_resource(show_spinner=False)
def bundled_model() -> ModelProcess:
    """One server per dashboard process, shared by its sessions (it answers one request at a time)."""
    return ModelProcess().start()


def bundled_endpoint(answer_format: str = "json_schema") -> Endpoint:
    """The bundled model's endpoint, starting its server on first use (a few seconds)."""
    with st.spinner("Starting the bundled model (llama.cpp, SmolLM2-135M-Instruct)…"):
        server = bundled_model()
    return Endpoint(server.url, server.model_name, max_tokens=BUNDLED_MAX_TOKENS, seed=0, timeout_seconds=600.0,
                    max_retries=0, answer_format=answer_format)


@st.cache_resource(show_spinner=False)
def reference_readers() -> ReaderServer:
    """The oracle and first-k readers on a free loopback port, one per dashboard process."""
    return ReaderServer().start()
