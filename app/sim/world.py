"""Two simulated players at a simulated board: what they intend to do next, for the demo and ``--sim``.

The world decides the next thing that happens at the table (a throw, a
checker lifted or put down, a board snapshot, a clock press, a double, an
answer) from the referee's state, the last event and the seed only. It keeps
no state of its own, so a demo killed at any moment and restarted on the
same journal carries on exactly as if it had never stopped. Its events are
intentions: :class:`app.sim.table.SimulatedTable` carries them out on the
device simulators and the camera, and the referee gets what those report.

What it stages, so that the demo shows every procedure: void throws (cocked
dice, dice in the wrong half) now and then, the answers to the throws the
camera is not sure of (the players look at the dice: they confirm a right
reading, correct a wrong one, call a rethrow when the throw was void; in a
tournament now and then the second player disagrees and the director decides), doubles with takes and drops,
one illegal play per match (flagged, then corrected at the opponent's
choice), one early throw by the waiting player, the clock's remaining times
with a simple delay, and every play made checker by checker on the sensing
board and judged from its snapshot when the clock is pressed.

In a chouette the first two games stage every member cube action: in game
1 the box doubles every member (the captain drops, so the next member moves
the checkers; the others take) and the box beavers the first redouble; in
game 2 every member doubles the box at once (the box takes the captain's
cube and drops the others). Later games double and answer by the race.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Sequence

from app.record.devicekey import device_key
from app.referee import events as ev
from app.referee.engine import Referee, Stage, offers
from app.referee.pin import pin_key, proof
from rules.chouette import CubeMove, MemberCube
from rules.errors import IllegalPlay
from rules.movegen import legal_results
from rules.play import Play, Step, apply_steps
from rules.position import BAR, OFF, Color, Position
from rules.steprules import Landing

VOID_REASONS = (ev.VoidReason.COCKED, ev.VoidReason.WRONG_HALF, ev.VoidReason.OFF_BOARD)


@dataclass(frozen=True)
class Temper:
    """How the simulated players behave (chances per opportunity)."""

    void_throw: float = 0.06
    double: float = 0.3
    take: float = 0.7
    early_throw_turn: int = 5
    """The turn of game 1 in which the waiting player throws too early (0: never)."""
    illegal_turn: int = 3
    """The turn of game 1 played illegally, then corrected (0: never)."""
    slow_move: float = 0.03
    """Chance that a player thinks longer than the delay and spends reserve time."""
    disagree: float = 0.2
    """Chance, in a tournament, that the second player answers a question differently (the director decides)."""


def _rng(seed: int, *key: object) -> random.Random:
    return random.Random(":".join(str(k) for k in (seed, *key)))


class World:
    """The table: ``next_event(referee, last)`` is the next thing that happens there."""

    def __init__(
        self,
        seed: int,
        temper: Temper = Temper(),
        sensing_board: bool = True,
        director_pin: str = "",
        camera_reads_checkers: bool = False,
    ) -> None:
        self.seed = seed
        self.temper = temper
        self.sensing_board = sensing_board
        self.camera_reads_checkers = camera_reads_checkers and not sensing_board
        """Without a sensing board, the players move the checkers and press the clock: the camera reads the board
        (:mod:`app.sim.board_camera`); they type a play only when the referee asks for it."""
        self.director_pin = director_pin
        """The PIN the simulated director types (the match's own, or it is refused like a wrong one)."""
        self._pin_keys: dict[str, bytes | None] = {}
        self._plays: dict[tuple[object, ...], tuple[Play, bool]] = {}
        """A cache of each turn's chosen play; a pure function of its key, so it holds no state."""

    def director(self, command: str, referee: Referee, argument: str = "") -> ev.DirectorOverride:
        """The director's override as the tablet makes it from the PIN typed (the scrypt key worked out once)."""
        stored = referee.setup.pin_hash
        if not stored:
            return ev.DirectorOverride(command, argument)
        if stored not in self._pin_keys:
            self._pin_keys[stored] = pin_key(self.director_pin, stored, device_key(create=True))
        key = self._pin_keys[stored]
        made = proof(key, stored, referee.director_overrides) if key else ""
        return ev.DirectorOverride(command, argument, proof=made)

    def next_event(self, referee: Referee, last: ev.Event | None) -> ev.Event:
        stage = referee.stage
        rng = _rng(self.seed, "event", referee.events)
        if stage is Stage.OPENING:
            start = referee.position
            if self.sensing_board and (referee.board is None or not referee.board.same_board(start)):
                return snapshot_of(start)
            return self.throw(rng, opening=True)
        mover = referee.mover
        if stage is Stage.ILLEGAL:
            return ev.CorrectIllegal(mover.other)
        if referee.chouette is not None and stage in (Stage.ROLL, Stage.DOUBLE) and referee.clock_started:
            action = self.chouette_cube(referee, rng)
            if action is not None:
                return action
        if stage is Stage.DOUBLE:
            return self.answer(referee, rng)
        if stage is Stage.RESIGNATION:
            return ev.ResignationAccepted(referee.to_act if referee.to_act is not None else mover.other)
        if stage is Stage.NAME_DOUBLE:
            return ev.DoubleNamed(mover, rng.randint(1, 6))
        if stage is Stage.HALTED:
            return self.director("resume", referee)
        if stage is Stage.QUESTION:
            return self.answer_question(referee)
        if not referee.clock_started:
            return ev.ClockPressed(mover.other, *self.times(referee, None, 0))
        if stage is Stage.ROLL:
            if referee.chouette is None and referee.match.game.may_double(mover) and self.wants_to_double(referee, rng):
                return ev.DoubleOffered(mover)
            return self.throw(rng, opening=False)
        return self.play_step(referee, last, rng)

    # ------------------------------------------------------------- throws

    def throw(self, rng: random.Random, opening: bool) -> ev.DiceObserved:
        if rng.random() < self.temper.void_throw:
            return ev.DiceObserved(None, void=rng.choice(VOID_REASONS))
        values = (rng.randint(1, 6), rng.randint(1, 6))
        confidence = tuple(round(0.9 + rng.random() * 0.1, 3) for _ in values)
        return ev.DiceObserved(values, confidences=confidence)

    def answer_question(self, referee: Referee) -> ev.Event:
        """The players look at the dice the camera is not sure of and answer by what they see."""
        question = referee.question
        assert question is not None
        truth = self.thrown(referee)
        if question.disputed:
            if truth.values is None:
                return self.director("void_dice", referee)
            return self.director("set_dice", referee, "-".join(map(str, truth.values)))
        by = referee.to_act
        assert by is not None
        rng = _rng(self.seed, "answer", referee.events)
        if question.answers and rng.random() < self.temper.disagree:
            # the second player sees it otherwise: a rethrow against an answer that counts, or the other way
            first = question.answers[0][1]
            return ev.ThrowConfirmed(by) if first == "rethrow" else ev.RethrowCalled(by)
        if truth.values is None:
            return ev.ThrowConfirmed(by) if question.values is None else ev.RethrowCalled(by)
        read = question.values
        same = read is not None and (read == truth.values if question.opening else sorted(read) == sorted(truth.values))
        return ev.ThrowConfirmed(by) if same else ev.ThrowCorrected(by, truth.values)

    def thrown(self, referee: Referee) -> ev.DiceObserved:
        """What the players threw when the camera raised the question they answer now: the world's throw then,
        made again from the referee as it was (the question is all the throw changed)."""
        question = referee.question
        assert question is not None
        intention = self.next_event(replace(referee, question=None, events=question.at - 1), None)
        assert isinstance(intention, ev.DiceObserved), intention
        return intention

    def wants_to_double(self, referee: Referee, rng: random.Random) -> bool:
        """Double now and then when clearly ahead in the race."""
        position, mover = referee.position, referee.mover
        mine, theirs = position.pips(mover), position.pips(mover.other)
        return (theirs - mine) / max(theirs, 1) >= 0.1 and rng.random() < self.temper.double

    def answer(self, referee: Referee, rng: random.Random) -> ev.Event:
        """Take when not too far behind in the race, drop otherwise."""
        doubled = referee.to_act
        assert doubled is not None
        position = referee.position
        mine, theirs = position.pips(doubled), position.pips(doubled.other)
        behind = (mine - theirs) / max(theirs, 1)
        take = behind < 0.2 if rng.random() < self.temper.take else behind < 0.1
        return ev.DoubleTaken(doubled) if take else ev.DoubleDropped(doubled)

    # ------------------------------------------------------------ chouette

    def chouette_cube(self, referee: Referee, rng: random.Random) -> ev.MemberCubeMoved | None:
        """The next chouette cube action: the side on turn's doubles first, then the answers in line order."""
        session = referee.chouette
        assert session is not None
        game = session.game
        moves = referee.member_moves()
        number = referee.game_number
        for action in moves:
            if action.move is not CubeMove.DOUBLE:
                continue
            by_box = action.by == game.box
            cube = game.cube_of(action.member)
            if number == 1:
                wanted = by_box and cube.owner is None or not by_box and cube.owner is game.team_color
            elif number == 2:
                wanted = not by_box and cube.owner is None
            else:
                wanted = self.wants_to_double(referee, rng)
            if wanted:
                return _member(action)
        waiting = offers(game)
        if not waiting:
            return None
        member = waiting[0]
        offered_by_box = game.cube_of(member).offered_by is game.box_color
        answerer = member if offered_by_box else game.box
        options = {action.move: action for action in moves if action.member == member and action.by == answerer}
        if number == 1:
            choice = (
                (CubeMove.DROP if member == game.captain else CubeMove.TAKE)
                if offered_by_box
                else (CubeMove.BEAVER if CubeMove.BEAVER in options else CubeMove.TAKE)
            )
        elif number == 2 and not offered_by_box:
            choice = CubeMove.TAKE if member == game.captain else CubeMove.DROP
        else:
            doubled = game.box_color if not offered_by_box else game.team_color
            position = referee.position
            mine, theirs = position.pips(doubled), position.pips(doubled.other)
            choice = CubeMove.TAKE if (mine - theirs) / max(theirs, 1) < 0.15 else CubeMove.DROP
        return _member(options.get(choice) or options[CubeMove.DROP])

    # --------------------------------------------------------------- plays

    def turn_index(self, referee: Referee) -> int:
        return len(referee.game_boards)

    def chosen_play(self, referee: Referee) -> tuple[Play, bool]:
        """The play the mover makes this turn, and whether it is the staged illegal one."""
        position, dice = referee.position, referee.numbers
        staged = (
            referee.game_number == 1
            and self.turn_index(referee) == self.temper.illegal_turn
            and not any(i.code in ("illegal_play", "unfinished_play") for i in referee.irregularities)
        )
        key = (referee.game_number, self.turn_index(referee), position, dice, staged)
        if key not in self._plays:
            if len(self._plays) > 64:
                self._plays.clear()
            self._plays[key] = self._choose(referee, staged)
        return self._plays[key]

    def _choose(self, referee: Referee, staged: bool) -> tuple[Play, bool]:
        position, dice = referee.position, referee.dice
        plays = referee.legal_plays()
        rng = _rng(self.seed, "play", referee.game_number, self.turn_index(referee))
        play = rng.choice(plays)
        if staged and dice is not None and (self.sensing_board or self.camera_reads_checkers):  # a board shows it;
            # the tablet refuses an illegal play typed in
            wrong = illegal_variant(position, dice, plays, rng)
            if wrong is not None:
                return wrong, True
        return play, False

    def play_step(self, referee: Referee, last: ev.Event | None, rng: random.Random) -> ev.Event:
        """The next thing the mover does with the checkers (the early throw is thrown again if the camera
        voided it: the waiting player's dice are still to be seen)."""
        mover = referee.mover
        position = referee.position
        if self.camera_reads_checkers:
            asked = referee.asked
            if asked is None:
                return self.press(referee, mover)  # the checkers stand as played: the camera reads them at the press
            play, illegal = self.chosen_play(referee)
            if illegal:  # the board shows a play the tablet refuses: the players type the first legal one offered
                play = referee.legal_plays()[0]
            return ev.ManualPlay(referee.setup.variant_rules.write_play(position, play) or "")
        if not self.sensing_board:
            play, _ = self.chosen_play(referee)
            if play.steps:
                return ev.ManualPlay(referee.setup.variant_rules.write_play(position, play) or "")
            return self.press(referee, mover)
        play, _ = self.chosen_play(referee)
        boards = boards_along(position, play.steps)
        board = referee.board if referee.board is not None else position
        reached = next((i for i, b in enumerate(boards) if b.same_board(board)), None)
        if reached is None:
            # the board is not on the way (a correction): put it back as it was before the play
            return snapshot_of(position)
        if (
            reached == 1
            and (isinstance(last, ev.BoardSeen) or (isinstance(last, ev.DiceObserved) and last.values is None))
            and referee.game_number == 1
            and self.turn_index(referee) == self.temper.early_throw_turn
            and not any(i.code == "early_throw" for i in referee.irregularities)
        ):
            dice = referee.dice or (1, 1)
            other = ((dice[0] % 6) + 1, dice[1])
            return ev.DiceObserved(other, thrower=mover.other)
        if reached == len(boards) - 1:
            return self.press(referee, mover)
        step = play.steps[reached]
        before, after = boards[reached], boards[reached + 1]
        now = boards[reached]  # a checker enters from the bar while one is there, else from those not yet in play
        entering_from_tray = step.source == BAR and now.waiting(mover) > 0 and now.side(mover)[BAR] == 0
        lifted_from = OFF if entering_from_tray else step.source  # acey-deucey: checkers not yet in play lie off
        if isinstance(last, ev.LiftSeen) and last.color is mover and last.point == lifted_from:
            return ev.PlaceSeen(mover, step.dest)
        if isinstance(last, ev.PlaceSeen) and last.color is mover and last.point == step.dest:
            hit = _hit_point(before, after, mover.other)
            if hit is not None:
                return ev.LiftSeen(mover.other, hit)
            return snapshot_of(after)
        if isinstance(last, ev.LiftSeen) and last.color is mover.other:
            return ev.PlaceSeen(mover.other, BAR)
        if isinstance(last, ev.PlaceSeen) and last.color is mover.other:
            return snapshot_of(after)
        return ev.LiftSeen(mover, lifted_from)

    def board_left(self, referee: Referee) -> Position:
        """The board the mover leaves this turn: the chosen play made (the staged illegal one too)."""
        play, _ = self.chosen_play(referee)
        position = referee.position
        return apply_steps(position, play.steps).with_turn(position.turn)

    # --------------------------------------------------------------- clock

    def press(self, referee: Referee, mover: Color) -> ev.Event:
        """The mover presses the clock, or its flag falls first when the reserve is used up."""
        white, black = self.times(referee, mover, self.think(referee))
        if referee.setup.clock.reserve_s and not referee.match.is_money and (white, black)[mover] == 0:
            return ev.ClockFlag(mover)
        return ev.ClockPressed(mover, white, black)

    def think_ms(self, referee: Referee, by: Color) -> int:
        """Milliseconds ``by`` spends on its own clock before pressing it now (0 for a press that starts it)."""
        if not referee.clock_started or by is not referee.mover or referee.stage is not Stage.PLAY:
            return 0
        return self.think(referee) * 1000

    def think(self, referee: Referee) -> int:
        """Seconds the mover took this turn (mostly within the delay)."""
        rng = _rng(self.seed, "think", referee.game_number, self.turn_index(referee))
        if rng.random() < self.temper.slow_move:
            return rng.randint(15, 45)
        return rng.randint(2, 10)

    def times(self, referee: Referee, mover: Color | None, seconds: int) -> tuple[int, int]:
        """The clock's remaining times after ``mover`` spent ``seconds`` (simple delay first)."""
        settings = referee.setup.clock
        white, black = referee.times or (settings.reserve_s * 1000, settings.reserve_s * 1000)
        spent = max(seconds - settings.delay_s, 0) * 1000
        if mover is Color.WHITE:
            white = max(white - spent, 0)
        elif mover is Color.BLACK:
            black = max(black - spent, 0)
        return white, black


def _member(action: MemberCube) -> ev.MemberCubeMoved:
    return ev.MemberCubeMoved(action.member, action.move.value, action.by)


def snapshot_of(position: Position) -> ev.BoardSeen:
    """What a sensing board reports for ``position``: checkers still to enter lie with those off the board."""
    sides = []
    for color in Color:
        counts = position.side(color)
        sides.append((counts[OFF] + position.waiting(color), *counts[1:]))
    return ev.BoardSeen(sides[0], sides[1])


def boards_along(position: Position, steps: Sequence[Step]) -> list[Position]:
    """The board after each step of a play, starting with the board before it."""
    boards = [position]
    for index in range(len(steps)):
        boards.append(apply_steps(position, steps[: index + 1]).with_turn(position.turn))
    return boards


def _hit_point(before: Position, after: Position, victim: Color) -> int | None:
    """The point (the victim's numbering) a checker of ``victim`` was hit from in this step."""
    if after.side(victim)[BAR] <= before.side(victim)[BAR]:
        return None
    for point in range(1, 25):
        if after.side(victim)[point] < before.side(victim)[point]:
            return point
    return None


def illegal_variant(position: Position, dice: tuple[int, int], plays: list[Play], rng: random.Random) -> Play | None:
    """A play close to a legal one that the rules forbid (its last checker moved one pip too far), if any.

    It moves one pip more than a full legal play, so it can never be an unfinished legal play.
    """
    legal_boards = {(after.white, after.black) for after in legal_results(position, dice)}
    candidates = []
    for play in plays:
        if not play.steps:
            continue
        *head, last = play.steps
        if last.dest <= 1:
            continue
        wrong = Step(last.source, last.dest - 1, False)
        try:
            after = apply_steps(position, [*head, wrong])
        except IllegalPlay:
            continue
        if position.RULES.landing is Landing.HIT and after.side(position.turn.other)[BAR] != position.opponent[BAR]:
            continue
        if (after.white, after.black) not in legal_boards:
            candidates.append(Play((*head, wrong)))
    if not candidates:
        return None
    return rng.choice(candidates)
