"""Reed-Solomon forward error correction over GF(256), small enough for MicroPython.

A noisy cable corrupts bytes here and there; a frame that must be sent again
for every damaged byte stops getting through once frames are long and the
noise is high (at 10 % of bytes corrupted a 60-byte frame arrives intact once
in a thousand tries). Parity bytes let the receiver repair up to ``parity //
2`` damaged bytes in place, so long frames get through at the first try.

Like ``wire.py`` this file runs on the boards too (copied as ``fec.py``): no
imports, integers and bytearrays only. The code is systematic (the message
bytes come first, unchanged), over the field polynomial 0x11D with generator
roots alpha^0 .. alpha^(parity - 1). Decoding is Berlekamp-Massey, a Chien
search and Forney's formula; it either returns the repaired message or None,
and the frame's CRC-32 catches the rare wrong repair of a hopeless block.
"""

FIELD_POLY = 0x11D
MAX_CODEWORD = 255

_EXP = bytearray(512)
_LOG = bytearray(256)


def _build_tables() -> None:
    x = 1
    for i in range(255):
        _EXP[i] = x
        _LOG[x] = i
        x <<= 1
        if x & 0x100:
            x ^= FIELD_POLY
    for i in range(255, 512):
        _EXP[i] = _EXP[i - 255]


_build_tables()


def _mul(a: int, b: int) -> int:
    if a == 0 or b == 0:
        return 0
    return _EXP[_LOG[a] + _LOG[b]]


def _div(a: int, b: int) -> int:
    if a == 0:
        return 0
    return _EXP[(_LOG[a] + 255 - _LOG[b]) % 255]


_GENERATORS: dict[int, bytearray] = {}


def _generator(parity: int) -> bytearray:
    """prod (x - alpha^i) for i < parity, highest degree first (cached per size)."""
    poly = _GENERATORS.get(parity)
    if poly is None:
        poly = bytearray((1,))
        for i in range(parity):
            root = _EXP[i]
            nxt = bytearray(len(poly) + 1)
            for j in range(len(poly)):
                nxt[j] ^= poly[j]
                nxt[j + 1] ^= _mul(poly[j], root)
            poly = nxt
        _GENERATORS[parity] = poly
    return poly


def encode(message: bytes | bytearray, parity: int) -> bytes:
    """message followed by ``parity`` check bytes; the whole is at most 255 bytes."""
    if len(message) + parity > MAX_CODEWORD:
        raise ValueError("codeword longer than 255 bytes")
    gen = _generator(parity)
    rem = bytearray(parity)
    exp = _EXP
    log = _LOG
    for byte in message:
        factor = byte ^ rem[0]
        for j in range(parity - 1):
            rem[j] = rem[j + 1]
        rem[parity - 1] = 0
        if factor:
            lf = log[factor]
            for j in range(parity):
                g = gen[j + 1]
                if g:
                    rem[j] ^= exp[lf + log[g]]
    return bytes(message) + bytes(rem)


def _syndromes(word: bytes | bytearray, parity: int) -> list[int]:
    exp = _EXP
    log = _LOG
    out = []
    for i in range(parity):
        s = 0
        for byte in word:  # Horner's rule at alpha^i
            s = (exp[log[s] + i] if s else 0) ^ byte
        out.append(s)
    return out


def decode(word: bytes | bytearray, parity: int) -> tuple[bytes, int] | None:
    """(the message, bytes repaired), or None when more than parity // 2 bytes are damaged."""
    n = len(word)
    if n > MAX_CODEWORD or n <= parity:
        return None
    synd = _syndromes(word, parity)
    if not any(synd):
        return bytes(word[: n - parity]), 0
    # Berlekamp-Massey: the shortest error locator lam (lowest degree first) explaining synd.
    lam = [1]
    prev = [1]
    size = 0
    shift = 1
    last = 1
    for k in range(parity):
        d = synd[k]
        for i in range(1, size + 1):
            if i < len(lam):
                d ^= _mul(lam[i], synd[k - i])
        if d == 0:
            shift += 1
            continue
        coef = _div(d, last)
        new = lam + [0] * max(0, len(prev) + shift - len(lam))
        for i in range(len(prev)):
            new[i + shift] ^= _mul(coef, prev[i])
        if 2 * size <= k:
            prev = lam
            size = k + 1 - size
            last = d
            shift = 1
        else:
            shift += 1
        lam = new
    while len(lam) > 1 and lam[-1] == 0:
        lam.pop()
    errors = len(lam) - 1
    if errors == 0 or 2 * errors > parity:
        return None
    # Chien search: byte i is damaged when lam vanishes at the inverse of its locator alpha^(n-1-i).
    where = []
    for i in range(n):
        inv = (255 - (n - 1 - i)) % 255
        value = 0
        for j in range(len(lam) - 1, -1, -1):
            value = (_EXP[_LOG[value] + inv] if value else 0) ^ lam[j]
        if value == 0:
            where.append(i)
    if len(where) != errors:
        return None
    # Forney: omega = synd * lam mod x^parity; magnitude = X * omega(X^-1) / lam'(X^-1).
    omega = [0] * parity
    for i in range(parity):
        acc = 0
        for j in range(min(i, errors) + 1):
            acc ^= _mul(synd[i - j], lam[j])
        omega[i] = acc
    fixed = bytearray(word)
    for i in where:
        power = n - 1 - i
        inv = (255 - power) % 255
        num = 0
        for j in range(parity - 1, -1, -1):
            num = (_EXP[_LOG[num] + inv] if num else 0) ^ omega[j]
        den = 0
        for j in range(1, len(lam), 2):  # the formal derivative keeps the odd terms
            if lam[j]:
                den ^= _EXP[(_LOG[lam[j]] + inv * (j - 1)) % 255]
        if den == 0:
            return None
        fixed[i] ^= _mul(_EXP[power], _div(num, den))
    if any(_syndromes(fixed, parity)):
        return None
    return bytes(fixed[: n - parity]), errors
