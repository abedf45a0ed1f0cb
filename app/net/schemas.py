"""The declared shape of every message the director and the stations take from the broker (JSON Schema).

Anything a board or the director receives is checked here before it is looked at: a message that does
not fit is set aside with the reason, so no field of the wrong type, no missing key and no huge list can
reach the code that reads it (the director's table, the results, a station's referee). The schemas are
open to extra fields (a newer station may say more) but strict about every field the reader uses.
A failing keyword's ``reason`` (an annotation JSON Schema ignores) is the sentence a person reads. ``1.0`` is
not an integer here (:class:`_Fraction`).
"""

from __future__ import annotations

import json
from typing import Any

import fastjsonschema

from app.net.topics import BOARD_PATTERN, MESSAGE_TYPES

MAX_TEXT = 500
"""Characters of a message to the players."""
MAX_TIME_MS = 24 * 3600 * 1000
"""The longest time a correction may set."""

MAX_PAYLOAD = 1_000_000
"""Bytes of one message: a snapshot with every ruling kept is some kilobytes."""

MAX_STRING = 200
"""Names, codes, hashes and times are short; a longer string is not one of ours."""

DIALECT = "http://json-schema.org/draft-07/schema#"
"""The JSON Schema dialect of the declarations (``if``/``then`` and ``propertyNames`` are draft 7's)."""

MAX_RULINGS = 100
MAX_GAMES = 1000

_TEXT = {"type": "string", "maxLength": MAX_STRING}
_COUNT = {"type": "integer", "minimum": 0, "maximum": 1 << 53}
_COLOR_OR_NONE = {"enum": ["white", "black", None]}
_PAIR_OF_COUNTS = {"type": "array", "items": _COUNT, "minItems": 2, "maxItems": 2}
_CHECKERS = {"type": "array", "items": {"type": "integer", "minimum": 0, "maximum": 15}, "minItems": 26, "maxItems": 26}
_BOARD_ID = {"type": "string", "pattern": f"^{BOARD_PATTERN.pattern}$"}
_PARAMS = {"type": "object", "maxProperties": 50}
# "X or null" is written as a list of types, not anyOf: the compiled check then tries no branch that fails
_TEXT_OR_NONE = {"type": ["string", "null"], "maxLength": MAX_STRING}

RULING: dict[str, Any] = {
    "type": "object",
    "required": ["code"],
    "properties": {"code": _TEXT, "level": _TEXT, "seq": _COUNT, "at": _TEXT, "params": _PARAMS},
}

EVENT_MESSAGE: dict[str, Any] = {
    "type": "object",
    "reason": "an event message is a JSON object",
    "required": ["board", "seq", "kind", "at", "prev", "hash", "payload"],
    "properties": {
        "board": _BOARD_ID,
        "seq": {"type": "integer", "minimum": 1, "maximum": 1 << 53, "reason": "an entry's sequence number"},
        "kind": _TEXT,
        "at": _TEXT,
        "prev": _TEXT,
        "hash": _TEXT,
        "payload": {
            "type": "object",
            "properties": {
                "event": {"type": "object"},
                "reaction": {
                    "type": "object",
                    "properties": {"rulings": {"type": "array", "items": RULING, "maxItems": MAX_RULINGS}},
                },
            },
        },
    },
}

RESULT: dict[str, Any] = {
    "type": "object",
    "required": ["players", "score"],
    "properties": {
        "players": {"type": "array", "items": _TEXT, "minItems": 2, "maxItems": 2},
        "variant": _TEXT,
        "length": _COUNT,
        "score": _PAIR_OF_COUNTS,
        "winner": _TEXT_OR_NONE,
        "end": _TEXT_OR_NONE,
        "games": {"type": "array", "items": {"type": "object"}, "maxItems": MAX_GAMES},
    },
}

