"""A tournament's players, draw, brackets and results: the director's paperwork, as a fold of actions.

Every change is an action (a JSON-ready dict: register, withdraw, draw, assign, start, result, correct), and the
state is the fold of those actions, so a director restarted mid-round replays its log and stands exactly where it
stood (:mod:`app.net.tournament_log` keeps the log). A draw carries its random seed, so the replay draws the same.

Brackets are a graph: each match's two places are filled by a registered player or the winner or loser of an
earlier match. Single elimination with byes for the top seeds, a consolation bracket fed by the losers of the
main draw's first rounds, and an optional last-chance bracket fed by the consolation's first-round losers are
all built that way, so advancing a winner, a walkover against a bye and a correction are one mechanism. A round
robin (the circle method) is the club night's format. Each match is its own row under its own id, whatever
board it was played on.
"""

from __future__ import annotations

import csv
import enum
import io
import json
import random
from dataclasses import dataclass, field, replace
from typing import Any, Iterator, Mapping, Sequence

from app.referee.setup import ClockSettings, MatchSetup

BYE = "bye"
"""The name a bye goes by in a match's place; never a player's id."""


class TournamentError(ValueError):
    """An action the tournament cannot take, with the reason in words (for the director's page)."""


class Format(enum.Enum):
    ELIMINATION = "elimination"
    """Single elimination; optionally a consolation bracket and a last-chance bracket beside it."""
    ROUND_ROBIN = "round_robin"
    """Everyone plays everyone once (a club night)."""


class Bracket(enum.Enum):
    MAIN = "main"
    CONSOLATION = "consolation"
    LAST_CHANCE = "last_chance"
    ROUND_ROBIN = "round_robin"


@dataclass(frozen=True)
class Player:
    id: str
    name: str
    club: str = ""
    rating: int | None = None
    withdrawn: bool = False


@dataclass(frozen=True)
class Place:
    """Who fills one place of a match: a player (or :data:`BYE`) drawn there, or the winner or loser of a match."""

    player: str | None = None
    winner_of: str | None = None
    loser_of: str | None = None


@dataclass(frozen=True)
class Result:
    winner: str
    score: tuple[int, int]
    head: str = ""
    started: str = ""
    ended: str = ""


@dataclass(frozen=True)
class Match:
    id: str
    bracket: Bracket
    round: int
    places: tuple[Place, Place]
    board: str = ""
    started: str = ""
    result: Result | None = None


@dataclass(frozen=True)
class Rules:
    """What the director chose when the tournament was created."""

    event: str
    format: Format = Format.ELIMINATION
    consolation_rounds: int = 0
    """Losers of the main draw's rounds 1..N go to the consolation bracket (0: no consolation)."""
    last_chance: bool = False
    """Losers of the consolation's first round play a last-chance bracket."""
    lengths: tuple[int, ...] = (5,)
    """Match length per round (the last one for every later round)."""
    variant: str = "backgammon"

    def length(self, round_number: int) -> int:
        return self.lengths[min(round_number, len(self.lengths)) - 1]

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Rules:
        rules = cls(
            event=str(data["event"]),
            format=Format(data.get("format", "elimination")),
            consolation_rounds=int(data.get("consolation_rounds", 0)),
            last_chance=bool(data.get("last_chance", False)),
            lengths=tuple(int(n) for n in data.get("lengths", (5,))),
            variant=str(data.get("variant", "backgammon")),
        )
        if not rules.event.strip():
            raise TournamentError("the tournament needs an event name")
        if not rules.lengths or any(not 1 <= n <= 99 for n in rules.lengths):
            raise TournamentError("match lengths are 1 to 99 points")
        if rules.consolation_rounds < 0 or (rules.last_chance and not rules.consolation_rounds):
            raise TournamentError("a last-chance bracket is fed by the consolation: choose consolation rounds")
        MatchSetup(variant=rules.variant)  # an unknown variant is refused here, not at the first station
        return rules


