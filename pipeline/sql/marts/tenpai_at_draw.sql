-- tenpai_at_draw: how many seats are tenpai when the wall runs out, per seat and as shares of exhaustive draws.
-- Parameter $by: 'all' (one group), 'room', 'year', 'source', 'length' (hanchan or tonpuu, from games.is_hanchan)
-- or 'player': tenpai_at_draw_rate counts seats, so a player's row counts only the seats that player held; the
-- shares count draws, so a player's row counts the exhaustive draws of the games that player sat in (each once).
-- Four-player and three-player (sanma) games are kept apart in the shares: a sanma draw has three seats. Tenpai is
-- Tenhou's rule (draw_outcomes.is_tenpai: formal tenpai, pure karaten excluded; yaku, furiten and visible waits do
-- not matter). Nagashi mangan and abortive draws are not exhaustive draws. Definitions:
--   tenpai_at_draw_rate = seats tenpai at exhaustive draws / seats at exhaustive draws (every player count)
--   tenpai_share_4p_N = exhaustive draws of four-player games with exactly N seats tenpai (N: 0-4)
--                       / exhaustive draws of four-player games
--   tenpai_share_3p_N = exhaustive draws of three-player games with exactly N seats tenpai (N: 0-3)
--                       / exhaustive draws of three-player games
-- A group gets the rows of a player count only when it holds an exhaustive draw of that player count; every
-- N from 0 to the player count is listed (0 where no draw had it), so the shares of a group add up to 1.
with seat_counts as (
    -- the seats at exhaustive draws per seat's attributes (rollups/tenpai_at_draw), summed per group
    select
        group_value($by, room, year, source, is_hanchan, n_players, name) as group_value,
        sum(n_seats)::bigint as n_seats,
        sum(n_tenpai)::bigint as n_tenpai
    from rollup_tenpai_at_draw
    group by all
),
draw_tenpai as (
    -- the exhaustive draws per player count and seats tenpai (rollups/tenpai_at_draw_draws), summed per group:
    -- by player each game once per distinct name seated in it, otherwise once (macros/rollup_rows)
    select
        group_value($by, room, year, source, is_hanchan, n_players, name) as group_value,
        n_players, n_tenpai,
        sum(n_draws)::bigint as n_draws
    from rollup_tenpai_at_draw_draws
    where rollup_rows($by, name, is_game_row)
    group by all
),
group_totals as (
    select group_value, n_players, sum(n_draws)::bigint as n_draws
    from draw_tenpai
    group by all
),
tenpai_counts as (
    select t.group_value, t.n_players, s.n_tenpai, t.n_draws, coalesce(sum(d.n_draws), 0)::bigint as n
    from group_totals as t
    cross join (select unnest(range(0, 5)) as n_tenpai) as s
    left join draw_tenpai as d
        on d.group_value is not distinct from t.group_value and d.n_players = t.n_players
       and d.n_tenpai = s.n_tenpai
    where s.n_tenpai <= t.n_players
    group by all
),
final as (
    select 'tenpai_at_draw_rate' as name, group_value, n_tenpai as numerator, n_seats as denominator, -1 as ord,
           'seats tenpai (Tenhou''s rule) at exhaustive draws / seats at exhaustive draws' as definition
    from seat_counts
    union all
    select
        'tenpai_share_' || n_players || 'p_' || n_tenpai as name,
        group_value,
        n as numerator,
        n_draws as denominator,
        100 * (4 - n_players) + n_tenpai as ord,
        'exhaustive draws of ' || case n_players when 4 then 'four' else 'three' end || '-player games with '
            || n_tenpai || ' seat' || case n_tenpai when 1 then '' else 's' end
            || ' tenpai (Tenhou''s rule) / exhaustive draws of those games' as definition
    from tenpai_counts
)
select name, group_value, numerator, denominator, numerator / denominator as value, definition
from final
where denominator > 0
order by group_value nulls first, ord
