%% Tracer modules written in Erlang (tests/e2e/tracer/erl_tracer_mod.erl), for each event
%% kind. beamlet calls the module; OTP cannot (its tracer modules must be NIFs), so there the
%% same events come from a tracer process: both must print the same lines.
-module(erl_tracer_events).
-export([main/0, call_test/1]).

main() ->
    erlang:trace_pattern({?MODULE, call_test, 1}, [{'_', [], [{return_trace}]}], [local]),
    [event(Flag, Action) || {Flag, Action} <- actions()],
    discard(),
    ok.

call_test(X) -> {X}.

actions() ->
    [{send, fun() -> self() ! ok, receive ok -> ok end end},
     {'receive', fun() -> self() ! ok, receive ok -> ok end end},
     {call, fun() -> ?MODULE:call_test(self()) end},
     {procs, fun() -> S = spawn(fun() -> receive _ -> ok end end), link(S), unlink(S), S ! x,
                      register(erl_tracer_reg, self()), unregister(erl_tracer_reg) end},
     {garbage_collection, fun() -> erlang:garbage_collect() end}].

%% The tracer: the module on beamlet, this process elsewhere.
tracer(State) ->
    case erlang:function_exported(beamlet, on_load_claim, 1) orelse erlang:is_builtin(beamlet, on_load_claim, 1) of
        true -> [{tracer, erl_tracer_mod, State}];
        false -> []
    end.

event(Flag, Action) ->
    Pid = tracee(),
    1 = erlang:trace(Pid, true, [Flag | tracer({self(), #{}})]),
    Pid ! {do, Action},
    receive {done, Pid} -> ok end,
    Ref = erlang:trace_delivered(Pid),
    receive {trace_delivered, Pid, Ref} -> ok end,
    [io:format("~p: ~p~n", [Flag, shape(M)]) || M <- collect(), element(2, M) =:= Pid],
    unlink(Pid),
    exit(Pid, kill).

%% discard from the specific enabled_send/3: no send events; receives still come.
discard() ->
    Pid = tracee(),
    case tracer({self(), #{send => discard}}) of
        [] -> 1 = erlang:trace(Pid, true, ['receive']);
        T -> 1 = erlang:trace(Pid, true, [send, 'receive' | T])
    end,
    Pid ! {do, fun() -> self() ! ok, receive ok -> ok end end},
    receive {done, Pid} -> ok end,
    timer:sleep(20),
    [io:format("discard: ~p~n", [shape(M)]) || M <- collect(), element(2, M) =:= Pid],
    unlink(Pid),
    exit(Pid, kill).

tracee() ->
    Parent = self(),
    spawn_link(fun Loop() ->
                       receive
                           {do, F} -> F(), Parent ! {done, self()}, Loop()
                       end
               end).

collect() ->
    receive M -> [M | collect()] after 50 -> [] end.

shape(T) when is_pid(T) -> pid;
shape(T) when is_function(T) -> 'fun';
shape({K, N}) when is_atom(K), is_integer(N) -> {K, int};  % GC sizes
shape(T) when is_tuple(T) -> list_to_tuple([shape(E) || E <- tuple_to_list(T)]);
shape([H | T]) -> [shape(H) | shape(T)];
shape(T) -> T.
