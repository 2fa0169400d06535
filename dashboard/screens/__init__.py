"""One module per dashboard page (not named `pages/`, which Streamlit would run as a legacy page folder); each has a `show()` that reads the Selection, calls core and draws."""
