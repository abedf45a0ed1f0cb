"""The referee runs a chouette (docs/rules.md section 2): a cube per member, the captain's checkers, settlement,
the line."""

from __future__ import annotations

import contextlib
import io
import json
import re
from dataclasses import replace
from pathlib import Path

import pytest

from app.__main__ import main
from app.record.export import ExportError, mat_text, result_sheet
from app.record.session import Session
from app.referee import events as ev
from app.referee.engine import Referee, Stage
from app.referee.i18n import render
from app.referee.rulings import ClockCommand
from app.referee.setup import MatchSetup
from rules.chouette import Chouette
from rules.game import Game, Phase
from rules.position import Color, Position
from tests.app.table import Table, make_setup

W, B = Color.WHITE, Color.BLACK
PLAYERS = ("Box", "Cap", "Deniz", "Ece")


def cube(member: str, move: str, by: str) -> ev.MemberCubeMoved:
    return ev.MemberCubeMoved(member, move, by)


def team_to_roll(players: tuple[str, ...] = PLAYERS) -> Table:
    """The box (White) wins the opening 3-1 and plays it on the board; the team (Black) is to roll."""
    table = Table(chouette=players, length=0)
    table.open_with(3, 1)
    table.move((8, 5), (6, 5))
    assert table.press().codes == ["play_ok"]
    assert table.referee.stage is Stage.ROLL and table.referee.mover is B
    return table


def box_to_roll() -> Table:
    table = team_to_roll()
    assert table.send(ev.DiceObserved((6, 5))).codes == ["dice"]
    table.move((24, 18), (18, 13))
    assert table.press().codes == ["play_ok"]
    assert table.referee.stage is Stage.ROLL and table.referee.mover is W
    return table


def session_of(table: Table) -> Chouette:
    assert table.referee.chouette is not None
    return table.referee.chouette


def test_the_set_up_names_three_to_eight_players_and_plays_money_backgammon() -> None:
    setup = make_setup(chouette=PLAYERS, length=0)
    assert setup.players == ("Box", "Cap") and setup.is_chouette
    assert MatchSetup.from_dict(setup.to_dict()) == setup
    for bad, message in (((("A", "B")), "3 to 8"), (("A", "B", "A"), "name of its own")):
        with pytest.raises(ValueError, match=message):
            make_setup(chouette=bad, length=0)
    with pytest.raises(ValueError, match="money"):
        make_setup(chouette=PLAYERS, length=5)
    with pytest.raises(ValueError, match="backgammon"):
        make_setup(chouette=PLAYERS, length=0, variant="plakoto")
    referee = Referee.start(setup)
    assert referee.side_names() == ("Box", "Cap") and referee.game_number == 1


def test_members_double_the_box_each_on_its_own_cube_and_the_box_answers_each() -> None:
    table = team_to_roll()
    doubled = table.send(cube("Cap", "double", "Cap"))
    assert doubled.codes == ["member_double"] and doubled.commands == (ClockCommand(W),)  # the box's clock runs
    assert table.referee.stage is Stage.DOUBLE and table.referee.to_act is W
    assert render(doubled.rulings[0], "en") == "Cap doubles the box (Box) to 2."
    assert render(doubled.rulings[0], "tr") == "Cap kutuya (Box) küpü çeviriyor: 2."
    table.send(cube("Deniz", "double", "Deniz"))
    assert table.send(ev.DiceObserved((6, 5))).codes == ["throw_before_answer"]
    assert table.send(cube("Cap", "take", "Box")).codes == ["member_take"]
    assert table.referee.stage is Stage.DOUBLE  # Deniz's double still waits
    dropped = table.send(cube("Deniz", "drop", "Box"))
    assert dropped.codes == ["member_drop"] and dropped.rulings[0].params["points"] == 1
    assert dropped.commands == (ClockCommand(B),)  # every double answered: the team's clock runs again
    game = session_of(table).game
    assert (game.cube_of("Cap").value, game.cube_of("Cap").owner) == (2, W)
    assert game.settled == (None, 1, None)
    assert table.send(cube("Deniz", "double", "Deniz")).codes == ["action_refused"]  # out of this game
    assert table.send(ev.DiceObserved((6, 5))).codes == ["dice"]


def test_only_the_member_and_the_box_act_on_a_cube_and_the_cube_rules_hold() -> None:
    table = team_to_roll()
    assert table.send(cube("Cap", "double", "Deniz")).codes == ["action_refused"]
    refused = table.send(cube("Cap", "double", "Box"))  # not the box's turn
    assert refused.codes == ["member_cube_refused"] and refused.rulings[0].params["rule"] == "not_your_turn"
    assert "kendi sırasında" in render(refused.rulings[0], "tr")
    assert table.send(ev.DoubleOffered(B)).codes == ["chouette_names_member"]
    assert table.send(ev.ResignationOffered(B)).codes == ["chouette_names_member"]
    assert Table().send(cube("Cap", "double", "Cap")).codes == ["not_a_chouette"]
    with pytest.raises(ValueError, match="cube action"):
        ev.MemberCubeMoved("Cap", "redouble", "Cap")
    assert ev.event_from_dict(ev.event_to_dict(cube("Cap", "beaver", "Box"))) == cube("Cap", "beaver", "Box")


