-- seat_round_facts: one row per seat with a hand in every round (seat_rounds, written by `paipu derive`) with what
-- the per-player vocabulary marts (player_wins, player_riichi_calls) count, every fact from the log's labels:
--   n_discards          the seat's discards in the round: a turn (Mortal's jun) is one own discard, so a win or a
--                       deal-in "on turn k" comes after k discards of the seat (a deal-in's own discard included);
--   riichi_turn         the seat's discards before its riichi declaration (the riichi discard not counted)
--   is_riichi_accepted  its riichi stick was put down (riichi_accepted: the declaration tile was not ronned)
--   n_riichi_before     riichi declarations by other seats earlier in the round; n_riichi_after: later ones
--   is_tsumo, win_delta (the winner's score change from its win: honba and every riichi stick on the table, its
--   own included), is_yakuman, has_ippatsu, has_ura_dora (an ura dora han above 0) of the seat's win;
--   n_ron_off           ron wins off the seat's discard or added kan (2 or 3 on a multiple ron), with their
--                       points summed (deal_in_points), the seat's score change from them (deal_in_delta), and how
--                       many of those winners dealt, had declared riichi, had called (open) or neither (dama);
--   draw_kind, draw_delta  the round's draw (any kind) and the seat's score change at it; null when won;
--   starting_shanten    the shanten of the 13 tiles dealt (hand_states as dealt: regular, seven pairs, orphans).
-- The columns of seat_rounds are kept (is_dealer, has_riichi, n_open_calls, is_win, win_points, is_deal_in,
-- score_change). A table macro: seat_round_facts().
create or replace macro seat_round_facts() as table
with own_events as (
    select
        game_id, round_idx, seat,
        count_if(action = 'discard') as n_discards,
        min(event_idx) filter (where action = 'riichi') as riichi_event_idx,
        bool_or(action = 'riichi_accepted') as is_riichi_accepted
    from events
    where action in ('discard', 'riichi', 'riichi_accepted')
    group by all
),
riichi_order as (
    -- each declaration against the other seats' declarations of its round, and its own earlier discards
    select
        r.game_id, r.round_idx, r.seat,
        count(o.seat) filter (where o.event_idx < r.event_idx) as n_riichi_before,
        count(o.seat) filter (where o.event_idx > r.event_idx) as n_riichi_after
    from events as r
    left join events as o
        on o.game_id = r.game_id and o.round_idx = r.round_idx and o.action = 'riichi' and o.seat <> r.seat
    where r.action = 'riichi'
    group by all
),
riichi_turns as (
    select r.game_id, r.round_idx, r.seat, count(d.event_idx) as riichi_turn
    from events as r
    left join events as d
        on d.game_id = r.game_id and d.round_idx = r.round_idx and d.seat = r.seat and d.action = 'discard'
        and d.event_idx < r.event_idx
    where r.action = 'riichi'
    group by all
),
own_wins as (
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
    join seat_rounds as s using (game_id, round_idx, seat)
    where not w.is_tsumo
    group by all
),
dealt as (
    select game_id, round_idx, seat, shanten as starting_shanten
    from hand_states
    where event_idx is null
)
select
    s.*,
    coalesce(e.n_discards, 0) as n_discards,
    t.riichi_turn,
    coalesce(e.is_riichi_accepted, false) as is_riichi_accepted,
    o.n_riichi_before,
    o.n_riichi_after,
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
    d.score_deltas[s.seat + 1] as draw_delta,
    h.starting_shanten
from seat_rounds as s
left join own_events as e using (game_id, round_idx, seat)
left join riichi_order as o using (game_id, round_idx, seat)
left join riichi_turns as t using (game_id, round_idx, seat)
left join own_wins as w using (game_id, round_idx, seat)
left join ron_off as f using (game_id, round_idx, seat)
left join draws as d on d.game_id = s.game_id and d.round_idx = s.round_idx
left join dealt as h using (game_id, round_idx, seat)
