"""One module per dashboard page (not named `pages/`, which Streamlit would run as a legacy page folder).

Each module defines `show()`, which reads the Selection, calls core and draws, and runs it when
st.navigation executes the module as a page script.
"""
