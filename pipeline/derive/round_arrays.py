"""The rounds of a chunk as typed numpy arrays: what every derivation reads of a round, read from Arrow once.

``RoundArrays`` replaces reading the rounds' Arrow columns by name in each derivation: one field per value,
(R,) or (R, 4) per seat, in round_id order (the rows of ``RoundInputs.rounds``, by game_id then round_idx).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from pipeline.columns import Coded
from pipeline.sources.base import RULE_DOUBLE_YAKUMAN, RULE_TRIPLE_RON_WINS


@dataclass(frozen=True)
class RoundArrays:
    """R rounds (round_id 0..R-1) with their game's rules, their draw and their winners."""

    game_id: np.ndarray
    """(R,) object: the game id of each round (str)."""
    game_ids: tuple[str, ...]
    """The distinct game ids, in game order."""
    game_of_round: np.ndarray
    """(R,) int64: each round's position in ``game_ids``."""
    round_idx: np.ndarray
    """(R,) the round's index in its game."""
    round_wind: np.ndarray
    """(R,) int64: 0 East, 1 South..."""
    kyoku: np.ndarray
    """(R,) int64: the round number within its wind (0-3)."""
    dealer: np.ndarray
    """(R,) int64: the dealer's seat."""
    honba: np.ndarray
    """(R,) int64: counters on the table at the start."""
    riichi_sticks: np.ndarray
    """(R,) int64: riichi sticks on the table at the start."""
    dora_indicator: np.ndarray
    """(R,) int64: 136-id of the first dora indicator."""
    n_players: np.ndarray
    """(R,) int64: 4, or 3 (sanma)."""
    n_winners: np.ndarray
    """(R,) int64: wins logged in the round."""
    is_last: np.ndarray
    """(R,) bool: the log says the game ended with this round."""
    has_red_fives: np.ndarray
    """(R,) bool: the game plays red fives."""
    has_kuitan: np.ndarray
    """(R,) bool: the game allows an open tanyao."""
    is_hanchan: np.ndarray
    """(R,) bool: an East-South game (else East only)."""
    started_at: np.ndarray
    """(R,) datetime64[s]: the game's start (NaT when undated)."""
    is_old_format: np.ndarray
    """(R,) bool: the game's log is in Tenhou's 2009 format (quirk 'shuffle_in_init')."""
    has_double_yakuman: np.ndarray
    """(R,) bool: the game's format scores double yakuman (rule quirk)."""
    has_triple_ron_wins: np.ndarray
    """(R,) bool: the game's format plays three rons as three wins (no sanchahou; rule quirk)."""
    scores_pre: np.ndarray
    """(R, 4) scores at the round's start (0 for an empty seat)."""
    scores_post: np.ndarray
    """(R, 4) scores at the round's end."""
    draw_kind: np.ndarray
    """(R,) object: the logged draw's kind (str), '' where the round did not end in a draw."""
    is_shown: np.ndarray
    """(R, 4) bool: the seat showed its hand at the draw."""
    draw_deltas: np.ndarray
    """(R, 4) the draw's logged score changes (0 where none)."""
    draw_deltas_logged: list
    """(R,) the draw's logged score changes as listed (a list of 4, or None without a draw)."""
    shown_counts: np.ndarray
    """(R, 4, 34) int16: the kinds of each seat's shown hand."""
    shown_sizes: np.ndarray
    """(R, 4) int64: tiles in each seat's shown hand (0: none shown)."""
    is_winner: np.ndarray
    """(R, 4) bool: the seat won the round."""
    is_ron_winner: np.ndarray
    """(R, 4) bool: the seat won the round by ron."""

    def __len__(self) -> int:
        """Rounds held."""
        return len(self.round_idx)

    def game_codes(self, round_ids: np.ndarray) -> Coded:
        """The game id of rounds ``round_ids`` as codes into ``game_ids`` (far faster to write than strings)."""
        return Coded(self.game_of_round[round_ids].astype(np.int32), self.game_ids)


def per_seat(column: pa.ChunkedArray, n: int, fill: object = 0) -> np.ndarray:
    """(n, 4) array of a list column with one value per seat (scores, deltas, shown flags); null rows
    and null values read as ``fill``."""
    lists = column.combine_chunks()
    # the non-null rows' values, placed by row (filling a list column's nulls in Arrow is far slower)
    values = pc.list_flatten(lists).fill_null(fill).to_numpy(zero_copy_only=False)
    out = np.full((n, 4), fill, dtype=values.dtype)
    out[lists.is_valid().to_numpy(zero_copy_only=False)] = values.reshape(-1, 4)
    return out


