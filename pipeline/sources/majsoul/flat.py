"""A round's play records (RecordDealTile .. RecordBaBei) as one integer array for the compiled play (kernel.py).

Only records of the shapes play.py reads without a question are encoded: ints where it reads ints (seats, types and
froms within 0-3: any other value is one play.py refuses), tile strings it knows, lists where it reads lists.
Anything else (a missing tile, a seat that is no int, a tile string of a special mode, junk in ``tingpais``...)
makes ``flatten`` return None and the round is played by play.py, which raises the error naming the record, or reads
what it reads.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from pipeline.sources.majsoul.codes import RED_KINDS
from pipeline.sources.majsoul.document import Record
from pipeline.sources.majsoul.kernel import (
    K_BABEI,
    K_CALL,
    K_DEAL,
    K_DISCARD,
    K_KAN,
    R_D0,
    R_DN,
    R_F0,
    R_INDEX,
    R_KIND,
    R_LIQI,
    R_LIQI_FAILED,
    R_MOQIE,
    R_NF,
    R_NT,
    R_NZ,
    R_RIICHI,
    R_SEAT,
    R_T0,
    R_TILE,
    R_TING,
    R_TMASK,
    R_TYPE,
    R_WIDTH,
    R_ZBITS,
)  # fmt: skip

_SUITS = {"m": 0, "p": 9, "s": 18}
TILE_CODES: dict[str, int] = {
    **{f"{n}{suit}": (base + n - 1) * 2 for suit, base in _SUITS.items() for n in range(1, 10)},
    **{f"0{suit}": RED_KINDS[i] * 2 + 1 for i, suit in enumerate(_SUITS)},
    **{f"{n}z": (27 + n - 1) * 2 for n in range(1, 8)},
}
"""Mahjong Soul tile string -> kernel tile code (``34-kind * 2 + red``), as codes.parse_tile reads it."""

KINDS = {"DealTile": K_DEAL, "DiscardTile": K_DISCARD, "ChiPengGang": K_CALL, "AnGangAddGang": K_KAN, "BaBei": K_BABEI}
"""Play record kind -> kernel kind."""


_ZHENTING_BITS: dict[tuple, int] = {
    flags: sum(1 << seat for seat, flag in enumerate(flags) if flag)
    for n in (3, 4)
    for bits in range(1 << n)
    for flags in [tuple(bool(bits >> seat & 1) for seat in range(n))]
}
"""``zhenting`` lists of three or four booleans (every record's) -> their bits."""


def flatten(records: list[Record]) -> tuple[np.ndarray, np.ndarray] | None:
    """The records as kernel rows (R_* columns) and their dora indicators' codes (each row's run: R_D0, R_DN);
    None when a record is not of a shape the kernel reads (play.py then reads the round)."""
    rows = np.zeros((len(records), R_WIDTH), dtype=np.int64)
    doras: list[int] = []
    codes, kinds, zhenting_bits = TILE_CODES, KINDS, _ZHENTING_BITS
    for r, record in enumerate(records):
        data = record.data
        row = rows[r]
        kind = kinds.get(record.kind, 0)
        seat = data.get("seat", 0)
        if not kind or type(seat) is not int or not 0 <= seat <= 3:
            return None
        row[R_KIND], row[R_INDEX], row[R_SEAT] = kind, record.index, seat
        if kind in (K_DEAL, K_DISCARD):
            tile = data.get("tile")
            code = codes.get(tile, -1) if type(tile) is str else -1
            if code < 0:
                return None
            row[R_TILE] = code
            zhenting = data.get("zhenting")
            if type(zhenting) is list:
                try:
                    bits = zhenting_bits[tuple(zhenting)]
                except (KeyError, TypeError):  # not three or four plain flags
                    _zhenting(zhenting, row)
                else:
                    row[R_NZ], row[R_ZBITS] = len(zhenting), bits
            if kind == K_DISCARD:
                if data.get("moqie"):
                    row[R_MOQIE] = 1
                if data.get("is_liqi") or data.get("is_wliqi"):
                    row[R_RIICHI] = 1
                if data.get("tingpais") and not _waits(data["tingpais"], row, codes):
                    return None
            elif "liqi" in data and not _liqi(data["liqi"], row):
                return None
        elif not _rare(kind, data, row, codes):
            return None
        found = data.get("doras")
        if found:
            if type(found) is not list:
                return None
            row[R_D0], row[R_DN] = len(doras), len(found)
            for text in found:
                code = codes.get(text, -1) if type(text) is str else -1
                if code < 0:
                    return None
                doras.append(code)
    return rows, np.array(doras, dtype=np.int64)


def _rare(kind: int, data: dict[str, Any], row: np.ndarray, codes: dict[str, int]) -> bool:
    """A call's, kan's or kita's fields into the row; False when one is not as play.py reads it."""
    if kind == K_CALL:
        return _call(data, row, codes) and _liqi(data.get("liqi"), row) and _zhenting(data.get("zhenting"), row)
    if kind == K_KAN:
        tile, kan_type = data.get("tiles"), data.get("type")
        code = codes.get(tile, -1) if type(tile) is str else -1
        if code < 0 or type(kan_type) is not int or not 0 <= kan_type <= 3:
            return False
        row[R_TILE], row[R_TYPE] = code, kan_type
    else:
        row[R_MOQIE] = bool(data.get("moqie"))
    return True


def _call(data: dict[str, Any], row: np.ndarray, codes: dict[str, int]) -> bool:
    """A RecordChiPengGang's type, tiles and froms into the row; False when one is not as play.call reads it."""
    call_type, texts, froms = data.get("type", 0), data.get("tiles") or [], data.get("froms") or []
    if type(call_type) is not int or not 0 <= call_type <= 3 or type(texts) is not list or type(froms) is not list \
            or len(texts) > 4 or len(froms) > 4:  # fmt: skip
        return False
    row[R_TYPE], row[R_NT], row[R_NF] = call_type, len(texts), len(froms)
    for i, text in enumerate(texts):
        code = codes.get(text, -1) if type(text) is str else -1
        if code < 0:
            return False
        row[R_T0 + i] = code
    for i, seat in enumerate(froms):
        if type(seat) is not int or not 0 <= seat <= 3:
            return False
        row[R_F0 + i] = seat
    return True


def _liqi(liqi: Any, row: np.ndarray) -> bool:
    """A record's ``liqi`` (LiQiSuccess) into the row: its seat + 1 (0: not an object) and ``failed``."""
    if not isinstance(liqi, dict):
        return True
    seat = liqi.get("seat", 0)
    if type(seat) is not int or not 0 <= seat <= 3:
        return False
    row[R_LIQI], row[R_LIQI_FAILED] = seat + 1, bool(liqi.get("failed"))
    return True


def _zhenting(zhenting: Any, row: np.ndarray) -> bool:
    """A record's ``zhenting`` (a flag per seat, as play.py reads them: the first four by truth; anything but a
    list: none) into the row."""
    if type(zhenting) is not list:
        return True
    row[R_NZ] = min(len(zhenting), 4)
    row[R_ZBITS] = sum(1 << seat for seat, flag in enumerate(zhenting[:4]) if flag)
    return True


def _waits(tingpais: Any, row: np.ndarray, codes: dict[str, int]) -> bool:
    """A discard's ``tingpais`` (TingPaiInfo objects) into the row: set or not, and their kinds as bits."""
    if not tingpais:
        return True
    if type(tingpais) is not list:
        return False
    mask = 0
    for info in tingpais:
        text = info.get("tile") if type(info) is dict else None
        code = codes.get(text, -1) if type(text) is str else -1
        if code < 0:
            return False
        mask |= 1 << (code >> 1)
    row[R_TING], row[R_TMASK] = 1, mask
    return True