SNAPSHOT: dict[str, Any] = {
    "type": "object",
    "reason": "a snapshot is a JSON object",
    "required": ["seq"],
    "properties": {
        "board": {
            "reason": "a snapshot's board is the board's name, or its checkers once the match is set up",
            "anyOf": [
                {
                    "type": "object",
                    "required": ["white", "black"],
                    "properties": {"white": _CHECKERS, "black": _CHECKERS},
                },
                _BOARD_ID,
            ],
        },
        "seq": _COUNT,
        "head": _TEXT,
        "at": _TEXT,
        "recent": {"type": "array", "items": RULING, "maxItems": MAX_RULINGS},
        "problem": {"type": ["string", "null"], "maxLength": 1000},
        "players": {"type": "array", "items": _TEXT, "minItems": 2, "maxItems": 2},
        "variant": _TEXT,
        "length": _COUNT,
        "score": _PAIR_OF_COUNTS,
        "game": _COUNT,
        "stage": _TEXT,
        "turn": _COLOR_OR_NONE,
        "dice": {"type": ["array", "null"], "items": {"type": "integer", "minimum": 1, "maximum": 6}, "maxItems": 4},
        "clock": {
            "type": "object",
            "properties": {
                "running": _COLOR_OR_NONE,
                "times_ms": {**_PAIR_OF_COUNTS, "type": ["array", "null"]},
                "reserve_ms": _COUNT,
            },
        },
        "called": {"type": "boolean"},
        "over": {"type": "boolean"},
        "cube": {
            "type": ["object", "null"],
            "required": ["value"],
            "properties": {
                "value": {"type": "integer", "minimum": 1, "maximum": 1 << 20},
                "owner": _COLOR_OR_NONE,
                "offered": _COLOR_OR_NONE,
            },
        },
        "result": {**RESULT, "type": ["object", "null"]},
        "flag": _COLOR_OR_NONE,
        "set_aside": _COUNT,
        "xgid": _TEXT_OR_NONE,
        "position_id": _TEXT_OR_NONE,
        "match_id": _TEXT_OR_NONE,
    },
}

STATUS: dict[str, Any] = {
    "type": "object",
    "reason": "a status is a JSON object",
    "required": ["state"],
    "properties": {
        "board": _BOARD_ID,
        "state": {"enum": ["online", "offline"], "reason": "a board's state is online or offline"},
        "inbox": {"type": "object", "properties": {"id": _TEXT, "type": _TEXT}},
        "journal": _TEXT,
    },
}

ACK: dict[str, Any] = {
    "type": "object",
    "reason": "an acknowledgement is a JSON object",
    "required": ["seq"],
    "properties": {"seq": _COUNT, "gap": {"type": "boolean"}},
}

_KIND_FIELDS = {"message": ["text"], "on_the_way": [], "time": ["color", "ms"], "match": ["setup"]}

MATCH_SETUP: dict[str, Any] = {
    "type": "object",
    "reason": "a match's set-up is a JSON object",
    "required": ["match", "players", "variant", "length"],
    "maxProperties": 60,
    "properties": {
        "match": {"type": "string", "minLength": 1, "maxLength": 64, "reason": "the match's id in the draw"},
        "players": {
            "type": "array",
            "items": {"type": "string", "minLength": 1, "maxLength": MAX_STRING, "pattern": r"\S"},
            "minItems": 2,
            "maxItems": 2,
            "reason": "a match has two players' names",
        },
        "variant": _TEXT,
        "length": {"type": "integer", "minimum": 1, "maximum": 99, "reason": "a match is 1 to 99 points"},
        "event": _TEXT,
        "round": _TEXT,
        "table": _TEXT,
        "clock": {"type": "object", "maxProperties": 20},
    },
}
"""The match the draw gives a board (:meth:`app.net.tournament.Tournament.station_setup`)."""

