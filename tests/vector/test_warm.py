"""``python -m cardtable.vector.warm``: the kernels compiled ahead of use."""

from __future__ import annotations

import pytest

pytest.importorskip("numba", reason="the vector extra is not installed: pip install "
                    "'cardtable[vector]'")

from cardtable.vector import warm  # noqa: E402


def test_warm_runs_the_kernels_of_the_games_named(capsys: pytest.CaptureFixture[str]) -> None:
    warm.main(["sequence"])
    assert capsys.readouterr().out.startswith("warm: sequence in ")


def test_an_unknown_game_is_refused_with_the_games_there_are(
        capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        warm.main(["chess"])
    assert exit_.value.code == 2
    assert "no batched engine for chess; the games are drawbridge, sequence, threethirteen" \
        in capsys.readouterr().err
