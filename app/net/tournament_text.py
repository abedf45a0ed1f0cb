"""The tournament as the terminal and the director's page read it: brackets and standings as plain text, and the
same as JSON for the page (names, places, scores, boards, what can be played next).

The words come from the bracket sheet's (:data:`app.net.bracket_sheet.WORDS`), so the terminal, the page and the
printed sheet name a bracket, a bye or an open place alike in Turkish and in English.
"""

from __future__ import annotations

from typing import Any

from app.net.bracket_sheet import WORDS
from app.net.tournament import BYE, Bracket, Match, Place, Tournament, round_name


def place_label(tournament: Tournament, place: Place, player: str | None, language: str) -> str:
    """A match's place in words: the player, "bye", or "winner of ..." / "loser of ..." while it is open."""
    words = WORDS[language]
    if player is None:
        template = words["waiting"] if place.winner_of else words["loser"]
        return template.format(match=place.winner_of or place.loser_of or "")
    return words["bye"] if player == BYE else tournament.name(player)


def show(tournament: Tournament, language: str = "en") -> str:
    """Every bracket round by round, one match a line, then the standings."""
    words = WORDS[language]
    rules = tournament.rules
    lines = [
        f"{rules.event} ({rules.format.value}, {rules.variant}, "
        f"{'/'.join(str(n) for n in rules.lengths)}; {len(tournament.players)} players)"
    ]
    if not tournament.drawn:
        lines.append("")
        for entrant in tournament.players.values():
            rating = f" {entrant.rating}" if entrant.rating is not None else ""
            gone = " (withdrawn)" if entrant.withdrawn else ""
            lines.append(f"  {entrant.id:>4}  {entrant.name}  {entrant.club}{rating}{gone}")
        return "\n".join(lines) + "\n"
    for bracket in Bracket:
        matches = sorted((m for m in tournament.matches.values() if m.bracket is bracket), key=lambda m: m.id)
        if not matches:
            continue
        lines.append("")
        lines.append(words[bracket.value])
        for match in sorted(matches, key=lambda m: (m.round, m.id)):
            lines.append("  " + _line(tournament, match, language))
        champion = tournament.champion(bracket)
        if champion is not None:
            lines.append(f"  {words['champion']}: {tournament.name(champion)}")
    lines.append("")
    lines.append(words["standings"])
    for rank, (player, wins, losses, points) in enumerate(tournament.standings(), start=1):
        lines.append(f"  {rank:>2}. {tournament.name(player)}  {wins}-{losses}  {points}")
    return "\n".join(lines) + "\n"


def _line(tournament: Tournament, match: Match, language: str) -> str:
    words = WORDS[language]
    names = [place_label(tournament, pl, p, language) for pl, p in zip(match.places, tournament.players_of(match))]
    score = f"  {match.result.score[0]}-{match.result.score[1]}" if match.result else ""
    outcome = tournament.outcome(match)
    winner = f"  -> {tournament.name(outcome[0])}" if outcome and outcome[0] != BYE else ""
    board = f"  [{words['board']} {match.board}]" if match.board else ""
    return f"{match.id:<16} {names[0]} - {names[1]}{score}{winner}{board}"


def page_state(tournament: Tournament) -> dict[str, Any]:
    """What the director's page draws: the players, every match with both languages' place labels, the
    standings, and which matches can be assigned now."""
    playable = {m.id for m in tournament.playable()}
    matches = []
    for match in sorted(tournament.matches.values(), key=lambda m: (list(Bracket).index(m.bracket), m.round, m.id)):
        players = tournament.players_of(match)
        outcome = tournament.outcome(match)
        matches.append(
            {
                "id": match.id,
                "bracket": match.bracket.value,
                "round": match.round,
                "label": round_name(match),
                "board": match.board,
                "places": {
                    language: [place_label(tournament, pl, p, language) for pl, p in zip(match.places, players)]
                    for language in WORDS
                },
                "players": [p if p not in (None, BYE) else None for p in players],
                "score": list(match.result.score) if match.result else None,
                "winner": outcome[0] if outcome and outcome[0] != BYE else None,
                "head": match.result.head if match.result else "",
                "playable": match.id in playable,
            }
        )
    return {
        "event": tournament.rules.event,
        "format": tournament.rules.format.value,
        "drawn": tournament.drawn,
        "finished": tournament.finished(),
        "players": [
            {"id": p.id, "name": p.name, "club": p.club, "rating": p.rating, "withdrawn": p.withdrawn}
            for p in tournament.players.values()
        ],
        "matches": matches,
        "standings": [
            {"player": tournament.name(p), "wins": w, "losses": lost, "points": pts}
            for p, w, lost, pts in tournament.standings()
        ],
        "champions": {b.value: tournament.name(c) for b in Bracket if (c := tournament.champion(b)) is not None},
        "words": WORDS,
    }
