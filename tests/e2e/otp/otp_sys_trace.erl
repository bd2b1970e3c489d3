-module(otp_sys_trace).
-behaviour(gen_server).
-export([main/0]).
-export([init/1, handle_call/3, handle_cast/2, handle_info/2]).
-export([callback_mode/0, handle_event/4]).

%% sys:trace/2: a traced gen_server (registered, then anonymous) and a traced gen_statem print
%% "*DBG*" lines for each event to standard_io from their own process (a sys:get_state/1
%% after each request waits until the server has printed everything: system messages are not
%% traced); sys:install/2 with a debug fun that gets every event; sys:no_debug/1.
%% otp_sys_trace.filter masks pids.
main() ->
    {ok, P} = gen_server:start({local, traced}, ?MODULE, 0, []),
    ok = sys:trace(traced, true),
    io:format("-- call~n"),
    1 = gen_server:call(traced, incr),
    sync(P),
    io:format("-- cast~n"),
    gen_server:cast(traced, {add, 10}),
    sync(P),
    io:format("-- info~n"),
    traced ! {add, 100},
    sync(P),
    io:format("-- trace off~n"),
    ok = sys:trace(traced, false),
    112 = gen_server:call(traced, incr),
    sync(P),

    {ok, A} = gen_server:start(?MODULE, 0, []),
    sys:trace(A, true),
    io:format("-- anonymous server, call~n"),
    1 = gen_server:call(A, incr),
    sync(A),
    gen_server:stop(A),

    {ok, S} = gen_statem:start(?MODULE, statem, []),
    sys:trace(S, true),
    io:format("-- gen_statem call~n"),
    ok = gen_statem:call(S, go),
    sync(S),
    io:format("-- gen_statem cast~n"),
    gen_statem:cast(S, back),
    sync(S),
    gen_statem:stop(S),

    io:format("-- install~n"),
    Self = self(),
    Fun = fun(N, Event, ProcState) -> Self ! {debug, N, Event, ProcState}, N + 1 end,
    ok = sys:install(traced, {Fun, 1}),
    gen_server:cast(traced, {add, 1}),
    sync(P),
    [receive {debug, N, Ev, PS} -> io:format("debug fun ~p: ~p in ~p~n", [N, Ev, PS]) end || _ <- [1, 2]],
    ok = sys:no_debug(traced),
    gen_server:cast(traced, {add, 1}),
    sync(P),
    io:format("after no_debug: ~p~n", [process_info(self(), message_queue_len)]),
    gen_server:stop(P),
    ok.

sync(P) -> _ = sys:get_state(P), ok.

init(statem) -> {ok, idle, []};
init(N) -> {ok, N}.

handle_call(incr, _From, N) -> {reply, N + 1, N + 1}.

handle_cast({add, K}, N) -> {noreply, N + K}.

handle_info({add, K}, N) -> {noreply, N + K}.

callback_mode() -> handle_event_function.

handle_event({call, From}, go, idle, D) -> {next_state, busy, D, [{reply, From, ok}]};
handle_event(cast, back, busy, D) -> {next_state, idle, D}.
