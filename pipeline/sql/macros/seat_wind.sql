-- seat_wind: a seat's wind in a round, 'E' 'S' 'W' 'N', from the seat, the round's dealer and the players at the
-- table (sanma: E S W): seat_wind(2, 1, 4) = 'S'. A scalar macro for users' queries (e.g. joining rounds and
-- wins: seat_wind(w.seat, r.dealer, g.n_players)).
create or replace macro seat_wind(seat, dealer, n_players) as
['E', 'S', 'W', 'N'][((seat - dealer + n_players) % n_players) + 1]
