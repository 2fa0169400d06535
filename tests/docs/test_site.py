"""The documentation site builds with `mkdocs build --strict`, and documents every registered name and CLI option.

The reference pages are written from the code by docs/hooks/reference_pages.py; these tests read the built HTML,
so a name that the hook skipped, a page left out of the navigation or a broken link fails here.
"""

from __future__ import annotations

import argparse
import html
import importlib
import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def load_hook():
    spec = importlib.util.spec_from_file_location("reference_pages", ROOT / "docs" / "hooks" / "reference_pages.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


HOOK = load_hook()


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    """The site built strictly (any warning fails: a broken link or anchor, a page not in the navigation)."""
    target = tmp_path_factory.mktemp("site")
    environment = {**os.environ, "PYTHONPATH": str(ROOT), "NO_MKDOCS_2_WARNING": "1"}
    built = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(target)],
                           cwd=ROOT, env=environment, capture_output=True, text=True, timeout=300)
    assert built.returncode == 0, built.stderr[-3000:]
    return target


def page(site: Path, name: str) -> str:
    return (site / name / "index.html").read_text(encoding="utf-8")


def code(name: str) -> str:
    """How a name set in backticks appears in the built HTML."""
    return f"<code>{html.escape(name, quote=False)}</code>"


def test_the_site_builds_strictly_and_has_every_section(site):
    for section in ("tutorial/first-comparison", "how-to/falkordb", "reference/cli", "explanation/hop-tiers",
                    "performance"):
        assert (site / section / "index.html").is_file(), section
    assert "reference: " not in page(site, "reference/formats"), "a reference marker was left unexpanded"


def test_the_site_loads_no_font_or_script_from_another_host(site):
    """Read offline: no page fetches Google Fonts (the material theme's default) or anything else off the machine."""
    for built in site.rglob("*.html"):
        text = built.read_text(encoding="utf-8")
        assert "fonts.googleapis.com" not in text and "fonts.gstatic.com" not in text, built
        assert not re.search(r'<(?:link|script)[^>]+(?:href|src)="https?://', text), built


def test_every_registered_format_has_a_section_with_its_rendered_example(site):
    from core.graph.units import graph_units

    found = HOOK.registries()
    formats_page = page(site, "reference/formats")
    graph = HOOK.example_graph()
    for name in found.formats.names():
        format_ = found.formats.get(name)
        assert f'id="{name}"' in formats_page, f"the formats page has no section for {name}"
        first_line = format_.render(graph, graph_units(graph)).text.strip().splitlines()[0]
        assert html.escape(first_line, quote=False) in formats_page, f"{name}'s example is not rendered"
        assert ("LOSSY" in formats_page.split(f'id="{name}"')[1].split("<h2")[0]) == (not format_.lossless), name


def test_every_tokenizer_and_model_family_is_listed_with_its_source_and_licence(site):
    found = HOOK.registries()
    tokenizers_page = page(site, "reference/tokenizers")
    for name in [*found.tokenizers.names(), *found.models.names()]:
        assert code(name) in tokenizers_page, f"the tokenizers page does not list {name}"
    for name in found.tokenizers.names():
        tokenizer = found.tokenizers.get(name)
        assert html.escape(tokenizer.source, quote=False) in tokenizers_page, name
        assert html.escape(tokenizer.licence, quote=False) in tokenizers_page, name


def test_every_ordering_its_ends_variant_and_every_layout_are_documented(site):
    found = HOOK.registries()
    orderings_page = page(site, "reference/orderings")
    for name in [*found.orderings.names(), *found.orderings.ends_names(), *found.layouts]:
        assert code(name) in orderings_page, f"the orderings page does not describe {name}"


def test_every_policy_query_and_question_generator_is_documented(site):
    found = HOOK.registries()
    policies_page = page(site, "reference/policies")
    queries_page = page(site, "reference/queries")
    for name in found.policies:
        assert code(name) in policies_page, f"the policies page does not describe {name}"
    for name in [*found.queries.names(), *found.question_generators.names()]:
        assert code(name) in queries_page, f"the queries page does not describe {name}"


