-- seat_outcomes: the usual player statistics, per seat-round (one seat in one round: rounds x the players at
-- the table, 4, or 3 in sanma), from the log's labels (wins, events).
-- Parameter $by: 'all', 'room', 'year', 'source', 'length' (hanchan or tonpuu, from games.is_hanchan) or
-- 'player' (the seat's name; a player's row counts only the seats that player held). Definitions:
--   seat_win_rate      = seat-rounds the seat won (tsumo or ron; every winner of a multiple ron) / seat-rounds
--   deal_in_rate       = seat-rounds in which a ron was won off the seat's discard or added kan (a multiple ron
--                        counts once) / seat-rounds
--   riichi_rate        = seat-rounds with a riichi declaration (accepted or not) / seat-rounds
--   call_rate          = seat-rounds with at least one chi, pon or open kan (daiminkan) / seat-rounds
--   average_win_points = points of the seat's wins as recorded (the hand's value before honba and riichi sticks,
--                        full points) / wins: a mean, not a proportion (numerator: the points, summed)
with seat_groups as (
    -- every seat of every game with its group: the game's, or by player the seat's player
    select * from grouped_seats($by)
),
seat_rounds as (
    select r.game_id, r.round_idx, s.seat, s.group_value
    from rounds as r
    join seat_groups as s using (game_id)
),
seat_wins as (
    select game_id, round_idx, seat, count(*) as n_wins, sum(points) as points
    from wins
    group by all
),
deal_ins as (
    select distinct game_id, round_idx, from_seat as seat
    from wins
    where not is_tsumo
),
seat_actions as (
    select
        game_id, round_idx, seat,
        bool_or(action = 'riichi') as has_riichi,
        bool_or(action in ('chi', 'pon', 'daiminkan')) as has_call
    from events
    where action in ('riichi', 'chi', 'pon', 'daiminkan')
    group by all
),
counts as (
    select
        s.group_value,
        count(*) as n_seat_rounds,
        count(w.seat) as n_won,
        coalesce(sum(w.n_wins), 0) as n_wins,
        coalesce(sum(w.points), 0) as win_points,
        count(d.seat) as n_dealt_in,
        count(*) filter (where a.has_riichi) as n_riichi,
        count(*) filter (where a.has_call) as n_called
    from seat_rounds as s
    left join seat_wins as w on w.game_id = s.game_id and w.round_idx = s.round_idx and w.seat = s.seat
    left join deal_ins as d on d.game_id = s.game_id and d.round_idx = s.round_idx and d.seat = s.seat
    left join seat_actions as a on a.game_id = s.game_id and a.round_idx = s.round_idx and a.seat = s.seat
    group by all
),
final as (
    select 'seat_win_rate' as name, group_value, n_won as numerator, n_seat_rounds as denominator, 1 as ord,
           'seat-rounds the seat won (tsumo or ron; every winner of a multiple ron) / seat-rounds '
               || '(rounds x players at the table)' as definition
    from counts
    union all
    select 'deal_in_rate', group_value, n_dealt_in, n_seat_rounds, 2,
           'seat-rounds in which a ron was won off the seat''s discard or added kan (a multiple ron once) '
               || '/ seat-rounds'
    from counts
    union all
    select 'riichi_rate', group_value, n_riichi, n_seat_rounds, 3,
           'seat-rounds with a riichi declaration (accepted or not) / seat-rounds'
    from counts
    union all
    select 'call_rate', group_value, n_called, n_seat_rounds, 4,
           'seat-rounds with at least one chi, pon or open kan (daiminkan) / seat-rounds'
    from counts
    union all
    select 'average_win_points', group_value, win_points, n_wins, 5,
           'points of the wins as recorded (hand value before honba and riichi sticks, full points) / wins '
               || '(a mean)'
    from counts
    where n_wins > 0
)
select name, group_value, numerator, denominator, numerator / denominator as value, definition
from final
where denominator > 0
order by group_value nulls first, ord
