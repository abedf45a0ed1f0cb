"""eXtreme Gammon's XGID, both directions.

``XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10`` has ten fields:

1. 26 characters: the top player's bar, points 1..24 as the bottom player
   numbers them, the bottom player's bar; ``-`` empty, ``A``..``O`` 1..15
   checkers of the bottom player, ``a``..``o`` of the top player.
2. log2 of the cube value.
3. cube position: 1 the bottom player owns it, 0 centred, -1 the top player.
4. turn: 1 the bottom player is on roll, -1 the top player.
5. dice: ``00`` not rolled, two digits rolled, ``D`` the player on roll has
   doubled, ``B`` doubled and beavered, ``R`` doubled, beavered, raccooned.
6. score of the bottom player; 7. score of the top player.
8. match: 1 for the Crawford game; money: +1 Jacoby rule, +2 beavers allowed.
9. match length (0 for money); 10. log2 of the maximum cube.

Orientation: the bottom (uppercase) player is Black, the top (lowercase)
player White. That is how GNU Backgammon 1.07's ``set xgid`` reads an XGID
whose turn field is 1: the bottom player becomes gnubg player 1 (Black) and
our Position ID and Match ID equal gnubg's. No fixed choice can agree with
gnubg for turn -1, because gnubg always makes the player on roll its player
1: it relabels the colours (scores swapped, cube owner and turn flipped; the
Position ID, written from the side on roll, is unchanged).
:func:`gnubg_xgid_view` gives exactly what gnubg shows.

What does not map onto :class:`MatchInfo`:

* ``B`` and ``R`` decode as a plain double offered (``double_offered``); the
  beaver and raccoon are lost and :func:`encode_xgid` writes ``D``. gnubg
  1.07 refuses such XGIDs altogether ("Not a valid XGID").
* Dice are kept high die first, as gnubg keeps them: ``25`` reads as 5-2
  and is written back as ``52``.
* gnubg cannot hold a double on offer after ``set xgid``: it steps back to
  the moment before the double (the same cube, nobody doubled).
* The beavers flag (+2) of a money game and the maximum cube are checked and
  dropped; gnubg ignores them too. :func:`encode_xgid` writes no beaver flag
  and XG's usual maximum cube of 2**10 unless told otherwise.
* An XGID holds no game state, resignation or Jacoby flag for matches:
  decoding gives a game in play, no resignation and ``jacoby=False`` in a
  match (as gnubg writes it); encoding refuses states an XGID cannot say and
  ignores ``jacoby`` in a match, where the rule never applies.
* gnubg 1.07 refuses XGIDs without the tenth field, so they are refused here.
  Where gnubg quietly repairs an XGID, it is refused here too: a letter of
  the wrong case on a bar (gnubg drops a lowercase one on the bottom bar and
  counts an uppercase one on the top bar as the top player's), a Crawford
  game with the cube above 1 or a ``D`` (gnubg resets the cube and drops the
  double) and a Crawford flag in a 1-point match (gnubg drops it).
"""

from __future__ import annotations

import dataclasses
import re

from rules.errors import InvalidNotation, RulesError
from rules.match_id import GameState, MatchInfo, Resignation
from rules.position import BAR, CHECKERS, OFF, SLOTS, Color, Position

PREFIX = "XGID="
DEFAULT_MAX_CUBE_LOG2 = 10
"""XG's usual maximum cube field (2**10 = 1024)."""

_FIELDS = 10
_DOUBLED = frozenset("DBR")
_INTEGER = re.compile(r"-?[0-9]+")
_BOTTOM = Color.BLACK
_TOP = Color.WHITE


