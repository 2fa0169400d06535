from tests.falkordb_server import falkordb_server  # noqa: F401 - the session's real FalkorDB server (cypher)
