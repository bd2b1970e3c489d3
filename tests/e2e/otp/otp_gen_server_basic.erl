-module(otp_gen_server_basic).
-behaviour(gen_server).
-export([main/0]).
-export([init/1, handle_call/3, handle_cast/2, handle_info/2, terminate/2]).

%% gen_server basics on OTP's own gen_server: start/start_link (anonymous and {local, Name}),
%% call/cast/info, {already_started, Pid}, a deferred reply with gen_server:reply/2, a call
%% that times out (caught; the late reply is dropped thanks to the call's alias), calls to a
%% missing name and to a dead pid (noproc), send_request/wait_response/receive_response/
%% check_response, and stop/1,3 with terminate/2.
main() ->
    {ok, P} = gen_server:start(?MODULE, #{count => 0}, []),
    io:format("start: pid ~p, alive ~p~n", [is_pid(P), is_process_alive(P)]),
    io:format("call get: ~p~n", [gen_server:call(P, get)]),
    ok = gen_server:cast(P, {add, 5}),
    P ! {add, 10},
    io:format("after cast and info: ~p~n", [gen_server:call(P, get)]),
    io:format("call with timeout infinity: ~p~n", [gen_server:call(P, {add_and_get, 1}, infinity)]),

    %% Registered name.
    {ok, N} = gen_server:start_link({local, gsb_counter}, ?MODULE, #{count => 100}, []),
    io:format("whereis matches: ~p~n", [whereis(gsb_counter) =:= N]),
    io:format("linked: ~p~n", [lists:member(N, element(2, process_info(self(), links)))]),
    io:format("call by name: ~p~n", [gen_server:call(gsb_counter, get)]),
    ok = gen_server:cast(gsb_counter, {add, 1}),
    io:format("call by name after cast: ~p~n", [gen_server:call(gsb_counter, get)]),
    {error, {already_started, N2}} = gen_server:start({local, gsb_counter}, ?MODULE, #{count => 0}, []),
    io:format("already_started with the same pid: ~p~n", [N2 =:= N]),
    {error, {already_started, N3}} = gen_server:start_link({local, gsb_counter}, ?MODULE, #{count => 0}, []),
    io:format("already_started (start_link): ~p~n", [N3 =:= N]),

    %% A deferred reply: the server stores From and replies later.
    Self = self(),
    C = spawn(fun() -> Self ! {client_got, gen_server:call(P, wait_for_kick)} end),
    wait_until_waiting(P, 1),
    ok = gen_server:call(P, kick),
    receive {client_got, R} -> io:format("deferred reply: ~p~n", [R]) end,
    _ = C,

    %% A call that times out; the server replies too late, the reply is dropped.
    T = (catch gen_server:call(P, wait_for_kick, 20)),
    case T of
        {'EXIT', {timeout, {gen_server, call, [P, wait_for_kick, 20]}}} ->
            io:format("call timed out: {timeout, {gen_server, call, [P, wait_for_kick, 20]}}~n");
        Other -> io:format("unexpected: ~p~n", [Other])
    end,
    ok = gen_server:call(P, kick),
    gen_server:call(P, get),
    io:format("late reply dropped, queue: ~p~n", [process_info(self(), messages)]),

    %% noproc.
    io:format("call to missing name: ~p~n", [catch gen_server:call(no_such_server, get)]),
    io:format("cast to missing name: ~p~n", [gen_server:cast(no_such_server, get)]),
    {ok, D} = gen_server:start(?MODULE, #{count => 0}, []),
    ok = gen_server:stop(D),
    case catch gen_server:call(D, get) of
        {'EXIT', {noproc, {gen_server, call, [D, get]}}} -> io:format("call to dead pid: noproc~n");
        O2 -> io:format("unexpected: ~p~n", [O2])
    end,
    io:format("stop of dead pid: ~p~n", [catch gen_server:stop(D)]),

    %% Asynchronous requests.
    Req = gen_server:send_request(P, get),
    io:format("wait_response: ~p~n", [gen_server:wait_response(Req, 1000)]),
    Req2 = gen_server:send_request(P, {add_and_get, 2}),
    io:format("receive_response: ~p~n", [gen_server:receive_response(Req2, infinity)]),
    Req3 = gen_server:send_request(P, get),
    Msg = receive M -> M end,
    io:format("check_response: ~p~n", [gen_server:check_response(Msg, Req3)]),
    io:format("check_response, other message: ~p~n", [gen_server:check_response(hello, Req3)]),
    Req4 = gen_server:send_request(P, wait_for_kick),
    io:format("wait_response timeout: ~p~n", [gen_server:wait_response(Req4, 10)]),
    ok = gen_server:call(P, kick),
    io:format("wait_response after the kick: ~p~n", [gen_server:wait_response(Req4, infinity)]),

    %% Stop: terminate/2 sees the reason.
    ok = gen_server:stop(P),
    io:format("stopped: ~p~n", [is_process_alive(P)]),
    unlink(N),
    ok = gen_server:stop(gsb_counter, {shutdown, done}, infinity),
    io:format("name gone: ~p~n", [whereis(gsb_counter)]),
    ok.

%% Polls (with calls) until the server holds N waiting clients.
wait_until_waiting(P, N) ->
    case gen_server:call(P, waiting) of
        N -> ok;
        _ -> erlang:yield(), wait_until_waiting(P, N)
    end.

init(State) ->
    {ok, State#{waiting => []}}.

handle_call(get, _From, #{count := C} = S) ->
    {reply, C, S};
handle_call({add_and_get, N}, _From, #{count := C} = S) ->
    {reply, C + N, S#{count := C + N}};
handle_call(wait_for_kick, From, #{waiting := W} = S) ->
    {noreply, S#{waiting := [From | W]}};
handle_call(waiting, _From, #{waiting := W} = S) ->
    {reply, length(W), S};
handle_call(kick, _From, #{waiting := W, count := C} = S) ->
    [gen_server:reply(F, {kicked, C}) || F <- lists:reverse(W)],
    {reply, ok, S#{waiting := []}}.

handle_cast({add, N}, #{count := C} = S) ->
    {noreply, S#{count := C + N}}.

handle_info({add, N}, #{count := C} = S) ->
    {noreply, S#{count := C + N}}.

terminate(Reason, #{count := C}) ->
    io:format("terminate(~p) with count ~p~n", [Reason, C]).
