"""Jellyfish .mat match records, written as GNU Backgammon writes them, and read back.

A .mat file is what GNU Backgammon, eXtreme Gammon and BGBlitz all import.
The layout follows GNU Backgammon 1.07's ``export match mat`` (checked by
exporting from it and importing into it):

- ``; [Tag "value"]`` header lines, then `` N point match`` (0 for money);
- per game `` Game n``, the score line `` Alice : 3`` / ``Bob : 1`` in two
  columns, and numbered lines ``%3d) `` with White's entry in a 28-wide left
  column and Black's after it; a line starts with White's entry, and Black's
  entry joins the line when its column is still free;
- a turn as ``53: 8/3 6/3``: the dice, then one ``from/to`` per checker
  step in the order played, 25 for the bar, 0 for off, ``*`` on a hit (as
  GNU Backgammon writes; the reader also takes the usual short forms such as
  ``24/14``, ``bar/22``, ``6/off`` and ``8/5(2)``); a roll that cannot be
  played is the dice alone;
- `` Doubles => 2``, `` Takes``, `` Drops``, `` Beavers => 4`` (a beaver, and
  a raccoon, which GNU Backgammon also writes as a beaver);
- `` Wins N point(s)`` in the winner's column. A game that ends with a
  "Wins" line but not on the board was resigned: the loser resigned on its
  turn, at the level the points give (points / cube). A record that stops
  in a game in progress may end with a roll not yet played (the dice alone,
  as GNU Backgammon writes it).

The Crawford game carries no mark of its own in the format: every reader
finds it from the score and the Crawford rule, which the header states with
eXtreme Gammon's ``; [Crawford "On"]`` tag. The header also gives the players
(``Player 1`` is White, the left column), the date and the event with
eXtreme Gammon's tags, and a ``Match ID`` tag, the number eXtreme Gammon
files an imported match under (:attr:`rules.match.MatchHeader.record_id`).
Tags of this project's own (``Raccoon``, ``AutomaticDoubles``, ``FirstMove``,
``LostOnTime``) carry what no other program records; other programs ignore
them.

What a .mat file cannot hold, :func:`recordable` leaves out: opening ties,
declined resignations, and a resignation offered or a roll not played when
the record stops. A resignation under the Jacoby rule (every level worth
one cube) is recorded as a single game. Variants other
than backgammon and nackgammon, and money sessions with automatic doubles,
are refused by the writer (:class:`MatExportError`); the project's journal
records them instead.
"""

from __future__ import annotations

import datetime
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator, Union

from rules.cube import CubeRules
from rules.cubeful import (
    AcceptResignation,
    Action,
    Beaver,
    CubefulGame,
    Double,
    Drop,
    Move,
    OpeningThrow,
    Raccoon,
    RejectResignation,
    Resign,
    Roll,
    Take,
)
from rules.errors import MatExportError, MatImportError, RulesError
from rules.game import FirstMove, Phase, ResultKind
from rules.match import Match, MatchEnd, MatchHeader
from rules.notation import parse_play
from rules.play import Play, apply_steps
from rules.position import BAR, OFF, Color, Position
from rules.registry import find_variant
from rules.standard import STANDARD_VARIANT
from rules.variant import Variant

VARIATIONS = {"backgammon": "Backgammon", "nackgammon": "NackGammon"}
"""The variants a .mat file holds, with the name of eXtreme Gammon's Variation tag."""

_LEFT_WIDTH = 27
"""Text width of the left column; a space follows it (GNU Backgammon's layout)."""
_RIGHT_FROM = 20
"""An entry starting at or after this column of a line is in the right (Black's) column."""
_PLAYER_TAGS = ("Player 1", "Player 2")


def write_mat(match: Match) -> str:
    """The .mat text of ``match``; MatExportError if the format cannot hold it."""
    record = recordable(match)
    lines = _header_lines(record)
    lines += ["", f" {record.length} point match", ""]
    names = record.header.players
    for number, (game, score) in enumerate(zip(record.games, record.scores_before()), start=1):
        if not game.actions:
            continue
        lines.append(f" Game {number}")
        left = f"{names[0]} : {score[0]}"
        lines.append(" " + left.ljust(31) + (" " if len(left) >= 31 else "") + f"{names[1]} : {score[1]}")
        lines += _game_lines(game)
        lines.append("")
    return "\n".join(lines) + "\n"


