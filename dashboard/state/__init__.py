"""Dashboard state without Streamlit (an import-linter contract): the glossary, teaching sentences, the budget choice and
control echoes, node choices and the inspected cut; tests import it directly."""
