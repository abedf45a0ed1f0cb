"""The history screen: every ruling of the match so far, and the exports."""

from __future__ import annotations

from typing import Any

from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.scrollview import ScrollView

from app.ui.sizes import sp
from app.ui.widgets import ScreensApp, TavlaScreen


class HistoryScreen(TavlaScreen):
    def __init__(self, app: ScreensApp, **kwargs: Any) -> None:
        super().__init__(app, name="history", **kwargs)
        self.build()

    def build(self) -> None:
        self.clear_widgets()
        root = BoxLayout(orientation="vertical", padding=dp(16), spacing=dp(10))
        root.add_widget(
            Label(text=f"{self.t('history')} / {self.t('export')}", font_size=sp(34), size_hint_y=None, height=dp(60))
        )
        scroll = ScrollView()
        self.lines = Label(text="", font_size=sp(20), halign="left", valign="top", size_hint_y=None, markup=False)
        self.lines.bind(texture_size=lambda widget, size: setattr(widget, "height", size[1]))
        self.lines.bind(width=lambda widget, width: setattr(widget, "text_size", (width, None)))
        scroll.add_widget(self.lines)
        root.add_widget(scroll)
        self.status = Label(text="", font_size=sp(20), size_hint_y=None, height=dp(60))
        root.add_widget(self.status)
        root.add_widget(self.export_bar(self.export))
        self.add_widget(root)

    def refresh(self) -> None:
        session = self.controller.session
        if session is None:
            return
        rulings = [self.controller.text(r) for r in self.controller.log[-40:]]
        irregular = len(session.referee.irregularities)
        head = f"{self.t('journal')}: {len(session.journal)}  {self.t('irregularities')}: {irregular}"
        self.lines.text = head + "\n\n" + "\n".join(reversed(rulings))

    def export(self) -> None:
        self.status.text = self.export_text()
