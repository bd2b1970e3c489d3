%% A replaced or erased persistent term is copied into every process that still holds it
%% (OTP's literal area release): erts_debug:size_shared/1 of the held term goes from 0 (a
%% literal) to its size, sharing kept (refc binaries' sizes differ: not printed); the stored term keeps the sharing of the one put
%% (persistent_term_SUITE:purging, sharing); a binary in it outlives the erase in its holders.
-module(persistent_term_release).
-export([main/0]).

main() ->
    Shared = lists:foldl(fun(_, A) -> [A | A] end, [], lists:seq(1, 10)),
    ok = persistent_term:put({?MODULE, shared}, Shared),
    Stored = persistent_term:get({?MODULE, shared}),
    io:format("sharing: ~p ~p ~p~n", [erts_debug:size(Shared), erts_debug:size(Stored), erts_debug:size_shared(Stored)]),
    Key = {?MODULE, purging},
    Bin = list_to_binary(lists:duplicate(1000, $x)),
    ok = persistent_term:put(Key, {term, [<<"abc", 0:777/unit:8>>], Bin}),
    Parent = self(),
    Holders = [spawn_monitor(fun() -> holder(Parent, Key) end) || _ <- lists:seq(1, 5)],
    [receive {P, gotten} -> ok end || {P, _} <- Holders],
    Mine = persistent_term:get(Key),
    io:format("before: ~p~n", [erts_debug:size_shared(Mine)]),
    ok = persistent_term:put(Key, replaced),
    [P ! {Parent, replaced} || {P, _} <- Holders],
    [receive {'DOWN', R, process, P, Reason} -> io:format("holder: ~p~n", [Reason]) end || {P, R} <- Holders],
    io:format("mine after: ~p~n", [wait_copied(Mine, 1) =:= erts_debug:size(Mine)]),
    true = persistent_term:erase({?MODULE, shared}),
    io:format("shared after: ~p ~p~n", [wait_copied(Stored, 1), erts_debug:size(Stored)]),
    {term, [B0], B1} = Mine,
    io:format("~p ~p~n", [byte_size(B0), binary:first(B1)]),
    true = persistent_term:erase(Key),
    ok.

holder(Parent, Key) ->
    Term = persistent_term:get(Key),
    0 = erts_debug:size_shared(Term),
    Parent ! {self(), gotten},
    receive {Parent, replaced} -> replaced = persistent_term:get(Key) end,
    Size = wait_copied(Term, 1),
    Size = erts_debug:size(Term),
    {term, [<<"abc", 0:777/unit:8>>], B} = Term,
    exit({copied, Size > 0, byte_size(B)}).

wait_copied(Term, Timeout) ->
    receive after Timeout -> ok end,
    case erts_debug:size_shared(Term) of
        0 when Timeout < 10000 -> wait_copied(Term, Timeout * 10);
        Size -> Size
    end.