def decode_xgid(text: str) -> tuple[Position, MatchInfo]:
    """The position and match state of an XGID (with or without ``XGID=``).

    Raises InvalidNotation for malformed text or an impossible match state,
    InvalidPosition for a board no game can reach (both sides borne off).
    """
    body = text.strip()
    if body[: len(PREFIX)].upper() == PREFIX:
        body = body[len(PREFIX) :]
    fields = body.split(":")
    if len(fields) != _FIELDS:
        raise InvalidNotation(f"an XGID has {_FIELDS} fields separated by ':', {text!r} has {len(fields)}")
    board, cube, cube_position, turn, dice, bottom_score, top_score, rules, length, max_cube = fields
    black, white = _decode_board(board, text)
    numbers = {
        name: _integer(value, name, text)
        for name, value in (
            ("cube", cube),
            ("cube position", cube_position),
            ("turn", turn),
            ("bottom score", bottom_score),
            ("top score", top_score),
            ("Crawford/Jacoby", rules),
            ("match length", length),
            ("maximum cube", max_cube),
        )
    }
    owners = {1: _BOTTOM, 0: None, -1: _TOP}
    if numbers["cube position"] not in owners:
        raise InvalidNotation(f"XGID {text!r}: cube position {cube_position} is not 1, 0 or -1")
    if numbers["turn"] not in (1, -1):
        raise InvalidNotation(f"XGID {text!r}: turn {turn} is not 1 or -1")
    for name in ("cube", "bottom score", "top score", "match length", "maximum cube"):
        if numbers[name] < 0:
            raise InvalidNotation(f"XGID {text!r}: the {name} field is negative")
    money = numbers["match length"] == 0
    if not 0 <= numbers["Crawford/Jacoby"] <= (3 if money else 1):
        allowed = "0 to 3 (Jacoby +1, beavers +2) in a money game" if money else "0 or 1 (Crawford) in a match"
        raise InvalidNotation(f"XGID {text!r}: Crawford/Jacoby field {rules} is not {allowed}")
    if numbers["cube"] > 12:
        raise InvalidNotation(f"XGID {text!r}: cube 2**{cube} is above gnubg's 4096")
    on_roll = _BOTTOM if numbers["turn"] == 1 else _TOP
    doubled = dice in _DOUBLED
    rolled = None if doubled else _decode_dice(dice, text)
    try:
        info = MatchInfo(
            cube_value=1 << numbers["cube"],
            cube_owner=owners[numbers["cube position"]],
            on_roll=on_roll,
            crawford=not money and bool(numbers["Crawford/Jacoby"]),
            game_state=GameState.PLAYING,
            turn=on_roll.other if doubled else on_roll,
            double_offered=doubled,
            resignation=Resignation.NONE,
            dice=rolled,
            match_length=numbers["match length"],
            score=(numbers["top score"], numbers["bottom score"]),
            jacoby=money and bool(numbers["Crawford/Jacoby"] & 1),
        )
    except ValueError as error:
        raise InvalidNotation(f"XGID {text!r}: {error}") from None
    return Position(white, black, on_roll), info


def encode_xgid(position: Position, info: MatchInfo, *, max_cube_log2: int = DEFAULT_MAX_CUBE_LOG2) -> str:
    """The XGID of ``position`` with ``info`` (always with the ``XGID=`` prefix).

    Raises InvalidPosition for an impossible board and RulesError for a state
    an XGID cannot carry (a game not in play, a resignation on offer, a
    position whose side to move is not ``info.on_roll``).
    """
    Position(position.white, position.black, position.turn)  # refuses impossible boards
    if position.turn is not info.on_roll:
        raise RulesError(f"the position has {position.turn.name} to move, the match info {info.on_roll.name}")
    if info.game_state is not GameState.PLAYING:
        raise RulesError(f"an XGID describes a game in play, not {info.game_state.name}")
    if info.resignation is not Resignation.NONE:
        raise RulesError("an XGID cannot hold a resignation on offer")
    expected_turn = info.on_roll.other if info.double_offered else info.on_roll
    if info.turn is not expected_turn:
        raise RulesError(f"an XGID cannot say that {info.turn.name} decides next here (a beaver is pending?)")
    board = _encode_board(position.black, position.white)
    cube_position = 0 if info.cube_owner is None else (1 if info.cube_owner is _BOTTOM else -1)
    if info.double_offered:
        dice = "D"
    else:
        dice = "%d%d" % info.dice if info.dice else "00"
    rules = int(info.jacoby) if info.is_money else int(info.crawford)
    fields = (
        board,
        info.cube_value.bit_length() - 1,
        cube_position,
        1 if info.on_roll is _BOTTOM else -1,
        dice,
        info.score[_BOTTOM],
        info.score[_TOP],
        rules,
        info.match_length,
        max_cube_log2,
    )
    return PREFIX + ":".join(str(field) for field in fields)


