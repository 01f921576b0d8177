-- server_furiten: the server's furiten flag for a seat after a record (Mahjong Soul zhenting) against the
-- rules layer's furiten intervals (own discard, temporary, riichi). Timing as the server shows it: on another
-- seat's discard of one of the seat's waits the flag is already set on that discard's record, before anyone
-- has ronned or let it go (all 10 such records of the real 2019 and 2021 games, winners included, e.g.
-- 190503-dcd1287a-12f8-4c51-a2a2-0cb5cd284ca8 round 0 event 71); a seat's own draw ends its temporary furiten
-- (in the rules layer it ends with the seat's next discard); for the discarder after its own discard,
-- own-discard furiten is read from its hand state after that discard.
with flags as (
    select f.game_id, f.round_idx, f.event_idx, f.seat, f.action, f.is_furiten, e.seat as mover
    from server_flags as f
    left join events as e using (game_id, round_idx, event_idx)
    where f.is_furiten is not null
),
on_kinds as (
    select f.game_id, f.round_idx, f.event_idx, f.seat,
           count(i.kind) as n_kinds, bool_or(i.kind = 'riichi') as in_riichi_furiten
    from flags as f
    left join furiten as i
        on i.game_id = f.game_id and i.round_idx = f.round_idx and i.seat = f.seat
       and i.start_event_idx <= f.event_idx and (i.end_event_idx is null or f.event_idx < i.end_event_idx)
       and not (f.action = 'draw' and f.seat = f.mover and i.kind = 'temporary')
    group by all
),
hit as (
    select f.game_id, f.round_idx, f.event_idx, f.seat,
           (h.waits_mask >> e.tile34) & 1 = 1 as is_wait_discarded
    from flags as f
    join events as e using (game_id, round_idx, event_idx)
    asof join (select *, coalesce(event_idx, -1) as at_idx from hand_states) as h  -- the deal: -1
        on h.game_id = f.game_id and h.round_idx = f.round_idx and h.seat = f.seat and h.at_idx < f.event_idx
    where f.action = 'discard' and f.seat != f.mover
),
derived as (
    select f.*,
           case when f.action = 'discard' and f.seat = f.mover
                then coalesce(h.is_own_discard_furiten, false) or coalesce(k.in_riichi_furiten, false)
                else coalesce(k.n_kinds, 0) > 0 or coalesce(w.is_wait_discarded, false) end as derived_furiten
    from flags as f
    left join on_kinds as k using (game_id, round_idx, event_idx, seat)
    left join hit as w using (game_id, round_idx, event_idx, seat)
    left join hand_states as h
        on h.game_id = f.game_id and h.round_idx = f.round_idx and h.seat = f.seat and h.event_idx = f.event_idx
),
final as (
    select
        'server_furiten' as check_name, game_id, round_idx, seat,
        case when derived_furiten then 'furiten' else 'not furiten' end || ' after event ' || event_idx as derived,
        case when is_furiten then 'furiten' else 'not furiten' end as logged,
        derived_furiten = is_furiten as agrees
    from derived
)
select * from final
