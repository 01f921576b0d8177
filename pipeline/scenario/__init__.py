"""Scenario builder: write valid Tenhou XML (mjlog) games from hands and event sequences, for tests.

``GameBuilder`` builds a game round by round (``RoundBuilder`` actions: draw, discard, riichi, chi, pon,
daiminkan, ankan, kakan, kita, dora, ron, tsumo, exhaustive_draw, abort); ``one_round`` is the short way
to a one-round game; ``simulate_game`` (in ``pipeline.scenario.simulate``) plays whole games with simple
seeded bots. The ``mahjong`` package (a test dependency) is imported only when a hand is evaluated.
"""

from pipeline.scenario.builder import GameBuilder, RoundStart, one_round, render_tag
from pipeline.scenario.hands import WinConditions, WinValue
from pipeline.scenario.melds import Meld
from pipeline.scenario.round import RoundBuilder
from pipeline.scenario.tiles import ScenarioError, parse_mpsz, tile_name, tiles_to_mpsz

__all__ = [
    "GameBuilder",
    "Meld",
    "RoundBuilder",
    "RoundStart",
    "ScenarioError",
    "WinConditions",
    "WinValue",
    "one_round",
    "parse_mpsz",
    "render_tag",
    "tile_name",
    "tiles_to_mpsz",
]
