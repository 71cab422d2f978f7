"""The Clock alone (cardtable.server.clocks), on given times: no server, no sleeping."""

from __future__ import annotations

from cardtable.server.bodies import ClockRequest
from cardtable.server.clocks import GRACE_SECONDS, Clock


def player_clock() -> Clock:
    return Clock.new(ClockRequest(kind="player", minutes=1, increment=2), [True, False, True],
                     takeover=3)


def test_a_clock_per_player_charges_the_mover_and_adds_the_increment() -> None:
    clock = player_clock()
    assert clock.left == [60.0, None, 60.0]
    clock.run(0, now=100.0)
    assert clock.left_now(0, now=110.0) == 50.0 and clock.left_now(2, now=110.0) == 60.0
    clock.moved(0, timed_out=False, person=True, now=110.0)
    assert clock.left[0] == 52.0 and clock.running is None
    clock.run(1, now=110.0)                       # a bot's seat: no clock runs
    assert clock.running is None
    clock.run(2, now=110.0)
    assert clock.expired(now=169.0) is None and clock.expired(now=170.0) == 2
    clock.stop(now=170.0)                         # the timeout: the bot moves for it
    clock.moved(2, timed_out=True, person=False, now=170.5)
    assert clock.left[2] == GRACE_SECONDS and clock.timeouts == [0, 0, 1]


def test_timeouts_in_a_row_take_the_seat_over_until_its_person_is_back() -> None:
    clock = Clock.new(ClockRequest(kind="move", seconds=10), [True, True], takeover=2)
    for n in range(2):
        clock.run(0, now=float(n * 20))
        assert clock.expired(now=n * 20 + 10.0) == 0
        clock.stop(now=n * 20 + 10.0)
        clock.moved(0, timed_out=True, person=False)
        assert clock.left[0] == 10.0              # a time per move starts full again
    assert clock.taken_over(0) and not clock.taken_over(1)
    clock.moved(0, timed_out=False, person=False)  # the takeover bot's move: still out
    assert clock.taken_over(0)
    assert clock.back(0) and not clock.taken_over(0) and clock.timeouts[0] == 0


def test_a_reloaded_clock_gives_back_the_time_after_the_last_heartbeat() -> None:
    clock = player_clock()
    clock.run(0, now=1000.0)
    text = clock.to_json()
    # the server was last alive at 1030, restarted at 1100: charged 30 s, not 100
    again = Clock.from_json(text, alive=1030.0, now=1100.0)
    assert again.running == 0 and again.left_now(0, now=1100.0) == 30.0
    assert again.left_now(0, now=1105.0) == 25.0
    # no heartbeat known: charged nothing after the stored state
    assert Clock.from_json(text, alive=None, now=1100.0).left_now(0, now=1100.0) == 60.0


def test_the_state_and_the_rematch_request() -> None:
    clock = player_clock()
    state = clock.state(now=5.0).data()
    assert state["left"] == [60.0, None, 60.0] and state["bot"] == "heuristic"
    assert clock.request() == ClockRequest(kind="player", minutes=1, increment=2, timeouts=3)
