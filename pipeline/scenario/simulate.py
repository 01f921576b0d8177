"""Seeded simulator: whole Tenhou games played by simple bots through the scenario builder.

    python -m pipeline.scenario.simulate --out data/sample --games 24 --seed 7

writes synthetic games named like real Tenhou logs (``2026010100gm-00a9-0000-<8 hex>.mjlog``), a few of
them three-player and a few gzip-compressed, plus a README with what they contain.
"""

from __future__ import annotations

import argparse
import gzip
from collections import deque
from pathlib import Path

import numpy as np

from pipeline.scenario import bots
from pipeline.scenario.builder import GameBuilder
from pipeline.scenario.round import RoundBuilder
from pipeline.scenario.tiles import SANMA_MISSING_KINDS

NAMES = ("Akagi", "ツモ切り", "Ron-bot", "東風荘", "Kita", "さくら", "Mocha", "牌譜")
"""Player names the simulator draws from (some non-ASCII, to exercise the percent-encoding)."""

MAX_ROUNDS = 64
"""Safety stop for one game."""


class RoundPlayer:
    """Plays one round: a shuffled wall and dead wall, bots deciding every turn and every discard."""

    def __init__(self, game: GameBuilder, rng: np.random.Generator) -> None:
        self.rng = rng
        tiles = [t for t in range(136) if not (game.sanma and t // 4 in SANMA_MISSING_KINDS)]
        wall = [int(t) for t in rng.permutation(tiles)]
        n = game.players
        dead = wall[-14:]
        self.live = deque(wall[13 * n : -14])
        self.dora_next, self.rinshan = dead[1:5], dead[10:14]
        self.dora_after_draw = False
        hands = {s: wall[13 * s : 13 * s + 13] for s in range(n)}
        self.r: RoundBuilder = game.round(hands, dora_indicator=dead[0], ura_indicators=dead[5:10])

    def play(self) -> None:
        """Play until the round has its result."""
        r = self.r
        while not r.over:
            if r.phase_action == "draw":
                self._draw_and_act(r.turn)
            elif r.phase_action == "discard":
                self._turn(r.turn)
            else:
                self._after_discard()

    def _draw_and_act(self, seat: int) -> None:
        r = self.r
        if r.draws_left == 0:
            r.exhaustive_draw()
            return
        rinshan = r.rinshan_pending
        r.draw(seat, self._replacement() if rinshan else self.live.popleft())
        self._turn(seat)

    def _replacement(self) -> int:
        return self.rinshan.pop(0) if self.rinshan else self.live.pop()

    def _reveal_dora(self) -> None:
        if self.dora_next:
            self.r.dora(self.dora_next.pop(0))

    def _turn(self, seat: int) -> None:
        r = self.r
        action, tile = bots.choose_turn_action(r, seat, self.rng)
        if action != "tsumo" and self.dora_after_draw:
            self.dora_after_draw = False
            self._reveal_dora()
        if action == "tsumo":
            r.tsumo(seat)
        elif action == "yao9":
            r.abort("yao9")
        elif action == "kita":
            r.kita(seat, tile)
        elif action == "ankan":
            r.ankan(seat, tile)
            self._reveal_dora()
        elif action == "kakan":
            r.kakan(seat, tile)
            if not self._rons():
                self.dora_after_draw = True
        elif action == "riichi":
            r.riichi(seat, tile)
        else:
            r.discard(seat, tile)

    def _rons(self) -> bool:
        """Every bot that can ron the current tile does (three: sanchahou abort); True if any did."""
        r = self.r
        kakan = r.last_action == "kakan" and r.last_kakan is not None
        src = r.last_kakan[0] if kakan and r.last_kakan else r.last_discard[0] if r.last_discard else r.turn
        order = [(src + k) % r.n for k in range(1, r.n)]
        winners = [s for s in order if r.can_ron(s) is not None][: 2 if kakan else 3]
        if len(winners) == 3:
            r.abort("ron3", winners)
        for s in winners if len(winners) < 3 else []:
            r.ron(s)
        return bool(winners)

    def _after_discard(self) -> None:
        r = self.r
        if self._rons():
            return
        due = r.abort_due()
        if due is not None:
            r.abort(due)
            return
        call = bots.choose_call(r, self.rng)
        if call is None:
            self._draw_and_act(r.turn)
            return
        kind, seat, tiles = call
        if kind == "chi":
            r.chi(seat, tiles)
        elif kind == "pon":
            r.pon(seat)
        else:
            r.daiminkan(seat)
            self.dora_after_draw = True


def game_rule_type(players: int, rule_type: int | None, hanchan: bool) -> int:
    """The GO type written: ``rule_type`` (default 169 / 185) with bit 0x08 set by ``hanchan``."""
    base = rule_type if rule_type is not None else (169 if players == 4 else 185)
    return (base | 0x08) if hanchan else (base & ~0x08)


def simulate_game(seed: int, players: int = 4, rule_type: int | None = None, hanchan: bool = False) -> str:
    """Play a whole seeded game (tonpuu unless ``hanchan``) and return its mjlog XML text.

    ``rule_type`` is the GO type (default 169, or 185 for 3 players); its hanchan bit 0x08 is set or cleared
    to match ``hanchan`` so the header says what was played.
    """
    rng = np.random.default_rng(seed)
    picks = rng.choice(len(NAMES), size=players, replace=False)
    game = GameBuilder(
        players,
        game_rule_type(players, rule_type, hanchan),
        [NAMES[int(i)] for i in picks],
        seed=seed,
        dan=[int(d) for d in rng.integers(14, 20, players)],
        rate=[float(round(x, 2)) for x in rng.uniform(1900, 2300, players)],
        sx=["M" if x < 0.8 else "F" for x in rng.random(players)],
    )
    for _ in range(MAX_ROUNDS):
        if game.next_round() is None:
            break
        RoundPlayer(game, rng).play()
    return game.to_xml()


def sample_plan(n_games: int, seed: int) -> list[tuple[int, int, bool, bool]]:
    """(game seed, players, hanchan, gzip) per sample game.

    Every 6th game is sanma (hanchan, GO 185); the others alternate hanchan (169) and tonpuu (161);
    games 3 and 17 are gzip-compressed.
    """
    plan = []
    for i in range(n_games):
        game_seed = int(np.random.SeedSequence([seed, i]).generate_state(1)[0])
        sanma = i % 6 == 5
        plan.append((game_seed, 3 if sanma else 4, sanma or i % 2 == 0, i in (3, 17)))
    return plan


def write_sample(out: Path, n_games: int, seed: int) -> list[Path]:
    """Simulate the sample games into ``out``; returns the files written."""
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for game_seed, players, hanchan, zipped in sample_plan(n_games, seed):
        xml = simulate_game(game_seed, players, hanchan=hanchan)
        go = game_rule_type(players, None, hanchan)
        path = out / f"2026010100gm-{go:04x}-0000-{game_seed:08x}.mjlog"
        data = xml.encode("utf-8")
        path.write_bytes(gzip.compress(data, mtime=0) if zipped else data)
        written.append(path)
    return written


def main(argv: list[str] | None = None) -> None:
    """Command line: write the sample games and their README."""
    parser = argparse.ArgumentParser(description="Write synthetic Tenhou games played by seeded bots.")
    parser.add_argument("--out", type=Path, default=Path("data/sample"), help="output folder")
    parser.add_argument("--games", type=int, default=24, help="number of games")
    parser.add_argument("--seed", type=int, default=7, help="base seed")
    args = parser.parse_args(argv)
    files = write_sample(args.out, args.games, args.seed)
    from pipeline.scenario.sample_stats import write_readme

    write_readme(args.out, files, args.games, args.seed)
    print(f"wrote {len(files)} games to {args.out}")


if __name__ == "__main__":
    main()
