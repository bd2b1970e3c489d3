%% tests/stress/msg_trace_stress.erl — send and 'receive' tracing on 1000 processes exchanging
%% messages while tracers die and are replaced and sessions come and go.
%%
%% 1000 workers form a ring; in each round every worker sends {msg, Self, Round} to the next one
%% and waits for {msg, Prev, Round} from the previous one (?PHASES phases of ?ROUNDS rounds, with
%% tracing changes between and during them). Meanwhile a chaos
%% process keeps changing the tracing of random workers: it traces them for send and 'receive'
%% in the legacy session with a fresh tracer and kills it a moment later (so events are in
%% flight when their tracer dies), creates sessions with their own tracers, send/'receive'
%% match specs and process flags, and destroys them, and switches the legacy send and
%% 'receive' patterns. Checks: every worker got every message of every round exactly once
%% and in order, and nothing else; every trace message any tracer got is well formed; the
%% tracers saw events; the chaos process made changes while the workers ran. Prints one line
%% per check and "all ok"; halts with status 1 on failure.
-module(msg_trace_stress).
-export([main/0]).

-define(PROCS, 1000).
-define(ROUNDS, 20).
-define(PHASES, 10).
-define(SAMPLE, 50).

main() ->
    Self = self(),
    Workers = [spawn(fun() -> worker(Self) end) || _ <- lists:seq(1, ?PROCS)],
    Ring = list_to_tuple(Workers),
    [W ! {start, element(next(I), Ring), element(prev(I), Ring)}
     || {I, W} <- lists:zip(lists:seq(1, ?PROCS), Workers)],
    Chaos = spawn(fun() -> chaos(Self, Ring, 0, 0) end),
    %% Phases of ?ROUNDS rounds; between two, the chaos process makes more changes.
    Results = lists:append([phase(P, Workers, Chaos) || P <- lists:seq(0, ?PHASES - 1)]),
    Chaos ! {stop, Self},
    Changes = receive {chaos_done, C} -> C end,
    Seen = collect_seen(0),
    Malformed = collect_malformed([]),
    check(every_message_once_in_order, lists:all(fun(R) -> R =:= ok end, Results)),
    check(trace_messages_well_formed, Malformed =:= []),
    check(tracers_saw_events, Seen > 0),
    check(tracing_changed_while_running, Changes >= 2 * ?PHASES),
    [W ! stop || W <- Workers],
    io:format("all ok~n").

phase(P, Workers, Chaos) ->
    Before = changes(Chaos),
    [W ! {go, P * ?ROUNDS + 1} || W <- Workers],
    Results = [receive {done, W, R} -> R end || W <- Workers],
    wait_changes(Chaos, Before + 2),
    Results.

changes(Chaos) ->
    Chaos ! {changes, self()},
    receive {changes, N} -> N end.

wait_changes(Chaos, N) ->
    case changes(Chaos) >= N of
        true -> ok;
        false -> timer:sleep(1), wait_changes(Chaos, N)
    end.

next(I) -> I rem ?PROCS + 1.
prev(1) -> ?PROCS;
prev(I) -> I - 1.

%% ---- workers ----

worker(Main) ->
    receive {start, Next, Prev} -> worker(Main, Next, Prev) end.

worker(Main, Next, Prev) ->
    receive
        {go, First} ->
            Result = rounds(First, First + ?ROUNDS, Next, Prev),
            %% Nothing may be left over: no duplicates, no strays.
            Extra = receive {msg, _, _} = M -> {extra, M} after 0 -> none end,
            Main ! {done, self(), case {Result, Extra} of {ok, none} -> ok; _ -> {Result, Extra} end},
            worker(Main, Next, Prev);
        stop -> ok
    end.

rounds(End, End, _, _) -> ok;
rounds(R, End, Next, Prev) ->
    Next ! {msg, self(), R},
    receive
        {msg, Prev, R} -> rounds(R + 1, End, Next, Prev)
    after 20000 -> {missing, R}
    end.

%% ---- tracers: check every message, report the count when stopped ----

tracer(Main, N) ->
    receive
        stop_tracer -> Main ! {seen, N};
        M ->
            case well_formed(M) of
                true -> ok;
                false -> Main ! {malformed, M}
            end,
            tracer(Main, N + 1)
    end.

