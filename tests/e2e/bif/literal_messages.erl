%% Literals (module constants, persistent terms) stay shared when a message or a spawned
%% fun carries them (erts_debug:size_shared/1 is 0 for a literal), as on OTP; when a
%% persistent term is erased, a message still queued that holds it gets a copy of its own,
%% with the same value.
-module(literal_messages).
-export([main/0]).

-define(KEY, {?MODULE, value}).

main() ->
    Const = {a, "module constant", [1, 2, 3]},
    io:format("module literal here: ~p~n", [erts_debug:size_shared(Const)]),
    Self = self(),
    spawn(fun() -> Self ! {in_fun, erts_debug:size_shared(Const)} end),
    io:format("module literal in a spawned fun: ~p~n", [receive {in_fun, S0} -> S0 end]),
    self() ! {msg, Const},
    receive {msg, C} -> io:format("module literal in a message: ~p~n", [erts_debug:size_shared(C)]) end,

    persistent_term:put(?KEY, {make_ref(), <<"a binary of some size, on its own heap">>, lists:seq(1, 10)}),
    Lit = persistent_term:get(?KEY),
    io:format("persistent term here: ~p~n", [erts_debug:size_shared(Lit)]),
    P = spawn(fun() -> holder(Lit, Self) end),
    receive {holder, S1} -> io:format("persistent term in a spawned fun: ~p~n", [S1]) end,
    P ! {keep, Lit},
    P ! {size_of_queued, self()},
    receive {queued, S2} -> io:format("persistent term in a queued message: ~p~n", [S2]) end,
    persistent_term:erase(?KEY),
    %% The release goes on in the background (erl: its literal area collector): wait for it.
    P ! {after_erase, self()},
    receive
        {after_erase, Copied, Same} ->
            io:format("after erase, queued message copied: ~p, same value: ~p~n", [Copied, Same])
    end,
    io:format("erased term copied here: ~p~n", [wait_copied(fun() -> Lit end)]),
    ok.

holder(Lit, Parent) ->
    Parent ! {holder, erts_debug:size_shared(Lit)},
    receive {size_of_queued, From} -> ok end,
    From ! {queued, erts_debug:size_shared(queued())},
    receive {after_erase, From2} -> ok end,
    Copied = wait_copied(fun queued/0),
    receive {keep, Kept} -> From2 ! {after_erase, Copied, Kept =:= Lit} end.

queued() ->
    {messages, [{keep, Q} | _]} = process_info(self(), messages),
    Q.

wait_copied(Term) -> wait_copied(Term, 500).

wait_copied(_, 0) -> false;
wait_copied(Term, N) ->
    case erts_debug:size_shared(Term()) > 0 of
        true -> true;
        false -> receive after 10 -> wait_copied(Term, N - 1) end
    end.
