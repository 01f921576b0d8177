-- tile_held: every tile leaving a seat's closed hand is held there when it leaves: dealt to the seat or drawn
-- by it earlier in the round, and not gone from its hand since. A tile leaves the hand when it is discarded,
-- called with (the hand's tiles of a chi, pon or open kan: the meld's tiles but the one claimed), set in a closed
-- kan (its four tiles), added to a pon (kakan) or set aside (kita). A physical tile enters a round once
-- (tile_once), so a tile is held between its one arrival and its first departure.
with arrivals as (
    select game_id, round_idx, -1 as event_idx, seat, unnest(hands_start[seat + 1]) as tile
    from (select *, unnest(range(4)) as seat from rounds)
    union all
    select game_id, round_idx, event_idx, seat, tile from events where action = 'draw'
),
departures as (
    select game_id, round_idx, event_idx, seat, action, tile
    from events
    where action in ('discard', 'kakan', 'kita')
    union all
    select game_id, round_idx, event_idx, seat, action, unnest(meld_tiles) as tile
    from events
    where action = 'ankan'
    union all
    select game_id, round_idx, event_idx, seat, action, hand_tile as tile
    from (select *, unnest(meld_tiles) as hand_tile from events where action in ('chi', 'pon', 'daiminkan'))
    where hand_tile != tile
),
first_departures as (
    select d.*, a.event_idx as arrived_at,
           row_number() over (
               partition by d.game_id, d.round_idx, d.seat, d.tile order by d.event_idx
           ) as nth_departure
    from departures as d
    left join arrivals as a
        on a.game_id = d.game_id and a.round_idx = d.round_idx and a.seat = d.seat
       and a.tile = d.tile and a.event_idx < d.event_idx
),
unheld as (
    select * from first_departures where arrived_at is null or nth_departure > 1
),
final as (
    select game_id, round_idx,
           'seat ' || seat || ' ' || action || ' tile ' || tile || ' at event ' || event_idx
               || case when arrived_at is null then ' without holding it' else ' again, gone from its hand' end
               as detail
    from unheld
)
select 'tile_held' as check_name, game_id, round_idx, detail from final
