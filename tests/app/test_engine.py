"""Scenario tests of the referee engine: each procedure of docs/rules.md sections 2 and 5."""

from __future__ import annotations

import pytest

from app.record.devicekey import device_key
from app.referee import events as ev
from app.referee.engine import Referee, Stage
from app.referee.i18n import render
from app.referee.pin import hash_pin, pin_key, proof
from app.referee.rulings import ClockCommand, Level, Reaction
from app.referee.setup import Devices, Mode, Policy
from app.sim.world import World
from rules.match import Match, MatchEnd
from rules.movegen import legal_plays
from rules.odds import shots
from rules.position import Color, Position
from rules.registry import VARIANTS
from tests.app.table import Table, force, make_setup

W, B = Color.WHITE, Color.BLACK


def test_opening_tie_is_thrown_again_and_the_clock_waits_for_the_lower_thrower() -> None:
    table = Table()
    table.board(table.referee.position)
    assert table.send(ev.DiceObserved((4, 4))).codes == ["opening_tie"]
    assert table.referee.stage is Stage.OPENING
    reaction = table.send(ev.DiceObserved((3, 5)))
    assert reaction.codes == ["opening_won"] and reaction.rulings[0].params["player"] == "black"
    assert table.referee.stage is Stage.PLAY and table.referee.mover is B and table.referee.dice == (5, 3)
    assert reaction.commands == ()  # clocks stand still for the opening throw
    started = table.press(W)  # the lower thrower presses to start the other's clock
    assert started.codes == ["clock_started"] and started.commands == (ClockCommand(B),)


def test_throw_again_variants_give_the_winner_a_fresh_roll() -> None:
    table = Table(variant="uzun")
    table.board(table.referee.position)
    reaction = table.send(ev.DiceObserved((5, 2)))
    assert reaction.rulings[0].params["plays"] is False
    assert table.referee.stage is Stage.ROLL and table.referee.mover is W and table.referee.dice is None
    table.press(B)
    assert table.send(ev.DiceObserved((6, 6))).codes == ["dice"]
    assert table.referee.dice == (6, 6)


@pytest.mark.parametrize("reason", list(ev.VoidReason))
def test_a_void_throw_names_its_reason_and_changes_nothing(reason: ev.VoidReason) -> None:
    table = Table()
    table.open_with(3, 1)
    table.move((8, 5), (6, 5))
    table.press()
    before = table.referee.match
    reaction = table.send(ev.DiceObserved(None, void=reason))
    assert reaction.codes == ["void_throw"] and reaction.rulings[0].params["reason"] == reason.value
    assert reaction.rulings[0].level is Level.WARNING
    assert table.referee.match == before and table.referee.stage is Stage.ROLL
    assert table.send(ev.DiceObserved((6, 2))).codes == ["dice"]


def test_a_legal_board_is_accepted_when_the_clock_is_pressed_and_the_clock_passes() -> None:
    table = Table()
    table.open_with(3, 1)
    table.move((8, 5))
    table.move((8, 5), (6, 5))
    reaction = table.press()
    assert reaction.codes == ["play_ok"] and reaction.rulings[0].params["play"] == "8/5 6/5"
    assert reaction.commands == (ClockCommand(B),)
    assert table.referee.stage is Stage.ROLL and table.referee.mover is B
    assert table.referee.last_play is not None and table.referee.last_play.notation == "8/5 6/5"


def test_an_unfinished_play_is_reported_and_the_opponent_chooses() -> None:
    table = Table()
    table.open_with(3, 1)
    table.move((8, 5))
    reaction = table.press()
    assert reaction.codes == ["unfinished_play", "choose"]
    assert reaction.rulings[0].params["rules"] == ["must_use_both"]
    assert reaction.rulings[0].level is Level.ERROR
    assert reaction.commands == (ClockCommand(None),)
    assert table.referee.stage is Stage.ILLEGAL
    corrected = table.send(ev.CorrectIllegal(B))
    assert corrected.codes == ["illegal_corrected"] and corrected.commands == (ClockCommand(W),)
    assert table.referee.stage is Stage.PLAY and table.referee.mover is W
    table.move((8, 5), (6, 5))
    assert table.press().codes == ["play_ok"]
    assert [i.code for i in table.referee.irregularities] == ["unfinished_play"]


