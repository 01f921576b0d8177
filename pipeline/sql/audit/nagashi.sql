-- nagashi: nagashi mangan eligibility derived from the ponds and calls against the log, for every
-- seat at every exhaustive draw and nagashi mangan (Tenhou writes RYUUKYOKU type="nm" and pays it).
with outcomes as (
    select game_id, round_idx, seat, is_nagashi, is_nagashi_logged from draw_outcomes
),
final as (
    select
        'nagashi' as check_name, game_id, round_idx, seat,
        case when is_nagashi then 'nagashi' else 'no' end as derived,
        case when is_nagashi_logged then 'nagashi' else 'no' end as logged,
        is_nagashi = is_nagashi_logged as agrees
    from outcomes
)
select * from final