def save_mat(match: Match, path: Union[str, Path]) -> None:
    Path(path).write_text(write_mat(match), encoding="utf-8")


def recordable(match: Match) -> Match:
    """``match`` as a .mat file holds it (see the module docstring); reading the file gives this."""
    check_writable(match)
    rules = match.rules
    record = Match.new(
        rules.length,
        match.header,
        crawford=rules.crawford,
        cube=rules.cube,
        first_move=rules.first_move,
        variant=rules.variant,
    )
    for game in match.games:
        actions = game.actions
        for index, action in enumerate(actions):
            following = actions[index + 1] if index + 1 < len(actions) else None
            if isinstance(action, OpeningThrow) and action.white == action.black:
                continue
            if isinstance(action, Resign):
                if not isinstance(following, AcceptResignation):
                    continue
                if record.game.cube.jacoby_applies:  # every level is worth one cube: say single
                    action = Resign(action.by, ResultKind.SINGLE)
            if isinstance(action, RejectResignation):
                continue
            if isinstance(action, (Roll, OpeningThrow)) and following is None:
                continue  # dice not played when the record stops
            record = record.apply(action)
    if match.result is not None and match.result.end is MatchEnd.TIME:
        record = record.lose_on_time(match.result.winner.other)
    return record


def check_writable(match: Match) -> None:
    """Raise MatExportError if a .mat file cannot hold ``match`` (its variant, automatic doubles)."""
    variant = match.rules.variant
    if variant.name not in VARIATIONS:
        raise MatExportError(
            f"a .mat file cannot hold {variant.name}: it records backgammon and nackgammon only;"
            " this match is kept in the referee's journal instead"
        )
    if any(game.cube.automatic for game in match.games):
        raise MatExportError(
            "a .mat file cannot hold automatic doubles (an opening tie doubled the stake);"
            " this session is kept in the referee's journal instead"
        )


def _header_lines(match: Match) -> list[str]:
    header, rules = match.header, match.rules
    tags: list[tuple[str, str]] = []
    if header.site:
        tags.append(("Site", header.site))
    tags.append(("Match ID", str(header.record_id)))
    tags += [(_PLAYER_TAGS[0], header.players[0]), (_PLAYER_TAGS[1], header.players[1])]
    if header.date is not None:
        tags.append(("EventDate", header.date.strftime("%Y.%m.%d")))
    if header.time is not None:
        tags.append(("EventTime", header.time.strftime("%H.%M")))
    tags.append(("Variation", VARIATIONS[rules.variant.name]))
    if rules.is_money:
        tags += [
            ("Jacoby", _on(rules.cube.jacoby)),
            ("Beaver", _on(rules.cube.beavers)),
            ("Raccoon", _on(rules.cube.raccoons)),
            ("AutomaticDoubles", str(rules.cube.automatic_doubles)),
        ]
    else:
        tags.append(("Crawford", _on(rules.crawford)))
    if rules.cube.max_value is not None:
        tags.append(("CubeLimit", str(rules.cube.max_value)))
    if rules.first_move is FirstMove.PREVIOUS_WINNER:
        tags.append(("FirstMove", "PreviousWinner"))
    if header.event:
        tags.append(("Event", header.event))
    if header.round:
        tags.append(("Round", header.round))
    if match.result is not None and match.result.end is MatchEnd.TIME:
        tags.append(("LostOnTime", _PLAYER_TAGS[match.result.winner.other]))
    return [f'; [{key} "{value}"]' for key, value in tags]


def _on(flag: bool) -> str:
    return "On" if flag else "Off"


def _game_lines(game: CubefulGame) -> list[str]:
    """The numbered lines of one game and its "Wins" line."""
    rows: list[list[str | None]] = []

    def add(player: Color, text: str) -> None:
        if player is Color.BLACK and rows and rows[-1][1] is None:
            rows[-1][1] = text
        else:
            rows.append([text, None] if player is Color.WHITE else [None, text])

    for player, text in _entries(game):
        add(player, text)
    lines = [_row(f"{number:3d}) ", left, right) for number, (left, right) in enumerate(rows, start=1)]
    outcome = game.outcome
    if outcome is not None and outcome.winner is not None:
        wins = f" Wins {outcome.points} point{'' if outcome.points == 1 else 's'}"
        if outcome.winner is Color.BLACK and rows and rows[-1][1] is None:
            lines[-1] = _row(f"{len(rows):3d}) ", rows[-1][0], wins)
        elif outcome.winner is Color.BLACK:
            lines.append(_row("     ", None, wins))
        else:
            lines.append(_row("     ", wins, None))
    return lines


