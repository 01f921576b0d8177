-- seat_outcomes: the usual player statistics, per seat-round (one seat in one round: rounds x the players at
-- the table, 4, or 3 in sanma), from the log's labels (wins, events) rolled up per seat-round in seat_rounds.
-- Parameter $by: 'all', 'room', 'year', 'source', 'length' (hanchan or tonpuu, from games.is_hanchan) or
-- 'player' (the seat's name; a player's row counts only the seats that player held). Definitions:
--   seat_win_rate      = seat-rounds the seat won (tsumo or ron; every winner of a multiple ron) / seat-rounds
--   deal_in_rate       = seat-rounds in which a ron was won off the seat's discard or added kan (a multiple ron
--                        counts once) / seat-rounds
--   riichi_rate        = seat-rounds with a riichi declaration (accepted or not) / seat-rounds
--   call_rate          = seat-rounds with at least one chi, pon or open kan (daiminkan) / seat-rounds
--   average_win_points = points of the seat's wins as recorded (the hand's value before honba and riichi sticks,
--                        full points) / wins: a mean, not a proportion (numerator: the points, summed)
with counts as (
    -- the seat-rounds per seat's attributes (rollups/seat_outcomes; seat_rounds is written by `paipu derive`, so a
    -- warehouse ingested with --no-derive gives no rows here rather than rates of 0), summed per group
    select
        group_value($by, room, year, source, is_hanchan, n_players, name) as group_value,
        sum(n_seat_rounds)::bigint as n_seat_rounds,
        sum(n_won)::bigint as n_won,
        sum(win_points)::bigint as win_points,
        sum(n_dealt_in)::bigint as n_dealt_in,
        sum(n_riichi)::bigint as n_riichi,
        sum(n_called)::bigint as n_called
    from rollup_seat_outcomes
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
    select 'average_win_points', group_value, win_points, n_won, 5,
           'points of the wins as recorded (hand value before honba and riichi sticks, full points) / wins '
               || '(a mean)'
    from counts
    where n_won > 0
)
select name, group_value, numerator, denominator, numerator / denominator as value, definition
from final
where denominator > 0
order by group_value nulls first, ord
