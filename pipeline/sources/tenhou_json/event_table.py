"""The events table of one game, as column arrays, from its replayed rounds.

Columns follow the XML parser's conventions (pipeline.columns): numpy integer arrays with -1 for
null, booleans as 1/0/-1, the action as a ``Coded`` column of the rules layer's vocabulary, meld
tiles as an object array (a list per call, None elsewhere). Tsumogiri, rinshan, red fives and the order
within the round are derived as for every format (pipeline.sources.event_flags).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from pipeline.columns import Coded
from pipeline.sources.event_flags import event_flags
from pipeline.sources.tenhou_json.tiles import IdEvent
from rules.hands import ACTIONS, CODE

_RAW = ("round_idx", "seat", "action", "tile", "from_seat", "meld_tiles", "source_index")
"""What a replay gives per event; the rest is derived for the whole game (pipeline.sources.event_flags)."""


@dataclass
class EventColumns:
    """Per-column lists of a game's events, appended round by round, turned into arrays once."""

    has_red_fives: bool
    lists: dict[str, list] = field(default_factory=lambda: {name: [] for name in _RAW})

    def add_round(self, round_idx: int, events: list[tuple[int, IdEvent]]) -> None:
        """Append one round's events, each with its source index, in order."""
        for source_index, event in events:
            row = (round_idx, event.seat, CODE[event.action], event.tile, event.from_seat, event.meld, source_index)
            for values, value in zip(self.lists.values(), row, strict=True):
                values.append(value)

    def columns(self) -> dict[str, np.ndarray | Coded]:
        """The events table's columns (game_id excluded)."""
        raw = {name: np.asarray(values, dtype=np.int64) for name, values in self.lists.items() if name != "meld_tiles"}
        melds = np.empty(len(self.lists["meld_tiles"]), dtype=object)
        melds[:] = self.lists["meld_tiles"]
        flags = event_flags(raw["round_idx"], raw["seat"], raw["action"], raw["tile"], self.has_red_fives)
        out = {**raw, **flags, "action": Coded(raw["action"], ACTIONS), "meld_tiles": melds}
        return {name: out[name] for name in _ORDER}

    def per_round(self, n_rounds: int) -> list[int]:
        """Events of each round."""
        return np.bincount(np.asarray(self.lists["round_idx"], dtype=np.int64), minlength=n_rounds).tolist()


_ORDER = ("round_idx", "event_idx", "seat", "action", "tile", "tile34", "is_red", "from_seat", "is_tsumogiri",
          "is_rinshan", "meld_tiles", "source_index")  # fmt: skip
