"""What leaves the tablet: the .mat record, the journal as JSON, the result sheet.

- ``.mat`` (Jellyfish, as GNU Backgammon writes it; :mod:`rules.mat`) for
  standard and nackgammon matches. A play the opponent accepted although it
  was illegal has no steps a .mat file can hold, so such a match is refused
  with the reason; its journal holds it.
- The journal as JSON for any variant: the set-up, every entry with its
  time and hashes, and the result, so anyone can check the chain.
- A one-page result sheet for the tournament committee (plain text or
  HTML, Turkish or English): players, every game, the final score, the
  irregularities, the journal's head hash and lines to sign.
- A chouette has no .mat form (the format knows two players and one cube);
  its journal JSON and result sheet carry the per-person ledger.
"""

from __future__ import annotations

import html
import json
from pathlib import Path
from typing import Any

from app.record.dice_counts import faces_line
from app.record.journal import Journal
from app.referee.engine import Referee
from app.referee.i18n import render, word
from app.referee.rulings import Level, Ruling
from rules.errors import MatExportError, RulesError
from rules.mat import write_mat
from rules.position import Color


class ExportError(Exception):
    """The match cannot be written in the format asked for; the message says why and what to use."""


def mat_text(referee: Referee) -> str:
    """The match as a .mat file; ExportError when the format cannot hold it."""
    if referee.chouette is not None:
        raise ExportError(
            "a chouette cannot be written as .mat: the format records two players with one cube, a chouette has"
            " a box, a team and a cube per member. Export the journal as JSON or the result sheet instead."
        )
    if referee.accepted_illegal:
        raise ExportError(
            f"{referee.accepted_illegal} play(s) were accepted as made although illegal: a .mat file can only"
            " hold legal plays. Export the journal as JSON instead."
        )
    try:
        return write_mat(referee.match)
    except MatExportError as error:
        raise ExportError(str(error)) from None
    except RulesError as error:
        raise ExportError(f"the match cannot be written as .mat: {error}") from None


def journal_json(journal: Journal, referee: Referee) -> dict[str, Any]:
    """The whole journal with the result, for any variant; the director PIN's anchor and proofs are left out (with
    the tablet's key, or a stolen backup of it, they would test PIN guesses), and the entries they were in listed."""
    journal.verify()
    entries = []
    redacted = []
    for e in journal.entries():
        payload = redact(e.payload)
        if payload != e.payload:
            redacted.append(e.seq)
        entries.append({"seq": e.seq, "kind": e.kind, "at": e.at, "payload": payload, "prev": e.prev, "hash": e.hash})
    return {
        "format": "tavla-referee-journal",
        "version": 2,
        "head": {"seq": journal.last.seq, "hash": journal.last.hash},
        "sealed_by": journal.sealed_by,
        "redacted": redacted,
        "result": result_summary(referee),
        "entries": entries,
    }


REDACTED = "(left out of exports)"


def redact(payload: dict[str, Any]) -> dict[str, Any]:
    """``payload`` without the director PIN's material: the set-up's anchor, an override's proof."""
    setup = payload.get("setup")
    if isinstance(setup, dict) and setup.get("pin_hash"):
        return dict(payload, setup=dict(setup, pin_hash=REDACTED))
    event = payload.get("event")
    if isinstance(event, dict) and event.get("kind") == "director_override" and event.get("proof"):
        return dict(payload, event=dict(event, proof=REDACTED))
    return payload


