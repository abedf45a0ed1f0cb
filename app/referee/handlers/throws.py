"""Throws: the camera's and the tablet's dice, the opening throw, a roll, the double named after a 1-2."""

from __future__ import annotations

from app.referee import events as ev
from app.referee.handling import Handling
from app.referee.rulings import Level
from app.referee.state import Stage, cube_values, game_of
from rules import cubeful as rc
from rules.errors import RulesError
from rules.play import Play
from rules.position import Color
from rules.variant import Opening


class ThrowHandlers(Handling):
    """Throw events and what follows from them."""

    def on_dice_observed(self, event: ev.DiceObserved) -> None:
        self.throw(event.values, event.void, event.thrower)

    def on_manual_dice(self, event: ev.ManualDice) -> None:
        self.throw(event.values, None, None)

    def throw(self, values: tuple[int, int] | None, void: ev.VoidReason | None, thrower: Color | None) -> None:
        state = self.state
        stage = state.stage
        if not self.ready(stage):
            return
        if stage in (Stage.DOUBLE, Stage.RESIGNATION):
            self.irregular("throw_before_answer", thrower if thrower is not None else state.mover, waiting=state.to_act)
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

    def on_name_double(self, event: ev.DoubleNamed) -> None:
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
