-- rules_rates: rates from the rules layer: furiten passes, riichi and tsumo in furiten, karaten at draws, kyuushu.
-- Parameter $by: 'all' (one group), 'room', 'year', 'source', 'length' (hanchan or tonpuu, from games.is_hanchan)
-- or 'player': every statistic here counts something a seat did or held (a pass, a riichi, a tsumo, a seat at a
-- draw, a first draw), so a player's row counts only the seats that player held, and "all rounds" are then the
-- rounds that player played (one per seat held). Definitions:
--   furiten_passes_per_round        = furiten passes / all rounds (shown per 100 rounds); a pass: a tenpai seat lets a
--                                     winning tile go (another's discard or added kan not ronned, or its
--                                     own drawn winning tile discarded); yaku are not considered
--   furiten_passes_with_yaku_per_round = the passes whose win would have had a yaku, dora aside / all rounds
--   furiten_passes_without_yaku_per_round = the passes whose win would have had no yaku / all rounds
--   furiten_passes_with_yaku_share  = passes whose win would have had a yaku / passes (yaku known)
--   riichi_in_furiten_rate          = riichi declarations whose hand, right after the riichi discard,
--                                     has a wait among the seat's own discards / riichi declarations
--   tsumo_in_furiten_rate           = tsumo wins by a seat furiten by its own discards (a wait just before the
--                                     winning draw among its discards of the round) / tsumo wins
--   karaten_share_of_tenpai_at_draw = seats tenpai at an exhaustive draw (Tenhou's rule) with every
--                                     winning tile visible to them / seats tenpai at an exhaustive draw
--   pure_karaten_at_draw_rate       = seats formally tenpai at an exhaustive draw whose every wait is held
--                                     four times in the closed hand (Tenhou: noten) / seats at exhaustive draws
--   kyuushu_eligible_rate           = first draws eligible for kyuushu kyuuhai (uninterrupted, 9+ distinct
--                                     terminal/honor kinds) / first draws
--   kyuushu_declared_rate           = eligible first draws on which kyuushu kyuuhai was declared / eligible ones
with round_counts as (
    -- rounds per group (rollups/round_outcomes): by player once per seat held (the rounds the player played),
    -- else once per round
    select
        group_value($by, room, year, source, is_hanchan, n_players, name) as group_value,
        sum(n_rounds * case when by_player($by) then n_seats else 1 end)::bigint as n_rounds
    from rollup_round_outcomes
    where rollup_rows($by, name, is_game_row)
    group by all
),
seat_counts as (
    -- the seats' counts per seat's attributes (rollups/rules_rates), summed per group; a count is null in a group
    -- without rows of its table
    select
        group_value($by, room, year, source, is_hanchan, n_players, name) as group_value,
        sum(n_passes)::bigint as n_passes,
        sum(n_passes_with_yaku)::bigint as n_passes_with_yaku,
        sum(n_passes_without_yaku)::bigint as n_passes_without_yaku,
        sum(n_passes_yaku_known)::bigint as n_passes_yaku_known,
        sum(n_riichi)::bigint as n_riichi,
        sum(n_riichi_furiten)::bigint as n_riichi_furiten,
        sum(n_tsumo)::bigint as n_tsumo,
        sum(n_tsumo_furiten)::bigint as n_tsumo_furiten,
        sum(n_draw_seats)::bigint as n_seats,
        sum(n_draw_tenpai)::bigint as n_tenpai,
        sum(n_draw_karaten)::bigint as n_karaten,
        sum(n_draw_pure)::bigint as n_pure,
        sum(n_first_draws)::bigint as n_first_draws,
        sum(n_eligible)::bigint as n_eligible,
        sum(n_declared)::bigint as n_declared
    from rollup_rules_rates
    group by all
),
final as (
    select 'furiten_passes_per_round' as name, r.group_value, coalesce(p.n_passes, 0) as numerator,
           r.n_rounds as denominator, coalesce(p.n_passes, 0) / r.n_rounds as value, 1 as ord,
           'furiten passes / all rounds (a winning tile let go by a tenpai seat; yaku not considered)'
               as definition
    from round_counts as r left join seat_counts as p on p.group_value is not distinct from r.group_value
    union all
    select 'furiten_passes_with_yaku_per_round', r.group_value, coalesce(p.n_passes_with_yaku, 0), r.n_rounds,
           coalesce(p.n_passes_with_yaku, 0) / r.n_rounds, 1.5,
           'furiten passes on which the win let go would have had a yaku (dora aside) / all rounds'
    from round_counts as r left join seat_counts as p on p.group_value is not distinct from r.group_value
    union all
    select 'furiten_passes_without_yaku_per_round', r.group_value, coalesce(p.n_passes_without_yaku, 0), r.n_rounds,
           coalesce(p.n_passes_without_yaku, 0) / r.n_rounds, 1.6,
           'furiten passes on which the win let go would have had no yaku / all rounds'
    from round_counts as r left join seat_counts as p on p.group_value is not distinct from r.group_value
    union all
    select 'furiten_passes_with_yaku_share', group_value, n_passes_with_yaku, n_passes_yaku_known,
           n_passes_with_yaku / n_passes_yaku_known, 1.7,
           'furiten passes on which the win let go would have had a yaku (dora aside) / furiten passes'
    from seat_counts
    where n_passes_yaku_known > 0
    union all
    select 'riichi_in_furiten_rate', group_value, n_riichi_furiten, n_riichi, n_riichi_furiten / n_riichi, 2,
           'riichi declarations with a wait among the declarer''s own discards / riichi declarations'
    from seat_counts
    union all
    select 'tsumo_in_furiten_rate', group_value, n_tsumo_furiten, n_tsumo, n_tsumo_furiten / n_tsumo, 2.5,
           'tsumo wins by a seat with a wait among its own discards of the round (furiten) / tsumo wins'
    from seat_counts
    union all
    select 'karaten_share_of_tenpai_at_draw', group_value, n_karaten, n_tenpai, n_karaten / n_tenpai, 3,
           'tenpai seats at exhaustive draws with every winning tile visible to them / tenpai seats'
    from seat_counts
    union all
    select 'pure_karaten_at_draw_rate', group_value, n_pure, n_seats, n_pure / n_seats, 4,
           'seats at exhaustive draws whose every wait is held four times (Tenhou: noten) / seats'
    from seat_counts
    union all
    select 'kyuushu_eligible_rate', group_value, n_eligible, n_first_draws, n_eligible / n_first_draws, 5,
           'first draws eligible for kyuushu kyuuhai (uninterrupted, 9+ terminal/honor kinds) / first draws'
    from seat_counts
    union all
    select 'kyuushu_declared_rate', group_value, n_declared, n_eligible, n_declared / n_eligible, 6,
           'eligible first draws on which kyuushu kyuuhai was declared / eligible first draws'
    from seat_counts
    where n_eligible > 0
)
select name, group_value, numerator, denominator, value, definition
from final
where denominator > 0
order by group_value nulls first, ord
