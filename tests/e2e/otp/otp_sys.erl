-module(otp_sys).
-behaviour(gen_server).
-export([main/0]).
-export([init/1, handle_call/3, handle_cast/2, handle_info/2, format_status/1]).
%% This module is also a gen_statem callback module (init(statem) tells them apart).
-export([callback_mode/0, handle_event/4]).

%% sys on OTP behaviours: get_state/replace_state on a gen_server and a gen_statem (whose
%% state is {State, Data}), suspend/resume (a call to a suspended server times out; it is
%% answered once resumed, and the late reply is dropped), get_status (its shape printed with
%% pids replaced by 'PID'; format_status/1 rewrites the state shown), sys:log (events recorded
%% and returned in order: pids replaced), and sys:terminate.
main() ->
    {ok, P} = gen_server:start({local, sys_srv}, ?MODULE, [], []),
    gen_server:cast(sys_srv, {push, a}),
    io:format("get_state: ~p~n", [sys:get_state(sys_srv)]),
    io:format("replace_state: ~p~n", [sys:replace_state(sys_srv, fun(L) -> [z | L] end)]),
    io:format("state after replace: ~p~n", [gen_server:call(sys_srv, get)]),
    {'EXIT', {Failed, _Stack}} = (catch sys:replace_state(sys_srv, fun(_) -> error(oops) end)),
    io:format("replace_state with a crashing fun: ~p~n", [Failed]),
    io:format("state unchanged: ~p~n", [sys:get_state(sys_srv)]),

    ok = sys:suspend(sys_srv),
    io:format("status while suspended: ~p~n", [process_info(P, status)]),
    gen_server:cast(sys_srv, {push, b}),
    io:format("call to a suspended server: ~p~n", [catch gen_server:call(sys_srv, get, 20)]),
    io:format("get_state still answers: ~p~n", [sys:get_state(sys_srv)]),
    ok = sys:resume(sys_srv),
    io:format("after resume: ~p~n", [gen_server:call(sys_srv, get)]),
    io:format("late reply dropped: ~p~n", [process_info(self(), message_queue_len)]),

    {status, SP, Mod, [PDict, SysState, Parent, Dbg, Misc]} = sys:get_status(sys_srv),
    %% (a server started without a link is its own parent)
    io:format("get_status: pid ~p, ~p, sys state ~p, parent is itself ~p, debug ~p~n",
              [SP =:= P, Mod, SysState, Parent =:= P, Dbg]),
    io:format("  dictionary keys: ~p~n", [lists:sort([K || {K, _} <- PDict])]),
    io:format("  misc: ~p~n", [mask(Misc)]),

    ok = sys:log(sys_srv, true),
    gen_server:cast(sys_srv, {push, c}),
    gen_server:call(sys_srv, get),
    sys_srv ! hello,
    {ok, Log} = sys:log(sys_srv, get),
    io:format("log: ~p~n", [mask(Log)]),
    ok = sys:log(sys_srv, false),

    %% A gen_statem.
    {ok, S} = gen_statem:start(?MODULE, statem, []),
    io:format("gen_statem get_state: ~p~n", [sys:get_state(S)]),
    sys:replace_state(S, fun({St, D}) -> {St, D + 1} end),
    io:format("gen_statem after replace_state: ~p~n", [sys:get_state(S)]),
    ok = sys:terminate(S, normal),

    %% sys:terminate/2 returns once the server has answered, which it does before it exits.
    M = monitor(process, P),
    ok = sys:terminate(sys_srv, normal),
    receive {'DOWN', M, process, P, _} -> ok end,
    io:format("terminated: ~p~n", [whereis(sys_srv)]),
    ok.

mask(T) when is_pid(T) -> 'PID';
mask(T) when is_reference(T) -> 'REF';
mask([H | T]) -> [mask(H) | mask(T)];
mask(T) when is_tuple(T) -> list_to_tuple(mask(tuple_to_list(T)));
mask(T) when is_map(T) -> maps:from_list(mask(maps:to_list(T)));
mask(T) -> T.

init([]) -> {ok, []};
init(statem) -> {ok, idle, 0}.

callback_mode() -> handle_event_function.

handle_event(_Type, _Event, _State, _Data) -> keep_state_and_data.

handle_call(get, _From, L) -> {reply, lists:reverse(L), L}.

handle_cast({push, X}, L) -> {noreply, [X | L]}.

handle_info(_, L) -> {noreply, L}.

format_status(#{state := L} = Status) -> Status#{state := {items, length(L)}}.
