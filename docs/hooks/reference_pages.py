"""A mkdocs hook that writes the reference pages' tables from the code: every `<!-- reference: NAME -->` marker
in a page becomes the Markdown that `GENERATORS[NAME]()` builds from the registries, the argparse parser,
the dashboard's URL-bound widgets and the run store's schema.

Why a hook rather than checked-in Markdown: a new format, tokenizer, ordering, query, command or option then
appears in the docs without anyone editing them, and `tests/docs/test_site.py` fails if one does not.
"""

from __future__ import annotations

import argparse
import ast
import inspect
import re
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from types import SimpleNamespace

ROOT = Path(__file__).resolve().parents[2]

MARKER = re.compile(r"<!-- reference: ([a-z_]+) -->")
EXAMPLE_TOKENIZER = "o200k_base"


def registries() -> SimpleNamespace:
    """Every registry the reference reads, imported in this one place: when a registry moves into its
    package, only these imports change."""
    from core.budget import DEFAULT_POLICIES, POLICIES
    from core.formats import FORMATS
    from core.io.generate import GENERATORS
    from core.io.loading import IMPORTERS
    from core.queries import QUERIES
    from core.questions.generation import QUESTION_GENERATORS
    from core.retrieval import ORDERINGS
    from core.retrieval.ordering import LAYOUTS
    from core.tokens import MODELS, TOKENIZERS

    return SimpleNamespace(formats=FORMATS, tokenizers=TOKENIZERS, models=MODELS, orderings=ORDERINGS,
                           queries=QUERIES, question_generators=QUESTION_GENERATORS, graph_generators=GENERATORS,
                           importers=IMPORTERS, layouts=LAYOUTS, policies=POLICIES, default_policies=DEFAULT_POLICIES)


def cli_parser() -> argparse.ArgumentParser:
    from core.cli import build_parser

    return build_parser()


def _cell(text: object) -> str:
    """Text for one Markdown table cell: one line, pipes escaped."""
    return " ".join(str(text).split()).replace("|", "\\|")


