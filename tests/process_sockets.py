"""The sockets a process and its children hold, and whether an address is loopback: for the tests that check
the dashboard listens on 127.0.0.1 only."""

from __future__ import annotations

import ipaddress

import psutil


def loopback(address: str) -> bool:
    return ipaddress.ip_address(address.split("%")[0]).is_loopback


def sockets(process: psutil.Process) -> list:
    found = []
    for member in [process, *process.children(recursive=True)]:
        try:
            found += member.net_connections(kind="inet")
        except psutil.NoSuchProcess:
            continue
    return found