def seat_sets(column: pa.ChunkedArray, n: int) -> np.ndarray:
    """(n, 4) bool from a list<seat> column (e.g. the winners of each round; null: none)."""
    lengths = pc.list_value_length(column).fill_null(0).to_numpy(zero_copy_only=False)
    out = np.zeros((n, 4), dtype=bool)
    out[np.repeat(np.arange(n), lengths), pc.list_flatten(column).to_numpy(zero_copy_only=False)] = True
    return out


def has_quirk(rounds: pa.Table, quirk: str) -> np.ndarray:
    """(n_rounds,) bool: the round's game lists ``quirk`` in games.log_quirks (e.g. a rule such as
    'rule:triple_ron_wins' that a format records for its games)."""
    quirks = rounds["log_quirks"].combine_chunks()
    hits = pc.equal(pc.list_flatten(quirks), quirk).to_numpy(zero_copy_only=False)
    out = np.zeros(rounds.num_rows, dtype=bool)
    out[pc.list_parent_indices(quirks).to_numpy()[hits]] = True
    return out


def games_of_rounds(rounds: pa.Table) -> tuple[np.ndarray, np.ndarray]:
    """The distinct game ids of ``rounds`` (in game order) and each round's position among them."""
    ids = rounds["game_id"].to_numpy(zero_copy_only=False)
    new_game = np.r_[True, ids[1:] != ids[:-1]] if len(ids) else np.zeros(0, dtype=bool)
    return ids[new_game], np.cumsum(new_game) - 1


def _shown_hands(rounds: pa.Table) -> tuple[np.ndarray, np.ndarray]:
    """(R, 4, 34) int16 kinds and (R, 4) sizes of the hands shown at the draw (a round without: none)."""
    lists = rounds["hands_shown"].combine_chunks()
    per_seat_hands = pc.list_flatten(lists)
    lengths = np.zeros((rounds.num_rows, 4), dtype=np.int64)
    shown_rounds = lists.is_valid().to_numpy(zero_copy_only=False)
    lengths[shown_rounds] = pc.list_value_length(per_seat_hands).to_numpy(zero_copy_only=False).reshape(-1, 4)
    tiles = pc.list_flatten(per_seat_hands).to_numpy(zero_copy_only=False).astype(np.int64)
    owner = np.repeat(np.arange(lengths.size), lengths.ravel())
    shown = np.zeros((lengths.size, 34), dtype=np.int16)
    np.add.at(shown, (owner, tiles // 4), 1)
    return shown.reshape(rounds.num_rows, 4, 34), lengths


def round_arrays(rounds: pa.Table) -> RoundArrays:
    """The RoundArrays of ``rounds`` (pipeline.derive.inputs' rounds query, in round_id order)."""
    n = rounds.num_rows
    game_ids, game_of_round = games_of_rounds(rounds)

    def ints(name: str) -> np.ndarray:
        return rounds[name].to_numpy().astype(np.int64)

    def flags(name: str) -> np.ndarray:
        return rounds[name].to_numpy(zero_copy_only=False).astype(bool)

    shown_counts, shown_sizes = _shown_hands(rounds)
    return RoundArrays(
        game_id=rounds["game_id"].to_numpy(zero_copy_only=False),
        game_ids=tuple(game_ids.tolist()),
        game_of_round=game_of_round,
        round_idx=rounds["round_idx"].to_numpy(),
        round_wind=ints("round_wind"),
        kyoku=ints("kyoku"),
        dealer=ints("dealer"),
        honba=ints("honba"),
        riichi_sticks=ints("riichi_sticks"),
        dora_indicator=ints("dora_indicator"),
        n_players=ints("n_players"),
        n_winners=ints("n_winners"),
        is_last=flags("is_last"),
        has_red_fives=flags("has_red_fives"),
        has_kuitan=flags("has_kuitan"),
        is_hanchan=flags("is_hanchan"),
        started_at=rounds["started_at"].combine_chunks().cast(pa.timestamp("s")).to_numpy(zero_copy_only=False),
        is_old_format=has_quirk(rounds, "shuffle_in_init"),
        has_double_yakuman=has_quirk(rounds, RULE_DOUBLE_YAKUMAN),
        has_triple_ron_wins=has_quirk(rounds, RULE_TRIPLE_RON_WINS),
        scores_pre=per_seat(rounds["scores_pre"], n),
        scores_post=per_seat(rounds["scores_post"], n),
        draw_kind=np.array(rounds["draw_kind"].fill_null("").to_pylist(), dtype=object),
        is_shown=per_seat(rounds["is_shown"], n, False).astype(bool),
        draw_deltas=per_seat(rounds["draw_deltas"], n),
        draw_deltas_logged=rounds["draw_deltas"].to_pylist(),
        shown_counts=shown_counts,
        shown_sizes=shown_sizes,
        is_winner=seat_sets(rounds["winner_seats"], n),
        is_ron_winner=seat_sets(rounds["ron_seats"], n),
    )