def gnubg_xgid_view(position: Position, info: MatchInfo) -> tuple[Position, MatchInfo]:
    """What GNU Backgammon 1.07 shows after ``set xgid`` of this state.

    gnubg steps back from a double on offer and makes the player on roll its
    player 1 (Black), so a White on roll is relabelled Black. Comparing
    gnubg's IDs with ours needs this; the game itself is the same.
    """
    if info.double_offered:
        info = dataclasses.replace(info, double_offered=False, turn=info.on_roll)
    if info.on_roll is Color.WHITE:
        return position.mirrored(), info.mirrored()
    return position, info


def _decode_board(board: str, text: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(bottom, top) counts, each in its own numbering."""
    if len(board) != SLOTS:
        raise InvalidNotation(f"XGID {text!r}: the board has {SLOTS} characters, not {len(board)}")
    bottom = [0] * SLOTS
    top = [0] * SLOTS
    for index, char in enumerate(board):
        if char == "-":
            continue
        if not ("A" <= char <= "O" or "a" <= char <= "o"):
            raise InvalidNotation(f"XGID {text!r}: board character {char!r} is not '-', A-O or a-o")
        if char.isupper():
            if index == 0:
                raise InvalidNotation(f"XGID {text!r}: {char!r} on the top player's bar (first character)")
            bottom[index] = ord(char) - ord("A") + 1
        else:
            if index == BAR:
                raise InvalidNotation(f"XGID {text!r}: {char!r} on the bottom player's bar (last character)")
            top[BAR - index] = ord(char) - ord("a") + 1
    for counts, name in ((bottom, "bottom"), (top, "top")):
        on_board = sum(counts)
        if on_board > CHECKERS:
            raise InvalidNotation(f"XGID {text!r}: the {name} player has {on_board} checkers")
        counts[OFF] = CHECKERS - on_board
    return tuple(bottom), tuple(top)


def _encode_board(bottom: tuple[int, ...], top: tuple[int, ...]) -> str:
    chars = []
    for index in range(SLOTS):
        if bottom[index] and index != OFF:
            chars.append(chr(ord("A") + bottom[index] - 1))
        elif top[BAR - index] and index != BAR:
            chars.append(chr(ord("a") + top[BAR - index] - 1))
        else:
            chars.append("-")
    return "".join(chars)


def _decode_dice(dice: str, text: str) -> tuple[int, int] | None:
    if dice == "00":
        return None
    if len(dice) != 2 or not all("1" <= die <= "6" for die in dice):
        raise InvalidNotation(f"XGID {text!r}: dice {dice!r} are not '00', two dice 1-6, 'D', 'B' or 'R'")
    return int(dice[0]), int(dice[1])


def _integer(value: str, name: str, text: str) -> int:
    if not _INTEGER.fullmatch(value):
        raise InvalidNotation(f"XGID {text[:80]!r}: the {name} field {value[:20]!r} is not a whole number")
    if len(value) > 9:  # no field is that large, and int() refuses thousands of digits with a bare ValueError
        raise InvalidNotation(f"XGID {text[:80]!r}: the {name} field has {len(value)} digits: out of range")
    return int(value)
