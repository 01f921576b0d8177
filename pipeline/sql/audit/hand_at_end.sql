-- hand_at_end: the tracked closed hand equals the hand the log shows at every win and draw.
-- Win: the winner's last closed hand (plus the winning tile on a ron) against AGARI hai.
-- Draw: each shown hand against the seat's last closed hand. Compared as counts per 34-kind.
-- Not checked on tenhou.net/6 JSON: it writes no closed hand at a win or a draw, so its parser's hands are its
-- own replay, the same the rules layer tracks (a comparison with itself, not an agreement).
with recorded as (
    select game_id from games where source <> 'tenhou_json'
),
last_state as (
    select game_id, round_idx, seat, counts::tinyint[] as counts
    from hand_states
    qualify row_number() over (partition by game_id, round_idx, seat order by event_idx desc nulls last) = 1
),
win_hands as (
    select
        w.game_id, w.round_idx, w.seat,
        list_transform(
            range(34), lambda k: (s.counts[k + 1] + case when not w.is_tsumo and w.tile34 = k then 1 else 0 end)::tinyint
        ) as derived_counts,
        list_transform(range(34), lambda k: len(list_filter(w.hand, lambda t: t // 4 = k))::tinyint) as logged_counts
    from wins as w
    join recorded using (game_id)
    join last_state as s using (game_id, round_idx, seat)
),
shown as (
    select game_id, round_idx, seat, hands_shown[seat + 1] as hand
    from (select game_id, round_idx, hands_shown, unnest(range(4)) as seat from draws)
    where len(hands_shown[seat + 1]) > 0
),
draw_hands as (
    select
        h.game_id, h.round_idx, h.seat, s.counts as derived_counts,
        list_transform(range(34), lambda k: len(list_filter(h.hand, lambda t: t // 4 = k))::tinyint) as logged_counts
    from shown as h
    join recorded using (game_id)
    join last_state as s using (game_id, round_idx, seat)
),
final as (
    select 'hand_at_end' as check_name, game_id, round_idx, seat,
           derived_counts::varchar as derived, logged_counts::varchar as logged,
           derived_counts = logged_counts as agrees
    from (select * from win_hands union all select * from draw_hands)
)
select * from final