def result_summary(referee: Referee) -> dict[str, Any]:
    """Score, winner and every game's result as plain data."""
    if referee.chouette is not None:
        return chouette_summary(referee)
    match = referee.match
    players = match.header.players
    games = []
    for number, (game, before) in enumerate(zip(match.games, match.scores_before()), start=1):
        outcome = game.outcome
        if outcome is None:
            continue
        games.append(
            {
                "game": number,
                "winner": None if outcome.winner is None else players[outcome.winner],
                "kind": outcome.kind.name.lower(),
                "ending": outcome.ending.value,
                "cube": outcome.cube,
                "points": outcome.points,
                "score_before": list(before),
                "crawford": game.cube.crawford,
            }
        )
    result = match.result
    return {
        "players": list(players),
        "variant": referee.setup.variant,
        "length": match.length,
        "score": list(match.score),
        "winner": None if result is None else players[result.winner],
        "end": None if result is None else result.end.value,
        "games": games,
        "irregularities": len(referee.irregularities),
        "confirmed_by": [players[color] for color in referee.confirmed],
        "confirmed_by_both": len(referee.confirmed) == 2,
    }


def result_sheet(referee: Referee, head: str, language: str = "en", as_html: bool = False) -> str:
    """The committee's one-page result sheet."""
    if referee.chouette is not None:
        return chouette_sheet(referee, head, language, as_html)
    summary = result_summary(referee)
    setup = referee.setup
    players = setup.players
    tr = language == "tr"
    title = "Maç sonuç kâğıdı" if tr else "Match result sheet"
    length = (
        f"{summary['length']} " + ("sayılık maç" if tr else "point match")
        if summary["length"]
        else ("paralı oyun" if tr else "money session")
    )
    lines: list[tuple[str, str]] = [
        ("Etkinlik" if tr else "Event", " ".join(x for x in (setup.event, setup.round) if x) or "-"),
        ("Masa" if tr else "Table", setup.table or "-"),
        ("Tarih" if tr else "Date", setup.date or "-"),
        ("Oyun türü" if tr else "Variant", f"{setup.variant}, {length}"),
        ("Beyaz" if tr else "White", players[0]),
        ("Siyah" if tr else "Black", players[1]),
    ]
    header = [
        "#",
        "Kazanan" if tr else "Winner",
        "Sonuç" if tr else "Result",
        "Küp" if tr else "Cube",
        "Sayı" if tr else "Points",
        "Skor" if tr else "Score",
    ]
    rows = []
    for game in summary["games"]:
        white, black = game["score_before"]
        if game["winner"] == players[0]:
            white += game["points"]
        elif game["winner"] == players[1]:
            black += game["points"]
        result = word(game["kind"], language) + word(game["ending"], language)
        if game["crawford"]:
            result += " (Crawford)"
        rows.append(
            [
                str(game["game"]),
                game["winner"] or "-",
                result,
                str(game["cube"]),
                str(game["points"]),
                f"{white}-{black}",
            ]
        )
    final = f"{summary['score'][0]}-{summary['score'][1]}"
    if summary["winner"]:
        end = word(summary["end"], language) if summary["end"] else ""
        verdict = f"Kazanan: {summary['winner']}{end}, {final}" if tr else f"Winner: {summary['winner']}{end}, {final}"
    else:
        verdict = f"Maç sürüyor, skor {final}" if tr else f"Match not finished, score {final}"
    lines.append(("Sonucu onaylayan" if tr else "Result confirmed by", confirmation(summary, tr)))
    sign = ["Beyaz" if tr else "White", "Siyah" if tr else "Black", "Hakem" if tr else "Director"]
    return _sheet(referee, head, language, players, as_html, title, lines, header, rows, verdict, sign)


def confirmation(summary: dict[str, Any], tr: bool) -> str:
    """Who confirmed the result on the tablet, as the sheet says it (both, one, or nobody yet)."""
    names: list[str] = summary["confirmed_by"]
    if summary["confirmed_by_both"]:
        return ("iki oyuncu da: " if tr else "both players: ") + ", ".join(names)
    if names:
        return names[0] + (" (diğer oyuncu onaylamadı)" if tr else " (the other player has not confirmed)")
    return "onaylanmadı" if tr else "not confirmed on the tablet"


