"""Column values as parsers hand them over: Python lists, or numpy arrays built in bulk.

In a nullable column, a numpy array of integers uses -1 for null (every paipu integer that can be
null is otherwise non-negative: seats, tiles, indexes); a numpy column for a boolean field holds 1,
0 or -1 (null); a non-nullable column keeps its values as they are (shanten -1 is a value);
a 2-D numpy array is a fixed-size list column (one row per row), or for a string column one ASCII
string per row (its bytes).
A ``Coded`` column holds small integer codes into a tuple of strings (-1: null); a ``Repeated`` piece
is one string repeated (a game's id on each of its rows), concatenated into a ``Coded``. Per-game pieces are
concatenated per batch and turned into Arrow once, which is far cheaper than per game.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import chain

import numpy as np
import pyarrow as pa


@dataclass(frozen=True)
class Coded:
    """A string column as integer codes into ``categories``."""

    codes: np.ndarray
    categories: tuple[str, ...]

    def __len__(self) -> int:
        return len(self.codes)


@dataclass(frozen=True)
class Repeated:
    """One string value on ``count`` rows (e.g. a game's id on every event of the game)."""

    value: str
    count: int

    def __len__(self) -> int:
        return self.count


@dataclass(frozen=True)
class Lists:
    """A list column as flat ``values`` and ``offsets`` (row i holds values[offsets[i]:offsets[i + 1]]), as
    Arrow lays it out: built in bulk, without a Python list per row. ``valid`` (bool per row, None: every row)
    marks the rows that hold a list; the others are null (their offsets span nothing)."""

    values: np.ndarray
    offsets: np.ndarray
    valid: np.ndarray | None = None

    @classmethod
    def from_counts(cls, values: np.ndarray, counts: np.ndarray) -> Lists:
        """Rows made of consecutive runs of ``counts`` values."""
        return cls(values, np.concatenate([[0], np.cumsum(counts)]).astype(np.int32))

    @classmethod
    def from_padded(cls, padded: np.ndarray, sizes: np.ndarray) -> Lists:
        """Row i holds the first ``sizes[i]`` values of ``padded[i]`` (a 2-D array); a row of size 0 is null."""
        sizes = np.asarray(sizes, dtype=np.int64)
        held = np.flatnonzero(sizes)  # the rows holding a list: few (a game's calls among its events)
        values = padded[held][np.arange(padded.shape[1]) < sizes[held, None]]
        offsets = np.zeros(len(sizes) + 1, dtype=np.int32)
        np.cumsum(sizes, out=offsets[1:])
        return cls(values, offsets, sizes > 0)

    @classmethod
    def from_objects(cls, rows: np.ndarray | list) -> Lists:
        """Rows given as Python lists (or None for a null row), e.g. an object array a parser filled."""
        sizes = np.fromiter((-1 if row is None else len(row) for row in rows), dtype=np.int64, count=len(rows))
        flat = [value for row in rows if row is not None for value in row]
        offsets = np.concatenate([[0], np.cumsum(np.maximum(sizes, 0))]).astype(np.int32)
        return cls(np.array(flat, dtype=np.int64), offsets, sizes >= 0)

    def __len__(self) -> int:
        return len(self.offsets) - 1

    def __getitem__(self, row: int) -> list | None:
        """Row ``row`` as a Python list, or None for a null row (for reading a few rows, not in bulk)."""
        if self.valid is not None and not self.valid[row]:
            return None
        return self.values[self.offsets[row] : self.offsets[row + 1]].tolist()


def concat_lists(parts: list[Lists]) -> Lists:
    """Rows of several Lists one after the other (each part's offsets shifted past the values before it)."""
    if any(p.offsets[0] != 0 or p.offsets[-1] != len(p.values) for p in parts):  # a part spanning part of its values
        parts = [Lists(p.values[p.offsets[0] : p.offsets[-1]], p.offsets - p.offsets[0], p.valid) for p in parts]
    n_values = np.fromiter((len(p.values) for p in parts), dtype=np.int32, count=len(parts))
    n_rows = np.fromiter((len(p) for p in parts), dtype=np.int64, count=len(parts))
    offsets = np.zeros(n_rows.sum() + 1, dtype=np.int32)
    np.concatenate([p.offsets[1:] for p in parts], out=offsets[1:], casting="same_kind")
    offsets[1:] += np.repeat(np.cumsum(n_values) - n_values, n_rows)  # each part's rows moved past the parts before
    valid = None
    if any(p.valid is not None for p in parts):
        valid = np.concatenate([np.ones(len(p), bool) if p.valid is None else p.valid for p in parts])
    return Lists(np.concatenate([p.values for p in parts]), offsets, valid)


ColumnValues = list | np.ndarray | Coded | Repeated | Lists
"""What a parser may put in a column buffer."""


def concat_columns(parts: list[ColumnValues]) -> ColumnValues:
    """Concatenate one column's pieces (all of one kind, or lists mixed with empty pieces; a Lists column
    may have pieces given as object arrays of lists, turned into Lists)."""
    kinds = set(map(type, parts))  # C-speed first look; empty pieces are weeded out only when kinds mix
    if len(kinds) > 1:
        parts = [p for p in parts if len(p)]
        kinds = set(map(type, parts))
    if not parts or not kinds:
        return []
    if kinds == {list}:
        return list(chain.from_iterable(parts))
    if Lists in kinds:
        pieces = [p if isinstance(p, Lists) else Lists.from_objects(p) for p in parts if len(p)]
        return concat_lists(pieces) if pieces else []
    if kinds == {np.ndarray}:
        arrays = [p for p in parts if len(p)]  # an empty piece's dtype must not widen the others'
        if not arrays:
            return []
        return np.concatenate(arrays) if len(arrays) > 1 else arrays[0]
    if kinds == {Repeated}:
        pieces = [p for p in parts if p.count]
        codes = np.repeat(np.arange(len(pieces), dtype=np.int32), [p.count for p in pieces])
        return Coded(codes, tuple(p.value for p in pieces))
    if kinds == {Coded}:
        coded = [p for p in parts if len(p)]
        if any(c.categories != coded[0].categories for c in coded):
            raise ValueError("coded pieces with different categories")
        return Coded(np.concatenate([c.codes for c in coded]), coded[0].categories) if coded else []
    raise ValueError(f"cannot concatenate column pieces of kinds {sorted(k.__name__ for k in kinds)}")


def to_arrow_array(
    values: ColumnValues, type_: pa.DataType, nullable: bool = True, keep_dictionary: bool = False
) -> pa.Array:
    """Convert column values to an Arrow array of ``type_`` (codes -> strings, or with ``keep_dictionary`` a
    dictionary array of them; in a nullable column, numpy -1 -> null: a non-nullable column keeps negative
    values such as shanten -1)."""
    if isinstance(values, Lists):
        flat = pa.array(values.values, type_.value_type)
        offsets = pa.array(values.offsets, pa.int32())
        null = None if values.valid is None or values.valid.all() else pa.array(~values.valid)
        return pa.ListArray.from_arrays(offsets, flat, type=type_, mask=null)
    if isinstance(values, Repeated):
        values = concat_columns([values])
    if isinstance(values, Coded):
        dictionary = pa.array(values.categories, pa.string())
        null = values.codes < 0
        code_type = pa.int8() if len(values.categories) < 128 else pa.int32()
        codes = pa.array(_narrowed(values.codes, code_type), code_type, mask=null if null.any() else None)
        encoded = pa.DictionaryArray.from_arrays(codes, dictionary)  # checks the codes
        if keep_dictionary and pa.types.is_string(type_):
            return encoded
        strings = dictionary.take(codes)  # each row's string: the same as casting ``encoded``, cheaper
        return strings if strings.type == type_ else strings.cast(type_)
    if isinstance(values, np.ndarray) and values.ndim == 2 and pa.types.is_string(type_):
        return _fixed_width_strings(values)
    if isinstance(values, np.ndarray) and values.ndim == 2:
        flat = pa.array(values.ravel(), type_.value_type)
        return pa.FixedSizeListArray.from_arrays(flat, values.shape[1])
    if isinstance(values, np.ndarray) and values.dtype != object:
        values = _narrowed(values, type_)
        mask = None
        if nullable and values.dtype != np.bool_:  # a bool array holds no -1 (looked for only where it may be)
            null = values < 0
            mask = null if null.any() else None
        if pa.types.is_boolean(type_):
            return pa.array(values if values.dtype == np.bool_ else values > 0, type_, mask=mask)
        return pa.array(values, type_, mask=mask)
    return pa.array(values, type=type_)


def _narrowed(values: np.ndarray, type_: pa.DataType) -> np.ndarray:
    """Integer ``values`` at ``type_``'s width when they all fit (numpy casts a wide array at a fraction of Arrow's
    checked cast's cost); else as they are, for Arrow's checked cast to refuse the value that does not fit."""
    if not (pa.types.is_integer(type_) and values.dtype.kind in "iu" and values.dtype.itemsize * 8 > type_.bit_width):
        return values
    target = np.dtype(type_.to_pandas_dtype())
    info = np.iinfo(target)
    if len(values) and not (info.min <= values.min() and values.max() <= info.max):
        return values
    return values.astype(target)


def _fixed_width_strings(chars: np.ndarray) -> pa.Array:
    """A string array from an (N, width) array of ASCII codes: row i is the string of its bytes."""
    rows, width = chars.shape
    offsets = np.arange(0, width * (rows + 1), width, dtype=np.int32)
    data = np.ascontiguousarray(chars, dtype=np.uint8)
    return pa.StringArray.from_buffers(rows, pa.py_buffer(offsets.tobytes()), pa.py_buffer(data.tobytes()))
