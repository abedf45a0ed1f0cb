"""Plays judged from the camera against the same plays typed: whole simulated matches of the demo's length played
through the camera path, per variant (standard, plakoto with its pins, uzun tavla).

    .venv/bin/python -m tests.app.bench_camera_plays [--matches 21] [--length 5] [--jobs 2] [--no-dice-reader]

Each play the simulated players make is drawn on the board by the whole-board renderer (1280x720, the
renderer's own size), read by the checker reader when the mover presses the clock, and judged by the referee
(:mod:`app.referee.handlers.camera`); the same play typed on the tablet is judged by a copy of the referee
beside it. A play the camera leaves to the players is answered as the players would (the play they made, typed).
Printed per variant: matches, plays, plays judged identically to the typed path (the same position
reached, or the play refused by both: an illegal play the tablet will not take is flagged from the camera),
differences, plays asked, plays taken from an unsure reading's ranges (what the picture shows for certain), readings
whose ranges do not hold the board drawn (must be 0), and the checker reader's CPU milliseconds per settled frame
(median, 95th percentile, slowest; the dice reader's look for dice included where a reading gives ranges: it
reads only what changed since the throw's picture, drawn with the board before the play and the dice that stay
for the press). Dice are handed to the referee as read (the throw's picture is not judged: it is not what is
measured here); the rest of the table is the demo's.
"""

from __future__ import annotations

import argparse
import multiprocessing
import sys
import time
from dataclasses import dataclass, field

import cv2

from app.referee import events as ev
from app.referee.engine import Referee, Stage
from app.referee.handlers.camera import fits, seen_counts
from app.referee.setup import ClockSettings, Devices, MatchSetup, Mode, Policy
from app.sim.board_camera import BoardCamera
from app.sim.world import Temper, World
from rules.play import Play
from vision import DiceReader, Reader
from vision.checkers import shipped_counter

VARIANTS = ("backgammon", "plakoto", "uzun")
ASKED = ("play_asked", "play_asked_unsure")
REFUSED = ("illegal_play", "unfinished_play")


@dataclass
class Tally:
    matches: int = 0
    plays: int = 0
    same: int = 0
    differences: list[str] = field(default_factory=list)
    asked: int = 0
    from_ranges: int = 0
    not_held: list[str] = field(default_factory=list)
    flagged: int = 0
    read_ms: list[float] = field(default_factory=list)
    draw_s: float = 0.0

    def add(self, other: Tally) -> None:
        """``other``'s matches counted in this tally too (matches played in another process)."""
        for name, value in vars(other).items():
            setattr(self, name, getattr(self, name) + value)


def setup(variant: str, length: int, seed: int) -> MatchSetup:
    return MatchSetup(
        players=("Ayşe", "Mehmet"),
        variant=variant,
        length=length,
        mode=Mode.TOURNAMENT,
        policy=Policy.LEGAL_MOVES,
        clock=ClockSettings.for_match(length),
        devices=Devices(camera=True, board=False, clock=True),
        round=f"seed {seed}",
    )


def typed_result(referee: Referee, world: World, press: ev.Event) -> Referee | None:
    """The referee after the mover's play typed on the tablet (None: the tablet refuses it); a turn with no
    legal play is ended by the press alone."""
    if referee.legal_plays() == [Play()]:
        return referee.handle(press)[0]
    play, _ = world.chosen_play(referee)
    text = referee.setup.variant_rules.write_play(referee.position, play)
    after, reaction = referee.handle(ev.ManualPlay(text or ""))
    return after if "play_ok" in reaction.codes else None


