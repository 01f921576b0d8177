-- han: the derived han of every win (yaku, dora, ura dora, red fives; 13 per yakuman) against the
-- sum of the yaku han the server recorded in AGARI yaku / yakuman.
with scored as (
    select w.game_id, w.round_idx, w.seat, s.han as derived_han, w.han as logged_han
    from wins w
    join wins_scored s using (game_id, round_idx, win_idx)
    join games g using (game_id)
    where not list_contains(g.log_quirks, 'win_without_han')  -- logs that record no han (some mjai writers)
),
final as (
    select
        'han' as check_name, game_id, round_idx, seat,
        derived_han::varchar as derived, logged_han::varchar as logged,
        derived_han = logged_han as agrees
    from scored
)
select * from final
