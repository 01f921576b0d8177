-- yaku: the derived yaku of every win with their han (Tenhou ids) against the list the server
-- recorded, compared as sets of (id, han).
with pairs as (
    select
        w.game_id, w.round_idx, w.seat,
        list_sort(list_transform(list_zip(s.yaku, s.yaku_han), lambda p: p[1] * 100 + p[2])) as derived_pairs,
        list_sort(list_transform(list_zip(w.yaku, w.yaku_han), lambda p: p[1] * 100 + p[2])) as logged_pairs,
        s.yaku as derived_yaku, s.yaku_han as derived_han, w.yaku as logged_yaku, w.yaku_han as logged_han
    from wins w
    join wins_scored s using (game_id, round_idx, win_idx)
    join games g using (game_id)
    where not list_contains(g.log_quirks, 'win_without_yaku')  -- logs that record no yaku (some mjai writers)
),
final as (
    select
        'yaku' as check_name, game_id, round_idx, seat,
        derived_yaku::varchar || ' han ' || derived_han::varchar as derived,
        logged_yaku::varchar || ' han ' || logged_han::varchar as logged,
        derived_pairs = logged_pairs as agrees
    from pairs
)
select * from final
