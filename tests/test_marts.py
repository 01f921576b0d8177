"""The statistics marts against the same numbers counted straight from the tables' labels."""

from __future__ import annotations

from pipeline.statistics import round_outcome_stats, rules_stats


def test_the_three_draw_definitions_equal_direct_counts(tenhou_db) -> None:
    stats = {s.name: s for s in round_outcome_stats(tenhou_db)}
    rounds = tenhou_db.execute(
        "select r.round_wind, r.kyoku, r.honba, d.kind from rounds r left join draws d using (game_id, round_idx)"
    ).fetchall()
    exhaustive = sum(kind == "exhaustive" for *_, kind in rounds)
    not_won = sum(kind is not None for *_, kind in rounds)
    study = [
        kind
        for wind, kyoku, honba, kind in rounds
        if not (wind == 0 and kyoku == 0 and honba == 0) and kind not in ("kyuushu_kyuuhai", "suufon_renda")
    ]
    assert (stats["exhaustive_draw_rate"].numerator, stats["exhaustive_draw_rate"].denominator) == (
        exhaustive,
        len(rounds),
    )
    assert (stats["draw_rate"].numerator, stats["draw_rate"].denominator) == (not_won, len(rounds))
    assert (
        stats["exhaustive_draw_rate_2011_study"].numerator,
        stats["exhaustive_draw_rate_2011_study"].denominator,
    ) == (study.count("exhaustive"), len(study))


def test_rules_rates_count_the_derived_tables(tenhou_db) -> None:
    stats = {s.name: s for s in rules_stats(tenhou_db)}
    passes = tenhou_db.execute("select count(*) from furiten_passes").fetchall()[0][0]
    n_rounds = tenhou_db.execute("select count(*) from rounds").fetchall()[0][0]
    assert (stats["furiten_passes_per_round"].numerator, stats["furiten_passes_per_round"].denominator) == (
        passes,
        n_rounds,
    )
    declared = tenhou_db.execute("select count(*) from kyuushu where is_declared_logged").fetchall()[0][0]
    assert stats["kyuushu_declared_rate"].numerator == declared


def test_wilson_interval_matches_a_known_value() -> None:
    from pipeline.statistics import wilson_interval

    # 15 of 100: the Wilson 95% interval is 0.0931 to 0.2328
    low, high = wilson_interval(15, 100)
    assert round(low, 4) == 0.0931 and round(high, 4) == 0.2328
    assert wilson_interval(0, 0) is None
    assert wilson_interval(0, 10)[0] == 0.0
