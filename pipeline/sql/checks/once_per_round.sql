-- once_per_round: what a seat does once a round is done once: it declares riichi at most once, its riichi is
-- accepted at most once and only after it was declared, and it wins at most once (a tag written twice in a
-- copied log makes a second riichi, stick or win that never happened).
with riichi as (
    select game_id, round_idx, seat,
           count(*) filter (where action = 'riichi') as n_declared,
           count(*) filter (where action = 'riichi_accepted') as n_accepted,
           min(event_idx) filter (where action = 'riichi') as declared_at,
           min(event_idx) filter (where action = 'riichi_accepted') as accepted_at
    from events
    where action in ('riichi', 'riichi_accepted')
    group by all
),
riichi_twice as (
    select game_id, round_idx,
           'seat ' || seat || ': riichi declared ' || n_declared || ' times, accepted ' || n_accepted || ' times'
               as detail
    from riichi
    where n_declared > 1 or n_accepted > n_declared or accepted_at < declared_at
),
wins_twice as (
    select game_id, round_idx, 'seat ' || seat || ' wins ' || count(*) || ' times' as detail
    from wins
    group by game_id, round_idx, seat
    having count(*) > 1
),
final as (
    select * from riichi_twice union all select * from wins_twice
)
select 'once_per_round' as check_name, game_id, round_idx, detail from final
