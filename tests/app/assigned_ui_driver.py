"""Drives the director's assigned match in the real app and window: it arrives, both players confirm, it starts.

Run by tests/app/test_ui.py under Xvfb: ``python -m tests.app.assigned_ui_driver OUTDIR [--size WxH]``. The match
comes the way the network brings it: the station's own message handler is called on a thread of its own (as
paho's network thread calls it), and the app's main loop takes it from there. What the app showed goes to
OUTDIR/result.json, the panel's screenshots in Turkish and English to OUTDIR/*.png.
"""

from __future__ import annotations

import os
import sys
import threading
from pathlib import Path
from typing import Any, Iterator

os.environ.setdefault("KIVY_WINDOW", "sdl2")
os.environ.setdefault("KIVY_LOG_MODE", "PYTHON")
os.environ.setdefault("KIVY_NO_ARGS", "1")

if __name__ == "__main__" and "--size" in sys.argv:  # e.g. --size 800x480: the Raspberry Pi's 7-inch display
    os.environ["TAVLA_WINDOW"] = sys.argv[sys.argv.index("--size") + 1]

from app.ui.main import configure_window  # noqa: E402

configure_window()

from kivy.core.window import Window  # noqa: E402

from app.net.messages import DirectorMessage  # noqa: E402
from app.referee import events as ev  # noqa: E402
from app.referee.engine import Stage  # noqa: E402
from app.referee.setup import ClockSettings, MatchSetup  # noqa: E402
from app.sim.station import SimStation  # noqa: E402
from app.ui.controller import Controller  # noqa: E402
from app.ui.main import TavlaApp, on_main_loop  # noqa: E402
from tests.app.ui_driver import PIN, find_button, plain, run, shot, tap  # noqa: E402

BOARD = "7"


def match_message(match: str, players: tuple[str, str], length: int, round_name: str) -> bytes:
    """The director's ``match`` message for this board, as the broker delivers it."""
    setup = MatchSetup(
        players=players,
        length=length,
        clock=ClockSettings.for_match(length),
        event="Kadıköy Tavla Kulübü Kupası",
        round=round_name,
        table=BOARD,
    )
    return DirectorMessage("match", id=match, setup={"match": match, **setup.to_dict()}).to_json()


def from_the_network(app: TavlaApp, payload: bytes) -> None:
    """The message taken by the station on another thread, as paho's network thread takes it."""
    station = app.controller.publisher
    assert station is not None
    thread = threading.Thread(target=station.take, args=(station.topics.inbox(BOARD), payload))
    thread.start()
    thread.join(timeout=10)


def both_languages(app: TavlaApp, out: Path, result: dict[str, Any], name: str) -> Iterator[None]:
    """The screen in front shot in Turkish and English, back in Turkish after."""
    size = "x".join(str(n) for n in Window.size)
    for language in ("tr", "en"):
        if app.controller.language != language:
            app.toggle_language()
            yield
            yield
        result["screens"][f"{name}-{language}"] = shot(out, f"{name}-{language}-{size}")
        screen = app.manager.current_screen
        result["texts"][f"{name}-{language}"] = [plain(w.text) for w in screen.walk() if getattr(w, "text", "")]
    app.toggle_language()
    yield
    yield


def script(app: TavlaApp, out: Path, result: dict[str, Any]) -> Iterator[None]:
    result["screens"], result["texts"] = {}, {}
    controller = app.controller
    yield
    app.screens["setup"].pin.text = PIN  # the director's PIN for the day's matches
    assert controller.link_tournament("127.0.0.1:9", BOARD) is None  # no broker answers: the table waits, unharmed
    assert controller.listen() is None
    yield
    from_the_network(app, match_message("main-2-3", ("Ayşe Nur Yılmaz", "Mehmet Öztürk"), 5, "R2"))
    for _ in range(20):  # the main loop takes it, and shows the panel on its next redraw
        yield
        if app.manager.current == "assigned":
            break
    result["current_after_message"] = app.manager.current
    yield  # drawn
    yield from both_languages(app, out, result, "assigned")
    tap(find_button(app.root, "Ben Ayşe Nur Yılmaz"))
    yield
    result["after_one"] = {"current": app.manager.current, "session": controller.session is not None}
    result["screens"]["assigned-one"] = shot(out, "assigned-one-tr")
    tap(find_button(app.root, "Ben Mehmet Öztürk"))
    yield
    yield
    result["current_after_both"] = app.manager.current
    session = controller.session
    assert session is not None, "the match did not start"
    setup = session.setup
    result["setup"] = {
        "players": list(setup.players),
        "length": setup.length,
        "reserve_s": setup.clock.reserve_s,
        "delay_s": setup.clock.delay_s,
        "event": setup.event,
        "round": setup.round,
        "table": setup.table,
    }
    result["header"] = plain(app.screens["play"].score.text)
    from_the_network(app, match_message("main-3-1", ("Ayşe Nur Yılmaz", "Deniz Kaya"), 7, "R3"))
    for _ in range(4):
        yield
    result["after_later"] = {
        "players": list(controller.session.setup.players) if controller.session is not None else None,
        "waiting": controller.waiting.match if controller.waiting is not None else None,
        "info": plain(app.screens["play"].info.text),
    }
    result["screens"]["play"] = shot(out, "play-with-next-tr")
    yield from resign_and_confirm(app)
    yield
    yield
    result["result_status"] = plain(app.screens["result"].status.text)
    result["screens"]["result"] = shot(out, "result-with-next-tr")
    tap(find_button(app.root, "Sıradaki maç"))
    yield
    yield
    offered = controller.assignment()
    result["after_next"] = {"current": app.manager.current, "offered": offered.match if offered else None}


def resign_and_confirm(app: TavlaApp) -> Iterator[None]:
    """The match to its end the short way (the player on roll resigns a single game, 5 times over at most), then
    both players confirm the result sheet with their double taps."""
    controller = app.controller
    session = controller.session
    assert session is not None
    for _ in range(400):
        referee = session.referee
        if referee.match.over:
            break
        if referee.stage is Stage.ROLL and referee.to_act is not None:
            controller.send(ev.ResignationOffered(referee.to_act, 3))
        elif referee.stage is Stage.RESIGNATION and referee.to_act is not None:
            controller.send(ev.ResignationAccepted(referee.to_act))
        elif referee.stage is Stage.QUESTION and referee.to_act is not None:
            controller.send(ev.ThrowConfirmed(referee.to_act))
        else:
            controller.sim_step()
    assert session.referee.match.over, f"the match did not end ({session.referee.stage})"
    app.show("result")
    yield
    for name in session.setup.players:
        confirm = find_button(app.root, f"{name}:")
        tap(confirm)  # the first tap asks
        yield
        tap(confirm)  # the second confirms
        yield


def main(argv: list[str]) -> int:
    out = Path(argv[0])
    out.mkdir(parents=True, exist_ok=True)
    result: dict[str, Any] = {}
    app = TavlaApp(Controller(out, SimStation(), language="tr", post=on_main_loop))
    return run(app, script(app, out, result), out, result, interval=0.3)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
