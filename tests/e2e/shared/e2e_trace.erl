%% tests/e2e/shared/e2e_trace.erl — helpers shared by the end-to-end tracing programs
%% (tests/e2e/events, port_trace, trace, sessions): a collector process that keeps the trace
%% messages it gets, a worker process that runs funs on request, stopping a process and
%% waiting for its end, and names for pids and ports so that what a program prints is the same
%% in every run. Not a test itself (no main/0, no .expected file): tests/e2e_check.sh and
%% tests/regen_expected.sh put the compiled tests/e2e/shared on every program's code path.
%% The programs take these functions with -import(e2e_trace, [...]).
%%
%% The first call to this module comes from an untraced process (main, which starts its
%% collector or worker before it traces itself or any process that calls here): on erl that
%% call loads the module through the code server, and a traced process that did so would
%% report that exchange too. These functions are not in the program's own module, so trace
%% patterns such as {?MODULE, '_', '_'} do not cover them (programs whose output counts or
%% traces their own functions that way keep their helpers).
-module(e2e_trace).
-export([collector/0, messages/1, events/2]).
-export([worker/0, run/2]).
-export([stop_wait/2]).
-export([name/2, norm/2]).

%% ---- the collector

%% collector(): a new process that keeps every message it gets (the trace messages of the
%% processes and ports it traces), in arrival order, until messages/1 takes them; `stop` ends
%% it.
collector() -> spawn(fun() -> collect([]) end).

collect(Acc) ->
    receive
        {give, From} -> From ! {msgs, self(), lists:reverse(Acc)}, collect([]);
        stop -> ok;
        M -> collect([M | Acc])
    end.

%% messages(T): the messages collector T got since it was started or last asked (it forgets
%% them). Only those already delivered: see events/2.
messages(T) ->
    T ! {give, self()},
    receive {msgs, T, Msgs} -> Msgs end.

%% events(T, Ps): messages(T) once the trace messages generated so far by each of the
%% processes Ps have been delivered (erlang:trace_delivered/1).
events(T, Ps) ->
    [begin Ref = erlang:trace_delivered(P), receive {trace_delivered, P, Ref} -> ok end end
     || P <- Ps],
    messages(T).

%% ---- the worker

%% worker(): a new process that runs F() for each run(W, F) and then waits for the next one;
%% `stop` ends it.
worker() -> spawn(fun serve/0).

serve() ->
    receive
        {run, F, From} -> R = F(), From ! {done, self(), R}, serve();
        stop -> ok
    end.

%% run(W, F): F() run by worker W, its result once it has returned. W gets {run, F, Caller}
%% and sends {done, W, Result} back (events of a traced worker show these messages).
run(W, F) ->
    W ! {run, F, self()},
    receive {done, W, R} -> R end.

%% ---- processes

%% stop_wait(P, How): stops P (How = stop: the message stop; kill: exit(P, kill); none: P
%% ends by itself) and returns once it is dead.
stop_wait(P, How) ->
    Ref = monitor(process, P),
    case How of
        stop -> P ! stop;
        kill -> exit(P, kill);
        none -> ok
    end,
    receive {'DOWN', Ref, process, P, _} -> ok end.

%% ---- names

%% name(Term, Names): Term with every pid and port replaced by its name in Names (a list of
%% {PidOrPort, Name}), or by `other` if it has none; references become `ref` and funs 'fun'
%% (in lists, tuples and improper lists too).
name(X, Names) -> rename(X, Names, other).

%% norm(Term, Names): as name/2, but a pid or port that Names does not hold becomes
%% `other_pid` (the spelling of the events programs).
norm(X, Names) -> rename(X, Names, other_pid).

rename(X, Names, Unknown) when is_pid(X); is_port(X) ->
    case lists:keyfind(X, 1, Names) of
        {X, N} -> N;
        false -> Unknown
    end;
rename(R, _, _) when is_reference(R) -> ref;
rename(F, _, _) when is_function(F) -> 'fun';
rename(T, Names, Unknown) when is_tuple(T) ->
    list_to_tuple(rename(tuple_to_list(T), Names, Unknown));
rename([H | T], Names, Unknown) -> [rename(H, Names, Unknown) | rename(T, Names, Unknown)];
rename(X, _, _) -> X.
