-- kyuushu_eligible: every declared kyuushu kyuuhai was eligible (an uninterrupted first draw with
-- nine or more distinct terminal and honor kinds). Total = declarations in the logs.
with declared as (
    select game_id, round_idx, seat, is_eligible, n_orphan_kinds, is_uninterrupted
    from kyuushu where is_declared_logged
),
final as (
    select
        'kyuushu_eligible' as check_name, game_id, round_idx, seat,
        case when is_eligible then 'eligible'
             else 'not eligible (' || n_orphan_kinds || ' kinds, uninterrupted ' || is_uninterrupted || ')' end
            as derived,
        'eligible' as logged,
        is_eligible as agrees
    from declared
)
select * from final
