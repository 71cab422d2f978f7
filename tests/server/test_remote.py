"""``cardtable play --connect``: the terminal table UI as a thin client of a real server."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest

from cardtable.tui.remote import ConnectError, RemoteApp, join, parse_link
from tests.server.conftest import Server

pytestmark = pytest.mark.slow


def test_invite_links_are_read_or_refused() -> None:
    assert parse_link("http://h:8000/t/AbC?seat=1") == ("http://h:8000", "AbC", 1)
    assert parse_link("https://h/cards/t/AbC") == ("https://h/cards", "AbC", None)
    with pytest.raises(ConnectError, match="invite link"):
        parse_link("ftp://h/x")


def test_the_terminal_plays_a_server_table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                           ) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "client"))
    server = Server(f"sqlite:///{tmp_path / 'r.db'}", tmp_path).start()
    try:
        table = server.create("sequence", [{"kind": "person"},
                                           {"kind": "bot", "bot": "random"}])
        link = f"{server.base}/t/{table['id']}?seat=0"
        base, table_id, seat, token, summary = join(link, "Tess")
        assert seat == 0 and token and summary["seats"][0]["name"] == "Tess"
        # the same terminal comes back to its seat with the token it kept
        assert join(link, "Tess")[3] == token
        # another terminal (without that token) is refused the seat
        monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "elsewhere"))
        with pytest.raises(ConnectError, match="seat/taken"):
            join(link, "Other")
        monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "client"))

        async def scenario() -> int:
            app = RemoteApp(base, table_id, seat, token, summary)
            async with app.run_test(size=(120, 40)) as pilot:
                played = 0
                deadline = time.monotonic() + 60
                while played < 3 and time.monotonic() < deadline:
                    await pilot.pause(0.05)
                    legal = app.view.get("legal")
                    if legal and app.version == app.view["version"]:
                        before = app.version
                        await app.play(legal[0])
                        while app.version == before and time.monotonic() < deadline:
                            await pilot.pause(0.05)
                        played += 1
                await app.play("ZZ zz")          # refused in words, nothing breaks
                await pilot.pause(0.5)
                return played

        assert asyncio.run(scenario()) == 3
        state = server.get(f"/api/tables/{table['id']}").json()
        assert state["version"] >= 5
    finally:
        server.stop()