def _sheet(
    referee: Referee,
    head: str,
    language: str,
    players: tuple[str, str],
    as_html: bool,
    title: str,
    lines: list[tuple[str, str]],
    header: list[str],
    rows: list[list[str]],
    verdict: str,
    sign: list[str],
) -> str:
    """The one-page layout every result sheet shares (a match's and a chouette's): the facts, the table of
    games, the verdict, the irregularities, the journal's head hash and lines to sign; as text or HTML."""
    tr = language == "tr"
    lines = [*lines, faces_line(referee, language)]
    irregular = [
        render(
            Ruling(
                item.code,
                Level.WARNING,
                {"player": None if item.color is None else item.color.name.lower(), **item.params},
            ),
            language,
            players,
        )
        for item in referee.irregularities
    ]
    journal_line = ("Günlük sonu (kayıt:HMAC-SHA-256)" if tr else "Journal head (entry:HMAC-SHA-256)") + f": {head}"
    irregular_title = "Usulsüzlükler" if tr else "Irregularities"
    if as_html:
        return _html(title, lines, header, rows, verdict, irregular_title, irregular, journal_line, sign)
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]
    text = [title, "=" * len(title), ""]
    text += [f"{key}: {value}" for key, value in lines]
    text += ["", "  ".join(h.ljust(w) for h, w in zip(header, widths))]
    text += ["  ".join(cell.ljust(w) for cell, w in zip(row, widths)) for row in rows]
    text += ["", verdict, "", f"{irregular_title}: {len(irregular)}"]
    text += [f"  - {item}" for item in irregular[:20]]
    if len(irregular) > 20:
        text.append(f"  ... {len(irregular) - 20} more in the journal")
    text += ["", journal_line, ""]
    text += [f"{name}: ____________________" for name in sign]
    return "\n".join(text) + "\n"


def _html(
    title: str,
    lines: list[tuple[str, str]],
    header: list[str],
    rows: list[list[str]],
    verdict: str,
    irregular_title: str,
    irregular: list[str],
    journal_line: str,
    sign: list[str],
) -> str:
    e = html.escape
    parts = [
        "<!DOCTYPE html>",
        '<html><head><meta charset="utf-8">',
        f"<title>{e(title)}</title>",
        "<style>body{font-family:sans-serif;max-width:48em;margin:2em auto}"
        "table{border-collapse:collapse;width:100%}td,th{border:1px solid #888;padding:.2em .5em}"
        ".sign{margin-top:3em;display:flex;justify-content:space-between}.sign span{border-top:1px solid #000;"
        "width:14em;padding-top:.3em}</style></head><body>",
        f"<h1>{e(title)}</h1>",
        "<dl>",
    ]
    parts += [f"<dt>{e(key)}</dt><dd>{e(value)}</dd>" for key, value in lines]
    parts += ["</dl>", "<table><tr>" + "".join(f"<th>{e(h)}</th>" for h in header) + "</tr>"]
    parts += ["<tr>" + "".join(f"<td>{e(cell)}</td>" for cell in row) + "</tr>" for row in rows]
    parts += [
        "</table>",
        f"<p><strong>{e(verdict)}</strong></p>",
        f"<h2>{e(irregular_title)} ({len(irregular)})</h2>",
        "<ul>",
    ]
    parts += [f"<li>{e(item)}</li>" for item in irregular[:20]]
    parts += ["</ul>", f"<p><small>{e(journal_line)}</small></p>", '<div class="sign">']
    parts += [f"<span>{e(name)}</span>" for name in sign]
    parts += ["</div></body></html>"]
    return "\n".join(parts) + "\n"


def write_exports(
    referee: Referee, journal: Journal, folder: str | Path, stem: str = "match", language: str = "en"
) -> dict[str, Path]:
    """Write every export that applies into ``folder``; the .mat only where the format holds the match."""
    target = Path(folder)
    target.mkdir(parents=True, exist_ok=True)
    written: dict[str, Path] = {}
    json_path = target / f"{stem}.journal.json"
    json_path.write_text(json.dumps(journal_json(journal, referee), ensure_ascii=False, indent=1), encoding="utf-8")
    written["json"] = json_path
    for suffix, as_html in (("txt", False), ("html", True)):
        path = target / f"{stem}.sheet.{suffix}"
        path.write_text(result_sheet(referee, str(journal.last), language, as_html), encoding="utf-8")
        written["sheet_" + suffix] = path
    try:
        text = mat_text(referee)
    except ExportError:
        return written
    mat_path = target / f"{stem}.mat"
    mat_path.write_text(text, encoding="utf-8")
    written["mat"] = mat_path
    return written


