"""Fact tables stored in a leaner layout than the columns their views give (schema version 8).

The parsers build, check and hand the rules layer the declared columns of pipeline.schema.facts; the Parquet
parts hold the layout declared here, and the staging view of the same name (pipeline/sql/staging) gives the
declared columns back. Only events is stored otherwise: ~960 rows a game, half the warehouse's fact bytes.
Its three nullable flags are kept in one byte and its tile34 not at all (the tile's kind, tile // 4): 29% fewer
bytes and 29% less Parquet writing (benchmarks/README.md). The action stays a string: dictionary-encoded in the
Parquet it is as small as a code, and the view's filters and groupings on it stay as fast as before.
"""

from __future__ import annotations

from pipeline.schema.base import U8, Column, col
from pipeline.schema.facts import EVENTS


def _declared(name: str) -> Column:
    """The events column ``name`` as the parsers declare it (stored as it is)."""
    return next(c for c in EVENTS if c.name == name)


EVENT_FLAGS = ("is_red", "is_tsumogiri", "is_rinshan")
"""The events flags packed in ``flags``, two bits each from bit 0 (0 null, 1 false, 2 true)."""

EVENTS_STORED = [
    *(_declared(name) for name in ("game_id", "round_idx", "event_idx", "seat", "action", "tile", "from_seat")),
    col("flags", U8, "Three flags of two bits each, 0 null, 1 false, 2 true, from bit 0: is_red, is_tsumogiri, "
        "is_rinshan; the events view gives them as booleans, and tile34 as tile // 4"),
    *(_declared(name) for name in ("meld_tiles", "source_index")),
]  # fmt: skip

STORED_TABLES: dict[str, list[Column]] = {"events": EVENTS_STORED}
"""Fact tables whose Parquet layout is not their declared columns: table -> the stored columns."""

STORED_SINCE = {"events": 8}
"""The schema version from which each table of STORED_TABLES has its stored layout (older parts hold the
declared columns: pipeline.store.upgrade rewrites them before they are read)."""
