"""Line faults a simulator injects into the bytes it sends (and receives).

Per byte: replaced by a random byte (``corrupt``), left out (``drop``) or
sent twice (``duplicate``); ``split`` cuts every write into random small
pieces written one at a time, so frames arrive split at arbitrary
boundaries. A fixed ``seed`` makes a run repeatable. The counters say how
many bytes were damaged.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field


@dataclass
class Faults:
    corrupt: float = 0.0
    drop: float = 0.0
    duplicate: float = 0.0
    split: bool = False
    seed: int | None = None
    bytes_seen: int = 0
    bytes_corrupted: int = 0
    bytes_dropped: int = 0
    bytes_duplicated: int = 0
    _rng: random.Random = field(default_factory=random.Random, repr=False)

    def __post_init__(self) -> None:
        for name in ("corrupt", "drop", "duplicate"):
            rate = getattr(self, name)
            if not 0.0 <= rate <= 1.0:
                raise ValueError(f"{name} rate {rate} is not a probability")
        self._rng = random.Random(self.seed)

    @property
    def active(self) -> bool:
        return bool(self.corrupt or self.drop or self.duplicate or self.split)

    def set(self, name: str, value: float) -> None:
        """Change one rate (the script's ``fault corrupt 0.05``)."""
        if name == "split":
            self.split = bool(value)
            return
        if name not in ("corrupt", "drop", "duplicate"):
            raise ValueError(f"unknown fault {name!r}: corrupt, drop, duplicate or split")
        if not 0.0 <= value <= 1.0:
            raise ValueError(f"{name} rate {value} is not a probability")
        setattr(self, name, value)

    def clear(self) -> None:
        self.corrupt = self.drop = self.duplicate = 0.0
        self.split = False

    def apply(self, data: bytes) -> list[bytes]:
        """The bytes to write instead of data, as one or more pieces."""
        if not data:
            return []
        if not (self.corrupt or self.drop or self.duplicate):
            self._count_frames(data)
            return self._pieces(data)
        rng = self._rng
        out = bytearray()
        for byte in data:
            self.bytes_seen += 1
            roll = rng.random()
            if roll < self.corrupt:
                self.bytes_corrupted += 1
                out.append((byte + rng.randrange(1, 256)) & 0xFF)
            elif roll < self.corrupt + self.drop:
                self.bytes_dropped += 1
            elif roll < self.corrupt + self.drop + self.duplicate:
                self.bytes_duplicated += 1
                out += bytes((byte, byte))
            else:
                out.append(byte)
        return self._pieces(bytes(out))

    def _count_frames(self, data: bytes) -> None:
        self.bytes_seen += len(data)

    def _pieces(self, data: bytes) -> list[bytes]:
        if not self.split or len(data) < 2:
            return [data]
        pieces = []
        i = 0
        while i < len(data):
            size = self._rng.randint(1, 7)
            pieces.append(data[i : i + size])
            i += size
        return pieces
