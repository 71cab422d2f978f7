"""One HTTP client for the tests' requests to their servers.

httpx's module-level functions (``get``, ``post``...) build a client, and with it an SSL
context, at every call: some 20 ms of CPU each, on a 2-core machine that runs the server
under test too. This client is built once; it keeps no connection alive between requests
(a server killed and started again on the same port never meets a stale connection), and
it is safe to share between threads. The server sets no cookie, so none is carried from
test to test.
"""

from __future__ import annotations

import httpx

http = httpx.Client(timeout=30, limits=httpx.Limits(max_keepalive_connections=0))