def _row(prefix: str, left: str | None, right: str | None) -> str:
    text = prefix + f"{left or '':<{_LEFT_WIDTH}} " + (right or "")
    return text.rstrip()


def _entries(game: CubefulGame) -> Iterator[tuple[Color, str]]:
    """Each entry of the game with its player; the checker game's turns give the dice."""
    turns = iter(game.game.turns)
    position = game.game.variant.start()
    value = 1
    for action in game.actions:
        if isinstance(action, Move):
            turn = next(turns)
            position = position.with_turn(turn.color)
            yield turn.color, f"{turn.dice[0]}{turn.dice[1]}: {_steps_text(position, turn.play)}"
            position = apply_steps(position, turn.play.steps)
        elif isinstance(action, Double):
            yield action.by, f" Doubles => {value * 2}"
        elif isinstance(action, Take):
            value *= 2
            yield action.by, " Takes"
        elif isinstance(action, Drop):
            yield action.by, " Drops"
        elif isinstance(action, (Beaver, Raccoon)):
            value *= 4 if isinstance(action, Beaver) else 2
            yield action.by, f" Beavers => {value}"


def _steps_text(position: Position, play: Play) -> str:
    """One ``from/to`` per step, highest source first as GNU Backgammon orders them.

    Steps only move down, so a step that needs another's checker always
    comes after it; the stars are put where the steps, taken in this order,
    hit.
    """
    texts = []
    opponent = list(position.opponent)
    for step in sorted(play.steps, reverse=True):
        hit = step.dest != OFF and opponent[BAR - step.dest] == 1
        if hit:
            opponent[BAR - step.dest] = 0
        texts.append(f"{step.source}/{step.dest}{'*' if hit else ''}")
    return " ".join(texts)


# Reading.

