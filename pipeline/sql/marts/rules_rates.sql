-- rules_rates: rates from the rules layer: furiten passes, riichi in furiten, karaten at draws, kyuushu.
-- Parameter $by: 'room', 'year', 'source' or 'all' (one group). Definitions:
--   furiten_passes_per_round        = furiten passes / all rounds (shown per 100 rounds); a pass: a tenpai seat lets a
--                                     winning tile go (another's discard or added kan not ronned, or its
--                                     own drawn winning tile discarded); yaku are not considered
--   furiten_passes_with_yaku_per_round = the passes whose win would have had a yaku, dora aside / all rounds
--   riichi_in_furiten_rate          = riichi declarations whose hand, right after the riichi discard,
--                                     has a wait among the seat's own discards / riichi declarations
--   karaten_share_of_tenpai_at_draw = seats tenpai at an exhaustive draw (Tenhou's rule) with every
--                                     winning tile visible to them / seats tenpai at an exhaustive draw
--   pure_karaten_at_draw_rate       = seats formally tenpai at an exhaustive draw whose every wait is held
--                                     four times in the closed hand (Tenhou: noten) / seats at exhaustive draws
--   kyuushu_eligible_rate           = first draws eligible for kyuushu kyuuhai (uninterrupted, 9+ distinct
--                                     terminal/honor kinds) / first draws
--   kyuushu_declared_rate           = eligible first draws on which kyuushu kyuuhai was declared / eligible ones
with game_groups as (
    select
        game_id,
        case $by
            when 'room' then room
            when 'year' then coalesce(year::varchar, 'unknown')
            when 'source' then source
        end as group_value
    from games
),
round_counts as (
    select g.group_value, count(*) as n_rounds
    from rounds join game_groups as g using (game_id) group by all
),
pass_counts as (
    select g.group_value, count(*) as n_passes, count(*) filter (where has_yaku) as n_passes_with_yaku
    from furiten_passes join game_groups as g using (game_id) group by all
),
riichi_discards as (
    select e.game_id, e.round_idx, e.seat,
           min(d.event_idx) as discard_idx
    from events as e
    join events as d
        on d.game_id = e.game_id and d.round_idx = e.round_idx and d.seat = e.seat
       and d.action = 'discard' and d.event_idx > e.event_idx
    where e.action = 'riichi'
    group by e.game_id, e.round_idx, e.seat, e.event_idx
),
riichi_counts as (
    select g.group_value, count(*) as n_riichi, count(*) filter (where h.is_own_discard_furiten) as n_furiten
    from riichi_discards as r
    join hand_states as h
        on h.game_id = r.game_id and h.round_idx = r.round_idx and h.seat = r.seat and h.event_idx = r.discard_idx
    join game_groups as g on g.game_id = r.game_id
    group by all
),
draw_counts as (
    select g.group_value,
           count(*) as n_seats,
           count(*) filter (where is_tenpai) as n_tenpai,
           count(*) filter (where is_tenpai and is_karaten) as n_karaten,
           count(*) filter (where is_pure_karaten) as n_pure
    from draw_outcomes join game_groups as g using (game_id)
    where kind = 'exhaustive'
    group by all
),
kyuushu_counts as (
    select g.group_value,
           count(*) as n_first_draws,
           count(*) filter (where is_eligible) as n_eligible,
           count(*) filter (where is_eligible and is_declared) as n_declared
    from kyuushu join game_groups as g using (game_id)
    group by all
),
final as (
    select 'furiten_passes_per_round' as name, r.group_value, coalesce(p.n_passes, 0) as numerator,
           r.n_rounds as denominator, coalesce(p.n_passes, 0) / r.n_rounds as value, 1 as ord,
           'furiten passes / all rounds (a winning tile let go by a tenpai seat; yaku not considered)'
               as definition
    from round_counts as r left join pass_counts as p on p.group_value is not distinct from r.group_value
    union all
    select 'furiten_passes_with_yaku_per_round', r.group_value, coalesce(p.n_passes_with_yaku, 0), r.n_rounds,
           coalesce(p.n_passes_with_yaku, 0) / r.n_rounds, 1.5,
           'furiten passes on which the win let go would have had a yaku (dora aside) / all rounds'
    from round_counts as r left join pass_counts as p on p.group_value is not distinct from r.group_value
    union all
    select 'riichi_in_furiten_rate', group_value, n_furiten, n_riichi, n_furiten / n_riichi, 2,
           'riichi declarations with a wait among the declarer''s own discards / riichi declarations'
    from riichi_counts
    union all
    select 'karaten_share_of_tenpai_at_draw', group_value, n_karaten, n_tenpai, n_karaten / n_tenpai, 3,
           'tenpai seats at exhaustive draws with every winning tile visible to them / tenpai seats'
    from draw_counts
    union all
    select 'pure_karaten_at_draw_rate', group_value, n_pure, n_seats, n_pure / n_seats, 4,
           'seats at exhaustive draws whose every wait is held four times (Tenhou: noten) / seats'
    from draw_counts
    union all
    select 'kyuushu_eligible_rate', group_value, n_eligible, n_first_draws, n_eligible / n_first_draws, 5,
           'first draws eligible for kyuushu kyuuhai (uninterrupted, 9+ terminal/honor kinds) / first draws'
    from kyuushu_counts
    union all
    select 'kyuushu_declared_rate', group_value, n_declared, n_eligible, n_declared / nullif(n_eligible, 0), 6,
           'eligible first draws on which kyuushu kyuuhai was declared / eligible first draws'
    from kyuushu_counts
)
select name, group_value, numerator, denominator, value, definition
from final
order by group_value nulls first, ord
