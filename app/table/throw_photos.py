"""The station's throws kept as photographs with their dice labelled: a real dice set grown at the table.

The reader was trained and is measured on photo sets nobody took at a tavla board: no station's camera, no
tournament's precision dice. A station sees exactly those, and people at the table say what the dice show. So
every throw the camera reads is kept as the picture it was read from (at once, so a crash loses no picture),
and once the throw is settled, with what each die showed, in the format of the real photo sets the reader is
trained and measured on: ``NAME.jpg``; ``NAME.txt``, YOLO text, one die a line, ``class xc yc w h``
normalised to the picture, ``class = pips - 1``; and ``NAME.json``, which says who knew the values ("people":
the players or the director answered the throw's question, or confirmed a set-up throw; "camera": a sure call
nobody questioned), what the reader said, and the board's corners. ``python -m tests.vision.bench_adapt --set
FOLDER`` measures the reader on the throws people labelled. A director looking into a disputed throw has
its picture too.

Once the play that follows a kept throw is settled (taken as legal, or accepted as played), the board after it
is kept beside the throw as ``NAME_board.jpg``, the camera's picture then (where the station has one: the
picture the checkers were read from at the press, or the camera's latest), and ``NAME_board.json``, labelled with
the position the referee settled on (``rules.Position.to_json``: each side's counts in its own numbering, the
side to move, pins), the play's notation, the event that settled it (the clock press, a play typed, the
opponent's acceptance) and the camera's reading of the checkers at that press: a real checker set grown at the
table as well.

A label file is written only when it is whole: every die found said, none cocked (the format has no class for
one), no part of the board changed where no die was read. A throw answered after the station restarted keeps
its picture without a label (the reading it was asked about is not in the journal's keeping). Keeping a photo
never stops a match and never takes the journal's room: a disk nearly full, read-only or failing is said once,
and the match goes on without.
"""

from __future__ import annotations

import datetime
import json
import shutil
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import cv2

from app.record.session import Session
from app.record.whole_files import write_whole
from app.referee import events as ev
from app.referee.rulings import Reaction
from app.table.dice import Image, Shot
from app.table.learning import ThrowFollower
from app.table.why import Why
from vision import DieReading
from vision.adapt import Said
from vision.verdict import Boxes

FORMAT = 1
"""What a ``NAME.json`` holds: 1, the fields :meth:`ThrowPhotos.keep` writes."""
JPEG_QUALITY = 92
"""High enough that a die's pips are as the camera saw them (139 KB a throw on the demo's 1280x720 pictures;
a real camera's noise costs more)."""
UNSETTLED = 4
"""Throws kept and waiting to be settled that a station remembers: one questioned throw, and dice thrown while
its question waits (never settled: their pictures stay unlabelled)."""
PLAYED = frozenset({"play_ok", "illegal_accepted"})
"""The rulings that settle a play: the board after it is kept beside its throw."""
FREE_MIN = 512 * 1024 * 1024
"""Bytes the disk keeps free for the journal: below this no photo is written (a match journals a few MB)."""


def yolo_lines(dice: Sequence[tuple[int, tuple[int, int, int, int]]], width: int, height: int) -> str:
    """Each (value, box in pixels) as a YOLO line, as the real photo sets are labelled."""
    lines = []
    for value, (x0, y0, x1, y1) in dice:
        xc, yc = (x0 + x1) / 2 / width, (y0 + y1) / 2 / height
        lines.append(f"{value - 1} {xc:.6f} {yc:.6f} {(x1 - x0) / width:.6f} {(y1 - y0) / height:.6f}")
    return "".join(line + "\n" for line in lines)


def _die(die: DieReading) -> dict[str, Any]:
    return {
        "box": [int(v) for v in die.box],
        "value": die.value,
        "confidence": None if die.confidence is None else round(float(die.confidence), 4),
        "cocked": bool(die.cocked),
        "zone": die.zone,
    }


def _box(box: list[int]) -> tuple[int, int, int, int]:
    x0, y0, x1, y1 = box
    return int(x0), int(y0), int(x1), int(y1)


