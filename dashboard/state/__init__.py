"""Dashboard state without Streamlit: the glossary, teaching sentences, control echoes, node choices and the inspected cut; tests import it directly."""
