"""A batch's fact tables as the flat numpy arrays the invariant kernel reads.

Every row gets the index of its game (its ``game_id`` looked up among the games table's ids: -1 when the game is
not there) and every value a plain integer, null as -1; a list column is its flat values and the offsets of each
row's run. What the kernel cannot judge exactly (a null where no server writes one, a value out of range) it
treats as a suspect, so these arrays never need to say more than that.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

NULL = -1
"""What a null integer becomes."""


def _lookup(column: pa.Array, value_set: pa.Array) -> np.ndarray:
    """Index into ``value_set`` of each value of a string column (int64; -1 for null or a value not there); a
    dictionary column (the parsers' usual layout) is looked up once per distinct value."""
    if not pa.types.is_dictionary(column.type):
        found = pc.fill_null(pc.index_in(column, value_set=value_set), NULL)
        return found.to_numpy(zero_copy_only=False).astype(np.int64)
    per_code = _lookup(column.dictionary.cast(pa.string()), value_set)
    if not len(per_code):
        return np.full(len(column), NULL, dtype=np.int64)
    found = per_code[pc.fill_null(column.indices, 0).to_numpy(zero_copy_only=False)]
    return np.where(column.is_null().to_numpy(zero_copy_only=False), NULL, found)


def game_index(table: pa.Table, game_ids: pa.Array) -> np.ndarray:
    """Index into ``game_ids`` of each row's ``game_id`` (int64; -1 when it is not one of them)."""
    return _lookup(table.column("game_id").combine_chunks(), game_ids)


def codes(table: pa.Table, name: str, values: tuple[str, ...]) -> np.ndarray:
    """A string column as the index of each value in ``values`` (int64; -1 for null or any other string)."""
    return _lookup(table.column(name).combine_chunks(), pa.array(values, pa.string()))


def integers(table: pa.Table, name: str) -> np.ndarray:
    """An integer or boolean column as int64, null as -1."""
    column = table.column(name).combine_chunks()
    if pa.types.is_boolean(column.type):
        column = column.cast(pa.int8())
    return pc.fill_null(column, NULL).to_numpy(zero_copy_only=False).astype(np.int64)


@dataclass(frozen=True)
class Flat:
    """A list column: row i holds values[offsets[i]:offsets[i + 1]]; ``unsure`` marks the rows that are null or
    hold a null (kept as -1 among the values, which may be negative: scores)."""

    values: np.ndarray
    offsets: np.ndarray
    unsure: np.ndarray


def _flat(column: pa.Array) -> tuple[Flat, pa.Array]:
    """A list array as Flat, and its values as an Arrow array (for a list of lists: the inner lists)."""
    lengths = pc.fill_null(pc.list_value_length(column), 0).to_numpy(zero_copy_only=False).astype(np.int64)
    offsets = np.zeros(len(column) + 1, dtype=np.int64)
    np.cumsum(lengths, out=offsets[1:])
    values = column.flatten()
    unsure = column.is_null().to_numpy(zero_copy_only=False).copy()
    if values.null_count:
        row_of_value = np.repeat(np.arange(len(column)), lengths)
        unsure[row_of_value[values.is_null().to_numpy(zero_copy_only=False)]] = True
    as_integers = np.zeros(0, dtype=np.int64)
    if not (pa.types.is_list(values.type) or pa.types.is_large_list(values.type)):
        as_integers = pc.fill_null(values, NULL).to_numpy(zero_copy_only=False).astype(np.int64)
    return Flat(as_integers, offsets, unsure), values


def flat(table: pa.Table, name: str) -> Flat:
    """A list<int> column as Flat."""
    return _flat(table.column(name).combine_chunks())[0]


def nested(table: pa.Table, name: str) -> tuple[Flat, Flat]:
    """A list<list<int>> column: the outer lists (their ``offsets`` index the inner lists; ``values`` is empty)
    and the inner lists, both as Flat."""
    outer, inner = _flat(table.column(name).combine_chunks())
    return outer, _flat(inner)[0]
