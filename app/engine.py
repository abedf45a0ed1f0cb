"""The referee: events in, rulings and clock commands out; pure and deterministic.

The referee is an immutable value. ``referee.handle(event)`` returns the next
referee and a :class:`app.rulings.Reaction`; nothing else changes and nothing
reads the time, so the journal (:mod:`app.journal`) can write the event and
its rulings before they take effect, and a restart folds the journal back
into exactly the same referee.

The turn cycle follows DESIGN.md and RULES.md sections 2 and 5 for every
variant in :mod:`rules.registry`; the referee only asks the rules core what
is legal and never knows a variant by name. A play is judged by its result:
when the player presses the clock, the sensing board's last snapshot must be
one of the legal resulting positions of the roll (``rules.judge``); without
a sensing board the play is entered on the tablet. An illegal or unfinished
play is flagged with the rule broken; under the "legal moves" policy the
opponent then accepts it as played or has it corrected.

A chouette (RULES.md 2) runs through the same cycle: ``rules.chouette``
holds its game, a cube per team member and the ledger; the box plays White,
the team's acting captain Black, member cube actions arrive as
:class:`app.events.MemberCube` touches, and each game's end settles every
member with the box and turns the line.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Union

from app import events as ev
from app.pin import anchor_of, proves
from app.rulings import ClockCommand, Level, Reaction, Ruling, color_name
from app.setup import MatchSetup, Mode, Policy
from rules import cubeful as rc
from rules.chouette import Chouette, ChouetteGame, CubeMove
from rules.chouette import MemberCube as ChouetteCube
from rules.errors import AmbiguousPlay, IllegalAction, IllegalCubeAction, IllegalPlay, InvalidNotation, RulesError
from rules.game import Game, Phase
from rules.match import Match
from rules.notation import parse_play
from rules.odds import shots
from rules.play import Play
from rules.position import Color, Position, Status, describe_status
from rules.steprules import Landing
from rules.variant import Opening, ResultKind

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
class Aids:
    """What casual mode shows: pip counts, the legal plays of the dice, the shot odds."""

    pips: tuple[int, int]
    legal_plays: tuple[str, ...]
    shots: str | None


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
    """A chouette session (RULES.md 2): it holds the game and the per-person ledger; ``match`` is then unused."""
    director_link: str = ""
    """The last PIN proof revealed ("" before the first: the set-up's anchor); the next must hash to it."""
    director_overrides: int = 0
    """Overrides authorised by the PIN so far (each used one link of the chain)."""
    pin_failures: int = 0
    """Wrong PINs in a row (the tablet waits longer after each beyond a few)."""

    @classmethod
    def start(cls, setup: MatchSetup) -> "Referee":
        match = setup.new_match()
        chouette = setup.new_chouette() if setup.is_chouette else None
        tally: Tally = match if chouette is None else chouette
        return cls(setup, match, setup.mode, setup.policy, game_boards=(game_of(tally).position,),
                   chouette=chouette)

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

    def member_moves(self) -> list[ChouetteCube]:
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
                    action = ChouetteCube(member, move, by)
                    try:
                        game.apply(action)
                    except RulesError:
                        continue
                    moves.append(action)
        return moves

    def aids(self) -> Aids | None:
        """Casual mode's aids; None in tournament mode (RULES.md section 5: no aids at all)."""
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
        step = _Step(replace(self, events=self.events + 1))
        handler: Callable[[Any], None] | None = getattr(step, "on_" + event.kind, None)
        if handler is None:
            raise ValueError(f"the referee does not know events of kind {event.kind!r}")
        handler(event)
        return step.state, Reaction(tuple(step.rulings), tuple(step.commands))

    def fold(self, events: list[ev.Event]) -> "Referee":
        referee = self
        for event in events:
            referee, _ = referee.handle(event)
        return referee


_IN_HAND = Status.TOO_FEW_WHITE | Status.TOO_FEW_BLACK
"""The only problems a checker held in a hand explains: too many checkers or a shared point never are."""

_KIND = {ResultKind.SINGLE: "single", ResultKind.GAMMON: "gammon", ResultKind.BACKGAMMON: "backgammon"}


class _Step:
    """One event being handled: the state so far, the rulings and clock commands so far."""

    def __init__(self, state: Referee) -> None:
        self.state = state
        self.rulings: list[Ruling] = []
        self.commands: list[ClockCommand] = []
        self.names = list(state.side_names()) if state.chouette is not None else None
        """In a chouette, who White and Black were when the event came (the box and captain change)."""

    # ------------------------------------------------------------- helpers

    def say(self, code: str, level: Level, **params: Any) -> None:
        if self.names is not None and any(isinstance(value, Color) for value in params.values()):
            params["names"] = self.names  # the ruling names the people, whoever is box and captain later
        self.rulings.append(Ruling(code, level, {k: _json(v) for k, v in params.items()}))

    def irregular(self, code: str, color: Color | None, **params: Any) -> None:
        """Record a breach of conduct and announce it (amber)."""
        named = dict(params, names=self.names) if self.names is not None else params  # who, in a chouette
        record = Irregularity(self.state.events, code, color, {k: _json(v) for k, v in named.items()})
        self.set(irregularities=self.state.irregularities + (record,))
        self.say(code, Level.WARNING, player=color, **params)

    def set(self, **changes: Any) -> None:
        self.state = replace(self.state, **changes)

    def run_clock(self, color: Color | None) -> None:
        """Command the clock: ``color``'s runs, or both stand still. Always sent: the clock is idempotent."""
        self.set(clock=color, clock_started=self.state.clock_started or color is not None)
        self.commands.append(ClockCommand(color))

    def apply(self, action: rc.Action) -> Tally:
        """The match or chouette after a rules-core action (the caller catches RulesError)."""
        chouette = self.state.chouette
        if chouette is None:
            return self.state.match.apply(action)
        if not isinstance(action, (rc.OpeningThrow, rc.Roll, rc.Move)):
            raise IllegalAction("a chouette game has no such action")
        return chouette.apply(action)

    def adopt(self, tally: Tally, **changes: Any) -> None:
        """Take the rules core's new match or chouette (with other changes to the state)."""
        if isinstance(tally, Chouette):
            self.set(chouette=tally, **changes)
        else:
            self.set(match=tally, **changes)

    # ------------------------------------------------------------- throws

    def on_dice_observed(self, event: ev.DiceObserved) -> None:
        self.throw(event.values, event.void, event.thrower)

    def on_manual_dice(self, event: ev.ManualDice) -> None:
        self.throw(event.values, None, None)

    def throw(self, values: tuple[int, int] | None, void: ev.VoidReason | None, thrower: Color | None) -> None:
        state = self.state
        stage = state.stage
        if not self.open_for_input(stage):
            return
        if stage is Stage.ILLEGAL:
            self.say("choose_first", Level.WARNING, player=state.to_act)
            return
        if stage in (Stage.DOUBLE, Stage.RESIGNATION):
            self.irregular("throw_before_answer", thrower if thrower is not None else state.mover,
                           waiting=state.to_act)
            return
        if stage is Stage.NAME_DOUBLE:
            self.say("name_double_first", Level.WARNING, player=state.mover)
            return
        if stage is Stage.PLAY:
            dice = state.dice
            if dice is None:
                self.say("play_passed_first", Level.WARNING, player=state.mover, numbers=list(state.numbers))
                return
            same = values is not None and dice is not None and sorted(values) == sorted(dice)
            if values is None or (same and thrower in (None, state.mover)):
                return  # the dice still lying there, or being picked up: nothing new
            if thrower is None:  # typed, or a camera that cannot tell whose half: nobody is blamed
                self.irregular("throw_during_play", None, waiting=state.mover)
            elif thrower is state.mover:
                self.irregular("thrown_again", thrower)
            else:
                self.irregular("early_throw", thrower, waiting=state.mover)
            return
        if void is not None:
            self.say("void_throw", Level.WARNING, reason=void.value)
            return
        assert values is not None
        if stage is Stage.OPENING:
            self.opening(values)
            return
        if thrower is not None and thrower is not state.mover:
            self.irregular("out_of_turn_throw", thrower, waiting=state.mover)
            return
        self.roll(values)

    def opening(self, values: tuple[int, int]) -> None:
        state = self.state
        white, black = values
        cube_before = cube_values(state.tally)
        try:
            tally = self.apply(rc.OpeningThrow(white, black))
        except RulesError as error:
            self.say("action_refused", Level.WARNING, detail=str(error))
            return
        self.adopt(tally, last_throw=values, before_dice=None if white == black else state.tally)
        if white == black:
            self.say("opening_tie", Level.INFO, white=white, black=black)
            if cube_values(tally) != cube_before:
                self.say("automatic_double", Level.INFO, value=max(cube_values(tally)))
            return
        winner = Color.WHITE if white > black else Color.BLACK
        board = state.board
        if board is not None and not board.same_board(game_of(tally).position):
            self.say("set_up_board", Level.WARNING)
        if state.setup.variant_rules.opening is Opening.USE_OPENING_DICE:
            self.say("opening_won", Level.OK, player=winner, white=white, black=black, plays=True)
            self.new_turn()
        else:
            self.say("opening_won", Level.OK, player=winner, white=white, black=black, plays=False)

    def roll(self, values: tuple[int, int]) -> None:
        try:
            tally = self.apply(rc.Roll(values))
        except RulesError as error:
            self.say("action_refused", Level.WARNING, detail=str(error))
            return
        mover = self.state.mover
        self.adopt(tally, last_throw=values, before_dice=self.state.tally)
        self.say("dice", Level.OK, player=mover, dice=list(values))
        if not self.state.clock_started or self.state.clock is not mover:
            self.run_clock(mover)
        self.new_turn()

    def new_turn(self) -> None:
        """The mover has numbers to play: start watching the board for this play."""
        state = self.state
        self.set(turn_boards=(state.position,), in_hand=0)
        if state.legal_plays() == [Play()]:
            self.say("no_move", Level.INFO, player=state.mover, dice=list(state.numbers))

    # --------------------------------------------------------------- board

    def on_board_snapshot(self, event: ev.BoardSnapshot) -> None:
        state = self.state
        raw = type(state.position).unchecked(event.white, event.black, state.mover)
        board = state.position.read_snapshot(raw)  # pins and checkers still to enter, as the variant reads them
        status = board.status()
        problems = tuple(describe_status(status))
        stage = state.stage
        missing = 2 * 15 - sum(raw.white) - sum(raw.black)
        held = not status & ~_IN_HAND and 0 < missing <= state.in_hand  # only missing checkers can be in a hand
        if problems and not held and problems != state.board_problems:
            self.irregular("board_invalid", None, problems=list(problems))
        self.set(board=board, board_problems=problems)
        if problems:
            return
        self.set(in_hand=0)  # every checker is on the board: a lost "placed" report is healed here
        if stage is Stage.PLAY:
            seen = state.turn_boards
            if seen and not board.same_board(seen[-1]):
                if any(board.same_board(earlier) for earlier in seen[:-1]):
                    self.irregular("takeback", state.mover)
                self.set(turn_boards=seen + (board,))
        elif stage in (Stage.ROLL, Stage.DOUBLE, Stage.RESIGNATION):
            previous = state.board
            moved = not board.same_board(state.position)
            was_moved = previous is not None and not previous.same_board(state.position)
            if moved and not was_moved:
                self.irregular("board_moved_out_of_turn", None, waiting=state.mover)

    def on_checker_lifted(self, event: ev.CheckerLifted) -> None:
        state = self.state
        self.set(in_hand=state.in_hand + 1)
        stage = state.stage
        if stage in (Stage.ROLL, Stage.DOUBLE, Stage.RESIGNATION, Stage.ILLEGAL):
            self.irregular("touched_out_of_turn", event.color, point=event.point, on_turn=state.mover)
            return
        if stage is not Stage.PLAY:
            return
        position = state.board if state.board is not None and not state.board_problems else state.position
        if event.color is not state.mover:
            counts = position.side(event.color)
            hittable = position.RULES.landing is Landing.HIT and 1 <= event.point <= 24 and counts[event.point] == 1
            if not hittable:
                self.irregular("touched_out_of_turn", event.color, point=event.point, on_turn=state.mover)
            return
        if state.mode is Mode.CASUAL:
            targets = sorted(
                {step.dest for play in state.legal_plays() for step in play.steps if step.source == event.point}
            )
            self.say("hint", Level.INFO, player=event.color, point=event.point, targets=targets)

    def on_checker_placed(self, event: ev.CheckerPlaced) -> None:
        self.set(in_hand=max(self.state.in_hand - 1, 0))

    # --------------------------------------------------------------- clock

    def on_clock_pressed(self, event: ev.ClockPressed) -> None:
        state = self.state
        if event.white_ms is not None and event.black_ms is not None:
            self.set(times=(event.white_ms, event.black_ms))
        stage = state.stage
        if stage in (Stage.OVER, Stage.HALTED, Stage.ILLEGAL, Stage.OPENING):
            self.run_clock(None)  # both clocks stand still now: stop one a press may have started
            return
        by = event.by
        to_act = state.to_act
        if not state.clock_started:
            if by is not state.mover or stage is not Stage.PLAY:
                if to_act is not None:
                    self.run_clock(to_act)
                    self.say("clock_started", Level.INFO, player=to_act)
                return
        elif state.clock is not by:
            return  # a press on the side whose clock is not running: the clock ignores it
        self.set(clock=by.other, clock_started=True)  # the clock has switched by itself
        if stage is Stage.PLAY and by is state.mover:
            self.judge_press()
        elif stage is Stage.ROLL:
            self.say("throw_first", Level.WARNING, player=by)
            self.run_clock(by)
        elif to_act is not None:
            self.say("answer_first", Level.WARNING, player=to_act)
            self.run_clock(to_act)

    def judge_press(self) -> None:
        state = self.state
        before, mover = state.position, state.mover
        board = state.board
        if not state.setup.devices.board or board is None:
            if state.legal_plays() == [Play()]:
                self.accept(Play())
            else:
                self.say("enter_play", Level.WARNING, player=mover)
                self.run_clock(mover)
            return
        if state.board_problems:
            self.say("board_unreadable", Level.ERROR, player=mover, problems=list(state.board_problems))
            self.run_clock(mover)
            return
        if not board.same_board(before):
            for earlier in reversed(state.game_boards[:-1]):
                if board.same_board(earlier):
                    self.irregular("takeback_earlier", mover)
                    self.run_clock(mover)
                    return
        try:
            played = state.game.play(board.with_turn(mover))  # the variant's own judge
        except IllegalPlay as error:
            self.flag(error, board)
            return
        self.accept(played.turns[-1].play)

    def accept(self, play: Play) -> None:
        state = self.state
        before, mover, dice = state.position, state.mover, state.numbers
        tally = self.apply(rc.Move(play))
        ended: rc.CubefulGame | ChouetteGame | None = None
        if isinstance(tally, Chouette):
            assert state.chouette is not None
            if len(tally.finished) > len(state.chouette.finished):
                ended = tally.finished[-1]
            after = (ended or tally.game).game.position
        else:
            game = tally.games[len(state.match.games) - 1]
            ended = game if game.over else None
            after = game.position
        notation = state.setup.variant_rules.write_play(before, play)
        self.adopt(
            tally,
            undo=state.undo + ((state.tally, state.game_boards, state.before_dice),),
            before_dice=None,
            last_play=LastPlay(mover, dice, notation, before, after),
            game_boards=state.game_boards + (after,),
            turn_boards=(),
            in_hand=0,
        )
        self.say("play_ok", Level.OK, player=mover, play=notation, dice=list(dice))
        if isinstance(ended, ChouetteGame):
            assert state.chouette is not None
            self.chouette_over(ended, state.chouette.game.acting_captain)
        elif ended is not None:
            self.game_over(ended)
        else:
            self.run_clock(self.state.to_act)

    def flag(self, error: IllegalPlay, board: Position) -> None:
        state = self.state
        mover, dice = state.mover, state.numbers
        rules = [violation.name.lower() for violation in error.violations]
        code = "unfinished_play" if error.unfinished else "illegal_play"
        can_accept = state.policy is Policy.LEGAL_MOVES and board.winner() is None
        params: dict[str, Any] = {"rules": rules, "choice": can_accept}
        if state.mode is Mode.CASUAL:
            write = state.setup.variant_rules.write_play
            params["legal"] = [write(state.position, play) for play in error.legal[:8]]
        self.irregular(code, mover, **params)
        self.rulings[-1] = replace(self.rulings[-1], level=Level.ERROR)
        if can_accept:
            flagged = FlaggedPlay(mover, state.position, board, dice, tuple(rules), error.unfinished)
            self.set(flagged=flagged)
            self.run_clock(None)
            self.say("choose", Level.INFO, player=mover.other)
        else:
            self.run_clock(mover)

    # ----------------------------------------------------------- the choice

    def on_accept_illegal(self, event: ev.AcceptIllegal) -> None:
        flagged = self.chooser(event.by)
        if flagged is None:
            return
        state = self.state
        game = state.game
        kind = type(game.position)
        after = kind.unchecked(flagged.after.white, flagged.after.black, flagged.mover.other)
        forced = with_game(state.tally, replace(game, position=after, phase=Phase.ROLL, dice=None))
        self.adopt(
            forced,
            flagged=None,
            undo=state.undo + ((state.tally, state.game_boards, state.before_dice),),
            before_dice=None,
            last_play=LastPlay(flagged.mover, flagged.dice, "", flagged.before, after, legal=False),
            game_boards=state.game_boards + (after,),
            turn_boards=(),
            accepted_illegal=state.accepted_illegal + 1,
        )
        self.say("illegal_accepted", Level.INFO, player=event.by, mover=flagged.mover)
        self.run_clock(event.by)

    def on_correct_illegal(self, event: ev.CorrectIllegal) -> None:
        flagged = self.chooser(event.by)
        if flagged is None:
            return
        self.set(flagged=None, turn_boards=(self.state.position,), in_hand=0)
        self.say("illegal_corrected", Level.INFO, player=event.by, mover=flagged.mover, dice=list(flagged.dice))
        self.run_clock(flagged.mover)

    def chooser(self, by: Color) -> FlaggedPlay | None:
        flagged = self.state.flagged
        if flagged is None or self.state.stage is not Stage.ILLEGAL:
            self.say("nothing_to_choose", Level.INFO, player=by)
            return None
        if by is flagged.mover:
            self.say("not_your_choice", Level.WARNING, player=by, chooser=by.other)
            return None
        return flagged

    # ---------------------------------------------------------------- cube

    def on_name_double(self, event: ev.NameDouble) -> None:
        state = self.state
        if not self.open_for_input(state.stage):
            return
        if state.stage is not Stage.NAME_DOUBLE or event.by is not state.mover:
            self.say("action_refused", Level.WARNING, player=event.by, detail="no double is to be named now")
            return
        try:
            match = self.apply(rc.NameDouble(event.number))
        except RulesError as error:
            self.say("action_refused", Level.WARNING, player=event.by, detail=str(error))
            return
        self.set(match=match)
        self.say("double_named", Level.OK, player=event.by, dice=[event.number, event.number])
        self.new_turn()

    def on_double(self, event: ev.Double) -> None:
        self.cube_action(rc.Double(event.by), event.by)

    def on_take(self, event: ev.Take) -> None:
        self.cube_action(rc.Take(event.by), event.by)

    def on_drop(self, event: ev.Drop) -> None:
        self.cube_action(rc.Drop(event.by), event.by)

    def on_beaver(self, event: ev.Beaver) -> None:
        self.cube_action(rc.Beaver(event.by), event.by)

    def on_raccoon(self, event: ev.Raccoon) -> None:
        self.cube_action(rc.Raccoon(event.by), event.by)

    def on_resign(self, event: ev.Resign) -> None:
        self.cube_action(rc.Resign(event.by, ResultKind(event.level)), event.by)

    def on_accept_resignation(self, event: ev.AcceptResignation) -> None:
        self.cube_action(rc.AcceptResignation(event.by), event.by)

    def on_reject_resignation(self, event: ev.RejectResignation) -> None:
        self.cube_action(rc.RejectResignation(event.by), event.by)

    def cube_action(self, action: rc.Action, by: Color) -> None:
        """Doubles, answers and resignations: the rules core decides, the clock goes to whoever acts."""
        state = self.state
        stage = state.stage
        if not self.open_for_input(stage):
            return
        if stage is Stage.ILLEGAL:
            self.say("choose_first", Level.WARNING, player=state.to_act)
            return
        if state.chouette is not None:
            self.say("chouette_names_member", Level.WARNING, player=by, action=type(action).__name__.lower())
            return
        try:
            match = state.match.apply(action)
        except IllegalCubeAction as error:
            self.say("cube_refused", Level.WARNING, player=by, rule=error.rule.name.lower(), detail=str(error))
            return
        except (IllegalAction, RulesError) as error:
            self.say("action_refused", Level.WARNING, player=by, detail=str(error))
            return
        index = len(state.match.games) - 1
        game = match.games[index]
        self.set(match=match)
        name = type(action).__name__
        cube = game.cube
        if name == "Double":
            self.say("double_offered", Level.INFO, player=by, value=cube.value * 2)
        elif name == "Take":
            self.say("taken", Level.INFO, player=by, value=cube.value)
        elif name in ("Beaver", "Raccoon"):
            self.say(name.lower() + "ed", Level.INFO, player=by, value=cube.value)
        elif name == "Resign":
            assert isinstance(action, rc.Resign)
            self.say("resign_offered", Level.INFO, player=by, kind=_KIND[action.level])
        elif name == "RejectResignation":
            self.say("resign_rejected", Level.INFO, player=by)
        if game.over:
            self.game_over(game)
        elif match.game.to_act is not None and state.clock_started:
            self.run_clock(match.game.to_act)

    def game_over(self, game: rc.CubefulGame) -> None:
        """Score the game that just ended; announce Crawford or the end of the match."""
        state = self.state
        match = state.match
        outcome = game.outcome
        assert outcome is not None
        score = list(match.score)
        if outcome.winner is None:
            self.say("game_drawn", Level.OK, score=score)
        else:
            self.say(
                "game_over", Level.OK, player=outcome.winner, kind=_KIND[outcome.kind], ending=outcome.ending.value,
                cube=outcome.cube, points=outcome.points, score=score,
            )
        self.run_clock(None)
        if match.result is not None:
            self.say("match_over", Level.OK, player=match.result.winner, end=match.result.end.value, score=score)
            return
        self.set(
            game_boards=(match.game.position,), undo=(), turn_boards=(), clock_started=False, flagged=None,
            last_throw=None,
        )
        self.say("new_game", Level.INFO, number=len(match.games), crawford=match.is_crawford)
        if match.game.game.phase is Phase.ROLL:
            self.say("previous_winner_starts", Level.INFO, player=match.game.position.turn)

    # ------------------------------------------------------------- chouette

    def on_member_cube(self, event: ev.MemberCube) -> None:
        """A chouette cube action: a member doubles the box or answers it, the box doubles or answers a member."""
        state = self.state
        stage = state.stage
        if not self.open_for_input(stage):
            return
        session = state.chouette
        if session is None:
            self.say("not_a_chouette", Level.WARNING, member=event.member)
            return
        if stage is Stage.ILLEGAL:
            self.say("choose_first", Level.WARNING, player=state.to_act)
            return
        game = session.game
        try:
            after = session.apply(ChouetteCube(event.member, CubeMove(event.move), event.by))
        except IllegalCubeAction as error:
            self.say("member_cube_refused", Level.WARNING, by=event.by, member=event.member,
                     rule=error.rule.name.lower(), detail=str(error))
            return
        except RulesError as error:
            self.say("action_refused", Level.WARNING, detail=str(error))
            return
        self.set(chouette=after)
        ended = after.finished[-1] if len(after.finished) > len(session.finished) else None
        now = ended or after.game
        cube = now.cube_of(event.member)
        names = {"by": event.by, "member": event.member, "box": game.box}
        if event.move == "double":
            self.say("member_double", Level.INFO, value=cube.value * 2, **names)
        elif event.move == "drop":
            points = now.settled[game.members.index(event.member)]
            assert points is not None
            self.say("member_drop", Level.INFO, points=abs(points), **names)
            captain = now.acting_captain
            if ended is None and captain is not None and captain != game.acting_captain:
                self.say("captain_passes", Level.INFO, captain=captain, previous=game.acting_captain)
        else:
            self.say("member_" + event.move, Level.INFO, value=cube.value, **names)
        if ended is not None:
            self.chouette_over(ended, game.acting_captain)
        elif self.state.to_act is not None and state.clock_started:
            self.run_clock(self.state.to_act)

    def chouette_over(self, game: ChouetteGame, captain: str | None) -> None:
        """A chouette game ended: each member settles with the box, the ledger and the new line are announced.

        ``captain`` is the member who moved the team's checkers at the end.
        """
        session = self.state.chouette
        assert session is not None
        result = game.game.result
        if result is not None and result.winner is not None:
            side = "box" if result.winner is game.box_color else "team"
            self.say("chouette_game_over", Level.OK, side=side, box=game.box,
                     captain=captain or game.captain, kind=_KIND[result.kind])
        settled = [[member, points] for member, points in zip(game.members, game.settled)]
        self.say("chouette_settled", Level.OK, box=game.box, settled=settled)
        self.say("ledger", Level.INFO, ledger=[[name, session.balance(name)] for name in session.players])
        self.say("line_turns", Level.INFO, box=session.box, captain=session.captain, line=list(session.line),
                 stays=session.box == game.box)
        self.run_clock(None)
        self.set(
            game_boards=(session.game.game.position,), undo=(), turn_boards=(), clock_started=False, flagged=None,
            last_throw=None,
        )
        self.say("new_game", Level.INFO, number=len(session.finished) + 1, crawford=False)

    # ---------------------------------------------------------- time, links

    def on_flag_fell(self, event: ev.FlagFell) -> None:
        state = self.state
        if state.match.over:
            return
        if state.clock is not event.color:
            # only a running clock can run out: anything else is the clock misreporting (a fault, never a result)
            self.irregular("clock_fault", None, flag=event.color, running=state.clock)
            self.rulings[-1] = replace(self.rulings[-1], level=Level.ERROR)
            return
        if state.match.is_money:
            self.say("flag_ignored", Level.INFO, player=event.color)
            return
        match = state.match.lose_on_time(event.color)
        self.set(match=match)
        self.say("flag_fell", Level.ERROR, player=event.color)
        self.run_clock(None)
        assert match.result is not None
        self.say("match_over", Level.OK, player=match.result.winner, end=match.result.end.value,
                 score=list(match.score))

    def on_link_status(self, event: ev.LinkStatus) -> None:
        links = dict(self.state.links)
        if links.get(event.device) == event.up:
            return
        links[event.device] = event.up
        self.set(links=tuple(sorted(links.items())))
        if event.up:
            self.say("link_up", Level.INFO, device=event.device, detail=event.detail)
        else:
            self.say("link_down", Level.WARNING, device=event.device, detail=event.detail)

    # -------------------------------------------------------- tablet, director

    def on_manual_play(self, event: ev.ManualPlay) -> None:
        state = self.state
        stage = state.stage
        if not self.open_for_input(stage):
            return
        if stage is not Stage.PLAY:
            self.say("no_play_expected", Level.WARNING)
            return
        dice = state.dice
        if dice is None:
            self.say("manual_unreadable", Level.WARNING, text=event.text,
                     detail="numbers passed on are played on the board")
            return
        try:
            play = parse_play(state.position, dice, event.text)
        except AmbiguousPlay as error:
            write = state.setup.variant_rules.write_play
            options = [write(state.position, p) for p in error.candidates]
            self.say("manual_ambiguous", Level.WARNING, text=event.text, options=options)
            return
        except IllegalPlay as error:
            rules = [violation.name.lower() for violation in error.violations]
            self.say("manual_illegal", Level.ERROR, player=state.mover, text=event.text, rules=rules,
                     detail=str(error))
            return
        except (InvalidNotation, RulesError) as error:
            self.say("manual_unreadable", Level.WARNING, text=event.text, detail=str(error))
            return
        self.accept(play)

    def on_call_director(self, event: ev.CallDirector) -> None:
        if self.state.match.over:
            return
        self.set(halted=True)
        self.run_clock(None)
        self.say("director_called", Level.WARNING, player=event.by)

    def on_director_override(self, event: ev.DirectorOverride) -> None:
        state = self.state
        pin = state.setup.pin_hash
        if pin:  # no PIN set means anyone at the table acts as director (the set-up screen refuses it in tournaments)
            if not proves(event.proof, state.director_link or anchor_of(pin)):
                self.set(pin_failures=state.pin_failures + 1)
                self.irregular("pin_refused", None, command=event.command, attempts=state.pin_failures + 1)
                self.rulings[-1] = replace(self.rulings[-1], level=Level.ERROR)
                return
            self.set(director_link=event.proof, director_overrides=state.director_overrides + 1, pin_failures=0)
        command, argument = event.command, event.argument.strip()
        if command == "resume":
            if not state.halted:
                self.say("override_refused", Level.WARNING, command=command, reason="not_halted")
                return
            self.set(halted=False)
            self.say("resumed", Level.INFO)
            if state.clock_started and self.state.to_act is not None and self.state.stage is not Stage.OPENING:
                self.run_clock(self.state.to_act)
        elif command in ("void_dice", "set_dice"):
            self.override_dice(command, argument)
        elif command == "undo_play":
            if not state.undo:
                self.say("override_refused", Level.WARNING, command=command, reason="nothing_to_undo")
                return
            tally, boards, before_dice = state.undo[-1]
            self.adopt(tally, game_boards=boards, undo=state.undo[:-1], flagged=None, last_play=None,
                       turn_boards=(game_of(tally).position,), in_hand=0, before_dice=before_dice)
            self.say("play_undone", Level.INFO, player=self.state.mover)
            if state.clock_started and not state.halted:
                self.run_clock(self.state.mover)
        elif command in ("policy", "mode"):
            choices = Policy if command == "policy" else Mode
            try:
                choice = choices(argument)
            except ValueError:
                self.say("override_refused", Level.WARNING, command=command, reason=f"unknown_{command}")
                return
            self.set(**{command: choice})
            self.say(f"{command}_set", Level.INFO, **{command: choice.value})

    def override_dice(self, command: str, argument: str) -> None:
        """The director voids or corrects the dice of a play not yet made (a misread, a cocked die missed)."""
        state = self.state
        before = state.before_dice
        if state.stage is not Stage.PLAY or before is None:
            self.say("override_refused", Level.WARNING, command=command, reason="no_dice_to_change")
            return
        opening = game_of(before).phase is Phase.OPENING
        if command == "void_dice":
            self.adopt(before, before_dice=None, turn_boards=(), last_throw=None)
            self.say("dice_voided", Level.INFO, player=state.mover)
            if opening:
                self.run_clock(None)
                self.set(clock_started=False)
            return
        try:
            numbers = [int(part) for part in argument.replace("-", " ").split()]
            if len(numbers) != 2:
                raise ValueError("two dice")
            dice = ev.ManualDice((numbers[0], numbers[1])).values
        except ValueError:
            self.say("override_refused", Level.WARNING, command=command, reason="bad_dice")
            return
        self.adopt(before, before_dice=None)
        self.say("dice_set", Level.INFO, player=state.mover, dice=list(dice))
        if opening:
            self.opening(dice)
        else:
            self.roll(dice)

    def open_for_input(self, stage: Stage) -> bool:
        if stage is Stage.OVER:
            self.say("match_is_over", Level.INFO)
            return False
        if stage is Stage.HALTED:
            self.say("play_halted", Level.WARNING)
            return False
        return True


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


def _json(value: Any) -> Any:
    if isinstance(value, Color):
        return color_name(value)
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, tuple):
        return [_json(v) for v in value]
    if isinstance(value, list):
        return [_json(v) for v in value]
    return value

