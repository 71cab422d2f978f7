"""The one rule for tests that need a program the package cannot install: chromium (the
web page's browser tests), PostgreSQL (the server's store on PostgreSQL) and gettext's
msgfmt (the web catalogs' check), HAProxy (the cluster's front address).

On a developer's machine such a test is skipped, saying what is missing, and the end of
the run lists the skipped groups (tests/conftest.py). Under ``.ci/run``, which installs
them and sets ``CARDTABLE_CI=1``, a missing program fails the test instead.
"""

from __future__ import annotations

import os
from typing import NoReturn

import pytest

#: set to 1 by .ci/run, and read here only
CI_VARIABLE = "CARDTABLE_CI"


def under_ci() -> bool:
    return os.environ.get(CI_VARIABLE) == "1"


def missing(program: str, why: str) -> NoReturn:
    """Skip the test (fail it under .ci/run): ``program`` is not installed."""
    message = f"{program} is not installed ({why}); .ci/run installs it"
    if under_ci():
        pytest.fail(f"{message}, yet it is missing under .ci/run", pytrace=False)
    pytest.skip(message)