def chouette_summary(referee: Referee) -> dict[str, Any]:
    """A chouette's games, each member's settlement with the box, and the ledger per person."""
    session = referee.chouette
    assert session is not None
    games = []
    for number, game in enumerate(session.finished, start=1):
        result = game.game.result
        winner = None
        if result is not None and result.winner is not None:
            winner = "box" if result.winner is game.box_color else "team"
        games.append(
            {
                "game": number,
                "box": game.box,
                "members": list(game.members),
                "winner": winner,
                "kind": None if result is None else result.kind.name.lower(),
                "cubes": {member: cube.value for member, cube in zip(game.members, game.cubes)},
                "settled": dict(zip(game.members, game.settled)),
            }
        )
    return {
        "kind": "chouette",
        "players": list(session.players),
        "variant": referee.setup.variant,
        "length": 0,
        "box": session.box,
        "line": list(session.line),
        "ledger": {name: session.balance(name) for name in session.players},
        "games": games,
        "irregularities": len(referee.irregularities),
    }


def chouette_sheet(referee: Referee, head: str, language: str = "en", as_html: bool = False) -> str:
    """The one-page sheet of a chouette: every game's settlement per person and the ledger."""
    summary = chouette_summary(referee)
    setup = referee.setup
    players: list[str] = summary["players"]
    tr = language == "tr"
    title = "Şuet sonuç kâğıdı" if tr else "Chouette result sheet"
    lines: list[tuple[str, str]] = [
        ("Etkinlik" if tr else "Event", " ".join(x for x in (setup.event, setup.round) if x) or "-"),
        ("Masa" if tr else "Table", setup.table or "-"),
        ("Tarih" if tr else "Date", setup.date or "-"),
        (
            "Oyun türü" if tr else "Variant",
            f"{setup.variant}, " + (f"şuet, {len(players)} oyuncu" if tr else f"chouette of {len(players)}"),
        ),
        ("Kutu" if tr else "Box", summary["box"]),
        ("Sıra" if tr else "Line", ", ".join(summary["line"])),
    ]
    header = ["#", "Kutu" if tr else "Box", "Sonuç" if tr else "Result", *players]
    rows = []
    for game in summary["games"]:
        changes = {name: 0 for name in players}
        for member, points in game["settled"].items():
            changes[member] += points
            changes[game["box"]] -= points
        if game["winner"] is None:
            result = "küp reddi" if tr else "doubles dropped"
        else:
            side = ("kutu" if tr else "box") if game["winner"] == "box" else ("takım" if tr else "team")
            result = f"{side}: {word(game['kind'], language)}"
        rows.append([str(game["game"]), game["box"], result, *(f"{changes[name]:+d}" for name in players)])
    rows.append(["", "", "Hesap" if tr else "Ledger", *(f"{summary['ledger'][name]:+d}" for name in players)])
    total = sum(summary["ledger"].values())
    verdict = (
        f"{len(summary['games'])} oyun; hesap toplamı {total}"
        if tr
        else f"{len(summary['games'])} game(s); the ledger sums to {total}"
    )
    sign = [*players, "Hakem" if tr else "Director"]
    return _sheet(referee, head, language, setup.players, as_html, title, lines, header, rows, verdict, sign)


__all__ = [
    "Color",
    "ExportError",
    "chouette_sheet",
    "chouette_summary",
    "journal_json",
    "mat_text",
    "result_sheet",
    "result_summary",
    "write_exports",
]