def _why(error: Exception) -> str:
    """An error in words a director reads on the banner: the file and the system's reason, no error number."""
    if isinstance(error, OSError) and error.strerror:
        return f"{error.filename}: {error.strerror}" if error.filename else error.strerror
    return str(error)


def _record(image: Image, dice: Sequence[DieReading], not_dice: Boxes, **about: Any) -> dict[str, Any]:
    """A photo's ``NAME.json`` before its throw is settled: ``about`` says what kind of throw and where it lay."""
    return {
        "format": FORMAT,
        **about,
        "kept_at": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "size": [int(image.shape[1]), int(image.shape[0])],
        "dice": [_die(die) for die in dice],
        "not_dice": [list(map(int, box)) for box in not_dice],
        "label": None,
    }


class ThrowPhotos:
    """Where a station keeps its throws' photographs (``folder``), and the keeping. ``notify`` hears, once, why
    photos stopped being kept (the screens word it)."""

    def __init__(self, folder: Path, notify: Callable[[Why], None] = lambda why: None) -> None:
        self.folder = Path(folder)
        self.notify = notify
        self.kept = 0
        """Photos kept since the station started."""
        self.labelled = 0
        """Of them, those whose label file was written."""
        self.boards = 0
        """Pictures of the board after a kept throw's play."""
        self.problem: Why | None = None
        """Why the last photo was not kept (None when it was)."""

    def listener(
        self,
        session: Session,
        last_shot: Callable[[], Shot | None],
        board_picture: Callable[[], Image | None] | None = None,
    ) -> MatchPhotos:
        """The session's listener that keeps this match's camera throws (``last_shot``: the camera's last) and,
        after each play, the board (``board_picture``: the camera's picture of it then, None when it has none)."""
        self._sweep()
        return MatchPhotos(self, session, last_shot, board_picture)

    def keep_board(self, name: str, image: Image, record: dict[str, Any]) -> bool:
        """Keep the board after a kept throw's play as ``NAME_board``: its picture and the position settled."""
        return self._save(f"{name}_board", image, {"format": FORMAT, **record}, count=False)

    def keep(self, name: str, shot: Shot, **about: Any) -> dict[str, Any] | None:
        """Keep ``shot``'s picture and what the reader said of it as ``name``; its record, or None (and said
        why, once) when it cannot be kept."""
        record = _record(
            shot.image,
            shot.dice,
            shot.not_dice,
            **about,
            event=type(shot.event).__name__,
            corners=[list(map(float, c)) for c in shot.calibration.corners] if shot.calibration else None,
            thrower=shot.thrower.name.lower() if shot.thrower is not None else None,
            unread=[list(map(int, box)) for box in (shot.judged.unread if shot.judged is not None else ())],
        )
        return record if self._save(name, shot.image, record) else None

    def keep_practice(
        self, name: str, image: Image, dice: tuple[DieReading, ...], values: Sequence[Said], not_dice: Boxes
    ) -> bool:
        """Keep a set-up throw of the dice set ``name`` the players confirmed (``values``: each die found, None
        for not a die), labelled by them."""
        record = _record(image, dice, not_dice, practice=name, event="practice", corners=None, unread=[])
        stem = f"practice_{datetime.datetime.now(datetime.timezone.utc):%Y%m%dT%H%M%S%f}"
        return self._save(stem, image, record) and self.write_label(stem, record, dict(enumerate(values)), "people")

    def write_label(self, name: str, record: dict[str, Any], said: dict[int, Said], by: str) -> bool:
        """What each die of the photo ``name`` (kept with ``record``) showed, now that its throw is settled, and
        who said so."""
        dice = record["dice"]
        valued = [
            (value, _box(dice[i]["box"]))
            for i, value in sorted(said.items())
            if isinstance(value, int) and 0 <= i < len(dice)
        ]
        whole = bool(valued) and len(said) == len(dice) and not record["unread"] and "cocked" not in said.values()
        record["label"] = {
            "by": by,
            "dice": [{"box": dice[i]["box"], "is": said[i]} for i in sorted(said) if 0 <= i < len(dice)],
            "whole": whole,
        }
        try:
            if whole:
                width, height = record["size"]
                write_whole(self.folder / f"{name}.txt", yolo_lines(valued, width, height).encode())
            write_whole(self.folder / f"{name}.json", json.dumps(record, ensure_ascii=False).encode())
        except OSError as error:
            return self.failed(Why.said(_why(error)))
        self.labelled += whole
        return True

    def _save(self, name: str, image: Image, record: dict[str, Any], count: bool = True) -> bool:
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            if shutil.disk_usage(self.folder).free < FREE_MIN:
                return self.failed(Why("photos_disk_full", {"folder": str(self.folder)}))
            ok, jpeg = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])
            if not ok:
                return self.failed(Why.said(f"{name}: the picture could not be made a JPEG"))
            write_whole(self.folder / f"{name}.jpg", jpeg.tobytes())
            write_whole(self.folder / f"{name}.json", json.dumps(record, ensure_ascii=False).encode())
        except (OSError, cv2.error) as error:
            return self.failed(Why.said(_why(error)))
        self.kept += count
        self.boards += not count
        self.problem = None
        return True

    def _sweep(self) -> None:
        """Files a station stopped in the middle of writing (its power cut): never read, so removed."""
        try:
            for partial in self.folder.glob("*.partial"):
                partial.unlink(missing_ok=True)
        except OSError:
            pass  # the next photo's write says what is wrong with the folder

    def failed(self, why: Why) -> bool:
        """A photo or its label not kept: said once (until one is kept again); False."""
        if not self.problem:
            self.notify(why)
        self.problem = why
        return False