_TAG = re.compile(r'^;\s*\[\s*([^"\]]+?)\s+"(.*)"\s*\]\s*$')
_LENGTH = re.compile(r"^\s*(\d+)\s+points?\s+match\b", re.IGNORECASE)
_GAME = re.compile(r"^\s*Game\s+(\d+)\s*$", re.IGNORECASE)
_SCORE = re.compile(r"^\s*(\S.*?)\s*:\s*(\d+)\s+(\S.*?)\s*:\s*(\d+)\s*$")
_NUMBERED = re.compile(r"^\s*(\d+)\)")
_ENTRY = re.compile(r"(?<!\S)(?:([1-6])([1-6]):|(doubles|takes|drops|passes|beavers|raccoons|wins)\b)", re.IGNORECASE)
_CUBE_VALUE = re.compile(r"^=>\s*(\d+)$")
_WINS = re.compile(r"^(\d+)\s+points?(?:\s+and\s+the\s+match)?$", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class _Entry:
    column: int
    word: str
    """The dice ("53") or the keyword, lower case."""
    rest: str


def read_mat(text: str, path: str = "<mat>") -> Match:
    """The match a .mat text records; MatImportError (file, line, reason) if it cannot be read."""
    reader = _Reader(text.splitlines(), path)
    try:
        return reader.read()
    except RulesError:
        raise
    except (ValueError, RecursionError, OverflowError) as error:  # a number too long to convert, and the like
        raise reader.fail(f"cannot read this line: {str(error)[:200]}") from None


def load_mat(path: Union[str, Path]) -> Match:
    return read_mat(Path(path).read_text(encoding="utf-8"), str(path))


class _Reader:
    """Reads a .mat text line by line, folding each entry into a Match."""

    def __init__(self, lines: list[str], path: str) -> None:
        self.lines = lines
        self.path = path
        self.number = 0
        self.game_index = 0
        """Which of the match's games the lines being read belong to."""
        self.last_entry = False
        """Whether the entry being read is the last of the file."""
        content = [i for i, line in enumerate(lines) if line.strip() and not line.lstrip().startswith(";")]
        self.last_content = content[-1] + 1 if content else 0
        """The number of the file's last line that is neither blank nor a comment."""

    def fail(self, reason: str, line: int | None = None) -> MatImportError:
        return MatImportError(self.path, self.number if line is None else line, reason)

    def read(self) -> Match:
        tags, length, first_game = self._preamble()
        match = self._new_match(tags, length, first_game)
        game_line = 0
        for index in range(first_game, len(self.lines)):
            self.number = index + 1
            line = self.lines[index]
            if not line.strip() or line.lstrip().startswith(";"):
                continue
            found = _GAME.match(line)
            if found:
                self._next_game(match, int(found.group(1)), game_line)
                game_line = self.number
                continue
            if not game_line:
                raise self.fail(f"cannot read {line.strip()!r}: a game starts with ' Game 1'")
            if _SCORE.match(line) and not _NUMBERED.match(line) and self._only_blank_since(game_line):
                self._check_score(match, line)
                continue
            match = self._entries_line(match, line)
        lost = tags.get("lostontime")
        if lost is not None:
            loser = self._player_tag(lost, "LostOnTime")
            try:
                match = match.lose_on_time(loser)
            except RulesError as error:
                raise self.fail(f"LostOnTime: {error}", 0) from None
        return match

    def _next_game(self, match: Match, number: int, previous_line: int) -> None:
        """Check a ' Game n' line: the game before it is over and n comes next."""
        if previous_line:
            if not match.games[self.game_index].over:
                raise self.fail(
                    f"game {self.game_index + 1} (line {previous_line}) has no result, but another game follows"
                )
            self.game_index += 1
        if number != self.game_index + 1:
            raise self.fail(f"game {number} is out of order: game {self.game_index + 1} comes next")
        if match.over:
            raise self.fail(f"game {number} follows the end of the match")

    def _only_blank_since(self, line_number: int) -> bool:
        """Whether only blank lines stand between line ``line_number`` and this one."""
        return all(not self.lines[i].strip() for i in range(line_number, self.number - 1))

    def _preamble(self) -> tuple[dict[str, str], int, int]:
        """The header tags, the match length and the index of the line after the length line."""
        tags: dict[str, str] = {}
        for index, line in enumerate(self.lines):
            self.number = index + 1
            stripped = line.strip()
            if not stripped:
                continue
            if stripped.startswith(";"):
                tag = _TAG.match(stripped)
                if tag:
                    tags[tag.group(1).lower()] = tag.group(2)
                continue
            found = _LENGTH.match(line)
            if found:
                return tags, int(found.group(1)), index + 1
            raise self.fail(f"cannot read {stripped!r}: expected the ' N point match' line")
        raise self.fail("no ' N point match' line: this is not a .mat file", 0)

    def _new_match(self, tags: dict[str, str], length: int, first_game: int) -> Match:
        names = self._names(tags, first_game)
        header = MatchHeader(
            players=names,
            event=tags.get("event", ""),
            round=tags.get("round", ""),
            site=tags.get("site", ""),
            date=self._date(tags.get("eventdate")),
            time=self._time(tags.get("eventtime")),
            record_id=self._int_tag(tags, "match id", 0),
        )
        money = length == 0
        limit = tags.get("cubelimit")
        cube = CubeRules(
            money=money,
            max_value=None if limit is None else self._int_tag(tags, "cubelimit", 1),
            beavers=self._flag(tags, "beaver", True) if money else True,
            raccoons=self._flag(tags, "raccoon", True) if money else False,
            automatic_doubles=self._int_tag(tags, "automaticdoubles", 1) if money else 1,
            jacoby=self._flag(tags, "jacoby", True) if money else True,
        )
        first_move = FirstMove.OPENING_ROLL
        if tags.get("firstmove", "").lower() == "previouswinner":
            first_move = FirstMove.PREVIOUS_WINNER
        try:
            return Match.new(
                length,
                header,
                crawford=self._flag(tags, "crawford", True),
                cube=cube,
                first_move=first_move,
                variant=self._variant(tags.get("variation")),
            )
        except ValueError as error:
            raise self.fail(str(error), 0) from None

    def _names(self, tags: dict[str, str], first_game: int) -> tuple[str, str]:
        given = (tags.get("player 1"), tags.get("player 2"))
        if given[0] is not None and given[1] is not None:
            return (given[0], given[1])
        for index in range(first_game, len(self.lines)):
            found = _SCORE.match(self.lines[index])
            if found and not _NUMBERED.match(self.lines[index]):
                return (found.group(1), found.group(3))
        return ("White", "Black")

    def _variant(self, name: str | None) -> Variant:
        if name is None or name.lower() == "backgammon":
            return STANDARD_VARIANT
        for key, tag in VARIATIONS.items():
            if tag.lower() == name.lower():
                try:
                    return find_variant(key)
                except ValueError:
                    raise self.fail(f"the rules core does not know the variant {key} yet", 0) from None
        raise self.fail(f"Variation {name!r}: this rules core reads backgammon and nackgammon records only", 0)

    def _date(self, text: str | None) -> datetime.date | None:
        if text is None:
            return None
        try:
            return datetime.datetime.strptime(text.strip(), "%Y.%m.%d").date()
        except ValueError:
            raise self.fail(f"EventDate {text!r} is not a date like 2024.05.17", 0) from None

    def _time(self, text: str | None) -> datetime.time | None:
        if text is None:
            return None
        try:
            return datetime.datetime.strptime(text.strip(), "%H.%M").time()
        except ValueError:
            raise self.fail(f"EventTime {text!r} is not a time like 14.30", 0) from None

    def _int_tag(self, tags: dict[str, str], key: str, default: int) -> int:
        text = tags.get(key)
        if text is None:
            return default
        try:
            return int(text.strip())
        except ValueError:
            raise self.fail(f"tag {key!r}: {text!r} is not a whole number", 0) from None

    def _flag(self, tags: dict[str, str], key: str, default: bool) -> bool:
        text = tags.get(key)
        if text is None:
            return default
        if text.strip().lower() in ("on", "yes", "true"):
            return True
        if text.strip().lower() in ("off", "no", "false"):
            return False
        raise self.fail(f"tag {key!r}: {text!r} is neither On nor Off", 0)

    def _player_tag(self, text: str, key: str) -> Color:
        for color in Color:
            if text.strip().lower() == _PLAYER_TAGS[color].lower():
                return color
        raise self.fail(f"tag {key!r}: {text!r} is neither 'Player 1' nor 'Player 2'", 0)

    def _check_score(self, match: Match, line: str) -> None:
        found = _SCORE.match(line)
        assert found is not None
        names = (found.group(1), found.group(3))
        if names != match.header.players:
            raise self.fail(
                f"the players are {match.header.players[0]} and {match.header.players[1]},"
                f" not {names[0]} and {names[1]}"
            )
        score = (int(found.group(2)), int(found.group(4)))
        if score != match.score:
            raise self.fail(
                f"the score does not add up: the file says {score[0]}-{score[1]},"
                f" the games before give {match.score[0]}-{match.score[1]}"
            )

    def _entries_line(self, match: Match, line: str) -> Match:
        numbered = _NUMBERED.match(line)
        body_from = numbered.end() if numbered else 0
        entries = self._split(line, body_from)
        if not entries:
            raise self.fail(f"cannot read {line.strip()!r}")
        if len(entries) > 2:
            raise self.fail("more than two entries on one line")
        if len(entries) == 2:
            players = [Color.WHITE, Color.BLACK]
        else:
            players = [Color.BLACK if entries[0].column >= _RIGHT_FROM else Color.WHITE]
        for player, entry in zip(players, entries):
            self.last_entry = entry is entries[-1] and self.number == self.last_content
            match = self._entry(match, player, entry)
        return match

    def _split(self, line: str, start: int) -> list[_Entry]:
        found = list(_ENTRY.finditer(line, start))
        if not found:
            return []
        if line[start : found[0].start()].strip():
            raise self.fail(f"cannot read {line[start : found[0].start()].strip()!r}")
        entries = []
        for index, hit in enumerate(found):
            end = found[index + 1].start() if index + 1 < len(found) else len(line)
            word = (hit.group(1) + hit.group(2)) if hit.group(1) else hit.group(3).lower()
            entries.append(_Entry(hit.start(), word, line[hit.end() : end].strip()))
        return entries

    def _entry(self, match: Match, player: Color, entry: _Entry) -> Match:
        name = match.header.players[player]
        if entry.word == "wins":
            return self._wins(match, player, entry)
        if match.games[self.game_index].over:
            raise self.fail(f"{name} {entry.word}: game {self.game_index + 1} is already over")
        game = match.game
        if entry.word.isdigit():
            return self._turn(match, player, entry)
        action: Action
        if entry.word == "doubles":
            self._cube_value(entry, game.cube.value * 2)
            action = Double(player)
        elif entry.word == "takes":
            action = Take(player)
        elif entry.word in ("drops", "passes"):
            action = Drop(player)
        elif entry.word == "raccoons" or game.cube.raccoon_by is player:
            action = Raccoon(player)
            self._cube_value(entry, game.cube.value * 2)
        else:
            action = Beaver(player)
            self._cube_value(entry, game.cube.value * 4)
        return self._apply(match, action, f"{name} {entry.word}")

    def _cube_value(self, entry: _Entry, expected: int) -> None:
        found = _CUBE_VALUE.match(entry.rest)
        if not found:
            raise self.fail(f"{entry.word} needs the new cube value, as in '=> {expected}'")
        if int(found.group(1)) != expected:
            raise self.fail(f"the cube goes to {expected} here, not {found.group(1)}")

    def _turn(self, match: Match, player: Color, entry: _Entry) -> Match:
        name = match.header.players[player]
        dice = (int(entry.word[0]), int(entry.word[1]))
        game = match.game
        if game.game.phase is Phase.OPENING:
            if dice[0] == dice[1]:
                raise self.fail(f"the opening roll {entry.word} is a double: each side throws one die")
            high, low = max(dice), min(dice)
            opening = OpeningThrow(high, low) if player is Color.WHITE else OpeningThrow(low, high)
            match = self._apply(match, opening, f"{name}'s opening roll {entry.word}")
        else:
            match = self._apply(match, Roll(dice), f"{name} rolls {entry.word}", player)
        position = match.game.position
        rolled = match.game.game.dice
        assert rolled is not None
        if not entry.rest and self.last_entry and any(p.steps for p in match.game.game.legal_plays()):
            return match  # the record stops after a roll not yet played (a match in progress)
        try:
            play = parse_play(position, rolled, entry.rest)
        except RulesError as error:
            raise self.fail(f"{name}'s {entry.word}: {entry.rest or '(no move)'}: {error}") from None
        return self._apply(match, Move(play), f"{name}'s play {entry.rest!r}")

    def _wins(self, match: Match, player: Color, entry: _Entry) -> Match:
        found = _WINS.match(entry.rest)
        if not found:
            raise self.fail(f"cannot read 'Wins {entry.rest}': expected 'Wins N point(s)'")
        points = int(found.group(1))
        name = match.header.players[player]
        game = match.games[self.game_index]
        if not game.over:
            value = game.cube.value
            levels = [kind for kind in ResultKind if game.cube.points(kind) == points]
            if not levels:
                raise self.fail(
                    f"{name} wins {points} points, but the cube is at {value}: a game is worth"
                    f" {', '.join(str(game.cube.points(kind)) for kind in ResultKind)}"
                )
            loser = player.other
            match = self._apply(match, Resign(loser, levels[0]), f"{match.header.players[loser]} resigns", loser)
            return self._apply(match, AcceptResignation(player), f"{name} accepts the resignation")
        outcome = game.outcome
        assert outcome is not None
        if outcome.winner is not player:
            winner = "nobody" if outcome.winner is None else match.header.players[outcome.winner]
            raise self.fail(f"{name} wins, but the game was won by {winner}")
        if outcome.points != points:
            raise self.fail(f"the score does not add up: the game is worth {outcome.points}, the file says {points}")
        return match

    def _apply(self, match: Match, action: Action, what: str, player: Color | None = None) -> Match:
        game = match.game
        if player is not None and game.to_act is not None and game.to_act is not player:
            raise self.fail(f"{what}: it is {match.header.players[game.to_act]}'s turn")
        try:
            return match.apply(action)
        except RulesError as error:
            raise self.fail(f"{what}: {error}") from None
