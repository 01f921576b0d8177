-- round_results: every stored round has exactly one result, and the counts agree:
-- rounds = wins + draws - (extra winners of multiple rons); games.n_rounds = rounds stored;
-- rounds.n_winners = wins of the round; round_idx runs 0..n_rounds-1 without gaps.
with results as (
    select game_id, round_idx, count(*) as n_wins, 0 as n_draws from wins group by all
    union all
    select game_id, round_idx, 0, count(*) from draws group by all
),
per_round as (
    select game_id, round_idx, sum(n_wins) as n_wins, sum(n_draws) as n_draws from results group by all
),
round_mismatch as (
    select r.game_id, r.round_idx,
           'n_winners=' || r.n_winners || ' wins=' || coalesce(p.n_wins, 0) || ' draws=' || coalesce(p.n_draws, 0)
               as detail
    from rounds r left join per_round p using (game_id, round_idx)
    where coalesce(p.n_wins, 0) != r.n_winners
       or (coalesce(p.n_wins, 0) > 0) = (coalesce(p.n_draws, 0) > 0)
       or (r.end_kind = 'win') != (r.n_winners > 0)
),
orphan_results as (
    select p.game_id, p.round_idx, 'result without a round' as detail
    from per_round p anti join rounds r using (game_id, round_idx)
),
game_mismatch as (
    select g.game_id, null::integer as round_idx,
           'games.n_rounds=' || g.n_rounds || ' rounds stored=' || count(r.round_idx)
               || ' max round_idx=' || coalesce(max(r.round_idx), -1) as detail
    from games g left join rounds r using (game_id)
    group by g.game_id, g.n_rounds
    having g.n_rounds != count(r.round_idx) or coalesce(max(r.round_idx), -1) != g.n_rounds - 1
),
final as (
    select * from round_mismatch union all select * from orphan_results union all select * from game_mismatch
)
select 'round_results' as check_name, game_id, round_idx, detail from final