def test_the_box_doubles_members_and_a_captain_who_drops_passes_the_checkers_on() -> None:
    table = box_to_roll()
    moves = {(m.member, m.move.value, m.by) for m in table.referee.member_moves()}
    assert moves == {(member, "double", "Box") for member in PLAYERS[1:]}
    for member in PLAYERS[1:]:
        table.send(cube(member, "double", "Box"))
    assert table.referee.to_act is B
    dropped = table.send(cube("Cap", "drop", "Cap"))
    assert dropped.codes == ["member_drop", "captain_passes"]
    assert render(dropped.rulings[1], "en") == "Cap is out: Deniz moves the team's checkers now."
    assert table.send(cube("Deniz", "take", "Deniz")).codes == ["member_take"]
    assert table.send(cube("Ece", "beaver", "Ece")).codes == ["member_beaver"]
    game = session_of(table).game
    assert game.settled == (-1, None, None) and game.acting_captain == "Deniz"
    assert [game.cube_of(m).value for m in ("Deniz", "Ece")] == [2, 4]
    assert table.referee.side_names() == ("Box", "Deniz")
    assert table.referee.stage is Stage.ROLL and table.send(ev.DiceObserved((2, 1))).codes == ["dice"]


def test_a_captain_who_wins_becomes_the_box_and_every_member_settles() -> None:
    table = team_to_roll()
    for member in PLAYERS[1:]:
        table.send(cube(member, "double", member))
    table.send(cube("Cap", "drop", "Box"), cube("Deniz", "drop", "Box"))
    last = table.send(cube("Ece", "drop", "Box"))
    assert last.codes == ["member_drop", "chouette_settled", "ledger", "line_turns", "new_game"]
    assert last.commands[-1] == ClockCommand(None)
    assert render(last.rulings[2], "en") == "Ledger: Box -3, Cap +1, Deniz +1, Ece +1."
    assert render(last.rulings[3], "tr") == "Yeni kutu Cap; sıra Deniz, Ece, Box (kaptan Deniz)."
    session = session_of(table)
    assert sum(session.ledger) == 0 and (session.box, session.line) == ("Cap", ("Deniz", "Ece", "Box"))
    referee = table.referee
    assert referee.stage is Stage.OPENING and referee.game_number == 2 and not referee.clock_started
    assert referee.side_names() == ("Cap", "Deniz")


def test_a_game_played_out_settles_each_member_by_its_own_cube_and_the_box_stays_when_it_wins() -> None:
    table = team_to_roll()
    referee = table.referee
    session = session_of(table)
    end = Position.build({1: 2}, {6: 15}, W)  # the box is bearing off its last two checkers; a gammon
    game = replace(session.game.game, position=end, phase=Phase.ROLL, dice=None)
    assert isinstance(game, Game)
    session = replace(session, game=replace(session.game, game=game))
    table.referee = replace(referee, chouette=session, game_boards=(end,), turn_boards=(end,), board=end)
    table.board(end)
    table.send(cube("Cap", "double", "Box"), cube("Cap", "take", "Cap"))
    table.send(cube("Deniz", "double", "Box"), cube("Deniz", "drop", "Deniz"))
    table.send(ev.DiceObserved((2, 1)))
    table.move((1, 0), (1, 0))
    reaction = table.press()
    assert reaction.codes[:2] == ["play_ok", "chouette_game_over"]
    assert render(reaction.rulings[1], "en") == "The box (Box) wins a gammon (mars) against the team."
    settled = dict(map(tuple, reaction.rulings[2].params["settled"]))  # type: ignore[arg-type]
    assert settled == {"Cap": -4, "Deniz": -1, "Ece": -1}  # gammon on 2; dropped at 1; cube never turned (Jacoby)
    session = session_of(table)
    assert session.ledger == (6, -4, -1, -1) and sum(session.ledger) == 0
    assert (session.box, session.line) == ("Box", ("Deniz", "Ece", "Cap"))  # the captain goes to the end


