-- fu: the derived fu of every win (rules.scoring: the best reading's fu, rounded up) against the
-- fu the server recorded (AGARI ten; wins whose log does not record fu, e.g. limit hands in tenhou.net/6
-- JSON, are not compared).
with scored as (
    select w.game_id, w.round_idx, w.seat, s.fu as derived_fu, w.fu as logged_fu
    from wins w
    join wins_scored s using (game_id, round_idx, win_idx)
    where w.fu is not null
),
final as (
    select
        'fu' as check_name, game_id, round_idx, seat,
        derived_fu::varchar as derived, logged_fu::varchar as logged,
        derived_fu = logged_fu as agrees
    from scored
)
select * from final
