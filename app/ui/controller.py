"""What the screens do, without Kivy: start a match, send taps, run the clock, the table and the views.

The screens only show :attr:`Controller.session`'s referee and call these
methods; every tap becomes an event through the journal like any device
message. The table's devices and camera are one :class:`app.table.table.Table`,
live or simulated, chosen by the door (``python -m app [--sim]``): the
controller never knows which.
"""

from __future__ import annotations

import datetime
from dataclasses import replace
from pathlib import Path
from typing import Any

from app.net.join import JoinCodeError, decode, read_qr
from app.net.link import DEFAULT_TOURNAMENT, TournamentLink
from app.net.messages import DirectorMessage
from app.net.station import Assignment, Station, assignment_of
from app.record.dice_counts import thrown
from app.record.export import ExportError, write_exports
from app.record.journal import JournalError
from app.record.library import MatchLibrary
from app.record.session import Session, pin_record
from app.referee import events as ev
from app.referee.i18n import render
from app.referee.pin import check_pin_text
from app.referee.rulings import Level, Reaction, Ruling
from app.referee.setup import ClockSettings, MatchSetup, Mode
from app.table.camera import LiveCamera, Post
from app.table.dice import Image, Shot
from app.table.fairness import fairness_image, write_fairness_picture
from app.table.learning import KeepLearning, PracticeThrow
from app.table.table import Table
from app.table.throw_photos import ThrowPhotos
from app.table.view import check_camera, corners_text, markers_calibration
from app.table.why import Why
from app.ui.camera_choice import CameraChoice
from app.ui.kept_assignment import FILE, STARTED_KEPT, KeptAssignments, load, save
from app.ui.labels import label, why_text
from device import messages as dm
from rules.position import Color
from vision import Calibration, CalibrationError
from vision.setupcheck import SetupReport


