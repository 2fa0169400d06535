"""graph page (being built)."""
import streamlit as st


def show() -> None:
    st.title("graph")
