"""What the referee knows between events: the stage it waits in, and the values its state is made of.

:class:`RefereeState` is the whole of it with what it shows; the engine's :class:`app.referee.engine.Referee`
adds the fold of events, and the handlers (:mod:`app.referee.handlers`) read and replace it. Plain immutable
values, so a referee is a value too and the journal can fold it back.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field, replace
from typing import Any, Union

from app.referee.setup import MatchSetup, Mode, Policy
from rules.chouette import Chouette, ChouetteGame, CubeMove, MemberCube
from rules.errors import RulesError
from rules.game import Game, Phase
from rules.match import Match
from rules.odds import shots
from rules.play import Play
from rules.position import Color, Position
from rules.steprules import Landing

Tally = Union[Match, Chouette]
"""Where the rules core keeps the play and the score: a match between two, or a chouette session."""


class Stage(enum.Enum):
    """What the referee waits for."""

    OPENING = "opening"
    """The opening throw, one die each; clocks stand still."""
    ROLL = "roll"
    """The side to move throws (or doubles, or resigns)."""
    PLAY = "play"
    """The side to move plays its dice and presses the clock."""
    DOUBLE = "double"
    """A double waits for the answer."""
    RESIGNATION = "resignation"
    """A resignation waits for the answer."""
    NAME_DOUBLE = "name_double"
    """Acey-deucey: the side to move names the double it plays after a 1-2."""
    ILLEGAL = "illegal"
    """A flagged play waits for the opponent's choice: accept it or have it corrected."""
    QUESTION = "question"
    """The camera was not sure of a throw: it waits for the players (or the director) to confirm it, correct it
    or call a rethrow; both clocks stand still meanwhile."""
    HALTED = "halted"
    """The director was called; both clocks stand still until the director resumes."""
    OVER = "over"


@dataclass(frozen=True)
class FlaggedPlay:
    """A play found illegal or unfinished when the clock was pressed."""

    mover: Color
    before: Position
    after: Position
    dice: tuple[int, ...]
    violations: tuple[str, ...]
    unfinished: bool


Answer = tuple[Color, str, Union[tuple[int, int], None]]
"""Who answered a question, how ("confirm", "correct", "rethrow") and, for a correction, the dice."""


@dataclass(frozen=True)
class Question:
    """An unsure throw waiting for people: the reading (values, or void with its reason), who threw it, the
    doubts, who must answer, the answers so far, and whether they disagreed (then the director decides)."""

    values: tuple[int, int] | None
    void: str | None
    thrower: Color | None
    doubts: tuple[str, ...]
    asked: tuple[Color, ...]
    answers: tuple[Answer, ...] = ()
    disputed: bool = False
    opening: bool = False
    at: int = 0
    """The number of the event that raised it (the referee's event count then)."""
    clock: Color | None = None
    """The clock that ran when it was raised: both stand still while it waits (the players' answer is not the
    thrower's time), and this one runs again once it is settled."""


@dataclass(frozen=True)
class CameraBoard:
    """The camera's reading of the checkers for the press it came with: the counts it saw (built unchecked, the
    mover to move, as a sensing board's snapshot is), whether the reader was sure, and why not; and what the
    picture shows for certain ((White's fewest, Black's fewest), (White's most, Black's most) a place, in each
    side's numbering), None where the reader gave no ranges."""

    board: Position
    sure: bool
    doubts: tuple[str, ...] = ()
    ranges: tuple[tuple[tuple[int, ...], tuple[int, ...]], tuple[tuple[int, ...], tuple[int, ...]]] | None = None


@dataclass(frozen=True)
class PlayAsked:
    """A play the camera could not settle alone: the candidates (the variant's notation) the players pick from
    or type over, for this position and these numbers only."""

    options: tuple[str, ...]
    position: Position
    numbers: tuple[int, ...]
    unsure: bool


@dataclass(frozen=True)
class LastPlay:
    """The last play made, for the board drawing ("" notation for a play accepted as illegal)."""

    color: Color
    dice: tuple[int, ...]
    notation: str
    before: Position
    after: Position
    legal: bool = True


@dataclass(frozen=True)
class Irregularity:
    """A breach of conduct, recorded for the director (event number, code, who, details)."""

    event: int
    code: str
    color: Color | None
    params: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class DeviceFault:
    """A device's fault (a late board reading, an impossible clock time, a throw nobody can be named for),
    recorded for the director apart from the players' irregularities: event number, device, fault, details."""

    event: int
    device: str
    fault: str
    params: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Aids:
    """What casual mode shows: pip counts, the legal plays of the dice, the shot odds."""

    pips: tuple[int, int]
    legal_plays: tuple[str, ...]
    shots: str | None


