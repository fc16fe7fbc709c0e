"""`workbench mcp`: the library as a Model Context Protocol server, built on the official `mcp` SDK.

Over stdio (the default: an MCP client starts it) or streamable HTTP (`--http`, bound to
127.0.0.1 unless another address is named). One resident engine serves every call: stores
opened and the embedder loaded once, on the first call, so a call costs what the query costs.
Read-only unless `--allow-triage`; the front end reaches the index only through the engine.
(Named `mcp_server`, not `mcp`, so that it never shadows the SDK.)
"""

from __future__ import annotations

import sys

from workbench.engine.engine import Engine

LOOPBACK = ("127.0.0.1", "localhost", "::1")
DEFAULT_PORT = 8765
HTTP_PATH = "/mcp"


def serve(engine: Engine, http: bool = False, host: str = "127.0.0.1", port: int = DEFAULT_PORT,
          allow_triage: bool = False) -> None:  # fmt: skip
    """Serve MCP until the client goes away (stdio) or Ctrl+C (HTTP)."""
    import anyio
    from mcp.server.transport_security import TransportSecuritySettings

    from workbench.mcp_server.server import build_server

    server = build_server(engine, allow_triage=allow_triage)
    access = "triage allowed" if allow_triage else "read-only"
    if not http:
        print(f"workbench mcp: serving over stdio ({access})", file=sys.stderr, flush=True)
        anyio.run(server.run_stdio_async)
        return
    security = None
    if host not in LOOPBACK:  # the SDK guards loopback by itself; another address must be named in Host too
        bracketed = f"[{host}]" if ":" in host else host
        security = TransportSecuritySettings(
            allowed_hosts=[f"{bracketed}:*", "127.0.0.1:*", "localhost:*", "[::1]:*"],
            allowed_origins=[f"http://{bracketed}:*", "http://127.0.0.1:*", "http://localhost:*"],
        )
        print(f"workbench mcp: listening on {host}, not only this machine: anyone who can reach it can read "
              "your library (no authentication)", file=sys.stderr, flush=True)  # fmt: skip
    shown = f"[{host}]" if ":" in host else host
    print(f"workbench mcp: serving streamable HTTP on http://{shown}:{port}{HTTP_PATH} ({access})",
          file=sys.stderr, flush=True)  # fmt: skip

    async def run_http() -> None:
        await server.run_streamable_http_async(host=host, port=port, streamable_http_path=HTTP_PATH,
                                               transport_security=security)  # fmt: skip

    anyio.run(run_http)
