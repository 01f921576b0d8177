-- keys_unique: every table's key identifies one row.
-- games (game_id), players (game_id, seat), rounds (game_id, round_idx),
-- events (game_id, round_idx, event_idx), wins (game_id, round_idx, win_idx), draws (game_id, round_idx).
with games_dup as (
    select game_id, null::integer as round_idx, 'games' as tbl, count(*) as n from games group by all having n > 1
),
players_dup as (
    select game_id, null::integer, 'players seat ' || seat, count(*) as n from players group by game_id, seat having n > 1
),
rounds_dup as (
    select game_id, round_idx, 'rounds', count(*) as n from rounds group by game_id, round_idx having n > 1
),
events_dup as (
    select game_id, round_idx, 'events event ' || event_idx, count(*) as n
    from events group by game_id, round_idx, event_idx having n > 1
),
wins_dup as (
    select game_id, round_idx, 'wins win ' || win_idx, count(*) as n from wins group by game_id, round_idx, win_idx having n > 1
),
draws_dup as (
    select game_id, round_idx, 'draws', count(*) as n from draws group by game_id, round_idx having n > 1
),
final as (
    select * from games_dup union all select * from players_dup union all select * from rounds_dup
    union all select * from events_dup union all select * from wins_dup union all select * from draws_dup
)
select 'keys_unique' as check_name, game_id, round_idx, tbl || ': ' || n || ' rows share the key' as detail
from final
