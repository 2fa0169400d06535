"""The glossary explains every word the issue names, and the sidebar shows it (see tests/dashboard/test_app.py)."""

from dashboard.state.glossary import GLOSSARY, glossary_markdown


def test_the_words_a_newcomer_meets_are_explained():
    for term in ("D_k(S)", "record", "grammar tokens", "RDS", "hop tiers", "evidence", "evidence survival",
                 "traversal accuracy"):
        assert len(GLOSSARY[term].split()) >= 8, term


def test_the_markdown_holds_every_term_once():
    text = glossary_markdown()
    assert all(text.count(f"**{term}**") == 1 for term in GLOSSARY)
