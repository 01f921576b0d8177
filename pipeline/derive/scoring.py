"""The wins_scored and fu_components tables: every win scored by the rules layer (rules.scoring).

From each win's logged tiles (closed hand with the winning tile, called melds, kita, dora and ura
indicators) and the round's event stream (situational yaku, pao, riichi sticks), the rules compute
fu with its components, han and yaku (Tenhou ids), points and score changes. Nothing here is read
from the log's own scoring labels (fu, han, yaku, points): those stay in ``wins`` to compare with.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from pipeline.columns import Coded, ColumnValues, Lists
from pipeline.derive.inputs import RoundInputs, has_quirk
from pipeline.sources.base import RULE_DOUBLE_YAKUMAN
from rules.hands import CODE, EventArrays, add_counts
from rules.scoring import Context, Hands, Scores, score_wins
from rules.scoring.dora import count_red, dora_counts
from rules.scoring.fu import COMPONENTS
from rules.scoring.inputs import (
    CHI,
    CLOSED_KAN,
    FORMS,
    KOKUSHI,
    NO_MELD,
    OPEN_KAN,
    PON,
    REGULAR,
    WAITS,
    all_tile_counts,
)
from rules.scoring.points import LIMIT_NAMES, bonus_winners, hand_values, score_deltas
from rules.scoring.situation import pao_seats, situations, sticks_at_result
from rules.scoring.yaku import YAKU

MAX_CALLS = 4
"""Called melds a hand can hold."""


def list_matrix(column: pa.ChunkedArray | pa.Array, width: int | None = None) -> np.ndarray:
    """(N, width) int64 of a list<int> column, -1 padded (width: the longest list when not given)."""
    column = column.combine_chunks() if isinstance(column, pa.ChunkedArray) else column
    lengths = pc.list_value_length(column).fill_null(0).to_numpy(zero_copy_only=False).astype(np.int64)
    values = pc.list_flatten(column).to_numpy(zero_copy_only=False).astype(np.int64)
    width = int(lengths.max(initial=0)) if width is None else width
    out = np.full((len(lengths), width), -1, dtype=np.int64)
    row = np.repeat(np.arange(len(lengths)), lengths)
    out[row, np.arange(len(values)) - np.repeat(np.cumsum(lengths) - lengths, lengths)] = values
    return out


def closed_kans(events: EventArrays) -> np.ndarray:
    """(n_rounds, 4) int64: bit k set when the seat declared a closed kan of 34-kind k in the round."""
    out = np.zeros((len(events.hands_start), 4), dtype=np.int64)
    rows = np.flatnonzero(events.action == CODE["ankan"])
    np.bitwise_or.at(out, (events.round_id[rows], events.seat[rows]), np.int64(1) << (events.tile[rows] // 4))
    return out


def called_melds(melds: pa.ChunkedArray, kans_closed: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each win's calls from its ``melds`` column: (kind, type) (N, 4) and every called tile (N, 16) 136-ids.

    A meld of three tiles of one kind is a pon, of three kinds a chi; four tiles are a kan, closed when
    ``kans_closed`` (N,) has the kind's bit (the winner's own ankan), else open (daiminkan or kakan).
    """
    per_win = melds.combine_chunks()
    n_melds = pc.list_value_length(per_win).fill_null(0).to_numpy(zero_copy_only=False).astype(np.int64)
    tiles = list_matrix(pc.list_flatten(per_win), 4)
    win = np.repeat(np.arange(len(n_melds)), n_melds)
    slot = np.arange(len(win)) - np.repeat(np.cumsum(n_melds) - n_melds, n_melds)
    kinds = np.where(tiles >= 0, tiles // 4, 99)
    low = kinds.min(axis=1)
    size = (tiles >= 0).sum(axis=1)
    closed = (kans_closed[win] >> np.minimum(low, 33)) & 1 == 1
    is_set = kinds.max(axis=1, initial=0, where=tiles >= 0) == low
    meld_type = np.select([size == 4, is_set], [np.where(closed, CLOSED_KAN, OPEN_KAN), PON], CHI)
    kind = np.full((len(n_melds), MAX_CALLS), -1, dtype=np.int64)
    types = np.full((len(n_melds), MAX_CALLS), NO_MELD, dtype=np.int64)
    all_tiles = np.full((len(n_melds), 4 * MAX_CALLS), -1, dtype=np.int64)
    kind[win, slot], types[win, slot] = low, meld_type
    all_tiles.reshape(-1, MAX_CALLS, 4)[win, slot] = tiles
    return kind, types, all_tiles


def with_winning_tile(hand: np.ndarray, tile: np.ndarray, meld_type: np.ndarray) -> np.ndarray:
    """The closed hands (N, 14) 136-ids, -1 padded, with the winning tile added where a log left it out (a hand
    one tile short of 14 - 3 x calls without that tile: some logs written by other tools do so)."""
    size = (hand >= 0).sum(axis=1)
    short = (size == 13 - 3 * (meld_type != NO_MELD).sum(axis=1)) & ~(hand == tile[:, None]).any(axis=1)
    out = hand.copy()
    out[np.flatnonzero(short), size[short]] = tile[short]
    return out


def _win_frame(inputs: RoundInputs) -> dict[str, np.ndarray]:
    """Per win: its round's row, winner, discarder, dealer, players, honba and the round's rules."""
    wins, rounds, position = inputs.wins, inputs.rounds, inputs.win_round
    return {
        "round": position,
        "seat": wins["seat"].to_numpy().astype(np.int64),
        "from_seat": wins["from_seat"].to_numpy().astype(np.int64),
        "is_tsumo": wins["is_tsumo"].to_numpy(zero_copy_only=False).astype(bool),
        "dealer": rounds["dealer"].to_numpy().astype(np.int64)[position],
        "n_players": rounds["n_players"].to_numpy().astype(np.int64)[position],
        "round_wind": rounds["round_wind"].to_numpy().astype(np.int64)[position],
        "honba": rounds["honba"].to_numpy().astype(np.int64)[position],
        "has_red_fives": rounds["has_red_fives"].to_numpy(zero_copy_only=False).astype(bool)[position],
    }


def win_inputs(inputs: RoundInputs) -> tuple[Hands, Context, dict[str, np.ndarray]]:
    """The rules' inputs for every win of ``inputs``: hands, context, and the per-win frame (see _win_frame)."""
    wins, frame = inputs.wins, _win_frame(inputs)
    n = wins.num_rows
    kind, types, meld_tiles = called_melds(wins["melds"], closed_kans(inputs.arrays)[frame["round"], frame["seat"]])
    hand = with_winning_tile(list_matrix(wins["hand"], 14), wins["tile"].to_numpy().astype(np.int64), types)
    has = hand >= 0
    closed = add_counts(np.nonzero(has)[0], hand[has] >> 2, np.ones(int(has.sum()), dtype=np.int8), (n, 34))
    hands = Hands(closed, wins["tile"].to_numpy().astype(np.int64) // 4, kind, types, frame["is_tsumo"])
    n_kita = wins["n_kita"].to_numpy().astype(np.int64)
    n_dora, n_ura = dora_counts(
        all_tile_counts(hands), list_matrix(wins["dora_indicators"]), list_matrix(wins["ura_indicators"]),
        frame["n_players"], n_kita,
    )  # fmt: skip
    flags = situations(
        inputs.arrays, frame["round"], frame["seat"], frame["is_tsumo"], frame["dealer"], frame["n_players"]
    )
    context = Context(
        seat_wind=(frame["seat"] - frame["dealer"]) % frame["n_players"],
        round_wind=frame["round_wind"],
        has_kuitan=wins["has_kuitan"].to_numpy(zero_copy_only=False).astype(bool),
        n_dora=n_dora,
        n_ura=n_ura,
        n_aka=count_red(np.concatenate([hand, meld_tiles], axis=1), frame["has_red_fives"]),
        has_double_yakuman=has_quirk(inputs.rounds, RULE_DOUBLE_YAKUMAN)[frame["round"]],
        **flags,
    )
    return hands, context, frame


def payments(inputs: RoundInputs, scores: Scores, frame: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """Per win: pao seat (-1 none), hand value (points) and score changes (W, 4)."""
    dragons, winds = pao_seats(inputs.arrays)
    at = (frame["round"], frame["seat"])
    pao = np.where(scores.yaku_han[:, YAKU["daisangen"]] > 0, dragons[at], -1)
    pao = np.where((pao < 0) & (scores.yaku_han[:, YAKU["daisuushii"]] > 0), winds[at], pao)
    sticks = sticks_at_result(inputs.arrays, inputs.rounds["riichi_sticks"].to_numpy())[frame["round"]]
    bonus = bonus_winners(frame["round"], frame["seat"], frame["from_seat"], frame["n_players"])
    seat, dealer, is_tsumo, n_players = frame["seat"], frame["dealer"], frame["is_tsumo"], frame["n_players"]
    value = hand_values(scores.basic, seat, dealer, is_tsumo, n_players, pao)
    deltas = score_deltas(
        scores.basic, seat, frame["from_seat"], dealer, is_tsumo, n_players, frame["honba"], sticks, pao, bonus
    )
    return {"pao": pao, "points": value, "deltas": deltas, "sticks": np.where(bonus, sticks, 0)}


def yaku_lists(yaku_han: np.ndarray, is_riichi: np.ndarray, can_win: np.ndarray) -> tuple[Lists, Lists]:
    """(yaku ids, their han) per win as Tenhou lists them: every yaku with han, and ura dora (id 53)
    with riichi even at 0 (Tenhou lists it on every riichi win without a yakuman); empty where the
    hand cannot win (``can_win`` false)."""
    listed = yaku_han > 0
    yakuman = (yaku_han[:, YAKU["tenhou"] : YAKU["suukantsu"] + 1] > 0).any(axis=1)
    listed[:, YAKU["ura_dora"]] |= is_riichi & ~yakuman
    listed &= np.asarray(can_win, dtype=bool)[:, None]
    rows, ids = np.nonzero(listed)
    counts = listed.sum(axis=1)
    return Lists.from_counts(ids, counts), Lists.from_counts(yaku_han[rows, ids].astype(np.int64), counts)


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


def _piece_names(
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
        parts.append(_piece_names(r.kind[:, slot].astype(np.int64), r.is_sequence[:, slot], size, wrap))
    parts.append(_piece_names(r.pair.astype(np.int64), False, 2))
    regular = np.where((r.win >= 0) & (r.form == REGULAR), np.strings.strip(_join(parts)), "")
    # seven pairs and thirteen orphans (few): spelled for their rows only
    special = np.flatnonzero((r.win >= 0) & (r.form != REGULAR))
    pairs = np.argsort(np.asarray(hands.closed)[special] != 2, axis=1, kind="stable")[:, :7]
    seven = _join([_piece_names(pairs[:, i], False, 2) for i in range(7)])
    kokushi = np.strings.add("19m19p19s1234567z+", _piece_names(pairs[:, 0], False, 1))
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


def scoring_columns(inputs: RoundInputs) -> dict[str, dict[str, ColumnValues]]:
    """Score every win of a part: {"wins_scored": columns, "fu_components": columns} (see pipeline.schema.scoring)."""
    wins = inputs.wins
    hands, context, frame = win_inputs(inputs)
    scores = score_wins(hands, context)
    paid = payments(inputs, scores, frame)
    can_win = scores.has_yaku
    yaku, yaku_han = yaku_lists(scores.yaku_han, np.asarray(context.is_riichi), can_win)
    reading = scores.reading
    key = {
        "game_id": wins["game_id"].to_numpy(zero_copy_only=False),
        "round_idx": wins["round_idx"].to_numpy(),
        "win_idx": wins["win_idx"].to_numpy(),
    }
    scored = {
        **key,
        "seat": frame["seat"],
        "is_complete": reading.win >= 0,
        "has_yaku": scores.has_yaku,
        "form": Coded(np.where(reading.win >= 0, reading.form, -1), FORMS),
        "wait": Coded(np.where(reading.win >= 0, reading.wait, -1), WAITS),
        "decomposition": decomposition_strings(scores, hands).astype(object),
        "is_closed": ~(np.asarray(hands.meld_type)[:, :, None] == np.array([CHI, PON, OPEN_KAN])).any(axis=(1, 2)),
        "fu": scores.fu,
        "han": scores.han,
        "yaku": yaku,
        "yaku_han": yaku_han,
        "n_yakuman": scores.n_yakuman,
        "n_dora": np.asarray(context.n_dora),
        "n_ura": np.where(context.is_riichi, context.n_ura, 0),
        "n_aka": np.asarray(context.n_aka),
        "limit_name": Coded(scores.limit.astype(np.int64), LIMIT_NAMES),
        "points": np.where(can_win, paid["points"], -1),
        "pao_seat": paid["pao"],
        "riichi_sticks": paid["sticks"],
        "score_deltas": [d if ok else None for d, ok in zip(paid["deltas"].tolist(), can_win.tolist(), strict=True)],
    }
    rows, component = np.nonzero(scores.fu_parts)
    components = {
        **{name: values[rows] for name, values in key.items()},
        "component": Coded(component, COMPONENTS),
        "fu": scores.fu_parts[rows, component],
    }
    return {"wins_scored": scored, "fu_components": components}