class MatchPhotos:
    """The session's listener that keeps one match's camera throws, each named after the match (its journal's
    first seal) and the journal entry it became, so no two matches' photos share a name; labelled when the
    throw is settled (:class:`app.table.learning.ThrowFollower`)."""

    def __init__(
        self,
        photos: ThrowPhotos,
        session: Session,
        last_shot: Callable[[], Shot | None],
        board_picture: Callable[[], Image | None] | None = None,
    ) -> None:
        self.photos = photos
        self.session = session
        self.board_picture = board_picture
        self.playing: str | None = None
        """The last throw photo kept whose play is not settled yet: its board after the play is kept with it."""
        self.match = next(session.journal.rows())[5][:12]
        self.follow = ThrowFollower(session, last_shot)
        self.waiting: list[tuple[Shot, str, dict[str, Any]]] = []
        """The throws kept and not yet settled: the shot itself (not its id), its photo's name and record."""

    def __call__(self, event: ev.Event, reaction: Reaction) -> None:
        try:
            self._keep(event, reaction)
        except Exception as error:  # noqa: BLE001 - a photo lost must never stop the match's other listeners
            self.photos.failed(Why.said(f"{type(error).__name__}: {error}"))

    def _keep(self, event: ev.Event, reaction: Reaction) -> None:
        settled = self.follow(event, reaction)
        shot = self.follow.arrived
        if shot is not None:
            seq = len(self.session.journal)
            name = f"{self.match}_{seq:05d}"
            record = self.photos.keep(name, shot, match=self.match, journal_seq=seq)
            if record is not None:  # the oldest let go: thrown while a question waited, never settled
                self.waiting = [*self.waiting, (shot, name, record)][-UNSETTLED:]
                self.playing = name
        if self.playing is not None and PLAYED & set(reaction.codes):
            self._keep_board(self.playing, event)
            self.playing = None
        for throw in settled:
            for entry in self.waiting:
                if entry[0] is throw.shot:
                    self.waiting.remove(entry)
                    self.photos.write_label(entry[1], entry[2], throw.said, throw.by)
                    break

    def _keep_board(self, name: str, event: ev.Event) -> None:
        picture = self.board_picture() if self.board_picture is not None else None
        referee = self.session.referee
        last = referee.last_play
        if picture is None or last is None:
            return
        seen = referee.seen if isinstance(event, ev.ClockPressed) else None  # the reading this press came with
        record = {
            "throw": name,
            "match": self.match,
            "journal_seq": len(self.session.journal),
            "position": last.after.to_json(),
            "played": last.notation,
            "legal": last.legal,
            "settled_by": event.kind,
            "camera": None
            if seen is None
            else {"white": list(seen.board.white), "black": list(seen.board.black), "sure": seen.sure},
        }
        self.photos.keep_board(name, picture, record)
