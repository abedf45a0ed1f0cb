"""How often each face came up in the throws of a match: the counts the result sheet shows and the fairness
picture draws.

The throws counted are the dice each turn was played with (the opening throw's two dice included), in every
game of the match or the chouette so far. The referee orders a throw's dice itself, so the two dice cannot
be told apart: their faces are counted together, two a throw.
"""

from __future__ import annotations

from app.referee.engine import Referee

FACES = (1, 2, 3, 4, 5, 6)


def thrown(referee: Referee) -> list[tuple[int, int]]:
    """Every throw played so far, in order."""
    if referee.chouette is not None:
        games = [game.game for game in (*referee.chouette.finished, referee.chouette.game)]
    else:
        games = [game.game for game in referee.match.games]
    return [(turn.dice[0], turn.dice[1]) for game in games for turn in game.turns if not turn.passed]


def face_counts(throws: list[tuple[int, int]]) -> tuple[int, ...]:
    """How often faces 1 to 6 came up, both dice together."""
    values = [value for throw in throws for value in throw]
    return tuple(values.count(face) for face in FACES)


def faces_line(referee: Referee, language: str) -> tuple[str, str]:
    """The result sheet's line: each face's count against what a fair die gives on average."""
    throws = thrown(referee)
    counts = face_counts(throws)
    tr = language == "tr"
    expected = len(throws) * 2 / 6
    faces = "  ".join(f"{face}: {count}" for face, count in zip(FACES, counts))
    note = (
        f"({len(throws)} atış, iki zar birlikte; dengeli zarda her yüz ortalama {expected:.1f})"
        if tr
        else f"({len(throws)} throws, both dice together; a fair die averages {expected:.1f} a face)"
    )
    return ("Zar yüzleri" if tr else "Dice faces", f"{faces}  {note}")
