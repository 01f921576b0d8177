-- counted_games: the games every mart counts (the grouping macros read it, not games): every stored game.
-- `paipu stats --where PREDICATE` replaces it, for its run, by this same view with the user's predicate (an
-- expression over the games view, checked first) in place of `true` (pipeline/statistics.py: filtered_games).
create or replace view counted_games as
select * from games
where true
