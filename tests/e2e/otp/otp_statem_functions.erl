-module(otp_statem_functions).
-behaviour(gen_statem).
-export([main/0]).
-export([callback_mode/0, init/1, locked/3, open/3, terminate/3]).

%% gen_statem in state_functions mode with state enter calls (a code lock): the initial enter
%% call (old state = the state itself), calls and casts per state, replies as actions,
%% {next_event, internal, ...}, postpone (a call postponed in open is replayed once the state
%% changes back to locked), state_timeout (a small one that fires, and one that a state change
%% cancels; otherwise the timeout is long enough never to fire), repeat_state (the enter call
%% again), keep_state_and_data, sys:get_state, {stop, normal} from a cast and stop/1, both with
%% terminate/3. Every callback appends to a log that main prints.
main() ->
    Self = self(),
    {ok, P} = gen_statem:start({local, lock}, ?MODULE, {[1, 2, 3], Self}, []),
    io:format("initial log: ~p~n", [log()]),
    io:format("button 1: ~p~n", [gen_statem:call(lock, {button, 1})]),
    io:format("button 9: ~p~n", [gen_statem:call(lock, {button, 9})]),
    io:format("buttons 1, 2, 3: ~p~n", [[gen_statem:call(lock, {button, B}) || B <- [1, 2, 3]]]),
    io:format("state: ~p~n", [element(1, sys:get_state(lock))]),
    io:format("log: ~p~n", [log()]),

    %% A call in open is postponed until the lock relocks; relock with a cast.
    spawn(fun() -> Self ! {client, gen_statem:call(lock, {button, 7})} end),
    receive {lock, postponed, {button, 7}} -> ok end,
    gen_statem:cast(lock, relock),
    receive {client, R} -> io:format("postponed call answered in locked: ~p~n", [R]) end,
    io:format("log: ~p~n", [log()]),

    %% Open again and let the state timeout (now 10 ms) relock it.
    ok = gen_statem:call(lock, {config, open_timeout, 10}),
    [gen_statem:call(lock, {button, B}) || B <- [1, 2, 3]],
    receive {lock, state_timeout} -> ok end,
    io:format("after the state timeout: ~p~n", [element(1, sys:get_state(lock))]),
    io:format("log: ~p~n", [log()]),

    %% The state timeout is cancelled by a state change (an internal event queued by the
    %% transition to open relocks at once): nothing fires later.
    ok = gen_statem:call(lock, {config, autorelock, true}),
    [gen_statem:call(lock, {button, B}) || B <- [1, 2, 3]],
    receive {lock, state_timeout} -> io:format("unexpected timeout~n") after 30 -> ok end,
    io:format("cancelled timeout, log: ~p~n", [log()]),

    %% repeat_state runs the enter call again; next_event inserts an internal event.
    io:format("repeat: ~p~n", [gen_statem:call(lock, repeat)]),
    io:format("next_event: ~p~n", [gen_statem:call(lock, twice)]),
    io:format("log: ~p~n", [log()]),

    %% Stop from a state function, then with gen_statem:stop/1.
    M = monitor(process, P),
    gen_statem:cast(lock, {stop, normal}),
    receive {'DOWN', M, process, P, Why} -> io:format("stop from a cast: ~p~n", [Why]) end,
    receive {lock, terminate, TR, TS} -> io:format("terminate(~p) in ~p~n", [TR, TS]) end,
    {ok, _} = gen_statem:start({local, lock}, ?MODULE, {[4], Self}, []),
    ok = gen_statem:stop(lock),
    receive {lock, terminate, TR2, TS2} -> io:format("stop/1: terminate(~p) in ~p~n", [TR2, TS2]) end,
    ok.

log() -> gen_statem:call(lock, log).

callback_mode() -> [state_functions, state_enter].

init({Code, Parent}) ->
    {ok, locked, #{code => Code, input => [], parent => Parent, log => [],
                   open_timeout => 60000, autorelock => false}}.

locked(enter, Old, D) ->
    {keep_state, add({enter, locked, Old}, D#{input := []})};
locked({call, From}, {button, B}, #{code := Code, input := In} = D) ->
    case In ++ [B] of
        Code when map_get(autorelock, D) ->
            {next_state, open, add({button, B}, D),
             [{reply, From, opened}, {next_event, internal, relock}]};
        Code -> {next_state, open, add({button, B}, D), [{reply, From, opened}]};
        In2 ->
            case lists:prefix(In2, Code) of
                true -> {keep_state, add({button, B}, D#{input := In2}), [{reply, From, more}]};
                false -> {keep_state, add({button, B}, D#{input := []}), [{reply, From, wrong}]}
            end
    end;
locked({call, From}, {config, Key, Value}, D) ->
    {keep_state, D#{Key := Value}, [{reply, From, ok}]};
locked({call, From}, repeat, D) ->
    {repeat_state, add(repeat, D), [{reply, From, repeated}]};
locked({call, From}, twice, D) ->
    {keep_state, add(twice, D), [{next_event, internal, first}, {next_event, internal, second},
                                  {reply, From, ok}]};
locked(internal, What, D) ->
    {keep_state, add({internal, What}, D)};
locked(cast, relock, _D) ->
    keep_state_and_data;
locked(EventType, Event, D) ->
    common(EventType, Event, D).

open(enter, Old, #{open_timeout := T} = D) ->
    {keep_state, add({enter, open, Old}, D), [{state_timeout, T, relock}]};
open(internal, relock, D) ->
    {next_state, locked, add(internal_relock, D)};
open(state_timeout, relock, #{parent := P} = D) ->
    P ! {lock, state_timeout},
    {next_state, locked, add(state_timeout, D)};
open(cast, relock, D) ->
    {next_state, locked, add(relock, D)};
open({call, _From}, {button, _} = E, #{parent := P} = D) ->
    P ! {lock, postponed, E},
    {keep_state, add({postpone, E}, D), [postpone]};
open(EventType, Event, D) ->
    common(EventType, Event, D).

common({call, From}, log, #{log := Log} = D) ->
    {keep_state, D#{log := []}, [{reply, From, lists:reverse(Log)}]};
common(cast, {stop, Reason}, _D) ->
    {stop, Reason}.

terminate(Reason, State, #{parent := P}) ->
    P ! {lock, terminate, Reason, State}.

add(E, #{log := Log} = D) -> D#{log := [E | Log]}.