class Controller:
    def __init__(
        self,
        folder: Path,
        table: Table,
        language: str = "tr",
        journal: Path | None = None,
        post: Post | None = None,
        library: MatchLibrary | None = None,
        keep_photos: bool = True,
    ) -> None:
        self.folder = folder
        self.library = library
        """Where the station keeps its matches (the app's data folder), for resuming and listing them."""
        self.language = language
        self.table = table
        """The table's devices and camera, live or simulated."""
        table.notify = self._notify
        self.journal_path = journal
        self.session: Session | None = None
        self.banner: Ruling | None = None
        self.log: list[Ruling] = []
        self.message = ""
        self.match_dice = table.match_dice
        """The dice reader and the dice set it learns."""
        self.practice: PracticeThrow | None = None
        """The learning step's settled throw waiting for the players to say what each die shows."""
        self.practiced = 0
        """Throws confirmed in this learning step."""
        self.keep_learning: KeepLearning | None = None
        folder_of_photos = folder / ("throws_simulated" if table.simulated else "throws")  # rendered apart from real
        self.throw_photos = ThrowPhotos(folder_of_photos, self._photos_stopped) if keep_photos else None
        self.photos_on = keep_photos
        """The set-up screen's switch: keep each throw's picture in this match (on unless the players say no)."""
        """Every throw's picture kept with what its dice showed: a real dice set grown at this table (None: the
        station keeps no pictures, ``python -m app --no-throw-photos``)."""
        self.taps: list[tuple[float, float]] = []
        """Corners tapped on the set-up screen's camera picture (image pixels)."""
        self.calibration: Calibration | None = None
        self.post = post
        self.tournament: TournamentLink | None = None
        """The tournament's broker and this board (set on the set-up screen), or None: no network."""
        self.publisher: Station | None = None
        self.director_said: list[str] = []
        """The director's messages to this table, newest last."""
        self.kept_at = (library.root.parent if library is not None else folder) / FILE
        """The data folder's file that keeps :attr:`offered` and :attr:`waiting` over a restart."""
        kept = load(self.kept_at)
        self.offered: Assignment | None = kept.offered
        """The match the director assigned, shown for its two players to confirm (None: none before them)."""
        self.waiting: Assignment | None = kept.waiting
        """An assignment that came while a match was being played: offered once that match's result is confirmed."""
        self.started_ids: list[str] = kept.started
        """The director's message ids of the assignments started here (one sent again is not offered again)."""
        self.claimed: set[Color] = set()
        """The players of :attr:`offered` who tapped "I am <name>"."""
        self.station_pin = ""
        """The director's PIN typed on the set-up screen, offered for the assigned matches of the day."""
        self.agreed_seq = 0
        """The journal entry where both players confirmed the result (0: not yet in this session)."""
        self._linked: TournamentLink | None = None
        """The link :attr:`publisher` was started with."""
        self.cameras: CameraChoice | None = None
        """The cameras found at the start and the one read, when the door looked for them (None: named or sim)."""

    @property
    def sim(self) -> bool:
        """Simulated players sit at the table (the screens offer "Sim >")."""
        return self.table.simulated

    @property
    def live_camera(self) -> LiveCamera | None:
        """The table's reader of a physical camera, video or image folder (None without one)."""
        return self.table.live_camera

    def _notify(self, message: str) -> None:
        self.message = message

    def _photos_stopped(self, why: Why) -> None:
        """Throw photos can no longer be kept: said on the play screen's banner and in the history, once."""
        ruling = Ruling("photos_not_kept", Level.WARNING, {"why": why_text(why, self.language)})
        self.banner = ruling
        self.log.append(ruling)

    @property
    def photos_possible(self) -> bool:
        """Whether this station keeps throw photos at all (``python -m app --no-throw-photos``: never)."""
        return self.throw_photos is not None

    def photos_warning(self) -> str:
        """Why throw photos are not being kept now, in the screen's language ("" while they are)."""
        if self.throw_photos is None or self.throw_photos.problem is None:
            return ""
        why = why_text(self.throw_photos.problem, self.language)
        return self.text(Ruling("photos_not_kept", Level.WARNING, {"why": why}))

    # ------------------------------------------------------------ set-up

    def devices_found(self) -> dict[str, str]:
        """What each device is now: the simulators, a device that answered (with its serial), or the fall-back."""
        return self.table.devices_found()

    def use_camera(self, spec: str | None) -> str | None:
        """Read the dice from camera ``spec`` (None: no camera); the corners tapped on the camera read before
        are forgotten. Why not, or None."""
        try:
            self.table.use_camera(spec)
        except ValueError as error:
            return str(error)
        self.taps = []
        self.calibration = None
        return None

    def camera_picture(self) -> Any:
        """The camera's view of the board for calibration (None without a camera)."""
        return self.table.picture(wait_s=3.0)

    def tap_corner(self, x: float, y: float) -> str | None:
        """A tap on the camera picture (image pixels); after the fourth, the calibration (or why it failed)."""
        if not self.table.has_camera():
            return "no camera"
        if len(self.taps) == 4:
            self.taps = []
        self.taps.append((x, y))
        if len(self.taps) < 4:
            return None
        try:
            calibration = Calibration.from_corners(self.taps)
        except CalibrationError as error:
            self.taps = []
            return str(error)
        self.calibration = calibration
        self.table.use_calibration(calibration, in_match=False)
        return None

    def live_picture(self) -> Any:
        """The camera's picture now, without waiting (the simulated camera: the board between throws)."""
        return self.table.picture()

    def board_calibration(self) -> Calibration | None:
        """The board the throws are read on now: set again by the director, tapped, or found by the camera."""
        if self.calibration is not None:
            return self.calibration
        return self.table.camera_calibration()

    def check_camera(self) -> SetupReport:
        """The set-up check on the camera's latest picture, with the board as tapped (or looked for)."""
        return check_camera(self.camera_picture(), self.board_calibration(), self.table.frame_rate())

    def find_markers(self) -> Calibration | str:
        """The board from its printed corner markers on the camera's picture now, or why not."""
        picture = self.camera_picture()
        if picture is None:
            return "no camera"
        try:
            return markers_calibration(picture)
        except CalibrationError as error:
            return str(error)

    def recalibrate(self, pin: str, calibration: Calibration, how: str = "taps") -> Reaction:
        """The director's new board corners (tapped, or ``how`` "markers"), journaled behind the PIN; once the
        referee accepts them the camera reads every later throw on them. The match goes on."""
        assert self.session is not None
        before = self.session.referee.calibration
        reaction = self.director(pin, "calibrate", f"{corners_text(calibration)} {how}")
        corners = self.session.referee.calibration
        if corners is not None and corners != before:
            self._use_calibration(Calibration.from_corners(corners))
        return reaction

    def _use_calibration(self, calibration: Calibration) -> None:
        self.calibration = calibration
        self.table.use_calibration(calibration, in_match=self.session is not None)

    def pin_problem(self, mode: Mode, pin: str, resumed: bool = False) -> str | None:
        """Why the director's PIN typed cannot be used, in the set-up's language (a tournament match needs one
        unless it resumes with its own); None when it can."""
        if mode is Mode.TOURNAMENT and not pin and not resumed:
            return label("no_pin", self.language)
        if pin:
            try:
                check_pin_text(pin)
            except ValueError:
                return label("bad_pin", self.language)
        return None

    def start(
        self,
        players: tuple[str, str],
        variant: str,
        length: int,
        mode: Mode,
        reserve_min: int,
        delay_s: int,
        pin: str,
        chouette: tuple[str, ...] = (),
        event: str = "",
        round_name: str = "",
        table: str = "",
    ) -> str | None:
        """Start (or resume) the match, or a chouette of the players named (the box first); an error
        message for the set-up screen, or None."""
        path = self.journal_path or self.folder / "match.sqlite"
        problem = self.pin_problem(mode, pin, resumed=path.exists())  # a resumed match keeps its own PIN
        if problem:
            return problem
        try:
            setup = MatchSetup(
                players=players,
                variant=variant,
                length=length,
                mode=mode,
                clock=ClockSettings(reserve_min * 60, delay_s),
                devices=self.table.devices(),
                pin_hash=pin_record(pin) if pin else "",
                chouette=chouette,
                event=event.strip(),
                round=round_name.strip(),
                table=table.strip(),
                date=datetime.date.today().isoformat(),
                dice_profile=self.match_dice.name,
            )
        except ValueError as error:
            return str(error)
        return self._begin(path, setup, pin)

    def _begin(self, path: Path, setup: MatchSetup, pin: str) -> str | None:
        """Open (or resume) the journal at ``path`` with ``setup`` and serve it: the table, the dice reader, the
        throw photos and the tournament's publisher."""
        try:
            session = Session.resume_or_create(path, setup)
        except (ValueError, JournalError) as error:
            return str(error)
        self.session, self.agreed_seq = session, 0
        if session.referee.calibration is not None:  # the director calibrated again: a resumed match keeps it
            self._use_calibration(Calibration.from_corners(session.referee.calibration))
        self.session.listeners.append(self._on_reaction)
        self._keep_learning(session)
        if self.throw_photos is not None and self.photos_on:
            board = None if self.table.simulated else self.table.picture  # the simulated dice scene has no checkers
            session.listeners.append(self.throw_photos.listener(session, lambda: self.last_shot, board))
        self._publish(session)
        return self.table.start(session, self.calibration, pin)

    # ------------------------------------------------------ the match dice

    def learn_dice(self, name: str) -> str | None:
        """Begin (or go on) learning the dice set ``name``: the camera's settled throws wait for the players to
        confirm them. Why not, for the screen."""
        problem = self.match_dice.use(name, relearn=True)
        if problem is not None:
            return why_text(problem, self.language)
        self.practice, self.practiced = None, 0
        return self.table.learn_dice(self.calibration, self._practice_throw)

    def _practice_throw(self, throw: PracticeThrow) -> None:
        if self.session is None:
            self.practice = throw

    def sim_practice(self) -> None:
        """The simulated referee throws the match dice once (``--sim``: the learning step's next throw)."""
        self.table.practice_throw()

    def confirm_practice(self, values: list[int | None]) -> str | None:
        """The players said what each die found shows (None: not a die): learned at once and kept."""
        if self.practice is None:
            return None
        practice = self.practice
        problem = self.match_dice.confirm(practice.image, practice.dice, values, practice.not_dice)
        if problem is None:
            if self.throw_photos is not None and self.photos_on:
                self.throw_photos.keep_practice(
                    self.match_dice.name, practice.image, practice.dice, values, practice.not_dice
                )
            self.practice = None
            self.practiced += 1
            return None
        return why_text(problem, self.language)

    def skip_practice(self) -> None:
        """A throw not worth confirming (nothing found, the dice still rolling): the next one, please."""
        self.practice = None

    def _keep_learning(self, session: Session) -> None:
        """The match's dice set (a resumed match: its own) learns every throw people confirm or correct."""
        wanted = session.setup.dice_profile
        if wanted and wanted != self.match_dice.name and self.match_dice.use(wanted) is not None:
            return
        if self.match_dice.profile is None:
            return
        self.keep_learning = KeepLearning(session, self.match_dice, lambda: self.last_shot)
        session.listeners.append(self.keep_learning)

    # ------------------------------------------------------------- events

    def resume(self, journal: Path) -> str | None:
        """Go on with a match kept in ``journal`` (the set-up screen's "resume the last match")."""
        self.journal_path, self.folder = journal, journal.parent
        return self.start(("White", "Black"), "backgammon", 5, Mode.CASUAL, 10, 12, "")  # the journal's set-up rules

    def link_tournament(
        self,
        broker: str,
        board: str,
        password: str = "",
        ca: str = "",
        tournament: str = DEFAULT_TOURNAMENT,
        join_code: str = "",
    ) -> str | None:
        """The tournament's link from the set-up screen; a reason if it cannot work. A join code holds it all
        (its CA is kept in the data folder); otherwise the broker, board, password, CA file and prefix by hand.
        No code and no broker: no network (the station referees alone, as always); the board number then only
        names the table on the result sheet."""
        if join_code.strip():
            try:
                self.tournament = TournamentLink.from_join_code(join_code, self.folder)
            except JoinCodeError as error:
                self.tournament = None
                return error.text(self.language)
            except (OSError, ValueError) as error:
                self.tournament = None
                return str(error)
            return None
        if not broker.strip():
            self.tournament = None
            return None
        try:
            prefix = tournament.strip() or DEFAULT_TOURNAMENT
            self.tournament = TournamentLink(broker.strip(), board.strip(), password, ca.strip(), prefix)
        except ValueError as error:
            self.tournament = None
            return str(error)
        return None

    def scan_join_code(self) -> tuple[str, str | None]:
        """A join code's QR read from the camera's latest picture: (the code, None), or ("", why not)."""
        try:
            text = read_qr(self.table.picture(wait_s=1.0)) if self.table.has_camera() else None
        except ImportError:
            text = None
        if text is None:
            tr = "Kamerada katılım kodu (QR) okunamadı: kodu kameranın önüne tutun ya da yazın."
            en = "No join code (QR) read in the camera picture: hold it before the camera, or type it."
            return "", tr if self.language == "tr" else en
        try:
            decode(text)
        except JoinCodeError as error:  # a QR, but not a join code that can work: said now, not at "start"
            return "", error.text(self.language)
        return text, None

    def _publish(self, session: Session) -> None:
        """Publish the journal to the tournament when linked; the match goes on whatever the network does."""
        if self.tournament is None:
            return
        if self.publisher is not None and self._linked == self.tournament:
            try:
                self.publisher.follow(session.journal.path)
            except JournalError as error:
                self.message = f"{self.tournament.broker}: {error}"
                return
        else:
            self._connect(session.journal.path)
        publisher = self.publisher
        if publisher is not None:
            session.listeners.append(lambda event, reaction: publisher.notify())

    def listen(self) -> str | None:
        """Join the tournament now, before a match, so the director's assignment reaches this table; a reason if
        the link cannot work (no link set: nothing to do)."""
        if self.tournament is None or (self.publisher is not None and self._linked == self.tournament):
            return None
        self._connect(self.session.journal.path if self.session is not None else None)
        return self.message if self.publisher is None else None

    def _connect(self, path: Path | None) -> None:
        """Start the publisher for :attr:`tournament` (a link changed on the set-up screen replaces the old one);
        the director's messages come back to the main loop through :attr:`post`."""
        assert self.tournament is not None
        if self.publisher is not None:
            self.publisher.stop()
            self.publisher = None
        post = self.post or (lambda task: task())

        def deliver(message: DirectorMessage) -> None:
            assignment = assignment_of(message) if message.kind == "match" else None
            if assignment is not None:
                post(lambda: self.assignment_came(assignment))
            else:
                post(lambda: self.director_said.append(message.text or message.kind))

        def journal(event: ev.Event) -> None:
            if self.session is not None:
                self.session.submit(event)

        def submit(event: ev.Event) -> None:  # a time correction, journaled on the main thread like any event
            post(lambda: journal(event))

        try:
            self.publisher = self.tournament.start(path, deliver, submit)
        except (OSError, ValueError, JournalError) as error:
            self.message = f"{self.tournament.broker}: {error}"
            return
        self._linked = self.tournament

    # ------------------------------------------------------ the assigned match

    def assignment_came(self, assignment: Assignment) -> None:
        """The director's match for this table (on the main loop): offered to the players at once, replacing one
        they have not both confirmed; while a match is played it waits for that match's confirmed result. One
        already here (the director sends it again whenever the board comes online) changes nothing."""
        if KeptAssignments(self.offered, self.waiting, self.started_ids).knows(assignment):
            return
        if self.playing():
            self.waiting = assignment
        else:
            self.offered, self.claimed = assignment, set()
        self._keep()

    def _keep(self) -> None:
        """The assignments held, into the data folder (shown again after a restart)."""
        save(self.kept_at, KeptAssignments(self.offered, self.waiting, self.started_ids[-STARTED_KEPT:]))

    def playing(self) -> bool:
        """A match is on this table whose result both players have not confirmed yet."""
        session = self.session
        return session is not None and len(session.referee.confirmed) < 2

    def assignment(self) -> Assignment | None:
        """The assigned match for the players to confirm now (a waiting one once the match before is confirmed);
        None while a match is played or none was assigned."""
        if self.playing():
            return None
        if self.waiting is not None:
            self.offered, self.waiting, self.claimed = self.waiting, None, set()
            self._keep()
        return self.offered

    def claim(self, color: Color, pin: str) -> str | None:
        """A player's "I am <name>" on the assigned match; the second starts it with exactly the director's
        set-up (``pin`` is the director's PIN on this tablet). Why not, for the panel."""
        assignment = self.assignment()
        if assignment is None:
            return None
        problem = self.pin_problem(assignment.setup.mode, pin)
        if problem:
            return problem
        self.claimed.add(color)
        if len(self.claimed) < 2:
            return None
        problem = self.start_assigned(assignment, pin)
        if problem is not None:
            self.claimed = set()
            return problem
        self.offered, self.claimed = None, set()
        if assignment.message:
            self.started_ids.append(assignment.message)
        self._keep()
        return None

    def start_assigned(self, assignment: Assignment, pin: str) -> str | None:
        """Start ``assignment``'s match in a journal of its own: the players, length, clock, variant, event, round
        and board as the director sent them; this table's devices, PIN and dice set."""
        try:
            setup = replace(
                assignment.setup,
                devices=self.table.devices(),
                pin_hash=pin_record(pin) if pin else "",
                date=assignment.setup.date or datetime.date.today().isoformat(),
                dice_profile=self.match_dice.name,
            )
        except ValueError as error:
            return str(error)
        path = self.journal_path or self.folder / "match.sqlite"
        if self.session is not None or path.exists():  # the table's next match: a new journal, a new folder
            folder = self.library.new_folder() if self.library is not None else _fresh(self.folder / "matches")
            path = folder / "match.sqlite"
        previous, banner, log = self.session, self.banner, self.log
        self.banner, self.log = None, []  # the rulings of the match before stay in its journal
        problem = self._begin(path, setup, pin)
        if problem is not None:
            self.banner, self.log = banner, log
            return problem
        self.journal_path, self.folder = path, path.parent
        if previous is not None:
            previous.close()
        return None

    def result_delivery(self) -> str:
        """Where the confirmed result is on its way to the director: "held" (the director acknowledged the journal
        up to both confirmations), "sending" (connected, not yet acknowledged), "waiting" (no connection now:
        sent when the link is back), "" (no confirmed result, or no tournament link)."""
        session, publisher = self.session, self.publisher
        if session is None or publisher is None or len(session.referee.confirmed) < 2:
            return ""
        if publisher.journal_path != session.journal.path:
            return "waiting"
        if publisher.acked >= (self.agreed_seq or session.journal.last.seq):
            return "held"
        return "sending" if publisher.connected else "waiting"

    def send(self, event: ev.Event) -> Reaction:
        assert self.session is not None
        return self.session.submit(event)

    def asked_plays(self) -> tuple[str, ...]:
        """The candidate plays the camera's reading left to the players, nearest first (none: no play is asked)."""
        asked = self.session.referee.asked if self.session is not None else None
        return asked.options if asked is not None else ()

    def choose_play(self, text: str) -> Reaction:
        """A tap on a candidate play: sent as the same play typed in the entry, through the same journal."""
        return self.send(ev.ManualPlay(text))

    def _on_reaction(self, event: ev.Event, reaction: Reaction) -> None:
        self.log += reaction.rulings
        if any(ruling.code == "result_agreed" for ruling in reaction.rulings) and self.session is not None:
            self.agreed_seq = self.session.journal.last.seq
        if reaction.rulings:  # the banner shows the gravest ruling: a broken rule outranks the question after it
            self.banner = max(reaction.rulings, key=lambda ruling: _GRAVITY[ruling.level])

    def press_clock(self, color: int) -> None:
        """A tap on a player's half of the on-screen clock (the simulated clock's button with --sim)."""
        self.table.press_clock(Color(color))

    def pump(self) -> None:
        """Hand the clock's and devices' messages to the referee now (the app's main loop pumps the table too)."""
        self.table.pump()

    def director(self, pin: str, command: str, argument: str = "") -> Reaction:
        assert self.session is not None
        return self.session.director(pin, command, argument)

    def sim_step(self, limit: int = 400) -> None:
        """Let the simulated players act until the referee rules on a throw, a play or the cube."""
        problem = self.table.step(limit)
        if problem:
            self.message = problem

    @property
    def last_shot(self) -> Shot | None:
        """The camera's last throw: the picture, the dice read, the verdict."""
        return self.table.last_shot

    # -------------------------------------------------------------- views

    def text(self, ruling: Ruling) -> str:
        """A ruling in the screen's language with the players' names (before the match: a station's own word)."""
        if self.session is None:
            return render(ruling, self.language)
        return render(ruling, self.language, self.session.setup.players)

    def banner_level(self) -> Level:
        return self.banner.level if self.banner is not None else Level.INFO

    def times_ms(self) -> tuple[int, int]:
        """The times the clock shows (the simulated or physical clock's own report when there is one)."""
        report = self.clock_report()
        return report.white_ms, report.black_ms

    def clock_report(self) -> dm.TimeReport:
        """The clock's latest report: times, the side running and the delay left (real time also with --sim)."""
        return self.table.clock_report()

    def export(self) -> dict[str, Any]:
        assert self.session is not None
        target = self.folder / "export"
        written = write_exports(self.session.referee, self.session.journal, target, language=self.language)
        try:
            from app.record.export import mat_text

            mat_text(self.session.referee)
            self.message = ""
        except ExportError as error:
            self.message = str(error)
        try:  # the fairness picture beside the result sheet
            written["fairness"] = write_fairness_picture(self.session.referee, target / "fairness.png")
        except OSError as error:
            self.message = str(error)
        return {key: str(path) for key, path in written.items()}

    def fairness_picture(self) -> Image | None:
        """The match's dice against the band a fair die stays in (None before a match), without vision's
        English heading: the screen says it in the station's language (``fairness_throws``)."""
        return fairness_image(self.session.referee, titled=False) if self.session is not None else None

    def fairness_throws(self) -> int:
        """How many throws the fairness picture counts."""
        return len(thrown(self.session.referee)) if self.session is not None else 0

    def corners_calibration(self, corners: list[tuple[float, float]]) -> Calibration | str:
        """The board from four corners tapped on the camera's picture, or why they do not make one."""
        try:
            return Calibration.from_corners(corners)
        except CalibrationError as error:
            return str(error)

    def close(self) -> None:
        if self.publisher is not None:
            self.publisher.stop()
            self.publisher = None
        self.table.close()
        if self.session is not None:
            self.session.close()


def _fresh(root: Path) -> Path:
    """A new numbered folder under ``root`` (a station without a match library)."""
    root.mkdir(parents=True, exist_ok=True)
    n = 1
    while (root / str(n)).exists():
        n += 1
    (root / str(n)).mkdir()
    return root / str(n)


_GRAVITY = {Level.INFO: 0, Level.OK: 1, Level.WARNING: 2, Level.ERROR: 3}
