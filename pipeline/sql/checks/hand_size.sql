-- hand_size: after every discard a seat holds 13 tiles: closed tiles + 3 per call (a kan counts 3).
-- Closed tiles are followed per seat: 13 dealt, +1 per draw, -1 per discard, -2 per chi/pon,
-- -3 per daiminkan, -1 per kakan, -4 per ankan, -1 per kita (a kita tile is set aside and replaced).
with deltas as (
    select game_id, round_idx, event_idx, seat, action,
           case action
               when 'draw' then 1 when 'discard' then -1 when 'chi' then -2 when 'pon' then -2
               when 'daiminkan' then -3 when 'kakan' then -1 when 'ankan' then -4 when 'kita' then -1
               else 0
           end as closed_delta,
           case when action in ('chi', 'pon', 'daiminkan', 'ankan') then 3 else 0 end as meld_tiles
    from events
    where seat is not null
),
running as (
    select *,
           13 + sum(closed_delta) over w as n_closed,
           sum(meld_tiles) over w as n_in_calls
    from deltas
    window w as (partition by game_id, round_idx, seat order by event_idx rows unbounded preceding)
),
final as (
    select game_id, round_idx,
           'seat ' || seat || ' event ' || event_idx || ': ' || n_closed || ' closed + ' || n_in_calls
               || ' in calls after a discard' as detail
    from running
    where action = 'discard' and n_closed + n_in_calls != 13
)
select 'hand_size' as check_name, game_id, round_idx, detail from final