def test_every_importer_generator_exporter_and_limit_is_documented(site):
    found = HOOK.registries()
    sources_page = page(site, "reference/graph-sources")
    for name in [*found.importers, *found.graph_generators.names(), "node-link", "learning-graph", "edge-list"]:
        assert code(name) in sources_page, name
    for option in ("--max-bytes", "--max-nodes", "--max-edges", "--max-string-length", "--max-depth", "--nodes",
                   "--node-type-attribute", "--relation-attribute", "--duplicates", "--missing-endpoints"):
        assert option in sources_page, option


def test_every_command_and_option_of_the_parser_is_documented_with_help(site):
    cli_page = page(site, "reference/cli")
    subcommands = HOOK._subcommands(HOOK.cli_parser())
    assert subcommands, "the parser has no subcommands"
    for name, parser in subcommands.items():
        assert f'id="{name}"' in cli_page, f"the command line page has no section for {name}"
        section = cli_page.split(f'id="{name}"')[1].split("<h2")[0]
        for action in parser._actions:
            if isinstance(action, argparse._HelpAction):
                continue
            assert action.help, f"{name} {action.option_strings or action.dest} has no help text"
            for option in action.option_strings:
                assert code(option) in section, f"{name} {option} is not on the command line page"


def test_every_url_parameter_the_dashboard_binds_is_listed(site):
    url_page = page(site, "reference/dashboard-url")
    rows = [row for path in sorted((ROOT / "dashboard").rglob("*.py")) for row in HOOK._url_widgets(path)]
    assert len(rows) > 20, "the scan found too few URL-bound widgets: has bind='query-params' changed?"
    for parameter, _, _ in rows:
        if not parameter.startswith("computed"):
            assert html.escape(parameter.strip("`"), quote=False) in url_page, parameter


def test_the_run_store_page_holds_the_schema_the_store_creates(site):
    from core.evaluate import store

    store_page = page(site, "reference/run-store")
    for table in ("runs", "answers", "cells", "results"):
        assert f"EXISTS {table}" in html.unescape(store_page).replace("\n", " ") or table in store_page
    assert "prompt_tokens_reported" in store_page and str(store.STORE_VERSION) in store_page


def test_an_unknown_reference_marker_is_an_error_not_an_empty_table():
    with pytest.raises(ValueError, match="unknown reference marker"):
        HOOK.expand("<!-- reference: no_such_table -->")


def test_the_readme_is_a_front_page_whose_links_all_resolve():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.encode("utf-8")) <= 12 * 1024, "the README is a front page: 12 KB at most"
    targets = re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", readme)
    local = [target for target in targets if not target.startswith(("http://", "https://"))]
    assert len(local) > 20, "the README links into the docs"
    missing = [target for target in local if not (ROOT / target).exists()]
    assert not missing, f"the README links to files that do not exist: {missing}"
    for section in ("## Set up", "## A three-step tour", "## Which question, which page", "## In Python"):
        assert section in readme, section
    assert "http://localhost:8501" in readme


def test_every_file_and_module_the_docs_name_exists():
    """A module moved by a refactor leaves the docs pointing nowhere; this names each such path."""
    texts = [(ROOT / "README.md").read_text(encoding="utf-8")] + [
        path.read_text(encoding="utf-8") for path in (ROOT / "docs").rglob("*.md")]
    missing = set()
    for text in texts:
        for path in re.findall(r"`((?:core|dashboard|tests|bench)/[\w./-]+\.py)`", text):
            if not (ROOT / path).exists():
                missing.add(path)
        for name in re.findall(r"`(core(?:\.\w+)+)`", text):
            if not names_something(name):
                missing.add(name)
    assert not missing, f"the docs name what does not exist: {sorted(missing)}"


def names_something(dotted: str) -> bool:
    """`core.a.b` is a module, or an attribute of the module `core.a` (a function, a class, a constant)."""
    try:
        importlib.import_module(dotted)
        return True
    except ImportError:
        parent, _, attribute = dotted.rpartition(".")
        try:
            return hasattr(importlib.import_module(parent), attribute)
        except ImportError:
            return False
