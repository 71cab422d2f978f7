"""MkDocs hooks: pages that other work brings later (the server, the API) join the
navigation only once their file exists, so that ``mkdocs build --strict`` passes
before and after."""

from __future__ import annotations

from pathlib import Path
from typing import Any


def _present(entry: Any, docs: Path) -> Any:
    """The nav entry without the pages whose files are missing (None: nothing left)."""
    if isinstance(entry, str):
        return entry if "://" in entry or (docs / entry).is_file() else None
    if isinstance(entry, dict):
        kept = {title: _present(value, docs) for title, value in entry.items()}
        kept = {title: value for title, value in kept.items() if value is not None}
        return kept or None
    if isinstance(entry, list):
        items = [item for item in (_present(e, docs) for e in entry) if item is not None]
        return items or None
    return entry


def on_config(config: Any) -> Any:
    if config.get("nav"):
        config["nav"] = _present(config["nav"], Path(config["docs_dir"]))
    return config