well_formed({trace, P, send, Msg, To}) -> is_pid(P) andalso is_pid(To) andalso app_msg(Msg, P);
well_formed({trace, P, send, Msg, To, marked}) -> is_pid(P) andalso is_pid(To) andalso app_msg(Msg, P);
well_formed({trace, P, send_to_non_existing_process, _, To}) -> is_pid(P) andalso is_pid(To);
well_formed({trace, P, 'receive', Msg}) -> is_pid(P) andalso any_msg(Msg);
well_formed({trace, P, 'receive', Msg, {nonode@nohost, S}}) -> is_pid(P) andalso is_pid(S) andalso any_msg(Msg);
well_formed(_) -> false.

%% What workers send (to the ring, or their result to main).
app_msg({msg, P, R}, P) -> is_integer(R) andalso R >= 1 andalso R =< ?ROUNDS * ?PHASES;
app_msg({done, P, _}, P) -> true;
app_msg(_, _) -> false.

any_msg({msg, P, R}) -> is_pid(P) andalso is_integer(R);
any_msg({start, N, P}) -> is_pid(N) andalso is_pid(P);
any_msg({go, R}) -> is_integer(R);
any_msg(stop) -> true;
any_msg(timeout) -> true;
any_msg(_) -> false.

%% ---- chaos: tracing changes while the workers run ----

chaos(Main, Ring, Changes, I) ->
    receive
        {changes, From} ->
            From ! {changes, Changes},
            chaos(Main, Ring, Changes, I);
        {stop, From} ->
            erlang:trace(all, false, [all]),
            1 = erlang:trace_pattern(send, true, []),
            1 = erlang:trace_pattern('receive', true, []),
            From ! {chaos_done, Changes}
    after 0 ->
        case I rem 4 of
            0 -> legacy_round(Main, Ring);
            1 -> session_round(Main, Ring);
            2 -> pattern_round(I);
            3 -> legacy_round(Main, Ring)
        end,
        chaos(Main, Ring, Changes + 1, I + 1)
    end.

sample(Ring) -> [element(random(?PROCS), Ring) || _ <- lists:seq(1, ?SAMPLE)].

%% 1..N, spread well enough for choosing workers.
random(N) -> (erlang:unique_integer([positive]) * 7919) rem N + 1.

%% A fresh legacy tracer for a sample of workers; it is killed while events are in flight.
%% Workers still traced by a live tracer refuse it (badarg): that is fine.
legacy_round(Main, Ring) ->
    T = spawn(fun() -> tracer(Main, 0) end),
    [catch erlang:trace(W, true, [send, 'receive', {tracer, T}]) || W <- sample(Ring)],
    timer:sleep(2),
    case random(2) of
        1 -> exit(T, kill);
        2 -> stop_tracer(T)
    end.

%% A session with its own tracer, patterns and flags, destroyed while the workers run.
session_round(Main, Ring) ->
    T = spawn(fun() -> tracer(Main, 0) end),
    S = trace:session_create(stress, T, []),
    1 = trace:send(S, [{['_', {msg, '_', '$1'}], [{'<', '$1', ?ROUNDS * ?PHASES div 2}], [{message, marked}]}], []),
    1 = trace:recv(S, [{['$1', '$2', '_'], [{is_pid, '$2'}], [{message, {{'$1', '$2'}}}]}], []),
    [1 = trace:process(S, W, true, [send, 'receive']) || W <- sample(Ring)],
    timer:sleep(2),
    true = trace:session_destroy(S),
    stop_tracer(T).

pattern_round(I) ->
    case I rem 3 of
        0 -> 1 = erlang:trace_pattern(send, [{['_', {msg, '_', '_'}], [], []}], []);
        1 -> 1 = erlang:trace_pattern('receive', [{['_', '_', {msg, '_', '_'}], [], []}], []);
        2 -> 1 = erlang:trace_pattern(send, true, []),
             1 = erlang:trace_pattern('receive', true, [])
    end.

stop_tracer(T) ->
    Ref = monitor(process, T),
    T ! stop_tracer,
    receive {'DOWN', Ref, process, T, _} -> ok end.

%% ---- main's bookkeeping ----

collect_seen(Acc) ->
    receive {seen, N} -> collect_seen(Acc + N)
    after 0 -> Acc
    end.

collect_malformed(Acc) ->
    receive {malformed, M} -> collect_malformed([M | Acc])
    after 0 -> Acc
    end.

check(Name, true) -> io:format("~p: ok~n", [Name]);
check(Name, false) ->
    io:format("~p: FAILED~n", [Name]),
    erlang:halt(1).
