"""cardtable.local: the clock's timestamps and the user's data folder."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cardtable.local import data_folder, now


def test_timestamps_are_utc_iso_8601_to_the_second_or_the_microsecond() -> None:
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", now())
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z", now(precise=True))


def test_the_data_folder_follows_xdg(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert data_folder() == tmp_path / "cardtable"
    monkeypatch.setenv("XDG_DATA_HOME", "")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert data_folder() == tmp_path / "home" / ".local" / "share" / "cardtable"
    from cardtable import store
    from cardtable.tui import remote, table

    assert table.default_record_dir() == data_folder() / "games"
    assert remote._tokens_file() == data_folder() / "seats.json"
    assert store.default_url() == f"sqlite:///{data_folder() / 'cardtable.db'}"
