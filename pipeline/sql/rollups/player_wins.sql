-- player_wins: the rollup of the mart player_wins: the seat-rounds of every counted game (macros/seat_round_facts)
-- summed per seat's attributes (macros/rollup_seats: its name and its game's source, year, room, mode and flags)
-- and per class (one row per combination of the flags player_wins counts or filters on), with the exact integer
-- count, sum and sum of squares of every value it averages. Additive over games: `paipu stats` keeps it per chunk
-- of stored parts (pipeline/db/rollups.py) and the mart sums it per group.
with facts as (
    select
        f.*,
        f.n_open_calls > 0 as has_call,
        f.win_delta - case when f.has_riichi then 1000 else 0 end as mortal_win_delta,
        coalesce(f.win_points, 0) as points_won,
        coalesce(f.win_points, 0) - coalesce(f.deal_in_points, 0) as net_points
    from seat_round_facts() as f
)
select
    a.* exclude (game_id, seat), is_dealer, has_riichi, has_call, is_win, is_deal_in,
    coalesce(is_tsumo, false) as is_tsumo,
    coalesce(has_ippatsu, false) as has_ippatsu,
    coalesce(has_ura_dora, false) as has_ura_dora,
    coalesce(is_yakuman, false) as is_yakuman,
    coalesce(mortal_win_delta >= case when is_dealer then 48000 else 32000 end, false) as is_yakuman_mortal,
    deal_in_points is not null as is_ron_off,
    n_ron_off_dealer > 0 as is_ron_off_dealer,
    draw_kind is not null as is_draw,
    coalesce(draw_kind = 'nagashi_mangan' and draw_delta > 0, false) as is_nagashi,
    count(*) as n,
    count(n_discards) as n_turn, sum(n_discards) as sum_turn, sum(n_discards::bigint * n_discards) as sq_turn,
    count(mortal_win_delta) as n_win_delta, sum(mortal_win_delta) as sum_win_delta,
    sum(mortal_win_delta::bigint * mortal_win_delta) as sq_win_delta,
    count(deal_in_points) as n_deal_in_points, sum(deal_in_points) as sum_deal_in_points,
    sum(deal_in_points::bigint * deal_in_points) as sq_deal_in_points,
    count(deal_in_delta) as n_deal_in_delta, sum(deal_in_delta) as sum_deal_in_delta,
    sum(deal_in_delta::bigint * deal_in_delta) as sq_deal_in_delta,
    sum(n_ron_off) as n_ron_off, sum(n_ron_off_riichi) as n_ron_off_riichi,
    sum(n_ron_off_open) as n_ron_off_open, sum(n_ron_off_dama) as n_ron_off_dama,
    count(draw_delta) as n_draw_delta, sum(draw_delta) as sum_draw_delta,
    sum(draw_delta::bigint * draw_delta) as sq_draw_delta,
    sum(points_won) as sum_win_points, sum(points_won::bigint * points_won) as sq_win_points,
    sum(net_points) as sum_net_points, sum(net_points::bigint * net_points) as sq_net_points,
    count(score_change) as n_score_change, sum(score_change) as sum_score_change,
    sum(score_change::bigint * score_change) as sq_score_change,
    count(starting_shanten) as n_shanten, sum(starting_shanten) as sum_shanten,
    sum(starting_shanten::bigint * starting_shanten) as sq_shanten
from facts as f
join rollup_seats() as a using (game_id, seat)
group by all
