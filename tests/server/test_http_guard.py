"""What the HTTP side of a real ``cardtable serve`` does with hostile requests: record
files nested thousands deep are refused (record/bad), never a 500; X-Forwarded-For is
believed only from a ``--trusted-proxy``, so no one escapes the per-address limits; every
answer carries the security headers, and a JSON route takes only a JSON body; a replay
or review of a game too long is refused at once, and a finished table's is worked out
once."""

from __future__ import annotations

import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest
from click.testing import CliRunner

from cardtable.cli import main
from cardtable.server.headers import CONTENT_SECURITY_POLICY
from tests.http import http
from tests.server.conftest import Server
from tests.web.test_replay_file import finished_record, long_match, padded, text_of

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def guarded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    folder: Path = tmp_path_factory.mktemp("guard")
    server = Server(f"sqlite:///{folder / 'guard.db'}", folder, "--http-rate", "1000",
                    "--no-access-log").start()
    try:
        yield server
    finally:
        server.stop()


@pytest.mark.parametrize("route", ["/api/replay", "/api/review"])
@pytest.mark.parametrize("body", [b"[" * 100_000 + b"]" * 100_000, b'{"a":' * 50_000],
                         ids=["lists", "objects"])
def test_a_record_file_nested_deep_is_refused(guarded: Server, route: str, body: bytes) -> None:
    answer = http.post(guarded.base + route, content=body, timeout=30)
    assert answer.status_code == 400, answer.text
    error = answer.json()["error"]
    assert error["code"] == "record/bad" and "nest" in error["message"]
    assert "RecursionError" not in guarded.log()


def refused_writes(server: Server, count: int) -> int:
    """How many of ``count`` writes sent at once from 127.0.0.1, each with another
    X-Forwarded-For, got limit/rate."""
    with httpx.Client(base_url=server.base, timeout=30) as client:
        codes = [client.post("/api/replay", content=b"x",
                             headers={"x-forwarded-for": f"203.0.113.{n}"}).status_code
                 for n in range(count)]
    return codes.count(429)


def invite_of(server: Server) -> str:
    """The invite link a new table gets when the request says it came over HTTPS."""
    answer = http.post(server.base + "/api/tables", json={"game": "sequence"},
                        headers={"x-forwarded-proto": "https",
                                 "x-forwarded-for": "198.51.100.7"}, timeout=30)
    assert answer.status_code == 201, answer.text
    invite: str = answer.json()["invites"][0]
    return invite


@pytest.mark.parametrize("trusted", [False, True], ids=["no-proxy", "trusted-proxy"])
def test_a_forwarded_address_is_believed_only_from_a_trusted_proxy(
        tmp_path: Path, trusted: bool) -> None:
    # --http-rate 1: bursts of 20 writes per address
    args = ["--http-rate", "1", "--no-access-log"] + (
        ["--trusted-proxy", "::1, 127.0.0.1"] if trusted else [])
    server = Server(f"sqlite:///{tmp_path / 'proxy.db'}", tmp_path, *args).start()
    try:
        assert invite_of(server).startswith("https://" if trusted else "http://")
        refused = refused_writes(server, 40)
    finally:
        server.stop()
    if trusted:   # each forwarded address has a bucket of its own
        assert refused == 0
    else:         # one bucket, 127.0.0.1's, whatever the header says
        assert refused >= 15


def test_a_trusted_proxy_is_an_address_or_a_network() -> None:
    answer = CliRunner().invoke(main, ["serve", "--trusted-proxy", "10.0.0.0/8,proxy.lan"])
    assert answer.exit_code == 2
    assert "'proxy.lan' is not an IP address or network" in answer.output


@pytest.mark.parametrize("path", ["/", "/t/x", "/rules", "/static/app.css",
                                  "/static/js/app.js", "/api/games", "/api/tables/nothing",
                                  "/nowhere"])
def test_every_answer_carries_the_security_headers(guarded: Server, path: str) -> None:
    answer = http.get(guarded.base + path, headers={"accept": "text/html"}, timeout=30)
    assert answer.headers["content-security-policy"] == CONTENT_SECURITY_POLICY
    assert "frame-ancestors 'none'" in CONTENT_SECURITY_POLICY
    assert answer.headers["x-frame-options"] == "DENY"
    assert answer.headers["x-content-type-options"] == "nosniff"


def refused_as(answer: httpx.Response) -> tuple[int, str]:
    return answer.status_code, answer.json()["error"]["code"]


