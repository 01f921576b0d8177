-- with_mode: a grouping (the marts' $by) with the key 'mode' added last unless it has it ('all' becomes 'mode'):
-- the grouping of the marts whose figures mean nothing across modes (placements: a rank in sanma is not a rank
-- in 4-player, nor a tonpuu's score a hanchan's). A scalar macro: with_mode($by).
create or replace macro with_mode(grouping) as
case
    when grouping = 'all' then 'mode'
    when list_contains(string_split(grouping, ','), 'mode') then grouping
    else grouping || ',mode'
end
