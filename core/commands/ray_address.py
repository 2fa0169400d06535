"""Refuse a `--ray-address` where nothing answers, within seconds, before Ray's own connection retries (minutes)."""

from __future__ import annotations

import socket

from core.errors import ParameterError

DEFAULT_PORT = 6379  # `ray start --head`'s GCS port; ray:// client addresses default to 10001
CLIENT_PORT = 10001
FIX = ("start the cluster (`ray start --head` on the head node) and give its address as HOST:6379 or "
       "ray://HOST:10001, or leave --ray-address out to start a local Ray instance for the run")


def host_and_port(address: str) -> tuple[str, int]:
    """`HOST:PORT`, `HOST` or `ray://HOST[:PORT]` as (host, port)."""
    text = address.strip()
    client = text.startswith("ray://")
    text = text.removeprefix("ray://")
    host, separator, port = text.rpartition(":")
    if not separator:
        host, port = text, ""
    if not host:
        raise ParameterError(f"{address!r} names no host", "--ray-address", FIX)
    if port and not port.isdigit():
        raise ParameterError(f"{address!r} has a port that is not a number", "--ray-address", FIX)
    return host, int(port) if port else (CLIENT_PORT if client else DEFAULT_PORT)


def check_reachable(address: str, timeout: float = 3.0) -> None:
    """Open and close one TCP connection to the address; `auto` (Ray reads RAY_ADDRESS) is left to Ray."""
    if address.strip() == "auto":
        return
    host, port = host_and_port(address)
    try:
        with socket.create_connection((host, port), timeout=timeout):
            pass
    except socket.gaierror:
        raise ParameterError(f"no Ray cluster at {address}: the host {host!r} is not known", "--ray-address",
                             FIX) from None
    except TimeoutError:
        raise ParameterError(f"no Ray cluster at {address}: nothing answered within {timeout:g} s", "--ray-address",
                             FIX) from None
    except OSError as error:
        raise ParameterError(f"no Ray cluster at {address}: {error.strerror or error}", "--ray-address", FIX) from None