DIRECTOR_MESSAGE: dict[str, Any] = {
    "type": "object",
    "reason": "a director message is a JSON object",
    "required": ["type"],
    "properties": {
        "type": {"enum": list(MESSAGE_TYPES), "reason": f"the director may send only {', '.join(MESSAGE_TYPES)}"},
        "id": {"type": "string", "maxLength": 64, "reason": "a message id is a short string"},
        "by": {"type": "string", "minLength": 1, "maxLength": 64, "reason": "the sender is a short name"},
        "text": {
            "type": "string",
            "minLength": 1,
            "maxLength": MAX_TEXT,
            "pattern": r"\S",
            "reason": f"a message to the players is 1 to {MAX_TEXT} characters of text",
        },
        "color": {"enum": ["white", "black"], "reason": "a time correction names 'white' or 'black'"},
        "ms": {
            "type": "integer",
            "minimum": 0,
            "maximum": MAX_TIME_MS,
            "reason": f"a time correction gives the remaining milliseconds (0 to {MAX_TIME_MS})",
        },
        "setup": MATCH_SETUP,
    },
    "allOf": [
        {
            "if": {"properties": {"type": {"const": kind}}, "required": ["type"]},
            "then": {
                "required": fields,
                "propertyNames": {"enum": ["type", "id", "by", *fields], "reason": f"{kind}: unknown fields"},
            },
        }
        for kind, fields in _KIND_FIELDS.items()
    ],
}

_SCHEMAS = {"events": EVENT_MESSAGE, "snapshot": SNAPSHOT, "status": STATUS, "ack": ACK, "inbox": DIRECTOR_MESSAGE}
_VALIDATORS = {name: fastjsonschema.compile({"$schema": DIALECT, **schema}) for name, schema in _SCHEMAS.items()}


class _Fraction(float):
    """A number written with a fraction or an exponent: JSON Schema counts ``1.0`` as an integer, the readers of
    sequence numbers, scores and milliseconds here need a real ``int``, so such a number is never one."""

    def is_integer(self) -> bool:
        return False


def _no_constant(name: str) -> float:
    raise ValueError(f"{name} is not a JSON number")


def check(kind: str, data: Any) -> dict[str, Any]:
    """``data`` if it fits the schema of ``kind`` (a topic's leaf, ``ack`` or ``inbox``); ValueError with the
    reason otherwise, KeyError for a kind nobody declared."""
    try:
        _VALIDATORS[kind](data)
    except fastjsonschema.JsonSchemaValueException as error:
        raise ValueError(_reason(error)) from None
    assert isinstance(data, dict)  # every schema's top is an object
    return data


def _reason(error: fastjsonschema.JsonSchemaValueException) -> str:
    where = str(error.name).removeprefix("data").lstrip(".")
    definition = error.definition if isinstance(error.definition, dict) else {}
    keyword = definition.get(str(error.rule))
    reason = keyword.get("reason") if isinstance(keyword, dict) else definition.get("reason")
    if error.rule == "required":
        reason = None  # the object's own reason speaks of its type, not of a missing field
    if error.rule == "propertyNames" and isinstance(keyword, dict) and isinstance(error.value, dict):
        return f"{reason} {sorted(set(error.value) - set(keyword.get('enum', ())))}"
    text = f"{reason}, not {_short(error.value)}" if reason else str(error.message).removeprefix(str(error.name) + " ")
    return f"{where}: {text}" if where else text


def _short(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def parse(kind: str, payload: bytes) -> dict[str, Any]:
    """The JSON message in ``payload``, checked against the schema of ``kind``; ValueError with the reason.
    NaN and Infinity are refused (the page's browser could not read them back)."""
    if len(payload) > MAX_PAYLOAD:
        raise ValueError(f"{len(payload):,} bytes (at most {MAX_PAYLOAD:,})")
    try:
        data = json.loads(payload.decode("utf-8"), parse_float=_Fraction, parse_constant=_no_constant)
    except (UnicodeDecodeError, RecursionError, ValueError) as error:
        raise ValueError(f"not JSON ({error})") from None
    return check(kind, data)
