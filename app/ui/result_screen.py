"""The result sheet at the end of a match: the result, the facts of the event and the journal's head, and a
deliberate tap per player to confirm it (journaled, so the exports say who confirmed)."""

from __future__ import annotations

from functools import partial
from typing import Any

from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.utils import escape_markup

from app.record.export import result_summary
from app.referee import events as ev
from app.referee.i18n import word
from app.referee.rulings import Level
from app.ui.labels import variant_label
from app.ui.sizes import sp
from app.ui.widgets import Banner, ScreensApp, TavlaScreen, button, confirm_button, portrait, target
from rules.position import Color


class ResultScreen(TavlaScreen):
    def __init__(self, app: ScreensApp, **kwargs: Any) -> None:
        super().__init__(app, name="result", **kwargs)
        self.build()

    def build(self) -> None:
        self.clear_widgets()
        self.shown: tuple[int, tuple[Color, ...]] | None = None
        root = BoxLayout(orientation="vertical", padding=dp(20), spacing=dp(10))
        root.add_widget(
            Label(text=self.t("result_sheet"), font_size=sp(36), bold=True, size_hint_y=None, height=dp(56))
        )
        self.verdict = Label(text="", markup=True, font_size=sp(34), size_hint_y=None, height=dp(70))
        root.add_widget(self.verdict)
        upright = portrait()  # a tablet held upright: the facts above the games, one button a row
        middle = BoxLayout(spacing=dp(20), orientation="vertical" if upright else "horizontal")
        self.facts = Label(text="", markup=True, font_size=sp(22), halign="left", valign="top")
        self.games = Label(text="", markup=True, font_size=sp(22), halign="left", valign="top")
        for label in (self.facts, self.games):
            label.bind(size=lambda widget, *_: setattr(widget, "text_size", widget.size))
            middle.add_widget(label)
        root.add_widget(middle)
        self.confirms = BoxLayout(spacing=dp(16), size_hint_y=None, height=dp(96))
        if upright:
            self.confirms.orientation, self.confirms.height = "vertical", 2 * dp(96) + dp(16)
        root.add_widget(self.confirms)
        self.status = Banner(size_hint_y=None, height=dp(96) if upright else dp(72))  # upright: two lines
        root.add_widget(self.status)
        bar = self.export_bar(self.export, upright)
        self.next_match = button(self.t("next_match"), lambda: self.app.show("assigned"))
        self.next_match.disabled = True  # until the director assigns this table its next match
        bar.add_widget(self.next_match)
        if upright:  # one button a row: three rows
            bar.height = 3 * target() + 2 * bar.spacing
        root.add_widget(bar)
        self.add_widget(root)

    def refresh(self) -> None:
        session = self.controller.session
        if session is None or session.referee.chouette is not None:
            return
        self.next_match.disabled = self.controller.assignment() is None
        referee = session.referee
        key = (referee.events, referee.confirmed)
        if key == self.shown:
            if len(referee.confirmed) == 2:
                self.show_delivery()  # the network may carry the result meanwhile
            return  # the confirm buttons stay put while nothing changed (a tap never lands on a new one)
        self.shown = key
        summary = result_summary(referee)
        setup = referee.setup
        language = self.controller.language
        white, black = (escape_markup(name) for name in setup.players)
        score = f"{summary['score'][0]} - {summary['score'][1]}"
        self.verdict.text = f"[b]{white}  {score}  {black}[/b]"
        length = self.t("match_to").format(length=summary["length"]) if summary["length"] else self.t("money")
        winner = summary["winner"]
        facts = [
            (self.t("kind"), f"{variant_label(setup.variant, language)}, {length}"),
            (self.t("event"), " / ".join(x for x in (setup.event, setup.round) if x) or "-"),
            (self.t("table"), setup.table or "-"),
            (self.t("date"), setup.date or "-"),
            (self.t("irregularities"), str(summary["irregularities"])),
            (self.t("journal"), f"{session.journal.last.seq}: {session.journal.head[:24]}..."),
        ]
        if winner:
            end = word(summary["end"], language) if summary["end"] else ""
            facts.insert(0, (self.t("winner"), f"{escape_markup(winner)}{end}"))
        self.facts.text = "\n".join(f"[b]{key}:[/b] {escape_markup(value)}" for key, value in facts)
        rows = [f"[b]{self.t('games')}[/b]"]
        for game in summary["games"][-9:]:  # the last games; the exported sheet lists every one
            kind = word(game["kind"], language) + word(game["ending"], language)
            after = list(game["score_before"])
            if game["winner"] in setup.players:
                after[setup.players.index(game["winner"])] += game["points"]
            rows.append(
                f"{game['game']}. {escape_markup(game['winner'] or '-')}: {kind}, {self.t('cube')} {game['cube']},"
                f" +{game['points']}  ({after[0]}-{after[1]})"
            )
        self.games.text = "\n".join(rows)
        self.confirms.clear_widgets()
        for color, name in zip(Color, setup.players):
            if color in referee.confirmed:
                done = button(self.t("result_confirmed_by").format(player=name), lambda: None, height=dp(96))
                done.disabled = True
                self.confirms.add_widget(done)
            else:
                self.confirms.add_widget(
                    confirm_button(
                        self.t("confirm_result").format(player=name),
                        self.t("sure"),
                        partial(self.confirm, color),
                        height=dp(96),
                        font_size=sp(24),
                    )
                )
        if len(referee.confirmed) == 2:
            self.show_delivery()
        elif not referee.match.over:
            self.status.set(self.t("result_open"), Level.WARNING)
        else:
            self.status.set(self.t("confirm_each"), Level.INFO)

    def show_delivery(self) -> None:
        """Both confirmed: whether the result reached the director (a tournament table), and the next match
        assigned to this table if one waits ("Next match" shows it to its players)."""
        delivery = self.controller.result_delivery()
        said = {"held": "result_held", "sending": "result_sending", "waiting": "result_waiting_link"}
        lines = [self.t("both_confirmed") + "."]
        if delivery:
            lines.append(self.t(said[delivery]))
        waiting = self.controller.assignment() or self.controller.waiting
        if waiting is not None:
            white, black = waiting.setup.players
            lines.append(self.t("next_waiting").format(white=white, black=black, round=waiting.setup.round or "-"))
        text = "  ".join(lines)
        level = Level.WARNING if delivery in ("sending", "waiting") else Level.OK
        if (self.status.text, self.status.level) != (text, level):
            self.status.set(text, level)

    def confirm(self, color: Color) -> None:
        reaction = self.controller.send(ev.ResultConfirmed(color))
        self.refresh()
        if reaction.rulings and reaction.rulings[0].level is Level.WARNING:
            self.status.set(self.controller.text(reaction.rulings[0]), Level.WARNING)

    def export(self) -> None:
        self.status.set(self.export_text(), Level.OK)
