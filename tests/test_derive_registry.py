"""pipeline.derive.registry: the chain is well formed, and a malformed one is refused."""

from __future__ import annotations

import pytest

from pipeline.derive.registry import CHAIN, VALUES, ChainError, Derivation, check_chain, describe, run_chain
from pipeline.schema import DERIVED_TABLES


def test_the_chain_makes_every_derived_table_once() -> None:
    check_chain(CHAIN)
    made = [name for step in CHAIN for name in step.produces]
    assert sorted(set(made) & set(DERIVED_TABLES)) == sorted(DERIVED_TABLES)
    assert len(made) == len(set(made))
    assert describe().splitlines()[0] == "hand_states: events -> states"


def test_a_need_nothing_before_produces_is_an_error() -> None:
    late = (CHAIN[1], CHAIN[2], CHAIN[0], *CHAIN[3:])  # the analysis before hand_states
    with pytest.raises(ChainError, match="analysis needs \\['states'\\]"):
        check_chain(late)


def test_a_value_made_twice_or_undeclared_or_a_table_not_made_is_an_error() -> None:
    with pytest.raises(ChainError, match="again"):
        check_chain((*CHAIN, CHAIN[0]))
    with pytest.raises(ChainError, match="not declared"):
        check_chain((*CHAIN, Derivation("extra", ("events",), ("nothing_known",), lambda events: None)))
    with pytest.raises(ChainError, match="no derivation produces the tables"):
        check_chain(CHAIN[:-1])


def test_running_checks_what_a_derivation_makes() -> None:
    wrong_type = Derivation("bad", ("events",), ("passes",), lambda events: "not a tuple")
    with pytest.raises(ChainError, match="passes is a str"):
        run_chain({"events": None}, [wrong_type])
    wrong_names = Derivation("bad", ("events",), ("passes", "states"), lambda events: {"passes": ()})
    with pytest.raises(ChainError, match="made"):
        run_chain({"events": None}, [wrong_names])
    assert VALUES["passes"] is tuple
