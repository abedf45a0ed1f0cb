"""The bracket sheet: a printable page of every bracket (or the round robin's table), in Turkish or English.

One HTML document with print CSS (A4 landscape, one bracket a page), so the director prints it from any browser
or pins it on the hall's wall; the page shows the same. Names are escaped: a player's name is never markup.
"""

from __future__ import annotations

from html import escape

from app.net.tournament import BYE, Bracket, Match, Tournament

WORDS = {
    "en": {
        "title": "Brackets",
        Bracket.MAIN.value: "Main draw",
        Bracket.CONSOLATION.value: "Consolation",
        Bracket.LAST_CHANCE.value: "Last chance",
        Bracket.ROUND_ROBIN.value: "Round robin",
        "round": "Round",
        "board": "board",
        "bye": "bye",
        "waiting": "winner of {match}",
        "loser": "loser of {match}",
        "champion": "Winner",
        "standings": "Standings",
        "player": "Player",
        "wins": "Wins",
        "losses": "Losses",
        "points": "Points",
    },
    "tr": {
        "title": "Eşleşmeler",
        Bracket.MAIN.value: "Ana tablo",
        Bracket.CONSOLATION.value: "Teselli tablosu",
        Bracket.LAST_CHANCE.value: "Son şans",
        Bracket.ROUND_ROBIN.value: "Herkes herkesle",
        "round": "Tur",
        "board": "masa",
        "bye": "bay",
        "waiting": "{match} galibi",
        "loser": "{match} mağlubu",
        "champion": "Kazanan",
        "standings": "Sıralama",
        "player": "Oyuncu",
        "wins": "Galibiyet",
        "losses": "Mağlubiyet",
        "points": "Puan",
    },
}

_STYLE = """
body { font-family: sans-serif; margin: 1em; }
h1 { font-size: 1.4em; }
h2 { font-size: 1.15em; page-break-before: always; }
h2:first-of-type { page-break-before: auto; }
.bracket { display: flex; gap: 1.2em; align-items: center; }
.round { display: flex; flex-direction: column; justify-content: space-around; gap: 0.6em; min-width: 11em; }
.round h3 { font-size: 0.9em; margin: 0 0 0.3em; }
.match { border: 1px solid #444; border-radius: 4px; padding: 0.2em 0.4em; font-size: 0.85em; }
.match .id { color: #666; font-size: 0.8em; }
.won { font-weight: bold; } .open { color: #888; font-style: italic; }
table { border-collapse: collapse; } td, th { border: 1px solid #444; padding: 0.2em 0.5em; }
@media print { @page { size: A4 landscape; margin: 10mm; } body { margin: 0; } }
"""


def bracket_sheet(tournament: Tournament, language: str = "en") -> str:
    """The whole sheet as one HTML document."""
    words = WORDS[language]
    parts = [
        "<!doctype html>",
        f'<html lang="{language}"><head><meta charset="utf-8">',
        f"<title>{escape(tournament.rules.event)}: {words['title']}</title><style>{_STYLE}</style></head><body>",
        f"<h1>{escape(tournament.rules.event)}</h1>",
    ]
    for bracket in Bracket:
        matches = [m for m in tournament.matches.values() if m.bracket is bracket]
        if not matches:
            continue
        parts.append(f"<h2>{words[bracket.value]}</h2>")
        if bracket is Bracket.ROUND_ROBIN:
            parts.append(_standings(tournament, words))
        parts.append('<div class="bracket">')
        for number in sorted({m.round for m in matches}):
            parts.append(f'<div class="round"><h3>{words["round"]} {number}</h3>')
            for match in sorted((m for m in matches if m.round == number), key=lambda m: m.id):
                parts.append(_match(tournament, match, words))
            parts.append("</div>")
        champion = tournament.champion(bracket)
        if champion is not None:
            parts.append(f'<div class="round"><h3>{words["champion"]}</h3>')
            parts.append(f'<div class="match won">{escape(tournament.name(champion))}</div></div>')
        parts.append("</div>")
    parts.append("</body></html>")
    return "\n".join(parts)


def _match(tournament: Tournament, match: Match, words: dict[str, str]) -> str:
    outcome = tournament.outcome(match)
    lines = []
    for place, player in zip(match.places, tournament.players_of(match)):
        if player is None:
            source = place.winner_of or place.loser_of or ""
            template = words["waiting"] if place.winner_of else words["loser"]
            label = template.format(match=source)
            lines.append(f'<div class="open">{escape(label)}</div>')
            continue
        name = words["bye"] if player == BYE else tournament.name(player)
        won = outcome is not None and outcome[0] == player and player != BYE
        lines.append(f'<div class="{"won" if won else ""}">{escape(name)}</div>')
    score = f" {match.result.score[0]}-{match.result.score[1]}" if match.result else ""
    board = f" · {words['board']} {escape(match.board)}" if match.board else ""
    return f'<div class="match"><div class="id">{escape(match.id)}{score}{board}</div>{"".join(lines)}</div>'


def _standings(tournament: Tournament, words: dict[str, str]) -> str:
    head = "".join(f"<th>{words[k]}</th>" for k in ("player", "wins", "losses", "points"))
    rows = "".join(
        f"<tr><td>{escape(tournament.name(p))}</td><td>{w}</td><td>{lost}</td><td>{pts}</td></tr>"
        for p, w, lost, pts in tournament.standings()
        if not tournament.players[p].withdrawn
    )
    return f"<h3>{words['standings']}</h3><table><tr>{head}</tr>{rows}</table>"