def game_of(tally: Tally) -> Game:
    """The checker game in progress of a match or a chouette."""
    return tally.game.game


def with_game(tally: Tally, game: Game) -> Tally:
    """The match or chouette with its checker game in progress replaced (a play accepted as made)."""
    if isinstance(tally, Chouette):
        return replace(tally, game=replace(tally.game, game=game))
    return replace(tally, games=tally.games[:-1] + (replace(tally.game, game=game),))


def offers(game: ChouetteGame) -> list[str]:
    """The members whose cube waits for an answer."""
    return [member for member, cube in zip(game.members, game.cubes) if cube.offered_by is not None]


def cube_values(tally: Tally) -> tuple[int, ...]:
    if isinstance(tally, Chouette):
        return tuple(cube.value for cube in tally.game.cubes)
    return (tally.game.cube.value,)


@dataclass(frozen=True)
class RefereeState:
    """The whole referee state at one moment and what it shows (the stage, who acts, the aids); the engine's
    :class:`app.referee.engine.Referee` is this with the fold of events."""

    setup: MatchSetup
    match: Match
    mode: Mode
    policy: Policy
    board: Position | None = None
    """The sensing board's last snapshot (None without a board)."""
    board_problems: tuple[str, ...] = ()
    turn_boards: tuple[Position, ...] = ()
    """The valid boards seen during this play, to recognise a takeback."""
    game_boards: tuple[Position, ...] = ()
    """The position at the start of every turn of this game."""
    in_hand: int = 0
    clock: Color | None = None
    """Whose clock runs (None: both stand still)."""
    clock_started: bool = False
    times: tuple[int, int] | None = None
    """The clock's last reported remaining times (ms), White then Black."""
    flagged: FlaggedPlay | None = None
    question: Question | None = None
    """An unsure throw waiting for the players' (or the director's) answer; it has not taken effect."""
    halted: bool = False
    last_play: LastPlay | None = None
    last_throw: tuple[int, int] | None = None
    undo: tuple[tuple[Tally, tuple[Position, ...], Tally | None], ...] = ()
    """The match, the turn's boards and ``before_dice`` before each play of this game (for the director)."""
    before_dice: Tally | None = None
    """The match before the dice now in play were thrown (for the director to void or correct them)."""
    irregularities: tuple[Irregularity, ...] = ()
    device_faults: tuple[DeviceFault, ...] = ()
    """The devices' faults, never a player's: each was ignored and announced."""
    longest_time_set: int = 0
    """The longest remaining time (ms) the director set for either side: with the reserve, the most a clock
    can ever show in this match (its simple delay never adds to the reserve)."""
    links: tuple[tuple[str, bool], ...] = ()
    accepted_illegal: int = 0
    """Plays accepted as illegal: the rules core's action list no longer describes the match."""
    events: int = 0
    chouette: Chouette | None = None
    """A chouette session (docs/rules.md section 2): it holds the game and the per-person ledger; ``match`` is
    then unused."""
    director_link: str = ""
    """The last PIN proof revealed ("" before the first: the set-up's anchor); the next must hash to it."""
    director_overrides: int = 0
    """Overrides authorised by the PIN so far (each used one link of the chain)."""
    pin_failures: int = 0
    """Wrong PINs in a row (the tablet waits longer after each beyond a few)."""
    calibration: tuple[tuple[float, float], ...] | None = None
    """The board's four corners in the camera's picture as the director last set them again (None: as set up);
    kept in the journal so a resumed match reads the dice on the same board."""
    confirmed: tuple[Color, ...] = ()
    """The players who confirmed the finished match's result, in the order they tapped."""
    camera: CameraBoard | None = None
    """The camera's reading of the checkers sent with the coming clock press (None: none, or already used)."""
    seen: CameraBoard | None = None
    """The camera's latest reading of the checkers, kept after its press (what a cocked die could lean on)."""
    play_asked: PlayAsked | None = None
    """The last play the camera's reading left to the players (see :attr:`asked`)."""

    # ----------------------------------------------------------------- views

    @property
    def tally(self) -> Tally:
        """The match, or in a chouette the chouette session."""
        return self.chouette if self.chouette is not None else self.match

    @property
    def game(self) -> Game:
        """The checker game in progress."""
        return game_of(self.tally)

    @property
    def stage(self) -> Stage:
        if self.match.over:
            return Stage.OVER
        if self.halted:
            return Stage.HALTED
        if self.question is not None:
            return Stage.QUESTION
        if self.flagged is not None:
            return Stage.ILLEGAL
        if self.chouette is not None:
            if offers(self.chouette.game):
                return Stage.DOUBLE
        else:
            match_game = self.match.game
            if match_game.cube.offered_by is not None:
                return Stage.DOUBLE
            if match_game.resignation is not None:
                return Stage.RESIGNATION
        phase = self.game.phase
        if phase is Phase.OPENING:
            return Stage.OPENING
        if phase is Phase.ROLL:
            return Stage.ROLL
        if phase in (Phase.PLAY, Phase.PASSED):
            return Stage.PLAY
        if phase is Phase.NAME_DOUBLE:
            return Stage.NAME_DOUBLE
        return Stage.OVER

    @property
    def position(self) -> Position:
        return self.game.position

    @property
    def asked(self) -> PlayAsked | None:
        """The play the players are asked for now: the camera's candidates while the turn they belong to waits."""
        asked = self.play_asked
        if asked is None or self.stage is not Stage.PLAY:
            return None
        if asked.numbers != self.numbers or asked.position != self.position:
            return None
        return asked

    @property
    def mover(self) -> Color:
        """The side on turn (the side to move in the game in progress)."""
        return self.game.position.turn

    @property
    def dice(self) -> tuple[int, int] | None:
        return self.game.dice

    @property
    def numbers(self) -> tuple[int, ...]:
        """What the side to move plays now: its dice, or the numbers passed to it (Plakoto Express)."""
        game = self.game
        if game.phase is Phase.PASSED:
            return game.pending
        return game.dice or ()

    def legal_plays(self) -> list[Play]:
        """The legal plays now (empty when nothing is to be played)."""
        if self.stage is not Stage.PLAY:
            return []
        return self.game.legal_plays()

    @property
    def to_act(self) -> Color | None:
        question = self.question
        if question is not None and not question.disputed:
            answered = {answer[0] for answer in question.answers}
            return next((color for color in question.asked if color not in answered), None)
        if self.flagged is not None:
            return self.flagged.mover.other
        if self.chouette is not None:
            game = self.chouette.game
            if game.over or game.game.phase in (Phase.OPENING, Phase.OVER):
                return None
            waiting = [cube.offered_by for cube in game.cubes if cube.offered_by is not None]
            return waiting[0].other if waiting else game.game.position.turn
        return self.match.game.to_act

    @property
    def game_number(self) -> int:
        if self.chouette is not None:
            return len(self.chouette.finished) + 1
        return len(self.match.games)

    def side_names(self) -> tuple[str, str]:
        """Who plays White and Black now: the two players, or in a chouette the box and the acting captain."""
        if self.chouette is None:
            return self.setup.players
        game = self.chouette.game
        names = {game.box_color: game.box, game.team_color: game.acting_captain or game.captain}
        return (names[Color.WHITE], names[Color.BLACK])

    def member_moves(self) -> list[MemberCube]:
        """The chouette cube actions open now (whose cube, what, by whom); empty outside a chouette."""
        session = self.chouette
        if session is None or self.stage not in (Stage.ROLL, Stage.DOUBLE):
            return []
        game = session.game
        moves = []
        for member, settled in zip(game.members, game.settled):
            if settled is not None:
                continue
            for by in (member, game.box):
                for move in CubeMove:
                    action = MemberCube(member, move, by)
                    try:
                        game.apply(action)
                    except RulesError:
                        continue
                    moves.append(action)
        return moves

    def aids(self) -> Aids | None:
        """Casual mode's aids; None in tournament mode (docs/rules.md section 5: no aids at all)."""
        if self.mode is Mode.TOURNAMENT:
            return None
        position = self.position
        pips = (position.pips(Color.WHITE), position.pips(Color.BLACK))
        stage = self.stage
        plays: tuple[str, ...] = ()
        if stage is Stage.PLAY:
            write = self.setup.variant_rules.write_play
            plays = tuple(write(position, play) or "-" for play in self.legal_plays())
        odds = None
        if stage is Stage.ROLL and position.RULES.landing is Landing.HIT:
            if any(position.opponent[p] == 1 for p in range(1, 25)):
                odds = str(shots(position))
        return Aids(pips, plays, odds)
