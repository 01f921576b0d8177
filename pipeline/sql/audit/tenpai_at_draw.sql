-- tenpai_at_draw: paipu's tenpai at every exhaustive draw (and nagashi mangan) against the log.
-- Derived: formal tenpai by the tracked hand, minus pure karaten (every wait's copies in the closed
-- hand), Tenhou's rule. Logged: Tenhou shows exactly the tenpai hands (RYUUKYOKU haiN). Games whose
-- format does not record which seats were tenpai (quirk draw_tenpai_unrecorded) are not compared.
with outcomes as (
    select o.game_id, o.round_idx, o.seat, o.is_tenpai, o.is_tenpai_shown
    from draw_outcomes as o
    join games as g using (game_id)
    where not list_contains(g.log_quirks, 'draw_tenpai_unrecorded')
),
final as (
    select
        'tenpai_at_draw' as check_name, game_id, round_idx, seat,
        case when is_tenpai then 'tenpai' else 'noten' end as derived,
        case when is_tenpai_shown then 'tenpai' else 'noten' end as logged,
        is_tenpai = is_tenpai_shown as agrees
    from outcomes
)
select * from final