def test_an_illegal_play_names_the_rule_and_may_be_accepted_as_played() -> None:
    table = Table()
    table.open_with(3, 1)
    wrong = table.move((13, 8))
    reaction = table.press()
    assert reaction.codes == ["illegal_play", "choose"]
    assert reaction.rulings[0].params == {"player": "white", "rules": ["dice_mismatch"], "choice": True}
    assert table.send(ev.AcceptIllegal(W)).codes == ["not_your_choice"]
    accepted = table.send(ev.AcceptIllegal(B))
    assert accepted.codes == ["illegal_accepted"] and accepted.commands == (ClockCommand(B),)
    assert table.referee.position.same_board(wrong) and table.referee.mover is B
    assert table.referee.stage is Stage.ROLL and table.referee.accepted_illegal == 1
    assert table.referee.last_play is not None and not table.referee.last_play.legal


def test_under_the_always_correct_policy_nobody_may_accept_an_illegal_play() -> None:
    table = Table(policy=Policy.ALWAYS_CORRECT)
    table.open_with(3, 1)
    table.move((13, 8))
    reaction = table.press()
    assert reaction.codes == ["illegal_play"] and reaction.rulings[0].params["choice"] is False
    assert reaction.commands == (ClockCommand(W),)
    assert table.referee.stage is Stage.PLAY
    assert table.send(ev.AcceptIllegal(B)).codes == ["nothing_to_choose"]


def test_casual_mode_lists_the_legal_alternatives_of_an_illegal_play() -> None:
    table = Table(mode=Mode.CASUAL)
    table.open_with(3, 1)
    table.move((13, 8))
    legal = table.press().rulings[0].params["legal"]
    every = {play.notation() for play in legal_plays(Position.start(), (3, 1))}
    assert len(legal) == 8 and set(legal) <= every


def test_a_released_checker_moved_back_is_a_takeback() -> None:
    table = Table()
    table.open_with(3, 1)
    table.move((8, 5))
    reaction = table.board(table.referee.position)
    assert reaction.codes == ["takeback"] and reaction.rulings[0].params["player"] == "white"
    table.move((8, 5), (6, 5))
    assert table.press().codes == ["play_ok"]


def test_a_board_back_at_an_earlier_turn_is_refused_at_the_press() -> None:
    table = Table()
    start = table.referee.position
    table.open_with(3, 1)
    table.move((8, 5), (6, 5))
    table.press()
    table.send(ev.DiceObserved((6, 4)))
    table.board(start)  # White's play put back: a takeback of a play already made
    reaction = table.press()
    assert reaction.codes == ["takeback_earlier"] and reaction.commands == (ClockCommand(B),)
    assert table.referee.stage is Stage.PLAY and table.referee.mover is B


def test_dice_thrown_before_the_opponent_pressed_do_not_count() -> None:
    table = Table()
    table.open_with(3, 1)
    table.move((8, 5))
    reaction = table.send(ev.DiceObserved((2, 2), thrower=B))
    assert reaction.codes == ["early_throw"]
    assert reaction.rulings[0].params == {"player": "black", "waiting": "white"}
    assert table.referee.dice == (3, 1)
    assert table.send(ev.DiceObserved((3, 1))).codes == []  # the mover's own dice seen again


