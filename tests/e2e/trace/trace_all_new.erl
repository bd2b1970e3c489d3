-module(trace_all_new).
-export([main/0, f/1]).
-import(e2e_trace, [collector/0, messages/1, worker/0, run/2, stop_wait/2, name/2]).

%% PidSpec all / existing / new. trace(new, ...) returns 0 and only sets the flags that
%% processes created afterwards get (trace_info(new, flags)); trace(existing, ...) affects only
%% the processes alive now and returns how many (a positive integer; printed as such);
%% trace(all, ...) does both. Processes already traced keep their flags when new is turned off.
%% Turning all off also clears the flags for new processes. With all/existing the tracer and
%% main are traced too: main makes no traced calls, and a tracer gets no messages about itself.
f(X) -> X.

main() ->
    io:format("pattern: ~p~n", [erlang:trace_pattern({?MODULE, f, 1}, true)]),
    T = collector(),
    Names = [{T, tracer}],
    W = worker(),
    %% new
    io:format("trace new: ~p~n", [erlang:trace(new, true, [call, {tracer, T}])]),
    io:format("  new: ~p ~p~n", [sorted(erlang:trace_info(new, flags)), tracer(new, Names)]),
    N1 = worker(),
    io:format("  old worker ~p, new worker ~p~n", [sorted(erlang:trace_info(W, flags)), sorted(erlang:trace_info(N1, flags))]),
    calls([{W, old}, {N1, new1}], T),
    io:format("trace new off: ~p~n", [erlang:trace(new, false, [call])]),
    io:format("  new: ~p ~p~n", [sorted(erlang:trace_info(new, flags)), tracer(new, Names)]),
    N2 = worker(),
    io:format("  new1 ~p, new2 ~p~n", [sorted(erlang:trace_info(N1, flags)), sorted(erlang:trace_info(N2, flags))]),
    calls([{N1, new1}, {N2, new2}], T),
    io:format("untrace new1: ~p~n", [erlang:trace(N1, false, [call])]),
    %% existing
    io:format("trace existing: ~p~n", [positive(erlang:trace(existing, true, [call, {tracer, T}]))]),
    io:format("  new: ~p~n", [sorted(erlang:trace_info(new, flags))]),
    N3 = worker(),
    io:format("  old ~p, new2 ~p, new3 ~p, main ~p, tracer ~p~n",
              [sorted(erlang:trace_info(W, flags)), sorted(erlang:trace_info(N2, flags)),
               sorted(erlang:trace_info(N3, flags)), sorted(erlang:trace_info(self(), flags)),
               sorted(erlang:trace_info(T, flags))]),
    calls([{W, old}, {N3, new3}], T),
    io:format("untrace existing: ~p~n", [positive(erlang:trace(existing, false, [call]))]),
    io:format("  old ~p, main ~p~n", [sorted(erlang:trace_info(W, flags)), sorted(erlang:trace_info(self(), flags))]),
    calls([{W, old}], T),
    %% all
    io:format("trace all: ~p~n", [positive(erlang:trace(all, true, [call, arity, {tracer, T}]))]),
    io:format("  new: ~p ~p~n", [sorted(erlang:trace_info(new, flags)), tracer(new, Names)]),
    N4 = worker(),
    io:format("  old ~p, new4 ~p, main ~p~n", [sorted(erlang:trace_info(W, flags)), sorted(erlang:trace_info(N4, flags)), sorted(erlang:trace_info(self(), flags))]),
    calls([{W, old}, {N4, new4}], T),
    io:format("untrace all: ~p~n", [positive(erlang:trace(all, false, [call, arity]))]),
    io:format("  new: ~p ~p~n", [sorted(erlang:trace_info(new, flags)), tracer(new, Names)]),
    N5 = worker(),
    io:format("  old ~p, new4 ~p, new5 ~p~n", [sorted(erlang:trace_info(W, flags)), sorted(erlang:trace_info(N4, flags)), sorted(erlang:trace_info(N5, flags))]),
    calls([{W, old}, {N4, new4}, {N5, new5}], T),
    io:format("pattern off: ~p~n", [erlang:trace_pattern({?MODULE, f, 1}, false)]),
    [stop_wait(P, stop) || P <- [W, N1, N2, N3, N4, N5, T]],
    ok.

positive(N) -> {positive_integer, is_integer(N) andalso N > 0}.

sorted({flags, L}) -> lists:sort(L).

tracer(PidSpec, Names) ->
    case erlang:trace_info(PidSpec, tracer) of
        {tracer, []} -> [];
        {tracer, P} -> name(P, Names)
    end.

%% Each worker in turn calls ?MODULE:f(its name); then the tracer's messages are printed.
calls(Workers, T) ->
    [run(P, fun() -> ?MODULE:f(Name) end) || {P, Name} <- Workers],
    timer:sleep(10),
    Msgs = messages(T),
    io:format("  traced calls: ~p~n", [[{trace, name(P, Workers), call, What} || {trace, P, call, What} <- Msgs]]).
