-- player_wins: the per-player vocabulary of wins, deal-ins, draws and points (Mortal's libriichi/src/stat.rs,
-- amae-koromo's player statistics, Tenhou's), per seat-round (macros/seat_round_facts: seat_rounds with the events,
-- wins and draws rolled up per seat and round), split by mode (the key 'mode' is added to $by: a seat's rates in
-- sanma are not those of 4-player). Parameter $by: any grouping; by 'player' a player's row counts only the seats
-- that player held. A turn is one own discard (Mortal's jun: a win or deal-in on turn k comes after k discards of
-- the seat, the dealt-in discard included). A win is riichi when the seat declared riichi, open when it called a
-- chi, pon or open kan (an ankan is not a call), dama otherwise. A score change ("delta") is the seat's change of
-- score from the result as the server recorded it (honba and the riichi sticks on the table included); Mortal's
-- win deltas leave out the winner's own riichi stick (1000 less when the seat had riichi). A multiple ron is one
-- deal-in (its wins' points and payments summed) but two or three wins dealt into. Definitions:
--   dealer_win_rate                  = dealer seat-rounds won / dealer seat-rounds (Mortal)
--   dealer_win_share                 = wins as dealer / wins (Mortal)
--   tsumo_share                      = tsumo wins / wins (amae-koromo)
--   riichi_win_share, open_win_share, dama_win_share = riichi, open, dama wins / wins (amae-koromo; dama: 默听率)
--   average_win_turn (and _riichi_, _open_, _dama_) = sum of the turns of those wins / those wins (a mean; Mortal)
--   average_win_score_change (and _dealer_, _non_dealer_, _riichi_, _open_, _dama_) = sum of the wins' score
--                                      changes less the winner's own riichi stick / those wins (a mean; Mortal)
--   ippatsu_rate                     = riichi wins with ippatsu / riichi wins (amae-koromo)
--   ura_dora_rate                    = riichi wins with an ura dora han / riichi wins (amae-koromo)
--   yakuman_rate                     = wins the server scored as yakuman / seat-rounds
--   yakuman_rate_mortal              = wins whose score change less the own stick reaches a yakuman ron (48000
--                                      dealer, 32000 otherwise) / seat-rounds (Mortal's test: counted wins, not yaku)
--   average_deal_in_turn             = sum of the turns of the deal-ins / deal-ins (a mean; Mortal)
--   average_deal_in_points           = points (hand values) of the wins dealt into / deal-ins (a mean; amae-koromo)
--   average_deal_in_score_change (and _to_dealer, _to_non_dealer) = sum of the deal-ins' score changes / those
--                                      deal-ins (to a dealer: a winner dealt; a mean; Mortal)
--   deal_in_to_dealer_share          = deal-ins with the dealer among the winners / deal-ins (Mortal)
--   deal_in_riichi_share, deal_in_open_share = deal-ins by a seat that had declared riichi, that had called /
--                                      deal-ins (amae-koromo 放铳时立直率, 放铳时副露率)
--   deal_in_to_riichi_share, _to_open_share, _to_dama_share = wins dealt into whose winner had riichi, had called,
--                                      neither / wins dealt into (amae-koromo 放铳至立直, 副露, 默听)
--   seat_draw_rate                   = seat-rounds ending in a draw of any kind / seat-rounds (Mortal, amae-koromo)
--   average_draw_score_change        = sum of the seat's score changes at draws / seat-rounds drawn (Mortal)
--   nagashi_mangan_seat_rate         = seat-rounds the seat was paid nagashi mangan / seat-rounds (Mortal)
--   win_efficiency                   = sum of the win points / seat-rounds (amae-koromo 打点效率: win rate x
--                                      average win points; a mean)
--   deal_in_loss                     = sum of the points dealt in / seat-rounds (amae-koromo 铳点损失; a mean)
--   net_win_efficiency               = (win points - points dealt in) / seat-rounds (amae-koromo 净打点效率; a mean)
--   average_round_score_change       = sum of the seat's score changes over its rounds (every payment, deposit and
--                                      stick) / seat-rounds (a mean; Mortal's avg round delta, amae-koromo 局收支)
--   average_starting_shanten (and _dealer, _non_dealer) = sum of the shanten of the 13 tiles dealt / those
--                                      seat-rounds (a mean; amae-koromo 起手向听, 亲, 子)
-- Every mean carries its standard error (the sample standard deviation over the square root of the count), the
-- deviation exact from integer sums (macros/sample_sd). The seat-rounds are counted and summed per group and class
-- (classes: one row per combination of the flags the statistics filter on), then the classes per statistic.
with classes as (
    -- the seat-rounds per class (rollups/player_wins), in the group of their seat's attributes
    select group_value(with_mode($by), room, year, source, is_hanchan, n_players, name) as group_value, r.*
    from rollup_player_wins as r
),
counts as (
    -- a statistic's count, sum, sum of squares: the classes' added up over the classes it is about
    select
        group_value,
        sum(n) as n_seat_rounds,
        sum(n) filter (where is_win) as n_wins,
        sum(n) filter (where is_deal_in) as n_deal_ins,
        sum(n) filter (where is_dealer) as n_dealer,
        sum(n) filter (where is_win and is_dealer) as n_dealer_wins,
        sum(n) filter (where is_win and not is_dealer) as n_non_dealer_wins,
        sum(n) filter (where is_tsumo) as n_tsumo,
        sum(n) filter (where is_win and has_riichi) as n_riichi_wins,
        sum(n) filter (where is_win and has_call) as n_open_wins,
        sum(n) filter (where is_win and not has_riichi and not has_call) as n_dama_wins,
        sum(n_turn) filter (where is_win) as n_win_turn,
        sum(sum_turn) filter (where is_win) as win_turns,
        sum(sq_turn) filter (where is_win) as sq_win_turns,
        sum(n_turn) filter (where is_win and has_riichi) as n_riichi_win_turn,
        sum(sum_turn) filter (where is_win and has_riichi) as riichi_win_turns,
        sum(sq_turn) filter (where is_win and has_riichi) as sq_riichi_win_turns,
        sum(n_turn) filter (where is_win and has_call) as n_open_win_turn,
        sum(sum_turn) filter (where is_win and has_call) as open_win_turns,
        sum(sq_turn) filter (where is_win and has_call) as sq_open_win_turns,
        sum(n_turn) filter (where is_win and not has_riichi and not has_call) as n_dama_win_turn,
        sum(sum_turn) filter (where is_win and not has_riichi and not has_call) as dama_win_turns,
        sum(sq_turn) filter (where is_win and not has_riichi and not has_call) as sq_dama_win_turns,
        sum(n_win_delta) as n_win_delta,
        sum(sum_win_delta) as win_delta,
        sum(sq_win_delta) as sq_win_delta,
        sum(n_win_delta) filter (where is_dealer) as n_dealer_win_delta,
        sum(sum_win_delta) filter (where is_dealer) as dealer_win_delta,
        sum(sq_win_delta) filter (where is_dealer) as sq_dealer_win_delta,
        sum(n_win_delta) filter (where not is_dealer) as n_non_dealer_win_delta,
        sum(sum_win_delta) filter (where not is_dealer) as non_dealer_win_delta,
        sum(sq_win_delta) filter (where not is_dealer) as sq_non_dealer_win_delta,
        sum(n_win_delta) filter (where is_win and has_riichi) as n_riichi_win_delta,
        sum(sum_win_delta) filter (where is_win and has_riichi) as riichi_win_delta,
        sum(sq_win_delta) filter (where is_win and has_riichi) as sq_riichi_win_delta,
        sum(n_win_delta) filter (where is_win and has_call) as n_open_win_delta,
        sum(sum_win_delta) filter (where is_win and has_call) as open_win_delta,
        sum(sq_win_delta) filter (where is_win and has_call) as sq_open_win_delta,
        sum(n_win_delta) filter (where is_win and not has_riichi and not has_call) as n_dama_win_delta,
        sum(sum_win_delta) filter (where is_win and not has_riichi and not has_call) as dama_win_delta,
        sum(sq_win_delta) filter (where is_win and not has_riichi and not has_call) as sq_dama_win_delta,
        sum(n) filter (where is_win and has_riichi and has_ippatsu) as n_ippatsu,
        sum(n) filter (where is_win and has_riichi and has_ura_dora) as n_ura_dora,
        sum(n) filter (where is_yakuman) as n_yakuman,
        sum(n) filter (where is_yakuman_mortal) as n_yakuman_mortal,
        sum(n_turn) filter (where is_deal_in) as n_deal_in_turn,
        sum(sum_turn) filter (where is_deal_in) as deal_in_turns,
        sum(sq_turn) filter (where is_deal_in) as sq_deal_in_turns,
        sum(n_deal_in_points) as n_deal_in_points,
        sum(sum_deal_in_points) as deal_in_points,
        sum(sq_deal_in_points) as sq_deal_in_points,
        sum(n_deal_in_delta) as n_deal_in_delta,
        sum(sum_deal_in_delta) as deal_in_delta,
        sum(sq_deal_in_delta) as sq_deal_in_delta,
        sum(n) filter (where is_ron_off_dealer) as n_deal_ins_to_dealer,
        sum(n_deal_in_delta) filter (where is_ron_off_dealer) as n_deal_in_delta_to_dealer,
        sum(sum_deal_in_delta) filter (where is_ron_off_dealer) as deal_in_delta_to_dealer,
        sum(sq_deal_in_delta) filter (where is_ron_off_dealer) as sq_deal_in_delta_to_dealer,
        sum(n) filter (where is_ron_off and not is_ron_off_dealer) as n_deal_ins_to_non_dealer,
        sum(n_deal_in_delta) filter (where is_ron_off and not is_ron_off_dealer) as n_deal_in_delta_to_non_dealer,
        sum(sum_deal_in_delta) filter (where is_ron_off and not is_ron_off_dealer) as deal_in_delta_to_non_dealer,
        sum(sq_deal_in_delta) filter (where is_ron_off and not is_ron_off_dealer) as sq_deal_in_delta_to_non_dealer,
        sum(n) filter (where is_deal_in and has_riichi) as n_deal_ins_riichi,
        sum(n) filter (where is_deal_in and has_call) as n_deal_ins_open,
        sum(n_ron_off) as n_ron_off,
        sum(n_ron_off_riichi) as n_ron_off_riichi,
        sum(n_ron_off_open) as n_ron_off_open,
        sum(n_ron_off_dama) as n_ron_off_dama,
        sum(n) filter (where is_draw) as n_draws,
        sum(n_draw_delta) as n_draw_delta,
        sum(sum_draw_delta) as draw_delta,
        sum(sq_draw_delta) as sq_draw_delta,
        sum(n) filter (where is_nagashi) as n_nagashi,
        sum(sum_win_points) as win_points,
        sum(sq_win_points) as sq_win_points,
        sum(sum_net_points) as net_points,
        sum(sq_net_points) as sq_net_points,
        sum(n_score_change) as n_score_change,
        sum(sum_score_change) as score_change,
        sum(sq_score_change) as sq_score_change,
        sum(n_shanten) as n_dealt,
        sum(sum_shanten) as shanten,
        sum(sq_shanten) as sq_shanten,
        sum(n_shanten) filter (where is_dealer) as n_dealt_dealer,
        sum(sum_shanten) filter (where is_dealer) as shanten_dealer,
        sum(sq_shanten) filter (where is_dealer) as sq_shanten_dealer,
        sum(n_shanten) filter (where not is_dealer) as n_dealt_non_dealer,
        sum(sum_shanten) filter (where not is_dealer) as shanten_non_dealer,
        sum(sq_shanten) filter (where not is_dealer) as sq_shanten_non_dealer
    from classes
    group by group_value
),
measured as (
    -- one (numerator, denominator, sample standard deviation of a mean's terms) per statistic
    select
        group_value,
        unnest([
            ('dealer_win_rate', n_dealer_wins, n_dealer, null),
            ('dealer_win_share', n_dealer_wins, n_wins, null),
            ('tsumo_share', n_tsumo, n_wins, null),
            ('riichi_win_share', n_riichi_wins, n_wins, null),
            ('open_win_share', n_open_wins, n_wins, null),
            ('dama_win_share', n_dama_wins, n_wins, null),
            ('average_win_turn', win_turns, n_wins, sample_sd(n_win_turn, win_turns, sq_win_turns)),
            ('average_riichi_win_turn', riichi_win_turns, n_riichi_wins,
             sample_sd(n_riichi_win_turn, riichi_win_turns, sq_riichi_win_turns)),
            ('average_open_win_turn', open_win_turns, n_open_wins,
             sample_sd(n_open_win_turn, open_win_turns, sq_open_win_turns)),
            ('average_dama_win_turn', dama_win_turns, n_dama_wins,
             sample_sd(n_dama_win_turn, dama_win_turns, sq_dama_win_turns)),
            ('average_win_score_change', win_delta, n_wins, sample_sd(n_win_delta, win_delta, sq_win_delta)),
            ('average_dealer_win_score_change', dealer_win_delta, n_dealer_wins,
             sample_sd(n_dealer_win_delta, dealer_win_delta, sq_dealer_win_delta)),
            ('average_non_dealer_win_score_change', non_dealer_win_delta, n_non_dealer_wins,
             sample_sd(n_non_dealer_win_delta, non_dealer_win_delta, sq_non_dealer_win_delta)),
            ('average_riichi_win_score_change', riichi_win_delta, n_riichi_wins,
             sample_sd(n_riichi_win_delta, riichi_win_delta, sq_riichi_win_delta)),
            ('average_open_win_score_change', open_win_delta, n_open_wins,
             sample_sd(n_open_win_delta, open_win_delta, sq_open_win_delta)),
            ('average_dama_win_score_change', dama_win_delta, n_dama_wins,
             sample_sd(n_dama_win_delta, dama_win_delta, sq_dama_win_delta)),
            ('ippatsu_rate', n_ippatsu, n_riichi_wins, null),
            ('ura_dora_rate', n_ura_dora, n_riichi_wins, null),
            ('yakuman_rate', n_yakuman, n_seat_rounds, null),
            ('yakuman_rate_mortal', n_yakuman_mortal, n_seat_rounds, null),
            ('average_deal_in_turn', deal_in_turns, n_deal_ins,
             sample_sd(n_deal_in_turn, deal_in_turns, sq_deal_in_turns)),
            ('average_deal_in_points', deal_in_points, n_deal_ins,
             sample_sd(n_deal_in_points, deal_in_points, sq_deal_in_points)),
            ('average_deal_in_score_change', deal_in_delta, n_deal_ins,
             sample_sd(n_deal_in_delta, deal_in_delta, sq_deal_in_delta)),
            ('average_deal_in_score_change_to_dealer', deal_in_delta_to_dealer, n_deal_ins_to_dealer,
             sample_sd(n_deal_in_delta_to_dealer, deal_in_delta_to_dealer, sq_deal_in_delta_to_dealer)),
            ('average_deal_in_score_change_to_non_dealer', deal_in_delta_to_non_dealer, n_deal_ins_to_non_dealer,
             sample_sd(n_deal_in_delta_to_non_dealer, deal_in_delta_to_non_dealer, sq_deal_in_delta_to_non_dealer)),
            ('deal_in_to_dealer_share', n_deal_ins_to_dealer, n_deal_ins, null),
            ('deal_in_riichi_share', n_deal_ins_riichi, n_deal_ins, null),
            ('deal_in_open_share', n_deal_ins_open, n_deal_ins, null),
            ('deal_in_to_riichi_share', n_ron_off_riichi, n_ron_off, null),
            ('deal_in_to_open_share', n_ron_off_open, n_ron_off, null),
            ('deal_in_to_dama_share', n_ron_off_dama, n_ron_off, null),
            ('seat_draw_rate', n_draws, n_seat_rounds, null),
            ('average_draw_score_change', draw_delta, n_draws, sample_sd(n_draw_delta, draw_delta, sq_draw_delta)),
            ('nagashi_mangan_seat_rate', n_nagashi, n_seat_rounds, null),
            -- means over every seat-round (a seat-round without a win or a deal-in is a term of 0)
            ('win_efficiency', win_points, n_seat_rounds, sample_sd(n_seat_rounds, win_points, sq_win_points)),
            ('deal_in_loss', coalesce(deal_in_points, 0), n_seat_rounds,
             sample_sd(n_seat_rounds, coalesce(deal_in_points, 0), coalesce(sq_deal_in_points, 0))),
            ('net_win_efficiency', net_points, n_seat_rounds, sample_sd(n_seat_rounds, net_points, sq_net_points)),
            ('average_round_score_change', score_change, n_seat_rounds,
             sample_sd(n_score_change, score_change, sq_score_change)),
            ('average_starting_shanten', shanten, n_dealt, sample_sd(n_dealt, shanten, sq_shanten)),
            ('average_starting_shanten_dealer', shanten_dealer, n_dealt_dealer,
             sample_sd(n_dealt_dealer, shanten_dealer, sq_shanten_dealer)),
            ('average_starting_shanten_non_dealer', shanten_non_dealer, n_dealt_non_dealer,
             sample_sd(n_dealt_non_dealer, shanten_non_dealer, sq_shanten_non_dealer))
        ]::struct(name varchar, numerator double, denominator bigint, sd double)[], recursive := true)
    from counts
),
definitions (name, ord, is_mean, definition) as (
    values
        ('dealer_win_rate', 1, false, 'dealer seat-rounds won / dealer seat-rounds (Mortal)'),
        ('dealer_win_share', 2, false, 'wins as dealer / wins (Mortal)'),
        ('tsumo_share', 3, false, 'tsumo wins / wins (amae-koromo)'),
        ('riichi_win_share', 4, false, 'wins of a seat that declared riichi / wins (amae-koromo)'),
        ('open_win_share', 5, false, 'wins of a seat that called a chi, pon or open kan (ankan is no call) / wins '
            || '(amae-koromo)'),
        ('dama_win_share', 6, false, 'wins with neither riichi nor a call (closed, an ankan allowed) / wins '
            || '(amae-koromo)'),
        ('average_win_turn', 7, true, 'sum of the winners'' own discards in the round before the win / wins '
            || '(a mean; Mortal''s turn)'),
        ('average_riichi_win_turn', 8, true, 'sum of the turns (own discards) of the riichi wins / riichi wins '
            || '(a mean; Mortal)'),
        ('average_open_win_turn', 9, true, 'sum of the turns (own discards) of the open wins / open wins (a mean; '
            || 'Mortal)'),
        ('average_dama_win_turn', 10, true, 'sum of the turns (own discards) of the dama wins / dama wins (a mean; '
            || 'Mortal)'),
        ('average_win_score_change', 11, true, 'sum of the winners'' score changes from the win (honba and sticks '
            || 'in, the own riichi stick out) / wins (a mean; Mortal)'),
        ('average_dealer_win_score_change', 12, true, 'the same over the wins as dealer / wins as dealer (a mean; '
            || 'Mortal)'),
        ('average_non_dealer_win_score_change', 13, true, 'the same over the wins as non-dealer / wins as '
            || 'non-dealer (a mean; Mortal)'),
        ('average_riichi_win_score_change', 14, true, 'the same over the riichi wins / riichi wins (a mean; Mortal)'),
        ('average_open_win_score_change', 15, true, 'the same over the open wins / open wins (a mean; Mortal)'),
        ('average_dama_win_score_change', 16, true, 'the same over the dama wins / dama wins (a mean; Mortal)'),
        ('ippatsu_rate', 17, false, 'riichi wins with ippatsu / riichi wins (amae-koromo)'),
        ('ura_dora_rate', 18, false, 'riichi wins with at least one ura dora han / riichi wins (amae-koromo)'),
        ('yakuman_rate', 19, false, 'wins the server scored as yakuman / seat-rounds'),
        ('yakuman_rate_mortal', 20, false, 'wins whose score change less the own riichi stick is at least a '
            || 'yakuman ron (48000 dealer, 32000 non-dealer) / seat-rounds (Mortal''s test)'),
        ('average_deal_in_turn', 21, true, 'sum of the dealer-in''s own discards in the round (the dealt-in one '
            || 'included) / deal-ins (a mean; Mortal)'),
        ('average_deal_in_points', 22, true, 'points (hand values, before honba and sticks) of the wins dealt into '
            || '/ deal-ins (a multiple ron summed; a mean; amae-koromo)'),
        ('average_deal_in_score_change', 23, true, 'sum of the dealer-in''s score changes from the wins off it '
            || '(honba and sticks in) / deal-ins (a mean; Mortal)'),
        ('average_deal_in_score_change_to_dealer', 24, true, 'the same over the deal-ins to a dealer / those '
            || 'deal-ins (a mean; Mortal)'),
        ('average_deal_in_score_change_to_non_dealer', 25, true, 'the same over the deal-ins to non-dealers only / '
            || 'those deal-ins (a mean; Mortal)'),
        ('deal_in_to_dealer_share', 26, false, 'deal-ins with the dealer among the winners / deal-ins (Mortal)'),
        ('deal_in_riichi_share', 27, false, 'deal-ins by a seat that had declared riichi (the declaration tile '
            || 'included) / deal-ins (amae-koromo)'),
        ('deal_in_open_share', 28, false, 'deal-ins by a seat that had called / deal-ins (amae-koromo)'),
        ('deal_in_to_riichi_share', 29, false, 'wins dealt into whose winner had declared riichi / wins dealt into '
            || '(each winner of a multiple ron; amae-koromo)'),
        ('deal_in_to_open_share', 30, false, 'wins dealt into whose winner had called / wins dealt into '
            || '(amae-koromo)'),
        ('deal_in_to_dama_share', 31, false, 'wins dealt into whose winner had neither riichi nor a call / wins '
            || 'dealt into (amae-koromo)'),
        ('seat_draw_rate', 32, false, 'seat-rounds of rounds ending in a draw of any kind (exhaustive, nagashi '
            || 'mangan, abortive) / seat-rounds (Mortal, amae-koromo)'),
        ('average_draw_score_change', 33, true, 'sum of the seat''s score changes at the draws (noten and '
            || 'nagashi payments) / seat-rounds drawn (a mean; Mortal)'),
        ('nagashi_mangan_seat_rate', 34, false, 'seat-rounds in which the seat was paid nagashi mangan / '
            || 'seat-rounds (Mortal)'),
        ('win_efficiency', 35, true, 'sum of the win points (hand values) / seat-rounds: win rate x average win '
            || 'points (a mean; amae-koromo)'),
        ('deal_in_loss', 36, true, 'sum of the points (hand values) dealt in / seat-rounds: deal-in rate x average '
            || 'deal-in points (a mean; amae-koromo)'),
        ('net_win_efficiency', 37, true, '(win points - points dealt in) / seat-rounds (a mean; amae-koromo)'),
        ('average_round_score_change', 38, true, 'sum of the seat''s score changes over the round (every payment, '
            || 'deposit and stick) / seat-rounds (a mean; Mortal, amae-koromo)'),
        ('average_starting_shanten', 39, true, 'sum of the shanten of the 13 tiles dealt (regular, seven pairs, '
            || 'thirteen orphans) / seat-rounds dealt (a mean; amae-koromo)'),
        ('average_starting_shanten_dealer', 40, true, 'the same over the dealer''s seat-rounds (a mean; '
            || 'amae-koromo)'),
        ('average_starting_shanten_non_dealer', 41, true, 'the same over the non-dealers'' seat-rounds (a mean; '
            || 'amae-koromo)')
),
final as (
    select
        m.name, m.group_value, m.numerator, m.denominator, d.ord,
        case when d.is_mean then m.sd / sqrt(m.denominator) end as std_error,
        d.definition
    from measured as m
    join definitions as d using (name)
)
select name, group_value, coalesce(numerator, 0) as numerator, denominator, coalesce(numerator, 0) / denominator as value,
       definition, std_error
from final
where denominator > 0
order by group_value nulls first, ord