def test_a_player_throwing_twice_is_not_blamed_on_the_opponent() -> None:
    table = Table()
    table.open_with(3, 1)
    table.move((8, 5))
    again = table.send(ev.DiceObserved((5, 2), thrower=W))
    assert again.codes == ["thrown_again"] and again.rulings[0].params == {"player": "white"}
    unknown = table.send(ev.ManualDice((6, 6)))  # typed: who threw is not known, so nobody is blamed
    assert unknown.codes == ["throw_during_play"] and unknown.rulings[0].params == {"player": None, "waiting": "white"}
    assert render(unknown.rulings[0]) == (
        "Dice thrown again while White plays (who threw is not known): the first throw stands."
    )
    irregular = [(i.code, i.color) for i in table.referee.irregularities]
    assert irregular == [("thrown_again", W), ("throw_during_play", None)]
    assert table.referee.dice == (3, 1) and table.referee.stage is Stage.PLAY


def test_a_board_with_too_many_checkers_is_recorded_although_a_placed_report_was_lost() -> None:
    table = Table()
    table.open_with(3, 1)
    start = table.referee.position
    table.send(ev.LiftSeen(W, 8))  # its "placed" report never arrives
    extra = list(start.white)
    extra[5] += 1  # a sixteenth White checker
    reaction = table.send(ev.BoardSeen(tuple(extra), start.black))
    assert reaction.codes == ["board_invalid"]
    assert reaction.rulings[0].params["problems"] == ["White has more than 15 checkers"]
    assert table.press().codes == ["board_unreadable"]


def test_a_full_board_shows_no_checker_is_in_hand_any_more() -> None:
    table = Table()
    table.open_with(3, 1)
    start = table.referee.position
    table.send(ev.LiftSeen(W, 8))  # lifted and put back, the "placed" report lost
    assert table.board(start).codes == [] and table.referee.in_hand == 0
    missing = list(start.white)
    missing[8] -= 1
    assert table.send(ev.BoardSeen(tuple(missing), start.black)).codes == ["board_invalid"]


def test_a_snapshot_that_breaks_the_checker_count_is_recorded_and_cannot_be_judged() -> None:
    table = Table()
    table.open_with(3, 1)
    start = table.referee.position
    missing = list(start.white)
    missing[6] -= 1
    reaction = table.send(ev.BoardSeen(tuple(missing), start.black))
    assert reaction.codes == ["board_invalid"]
    assert reaction.rulings[0].params["problems"] == ["White has fewer than 15 checkers"]
    pressed = table.press()
    assert pressed.codes == ["board_unreadable"] and pressed.commands == (ClockCommand(W),)
    assert [i.code for i in table.referee.irregularities] == ["board_invalid"]


def test_a_snapshot_with_a_checker_in_hand_is_not_an_irregularity() -> None:
    table = Table()
    table.open_with(3, 1)
    start = table.referee.position
    table.send(ev.LiftSeen(W, 8))
    missing = list(start.white)
    missing[8] -= 1
    assert table.send(ev.BoardSeen(tuple(missing), start.black)).codes == []


def test_checkers_touched_while_nobody_may_move_are_recorded() -> None:
    table = Table()
    table.open_with(3, 1)
    table.move((8, 5), (6, 5))
    table.press()
    reaction = table.send(ev.LiftSeen(W, 13))  # Black has not thrown yet
    assert reaction.codes == ["touched_out_of_turn"]
    assert reaction.rulings[0].params == {"player": "white", "point": 13, "on_turn": "black"}


def test_lifting_an_opposing_blot_to_hit_it_is_no_irregularity() -> None:
    table = Table()
    table.open_with(3, 1)
    table.move((24, 23), (23, 20))  # White leaves a blot on its 20 (Black's 5)
    table.press()
    table.send(ev.DiceObserved((5, 1)))
    assert table.send(ev.LiftSeen(W, 20)).codes == []  # the blot Black hits with the 5
    assert table.send(ev.LiftSeen(W, 13)).codes == ["touched_out_of_turn"]


