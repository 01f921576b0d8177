-- abortive_kind: the abortive draw derived from the event stream against the label, over every
-- round: 100% means every labelled abort is detected and nothing else is.
with rounds_checked as (
    select game_id, round_idx, abort_kind, abort_kind_logged from abort_checks
),
final as (
    select
        'abortive_kind' as check_name, game_id, round_idx, null::tinyint as seat,
        coalesce(abort_kind, 'none') as derived, coalesce(abort_kind_logged, 'none') as logged,
        abort_kind is not distinct from abort_kind_logged as agrees
    from rounds_checked
)
select * from final
