"""cardtable.local: the clock's timestamps and the user's data folder."""

from __future__ import annotations

import re
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from cardtable.local import data_folder, now

MS = timedelta(milliseconds=1)


def test_timestamps_are_utc_iso_8601_to_the_second_or_the_microsecond() -> None:
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", now())
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z", now(precise=True))


def test_timestamps_tell_the_time_and_never_go_back() -> None:
    """now() keeps the text of the second it last wrote: across seconds it still agrees
    with datetime, and a precise stamp is never earlier than the one before it."""
    last = now(precise=True)
    deadline = time.monotonic() + 1.2     # at least one change of second
    while time.monotonic() < deadline:
        before = datetime.now(UTC).replace(tzinfo=None)
        stamp = now(precise=True)
        after = datetime.now(UTC).replace(tzinfo=None)
        # a microsecond's rounding apart at most: datetime rounds, now() cuts
        assert before - MS <= datetime.fromisoformat(stamp[:-1]) <= after + MS
        assert now()[:-1] == stamp[:19] or now()[:-1] > stamp[:19]
        assert stamp >= last
        last = stamp


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
