"""Reading `[tui]` and `[keys]` from loaded settings (the dataclasses live in workbench.settings.tui)."""

from __future__ import annotations

from dataclasses import fields

from workbench.settings.tui import KeySettings, TuiSettings

__all__ = ["KeySettings", "TuiSettings", "keymap", "tui_settings"]


def tui_settings(settings: object) -> TuiSettings:
    """The `[tui]` section of loaded settings, or the defaults when there is none."""
    value = getattr(settings, "tui", None)
    if isinstance(value, TuiSettings):
        return value
    if _looks_like(value, TuiSettings):  # the same fields, declared in workbench.settings.config
        return TuiSettings(**{f.name: getattr(value, f.name) for f in fields(TuiSettings)})
    return TuiSettings()


def keymap(settings: object) -> dict[str, str]:
    """Binding id -> keys for every remapped binding in `[keys]` (empty when none)."""
    section = getattr(settings, "keys", None)
    if section is None:
        return {}
    return {f.name: value for f in fields(KeySettings) if (value := str(getattr(section, f.name, "") or "").strip())}


def _looks_like(value: object, kind: type) -> bool:
    return value is not None and all(hasattr(value, f.name) for f in fields(kind))
