-- server_waits: the waits the server lists for a seat (Mahjong Soul tingpais: the discarder's after a
-- discard, each seat's at the deal) against the waits the rules layer derives for that hand state.
with flags as (
    select game_id, round_idx, event_idx, seat, waits_mask
    from server_flags
    where waits_mask is not null
),
compared as (
    select f.game_id, f.round_idx, f.seat, h.waits_mask as derived_mask, f.waits_mask as logged_mask
    from flags as f
    left join hand_states as h
        on h.game_id = f.game_id and h.round_idx = f.round_idx and h.seat = f.seat
       and h.event_idx is not distinct from f.event_idx
),
final as (
    select
        'server_waits' as check_name, game_id, round_idx, seat,
        coalesce(derived_mask::varchar, 'no hand state') as derived, logged_mask::varchar as logged,
        coalesce(derived_mask = logged_mask, false) as agrees
    from compared
)
select * from final