def test_double_take_hand_the_clock_over_as_the_rules_say() -> None:
    table = Table()
    table.open_with(3, 1)
    table.move((8, 5), (6, 5))
    table.press()
    doubled = table.send(ev.DoubleOffered(B))
    assert doubled.codes == ["double_offered"] and doubled.rulings[0].params["value"] == 2
    assert doubled.commands == (ClockCommand(W),)  # the doubler's press: the doubled player thinks
    assert table.referee.stage is Stage.DOUBLE
    assert table.send(ev.DiceObserved((2, 1))).codes == ["throw_before_answer"]
    taken = table.send(ev.DoubleTaken(W))
    assert taken.codes == ["taken"] and taken.commands == (ClockCommand(B),)  # the taker presses back
    cube = table.referee.match.game.cube
    assert (cube.value, cube.owner) == (2, W)
    refused = table.send(ev.DoubleOffered(B))
    assert refused.codes == ["cube_refused"] and refused.rulings[0].params["rule"] == "not_owner"


def test_a_drop_ends_the_game_for_the_value_before_the_double() -> None:
    table = Table()
    table.open_with(3, 1)
    table.move((8, 5), (6, 5))
    table.press()
    table.send(ev.DoubleOffered(B))
    reaction = table.send(ev.DoubleDropped(W))
    assert reaction.codes == ["game_over", "new_game"]
    over = reaction.rulings[0].params
    assert (over["player"], over["points"], over["ending"], over["score"]) == ("black", 1, "dropped", [0, 1])
    assert ClockCommand(None) in reaction.commands
    assert table.referee.stage is Stage.OPENING and table.referee.game_number == 2


def test_a_double_after_rolling_is_refused_with_the_rule() -> None:
    table = Table()
    table.open_with(3, 1)
    reaction = table.send(ev.DoubleOffered(W))
    assert reaction.codes == ["cube_refused"] and reaction.rulings[0].params["rule"] == "after_roll"


@pytest.mark.parametrize(
    ("black", "kind", "points"),
    [
        ({6: 15}, "gammon", 2),
        ({24: 1, 6: 14}, "backgammon", 3),  # a Black checker in White's home board
        ({6: 14}, "single", 1),
    ],
)
def test_the_game_end_is_read_from_the_board_and_scored(black: dict[int, int], kind: str, points: int) -> None:
    table = Table()
    table.referee = force(table.referee, Position.build({2: 1}, black, W), (6, 5))
    table.move((2, 0))
    reaction = table.press()
    assert reaction.codes[:2] == ["play_ok", "game_over"]
    over = reaction.rulings[1].params
    assert (over["player"], over["kind"], over["points"]) == ("white", kind, points)
    assert table.referee.match.score == (points, 0)


def _drop_a_game(table: Table, doubler: Color) -> None:
    """Open so that ``doubler`` moves second, play a turn, double and see it dropped."""
    first = doubler.other
    table.open_with(*((3, 1) if first is W else (1, 3)))
    table.move((8, 5), (6, 5))
    table.press()
    table.send(ev.DoubleOffered(doubler))
    table.send(ev.DoubleDropped(first))


def test_crawford_game_has_no_cube_and_the_match_ends_at_its_length() -> None:
    table = Table(length=3)
    _drop_a_game(table, B)
    before = len(table.reactions)
    _drop_a_game(table, B)
    new_game = [r for reaction in table.reactions[before:] for r in reaction.rulings if r.code == "new_game"]
    assert new_game[-1].params == {"number": 3, "crawford": True}
    assert table.referee.match.is_crawford and table.referee.match.score == (0, 2)
    table.open_with(3, 1)
    table.move((8, 5), (6, 5))
    table.press()
    refused = table.send(ev.DoubleOffered(B))
    assert refused.codes == ["cube_refused"] and refused.rulings[0].params["rule"] == "crawford"
    table.send(ev.ResignationOffered(B, 1))
    end = table.send(ev.ResignationAccepted(W))
    assert end.codes == ["game_over", "new_game"] and table.referee.match.score == (1, 2)
    assert table.referee.match.post_crawford
    _drop_a_game(table, B)
    assert table.referee.stage is Stage.OVER
    assert table.referee.match.result is not None and table.referee.match.result.winner is B
    assert table.send(ev.DiceObserved((1, 2))).codes == ["match_is_over"]


