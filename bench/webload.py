"""The web page's weight and the time from navigation to an interactive table.

Against a running ``cardtable serve`` (loopback), in Debian's chromium, each load in a
fresh browser context (a cold cache): the bytes of every response (``responseBodySize``)
and ``performance.now()`` when the lobby's pictures, or a seated Sequence table's hand
and banner, are drawn; beside them the same browser's time to a small JSON answer of the
same server, as the run's baseline. The lobby is loaded twice: in English
(``lobby``) and by a browser that prefers Khmer (``lobby-km``). The bytes are those on
the wire (compressed where the server compresses).

    python bench/webload.py http://127.0.0.1:8765 --loads 5

(The page's Content-Security-Policy forbids eval: every predicate waited for is a
function, ``"() => ..."``, never a bare expression.)
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import urllib.request
from typing import Any


def post(url: str, body: dict[str, Any]) -> Any:
    req = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=10) as r:
        return json.loads(r.read())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("server", nargs="?", default="http://127.0.0.1:8765")
    parser.add_argument("--loads", type=int, default=5)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    url = args.server.rstrip("/")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=shutil.which("chromium"),
                                    args=["--no-sandbox", "--disable-gpu"])
        # the baseline, in the same run: a fresh context loading a small JSON answer of the
        # same server (the browser's and the loopback's own cost)
        base_times = []
        for _load in range(args.loads):
            context = browser.new_context()
            page = context.new_page()
            page.goto(url + "/api/games")
            base_times.append(float(page.evaluate("performance.now()")))
            context.close()
        base = statistics.median(base_times)
        print(f"baseline (GET /api/games in a fresh context): {base:.0f} ms median")
        for what in ("lobby", "lobby-km", "table"):
            times, sizes = [], []
            for _load in range(args.loads):
                # the Khmer lobby: a browser that prefers Khmer (the page's own choice)
                context = browser.new_context(viewport={"width": 1200, "height": 900},
                                              locale="km-KH" if what == "lobby-km" else "en-US")
                page = context.new_page()
                got: list[int] = []

                def finished(request: Any, got: list[int] = got) -> None:
                    got.append(request.sizes()["responseBodySize"])

                page.on("requestfinished", finished)
                if what == "table":
                    table = post(url + "/api/tables", {"game": "sequence", "options": {}, "seats": [
                        {"kind": "person"}, {"kind": "bot", "bot": "heuristic", "settings": {}}]})
                    seat = post(f"{url}/api/tables/{table['id']}/seats/0", {"name": "Dara"})
                    held = json.dumps({"seat": 0, "token": seat["token"]})
                    context.add_init_script(
                        f"localStorage.setItem('cardtable:seat:{table['id']}', {json.dumps(held)})")
                    page.goto(f"{url}/t/{table['id']}")
                    page.wait_for_function(
                        "() => document.querySelectorAll('#hand button.card').length > 0"
                        " && document.querySelector('#turn').textContent.length > 0")
                else:
                    page.goto(url + "/")
                    page.wait_for_selector("#create-table")
                    page.wait_for_function("() => [...document.querySelectorAll('.game-card img')]"
                                           ".every((i) => i.complete)")
                times.append(float(page.evaluate("performance.now()")))
                page.wait_for_timeout(300)
                sizes.append(sum(got))
                context.close()
            print(f"{what}: {statistics.median(sizes):.0f} bytes; to interactive "
                  f"{statistics.median(times):.0f} ms median of {args.loads} "
                  f"({', '.join(f'{t:.0f}' for t in times)}); "
                  f"{statistics.median(times) / base:.1f}x the baseline")
        browser.close()


if __name__ == "__main__":
    main()
