"""The rules of tavla: positions, legal plays, judging, game cycle and IDs.

Standard library only, so the referee can run anywhere and the rules can be
checked in isolation against GNU Backgammon. The names most callers need are
importable from here: ``from rules import Position, legal_plays, judge``.

>>> from rules import Color, Position, find_variant, judge, legal_results, parse_play
>>> start = Position.start()
>>> start.turn is Color.WHITE, start.pips(Color.WHITE)
(True, 167)
>>> play = parse_play(start, (6, 5), "24/13")
>>> after = next(a for a, p in legal_results(start, (6, 5)).items() if p == play)
>>> judge(start, (6, 5), after).notation()
'24/13'
>>> judge(start, (6, 5), start)
Traceback (most recent call last):
...
rules.errors.IllegalPlay: ...
>>> [v.name for v in VARIANTS][:3], find_variant("tavla").name
(['backgammon', 'turkish', 'nackgammon'], 'backgammon')
"""

from rules.acey import AceyDeuceyPosition
from rules.chouette import Chouette, ChouetteGame, CubeMove, MemberCube
from rules.cube import Cube, CubeRule, CubeRules
from rules.cubeful import (
    AcceptResignation,
    Beaver,
    CubefulGame,
    Double,
    Drop,
    Ending,
    Move,
    NameDouble,
    OpeningThrow,
    Outcome,
    Raccoon,
    RejectResignation,
    Resign,
    Roll,
    Take,
)
from rules.errors import (
    AmbiguousPlay,
    IllegalAction,
    IllegalCubeAction,
    IllegalPlay,
    InvalidDice,
    InvalidMatchState,
    InvalidNotation,
    InvalidPosition,
    MatExportError,
    MatImportError,
    RulesError,
)
from rules.game import Bonus, FirstMove, Game, GameEnd, GameResult, Phase, ResultKind, game_result
from rules.gnubg_id import decode_position_id, encode_position_id
from rules.judge import Violation, is_unfinished, judge, judge_numbers
from rules.mat import load_mat, read_mat, recordable, save_mat, write_mat
from rules.match import Match, MatchEnd, MatchHeader, MatchResult, MatchRules, TimeOut
from rules.match_id import GameState, MatchInfo, Resignation, decode_match_id, encode_match_id
from rules.movegen import legal_plays, legal_results, numbers_results
from rules.notation import parse_play
from rules.odds import Shots, shots
from rules.plakoto import PlakotoExpressPosition, PlakotoPosition
from rules.play import Play, Step, apply_steps
from rules.position import BAR, OFF, Aside, Color, Position, Status
from rules.registry import VARIANTS, find_variant, variant_of
from rules.selfplay import random_match
from rules.xgid import decode_xgid, encode_xgid

__all__ = [
    "AmbiguousPlay",
    "BAR",
    "Color",
    "FirstMove",
    "Game",
    "GameResult",
    "GameState",
    "IllegalAction",
    "IllegalPlay",
    "InvalidDice",
    "InvalidMatchState",
    "InvalidNotation",
    "InvalidPosition",
    "MatchInfo",
    "OFF",
    "Phase",
    "Play",
    "Position",
    "Resignation",
    "ResultKind",
    "RulesError",
    "Status",
    "Step",
    "Violation",
    "apply_steps",
    "decode_match_id",
    "decode_position_id",
    "decode_xgid",
    "encode_match_id",
    "encode_position_id",
    "encode_xgid",
    "game_result",
    "is_unfinished",
    "judge",
    "legal_plays",
    "legal_results",
    "parse_play",
    "Chouette",
    "ChouetteGame",
    "CubeMove",
    "MemberCube",
    "Cube",
    "CubeRule",
    "CubeRules",
    "AcceptResignation",
    "Beaver",
    "CubefulGame",
    "Double",
    "Drop",
    "Ending",
    "Move",
    "OpeningThrow",
    "Outcome",
    "Raccoon",
    "RejectResignation",
    "Resign",
    "Roll",
    "Take",
    "IllegalCubeAction",
    "MatExportError",
    "MatImportError",
    "load_mat",
    "read_mat",
    "recordable",
    "save_mat",
    "write_mat",
    "Match",
    "MatchEnd",
    "MatchHeader",
    "MatchResult",
    "MatchRules",
    "TimeOut",
    "Shots",
    "shots",
    "random_match",
    "AceyDeuceyPosition",
    "Aside",
    "Bonus",
    "GameEnd",
    "NameDouble",
    "PlakotoExpressPosition",
    "PlakotoPosition",
    "VARIANTS",
    "find_variant",
    "judge_numbers",
    "numbers_results",
    "variant_of",
]