def play_match(variant: str, length: int, seed: int, reader: Reader | None, tally: Tally) -> None:
    """One match through the camera path, each play also judged as typed; what differs is kept."""
    world = World(seed, Temper(), sensing_board=False, camera_reads_checkers=True)
    camera = BoardCamera(seed, world.board_left, reader)
    referee = Referee.start(setup(variant, length, seed))
    last: ev.Event | None = None
    for _ in range(20_000):
        if referee.stage is Stage.OVER:
            tally.matches += 1
            return
        event = world.next_event(referee, last)
        ends_a_play = (
            isinstance(event, ev.ClockPressed)
            and referee.stage is Stage.PLAY
            and event.by is referee.mover
            and referee.clock is event.by
        )
        if not ends_a_play:
            referee, _ = referee.handle(event)
            last = event
            continue
        typed = typed_result(referee, world, event)
        drawn = time.perf_counter()
        board = world.board_left(referee)
        seen = camera.seen(referee)
        if seen.ranges is not None and not fits(seen_counts(board), seen.ranges):
            tally.not_held.append(f"{variant} seed {seed} event {referee.events}: {seen_counts(board)}")
        referee, _ = referee.handle(seen)
        tally.draw_s += time.perf_counter() - drawn
        tally.read_ms.append(camera.read_ms[-1])
        referee, reaction = referee.handle(event)
        last = event
        codes = list(reaction.codes)
        asked = any(code in ASKED for code in codes)
        if asked:  # the players type the play they made (the first legal one offered for a play the tablet refuses)
            tally.asked += 1
            last = world.next_event(referee, last)
            referee, reaction = referee.handle(last)
            codes = list(reaction.codes)
        tally.plays += 1
        tally.from_ranges += not seen.sure and not asked and "play_ok" in codes
        if any(code in REFUSED for code in codes):
            tally.flagged += 1
            same = typed is None
        elif "play_ok" in codes:
            same = (typed is not None and typed.position == referee.position) or (typed is None and asked)
        else:
            same = False
        if same:
            tally.same += 1
        else:
            tally.differences.append(f"{variant} seed {seed} event {referee.events}: {codes}")
    raise RuntimeError(f"{variant} seed {seed}: the match did not end")


def play_matches(
    job: int, jobs: int, matches: int, length: int, seed: int, dice_reader: bool
) -> tuple[dict[str, Tally], float]:
    """This job's share of the matches (every ``jobs``-th from the ``job``-th), on one core: the tallies and the
    CPU seconds spent."""
    cv2.setNumThreads(1)  # one core, the renderer's drawing too
    reader: Reader | None = DiceReader(threads=1) if dice_reader else None
    shipped_counter()  # loaded before the first press, as a station loads it when the match starts
    cpu_started = time.process_time()
    rows: dict[str, Tally] = {v: Tally() for v in VARIANTS}
    for k in range(job, matches, jobs):
        variant = VARIANTS[k % len(VARIANTS)]
        play_match(variant, length, seed + k, reader, rows[variant])
        print(f"  {variant} seed {seed + k}: {rows[variant].plays} plays so far", file=sys.stderr, flush=True)
    return rows, time.process_time() - cpu_started


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(int(share * len(ordered)), len(ordered) - 1)] if ordered else 0.0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--matches", type=int, default=21, help="matches in all, shared among the variants")
    parser.add_argument("--length", type=int, default=5, help="match length in points (the demo's: 5)")
    parser.add_argument("--seed", type=int, default=1, help="the first match's seed")
    parser.add_argument("--no-dice-reader", action="store_true", help="read without looking for dice first")
    parser.add_argument("--jobs", type=int, default=1, help="processes sharing the matches, one core each")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    shares = [
        (job, args.jobs, args.matches, args.length, args.seed, not args.no_dice_reader) for job in range(args.jobs)
    ]
    if args.jobs > 1:
        with multiprocessing.get_context("spawn").Pool(args.jobs) as pool:
            done = pool.starmap(play_matches, shares)
    else:
        done = [play_matches(*shares[0])]
    rows: dict[str, Tally] = {v: Tally() for v in VARIANTS}
    for tallies, _ in done:
        for variant, tally in tallies.items():
            rows[variant].add(tally)
    spent, cpu = time.perf_counter() - started, sum(seconds for _, seconds in done)
    drawing = sum(t.draw_s for t in rows.values())
    print(
        f"{args.matches} matches of {args.length} point(s), 1280x720 boards, one core a job: {cpu:.0f} s CPU in all"
        f" ({spent:.0f} s wall; drawing and reading the boards {drawing:.0f} s wall)"
    )
    print(
        "| variant | matches | plays | judged as typed | differences | asked | taken from ranges | ranges not"
        " holding the board | flagged illegal | ms a frame: median / p95 / slowest |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|")
    for variant, t in rows.items():
        share = 100 * t.asked / t.plays if t.plays else 0.0
        print(
            f"| {variant} | {t.matches} | {t.plays} | {t.same} | {len(t.differences)} | {t.asked} ({share:.0f} %) |"
            f" {t.from_ranges} | {len(t.not_held)} | {t.flagged} |"
            f" {percentile(t.read_ms, 0.5):.0f} / {percentile(t.read_ms, 0.95):.0f} /"
            f" {max(t.read_ms, default=0):.0f} |"
        )
    for t in rows.values():
        for line in t.differences:
            print("difference:", line)
        for line in t.not_held:
            print("ranges not holding the board:", line)
    return 1 if any(t.differences or t.not_held for t in rows.values()) else 0


if __name__ == "__main__":
    raise SystemExit(main())
