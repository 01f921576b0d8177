"""The derive layer as one readable chain: an ordered list of derivations, each naming what it needs and makes.

``CHAIN`` is walked in order by ``derive_part``. A derivation's ``needs`` are names of values made before it
(or ``GIVEN``: the chunk's inputs); its ``produces`` the values it makes, every one a name of ``VALUES`` with its
type; the derived tables are values named as the tables (pipeline.schema.DERIVED_TABLES), each a dict of
columns. ``check_chain`` (run at import) refuses a chain where a derivation needs what nothing before it makes,
a value made twice, an undeclared name, or a derived table nothing makes.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

import numpy as np

from pipeline.columns import ColumnValues
from pipeline.derive.aborts import abort_columns, could_ron_last
from pipeline.derive.draws import DrawTenpai, draw_outcomes
from pipeline.derive.furiten import declared_ron, interval_columns, pass_columns, win_check_columns
from pipeline.derive.hand_table import hand_state_columns
from pipeline.derive.inputs import RoundInputs
from pipeline.derive.riichi import riichi_columns
from pipeline.derive.round_arrays import RoundArrays
from pipeline.derive.scoring import scoring_columns
from pipeline.derive.seats import seat_round_columns
from pipeline.derive.transitions import transition_columns
from pipeline.schema import DERIVED_TABLES
from rules.analysis import analyse_states
from rules.furiten import (
    Passes,
    SeatHistory,
    classify_passes,
    current_waits,
    find_passes,
    own_discard_furiten,
    seat_history,
)
from rules.hands import EventArrays, HandStates, hand_states
from rules.visibility import Visibility, visibility


@dataclass(frozen=True)
class Derivation:
    """One step of the chain: ``run(*needs)`` (the values in that order) returns the value it ``produces``, or
    for several a dict of them by name."""

    name: str
    needs: tuple[str, ...]
    produces: tuple[str, ...]
    run: Callable[..., object]


class ChainError(Exception):
    """The chain is not well formed (see check_chain)."""


GIVEN = ("inputs", "rounds", "events")
"""What a chunk brings: RoundInputs (the wins, as Arrow), its RoundArrays and its EventArrays."""

VALUES: dict[str, type] = {
    "inputs": RoundInputs,
    "rounds": RoundArrays,
    "events": EventArrays,
    "states": HandStates,
    "vis": Visibility,
    "analysis": dict,  # rules.analysis.analyse_states: per-state columns
    "history": SeatHistory,
    "own_furiten": np.ndarray,  # per state: own-discard furiten 1/0, -1 mid-turn
    "draw_tenpai": DrawTenpai,
    "waits": np.ndarray,  # (n_events, 4) each seat's waits before each event (rules.furiten.current_waits)
    "passes": tuple,  # (event rows, seats) of every pass (rules.furiten.find_passes)
    "classified": Passes,
    "could_ron": np.ndarray,  # (n_rounds,) seats able to ron the round's last release
    **dict.fromkeys(DERIVED_TABLES, dict),
}
"""Every value the chain passes along, by name, with its type."""


CHAIN: tuple[Derivation, ...] = (
    Derivation("hand_states", ("events",), ("states",), hand_states),
    Derivation("visibility", ("events", "rounds"), ("vis",), lambda ev, rounds: visibility(ev, rounds.dora_indicator)),
    Derivation("analysis", ("states", "vis"), ("analysis",), analyse_states),
    Derivation("seat_history", ("events",), ("history",), seat_history),
    Derivation(
        "own_discard_furiten", ("states", "analysis", "history", "events"), ("own_furiten",),
        lambda states, analysis, history, ev: own_discard_furiten(states, analysis["waits_mask"], history, ev),
    ),
    Derivation("hand_states_table", ("rounds", "states", "analysis", "own_furiten"), ("hand_states",),
               hand_state_columns),
    Derivation("draw_outcomes", ("rounds", "events", "states", "analysis", "vis"), ("draw_outcomes", "draw_tenpai"),
               draw_outcomes),
    Derivation("round_transitions", ("rounds", "events", "draw_tenpai"), ("round_transitions",), transition_columns),
    Derivation("current_waits", ("states", "analysis", "events"), ("waits",),
               lambda states, analysis, ev: current_waits(states, analysis["waits_mask"], ev)),
    Derivation("find_passes", ("rounds", "events", "waits", "history"), ("passes",),
               lambda rounds, ev, waits, history: find_passes(ev, waits, declared_ron(rounds), history)),
    Derivation("classify_passes", ("events", "passes", "waits", "history"), ("classified",), classify_passes),
    Derivation("furiten_passes", ("inputs", "states", "classified"), ("furiten_passes",), pass_columns),
    Derivation("furiten", ("rounds", "events", "states", "own_furiten", "classified", "history"), ("furiten",),
               interval_columns),
    Derivation("win_checks", ("inputs", "states", "waits", "history", "passes"), ("win_checks",), win_check_columns),
    Derivation("could_ron_last", ("rounds", "events", "waits", "history", "passes"), ("could_ron",), could_ron_last),
    Derivation("aborts", ("rounds", "events", "could_ron"), ("abort_checks", "kyuushu"), abort_columns),
    Derivation("riichi", ("rounds", "events", "states", "analysis", "own_furiten"), ("riichi",), riichi_columns),
    Derivation("seat_rounds", ("inputs", "rounds", "events", "states", "analysis"), ("seat_rounds",),
               seat_round_columns),
    Derivation("scoring", ("inputs",), ("wins_scored", "fu_components"), scoring_columns),
)  # fmt: skip
"""The derive layer, in order (see the module docstring; ``python -m pipeline.derive.registry`` prints it)."""


def check_chain(chain: Iterable[Derivation], given: Iterable[str] = GIVEN) -> None:
    """Raise ChainError unless every derivation needs only values given or made before it, no value is made
    twice, every name is declared in VALUES and every derived table is made."""
    known = set(given)
    for step in chain:
        for name in (*step.needs, *step.produces):
            if name not in VALUES:
                raise ChainError(f"derivation {step.name}: {name!r} is not declared in VALUES")
        missing = [name for name in step.needs if name not in known]
        if missing:
            raise ChainError(f"derivation {step.name} needs {missing}, which nothing before it produces")
        again = [name for name in step.produces if name in known]
        if again:
            raise ChainError(f"derivation {step.name} produces {again} again")
        known.update(step.produces)
    unmade = sorted(set(DERIVED_TABLES) - known)
    if unmade:
        raise ChainError(f"no derivation produces the tables {unmade}")


check_chain(CHAIN)


def run_chain(values: dict[str, object], chain: Iterable[Derivation] = CHAIN) -> dict[str, object]:
    """Walk ``chain`` from ``values`` (the GIVEN ones), adding what each derivation makes (checked against its
    ``produces`` and their VALUES types); returns every value."""
    for step in chain:
        made = step.run(*(values[name] for name in step.needs))
        if len(step.produces) == 1:
            made = {step.produces[0]: made}
        if not isinstance(made, dict) or set(made) != set(step.produces):
            raise ChainError(f"derivation {step.name} made {sorted(made)}, not {sorted(step.produces)}")
        for name, value in made.items():
            if not isinstance(value, VALUES[name]):
                raise ChainError(f"derivation {step.name}: {name} is a {type(value).__name__}, not {VALUES[name]}")
        values.update(made)
    return values


def derive_part(inputs: RoundInputs) -> dict[str, dict[str, ColumnValues]]:
    """Run the chain over one chunk's rounds; return derived table name -> columns."""
    values = run_chain({"inputs": inputs, "rounds": inputs.round_arrays, "events": inputs.arrays})
    return {table: values[table] for table in DERIVED_TABLES}


def describe(chain: Iterable[Derivation] = CHAIN) -> str:
    """The chain as text: one line per derivation, its needs and what it produces."""
    return "\n".join(f"{step.name}: {', '.join(step.needs)} -> {', '.join(step.produces)}" for step in chain)


if __name__ == "__main__":
    print(describe())  # noqa: T201 - the chain, for a reader
