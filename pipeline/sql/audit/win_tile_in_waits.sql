-- win_tile_in_waits: every win's tile is one of the winner's waits, derived from the tracked hand
-- just before the tile arrived.
with checks as (
    select game_id, round_idx, seat, is_tile_in_waits, waits_mask from win_checks
),
final as (
    select
        'win_tile_in_waits' as check_name, game_id, round_idx, seat,
        case when is_tile_in_waits then 'in waits' else 'not in waits ' || waits_mask end as derived,
        'in waits' as logged,
        is_tile_in_waits as agrees
    from checks
)
select * from final
