"""GNU Backgammon's Match ID, both directions, and the match state it carries.

The Match ID is 72 bits, packed least significant bit first into 9 bytes and
written as 12 characters of base64. The fields, from bit 0 (gnubg player 0 is
White, player 1 is Black, project-wide):

====  =====  ===============================================================
bits  width  field
====  =====  ===============================================================
0     4      log2 of the cube value
4     2      cube owner: 0 or 1 a player, 3 centred (2 never occurs)
6     1      player on roll (who rolls, or has rolled, the dice)
7     1      Crawford game
8     3      game state: 0 no game, 1 playing, 2 over, 3 resigned, 4 dropped
11    1      turn: the player who must make the next decision
12    1      double offered
13    2      resignation offered: 0 none, 1 single, 2 gammon, 3 backgammon
15    3      first die (0 when the dice are not rolled)
18    3      second die
21    15     match length (0 for a money session)
36    15     score of player 0 (a money session keeps its running score too)
51    15     score of player 1
66    1      the Jacoby rule is OFF
67    5      unused, always 0
====  =====  ===============================================================

The Jacoby bit (found with gnubg 1.07 as the oracle, comparing Match IDs
around ``set jacoby on``/``off``, ``new session`` and ``new match``): bit 66,
the lowest bit of the last character, is set when the Jacoby rule is *not* in
force, so a money session with Jacoby ends in ``A`` where the same session
without it ends in ``E``. A new match always has it set (the rule never
applies to match play), whatever ``set jacoby`` says; older gnubg versions
never wrote the bit, and gnubg 1.07 still accepts and echoes a match ID
without it, so :func:`decode_match_id` reports the bit as it stands
(``MatchInfo.jacoby = not bit``) and never rewrites it.
``set jacoby on`` inside a running session leaves the session's bit alone;
only ``set jacoby off`` and a new session change it.

A double pending after a take-and-beaver is gnubg's beaver: the cube is
already doubled and owned by the beaverer, ``double_offered`` is set and
``turn`` is the original doubler again.

Beyond the bit widths, decoding refuses what cannot happen and what gnubg
calls an illegal Match ID: a cube owner of 2, game states 5-7, set unused
bits, a die of 0 or 7 beside a rolled one, cubes above 4096 (gnubg refuses
them), matches longer than 64 points, a match score above the length, a
Crawford game outside a match of 2+ points or with nobody one point short, a
Crawford game in play with the cube above 1 or offered, and a double offered
after the dice are rolled. (gnubg itself silently repairs some of these: it
accepts game states 5-7, centres a cube owned by "2", drops a half-rolled
pair of dice, the Crawford flag at 0-0 or in a 1-point match, and a double
offered after rolling, and resets the cube to 1 in a Crawford game.) The
Crawford flag of a finished game is the flag of the next game, so there it
may stand beside the finished game's doubled cube.
"""

from __future__ import annotations

import base64
import dataclasses
import enum
from typing import Optional

from rules.errors import InvalidMatchState, InvalidNotation
from rules.gnubg_id import b64_decode, pack_bits, unpack_bits
from rules.position import Color

MATCH_ID_LENGTH = 12
_MATCH_BYTES = 9

MAX_CUBE = 4096
"""The highest cube value GNU Backgammon accepts (2**12)."""
MAX_MATCH_LENGTH = 64
"""The longest match GNU Backgammon accepts in a Match ID."""
MAX_SCORE = (1 << 15) - 1
"""The largest score the 15-bit score fields hold (money sessions)."""

_CENTRED = 3

_LAYOUT: tuple[tuple[str, int], ...] = (
    ("cube_log2", 4),
    ("cube_owner", 2),
    ("on_roll", 1),
    ("crawford", 1),
    ("game_state", 3),
    ("turn", 1),
    ("double_offered", 1),
    ("resignation", 2),
    ("die1", 3),
    ("die2", 3),
    ("match_length", 15),
    ("score0", 15),
    ("score1", 15),
    ("jacoby_off", 1),
    ("unused", 5),
)


class GameState(enum.IntEnum):
    """The state of the current game, with gnubg's numbers 0..4."""

    NO_GAME = 0
    PLAYING = 1
    OVER = 2
    RESIGNED = 3
    DROPPED = 4


class Resignation(enum.IntEnum):
    """A resignation on offer, by the points it concedes."""

    NONE = 0
    SINGLE = 1
    GAMMON = 2
    BACKGAMMON = 3


