-module(otp_gen_event).
-file("otp_gen_event.erl", 2). % stack traces name the file alone, wherever erlc ran
-behaviour(gen_event).
-export([main/0]).
-export([init/1, handle_event/2, handle_call/2, handle_info/2, terminate/2]).

%% gen_event: start a registered manager, add_handler (two instances of this module, as
%% {Module, Id}), notify (async) and sync_notify, call to one handler, which_handlers,
%% handle_info, delete_handler (terminate/2's value is returned), swap_handler, a handler
%% that returns remove_handler, add_sup_handler (the adder gets {gen_event_EXIT, ...} when
%% its handler goes away), a handler whose init fails, and a handler that crashes: gen_event
%% removes it and logs an =ERROR REPORT==== ("** gen_event handler ... crashed.").
%% otp_gen_event.filter masks dates and pids.
main() ->
    register(gen_event_main, self()),
    {ok, M} = gen_event:start({local, evm}),
    io:format("which_handlers: ~p~n", [gen_event:which_handlers(evm)]),
    ok = gen_event:add_handler(evm, {?MODULE, one}, one),
    ok = gen_event:add_handler(evm, {?MODULE, two}, two),
    io:format("which_handlers: ~p~n", [gen_event:which_handlers(evm)]),
    ok = gen_event:notify(evm, hello),
    io:format("seen: ~p~n", [seen(2)]),
    ok = gen_event:sync_notify(evm, {count, 1}),
    io:format("sync_notify, seen: ~p~n", [seen(2)]),
    io:format("call one: ~p~n", [gen_event:call(evm, {?MODULE, one}, get)]),
    io:format("call two: ~p~n", [gen_event:call(evm, {?MODULE, two}, get)]),
    io:format("call missing: ~p~n", [gen_event:call(evm, {?MODULE, three}, get)]),
    evm ! an_info,
    io:format("info, seen: ~p~n", [seen(2)]),

    io:format("delete_handler two: ~p~n", [gen_event:delete_handler(evm, {?MODULE, two}, bye)]),
    terminated(),
    io:format("delete_handler two again: ~p~n", [gen_event:delete_handler(evm, {?MODULE, two}, bye)]),
    io:format("swap one for three: ~p~n",
              [gen_event:swap_handler(evm, {{?MODULE, one}, swapping}, {{?MODULE, three}, swapped_in})]),
    io:format("which_handlers: ~p~n", [gen_event:which_handlers(evm)]),
    io:format("call three: ~p~n", [gen_event:call(evm, {?MODULE, three}, get)]),

    ok = gen_event:sync_notify(evm, remove_me),
    io:format("remove_handler from handle_event: ~p~n", [gen_event:which_handlers(evm)]),
    terminated(),

    ok = gen_event:add_sup_handler(evm, {?MODULE, sup}, sup),
    io:format("delete_handler sup: ~p~n", [gen_event:delete_handler(evm, {?MODULE, sup}, done)]),
    terminated(),
    receive {gen_event_EXIT, H, R} -> io:format("gen_event_EXIT: ~p ~p~n", [H, R]) end,

    io:format("init fails: ~p~n", [gen_event:add_handler(evm, {?MODULE, bad}, bad)]),
    io:format("init raises: ~p~n", [element(1, gen_event:add_handler(evm, {?MODULE, bad}, raise))]),

    ok = gen_event:add_handler(evm, {?MODULE, crashy}, crashy),
    ok = gen_event:sync_notify(evm, crash),
    sync_logger(),
    io:format("after the crash: ~p~n", [gen_event:which_handlers(evm)]),
    terminated(),

    ok = gen_event:add_handler(evm, {?MODULE, last}, last),
    ok = gen_event:stop(evm),
    terminated(),
    io:format("manager stopped: ~p ~p~n", [is_process_alive(M), whereis(evm)]),
    ok.

seen(N) -> lists:sort([receive {seen, Id, E} -> {Id, E} end || _ <- lists:seq(1, N)]).

terminated() ->
    receive {terminated, Id, Arg} -> io:format("  terminate(~p) of ~p~n", [strip(Arg), Id]) end.

strip({error, {'EXIT', {Reason, Stack}}}) when is_list(Stack) -> {error, {'EXIT', {Reason, stack}}};
strip(Arg) -> Arg.

init({swapped_in, FromOld}) -> {ok, #{id => three, count => 0, from => FromOld}};
init(bad) -> {error, no_thanks};
init(raise) -> error(init_failed);
init(Id) -> {ok, #{id => Id, count => 0}}.

handle_event(remove_me, _S) ->
    remove_handler;
handle_event(crash, #{id := crashy}) ->
    error(handler_crashed);
handle_event(E, #{id := Id, count := C} = S) ->
    gen_event_main ! {seen, Id, E},
    {ok, S#{count := C + 1}}.

handle_call(get, #{count := C} = S) ->
    {ok, {count, C, maps:get(from, S, none)}, S}.

handle_info(I, #{id := Id} = S) ->
    gen_event_main ! {seen, Id, {info, I}},
    {ok, S}.

terminate(swapping, #{count := C}) ->
    {swapped_with, C};
terminate(Arg, #{id := Id}) ->
    gen_event_main ! {terminated, Id, Arg},
    {terminated, Id}.

%% The default logger handler prints the reports that a process logs asynchronously, from its
%% own process: wait until it has written everything logged so far (harmless where the
%% logger prints synchronously).
sync_logger() ->
    _ = (catch logger_std_h:filesync(default)),
    ok.
