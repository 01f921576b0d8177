-- log_class: who wrote a game's log and under which rules, the audit's classes (one definition):
--   'server_written'  written by the game server under its standard rules (Tenhou's ranked rules; a Mahjong Soul
--                     ranked match's rules, the quirk majsoul_rules): the class every audit check must agree on;
--   'custom_rule'     written by the server under rules of a lobby's or room's own (GO type above 0xFF, csrule;
--                     Mahjong Soul friendly rooms and tournaments), or under rules the log does not state (a
--                     Mahjong Soul record without its head);
--   'converted'       a server log rewritten into another format by a third-party converter (tenhou.net/6 JSON
--                     of tensoul-style tools; a converter that drops the tenpai shown at a draw);
--   'edited'          a server log changed by a tool (wall seed blanked, GO header not what the log id says);
--   'tool_written'    written by a bot, simulator or client, not by a game server (mjai, bots' fixtures).
-- A scalar macro over the games row: log_class(source, is_server_log, is_custom_rule, log_quirks).
create or replace macro log_class(source, is_server_log, is_custom_rule, log_quirks) as
case
    when is_server_log and not is_custom_rule then 'server_written'
    when is_server_log then 'custom_rule'
    when list_has_any(log_quirks, ['third_party_json', 'draw_tenpai_unrecorded']) then 'converted'
    when list_has_any(log_quirks, ['empty_shuffle_seed', 'header_not_log_id']) then 'edited'
    else 'tool_written'
end