@dataclasses.dataclass(frozen=True)
class MatchInfo:
    """Everything a Match ID says about the match, cube and turn.

    ``on_roll`` rolls (or has rolled) the dice; ``turn`` must decide next, so
    it is the opponent while a double or resignation awaits an answer.
    ``dice`` are kept high die first, as gnubg stores them, so equal rolls
    compare equal. Construction refuses impossible states with InvalidMatchState.
    """

    cube_value: int = 1
    cube_owner: Optional[Color] = None
    on_roll: Color = Color.WHITE
    crawford: bool = False
    game_state: GameState = GameState.PLAYING
    turn: Color = Color.WHITE
    double_offered: bool = False
    resignation: Resignation = Resignation.NONE
    dice: Optional[tuple[int, int]] = None
    match_length: int = 0
    score: tuple[int, int] = (0, 0)
    jacoby: bool = False

    def __post_init__(self) -> None:
        """Accept plain ints for the enums, sort the dice, then refuse impossible states."""
        enums = (("on_roll", Color), ("turn", Color), ("game_state", GameState), ("resignation", Resignation))
        for name, kind in enums:
            object.__setattr__(self, name, kind(getattr(self, name)))
        if self.cube_owner is not None:
            object.__setattr__(self, "cube_owner", Color(self.cube_owner))
        if self.dice is not None:
            dice = sorted((int(die) for die in self.dice), reverse=True)
            if len(dice) != 2:
                raise InvalidMatchState(f"dice {self.dice} are not a pair")
            object.__setattr__(self, "dice", tuple(dice))
        score = tuple(int(points) for points in self.score)
        if len(score) != 2:
            raise InvalidMatchState(f"score {self.score} is not a pair (White, Black)")
        object.__setattr__(self, "score", score)
        problem = self._problem()
        if problem:
            raise InvalidMatchState(problem)

    def _problem(self) -> str:
        """Why this state is impossible, or "" if it is fine."""
        value = self.cube_value
        if not 1 <= value <= MAX_CUBE or value & (value - 1):
            return f"cube value {value} is not a power of two from 1 to {MAX_CUBE}"
        if self.dice is not None and not all(1 <= die <= 6 for die in self.dice):
            return f"dice {self.dice} are not two dice from 1 to 6"
        if self.double_offered and self.dice is not None:
            return "a double is offered before rolling, but the dice are rolled"
        if not 0 <= self.match_length <= MAX_MATCH_LENGTH:
            return f"match length {self.match_length} is not 0 (money) to {MAX_MATCH_LENGTH}"
        if not all(0 <= points <= MAX_SCORE for points in self.score):
            return f"score {self.score} is not two whole numbers from 0 to {MAX_SCORE}"
        if self.match_length and max(self.score) > self.match_length:
            return f"score {self.score} passes the match length {self.match_length}"
        if self.crawford and (self.match_length < 2 or self.match_length - 1 not in self.score):
            return "a Crawford game needs a match of 2 or more points with one player one point short"
        cube_used = self.cube_value > 1 or self.double_offered
        if self.crawford and self.game_state is GameState.PLAYING and cube_used:
            return "the cube stays at 1 and cannot be offered during the Crawford game"
        return ""

    @property
    def is_money(self) -> bool:
        """A money session (no match length), where Jacoby and beavers may apply."""
        return self.match_length == 0

    def mirrored(self) -> "MatchInfo":
        """The same state with the colours exchanged (pairs with Position.mirrored)."""
        return dataclasses.replace(
            self,
            cube_owner=None if self.cube_owner is None else self.cube_owner.other,
            on_roll=self.on_roll.other,
            turn=self.turn.other,
            score=(self.score[1], self.score[0]),
        )


def encode_match_id(info: MatchInfo) -> str:
    """The 12-character Match ID gnubg shows for ``info``."""
    fields = {
        "cube_log2": info.cube_value.bit_length() - 1,
        "cube_owner": _CENTRED if info.cube_owner is None else int(info.cube_owner),
        "on_roll": int(info.on_roll),
        "crawford": int(info.crawford),
        "game_state": int(info.game_state),
        "turn": int(info.turn),
        "double_offered": int(info.double_offered),
        "resignation": int(info.resignation),
        "die1": info.dice[0] if info.dice else 0,
        "die2": info.dice[1] if info.dice else 0,
        "match_length": info.match_length,
        "score0": info.score[0],
        "score1": info.score[1],
        "jacoby_off": int(not info.jacoby),
        "unused": 0,
    }
    bits: list[int] = []
    for name, width in _LAYOUT:
        bits.extend((fields[name] >> index) & 1 for index in range(width))
    return base64.b64encode(pack_bits(bits, _MATCH_BYTES)).decode("ascii")


def decode_match_id(match_id: str) -> MatchInfo:
    """The state a Match ID describes; InvalidNotation if it is malformed or impossible."""
    text = match_id.strip()
    if len(text) != MATCH_ID_LENGTH:
        raise InvalidNotation(f"a Match ID has {MATCH_ID_LENGTH} characters, {text!r} has {len(text)}")
    bits = unpack_bits(b64_decode(text, _MATCH_BYTES, "Match ID"))
    fields: dict[str, int] = {}
    start = 0
    for name, width in _LAYOUT:
        fields[name] = sum(bits[start + index] << index for index in range(width))
        start += width
    if fields["cube_owner"] == 2:
        raise InvalidNotation(f"Match ID {text!r}: cube owner 2 is neither a player (0, 1) nor centred (3)")
    if fields["game_state"] > max(GameState):
        raise InvalidNotation(f"Match ID {text!r}: game state {fields['game_state']} is not 0 to 4")
    if fields["unused"]:
        raise InvalidNotation(f"Match ID {text!r}: the unused bits 67-71 are not zero")
    dice = (fields["die1"], fields["die2"])
    try:
        return MatchInfo(
            cube_value=1 << fields["cube_log2"],
            cube_owner=None if fields["cube_owner"] == _CENTRED else Color(fields["cube_owner"]),
            on_roll=Color(fields["on_roll"]),
            crawford=bool(fields["crawford"]),
            game_state=GameState(fields["game_state"]),
            turn=Color(fields["turn"]),
            double_offered=bool(fields["double_offered"]),
            resignation=Resignation(fields["resignation"]),
            dice=None if dice == (0, 0) else dice,
            match_length=fields["match_length"],
            score=(fields["score0"], fields["score1"]),
            jacoby=not fields["jacoby_off"],
        )
    except ValueError as error:
        raise InvalidNotation(f"Match ID {text!r}: {error}") from None
