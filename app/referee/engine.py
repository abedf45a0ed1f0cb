"""The referee: events in, rulings and clock commands out; pure and deterministic.

The referee is an immutable value. ``referee.handle(event)`` returns the next
referee and a :class:`app.referee.rulings.Reaction`; nothing else changes and nothing
reads the time, so the journal (:mod:`app.record.journal`) can write the event and
its rulings before they take effect, and a restart folds the journal back
into exactly the same referee.

The turn cycle follows docs/design.md and docs/rules.md sections 2 and 5 for every
variant in :mod:`rules.registry`; the referee only asks the rules core what
is legal and never knows a variant by name. A play is judged by its result:
when the player presses the clock, the sensing board's last snapshot must be
one of the legal resulting positions of the roll (``rules.judge``); without
a sensing board the play is entered on the tablet. An illegal or unfinished
play is flagged with the rule broken; under the "legal moves" policy the
opponent then accepts it as played or has it corrected.

A chouette (docs/rules.md section 2) runs through the same cycle: ``rules.chouette``
holds its game, a cube per team member and the ledger; the box plays White,
the team's acting captain Black, member cube actions arrive as
:class:`app.referee.events.MemberCube` touches, and each game's end settles every
member with the box and turns the line.

The handlers live by concern in :mod:`app.referee.handlers` (throws, plays,
cube, chouette, clock, director, result); :func:`_dispatch` hands each event type to
its handler with ``match``, so mypy proves that every kind is handled.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import assert_never

from app.referee import events as ev
from app.referee.handlers.clock import ClockHandlers
from app.referee.handlers.director import DirectorHandlers
from app.referee.handlers.result import ResultHandlers
from app.referee.rulings import Reaction
from app.referee.setup import MatchSetup, Mode, Policy
from app.referee.state import Aids, FlaggedPlay, Irregularity, LastPlay, Question, Stage, Tally, game_of, offers
from rules.chouette import Chouette, CubeMove, MemberCube
from rules.errors import RulesError
from rules.game import Game, Phase
from rules.match import Match
from rules.odds import shots
from rules.play import Play
from rules.position import Color, Position
from rules.steprules import Landing

__all__ = [
    "Aids",
    "FlaggedPlay",
    "Irregularity",
    "LastPlay",
    "Question",
    "Referee",
    "Stage",
    "Tally",
    "game_of",
    "offers",
]


@dataclass(frozen=True)
class Referee:
    """The whole referee state at one moment; see the module docstring."""

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

    @classmethod
    def start(cls, setup: MatchSetup) -> "Referee":
        match = setup.new_match()
        chouette = setup.new_chouette() if setup.is_chouette else None
        tally: Tally = match if chouette is None else chouette
        return cls(setup, match, setup.mode, setup.policy, game_boards=(game_of(tally).position,), chouette=chouette)

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

    # -------------------------------------------------------------- handling

    def handle(self, event: ev.Event) -> tuple["Referee", Reaction]:
        """The referee after ``event`` and what it announces and commands."""
        if not ev.is_input(event):
            raise ValueError(f"the referee does not know events of kind {event.kind!r}")
        step = _Step(replace(self, events=self.events + 1))
        _dispatch(step, event)
        return step.state, Reaction(tuple(step.rulings), tuple(step.commands))

    def fold(self, events: list[ev.Event]) -> "Referee":
        referee = self
        for event in events:
            referee, _ = referee.handle(event)
        return referee


class _Step(ClockHandlers, DirectorHandlers, ResultHandlers):
    """One event being handled, with every concern's handlers."""


def _dispatch(step: _Step, event: ev.InputEvent) -> None:
    """Hand ``event`` to its handler; mypy proves every kind of event has one (``assert_never``)."""
    match event:
        case ev.DiceObserved():
            step.on_dice_observed(event)
        case ev.ManualDice():
            step.on_manual_dice(event)
        case ev.DoubleNamed():
            step.on_name_double(event)
        case ev.BoardSeen():
            step.on_board_snapshot(event)
        case ev.LiftSeen():
            step.on_checker_lifted(event)
        case ev.PlaceSeen():
            step.on_checker_placed(event)
        case ev.ManualPlay():
            step.on_manual_play(event)
        case ev.AcceptIllegal():
            step.on_accept_illegal(event)
        case ev.CorrectIllegal():
            step.on_correct_illegal(event)
        case ev.DoubleOffered():
            step.on_double(event)
        case ev.DoubleTaken():
            step.on_take(event)
        case ev.DoubleDropped():
            step.on_drop(event)
        case ev.Beavered():
            step.on_beaver(event)
        case ev.Raccooned():
            step.on_raccoon(event)
        case ev.ResignationOffered():
            step.on_resign(event)
        case ev.ResignationAccepted():
            step.on_accept_resignation(event)
        case ev.ResignationRejected():
            step.on_reject_resignation(event)
        case ev.MemberCubeMoved():
            step.on_member_cube(event)
        case ev.ClockPressed():
            step.on_clock_pressed(event)
        case ev.ClockFlag():
            step.on_flag_fell(event)
        case ev.LinkChanged():
            step.on_link_status(event)
        case ev.LinkNoisy():
            step.on_link_noise(event)
        case ev.CallDirector():
            step.on_call_director(event)
        case ev.DirectorOverride():
            step.on_director_override(event)
        case ev.TimeCorrected():
            step.on_time_corrected(event)
        case ev.ThrowQuestioned():
            step.on_throw_questioned(event)
        case ev.ThrowConfirmed():
            step.on_throw_confirmed(event)
        case ev.ThrowCorrected():
            step.on_throw_corrected(event)
        case ev.RethrowCalled():
            step.on_rethrow_called(event)
        case ev.ResultConfirmed():
            step.on_result_confirmed(event)
        case _:
            assert_never(event)
