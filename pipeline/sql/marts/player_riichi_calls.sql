-- player_riichi_calls: the per-player vocabulary of riichi and calls (Mortal's libriichi/src/stat.rs,
-- amae-koromo's player statistics), per seat-round (macros/seat_round_facts), split by mode (the key 'mode' is added
-- to $by). Parameter $by: any grouping; by 'player' a player's row counts only the seats that player held.
-- A riichi is a declaration (accepted or not: a ron on the declaration tile counts); a call is a chi, pon or open
-- kan (daiminkan): an ankan is not a call, an added kan adds no call. A turn is one own discard (the riichi
-- discard is not counted in the riichi's own turn). A round "with a call" is a seat-round in which the seat called
-- at least once: the win, deal-in or draw that ends the round comes after every call of it. Definitions:
--   first_riichi_rate                = riichi declared before any other seat's of the round / riichi (amae 先制率)
--   chasing_riichi_rate              = riichi declared after another seat's / riichi (Mortal, amae 追立率)
--   riichi_chased_rate               = riichi after which another seat declared / riichi (amae-koromo 被追率)
--   riichi_chasers_per_riichi        = riichi declarations by other seats after the seat's / riichi (a mean: up to
--                                      3 per riichi; what Mortal calls its riichi chased rate)
--   win_rate_after_riichi            = riichi seat-rounds won / riichi (Mortal, amae-koromo)
--   deal_in_rate_after_riichi        = riichi seat-rounds dealt in, the declaration tile included / riichi
--                                      (Mortal; amae-koromo 立直后放铳率, "A")
--   deal_in_rate_after_riichi_accepted = riichi seat-rounds dealt in after the stick was put down (the
--                                      declaration tile not included) / riichi (amae-koromo 立直后非瞬间放铳率, "B")
--   draw_rate_after_riichi           = riichi seat-rounds ending in a draw of any kind / riichi (amae-koromo)
--   average_riichi_turn              = sum of the seat's discards before each riichi declaration / riichi (a mean;
--                                      Mortal)
--   average_riichi_balance           = sum of the riichi seat-rounds' score changes (every payment, the stick
--                                      deposited and the sticks won) / riichi (a mean; amae-koromo 立直收支)
--   average_riichi_score_change      = Mortal's avg riichi delta: over the riichi seat-rounds, the win's score change
--                                      less the own stick, a deal-in's score change, a draw's score change less the
--                                      stick (when accepted), nothing for a round another seat won by tsumo or off a
--                                      third seat / riichi (a mean)
--   average_riichi_win_income        = sum of the riichi wins' score changes (the sticks on the table, the own one
--                                      included) / riichi wins (a mean; amae-koromo 立直收入)
--   average_riichi_deal_in_expense   = sum of the riichi deal-ins' score changes, less the stick when it was put
--                                      down / riichi deal-ins (a negative mean; amae-koromo 立直支出)
--   multi_wait_riichi_rate           = riichi whose hand after the riichi discard waits on two kinds or more /
--                                      riichi with a known hand (amae-koromo 立直多面; riichi.n_waits)
--   average_calls                    = calls / seat-rounds with a call (a mean; Mortal's average number of calls)
--   win_rate_after_call              = seat-rounds with a call won / seat-rounds with a call (Mortal, amae-koromo)
--   deal_in_rate_after_call          = seat-rounds with a call dealt in / seat-rounds with a call (Mortal, amae)
--   draw_rate_after_call             = seat-rounds with a call ending in a draw / seat-rounds with a call (amae)
--   average_call_score_change        = Mortal's avg call delta: over the seat-rounds with a call, the win's, the
--                                      deal-in's or the draw's score change, nothing otherwise / seat-rounds with a
--                                      call (a mean)
-- Every mean carries its standard error (the sample standard deviation over the square root of the count), the
-- deviation exact from integer sums (macros/sample_sd). The seat-rounds are counted and summed per group and class
-- (classes: one row per combination of the flags the statistics filter on), then the classes per statistic.
with classes as (
    -- the seat-rounds per class (rollups/player_riichi_calls), in the group of their seat's attributes
    select group_value(with_mode($by), room, year, source, is_hanchan, n_players, name) as group_value, r.*
    from rollup_player_riichi_calls as r
),
counts as (
    -- a statistic's count, sum, sum of squares: the classes' added up over the classes it is about
    select
        group_value,
        sum(n) filter (where has_riichi) as n_riichi,
        sum(n) filter (where is_first_riichi) as n_first_riichi,
        sum(n) filter (where is_chasing_riichi) as n_chasing_riichi,
        sum(n) filter (where is_chased_riichi) as n_chased_riichi,
        sum(n_chasers) as n_chasers_known,
        sum(sum_chasers) as n_chasers,
        sum(sq_chasers) as sq_chasers,
        sum(n) filter (where has_riichi and is_win) as n_riichi_wins,
        sum(n) filter (where has_riichi and is_deal_in) as n_riichi_deal_ins,
        sum(n) filter (where has_riichi and is_deal_in and is_riichi_accepted) as n_riichi_deal_ins_accepted,
        sum(n) filter (where has_riichi and is_draw) as n_riichi_draws,
        sum(n_riichi_turn) as n_riichi_turns,
        sum(sum_riichi_turn) as riichi_turns,
        sum(sq_riichi_turn) as sq_riichi_turns,
        sum(n_score_change) filter (where has_riichi) as n_riichi_balance,
        sum(sum_score_change) filter (where has_riichi) as riichi_balance,
        sum(sq_score_change) filter (where has_riichi) as sq_riichi_balance,
        sum(n) filter (where has_riichi) as n_riichi_delta,
        sum(sum_riichi_delta) filter (where has_riichi) as riichi_delta,
        sum(sq_riichi_delta) filter (where has_riichi) as sq_riichi_delta,
        sum(n_win_delta) filter (where has_riichi) as n_riichi_income,
        sum(sum_win_delta) filter (where has_riichi) as riichi_income,
        sum(sq_win_delta) filter (where has_riichi) as sq_riichi_income,
        sum(n_riichi_expense) filter (where has_riichi) as n_riichi_expense,
        sum(sum_riichi_expense) filter (where has_riichi) as riichi_expense,
        sum(sq_riichi_expense) filter (where has_riichi) as sq_riichi_expense,
        sum(n) filter (where has_call) as n_called,
        sum(n_open_calls) filter (where has_call) as n_calls_known,
        sum(sum_open_calls) filter (where has_call) as n_calls,
        sum(sq_open_calls) filter (where has_call) as sq_calls,
        sum(n) filter (where has_call and is_win) as n_call_wins,
        sum(n) filter (where has_call and is_deal_in) as n_call_deal_ins,
        sum(n) filter (where has_call and is_draw) as n_call_draws,
        sum(n) filter (where has_call) as n_call_delta,
        sum(sum_call_delta) filter (where has_call) as call_delta,
        sum(sq_call_delta) filter (where has_call) as sq_call_delta,
        sum(n_riichi_waits_known) as n_riichi_waits_known,
        sum(n_multi_wait_riichi) as n_multi_wait_riichi
    from classes
    group by group_value
),
measured as (
    -- one (numerator, denominator, sample standard deviation of a mean's terms) per statistic
    select
        group_value,
        unnest([
            ('first_riichi_rate', n_first_riichi, n_riichi, null),
            ('chasing_riichi_rate', n_chasing_riichi, n_riichi, null),
            ('riichi_chased_rate', n_chased_riichi, n_riichi, null),
            ('riichi_chasers_per_riichi', n_chasers, n_riichi, sample_sd(n_chasers_known, n_chasers, sq_chasers)),
            ('win_rate_after_riichi', n_riichi_wins, n_riichi, null),
            ('deal_in_rate_after_riichi', n_riichi_deal_ins, n_riichi, null),
            ('deal_in_rate_after_riichi_accepted', n_riichi_deal_ins_accepted, n_riichi, null),
            ('draw_rate_after_riichi', n_riichi_draws, n_riichi, null),
            ('average_riichi_turn', riichi_turns, n_riichi, sample_sd(n_riichi_turns, riichi_turns, sq_riichi_turns)),
            ('average_riichi_balance', riichi_balance, n_riichi,
             sample_sd(n_riichi_balance, riichi_balance, sq_riichi_balance)),
            ('average_riichi_score_change', riichi_delta, n_riichi,
             sample_sd(n_riichi_delta, riichi_delta, sq_riichi_delta)),
            ('average_riichi_win_income', riichi_income, n_riichi_wins,
             sample_sd(n_riichi_income, riichi_income, sq_riichi_income)),
            ('average_riichi_deal_in_expense', riichi_expense, n_riichi_deal_ins,
             sample_sd(n_riichi_expense, riichi_expense, sq_riichi_expense)),
            ('multi_wait_riichi_rate', n_multi_wait_riichi, n_riichi_waits_known, null),
            ('average_calls', n_calls, n_called, sample_sd(n_calls_known, n_calls, sq_calls)),
            ('win_rate_after_call', n_call_wins, n_called, null),
            ('deal_in_rate_after_call', n_call_deal_ins, n_called, null),
            ('draw_rate_after_call', n_call_draws, n_called, null),
            ('average_call_score_change', call_delta, n_called, sample_sd(n_call_delta, call_delta, sq_call_delta))
        ]::struct(name varchar, numerator double, denominator bigint, sd double)[], recursive := true)
    from counts
),
definitions (name, ord, is_mean, definition) as (
    values
        ('first_riichi_rate', 1, false, 'riichi declared before any other seat''s of the round / riichi '
            || '(amae-koromo)'),
        ('chasing_riichi_rate', 2, false, 'riichi declared after another seat''s of the round / riichi (Mortal, '
            || 'amae-koromo)'),
        ('riichi_chased_rate', 3, false, 'riichi after which another seat declared riichi / riichi (amae-koromo)'),
        ('riichi_chasers_per_riichi', 4, true, 'riichi declarations of other seats after the seat''s / riichi (a '
            || 'mean; Mortal''s riichi chased rate)'),
        ('win_rate_after_riichi', 5, false, 'riichi seat-rounds won / riichi (Mortal, amae-koromo)'),
        ('deal_in_rate_after_riichi', 6, false, 'riichi seat-rounds dealt in, on the declaration tile included / '
            || 'riichi (Mortal; amae-koromo A)'),
        ('deal_in_rate_after_riichi_accepted', 7, false, 'riichi seat-rounds dealt in after the stick was put '
            || 'down / riichi (amae-koromo B)'),
        ('draw_rate_after_riichi', 8, false, 'riichi seat-rounds ending in a draw of any kind / riichi '
            || '(amae-koromo)'),
        ('average_riichi_turn', 9, true, 'sum of the seat''s discards before each riichi declaration / riichi '
            || '(a mean; Mortal)'),
        ('average_riichi_balance', 10, true, 'sum of the riichi seat-rounds'' score changes (payments, the stick '
            || 'deposited, sticks won) / riichi (a mean; amae-koromo)'),
        ('average_riichi_score_change', 11, true, 'over the riichi seat-rounds: a win''s score change less the own '
            || 'stick, a deal-in''s, a draw''s less the stick (accepted); other rounds 0 / riichi (a mean; Mortal)'),
        ('average_riichi_win_income', 12, true, 'sum of the riichi wins'' score changes (every stick on the table, '
            || 'the own included) / riichi wins (a mean; amae-koromo)'),
        ('average_riichi_deal_in_expense', 13, true, 'sum of the riichi deal-ins'' score changes less the stick '
            || 'when put down / riichi deal-ins (a negative mean; amae-koromo)'),
        ('multi_wait_riichi_rate', 14, false, 'riichi whose hand after the riichi discard waits on 2 kinds or '
            || 'more / riichi with a known hand (amae-koromo)'),
        ('average_calls', 15, true, 'chi, pon and open kans called / seat-rounds with a call (ankan not a call; a '
            || 'mean; Mortal)'),
        ('win_rate_after_call', 16, false, 'seat-rounds with a call won / seat-rounds with a call (Mortal, '
            || 'amae-koromo)'),
        ('deal_in_rate_after_call', 17, false, 'seat-rounds with a call dealt in / seat-rounds with a call '
            || '(Mortal, amae-koromo)'),
        ('draw_rate_after_call', 18, false, 'seat-rounds with a call ending in a draw of any kind / seat-rounds '
            || 'with a call (amae-koromo)'),
        ('average_call_score_change', 19, true, 'over the seat-rounds with a call: the win''s, deal-in''s or '
            || 'draw''s score change, other rounds 0 / seat-rounds with a call (a mean; Mortal)')
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
