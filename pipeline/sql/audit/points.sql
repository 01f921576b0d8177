-- points: the derived hand value (before honba and sticks) and the derived score changes of every
-- win (honba, riichi sticks to the winner nearest the discarder, pao) against AGARI ten and sc.
with scored as (
    select
        w.game_id, w.round_idx, w.seat,
        s.points as derived_points, w.points as logged_points,
        s.score_deltas as derived_deltas, w.score_deltas as logged_deltas
    from wins w
    join wins_scored s using (game_id, round_idx, win_idx)
),
final as (
    select
        'points' as check_name, game_id, round_idx, seat,
        coalesce(derived_points::varchar, 'cannot win') || ' ' || coalesce(derived_deltas::varchar, '') as derived,
        logged_points::varchar || ' ' || logged_deltas::varchar as logged,
        coalesce(derived_points = logged_points and derived_deltas = logged_deltas, false) as agrees
    from scored
)
select * from final