@dataclass
class Tournament:
    """The state: rules, players and matches; :meth:`apply` takes one action, :func:`replay` a whole log."""

    rules: Rules
    players: dict[str, Player] = field(default_factory=dict)
    matches: dict[str, Match] = field(default_factory=dict)
    drawn: bool = False
    _filled: dict[str, tuple[str | None, str | None]] = field(default_factory=dict, repr=False, compare=False)
    """Who stands in each match's places as the matches stand: a later round's places follow every earlier round,
    and the exports, the page and the director ask for all of them after every action (cleared by each action)."""

    def copy(self) -> Tournament:
        """A state to try an action on: players, matches and results are immutable values, so new dicts of the
        same values are a full copy (a deep copy of a 250-match draw costs tens of milliseconds an action)."""
        return Tournament(self.rules, dict(self.players), dict(self.matches), self.drawn)

    # ------------------------------------------------------------------ actions

    def apply(self, action: Mapping[str, Any]) -> None:
        """Take one action or raise :class:`TournamentError` leaving the state as it was."""
        self._filled.clear()
        try:
            self._apply(action)
        finally:
            self._filled.clear()

    def _apply(self, action: Mapping[str, Any]) -> None:
        kind = action.get("do")
        match kind:
            case "register":
                self._register(action)
            case "withdraw":
                self._withdraw(str(action["player"]))
            case "draw":
                self._draw(int(action["seed"]), bool(action.get("seeded", False)))
            case "assign":
                self._assign(str(action["match"]), str(action["board"]))
            case "start":
                self._start(str(action["match"]), str(action.get("at", "")))
            case "result":
                self._result(str(action["match"]), action, correcting=False)
            case "correct":
                if not str(action.get("reason", "")).strip():
                    raise TournamentError("a correction needs its reason")
                self._result(str(action["match"]), action, correcting=True)
            case _:
                raise TournamentError(f"unknown action {kind!r}")

    def _register(self, action: Mapping[str, Any]) -> None:
        if self.drawn:
            raise TournamentError("the draw is made: no more registrations")
        name = str(action.get("name", "")).strip()
        if not name:
            raise TournamentError("a player needs a name")
        if any(p.name.casefold() == name.casefold() and not p.withdrawn for p in self.players.values()):
            raise TournamentError(f"{name} is already registered")
        rating = action.get("rating")
        player_id = f"p{len(self.players) + 1}"
        self.players[player_id] = Player(
            player_id, name, str(action.get("club", "")).strip(), None if rating in (None, "") else int(rating)
        )

    def _withdraw(self, player_id: str) -> None:
        if self.drawn:
            raise TournamentError("the draw is made: a withdrawal now is a match lost (the director's result)")
        self.players[self._player(player_id)] = replace(self.players[player_id], withdrawn=True)

    def _draw(self, seed: int, seeded: bool) -> None:
        if self.drawn:
            raise TournamentError("the draw is already made")
        field_ = [p for p in self.players.values() if not p.withdrawn]
        if len(field_) < 2:
            raise TournamentError("a draw needs at least two players")
        rng = random.Random(seed)
        rng.shuffle(field_)
        if seeded:  # rated players first, best first; the unrated keep their drawn order behind them
            field_.sort(key=lambda p: -(p.rating if p.rating is not None else -(10**9)))
        order = [p.id for p in field_]
        if self.rules.format is Format.ROUND_ROBIN:
            self.matches = _round_robin(order)
        else:
            self.matches = _elimination(order, self.rules.consolation_rounds, self.rules.last_chance)
        self.drawn = True

    def _assign(self, match_id: str, board: str) -> None:
        match = self._match(match_id)
        if match.result is not None:
            raise TournamentError(f"{match_id} is already played")
        if not board.strip():
            raise TournamentError("which board?")
        busy = [m.id for m in self.matches.values() if m.board == board and m.started and m.result is None]
        if busy and busy != [match_id]:
            raise TournamentError(f"board {board} is still playing {busy[0]}")
        self.matches[match_id] = replace(match, board=board)

    def _start(self, match_id: str, at: str) -> None:
        match = self._match(match_id)
        if None in self.players_of(match) or BYE in self.players_of(match):
            raise TournamentError(f"{match_id} has no two players yet")
        if match.result is not None:
            raise TournamentError(f"{match_id} is already played")
        self.matches[match_id] = replace(match, started=at or "started")

    def _result(self, match_id: str, action: Mapping[str, Any], correcting: bool) -> None:
        match = self._match(match_id)
        players = self.players_of(match)
        if None in players or BYE in players:
            raise TournamentError(f"{match_id} has no two players to win it")
        if correcting and match.result is None:
            raise TournamentError(f"{match_id} has no result to correct")
        if not correcting and match.result is not None:
            raise TournamentError(f"{match_id} already has its result; the director corrects it with a reason")
        winner = str(action["winner"])
        if winner not in players:
            raise TournamentError(f"{winner} does not play {match_id}")
        score = tuple(int(n) for n in action.get("score", (0, 0)))
        if len(score) != 2 or min(score) < 0:
            raise TournamentError("a score is two numbers of points")
        if correcting and match.result is not None and winner != match.result.winner:
            played = [m.id for m in self._following(match_id) if m.started or m.result is not None]
            if played:
                raise TournamentError(f"{played[0]} has started with the result as it stood: it cannot change now")
        previous = match.result
        self.matches[match_id] = replace(
            match,
            result=Result(
                winner,
                (score[0], score[1]),
                str(action.get("head", previous.head if previous else "")),
                str(action.get("started", previous.started if previous else match.started)),
                str(action.get("ended", previous.ended if previous else "")),
            ),
        )

    # ------------------------------------------------------------------ reading

    def _player(self, player_id: str) -> str:
        if player_id not in self.players:
            raise TournamentError(f"no player {player_id}")
        return player_id

    def _match(self, match_id: str) -> Match:
        if not self.drawn:
            raise TournamentError("the draw is not made yet")
        if match_id not in self.matches:
            raise TournamentError(f"no match {match_id}")
        return self.matches[match_id]

    def _following(self, match_id: str) -> Iterator[Match]:
        """The matches a result of ``match_id`` fills a place of."""
        for match in self.matches.values():
            if any(match_id in (p.winner_of, p.loser_of) for p in match.places):
                yield match

    def fill(self, place: Place) -> str | None:
        """Who stands in a place: a player's id, :data:`BYE`, or None while the match feeding it is open."""
        if place.player is not None:
            return place.player
        source = self.matches[place.winner_of or place.loser_of or ""]
        outcome = self.outcome(source)
        if outcome is None:
            return None
        return outcome[0] if place.winner_of else outcome[1]

    def players_of(self, match: Match) -> tuple[str | None, str | None]:
        known = self._filled.get(match.id)
        if known is None:
            known = self._filled[match.id] = (self.fill(match.places[0]), self.fill(match.places[1]))
        return known

    def outcome(self, match: Match) -> tuple[str, str] | None:
        """(winner, loser) of a match: played, or decided by a bye; None while it is still to be played."""
        first, second = self.players_of(match)
        if first is None or second is None:
            return None
        if BYE in (first, second):
            return (second, first) if first == BYE else (first, second)
        if match.result is None:
            return None
        winner = match.result.winner
        return winner, second if winner == first else first

    def playable(self) -> list[Match]:
        """The matches whose two players are known and that wait to be played (a bye is no match)."""
        return [
            m
            for m in self.matches.values()
            if m.result is None and None not in (names := self.players_of(m)) and BYE not in names
        ]

    def champion(self, bracket: Bracket = Bracket.MAIN) -> str | None:
        """The winner of a bracket's last match, once played (elimination brackets only)."""
        final = max((m for m in self.matches.values() if m.bracket is bracket), key=lambda m: m.round, default=None)
        if final is None or bracket is Bracket.ROUND_ROBIN:
            return None
        outcome = self.outcome(final)
        return outcome[0] if outcome and outcome[0] != BYE else None

    def finished(self) -> bool:
        return self.drawn and not self.playable() and all(self.outcome(m) is not None for m in self.matches.values())

    def name(self, player_id: str | None) -> str:
        if player_id is None:
            return "?"
        return "bye" if player_id == BYE else self.players[player_id].name

    def station_setup(self, match_id: str) -> dict[str, Any]:
        """What a station needs to start ``match_id``: the match set-up as the station journals it (players,
        length, clock by the federation's default, event, round, board, variant)."""
        match = self._match(match_id)
        first, second = self.players_of(match)
        if first in (None, BYE) or second in (None, BYE):
            raise TournamentError(f"{match_id} has no two players yet")
        length = self.rules.length(match.round)
        setup = MatchSetup(
            players=(self.name(first), self.name(second)),
            variant=self.rules.variant,
            length=length,
            clock=ClockSettings.for_match(length),
            event=self.rules.event,
            round=round_name(match),
            table=match.board,
        )
        return {"match": match.id, **setup.to_dict()}

    def standings(self) -> list[tuple[str, int, int, int]]:
        """(player, wins, losses, points won), best first: wins, then the match between them when exactly two
        are tied, else points won; withdrawn players last."""
        wins = {p: 0 for p in self.players}
        losses = {p: 0 for p in self.players}
        points = {p: 0 for p in self.players}
        beat: set[tuple[str, str]] = set()
        for match in self.matches.values():
            if match.result is None:
                continue
            first, second = self.players_of(match)
            assert first is not None and second is not None
            winner, loser = (first, second) if match.result.winner == first else (second, first)
            wins[winner] += 1
            losses[loser] += 1
            points[first] += match.result.score[0]
            points[second] += match.result.score[1]
            beat.add((winner, loser))
        order = sorted(self.players, key=lambda p: (self.players[p].withdrawn, -wins[p], -points[p], p))
        for i in range(len(order) - 1):  # exactly two tied on wins: the one who won their match goes first
            a, b = order[i], order[i + 1]
            tied = [p for p in order if wins[p] == wins[a] and self.players[p].withdrawn == self.players[a].withdrawn]
            if len(tied) == 2 and b in tied and (b, a) in beat and (a, b) not in beat:
                order[i], order[i + 1] = b, a
        return [(p, wins[p], losses[p], points[p]) for p in order]

    def rows(self) -> list[dict[str, Any]]:
        """Every match as the results export writes it (CSV and JSON): one row per match, keyed by its id."""
        rows = []
        for match in sorted(self.matches.values(), key=_match_order):
            first, second = self.players_of(match)
            result = match.result
            outcome = self.outcome(match)
            rows.append(
                {
                    "event": self.rules.event,
                    "match": match.id,
                    "bracket": match.bracket.value,
                    "round": match.round,
                    "board": match.board,
                    "player1": self.name(first),
                    "player2": self.name(second),
                    "score1": result.score[0] if result else "",
                    "score2": result.score[1] if result else "",
                    "winner": self.name(outcome[0]) if outcome else "",
                    "started": result.started if result else match.started,
                    "ended": result.ended if result else "",
                    "head": result.head if result else "",
                }
            )
        return rows


