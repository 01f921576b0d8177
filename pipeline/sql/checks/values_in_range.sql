-- values_in_range: every seat the rules layer reads is 0-3 and every tile a physical tile, 136-id 0-135 (its
-- 34-kind 0-33): the events' seats, tiles and meld tiles, the rounds' dealer, hands and first indicator, the
-- wins' seats, tiles, hands, melds and indicators, the hands a draw shows. The compiled rules passes index arrays
-- by these values without checking them: a game is stored only when they are in range (nulls are other checks'
-- concern).
with event_values as (
    select game_id, round_idx, 'event ' || event_idx as place, seat, from_seat, tile, tile34, meld_tiles as tiles
    from events
),
round_values as (
    select game_id, round_idx, 'round start' as place, dealer as seat, null::tinyint as from_seat,
           dora_indicator as tile, null::tinyint as tile34, flatten(hands_start) as tiles
    from rounds
),
win_values as (
    select game_id, round_idx, 'win ' || win_idx as place, seat, from_seat, tile, tile34,
           list_concat(hand, flatten(melds), dora_indicators, ura_indicators) as tiles
    from wins
    union all
    select game_id, round_idx, 'win ' || win_idx, pao_seat, null, null, null, null from wins
),
draw_values as (
    select game_id, round_idx, 'draw' as place, null::tinyint as seat, null::tinyint as from_seat, null::smallint
           as tile, null::tinyint as tile34, flatten(hands_shown) as tiles
    from draws
),
all_values as (
    select * from event_values union all select * from round_values
    union all select * from win_values union all select * from draw_values
),
final as (
    select game_id, round_idx, place || ': seat ' || seat || ' is no seat' as detail
    from all_values where seat not between 0 and 3
    union all
    select game_id, round_idx, place || ': from seat ' || from_seat || ' is no seat'
    from all_values where from_seat not between 0 and 3
    union all
    select game_id, round_idx, place || ': tile ' || tile || ' is no tile'
    from all_values where tile not between 0 and 135
    union all
    select game_id, round_idx, place || ': kind ' || tile34 || ' is no kind'
    from all_values where tile34 not between 0 and 33
    union all
    select game_id, round_idx, place || ': tile ' || t || ' is no tile'
    from (select game_id, round_idx, place, unnest(tiles) as t from all_values)
    where t not between 0 and 135
)
select 'values_in_range' as check_name, game_id, round_idx, detail from final
