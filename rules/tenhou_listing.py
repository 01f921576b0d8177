"""How Tenhou lists a win: the yaku it shows, and a hand's reading spelled in MPSZ ('(123m) [1111z] 456p 55z').

The yaku listing rule: every yaku with han, and ura dora (id 53) on every riichi win without a yakuman even at
0 han; nothing for a hand that cannot win.
"""

from __future__ import annotations

import numpy as np

from rules.scoring import Hands, Scores
from rules.scoring.inputs import KOKUSHI, REGULAR
from rules.scoring.yaku import YAKU


def listed_yaku(
    yaku_han: np.ndarray, is_riichi: np.ndarray, can_win: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The yaku Tenhou lists for each win (see the module docstring), from ``yaku_han`` (N, n_yaku): (rows, yaku
    ids) of every listed yaku in win then id order, and (N,) how many each win lists."""
    listed = yaku_han > 0
    yakuman = (yaku_han[:, YAKU["tenhou"] : YAKU["suukantsu"] + 1] > 0).any(axis=1)
    listed[:, YAKU["ura_dora"]] |= is_riichi & ~yakuman
    listed &= np.asarray(can_win, dtype=bool)[:, None]
    rows, ids = np.nonzero(listed)
    return rows, ids, listed.sum(axis=1)


_SUIT = np.array(list("mmmmmmmmmpppppppppssssssssszzzzzzz"))
_NUMBER = np.array([str(k % 9 + 1) for k in range(34)])


def _spelled_pieces(kind: np.ndarray, is_sequence: np.ndarray, size: np.ndarray) -> np.ndarray:
    """MPSZ name of each piece: a sequence '123m', else ``size`` copies of the kind ('777z', '55p'); '' for a
    kind < 0."""
    k = np.maximum(kind, 0)
    run = np.strings.add(np.strings.add(_NUMBER[k], _NUMBER[np.minimum(k + 1, 33)]), _NUMBER[np.minimum(k + 2, 33)])
    same = np.strings.multiply(_NUMBER[k], size)
    return np.where(kind < 0, "", np.strings.add(np.where(is_sequence, run, same), _SUIT[k]))


def _piece_table() -> np.ndarray:
    """(3, 35, 2, 5) every piece's name by [wrapping (none, '(...)', '[...]'), kind (34: none, ''), is_sequence,
    size (0-4)]."""
    kind, sequence, size = np.meshgrid(np.r_[np.arange(34), -1], [False, True], np.arange(5), indexing="ij")
    name = _spelled_pieces(kind, sequence, size)
    wrapped = [np.strings.add(np.strings.add(left, name), right) for left, right in ("()", "[]")]
    return np.stack([name, *wrapped])


_PIECES = _piece_table()
"""Names of the pieces, looked up rather than spelled for every win (see _piece_table)."""


def piece_names(
    kind: np.ndarray, is_sequence: np.ndarray, size: np.ndarray | int, wrap: np.ndarray | int = 0
) -> np.ndarray:
    """MPSZ name of each piece: a sequence '123m', else ``size`` copies of the kind ('777z', '55p'), '' for a kind
    < 0; ``wrap`` 1 puts it in parentheses, 2 in brackets."""
    return _PIECES[wrap, np.where(kind < 0, 34, kind), np.asarray(is_sequence, dtype=np.intp), size]


def decomposition_strings(scores: Scores, hands: Hands) -> np.ndarray:
    """Readable chosen reading per win, e.g. '(123m) [1111z] 456p 789s 55z': called melds first, open ones in
    parentheses, closed kans in brackets, then the closed melds and the pair (seven pairs: the pairs; thirteen
    orphans: '19m19p19s1234567z+' and the paired kind)."""
    r = scores.reading
    if not len(r):
        return np.array([], dtype=str)
    parts = []
    for slot in range(4):
        closed_kan = r.is_kan[:, slot] & ~r.is_open[:, slot]
        wrap = np.where(closed_kan, 2, np.where(r.is_open[:, slot], 1, 0))
        size = np.where(r.is_kan[:, slot], 4, 3)
        parts.append(piece_names(r.kind[:, slot].astype(np.int64), r.is_sequence[:, slot], size, wrap))
    parts.append(piece_names(r.pair.astype(np.int64), False, 2))
    regular = np.where((r.win >= 0) & (r.form == REGULAR), np.strings.strip(_join(parts)), "")
    # seven pairs and thirteen orphans (few): spelled for their rows only
    special = np.flatnonzero((r.win >= 0) & (r.form != REGULAR))
    pairs = np.argsort(np.asarray(hands.closed)[special] != 2, axis=1, kind="stable")[:, :7]
    seven = _join([piece_names(pairs[:, i], False, 2) for i in range(7)])
    kokushi = np.strings.add("19m19p19s1234567z+", piece_names(pairs[:, 0], False, 1))
    named = np.where(r.form[special] == KOKUSHI, kokushi, seven)
    out = regular.astype(np.promote_types(regular.dtype, named.dtype))
    out[special] = named
    return out


def _join(parts: list[np.ndarray]) -> np.ndarray:
    """Join string arrays with single spaces, skipping empty pieces."""
    out = parts[0]
    for part in parts[1:]:
        out = np.where(part == "", out, np.strings.add(np.strings.add(out, " "), part))
    return out
