-- ranked_seats: every seat of a finished game (players.final_rank is null exactly when the game has no final
-- scores) with the group it falls in for a grouping split by mode (with_mode($by): a rank in sanma is not a rank
-- in 4-player), its final rank, score and game points, and its game's players, room, source and length. The
-- marts of placements read it. A table macro: ranked_seats($by).
create or replace macro ranked_seats(grouping) as table
select
    k.group_value,
    p.final_rank,
    p.final_score,
    p.final_points,
    g.n_players,
    g.room,
    g.source,
    g.is_hanchan
from players as p
join games as g using (game_id)
join seat_group_keys(with_mode(grouping)) as k
    on k.game_id = p.game_id and k.seat_key = seat_key(with_mode(grouping), p.seat)
where p.final_rank is not null
