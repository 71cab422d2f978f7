"""Each game declared once: declarations, option specs, teams."""

from __future__ import annotations

import pytest

import cardtable
from cardtable import Declaration, OptionsError, OptionSpec


def test_declarations_sorted_and_named() -> None:
    decls = cardtable.declarations()
    assert [d.name for d in decls] == cardtable.game_names()
    for d in decls:
        assert isinstance(d, Declaration)
        assert cardtable.declaration(d.name) is d
        assert d.default_players in d.players
        assert all(isinstance(s, OptionSpec) and s.help for s in d.options)
        assert "players" not in [s.name for s in d.options]


def test_unknown_game() -> None:
    with pytest.raises(OptionsError, match="unknown game"):
        cardtable.declaration("chess")


@pytest.mark.parametrize("name", cardtable.game_names())
def test_defaults_match_game_options(name: str) -> None:
    decl = cardtable.declaration(name)
    game = cardtable.new_game(name)
    assert game.declaration is decl
    assert list(game.options) == ["players", *(s.name for s in decl.options)]
    assert game.options["players"] == decl.default_players
    for spec in decl.options:
        if spec.default is not None:  # None: derived from the other options
            assert game.options[spec.name] == spec.default, spec.name
        else:
            assert spec.none_ok


@pytest.mark.parametrize("name", cardtable.game_names())
def test_specs_describe_what_is_accepted(name: str) -> None:
    decl = cardtable.declaration(name)
    for spec in decl.options:
        if spec.kind == "choice":
            for choice in spec.choices:
                assert cardtable.new_game(name, **{spec.name: choice}).options[spec.name] == choice
            with pytest.raises(OptionsError, match=spec.name):
                cardtable.new_game(name, **{spec.name: "no such choice"})
        elif spec.kind == "bool":
            for value in (True, False):
                assert cardtable.new_game(name, **{spec.name: value}).options[spec.name] is value
            with pytest.raises(OptionsError, match=spec.name):
                cardtable.new_game(name, **{spec.name: "yes"})
        else:
            assert spec.kind == "int"
            with pytest.raises(OptionsError, match=spec.name):
                cardtable.new_game(name, **{spec.name: 2.5})
            if spec.minimum is not None:
                with pytest.raises(OptionsError, match=spec.name):
                    cardtable.new_game(name, **{spec.name: spec.minimum - 1})
            if spec.maximum is not None:
                with pytest.raises(OptionsError, match=spec.name):
                    cardtable.new_game(name, **{spec.name: spec.maximum + 1})


def test_player_counts() -> None:
    for name in cardtable.game_names():
        decl = cardtable.declaration(name)
        for n in range(1, 17):
            if n in decl.players:
                assert cardtable.new_game(name, players=n).num_players == n
            else:
                with pytest.raises(OptionsError, match="players"):
                    cardtable.new_game(name, players=n)


def test_team_of() -> None:
    for players, teams in ((2, 2), (3, 3), (4, 2), (6, 2), (6, 3), (9, 3), (12, 3)):
        game = cardtable.new_game("sequence", players=players, teams=teams)
        assert game.num_teams == teams
        assert [game.team_of(s) for s in range(players)] == [s % teams for s in range(players)]
    for name, players in (("drawbridge", 2), ("threethirteen", 2), ("threethirteen", 5)):
        game = cardtable.new_game(name, players=players)
        assert game.num_teams == players
        assert [game.team_of(s) for s in range(players)] == list(range(players))


def test_sequence_winners_are_a_team() -> None:
    game = cardtable.new_game("sequence", players=4)
    state = game.deal(seed=1)
    assert state.scores == [state.scores[game.team_of(s)] for s in range(4)]
