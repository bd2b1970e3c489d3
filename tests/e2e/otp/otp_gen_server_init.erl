-module(otp_gen_server_init).
-behaviour(gen_server).
-export([main/0]).
-export([init/1, handle_call/3, handle_cast/2, handle_info/2, handle_continue/2, terminate/2]).

%% gen_server init/1 results and the actions in callback results: {ok, S}, {ok, S, Timeout}
%% (handle_info(timeout)), {ok, S, {continue, C}} (handle_continue/2 runs before any request),
%% {ok, S, hibernate}, ignore, a start that times out (init never returns: {error, timeout});
%% {reply, R, S, {continue, C}}, {noreply, S, 0} (timeout), {reply, R, S, hibernate} (the server
%% waits in erlang:hibernate/3 and keeps its state), and {stop, normal, Reply, S}.
%% (init/1 returning {stop, R} or crashing logs a crash report: see otp_gen_server_crash.)
main() ->
    {links, Links0} = process_info(self(), links),
    {ok, P1} = gen_server:start(?MODULE, {plain, self()}, []),
    io:format("plain: ~p~n", [gen_server:call(P1, log)]),

    {ok, P2} = gen_server:start(?MODULE, {timeout, self()}, []),
    receive {P2, timed_out} -> ok end,
    io:format("init timeout 0: ~p~n", [gen_server:call(P2, log)]),

    {ok, P3} = gen_server:start(?MODULE, {continue, self()}, []),
    io:format("init continue: ~p~n", [gen_server:call(P3, log)]),

    {ok, P4} = gen_server:start(?MODULE, {hibernate, self()}, []),
    wait_waiting(P4),
    io:format("init hibernate, current_function: ~p~n", [process_info(P4, current_function)]),
    io:format("init hibernate, state kept: ~p~n", [gen_server:call(P4, log)]),

    io:format("init ignore: ~p~n", [gen_server:start(?MODULE, {ignore, self()}, [])]),
    io:format("init ignore (start_link): ~p~n", [gen_server:start_link(?MODULE, {ignore, self()}, [])]),
    %% The ignoring server acks, then exits: its link goes with its exit signal, after the ack.
    io:format("no process left linked: ~p~n", [links_back_to(Links0, 200)]),
    io:format("start timeout: ~p~n", [gen_server:start(?MODULE, {never, self()}, [{timeout, 20}])]),
    io:format("name not taken after ignore: ~p~n",
              [gen_server:start({local, gsi_name}, ?MODULE, {ignore, self()}, [])]),
    io:format("whereis: ~p~n", [whereis(gsi_name)]),

    io:format("reply then continue: ~p~n", [gen_server:call(P1, {then_continue, c1})]),
    io:format("  log: ~p~n", [gen_server:call(P1, log)]),
    io:format("noreply with timeout 0: ~p~n", [gen_server:cast(P1, then_timeout)]),
    receive {P1, timed_out} -> ok end,
    io:format("  log: ~p~n", [gen_server:call(P1, log)]),
    io:format("reply then hibernate: ~p~n", [gen_server:call(P1, then_hibernate)]),
    wait_waiting(P1),
    io:format("  current_function: ~p~n", [process_info(P1, current_function)]),
    io:format("  log: ~p~n", [gen_server:call(P1, log)]),
    wait_waiting(P1),
    io:format("  current_function after a call: ~p~n", [process_info(P1, current_function)]),

    Ref = monitor(process, P1),
    Reply = gen_server:call(P1, stop_now),
    receive {'DOWN', Ref, process, P1, Why} -> ok end,
    io:format("stop from handle_call: ~p, down: ~p~n", [Reply, Why]),
    [gen_server:stop(P) || P <- [P2, P3, P4]],
    ok.

%% Waits until P is waiting for a message (hibernating, or in gen_server's receive).
wait_waiting(P) ->
    case process_info(P, status) of
        {status, waiting} -> ok;
        _ -> erlang:yield(), wait_waiting(P)
    end.

init({plain, Parent}) -> {ok, {Parent, [init]}};
init({timeout, Parent}) -> {ok, {Parent, [init]}, 0};
init({continue, Parent}) -> {ok, {Parent, [init]}, {continue, from_init}};
init({hibernate, Parent}) -> {ok, {Parent, [init]}, hibernate};
init({ignore, _Parent}) -> ignore;
init({never, _Parent}) -> receive never_sent -> ok end.

handle_call(log, _From, {_, Log} = S) ->
    {reply, lists:reverse(Log), S};
handle_call({then_continue, C}, _From, {Parent, Log}) ->
    {reply, replied, {Parent, [{replied, C} | Log]}, {continue, C}};
handle_call(then_hibernate, _From, {Parent, Log}) ->
    {reply, replied, {Parent, [hibernate | Log]}, hibernate};
handle_call(stop_now, _From, S) ->
    {stop, normal, stopping, S}.

handle_cast(then_timeout, {Parent, Log}) ->
    {noreply, {Parent, [cast | Log]}, 0}.

handle_info(timeout, {Parent, Log}) ->
    Parent ! {self(), timed_out},
    {noreply, {Parent, [timeout | Log]}}.

handle_continue(C, {Parent, Log}) ->
    {noreply, {Parent, [{continue, C} | Log]}}.

terminate(Reason, {_, Log}) ->
    io:format("  terminate(~p), log ~w~n", [Reason, lists:reverse(Log)]).

links_back_to(Links0, 0) -> process_info(self(), links) =:= {links, Links0};
links_back_to(Links0, N) ->
    case process_info(self(), links) of
        {links, Links0} -> true;
        _ -> timer:sleep(5), links_back_to(Links0, N - 1)
    end.
