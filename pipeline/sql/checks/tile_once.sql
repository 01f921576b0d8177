-- tile_once: every physical tile (136-id) enters a round at most once:
-- in a starting hand, as a draw, or as a dora indicator (the first one or a later reveal).
with entries as (
    select game_id, round_idx, unnest(flatten(hands_start)) as tile from rounds
    union all
    select game_id, round_idx, dora_indicator from rounds
    union all
    select game_id, round_idx, tile from events where action in ('draw', 'dora')
),
final as (
    select game_id, round_idx, 'tile ' || tile || ' enters the round ' || count(*) || ' times' as detail
    from entries group by game_id, round_idx, tile having count(*) > 1
)
select 'tile_once' as check_name, game_id, round_idx, detail from final
