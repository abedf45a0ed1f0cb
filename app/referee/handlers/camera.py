"""Plays judged from the camera's reading of the checkers, for a table without a sensing board.

The station reads the settled picture when the mover presses the clock and sends it just before the press
(:class:`app.referee.events.CheckersSeen`). The reading is compared with every position the dice's legal plays
reach: one match is the play; none is judged as a sensing board's snapshot is (a takeback, an illegal or
unfinished play); several are asked on the tablet with the candidates, and the players pick or type the play
(:class:`app.referee.events.ManualPlay`). A reading the reader doubts judges a play only through what the
picture shows for certain (its ranges): the play is taken when exactly one legal result fits them and no other
board could (:func:`settles`); anything else is asked, an illegal play included. The camera never guesses.
Where a sensing board is present it judges, and a sure camera reading that disagrees with it calls the director.
"""

from __future__ import annotations

from app.referee import events as ev
from app.referee.handlers import plays
from app.referee.handling import Step
from app.referee.rulings import Level
from app.referee.state import CameraBoard, PlayAsked, RefereeState, Stage
from rules.play import Play, apply_steps
from rules.position import CHECKERS, OFF, Color, Position, describe_status

NEIGHBOURS = 4
"""An unsure reading also offers the positions this much further from it than the nearest (one checker elsewhere)."""
MAX_OPTIONS = 6
"""The most candidates an unsure reading offers (the nearest to what the camera saw); the players may type any."""


def on_checkers_seen(step: Step, event: ev.CheckersSeen) -> None:
    """Keep the reading for the press that follows it (outside a play it judges nothing) and for the dice."""
    state = step.state
    raw = type(state.position).unchecked(event.white, event.black, state.mover)
    reading = CameraBoard(raw, event.sure, event.doubts, event.ranges)
    step.set(seen=reading, camera=reading if state.stage is Stage.PLAY else None)


def camera_shows(state: RefereeState) -> bool:
    """Whether the camera's latest reading, sure of a whole board, shows the checkers where the referee has them."""
    seen = state.seen
    if seen is None or not seen.sure:
        return False
    return seen_counts(state.position) == (seen.board.white, seen.board.black)


def seen_counts(position: Position) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The counts a camera or a sensing board sees of ``position``: checkers still to enter lie with those off."""
    sides = []
    for color in Color:
        counts = position.side(color)
        sides.append((counts[OFF] + position.waiting(color), *counts[1:]))
    return sides[0], sides[1]


def judge_press(step: Step) -> None:
    """The mover pressed the clock: judge by the camera's reading when one came with the press (see the module)."""
    state = step.state
    seen = state.camera
    if seen is None:
        plays.judge_press(step)
        return
    step.set(camera=None)  # a reading judges the press it came with, never a later one
    board = state.board
    if state.setup.devices.board and board is not None:
        if seen.sure and not state.board_problems and seen_counts(board) != (seen.board.white, seen.board.black):
            disagree(step, seen)
            return
        plays.judge_press(step)
        return
    if state.legal_plays() == [Play()]:
        plays.accept(step, Play())
        return
    before = state.position
    counts = (seen.board.white, seen.board.black)
    read = before.read_snapshot(seen.board)  # pins and checkers still to enter, as the variant reads them
    results: dict[tuple[tuple[int, ...], tuple[int, ...]], list[Play]] = {}
    for play in state.legal_plays():
        after = apply_steps(before, play.steps)
        kept = results.setdefault(seen_counts(after), [])
        if not any(apply_steps(before, other.steps).same_board(after) for other in kept):
            kept.append(play)  # one play for each distinct position reached
    if seen.sure and not describe_status(read.status()):
        matching = results.get(counts, [])
        if len(matching) == 1:
            plays.accept(step, matching[0])
        elif not matching:
            plays.judge_board(step, read)
        else:
            ask(step, matching, unsure=False)
        return
    fitting = {key: found for key, found in results.items() if seen.ranges is not None and fits(key, seen.ranges)}
    if len(fitting) == 1:
        ((key, found),) = fitting.items()
        assert seen.ranges is not None
        if len(found) == 1 and settles(seen_counts(before), key, seen.ranges, state.mover):
            plays.accept(step, found[0])
            return
    ranked = sorted((fitting or results).items(), key=lambda item: distance(item[0], counts))
    nearest = distance(ranked[0][0], counts) if ranked else 0
    candidates = [play for key, found in ranked if distance(key, counts) <= nearest + NEIGHBOURS for play in found]
    ask(step, candidates[:MAX_OPTIONS], unsure=True)


Counts2 = tuple[tuple[int, ...], tuple[int, ...]]
Ranges = tuple[Counts2, Counts2]


def fits(counts: Counts2, ranges: Ranges) -> bool:
    """Whether a board's counts (:func:`seen_counts`) lie inside the camera's ranges at every place."""
    low, high = ranges
    return all(lo <= n <= hi for side in (0, 1) for n, lo, hi in zip(counts[side], low[side], high[side], strict=True))


def settles(before: Counts2, after: Counts2, ranges: Ranges, mover: Color) -> bool:
    """Whether the ranges leave ``after`` (the one legal result inside them) as the only board the play can have
    left. The mover's checkers may stand anywhere after a play, legal or not, so the ranges with the fifteen must
    fix them alone: two places whose counts the picture cannot tell (two tall stacks) would hide an illegal play
    made beside a legal one. The other side's checkers move only when hit, so its counts need only be certain
    where the play changes them (a blot hit, the bar); its hidden layers are as they were before the play."""
    low, high = ranges
    side = 0 if mover is Color.WHITE else 1
    if not fixed(low[side], high[side]):
        return False
    other = 1 - side
    return fixed(low[other], high[other]) or all(
        low[other][k] == high[other][k] for k, (was, now) in enumerate(zip(before[other], after[other])) if was != now
    )


def fixed(low: tuple[int, ...], high: tuple[int, ...]) -> bool:
    """Whether one side's ranges and its fifteen checkers leave one count a place: every place at its fewest or
    at its most, or one place alone uncertain (it holds the rest)."""
    return sum(low) == CHECKERS or sum(high) == CHECKERS or sum(lo < hi for lo, hi in zip(low, high)) <= 1


def distance(a: tuple[tuple[int, ...], tuple[int, ...]], b: tuple[tuple[int, ...], tuple[int, ...]]) -> int:
    """How many checkers stand differently between two sets of counts (each misplaced one counts twice)."""
    return sum(abs(x - y) for side_a, side_b in zip(a, b) for x, y in zip(side_a, side_b))


def ask(step: Step, candidates: list[Play], unsure: bool) -> None:
    """Leave the play to the players: the clocks stand still until they pick or type it."""
    state = step.state
    write = state.setup.variant_rules.write_play
    options = tuple(write(state.position, play) for play in candidates)
    step.set(play_asked=PlayAsked(options, state.position, state.numbers, unsure))
    step.run_clock(None)
    step.say("play_asked_unsure" if unsure else "play_asked", Level.WARNING, player=state.mover, options=list(options))


def disagree(step: Step, seen: CameraBoard) -> None:
    """The camera, sure of its reading, and the sensing board see different boards: the director decides."""
    white, black = seen.board.white, seen.board.black
    step.device_fault("camera", "camera_disagrees", white=list(white), black=list(black))
    step.set(halted=True)
    step.run_clock(None)
    step.say("director_called", Level.WARNING, player=None)
