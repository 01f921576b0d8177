-- next_round: the derived next round (wind, kyoku, dealer, honba, riichi sticks) against the next
-- stored round, and the derived game end against the log's, for every round whose successor or end
-- the log records.
with transitions as (
    select * from round_transitions where ends_game_logged is not null
),
final as (
    select
        'next_round' as check_name, game_id, round_idx, null::tinyint as seat,
        case when ends_game then 'game ends'
             else concat_ws(' ', 'wind', next_round_wind, 'kyoku', next_kyoku, 'dealer', next_dealer,
                            'honba', next_honba, 'sticks', next_riichi_sticks) end as derived,
        case when ends_game_logged then 'game ends'
             else concat_ws(' ', 'wind', next_round_wind_logged, 'kyoku', next_kyoku_logged,
                            'dealer', next_dealer_logged, 'honba', next_honba_logged,
                            'sticks', next_riichi_sticks_logged) end as logged,
        ends_game = ends_game_logged
            and (ends_game or (next_round_wind, next_kyoku, next_dealer, next_honba, next_riichi_sticks)
                 = (next_round_wind_logged, next_kyoku_logged, next_dealer_logged, next_honba_logged,
                    next_riichi_sticks_logged)) as agrees
    from transitions
)
select * from final
