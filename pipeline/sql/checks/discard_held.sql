-- discard_held: a seat discards only a tile it holds: dealt to it or drawn by it earlier in the round,
-- and not already discarded or melded away since.
with acquired as (
    select game_id, round_idx, -1 as event_idx, seat, unnest(hands_start[seat + 1]) as tile
    from (select *, unnest(range(4)) as seat from rounds)
    union all
    select game_id, round_idx, event_idx, seat, tile from events where action = 'draw'
),
discards as (
    select game_id, round_idx, event_idx, seat, tile from events where action = 'discard'
),
unheld as (
    select d.game_id, d.round_idx, d.event_idx, d.seat, d.tile
    from discards d anti join acquired a
        on a.game_id = d.game_id and a.round_idx = d.round_idx and a.seat = d.seat
       and a.tile = d.tile and a.event_idx < d.event_idx
),
final as (
    select game_id, round_idx, 'seat ' || seat || ' discards tile ' || tile || ' at event ' || event_idx
               || ' without holding it' as detail
    from unheld
)
select 'discard_held' as check_name, game_id, round_idx, detail from final
