"""Where this Streamlit server listens, and the refusal to serve beyond loopback unless the user asked by name."""

from __future__ import annotations

import os

import streamlit as st
from streamlit import runtime
from streamlit.runtime import Runtime

from core.commands.dashboard import remote_refusal


def served_address() -> str | None:
    """The address the server listens on ("" or None: every interface); loopback under AppTest, which serves nothing
    (its runtime is a stand-in, not a `Runtime`)."""
    if not runtime.exists() or type(Runtime.instance()) is not Runtime:
        return "127.0.0.1"
    return st.get_option("server.address")


def refuse_remote() -> None:
    """Stop the script with a message saying what, where and how to fix, when it serves beyond loopback unasked."""
    refusal = remote_refusal(served_address(), os.environ)
    if refusal:
        st.error(f"**This dashboard refuses to serve beyond this machine.**\n\n{refusal}", icon="🔒")
        st.stop()
