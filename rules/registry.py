"""Every variant the referee knows, found by any of its names (Turkish or English)."""

from __future__ import annotations

from rules.acey import ACEY_DEUCEY_VARIANT
from rules.family import EUREIKA_VARIANT, LONGGAMMON_VARIANT, NACKGAMMON_VARIANT, TURKISH_VARIANT
from rules.plakoto import PLAKOTO_EXPRESS_VARIANT, PLAKOTO_VARIANT
from rules.position import Position
from rules.standard import STANDARD_VARIANT
from rules.uzun import UZUN_VARIANT
from rules.variant import Variant

VARIANTS: tuple[Variant, ...] = (
    STANDARD_VARIANT,
    TURKISH_VARIANT,
    NACKGAMMON_VARIANT,
    LONGGAMMON_VARIANT,
    EUREIKA_VARIANT,
    UZUN_VARIANT,
    PLAKOTO_VARIANT,
    PLAKOTO_EXPRESS_VARIANT,
    ACEY_DEUCEY_VARIANT,
)


_TURKISH_FOLD = str.maketrans("ıçğöşü", "icgosu")


def _key(name: str) -> str:
    """A name as typed on any keyboard: case, Turkish letters (``TÜRK TAVLASI`` lower-cases to a dotted i that
    ``türk tavlası`` does not have), hyphens and spacing do not matter."""
    folded = name.strip().lower().replace("i\u0307", "i").translate(_TURKISH_FOLD)
    return " ".join(folded.replace("_", " ").replace("-", " ").split())


_BY_NAME = {_key(alias): v for v in VARIANTS for alias in (v.name, *v.aliases)}


def find_variant(name: str) -> Variant:
    """The variant called ``name``; ValueError listing the known names otherwise."""
    try:
        return _BY_NAME[_key(name)]
    except KeyError:
        known = ", ".join(v.name for v in VARIANTS)
        raise ValueError(f"unknown variant {name!r}; known: {known} (and their Turkish/English aliases)") from None


def variant_of(position: Position) -> Variant:
    """The variant whose positions ``position`` is one of."""
    for variant in VARIANTS:
        if type(position) is variant.position_type:
            return variant
    raise ValueError(f"no variant plays on a {type(position).__name__}")