def results_csv(tournament: Tournament) -> str:
    """Every match, one row each (event, match, bracket, round, board, players, score, winner, times, head)."""
    rows = tournament.rows()
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=list(rows[0]) if rows else ["event", "match"], lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    return out.getvalue()


def results_json(tournament: Tournament) -> str:
    standings = [
        {"player": tournament.name(p), "wins": w, "losses": lost, "points": pts}
        for p, w, lost, pts in tournament.standings()
    ]
    return json.dumps(
        {"event": tournament.rules.event, "matches": tournament.rows(), "standings": standings},
        ensure_ascii=False,
    )  # no indentation: Python's C encoder is taken only without it, and the director writes this after every action


def replay(actions: Sequence[Mapping[str, Any]]) -> Tournament:
    """The tournament a log of actions describes; the first action creates it (``{"do": "create", ...}``)."""
    if not actions or actions[0].get("do") != "create":
        raise TournamentError("a tournament's log starts with its creation")
    tournament = Tournament(Rules.from_dict(actions[0]))
    for action in actions[1:]:
        tournament.apply(action)
    return tournament


def round_name(match: Match) -> str:
    label = {Bracket.MAIN: "R", Bracket.CONSOLATION: "C", Bracket.LAST_CHANCE: "LC", Bracket.ROUND_ROBIN: "RR"}
    return f"{label[match.bracket]}{match.round}"


