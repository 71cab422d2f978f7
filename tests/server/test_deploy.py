"""deploy/ (docs/server.md, "One machine's cluster with Docker Compose"): the compose
file parses, names PostgreSQL, the schema's upgrade, three ``cardtable serve --cluster``
processes and HAProxy, each process with the flags the docs give; HAProxy's
configuration is the one of "Routing: one address" over the three. (Nothing here runs
Docker: the file was never started on the build machine, which pulls no images.)"""

from __future__ import annotations

import re
from pathlib import Path

import yaml  # type: ignore[import-untyped]

from cardtable.server import haproxy

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
DB = "postgresql+psycopg://cardtable:cardtable@postgres/cardtable"


def flag(command: list[str], name: str) -> str:
    assert name in command, (name, command)
    return command[command.index(name) + 1]


def test_the_compose_file_names_the_services_and_the_flags_the_docs_give() -> None:
    compose = yaml.safe_load((DEPLOY / "compose.yaml").read_text())
    services = compose["services"]
    assert set(services) == {"postgres", "migrate", "a", "b", "c", "haproxy"}
    assert services["migrate"]["command"][:3] == ["cardtable", "db", "upgrade"]
    assert flag(services["migrate"]["command"], "--db") == DB
    for name in "abc":
        server = services[name]
        command = server["command"]
        assert command[:3] == ["cardtable", "serve", "--cluster"]
        assert flag(command, "--owner") == name
        assert flag(command, "--db") == DB
        assert flag(command, "--host") == "0.0.0.0"
        assert flag(command, "--advertise") == f"http://{name}:{flag(command, '--port')}"
        assert flag(command, "--trusted-proxy") == (
            compose["networks"]["cards"]["ipam"]["config"][0]["subnet"])
        assert server["build"]["dockerfile"] == "deploy/Dockerfile"
        assert server["depends_on"]["migrate"]["condition"] == "service_completed_successfully"
        assert set(services["haproxy"]["depends_on"]) >= {name}
    assert (DEPLOY / "Dockerfile").exists()


def test_haproxy_s_configuration_is_the_documented_one() -> None:
    config = (DEPLOY / "haproxy.cfg").read_text()
    docs = (ROOT / "docs" / "server.md").read_text()
    documented = re.search(r"### Routing: one address.*?```\n(.*?)```", docs, re.DOTALL)
    assert documented is not None
    mine = config.splitlines()
    for line in documented.group(1).splitlines():
        if line.strip().startswith(("bind", "server")):
            continue                    # the addresses: the containers' own
        # each documented line, the same or with more after it (the containers' DNS)
        assert any(have.startswith(line) for have in mine), line
    assert re.findall(r"^\s+server (\w) \1:8000 check$", config, re.MULTILINE) == list("abc")
    # the tests' and the benchmark's HAProxy (cardtable.server.haproxy) is the documented one
    shown = haproxy.config(":80", ["10.0.0.2:8000", "10.0.0.3:8000", "10.0.0.4:8000"])
    assert shown.split("defaults\n", 1)[1] == documented.group(1).split("defaults\n", 1)[1]
    assert "cardtable serve --cluster" in docs and "deploy/compose.yaml" in docs
