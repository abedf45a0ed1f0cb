"""The cube and resignations in a match between two: offers, answers, and the game they may end."""

from __future__ import annotations

from app.referee import events as ev
from app.referee.handling import KIND, Handling
from app.referee.rulings import Level
from rules import cubeful as rc
from rules.errors import IllegalAction, IllegalCubeAction, RulesError
from rules.game import Phase
from rules.position import Color
from rules.variant import ResultKind


class CubeHandlers(Handling):
    """Cube events and what follows from them."""

    def on_double(self, event: ev.DoubleOffered) -> None:
        self.cube_action(rc.Double(event.by), event.by)

    def on_take(self, event: ev.DoubleTaken) -> None:
        self.cube_action(rc.Take(event.by), event.by)

    def on_drop(self, event: ev.DoubleDropped) -> None:
        self.cube_action(rc.Drop(event.by), event.by)

    def on_beaver(self, event: ev.Beavered) -> None:
        self.cube_action(rc.Beaver(event.by), event.by)

    def on_raccoon(self, event: ev.Raccooned) -> None:
        self.cube_action(rc.Raccoon(event.by), event.by)

    def on_resign(self, event: ev.ResignationOffered) -> None:
        self.cube_action(rc.Resign(event.by, ResultKind(event.level)), event.by)

    def on_accept_resignation(self, event: ev.ResignationAccepted) -> None:
        self.cube_action(rc.AcceptResignation(event.by), event.by)

    def on_reject_resignation(self, event: ev.ResignationRejected) -> None:
        self.cube_action(rc.RejectResignation(event.by), event.by)

    def cube_action(self, action: rc.Action, by: Color) -> None:
        """Doubles, answers and resignations: the rules core decides, the clock goes to whoever acts."""
        state = self.state
        stage = state.stage
        if not self.ready(stage):
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
            self.say("resign_offered", Level.INFO, player=by, kind=KIND[action.level])
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
                "game_over",
                Level.OK,
                player=outcome.winner,
                kind=KIND[outcome.kind],
                ending=outcome.ending.value,
                cube=outcome.cube,
                points=outcome.points,
                score=score,
            )
        self.run_clock(None)
        if match.result is not None:
            self.say("match_over", Level.OK, player=match.result.winner, end=match.result.end.value, score=score)
            return
        self.set(
            game_boards=(match.game.position,),
            undo=(),
            turn_boards=(),
            clock_started=False,
            flagged=None,
            last_throw=None,
        )
        self.say("new_game", Level.INFO, number=len(match.games), crawford=match.is_crawford)
        if match.game.game.phase is Phase.ROLL:
            self.say("previous_winner_starts", Level.INFO, player=match.game.position.turn)