def _match_order(match: Match) -> tuple[int, int, str]:
    return list(Bracket).index(match.bracket), match.round, match.id


# ---------------------------------------------------------------------- draws


def seed_positions(size: int) -> list[int]:
    """The seed (0 = best) at each line of a bracket of ``size`` (a power of two), so that seeds 1 and 2 can
    meet only in the final, 1-4 only in the semi-finals, and so on (the standard bracket order)."""
    order = [0]
    while len(order) < size:
        n = len(order) * 2
        order = [s for seed in order for s in (seed, n - 1 - seed)]
    return order


def _elimination(order: list[str], consolation_rounds: int, last_chance: bool) -> dict[str, Match]:
    size = 1
    while size < len(order):
        size *= 2
    seeded = [order[s] if s < len(order) else BYE for s in seed_positions(size)]  # the top seeds meet the byes
    matches: dict[str, Match] = {}
    main = _knockout(Bracket.MAIN, [Place(player=p) for p in seeded], matches)
    rounds = len(main)
    if consolation_rounds and rounds >= 2:
        feeds = [main[r] for r in range(min(consolation_rounds, rounds - 1))]
        consolation_first = _fed(Bracket.CONSOLATION, feeds, matches)
        if last_chance and len(consolation_first) >= 2:
            _fed(Bracket.LAST_CHANCE, [consolation_first], matches)
    return matches


