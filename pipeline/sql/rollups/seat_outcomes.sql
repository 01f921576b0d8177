-- seat_outcomes: the rollup of the mart seat_outcomes: the seat-rounds of every counted game (seat_rounds,
-- written by `paipu derive`) counted and summed per seat's attributes (macros/rollup_seats: its name and its
-- game's source, year, room, mode and flags). Additive over games (pipeline/db/rollups.py).
select
    a.* exclude (game_id, seat),
    count(*) as n_seat_rounds,
    count_if(s.is_win) as n_won,
    coalesce(sum(s.win_points), 0) as win_points,
    count_if(s.is_deal_in) as n_dealt_in,
    count_if(s.has_riichi) as n_riichi,
    count_if(s.n_open_calls > 0) as n_called
from seat_rounds as s
join rollup_seats() as a using (game_id, seat)
group by all
