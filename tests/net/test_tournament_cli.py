"""``python -m app director`` run a tournament from the terminal: from nothing to a champion, on one book file.

Every command goes through the tournament book, so a later command (another process in real life) sees what
an earlier one did; bad input says why and exits 2 without writing anything.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from app.__main__ import main
from app.net.tournament_book import TournamentBook

PLAYERS = ["Ayşe", "Mehmet", "Deniz", "Ece", "Can", "Elif", "Okan", "Selin"]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        code = main(["director", *argv])
    except SystemExit as stop:  # argparse's own refusals (a missing argument) exit 2 too
        code = int(stop.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def test_a_tournament_from_the_terminal(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    book = str(tmp_path / "cup.sqlite")
    assert run(capsys, "create", "Kulüp Kupası", "--consolation", "1", "--lengths", "3,5", "--book", book)[0] == 0
    for number, name in enumerate(PLAYERS, start=1):
        code, out, _ = run(
            capsys, "register", name, "--club", "Kadıköy", "--rating", str(1500 + number), "--book", book
        )
        assert code == 0 and f"p{number} {name}" in out
    assert run(capsys, "withdraw", "p8", "--book", book)[0] == 0
    assert run(capsys, "register", "Selin2", "--book", book)[0] == 0
    code, out, _ = run(capsys, "draw", "--seed", "11", "--seeded", "--book", book)
    assert code == 0 and "seed 11" in out

    # every round: each playable match on a board, its result by the winner's name
    boards = 0
    while True:
        opened = TournamentBook.open(book)
        playable = [(m.id, opened.tournament.players_of(m)) for m in opened.tournament.playable()]
        names = {p: opened.tournament.name(p) for p in opened.tournament.players}
        opened.close()
        if not playable:
            break
        for match, (first, second) in playable:
            boards += 1
            assert run(capsys, "assign", match, str(boards % 4 + 1), "--book", book)[0] == 0
            assert first is not None
            code, out, _ = run(capsys, "result", match, names[first], "3-1", "--book", book)
            assert code == 0 and f"{names[first]} wins 3-1" in out
    code, out, _ = run(capsys, "show", "--lang", "en", "--book", book)
    assert code == 0 and "Main draw" in out and "Consolation" in out and "Winner: " in out and "Standings" in out
    champion = out.split("Winner: ")[1].split("\n")[0]
    code, out, _ = run(capsys, "show", "--lang", "tr", "--book", book)
    assert "Ana tablo" in out and "Teselli tablosu" in out and f"Kazanan: {champion}" in out

    # a correction needs its reason; with one, it is journaled with it
    final = "main-3-1"
    code, _, err = run(capsys, "correct", final, "p1", "0-3", "--book", book)
    assert code == 2 and "--reason" in err
    opened = TournamentBook.open(book)
    loser = opened.tournament.outcome(opened.tournament.matches[final])
    opened.close()
    assert loser is not None
    assert run(capsys, "correct", final, loser[1], "1-3", "--reason", "sheet misread", "--book", book)[0] == 0
    opened = TournamentBook.open(book)
    assert opened.actions()[-1]["reason"] == "sheet misread" and opened.actions()[-1]["by"] == "terminal"
    assert opened.tournament.champion() == loser[1]
    opened.close()

    assert run(capsys, "export", str(tmp_path / "r.csv"), "--book", book)[0] == 0
    rows = list(csv.DictReader((tmp_path / "r.csv").open(encoding="utf-8")))
    assert len(rows) == 10 and all(r["winner"] for r in rows if r["bracket"] == "main")
    assert run(capsys, "export", str(tmp_path / "r.json"), "--book", book)[0] == 0
    data = json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))
    assert data["event"] == "Kulüp Kupası" and len(data["standings"]) == 9
    assert run(capsys, "sheet", str(tmp_path / "s.html"), "--lang", "tr", "--book", book)[0] == 0
    assert "Ana tablo" in (tmp_path / "s.html").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    "argv, said",
    [
        (["register", "Ayşe"], "the draw is made"),
        (["assign", "main-9-9", "1"], "no match main-9-9"),
        (["draw"], "already made"),
        (["result", "main-1-1", "nobody", "3-1"], "does not play"),
        (["result", "main-1-1", "p1", "three"], "a score is two numbers"),
        (["assign", "main-1-1", "board one"], "a board is named"),
        (["export", "out.txt"], "export writes .csv or .json"),
    ],
)
def test_bad_input_says_why_and_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str], said: str
) -> None:
    book = str(tmp_path / "cup.sqlite")
    run(capsys, "create", "Cup", "--book", book)
    for name in ("A", "B", "C", "D"):
        run(capsys, "register", name, "--book", book)
    run(capsys, "draw", "--seed", "1", "--book", book)
    before = len(TournamentBook.open(book).actions())
    code, _, err = run(capsys, *argv, "--book", book)
    assert code == 2 and said in err
    assert len(TournamentBook.open(book).actions()) == before


def test_no_book_and_bad_rules(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "show", "--book", str(tmp_path / "none.sqlite"))
    assert code == 2 and "no tournament book" in err
    code, _, err = run(capsys, "create", "Cup", "--lengths", "5,x", "--book", str(tmp_path / "a.sqlite"))
    assert code == 2 and "match lengths" in err
    code, _, err = run(capsys, "create", "Cup", "--last-chance", "--book", str(tmp_path / "b.sqlite"))
    assert code == 2 and "consolation" in err
    assert not (tmp_path / "b.sqlite").exists()


def test_the_directors_help_names_the_tournament_commands(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--help")
    assert code == 0
    for command in ("create", "register", "draw", "assign", "result", "correct", "show", "sheet", "export"):
        assert f"\n    {command} " in out, command