def test_a_flag_for_a_clock_that_is_not_running_is_a_device_fault_never_a_result() -> None:
    table = Table()
    table.open_with(3, 1)  # White's clock runs
    reaction = table.send(ev.ClockFlag(B))
    assert reaction.codes == ["clock_fault"] and reaction.rulings[0].level is Level.ERROR
    assert reaction.rulings[0].params == {"player": None, "flag": "black", "running": "white"}
    assert "Black's clock was not running" in render(reaction.rulings[0], players=("White", "Black"))
    assert not table.referee.match.over and reaction.commands == ()
    assert [(i.code, i.color) for i in table.referee.irregularities] == [("clock_fault", None)]
    table.send(ev.CallDirector(W))  # both clocks stand still: no flag can fall
    assert table.send(ev.ClockFlag(W)).codes == ["clock_fault"] and not table.referee.match.over
    before = Table()
    before.board(before.referee.position)  # the opening: clocks stand still
    assert before.send(ev.ClockFlag(W)).codes == ["clock_fault"] and not before.referee.match.over


def test_a_flag_fall_loses_the_match_but_not_a_money_session() -> None:
    table = Table()
    table.open_with(3, 1)
    reaction = table.send(ev.ClockFlag(W))
    assert reaction.codes == ["flag_fell", "match_over"]
    result = table.referee.match.result
    assert result is not None and (result.winner, result.end) == (B, MatchEnd.TIME)
    money = Table(length=0)
    money.open_with(3, 1)
    assert money.send(ev.ClockFlag(W)).codes == ["flag_ignored"] and not money.referee.match.over


def test_the_previous_winner_throws_first_when_the_set_up_says_so() -> None:
    table = Table(first_move="previous_winner")
    _drop_a_game(table, B)
    last = table.reactions[-1]
    assert last.codes == ["game_over", "new_game", "previous_winner_starts"]
    assert table.referee.stage is Stage.ROLL and table.referee.mover is B


def test_tournament_mode_shows_no_aids_and_casual_mode_does() -> None:
    tournament = Table()
    tournament.open_with(3, 1)
    assert tournament.referee.aids() is None
    assert tournament.send(ev.LiftSeen(W, 8)).codes == []
    casual = Table(mode=Mode.CASUAL)
    casual.open_with(3, 1)
    aids = casual.referee.aids()
    assert aids is not None and aids.pips == (167, 167) and "8/5 6/5" in aids.legal_plays
    hint = casual.send(ev.LiftSeen(W, 8))
    assert hint.codes == ["hint"] and hint.rulings[0].params["targets"] == [5, 7]
    casual.send(ev.PlaceSeen(W, 8))
    casual.move((24, 23), (23, 20))
    casual.press()
    shown = casual.referee.aids()
    assert shown is not None and shown.shots == str(shots(casual.referee.position)) == "32/36 (88.9%)"
    casual.send(ev.DiceObserved((6, 5)))
    assert casual.referee.aids().shots is None  # type: ignore[union-attr]  # odds are shown before a throw


def test_without_a_sensing_board_the_play_is_entered_on_the_tablet() -> None:
    table = Table(devices=Devices(camera=True, board=False, clock=True))
    table.send(ev.DiceObserved((3, 1)))
    table.press(B)
    pressed = table.press(W)
    assert pressed.codes == ["enter_play"] and pressed.commands == (ClockCommand(W),)
    assert table.send(ev.ManualPlay("13/8")).codes == ["manual_illegal"]
    assert table.send(ev.ManualPlay("banana")).codes == ["manual_unreadable"]
    accepted = table.send(ev.ManualPlay("8-5, 6-5"))
    assert accepted.codes == ["play_ok"] and accepted.rulings[0].params["play"] == "8/5 6/5"
    assert accepted.commands == (ClockCommand(B),)
    assert table.press(W).codes == []  # White's clock is no longer running: the press does nothing


