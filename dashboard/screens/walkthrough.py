"""walkthrough page (being built)."""
import streamlit as st


def show() -> None:
    st.title("walkthrough")


if __name__ == "__main__":  # run as a page by st.navigation
    show()
