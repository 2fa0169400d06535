"""A graph file's load error in the dashboard's words: its controls, not the CLI's flags, and one reader's reason.

Core's messages name command-line flags (`--format`, `--nodes FILE`) because the CLI and the library share
them; on the upload form the same fix is a control under "File options". When several readers were tried,
only the chosen or detected reader's refusal is kept (`LoadError.primary`).
"""

from __future__ import annotations

import re

from core.errors import GraphContextError, LoadError

OPTIONS = "File options"
CONTROLS = {  # flag -> the upload form's control (dashboard/sources.py)
    "--format": f"{OPTIONS} → Format",
    "--nodes": f"{OPTIONS} → Nodes table",
    "--node-type-attribute": f"{OPTIONS} → Node type attribute",
    "--relation-attribute": f"{OPTIONS} → Relation attribute",
    "--duplicates": f"{OPTIONS} → Duplicate node ids",
    "--missing-endpoints": f"{OPTIONS} → Edges to undeclared nodes",
}
LIMIT_FLAG = re.compile(r"\(?--max-[a-z-]+\)?")
FORMAT_LIST = re.compile(r"\(--format(?:,| NAME)[^)]*\)")
FLAG = re.compile(r"--[a-z][a-z-]*(?: (?:FILE|NAME))?")
MISSING_COLUMNS = re.compile(r"the header lacks the column\(s\) ")


def dashboard_words(error: GraphContextError) -> str:
    """The error as the upload form says it: the reader's own reason, its fix in terms of the form's controls."""
    shown = error.primary if isinstance(error, LoadError) and error.primary is not None else error
    what, where, fix = shown.what, shown.where, shown.fix
    if MISSING_COLUMNS.match(what):
        fix = (f"{fix}; or map its columns under {OPTIONS} → Source column, Target column (and Relation "
               "column, type columns)")
    text = f"{what}" + (f" (at {where})" if where else "") + (f". Fix: {fix}" if fix else "")
    text = FORMAT_LIST.sub(f"({OPTIONS} → Format)", text)
    text = LIMIT_FLAG.sub("(the server's import limits, set by whoever runs it)", text)
    return FLAG.sub(lambda match: CONTROLS.get(match.group(0).split(" ")[0], match.group(0)), text)
