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
from pipeline.derive.inputs import RoundInputs
from rules.hands import add_counts
from rules.melds import closed_kans, infer_melds, with_winning_tile
from rules.scoring import Context, Hands, Scores, score_wins
from rules.scoring.dora import count_red, dora_counts
from rules.scoring.fu import COMPONENTS
from rules.scoring.inputs import CHI, FORMS, OPEN_KAN, PON, WAITS, all_tile_counts
from rules.scoring.points import LIMIT_NAMES, bonus_winners, hand_values, score_deltas
from rules.scoring.situation import pao_seats, situations, sticks_at_result
from rules.scoring.yaku import YAKU
from rules.tenhou_listing import decomposition_strings, listed_yaku


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


def called_melds(melds: pa.ChunkedArray, kans_closed: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each win's calls from its ``melds`` column (list<list<int>>): rules.melds.infer_melds of its tiles."""
    per_win = melds.combine_chunks()
    n_melds = pc.list_value_length(per_win).fill_null(0).to_numpy(zero_copy_only=False).astype(np.int64)
    tiles = list_matrix(pc.list_flatten(per_win), 4)
    win = np.repeat(np.arange(len(n_melds)), n_melds)
    slot = np.arange(len(win)) - np.repeat(np.cumsum(n_melds) - n_melds, n_melds)
    return infer_melds(tiles, win, slot, len(n_melds), kans_closed)


def yaku_lists(yaku_han: np.ndarray, is_riichi: np.ndarray, can_win: np.ndarray) -> tuple[Lists, Lists]:
    """(yaku ids, their han) per win as Tenhou lists them (rules.tenhou_listing.listed_yaku), as list columns."""
    rows, ids, counts = listed_yaku(yaku_han, is_riichi, can_win)
    return Lists.from_counts(ids, counts), Lists.from_counts(yaku_han[rows, ids].astype(np.int64), counts)


def _win_frame(inputs: RoundInputs) -> dict[str, np.ndarray]:
    """Per win: its round's row, winner, discarder, dealer, players, honba and the round's rules."""
    wins, rounds, position = inputs.wins, inputs.round_arrays, inputs.win_round
    return {
        "round": position,
        "seat": wins["seat"].to_numpy().astype(np.int64),
        "from_seat": wins["from_seat"].to_numpy().astype(np.int64),
        "is_tsumo": wins["is_tsumo"].to_numpy(zero_copy_only=False).astype(bool),
        "dealer": rounds.dealer[position],
        "n_players": rounds.n_players[position],
        "round_wind": rounds.round_wind[position],
        "honba": rounds.honba[position],
        "has_red_fives": rounds.has_red_fives[position],
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
        has_double_yakuman=inputs.round_arrays.has_double_yakuman[frame["round"]],
        **flags,
    )
    return hands, context, frame


def payments(inputs: RoundInputs, scores: Scores, frame: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """Per win: pao seat (-1 none), hand value (points) and score changes (W, 4)."""
    dragons, winds = pao_seats(inputs.arrays)
    at = (frame["round"], frame["seat"])
    pao = np.where(scores.yaku_han[:, YAKU["daisangen"]] > 0, dragons[at], -1)
    pao = np.where((pao < 0) & (scores.yaku_han[:, YAKU["daisuushii"]] > 0), winds[at], pao)
    sticks = sticks_at_result(inputs.arrays, inputs.round_arrays.riichi_sticks)[frame["round"]]
    bonus = bonus_winners(frame["round"], frame["seat"], frame["from_seat"], frame["n_players"])
    seat, dealer, is_tsumo, n_players = frame["seat"], frame["dealer"], frame["is_tsumo"], frame["n_players"]
    value = hand_values(scores.basic, seat, dealer, is_tsumo, n_players, pao)
    deltas = score_deltas(
        scores.basic, seat, frame["from_seat"], dealer, is_tsumo, n_players, frame["honba"], sticks, pao, bonus
    )
    return {"pao": pao, "points": value, "deltas": deltas, "sticks": np.where(bonus, sticks, 0)}


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
