-- player_riichi_calls: the rollup of the mart player_riichi_calls: the seat-rounds of every counted game
-- (macros/seat_round_facts, with the waits of the seat's riichi hand: riichi.n_waits after the riichi discard)
-- summed per seat's attributes (macros/rollup_seats) and per class (one row per combination of the flags
-- player_riichi_calls counts or filters on), with the exact integer count, sum and sum of squares of every value
-- it averages. Additive over games: `paipu stats` keeps it per chunk of stored parts (pipeline/db/rollups.py) and
-- the mart sums it per group.
with facts as (
    select
        f.*,
        f.n_open_calls > 0 as has_call,
        coalesce(case
            when f.is_win then f.win_delta - case when f.is_riichi_accepted then 1000 else 0 end
            when f.is_deal_in then f.deal_in_delta
            when f.draw_kind is not null and f.is_riichi_accepted then f.draw_delta - 1000
        end, 0) as mortal_riichi_delta,
        coalesce(case
            when f.is_win then f.win_delta
            when f.is_deal_in then f.deal_in_delta
            when f.draw_kind is not null then f.draw_delta
        end, 0) as mortal_call_delta,
        f.deal_in_delta - case when f.is_riichi_accepted then 1000 else 0 end as riichi_expense,
        w.n_waits as riichi_n_waits
    from seat_round_facts() as f
    -- the seat's riichi (one a seat-round at most), when the seat-round has one
    left join riichi as w
        on w.game_id = f.game_id and w.round_idx = f.round_idx and w.seat = f.seat and f.has_riichi
)
select
    a.* exclude (game_id, seat), has_riichi, has_call, is_win, is_deal_in, is_riichi_accepted,
    draw_kind is not null as is_draw,
    coalesce(n_riichi_before = 0, false) as is_first_riichi,
    coalesce(n_riichi_before > 0, false) as is_chasing_riichi,
    coalesce(n_riichi_after > 0, false) as is_chased_riichi,
    count(*) as n,
    count(n_riichi_after) as n_chasers, sum(n_riichi_after) as sum_chasers,
    sum(n_riichi_after::bigint * n_riichi_after) as sq_chasers,
    count(riichi_turn) as n_riichi_turn, sum(riichi_turn) as sum_riichi_turn,
    sum(riichi_turn::bigint * riichi_turn) as sq_riichi_turn,
    count(score_change) as n_score_change, sum(score_change) as sum_score_change,
    sum(score_change::bigint * score_change) as sq_score_change,
    sum(mortal_riichi_delta) as sum_riichi_delta, sum(mortal_riichi_delta::bigint * mortal_riichi_delta)
        as sq_riichi_delta,
    count(win_delta) as n_win_delta, sum(win_delta) as sum_win_delta, sum(win_delta::bigint * win_delta)
        as sq_win_delta,
    count(riichi_expense) as n_riichi_expense, sum(riichi_expense) as sum_riichi_expense,
    sum(riichi_expense::bigint * riichi_expense) as sq_riichi_expense,
    count(n_open_calls) as n_open_calls, sum(n_open_calls) as sum_open_calls,
    sum(n_open_calls::bigint * n_open_calls) as sq_open_calls,
    sum(mortal_call_delta) as sum_call_delta, sum(mortal_call_delta::bigint * mortal_call_delta) as sq_call_delta,
    count(riichi_n_waits) as n_riichi_waits_known, count_if(riichi_n_waits >= 2) as n_multi_wait_riichi
from facts as f
join rollup_seats() as a using (game_id, seat)
group by all