def test_a_closed_out_player_still_presses_and_loses_the_turn() -> None:
    table = Table(devices=Devices(board=False))
    closed = Position.build({25: 1, 6: 14}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 8: 3}, W)
    table.referee = force(table.referee, closed)
    assert table.send(ev.ManualDice((6, 5))).codes == ["dice", "no_move"]
    reaction = table.press(W)
    assert reaction.codes == ["play_ok"] and reaction.rulings[0].params["play"] == ""
    assert render(reaction.rulings[0], "en").endswith("6-5: no move (the dice could not be played).")
    assert render(reaction.rulings[0], "tr").endswith("oyun yok (zar yandı).")
    assert table.referee.mover is B


DEVICE_KEY = device_key(create=True)
"""The test tablet's key (tests/conftest.py), so a session on it takes the same PIN record."""
STORED = hash_pin("482916", DEVICE_KEY, bytes(16))
KEY = pin_key("482916", STORED, DEVICE_KEY)


def by_director(table: Table, command: str, argument: str = "") -> Reaction:
    """An override with the proof the tablet makes from the right PIN."""
    assert KEY is not None
    return table.send(ev.DirectorOverride(command, argument, proof(KEY, STORED, table.referee.director_overrides)))


def test_director_overrides_need_the_pin_and_are_recorded() -> None:
    table = Table(pin_hash=STORED)
    table.open_with(3, 1)
    refused = table.send(ev.DirectorOverride("void_dice"))
    assert refused.codes == ["pin_refused"] and table.referee.dice == (3, 1)
    halted = table.send(ev.CallDirector(B))
    assert halted.codes == ["director_called"] and halted.commands == (ClockCommand(None),)
    assert table.send(ev.DiceObserved((5, 5))).codes == ["play_halted"]
    resumed = by_director(table, "resume")
    assert resumed.codes == ["resumed"] and resumed.commands == (ClockCommand(W),)
    replayed = table.send(ev.DirectorOverride("resume", "", table.referee.director_link))  # a proof used already
    assert replayed.codes == ["pin_refused"]
    table.move((8, 5), (6, 5))
    table.press()
    undone = by_director(table, "undo_play")
    assert undone.codes == ["play_undone"] and table.referee.mover is W and table.referee.dice == (3, 1)
    corrected = by_director(table, "set_dice", "6-4")
    assert corrected.codes[0] == "dice_set" and table.referee.dice == (6, 4)
    voided = by_director(table, "void_dice")
    assert voided.codes == ["dice_voided"] and table.referee.stage is Stage.OPENING  # the opening throw again
    assert by_director(table, "policy", "always_correct").codes == ["policy_set"]
    assert table.referee.policy is Policy.ALWAYS_CORRECT
    open_table = Table()  # no PIN set: anyone at the table acts as director
    open_table.open_with(3, 1)
    assert open_table.send(ev.DirectorOverride("void_dice")).codes == ["dice_voided"]


def test_malformed_events_are_refused_with_a_clear_message() -> None:
    with pytest.raises(ValueError, match="a die shows 1 to 6"):
        ev.DiceObserved((7, 1))
    with pytest.raises(ValueError, match="26 counts"):
        ev.BoardSeen((1, 2, 3), (0,) * 26)
    with pytest.raises(ValueError, match="unknown event kind"):
        ev.event_from_dict({"kind": "teleport"})
    with pytest.raises(ValueError, match="unknown fields"):
        ev.event_from_dict({"kind": "double", "by": "white", "extra": 1})
    with pytest.raises(ValueError, match="colour"):
        ev.event_from_dict({"kind": "double", "by": "green"})


