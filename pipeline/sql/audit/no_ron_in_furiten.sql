-- no_ron_in_furiten: Tenhou refuses a ron by a furiten seat, so no ron win may be by a seat paipu
-- marks furiten (own discard, temporary or riichi furiten). Total = ron wins.
with rons as (
    select game_id, round_idx, seat, is_furiten, furiten_kind from win_checks where not is_tsumo
),
final as (
    select
        'no_ron_in_furiten' as check_name, game_id, round_idx, seat,
        coalesce(furiten_kind, 'not furiten') as derived,
        'not furiten' as logged,
        not is_furiten as agrees
    from rons
)
select * from final
