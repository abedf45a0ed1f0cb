"""Sure or unsure through a whole match, as a station runs it: ``.venv/bin/python -m tests.vision.bench_match
[--matches M] [--throws N] [--learning L] [--look LOOK] [--head HEAD]``.

``bench_sureness`` reads every throw with a new pair of dice on a new board, as the reader comes trained. A
match is not like that: one pair of dice, one board and one camera for an hour, and the station learns the
dice at set-up (the referee throws them ``--learning`` times and the players confirm each die) and from every
throw people answer a question about after that (``app.table.learning``). Here each held-out match
(:func:`vision.train.heldout.heldout_match_throw`: dice, boards and seeds no training saw) is played so: the
set-up throws are confirmed, then ``--throws`` throws of the sureness bench's mix (seven valid in ten, then a
cocked one, one in the wrong half and one off the board) are read both with the reader as trained and with the
dice learned, side by side on the same pictures. Each doubted throw (in the tournament setting) is answered
and its dice learned, as the station learns them; the reader as trained learns nothing.

For each setting and reader: **wrong automatic calls** (a call without doubts whose outcome, the dice that
count or a rethrow, is not the truth), of them wrong dice and needless rethrows, and **questions asked**, each
as a share of the throws played, with the 95 % upper bound (Wilson) of the wrong automatic calls: a target of
0.1 % cannot be shown on a few hundred throws. Each throw is judged knowing where the checkers lie, as a
station knows them from the referee's position (``HeldoutThrow.checkers``, both ways round: a die called cocked
with nothing to lean on is asked about, ``vision.leaning``); "learned, no position" judges the same readings
without, and "learned, board sensed" as a station with a sensing board judges them (the checkers are where it
saw them, so a die read flat with nothing within reach is surely flat; the dice learned from the questions
asked with the position alone, a few more than a sensed board asks). ``--tops`` also prints each setting with
its cocked band ending elsewhere (``--lows``: and starting elsewhere), on the same readings (the band's top,
``vision.sureness.COCKED_SURE_FROM``, was chosen so on matches 80-159; the figures are read from matches 0-79).
Prints figures only.
"""

from __future__ import annotations

import argparse
import math
from dataclasses import replace
from pathlib import Path
from typing import Iterator

from tests.progress import tracked
from tests.vision.bench_sureness import HELDOUT_KINDS, Case, calls, confidences, figures, heldout_case
from vision import DiceReader
from vision.adapt import AdaptedClassifier, DiceProfile, FeatureReader, Said, examples
from vision.crop_reader import OnnxModel
from vision.reader import DEFAULT_COCKED_LOOK, DEFAULT_HEAD
from vision.sureness import SETTINGS, TOURNAMENT, Sureness, doubts
from vision.train.heldout import HeldoutThrow, heldout_match_throw
from vision.verdict import DieReading, ThrowObservation


def said(throw: HeldoutThrow, dice: tuple[DieReading, ...]) -> list[Said]:
    """What the players say each die found is: the die lying there (its value, or cocked), or no die."""
    return [lying_at(throw, *die.centre) for die in dice]


def lying_at(throw: HeldoutThrow, x: float, y: float) -> Said:
    """The rendered die whose box holds the point (its value, or cocked), or None: no die there."""
    lying = [t for t in throw.dice if t.box[0] <= x <= t.box[2] and t.box[1] <= y <= t.box[3]]
    return None if not lying else "cocked" if lying[0].cocked else lying[0].value


def learn(dice: AdaptedClassifier, throw: HeldoutThrow, observation: ThrowObservation) -> int:
    """The players confirm every die found in this throw: the dice set learns them (and what the reader called
    not a die, when both dice are among them: ``vision.adapt.examples``). Dice confirmed."""
    if not observation.dice:
        return 0
    dice.confirm(*examples(throw.image, observation.dice, said(throw, observation.dice), observation.not_dice))
    return len(observation.dice)


def play(
    match: int,
    learning: int,
    throws: int,
    plain: DiceReader,
    look: Path = DEFAULT_COCKED_LOOK,
    head: Path = DEFAULT_HEAD,
) -> tuple[list[Case], list[Case], int, int]:
    """One match: its set-up, then its throws read as trained and with the dice learned (both with the cocked
    ``look`` and the second stage ``head``). The cases of each, the dice confirmed at set-up and the throws
    learned during play."""
    features = FeatureReader(OnnxModel(head, threads=1))
    dice = AdaptedClassifier(features, DiceProfile(f"match {match}"))
    learned = DiceReader(threads=1, classifier=dice, cocked_look=look)
    setup = _throws(match, 0, learning, valid_only=True)
    confirmed = sum(learn(dice, t, heldout_case(learned, t).observation) for t in setup)
    as_trained: list[Case] = []
    with_dice: list[Case] = []
    answered = 0
    for number, throw in enumerate(_throws(match, learning, learning + throws), start=learning):
        name = f"match {match} throw {number} ({throw.kind}, {'-'.join(map(str, throw.values))})"
        as_trained.append(replace(heldout_case(plain, throw), name=name))
        case = replace(heldout_case(learned, throw), name=name)  # the station's reading
        with_dice.append(case)
        if doubts(case.observation, case.calibration, case.shape, TOURNAMENT, case.checkers):
            answered += learn(dice, throw, case.observation) > 0
    return as_trained, with_dice, confirmed, answered


