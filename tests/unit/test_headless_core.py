"""Contract 1: everything outside workbench/tui imports without textual."""

from __future__ import annotations

import pkgutil
import subprocess
import sys

import workbench

# Modules whose job is to start or measure the TUI (they import it lazily).
FRONT_ENDS = {"workbench.entry", "workbench.bench.startup"}


def test_core_modules_do_not_import_textual() -> None:
    modules = [
        m.name
        for m in pkgutil.walk_packages(workbench.__path__, "workbench.")
        if not m.name.startswith("workbench.tui") and not m.name.endswith(".__main__")
    ]
    assert "workbench.engine.engine" in modules and "workbench.cli.main" in modules
    code = "import importlib, sys\n" + "".join(f"importlib.import_module({m!r})\n" for m in modules)
    code += "print('textual' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
