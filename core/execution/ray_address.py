"""A Ray cluster address checked before joining it: well formed, and a gRPC server answering there.

`ray.init(address=...)` retries for ever when nothing answers (or a server of another kind does, such
as Redis on its port): a suite waited more than 200 s printing "Failed to get cluster ID from GCS
server". Here the address is parsed, then a TCP connection sends the HTTP/2 preface that every gRPC
server (Ray's GCS is one) answers with a SETTINGS frame, within a few seconds; anything else is one
clear error. `auto` (a cluster started on this machine) and `ray://` client addresses are passed on.
"""

from __future__ import annotations

import socket

from core.errors import ParameterError

PROBE_SECONDS = 5.0
_HTTP2_PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + b"\x00\x00\x00\x04\x00\x00\x00\x00\x00"  # + empty SETTINGS
_SETTINGS_FRAME = 0x04
WHERE = "--ray-address"
FIX = "give the head node's GCS address as HOST:PORT (ray start --head prints it; the port is 6379 by default)"


def host_and_port(address: str) -> tuple[str, int]:
    """HOST:PORT of a GCS address, or the ParameterError saying what is wrong with it."""
    host, separator, port_text = address.strip().rpartition(":")
    host = host.strip("[]")  # an IPv6 host in brackets
    if not separator or not host or any(character.isspace() for character in host) or not port_text.isdigit():
        raise ParameterError(f"{address!r} is not a HOST:PORT address", WHERE, FIX)
    port = int(port_text[:6])
    if not 1 <= port <= 65535 or len(port_text) > 5:
        raise ParameterError(f"the port in {address!r} is not a number from 1 to 65535", WHERE, FIX)
    return host, port


def check_ray_address(address: str, timeout: float = PROBE_SECONDS) -> None:
    """Refuse an address no Ray cluster answers at, within `timeout` seconds."""
    if address.strip() == "auto" or address.startswith("ray://"):
        return
    host, port = host_and_port(address)
    try:
        with socket.create_connection((host, port), timeout=timeout) as connection:
            connection.settimeout(timeout)
            connection.sendall(_HTTP2_PREFACE)
            answer = connection.recv(9)
    except OSError as error:
        raise ParameterError(f"no Ray cluster answers at {address}: {error.strerror or error}", WHERE,
                             f"start the cluster (ray start --head), or {FIX}") from None
    if len(answer) < 4 or answer[3] != _SETTINGS_FRAME:
        raise ParameterError(f"the server at {address} is not a Ray cluster (it does not answer gRPC)", WHERE, FIX)