@pytest.mark.parametrize("content_type", [
    "text/plain", "text/plain;charset=UTF-8", "application/x-www-form-urlencoded",
    "multipart/form-data; boundary=x", "application/jsonp", "text/json", None])
def test_a_json_body_sent_as_anything_else_is_refused(guarded: Server,
                                                      content_type: str | None) -> None:
    headers = {} if content_type is None else {"content-type": content_type}
    body = b'{"game": "sequence"}'
    table = guarded.create("sequence", [{"kind": "person"}, {"kind": "person"}])["id"]
    for path in ("/api/tables", f"/api/tables/{table}/seats/0", "/api/players",
                 "/api/players/claim"):
        answer = http.post(guarded.base + path, content=body, headers=headers, timeout=30)
        assert refused_as(answer) == (415, "http/content-type"), (path, answer.text)
        assert "application/json" in answer.json()["error"]["message"]
    if content_type is not None:   # a form with nothing in it: refused too
        answer = http.post(guarded.base + "/api/tables", headers=headers, timeout=30)
        assert refused_as(answer) == (415, "http/content-type")


@pytest.mark.parametrize("content_type", ["application/json", "application/json; charset=utf-8",
                                          "Application/JSON", "application/merge-patch+json"])
def test_a_json_body_is_taken_as_json(guarded: Server, content_type: str) -> None:
    answer = http.post(guarded.base + "/api/tables", content=b'{"game": "sequence"}',
                        headers={"content-type": content_type}, timeout=30)
    assert answer.status_code == 201, answer.text
    table = answer.json()["id"]
    # no body, and so no type, is an empty request: a seat taken with its default name
    taken = http.post(f"{guarded.base}/api/tables/{table}/seats/0", timeout=30)
    assert taken.status_code == 200 and taken.json()["table"]["seats"][0]["name"] == "seat 0"


def test_a_record_file_is_taken_whatever_its_type(guarded: Server) -> None:
    # the page posts the file's text as it is (text/plain); curl --data-binary as a form
    record = text_of(finished_record("sequence"))
    for content_type in ("text/plain;charset=UTF-8", "application/x-www-form-urlencoded",
                         "application/json"):
        answer = http.post(guarded.base + "/api/replay", content=record,
                            headers={"content-type": content_type}, timeout=60)
        assert answer.status_code == 200 and answer.json()["game"] == "sequence"


@pytest.mark.parametrize(("route", "body", "words"), [
    ("/api/review", lambda: text_of(long_match()), "at most 40 deals; this one has 56"),
    ("/api/replay", lambda: padded(finished_record("sequence"), 6001), "at most 6,000 moves"),
    ("/api/review", lambda: padded(finished_record("drawbridge", target=1), 6001),
     "at most 6,000 moves"),
], ids=["review-deals", "replay-moves", "review-moves"])
def test_a_record_too_long_is_refused_at_once(guarded: Server, route: str, body: Any,
                                              words: str) -> None:
    content = body()
    began = time.monotonic()
    answer = http.post(guarded.base + route, content=content, timeout=30)
    assert time.monotonic() - began < 5
    assert refused_as(answer) == (413, "record/too-long")
    assert words in answer.json()["error"]["message"]


def test_a_finished_tables_replay_is_the_same_for_everyone(guarded: Server) -> None:
    table = guarded.create("sequence", [{"kind": "bot", "bot": "random"}] * 2)["id"]
    end = time.monotonic() + 60
    while guarded.get(f"/api/tables/{table}").json()["status"] != "over":
        assert time.monotonic() < end, "two random bots did not finish a Sequence game"
        time.sleep(0.2)
    with ThreadPoolExecutor(6) as pool:
        got = list(pool.map(lambda _: guarded.get(f"/api/tables/{table}/replay"), range(6)))
    assert all(answer.status_code == 200 for answer in got)
    assert len({answer.content for answer in got}) == 1
    record = guarded.get(f"/api/tables/{table}/record.json").json()
    assert len(got[0].json()["positions"]) == len(record["actions"]) + 1
    review = guarded.get(f"/api/tables/{table}/review")
    reviewed = review.json()   # by the afterstate value network (issue 34)
    assert reviewed["game"] == "sequence" and reviewed["deals"] == []
    assert len(reviewed["moves"]) == len(record["actions"]) and len(reviewed["players"]) == 2
    assert review.headers["content-type"] == "application/json"