def test_a_chouette_resumes_from_its_journal_exactly(tmp_path: Path) -> None:
    """The journal of a game with member cube actions and a settlement folds back into the same referee."""
    table = box_to_roll()
    table.send(
        cube("Cap", "double", "Box"),
        cube("Cap", "drop", "Cap"),
        cube("Deniz", "double", "Box"),
        cube("Deniz", "take", "Deniz"),
        cube("Ece", "double", "Box"),
        cube("Ece", "drop", "Ece"),
    )
    table.send(ev.DiceObserved((4, 2)))
    table.move((8, 4), (6, 4))
    table.press()
    table.send(cube("Deniz", "double", "Deniz"), cube("Deniz", "drop", "Box"))  # the last member in: game over
    path = tmp_path / "chouette.sqlite"
    session = Session.create(path, table.referee.setup)
    half = len(table.sent) // 2
    for event in table.sent[:half]:
        session.submit(event)
    session.close()
    reopened = Session.open(path)  # as after a crash: the state is the fold of the journal
    assert reopened.resumed is not None and reopened.resumed.mismatches == ()
    for event in table.sent[half:]:
        reopened.submit(event)
    reopened.close()
    final = Session.open(path)
    assert final.resumed is not None and final.resumed.mismatches == () and final.resumed.events == len(table.sent)
    assert final.referee == table.referee
    chouette = final.referee.chouette
    assert chouette is not None and len(chouette.finished) == 1 and sum(chouette.ledger) == 0
    assert chouette.ledger == (0, -1, 2, -1)  # Cap and Ece paid the box 1 each; the box paid Deniz 2
    final.journal.verify()
    final.close()


def test_the_demo_plays_a_chouette_through_the_real_chain_and_resumes_it(tmp_path: Path) -> None:
    """``python -m app demo --chouette 3``: pty devices, the dice reader, every member cube action, the line."""
    journal = tmp_path / "chouette.sqlite"
    first = io.StringIO()
    with contextlib.redirect_stdout(first):
        assert main(["demo", "--chouette", "3", "--games", "1", "--journal", str(journal)]) == 0
    text = first.getvalue()
    assert "Ayşe is the box (White); the line Mehmet, Deniz (captain Mehmet, Black)" in text
    for sentence in (
        "The box (Ayşe) doubles Mehmet to 2.",
        "Mehmet drops the box's double",
        "Mehmet is out: Deniz moves the team's checkers now.",
        "Deniz takes the box's double",
        "Deniz doubles the box (Ayşe) to 4.",
        "The box (Ayşe) beavers Deniz's double",
        "Settled with the box (Ayşe)",
        "Ledger: Ayşe",
        "Ayşe stays the box; the line is Deniz, Mehmet (captain Deniz).",
    ):  # the captain dropped
        assert sentence in text, sentence
    assert "throw(s) drawn and read by the dice reader" in text and "over pty pairs" in text
    second = io.StringIO()
    export = tmp_path / "chouette.json"
    with contextlib.redirect_stdout(second):  # the same journal, one game more: it resumes where it stopped
        assert (
            main(["demo", "--chouette", "3", "--games", "2", "--journal", str(journal), "--export", str(export)]) == 0
        )
    text = second.getvalue()
    assert "replay agrees with every journaled ruling" in text
    # the second game opens with the box against the new captain (who wins the opening throw follows the seed)
    assert re.search(r"(Ayşe|Deniz) starts \(\d against \d\)", text), text[:400]
    for sentence in ("doubles the box (Ayşe) to 2.", "The box (Ayşe) takes", "The box (Ayşe) drops"):
        assert sentence in text, sentence
    assert "Ledger after 2 game(s):" in text and "(sums to 0)" in text
    result = json.loads(export.read_text(encoding="utf-8"))["result"]
    assert result["kind"] == "chouette" and len(result["games"]) == 2 and sum(result["ledger"].values()) == 0
    assert [game["members"] for game in result["games"]] == [["Mehmet", "Deniz"], ["Deniz", "Mehmet"]]
    session = Session.open(journal)
    assert session.resumed is not None and session.resumed.mismatches == ()
    referee = session.referee
    with pytest.raises(ExportError, match="chouette cannot be written as .mat"):
        mat_text(referee)
    sheet = result_sheet(referee, session.journal.head, "tr")
    assert "Şuet sonuç kâğıdı" in sheet and "Hesap" in sheet
    session.close()


def test_an_illegal_play_and_the_directors_take_back_work_in_a_chouette() -> None:
    table = team_to_roll()
    before = table.referee.position
    table.send(ev.DiceObserved((6, 5)))
    table.move((13, 7), (13, 7))  # 6 and 6 played with 6-5
    flagged = table.press()
    assert "illegal_play" in flagged.codes and table.referee.to_act is W  # the box chooses
    assert render(flagged.rulings[0], "en").startswith("Illegal play by Cap:")
    assert table.send(ev.AcceptIllegal(W)).codes == ["illegal_accepted"]
    assert table.referee.stage is Stage.ROLL and table.referee.mover is W and table.referee.accepted_illegal == 1
    undone = table.send(ev.DirectorOverride("undo_play"))  # no PIN set
    assert undone.codes == ["play_undone"]
    assert table.referee.position.same_board(before) and table.referee.mover is B
    assert session_of(table).game.game.position.same_board(before)
