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
-- Every mean carries its standard error (the sample standard deviation over the square root of the count).
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
        r.n_waits
    from seat_round_facts() as f
    left join riichi as r using (game_id, round_idx, seat)
),
grouped as (
    select k.group_value, f.* exclude (game_id, seat)
    from facts as f
    join seat_group_keys(with_mode($by)) as k
        on k.game_id = f.game_id and k.seat_key = seat_key(with_mode($by), f.seat)
),
counts as (
    select
        group_value,
        count_if(has_riichi) as n_riichi,
        count_if(n_riichi_before = 0) as n_first_riichi,
        count_if(n_riichi_before > 0) as n_chasing_riichi,
        count_if(n_riichi_after > 0) as n_chased_riichi,
        sum(n_riichi_after) as n_chasers,
        stddev_samp(n_riichi_after) as chasers_sd,
        count_if(has_riichi and is_win) as n_riichi_wins,
        count_if(has_riichi and is_deal_in) as n_riichi_deal_ins,
        count_if(has_riichi and is_deal_in and is_riichi_accepted) as n_riichi_deal_ins_accepted,
        count_if(has_riichi and draw_kind is not null) as n_riichi_draws,
        sum(riichi_turn) as riichi_turns,
        stddev_samp(riichi_turn) as riichi_turn_sd,
        sum(score_change) filter (where has_riichi) as riichi_balance,
        stddev_samp(score_change) filter (where has_riichi) as riichi_balance_sd,
        sum(mortal_riichi_delta) filter (where has_riichi) as riichi_delta,
        stddev_samp(mortal_riichi_delta) filter (where has_riichi) as riichi_delta_sd,
        sum(win_delta) filter (where has_riichi) as riichi_income,
        stddev_samp(win_delta) filter (where has_riichi) as riichi_income_sd,
        sum(deal_in_delta - case when is_riichi_accepted then 1000 else 0 end) filter (where has_riichi)
            as riichi_expense,
        stddev_samp(deal_in_delta - case when is_riichi_accepted then 1000 else 0 end) filter (where has_riichi)
            as riichi_expense_sd,
        count(n_waits) filter (where has_riichi) as n_riichi_waits_known,
        count_if(has_riichi and n_waits >= 2) as n_multi_wait_riichi,
        count_if(has_call) as n_called,
        sum(n_open_calls) filter (where has_call) as n_calls,
        stddev_samp(n_open_calls) filter (where has_call) as calls_sd,
        count_if(has_call and is_win) as n_call_wins,
        count_if(has_call and is_deal_in) as n_call_deal_ins,
        count_if(has_call and draw_kind is not null) as n_call_draws,
        sum(mortal_call_delta) filter (where has_call) as call_delta,
        stddev_samp(mortal_call_delta) filter (where has_call) as call_delta_sd
    from grouped
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
            ('riichi_chasers_per_riichi', n_chasers, n_riichi, chasers_sd),
            ('win_rate_after_riichi', n_riichi_wins, n_riichi, null),
            ('deal_in_rate_after_riichi', n_riichi_deal_ins, n_riichi, null),
            ('deal_in_rate_after_riichi_accepted', n_riichi_deal_ins_accepted, n_riichi, null),
            ('draw_rate_after_riichi', n_riichi_draws, n_riichi, null),
            ('average_riichi_turn', riichi_turns, n_riichi, riichi_turn_sd),
            ('average_riichi_balance', riichi_balance, n_riichi, riichi_balance_sd),
            ('average_riichi_score_change', riichi_delta, n_riichi, riichi_delta_sd),
            ('average_riichi_win_income', riichi_income, n_riichi_wins, riichi_income_sd),
            ('average_riichi_deal_in_expense', riichi_expense, n_riichi_deal_ins, riichi_expense_sd),
            ('multi_wait_riichi_rate', n_multi_wait_riichi, n_riichi_waits_known, null),
            ('average_calls', n_calls, n_called, calls_sd),
            ('win_rate_after_call', n_call_wins, n_called, null),
            ('deal_in_rate_after_call', n_call_deal_ins, n_called, null),
            ('draw_rate_after_call', n_call_draws, n_called, null),
            ('average_call_score_change', call_delta, n_called, call_delta_sd)
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
