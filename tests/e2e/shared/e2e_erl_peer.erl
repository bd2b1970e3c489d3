%% tests/e2e/shared/e2e_erl_peer.erl — a real erl as a peer of a test program (tests/e2e/net/
%% tcp_erl_peer, tcp_erl_peer_bulk): started with `erl -noshell -eval Expr` through a port,
%% its printed lines read, its exit awaited. Not a test itself.
-module(e2e_erl_peer).
-export([open/1, read_line/1, wait_exit/1]).

open(Expr) ->
    open_port({spawn_executable, os:find_executable("erl")},
              [{args, ["-noshell", "-eval", Expr]}, {line, 200}, exit_status, binary]).

read_line(Port) ->
    receive {Port, {data, {eol, Line}}} -> binary_to_list(Line)
    after 60000 -> error(no_line_from_erl)
    end.

wait_exit(Port) ->
    receive {Port, {exit_status, _}} -> ok after 60000 -> error(erl_did_not_exit) end.
