-module(trace_info_items).
-export([main/0, f/1, g/1]).

%% erlang:trace_info/2 for pids, for new processes and for functions.
%%  - Pid, flags: {flags, List} ([] when untraced); Pid, tracer: {tracer, Pid} or {tracer, []};
%%    a dead pid: undefined. Flags can be added (the same {tracer, T} must be given again) and
%%    removed (How=false needs no tracer); removing the last flag also clears the tracer.
%%  - new, flags / new, tracer: the flags and tracer that new processes will get.
%%  - {M,F,A}, traced: global | local | false; match_spec: [] when traced with true or [],
%%    false when untraced; all: false when untraced. A function or module that does not exist:
%%    undefined for all three items.
f(X) -> X.
g(X) -> h(X).
h(X) -> X.

main() ->
    W = spawn(fun() -> receive stop -> ok end end),
    T = spawn(fun() -> receive stop -> ok end end),
    Names = [{W, worker}, {T, collector}, {self(), self}],
    io:format("untraced: ~p ~p~n", [pinfo(W, flags, Names), pinfo(W, tracer, Names)]),
    io:format("trace [call]: ~p~n", [erlang:trace(W, true, [call, {tracer, T}])]),
    io:format("traced: ~p ~p~n", [pinfo(W, flags, Names), pinfo(W, tracer, Names)]),
    io:format("add flags: ~p~n", [erlang:trace(W, true, [arity, set_on_spawn, set_on_first_link, {tracer, T}])]),
    io:format("traced: ~p ~p~n", [pinfo(W, flags, Names), pinfo(W, tracer, Names)]),
    io:format("remove some: ~p~n", [erlang:trace(W, false, [arity, set_on_first_link])]),
    io:format("traced: ~p ~p~n", [pinfo(W, flags, Names), pinfo(W, tracer, Names)]),
    io:format("remove rest: ~p~n", [erlang:trace(W, false, [call, set_on_spawn])]),
    io:format("untraced again: ~p ~p~n", [pinfo(W, flags, Names), pinfo(W, tracer, Names)]),
    io:format("self: ~p ~p~n", [pinfo(self(), flags, Names), pinfo(self(), tracer, Names)]),
    io:format("collector: ~p ~p~n", [pinfo(T, flags, Names), pinfo(T, tracer, Names)]),
    %% new
    io:format("new: ~p ~p~n", [pinfo(new, flags, Names), pinfo(new, tracer, Names)]),
    io:format("trace new: ~p~n", [erlang:trace(new, true, [call, set_on_spawn, {tracer, T}])]),
    io:format("new: ~p ~p~n", [pinfo(new, flags, Names), pinfo(new, tracer, Names)]),
    io:format("trace new off: ~p~n", [erlang:trace(new, false, [call, set_on_spawn])]),
    io:format("new: ~p ~p~n", [pinfo(new, flags, Names), pinfo(new, tracer, Names)]),
    %% dead pid
    stop(W),
    io:format("dead: ~p ~p~n", [erlang:trace_info(W, flags), erlang:trace_info(W, tracer)]),
    %% functions
    finfo("untraced f/1", {?MODULE, f, 1}),
    io:format("all: ~p~n", [erlang:trace_info({?MODULE, f, 1}, all)]),
    io:format("global true: ~p~n", [erlang:trace_pattern({?MODULE, f, 1}, true, [global])]),
    finfo("f/1", {?MODULE, f, 1}),
    io:format("global []: ~p~n", [erlang:trace_pattern({?MODULE, f, 1}, [], [global])]),
    finfo("f/1", {?MODULE, f, 1}),
    io:format("local true: ~p~n", [erlang:trace_pattern({?MODULE, h, 1}, true, [local])]),
    finfo("h/1", {?MODULE, h, 1}),
    io:format("local []: ~p~n", [erlang:trace_pattern({?MODULE, g, 1}, [], [local])]),
    finfo("g/1", {?MODULE, g, 1}),
    io:format("off: ~p ~p~n", [erlang:trace_pattern({?MODULE, '_', '_'}, false, [global]),
                               erlang:trace_pattern({?MODULE, '_', '_'}, false, [local])]),
    finfo("f/1 off", {?MODULE, f, 1}),
    finfo("h/1 off", {?MODULE, h, 1}),
    io:format("all: ~p~n", [erlang:trace_info({?MODULE, h, 1}, all)]),
    finfo("no such function", {?MODULE, nosuch, 1}),
    io:format("all: ~p~n", [erlang:trace_info({?MODULE, nosuch, 1}, all)]),
    finfo("no such arity", {?MODULE, f, 2}),
    finfo("no such module", {trace_info_no_such_module, f, 1}),
    stop(T),
    ok.

pinfo(PidSpec, Item, Names) ->
    case erlang:trace_info(PidSpec, Item) of
        {flags, L} -> {flags, lists:sort(L)};
        {tracer, []} -> {tracer, []};
        {tracer, P} -> {tracer, name(P, Names)};
        Other -> Other
    end.

finfo(Label, MFA) ->
    io:format("~s: ~p ~p~n", [Label, erlang:trace_info(MFA, traced), erlang:trace_info(MFA, match_spec)]).

name(P, Names) ->
    case lists:keyfind(P, 1, Names) of
        {P, N} -> N;
        false -> other
    end.

stop(P) ->
    Ref = monitor(process, P),
    P ! stop,
    receive {'DOWN', Ref, process, P, _} -> ok end.
