"""graph page (being built)."""
import streamlit as st


def show() -> None:
    st.title("graph")


if __name__ == "__main__":  # run as a page by st.navigation
    show()
