-- draw_payments: derived score changes at every draw (noten payments from the derived tenpai,
-- nagashi mangan from the ponds, none at an abortive draw) against the log's score changes.
with drawn as (
    select game_id, round_idx, draw_payments, draw_payments_logged
    from round_transitions
    where outcome != 'win'
),
final as (
    select
        'draw_payments' as check_name, game_id, round_idx, null::tinyint as seat,
        draw_payments::varchar as derived, draw_payments_logged::varchar as logged,
        draw_payments = draw_payments_logged as agrees
    from drawn
)
select * from final