def _throws(match: int, first: int, end: int, valid_only: bool = False) -> Iterator[HeldoutThrow]:
    """The match's throws ``first`` to ``end``, drawn one at a time (a throw and its board are 5 MB)."""
    for i in range(first, end):
        yield heldout_match_throw(match, i, "valid" if valid_only else HELDOUT_KINDS[(i - first) % len(HELDOUT_KINDS)])


def wilson_upper(count: int, n: int, z: float = 1.96) -> float:
    """The 95 % upper bound of a share seen ``count`` times in ``n`` (Wilson's interval), in %."""
    if n == 0:
        return 100.0
    p = count / n
    centre = p + z * z / (2 * n)
    spread = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return 100 * (centre + spread) / (1 + z * z / n)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=30, help="held-out matches (default 30)")
    parser.add_argument("--throws", type=int, default=30, help="throws played a match after set-up (default 30)")
    parser.add_argument("--learning", type=int, default=10, help="set-up throws confirmed (default 10)")
    parser.add_argument("--first", type=int, default=0, help="the first match's number (default 0)")
    for flag, what in (
        ("--tops", "also each setting with its cocked band ending at each of these (how the band's top was chosen)"),
        ("--lows", "with --tops: the cocked band starting at each of these instead of the setting's own"),
    ):
        parser.add_argument(flag, type=probabilities, default=[], metavar="P,P,...", help=what)
    parser.add_argument(
        "--look", type=Path, default=DEFAULT_COCKED_LOOK, help="read with this cocked look (default the shipped one)"
    )
    parser.add_argument(
        "--head", type=Path, default=DEFAULT_HEAD, help="read with this second stage (default the shipped one)"
    )
    args = parser.parse_args()
    plain = DiceReader(threads=1, cocked_look=args.look, head=args.head)
    as_trained: list[Case] = []
    with_dice: list[Case] = []
    confirmed = answered = 0
    for match in tracked(range(args.first, args.first + args.matches), "held-out matches"):
        a, b, c, d = play(match, args.learning, args.throws, plain, args.look, args.head)
        as_trained += a
        with_dice += b
        confirmed += c
        answered += d
    print(
        f"{args.matches} matches from {args.first}: {args.learning} set-up throws each ({confirmed} dice "
        f"confirmed), then {args.throws} throws played ({answered} questioned throws learned)"
    )
    print(
        f"{'reader':21} {'throws':>6} {'setting':18} {'wrong auto':>10} {'95% bound':>9} {'wrong dice':>10} "
        f"{'rethrown':>9} {'questions':>9}"
    )
    unplaced = [replace(case, checkers=None) for case in with_dice]  # where the checkers lie not told
    sensed = [replace(case, sensed=True) for case in with_dice]  # a sensing board says where they lie
    readers = (
        ("as trained", as_trained),
        ("match dice learned", with_dice),
        ("learned, no position", unplaced),
        ("learned, board sensed", sensed),
    )
    for label, cases in readers:
        n = len(cases)
        for name, (wrong, wrong_dice, needless, asked) in figures(cases).items():
            bound = wilson_upper(round(wrong * n / 100), n)
            print(
                f"{label:21} {n:6d} {name:18} {wrong:9.2f}% {bound:8.2f}% {wrong_dice:9.2f}% {needless:8.2f}% "
                f"{asked:8.2f}%"
            )
        if line := confidences(cases):
            print(f"{'':21} {line}")
        for case in calls(cases, TOURNAMENT)[1]:  # to look at: heldout_match_throw(match, throw, kind)
            dice = [
                (d.value, round(d.confidence, 3), round(d.cocked_probability, 3), d.zone) for d in case.observation.dice
            ]
            print(f"{'':21} wrong, tournament: {case.name}: {case.observation.reason or 'valid'} {dice}")
        for top in args.tops:
            for low in args.lows or [None]:
                for name, (wrong, wrong_dice, needless, asked) in figures(cases, banded(top, low)).items():
                    print(
                        f"{label:21} {n:6d} {name:18} {wrong:9.2f}% {'':9} {wrong_dice:9.2f}% {needless:8.2f}% "
                        f"{asked:8.2f}%"
                    )


def probabilities(text: str) -> list[float]:
    """A comma-separated list of probabilities, as ``--tops`` and ``--lows`` take them."""
    return [float(t) for t in text.split(",")]


def banded(top: float, low: float | None) -> dict[str, Sureness]:
    """Each setting with its cocked band from ``low`` (None: the setting's own) to ``top``."""
    out: dict[str, Sureness] = {}
    for name, setting in SETTINGS.items():
        start = min(setting.cocked_band[0] if low is None else low, top)
        label = f"{name} to {top:g}" if low is None else f"{name} {start:g}-{top:g}"
        out[label] = replace(setting, cocked_band=(start, top))
    return out


if __name__ == "__main__":
    main()