def test_every_event_survives_the_journal_form() -> None:
    samples: list[ev.Event] = [
        ev.DiceObserved((3, 1), confidences=(0.99, 0.98), thrower=W),
        ev.DiceObserved(None, ev.VoidReason.COCKED),
        ev.ManualDice((6, 6)),
        ev.BoardSeen((0,) * 25 + (15,), (15,) + (0,) * 25),
        ev.CheckersSeen((0,) * 25 + (15,), (15,) + (0,) * 25, False, ("two colours on one point",)),
        ev.LiftSeen(B, 25),
        ev.PlaceSeen(W, 0),
        ev.ClockPressed(W, 1000, 2000),
        ev.ClockFlag(B),
        ev.LinkChanged("clock", False, "x"),
        ev.LinkNoisy("board", True, 12.5, 0.4),
        ev.DoubleOffered(W),
        ev.DoubleTaken(B),
        ev.DoubleDropped(B),
        ev.Beavered(B),
        ev.Raccooned(W),
        ev.ResignationOffered(W, 2),
        ev.DoubleNamed(W, 4),
        ev.ResignationAccepted(B),
        ev.ResignationRejected(B),
        ev.AcceptIllegal(B),
        ev.CorrectIllegal(W),
        ev.CallDirector(None),
        ev.ManualPlay("8/5 6/5"),
        ev.DirectorOverride("set_dice", "5-3", "ab" * 32),
        ev.MemberCubeMoved("Deniz", "double", "Ayşe"),
        ev.TimeCorrected(W, 60000),
        ev.ThrowQuestioned(None, ev.VoidReason.COCKED, ("borderline_cocked",), (0.55,), B),
        ev.ThrowConfirmed(W),
        ev.ThrowCorrected(W, (6, 5)),
        ev.RethrowCalled(B),
        ev.ResultConfirmed(W),
    ]
    assert {type(e) for e in samples} == set(ev.EVENT_TYPES.values())
    for event in samples:
        assert ev.event_from_dict(ev.event_to_dict(event)) == event


@pytest.mark.parametrize("variant", [v.name for v in VARIANTS])
def test_every_variant_plays_a_whole_match_through_the_referee(variant: str) -> None:
    """A simulated match per variant: every play judged from board snapshots, to the end of the match."""
    setup = make_setup(variant=variant, length=2)
    referee = Referee.start(setup)
    world = World(seed=3)
    last: ev.Event | None = None
    codes: set[str] = set()
    while not referee.match.over:
        assert referee.events < 20_000, f"{variant}: no end after 20,000 events at {referee.stage}"
        last = world.next_event(referee, last)
        referee, reaction = referee.handle(last)
        codes |= set(reaction.codes)
    assert "play_ok" in codes and "match_over" in codes
    assert max(referee.match.score) >= 2
    assert not {"action_refused", "board_unreadable", "enter_play"} & codes
    # The rules core replays the referee's actions to the same match: nothing was decided outside the rules.
    replayed = Match.replay(setup.new_match(), referee.match.actions())
    assert replayed.score == referee.match.score and replayed.result == referee.match.result


def test_the_referee_is_a_pure_function_of_its_events() -> None:
    setup = make_setup(length=1)
    world = World(seed=5)
    referee = Referee.start(setup)
    events: list[ev.Event] = []
    last: ev.Event | None = None
    while not referee.match.over:
        last = world.next_event(referee, last)
        events.append(last)
        referee, _ = referee.handle(last)
    assert Referee.start(setup).fold(events) == referee


def test_a_noisy_cable_is_shown_in_both_languages_and_its_end_too() -> None:
    from app.table.devices import device_event
    from device.driver import LinkNoise
    from device.messages import DeviceKind
    from device.quality import Quality

    table = Table()
    event = device_event(
        LinkNoise(DeviceKind.BOARD, True, Quality(clean=180, repaired=18, lost=2)), table.referee.position
    )
    assert event == ev.LinkNoisy("board", True, 10.0, 1.0)
    [noisy] = table.send(event).rulings
    assert noisy.level is Level.WARNING
    assert render(noisy) == "The sensing board's cable is noisy (10.0 % of frames damaged, 1.0 % lost): check it."
    assert render(noisy, "tr").startswith("Algılayıcı tahta kablosu parazitli (bozuk çerçeve %10,0, kayıp %1,0)")
    [clean] = table.send(ev.LinkNoisy("board", False)).rulings
    assert render(clean) == "The sensing board's cable is clean again." and clean.level is Level.INFO
