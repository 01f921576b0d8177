-- seat_round_facts: one row per seat with a hand in every round (seat_rounds, written by `paipu derive`: its
-- columns, the seat's turns, riichi order and starting shanten among them) with what the per-player vocabulary
-- marts (player_wins, player_riichi_calls) count of the seat's win, the rons off it and the round's draw, every
-- fact from the log's labels:
--   is_tsumo, win_delta (the winner's score change from its win: honba and every riichi stick on the table, its
--   own included), is_yakuman, has_ippatsu, has_ura_dora (an ura dora han above 0) of the seat's win;
--   n_ron_off           ron wins off the seat's discard or added kan (2 or 3 on a multiple ron), with their
--                       points summed (deal_in_points), the seat's score change from them (deal_in_delta), and how
--                       many of those winners dealt, had declared riichi, had called (open) or neither (dama);
--   draw_kind, draw_delta  the round's draw (any kind) and the seat's score change at it; null when won.
-- It reads no events and no hand states (seat_rounds holds what they say): over a large warehouse it costs the
-- seat_rounds, wins and draws it reads. A table macro: seat_round_facts().
create or replace macro seat_round_facts() as table
with own_wins as (
    select
        game_id, round_idx, seat,
        is_tsumo,
        score_deltas[seat + 1] as win_delta,
        is_yakuman,
        list_contains(yaku_names, 'ippatsu') as has_ippatsu,
        coalesce(yaku_han[list_position(yaku_names, 'ura_dora')] > 0, false) as has_ura_dora
    from wins
),
ron_off as (
    select
        w.game_id, w.round_idx, w.from_seat as seat,
        count(*) as n_ron_off,
        sum(w.points) as deal_in_points,
        sum(w.score_deltas[w.from_seat + 1]) as deal_in_delta,
        count_if(s.is_dealer) as n_ron_off_dealer,
        count_if(s.has_riichi) as n_ron_off_riichi,
        count_if(s.n_open_calls > 0) as n_ron_off_open,
        count_if(not s.has_riichi and s.n_open_calls = 0) as n_ron_off_dama
    from wins as w
    -- the winners' seat-rounds only (derive sets is_win from the same wins): the join reads a fifth of them
    join (select * from seat_rounds where is_win) as s using (game_id, round_idx, seat)
    where not w.is_tsumo
    group by all
)
select
    s.*,
    w.is_tsumo,
    w.win_delta,
    w.is_yakuman,
    w.has_ippatsu,
    w.has_ura_dora,
    coalesce(f.n_ron_off, 0) as n_ron_off,
    f.deal_in_points,
    f.deal_in_delta,
    coalesce(f.n_ron_off_dealer, 0) as n_ron_off_dealer,
    coalesce(f.n_ron_off_riichi, 0) as n_ron_off_riichi,
    coalesce(f.n_ron_off_open, 0) as n_ron_off_open,
    coalesce(f.n_ron_off_dama, 0) as n_ron_off_dama,
    d.kind as draw_kind,
    d.score_deltas[s.seat + 1] as draw_delta
from seat_rounds as s
left join own_wins as w using (game_id, round_idx, seat)
left join ron_off as f using (game_id, round_idx, seat)
left join draws as d on d.game_id = s.game_id and d.round_idx = s.round_idx
