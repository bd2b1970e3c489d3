-module(otp_statem_events).
-behaviour(gen_statem).
-export([main/0]).
-export([callback_mode/0, init/1, handle_event/4, terminate/3]).

%% gen_statem in handle_event_function mode (states are any terms, here {counting, N} and
%% idle) with state enter calls: call/cast/info events, an event timeout that fires (0 ms:
%% nothing else is queued) and one that any event cancels, generic {timeout, Name} timers
%% (set and fire, update and cancel, update of a timer that is not running), {reply, From, R} actions and gen_statem:reply/2 from a later
%% event, a call with a timeout that expires (caught), stop_and_reply, and the gen_statem:
%% call of a missing name. The machine notifies main of each timeout that fires.
main() ->
    Self = self(),
    {ok, P} = gen_statem:start({local, counter}, ?MODULE, Self, []),
    io:format("get: ~p~n", [call(get)]),
    gen_statem:cast(counter, {add, 3}),
    counter ! {add, 4},
    io:format("after cast and info: ~p~n", [call(get)]),
    io:format("to idle: ~p~n", [call(idle)]),
    io:format("get in idle: ~p~n", [call(get)]),
    io:format("resume: ~p~n", [call(resume)]),

    %% An event timeout of 0 fires at once when no other event is queued.
    io:format("arm event timeout 0: ~p~n", [call({event_timeout, 0})]),
    receive {timeout_fired, E1} -> io:format("fired: ~p~n", [E1]) end,
    %% An event timeout is cancelled by any event (a long one here).
    io:format("arm event timeout 60000: ~p~n", [call({event_timeout, 60000})]),
    io:format("get cancels it: ~p~n", [call(get)]),

    %% Generic timeouts: one fires after 10 ms; another is updated (a new message, still
    %% running) then cancelled: it never fires; updating a timer that is not running inserts
    %% its event at once.
    io:format("arm tick: ~p~n", [call({generic, tick, 10, tick_msg})]),
    receive {timeout_fired, E2} -> io:format("fired: ~p~n", [E2]) end,
    io:format("arm tock: ~p~n", [call({generic, tock, 60000, never})]),
    io:format("update tock: ~p~n", [call({update, tock, updated_msg})]),
    io:format("cancel tock: ~p~n", [call({cancel, tock})]),
    receive {timeout_fired, E3} -> io:format("fired too: ~p~n", [E3]) after 30 -> io:format("tock did not fire~n") end,
    io:format("update tick, not running: ~p~n", [call({update, tick, at_once})]),
    receive {timeout_fired, E4} -> io:format("fired: ~p~n", [E4]) end,

    %% A deferred reply: the answer comes with the next cast.
    spawn(fun() -> Self ! {client, gen_statem:call(counter, wait_for_cast)} end),
    receive waiting_client -> ok end,
    gen_statem:cast(counter, release),
    receive {client, R} -> io:format("deferred reply: ~p~n", [R]) end,

    %% A call that is never answered, with a timeout.
    case catch gen_statem:call(counter, never_answered, 10) of
        {'EXIT', {timeout, {gen_statem, call, [counter, never_answered, 10]}}} ->
            io:format("call timed out~n");
        Other -> io:format("unexpected: ~p~n", [Other])
    end,
    io:format("no late reply: ~p~n", [process_info(self(), message_queue_len)]),

    %% stop_and_reply.
    M = monitor(process, P),
    io:format("stop: ~p~n", [call(stop)]),
    receive {'DOWN', M, process, P, Why} -> io:format("down: ~p~n", [Why]) end,
    receive {terminate, TR, TS, TD} -> io:format("terminate(~p, ~p, ~p)~n", [TR, TS, TD]) end,
    io:format("missing: ~p~n", [catch gen_statem:call(counter, get)]),
    ok.

call(Req) -> gen_statem:call(counter, Req).

callback_mode() -> [handle_event_function, state_enter].

init(Parent) ->
    {ok, {counting, 0}, #{parent => Parent, entered => [], waiting => none}}.

handle_event(enter, Old, New, #{entered := E} = D) ->
    {keep_state, D#{entered := [{Old, New} | E]}};
handle_event({call, From}, get, State, #{entered := E}) ->
    {keep_state_and_data, [{reply, From, {State, lists:reverse(E)}}]};
handle_event(cast, {add, K}, {counting, N}, D) ->
    {next_state, {counting, N + K}, D};
handle_event(info, {add, K}, {counting, N}, D) ->
    {next_state, {counting, N + K}, D};
handle_event({call, From}, idle, {counting, N}, D) ->
    {next_state, idle, D#{saved => N}, [{reply, From, ok}]};
handle_event({call, From}, resume, idle, #{saved := N} = D) ->
    {next_state, {counting, N}, D, [{reply, From, ok}]};
handle_event({call, From}, {event_timeout, T}, _S, _D) ->
    {keep_state_and_data, [{reply, From, ok}, {timeout, T, event_timeout_msg}]};
handle_event({call, From}, {generic, Name, T, Msg}, _S, _D) ->
    {keep_state_and_data, [{reply, From, ok}, {{timeout, Name}, T, Msg}]};
handle_event({call, From}, {update, Name, Msg}, _S, _D) ->
    {keep_state_and_data, [{reply, From, ok}, {{timeout, Name}, update, Msg}]};
handle_event({call, From}, {cancel, Name}, _S, _D) ->
    {keep_state_and_data, [{reply, From, ok}, {{timeout, Name}, cancel}]};
handle_event(timeout, Msg, State, #{parent := P}) ->
    P ! {timeout_fired, {timeout, Msg, State}},
    keep_state_and_data;
handle_event({timeout, Name}, Msg, State, #{parent := P}) ->
    P ! {timeout_fired, {{timeout, Name}, Msg, State}},
    keep_state_and_data;
handle_event({call, From}, wait_for_cast, _S, #{parent := P} = D) ->
    P ! waiting_client,
    {keep_state, D#{waiting := From}};
handle_event(cast, release, _S, #{waiting := From} = D) ->
    ok = gen_statem:reply(From, released),
    {keep_state, D#{waiting := none}};
handle_event({call, _From}, never_answered, _S, _D) ->
    keep_state_and_data;
handle_event({call, From}, stop, _S, D) ->
    {stop_and_reply, normal, [{reply, From, stopping}], D#{entered := []}}.

terminate(Reason, State, #{parent := P} = D) ->
    P ! {terminate, Reason, State, maps:remove(parent, D)}.