def _knockout(bracket: Bracket, entries: list[Place], matches: dict[str, Match]) -> list[list[str]]:
    """Pair ``entries`` in order and play down to one; returns each round's match ids."""
    rounds: list[list[str]] = []
    places = entries
    while len(places) > 1:
        places, ids = _round(bracket, len(rounds) + 1, places, matches)
        rounds.append(ids)
    return rounds


def _fed(bracket: Bracket, feeds: list[list[str]], matches: dict[str, Match]) -> list[str]:
    """A bracket fed by the losers of earlier rounds: the first feed's losers meet each other; each later feed's
    losers meet the survivors, from the other end of the draw so that two players do not meet again at once;
    between feeds (and after the last) the survivors play down."""
    survivors = [Place(loser_of=m) for m in feeds[0]]
    rounds: list[list[str]] = []

    def play_round(places: list[Place]) -> list[Place]:
        winners, ids = _round(bracket, len(rounds) + 1, places, matches)
        rounds.append(ids)
        return winners

    for feed in feeds[1:]:
        while len(survivors) > len(feed):
            survivors = play_round(survivors)
        losers = [Place(loser_of=m) for m in reversed(feed)]
        survivors = play_round([place for pair in zip(survivors, losers) for place in pair])
    while len(survivors) > 1:
        survivors = play_round(survivors)
    return rounds[0] if rounds else []


def _round(
    bracket: Bracket, number: int, places: list[Place], matches: dict[str, Match]
) -> tuple[list[Place], list[str]]:
    ids = []
    for i in range(0, len(places), 2):
        match_id = f"{bracket.value}-{number}-{i // 2 + 1}"
        matches[match_id] = Match(match_id, bracket, number, (places[i], places[i + 1]))
        ids.append(match_id)
    return [Place(winner_of=m) for m in ids], ids


def _round_robin(order: list[str]) -> dict[str, Match]:
    """The circle method: one player stays, the others turn one place a round; an odd field adds a bye."""
    lines = order + ([BYE] if len(order) % 2 else [])
    n = len(lines)
    matches: dict[str, Match] = {}
    for number in range(1, n):
        for i in range(n // 2):
            first, second = lines[i], lines[n - 1 - i]
            if BYE in (first, second):
                continue  # the player against the bye sits this round out
            match_id = f"{Bracket.ROUND_ROBIN.value}-{number}-{i + 1}"
            matches[match_id] = Match(
                match_id, Bracket.ROUND_ROBIN, number, (Place(player=first), Place(player=second))
            )
        lines = [lines[0], lines[-1], *lines[1:-1]]
    return matches
