"""`graph-context-lab dashboard`: start the Streamlit app with the project's settings from any folder, on loopback.

Streamlit reads `.streamlit/config.toml` from the working folder only: `streamlit run <checkout>/dashboard/app.py`
started elsewhere listens on every interface, prints a "Network URL" and asks the internet for its external IP.
This command passes the project's settings as command-line flags instead, which apply wherever it starts, and
keeps the working folder (where the Model answers page finds run stores). The app itself refuses to serve on an
address other than loopback unless `GRAPH_CONTEXT_LAB_ALLOW_REMOTE=1` (`--allow-remote`) asks for it by name.
"""

from __future__ import annotations

import argparse
import ipaddress
import os
import sys
import tomllib
from collections.abc import Mapping
from pathlib import Path

from core.commands.graph_source import port
from core.errors import GraphContextError, ParameterError

ALLOW_REMOTE = "GRAPH_CONTEXT_LAB_ALLOW_REMOTE"  # "1": the user asked for a dashboard the network can reach
LOOPBACK = "127.0.0.1"
DEFAULT_PORT = 8501
PACKAGES = Path(__file__).resolve().parents[2]  # where core and dashboard sit side by side (checkout or site-packages)
APP = PACKAGES / "dashboard" / "app.py"
PROJECT_CONFIG = PACKAGES / ".streamlit" / "config.toml"  # in a checkout; an installed package has only the flags below
# What every start gets, whatever the configuration files say: loopback, the one URL printed (which also skips
# Streamlit's external-IP lookup: it asks only when neither address is set), and no usage statistics.
LOOPBACK_SETTINGS = {"server.address": LOOPBACK, "browser.serverAddress": LOOPBACK, "browser.gatherUsageStats": False}


def is_loopback(address: str | None) -> bool:
    """Whether a server address reaches this machine only: 127.0.0.0/8, ::1, localhost or a Unix socket."""
    if not address:
        return False  # unset: Streamlit listens on every interface
    if address == "localhost" or address.startswith("unix://"):
        return True
    try:
        return ipaddress.ip_address(address.strip("[]").split("%")[0]).is_loopback
    except ValueError:  # a host name: not resolved here, so not assumed to be local
        return False


def remote_refusal(address: str | None, environ: Mapping[str, str]) -> str | None:
    """The dashboard's refusal to serve on `address`, or None when it is loopback or the user asked by name."""
    if is_loopback(address) or environ.get(ALLOW_REMOTE) == "1":
        return None
    shown = f"on {address}" if address else "on every interface (server.address is not set)"
    return str(GraphContextError(
        f"the dashboard does not serve {shown}: the Model answers page can make this server send requests and "
        "write files, with no sign-in", "Streamlit's server.address (a .streamlit/config.toml is read from the "
        "working folder only)", f"start it with `graph-context-lab dashboard` (loopback, from any folder); to offer "
        f"it to the network on purpose, `graph-context-lab dashboard --address HOST --allow-remote` (which sets "
        f"{ALLOW_REMOTE}=1)"))


def project_settings() -> dict[str, object]:
    """The checkout's .streamlit/config.toml as `section.option` settings (none when it is not there)."""
    if not PROJECT_CONFIG.is_file():
        return {}
    config = tomllib.loads(PROJECT_CONFIG.read_text(encoding="utf-8"))
    return {f"{section}.{name}": value for section, options in config.items() if isinstance(options, dict)
            for name, value in options.items()}


def streamlit_command(arguments: argparse.Namespace) -> list[str]:
    settings = {**project_settings(), **LOOPBACK_SETTINGS, "server.port": arguments.port,
                "server.headless": arguments.headless}
    if arguments.address != LOOPBACK:
        settings.update({"server.address": arguments.address, "browser.serverAddress": arguments.address})
    flags = [item for name, value in settings.items()
             for item in (f"--{name}", str(value).lower() if isinstance(value, bool) else str(value))]
    return [sys.executable, "-m", "streamlit", "run", str(APP), *flags]


def run(arguments: argparse.Namespace) -> int:
    if not is_loopback(arguments.address) and not arguments.allow_remote:
        raise ParameterError(f"{arguments.address} is not a loopback address", "--address",
                             f"leave --address out (loopback, {LOOPBACK}), or add --allow-remote to offer the "
                             "dashboard to the network on purpose (no sign-in protects it)")
    if not APP.is_file():
        raise ParameterError(f"the dashboard's entry script {APP} is missing", "the installed package",
                             "reinstall graph-context-lab (pip install -e . in the checkout)")
    environment = dict(os.environ)
    if arguments.allow_remote:
        environment[ALLOW_REMOTE] = "1"
    else:
        environment.pop(ALLOW_REMOTE, None)  # only this run's flag allows it
    command = streamlit_command(arguments)
    print(f"dashboard on http://{arguments.address}:{arguments.port} from {APP}; press Ctrl-C to stop", flush=True)
    os.execve(command[0], command, environment)  # Streamlit itself from here: its signals, its exit status
    return 0  # not reached


def add_parser(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "dashboard", help="start the dashboard on loopback with the project's settings, from any folder",
        description="Start the Streamlit dashboard (streamlit run on the installed dashboard/app.py) with the "
                    "project's settings passed as flags, so they hold whatever the working folder: loopback only, "
                    "no usage statistics, no external-IP lookup. The working folder stays yours (the Model answers "
                    "page finds run stores there).")
    parser.add_argument("--port", type=port, default=DEFAULT_PORT, help=f"port (default {DEFAULT_PORT})")
    parser.add_argument("--headless", action=argparse.BooleanOptionalAction, default=True,
                        help="do not open a browser (default); --no-headless opens one")
    parser.add_argument("--address", default=LOOPBACK,
                        help=f"address to listen on (default {LOOPBACK}); another needs --allow-remote")
    parser.add_argument("--allow-remote", action="store_true",
                        help=f"serve on a non-loopback --address on purpose (sets {ALLOW_REMOTE}=1 for the app)")
    parser.set_defaults(run=run)