def _table(header: tuple[str, ...], rows: Iterator[tuple[object, ...]] | list[tuple[object, ...]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(_cell(value) for value in row) + " |" for row in rows]
    return "\n".join(lines)


def _fence(text: str, language: str = "text") -> str:
    fence = "`" * max(3, max((len(run) for run in re.findall(r"`+", text)), default=0) + 1)
    return f"{fence}{language}\n{text.rstrip(chr(10))}\n{fence}"


def example_graph():
    """The graph every format example renders: the reference service graph at its smallest (7 nodes, 8 edges)."""
    from core.io.generate import service_graph

    return service_graph(3, 0, 7)


def formats() -> str:
    from core.graph.units import graph_units

    found = registries()
    graph = example_graph()
    tokenizer = found.tokenizers.get(EXAMPLE_TOKENIZER)
    summary = _table(("format", "what it is", "lossless", "layouts", "tokens of the example", "grammar tokens"), [
        (f"[`{name}`](#{name})", found.formats.get(name).title,
         "yes" if found.formats.get(name).lossless else f"**LOSSY**: {found.formats.get(name).lost}",
         "both" if found.formats.get(name).interleaves else "nodes_then_edges only",
         f"{tokenizer.count(found.formats.get(name).render(graph, graph_units(graph)).text):,}",
         f"{tokenizer.count(found.formats.get(name).grammar):,}")
        for name in found.formats.names()])
    sections = [summary]
    for name in found.formats.names():
        format_ = found.formats.get(name)
        text = format_.render(graph, graph_units(graph)).text
        sections.append(f"## `{name}`\n\n{format_.title}. "
                        + ("Lossless: decoding the text gives back the graph." if format_.lossless
                           else f"**LOSSY**: {format_.lost}.")
                        + f" {tokenizer.count(text):,} tokens ({EXAMPLE_TOKENIZER}), {len(text.encode()):,} bytes."
                        + f"\n\n{_fence(text)}\n\nGrammar (counted in the budget unless `--no-grammar`):\n\n"
                        + _fence(format_.grammar or "(none)"))
    return "\n\n".join(sections)


def tokenizers() -> str:
    found = registries()
    families = {}
    for name in found.models.names():
        model = found.models.get(name)
        families.setdefault(model.tokenizer, []).append(f"`{name}`" + (" (≈)" if model.approximate else ""))
    tokenizer_rows = [(f"`{name}`", found.tokenizers.get(name).family, ", ".join(families.get(name, [])) or "—",
                       found.tokenizers.get(name).source, found.tokenizers.get(name).licence,
                       "yes" if found.tokenizers.get(name).approximate else "no")
                      for name in found.tokenizers.names()]
    model_rows = [(f"`{name}`", found.models.get(name).title, f"`{found.models.get(name).tokenizer}`",
                   f"**approximate**: {found.models.get(name).note}" if found.models.get(name).approximate else "exact")
                  for name in found.models.names()]
    return (_table(("tokenizer (`--encoding`)", "family", "model families", "source package: file", "licence",
                    "approximate?"), tokenizer_rows)
            + "\n\n## Model families (`--model`)\n\n"
            + _table(("model (`--model`)", "models", "tokenizer", "count"), model_rows))


def orderings() -> str:
    found = registries()
    rows = []
    for name in found.orderings.names():
        ordering = found.orderings.get(name)
        reads = [word for word, used in (("seeds", ordering.uses_seeds), ("evidence (oracle)", ordering.uses_evidence),
                                         ("shuffle seed", ordering.uses_shuffle_seed),
                                         ("question text", ordering.uses_question)) if used]
        rows.append((f"`{name}`", ordering.title, ordering.description, ", ".join(reads) or "the graph only",
                     f"`{name}+ends`" if ordering.ranked else "—"))
    layouts = _table(("layout (`--layouts`)", ""), [
        ("`nodes_then_edges`", "every node record, then every edge record"),
        ("`interleaved`", "each node followed by its edges whose other endpoint is already written "
                          "(formats with separate node and edge sections only have nodes_then_edges)")])
    missing = [name for name in found.layouts if f"`{name}`" not in layouts]
    if missing:
        raise ValueError(f"layouts {missing} have no description in docs/hooks/reference_pages.py")
    return (_table(("ordering (`--orderings`)", "title", "order", "reads", "`+ends` variant"), rows)
            + "\n\n## Layouts\n\n" + layouts)


def policies() -> str:
    found = registries()
    rows = [(f"`{name}`", policy.description, "keeps a prefix" if policy.prefix else "selects units",
             "yes" if policy.always_parses else "no", "yes" if name in found.default_policies else "only when asked")
            for name, policy in ((name, found.policies.get(name)) for name in found.policies.names())]
    return _table(("policy (`--policies`)", "what survives B tokens", "how", "every cut parses",
                   "in a sweep by default"), rows)


def queries() -> str:
    found = registries()
    rows = [(f"`{name}`", found.queries.get(name).title, found.queries.get(name).family,
             ", ".join(f"`{parameter}`" for parameter in found.queries.get(name).parameters),
             ", ".join(found.queries.get(name).node_parameters) or "—", found.queries.get(name).question)
            for name in found.queries.names()]
    generators = [(f"`{name}`", (inspect.getdoc(found.question_generators.get(name)) or "").splitlines()[0])
                  for name in found.question_generators.names()]
    return (_table(("query (`--query`)", "title", "family", "parameters", "filled from seeds", "question text"), rows)
            + "\n\n## Question generators (`--generate`)\n\n" + _table(("generator", "what it draws"), generators))


def graph_sources() -> str:
    from core.io.generate import generator_parameters

    found = registries()
    importers = [(f"`{name}`", importer.title, ", ".join(f"`{ext}`" for ext in importer.extensions))
                 for name, importer in found.importers.items()]
    generators = [(f"`{name}`", (inspect.getdoc(found.graph_generators.get(name)) or "").splitlines()[0],
                   ", ".join(f"`{key}={value}`" for key, value in generator_parameters(found.graph_generators.get(name)).items()))
                  for name in found.graph_generators.names()]
    return (_table(("importer (`--format`)", "reads", "file endings"), importers)
            + "\n\n## Graph generators (`--generator`)\n\n"
            + _table(("generator", "what it builds", "options (`--generator-option NAME=VALUE`) and defaults"), generators))


def _subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def _option_row(action: argparse.Action) -> tuple[str, ...]:
    names = ", ".join(f"`{option}`" for option in action.option_strings) or f"`{action.dest}` (positional)"
    value = "flag" if action.nargs == 0 else f"`{action.metavar or action.dest.upper()}`"
    choices = list(action.choices) if action.choices is not None else []
    shown = (", ".join(map(str, choices[:12])) + (f", … ({len(choices)} in all)" if len(choices) > 12 else "")
             if choices else "")
    default = "" if action.default in (None, argparse.SUPPRESS, False) or action.nargs == 0 else f"`{action.default}`"
    help_text = (action.help or "") % {"default": action.default, "prog": "graph-context-lab"} if action.help else ""
    if shown:
        help_text = f"{help_text.rstrip()}; choices: {shown}."
    return (names, value, help_text, default)


def commands() -> str:
    parser = cli_parser()
    sections = []
    subcommands = _subcommands(parser)
    helps = {}
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            helps = {choice.dest: choice.help for choice in action._choices_actions}
    sections.append(_table(("command", "what it does"),
                           [(f"[`{name}`](#{name})", helps.get(name, "")) for name in subcommands]))
    for name, subparser in subcommands.items():
        rows = [_option_row(action) for action in subparser._actions if not isinstance(action, argparse._HelpAction)]
        description = (subparser.description or helps.get(name, "")).replace("%%", "%")
        sections.append(f"## `{name}`\n\n{_cell(description)}\n\n"
                        + _fence(f".venv/bin/graph-context-lab {name} --help", "bash") + "\n\n"
                        + _table(("option", "value", "what it does", "default"), rows))
    return "\n\n".join(sections)


def _url_widgets(path: Path) -> Iterator[tuple[str, str, str]]:
    """(URL parameter, widget label, page) for each widget a dashboard module binds to the URL."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        keywords = {keyword.arg: keyword.value for keyword in node.keywords if keyword.arg}
        bind = keywords.get("bind")
        if not (isinstance(bind, ast.Constant) and bind.value == "query-params"):
            continue
        key = keywords.get("key")
        parameter = (f"`{key.value}`" if isinstance(key, ast.Constant)
                     else f"computed: `{ast.unparse(key)}`" if key is not None else "")
        label = node.args[0] if node.args else keywords.get("label")
        label_text = label.value if isinstance(label, ast.Constant) else ast.unparse(label) if label else ""
        yield parameter, str(label_text), path.relative_to(ROOT).as_posix()


def dashboard_url() -> str:
    rows = sorted({row for path in sorted((ROOT / "dashboard").rglob("*.py")) for row in _url_widgets(path)},
                  key=lambda row: (row[2], row[0]))
    return _table(("URL parameter", "widget", "defined in"), rows)


def run_store() -> str:
    from core.evaluate import store

    return _fence(store._SCHEMA.strip(), "sql") + f"\n\nLayout version (`PRAGMA user_version`): {store.STORE_VERSION}."


def audit_formats() -> str:
    """Per format, whether `audit` counts records written twice, on the example graph: its complete text with its
    second record (or its only one) written twice, and a record cut (its first half of records)."""
    from core.analysis.audit import audit_context
    from core.errors import FormatError
    from core.formats.base import Rendering
    from core.graph.units import graph_units

    found = registries()
    graph, tokenizer = example_graph(), found.tokenizers.get(EXAMPLE_TOKENIZER)

    def verdict(text: str, format_, twice: bool = False) -> str:
        try:
            duplicates = audit_context(graph, text, format_, tokenizer).duplicates
        except FormatError:
            return "refused: its decoder allows no record twice"
        if not duplicates.counted:
            return f"not counted: {duplicates.reason}"
        return "counted: none written twice" if twice and not duplicates.repeated else "counted"

    rows = []
    for name in found.formats.names():
        format_ = found.formats.get(name)
        rendering = format_.render(graph, graph_units(graph))
        records, closings = list(rendering.records), list(rendering.closings)
        second = min(1, len(records) - 1)
        twice = Rendering(name, rendering.preamble, tuple(records[:second + 1] + records[second:]),
                          tuple(closings[:second + 1] + closings[second:]))
        rows.append((f"`{name}`", verdict(twice.text, format_, bool(records[second].text.strip())),
                     verdict(rendering.prefix_text(len(records) // 2), format_)))
    return _table(("format", "its complete text, one record written twice", "a record cut (the first half)"), rows)


GENERATORS: dict[str, Callable[[], str]] = {
    "formats": formats, "tokenizers": tokenizers, "orderings": orderings, "policies": policies,
    "queries": queries, "graph_sources": graph_sources, "commands": commands, "dashboard_url": dashboard_url,
    "run_store": run_store, "audit_formats": audit_formats,
}


def project_on_path() -> None:
    """Put this checkout first on sys.path, so `core` is its code (mkdocs restores sys.path after loading a hook,
    so this runs when a page is built, not when the hook is loaded)."""
    if sys.path[:1] != [str(ROOT)]:
        sys.path.insert(0, str(ROOT))


def expand(markdown: str) -> str:
    """The page with each reference marker replaced by its generated Markdown; an unknown marker is an error."""
    project_on_path()
    def replace(match: re.Match[str]) -> str:
        if match.group(1) not in GENERATORS:
            raise ValueError(f"unknown reference marker {match.group(0)}; known: {', '.join(GENERATORS)}")
        return GENERATORS[match.group(1)]()

    return MARKER.sub(replace, markdown)


def on_page_markdown(markdown: str, page, config, files) -> str:  # the mkdocs hook
    return expand(markdown)
