%% erlang:garbage_collect/2 on the caller itself: {type, minor} is a minor collection and
%% {type, major} (and the default) a major one, as the garbage_collection trace events show
%% (gc_SUITE:minor_major_gc_option_self).
-module(gc_type_self).
-export([main/0]).

main() ->
    Self = self(),
    Tracer = spawn(fun() -> collect(Self, []) end),
    lists:foreach(fun(Opts) -> io:format("~p: ~p~n", [Opts, traced_gc(Tracer, Opts)]) end,
                  [[{type, minor}], [{type, major}], []]),
    io:format("~p~n", [reason(catch erlang:garbage_collect(self(), [{type, medium}]))]),
    io:format("~p~n", [reason(catch erlang:garbage_collect(self(), bad))]).

reason({'EXIT', {Reason, _Stack}}) -> Reason.

traced_gc(Tracer, Opts) ->
    _ = [X || X <- lists:seq(1, 500)],
    true = erlang:garbage_collect(),  % a minor collection needs room on the old heap
    erlang:trace(self(), true, [garbage_collection, {tracer, Tracer}]),
    Result = erlang:garbage_collect(self(), Opts),
    erlang:trace(self(), false, [garbage_collection]),
    Tracer ! {report, self()},
    receive {events, Tags} -> {Result, Tags} end.

collect(Parent, Tags) ->
    receive
        {trace, Parent, Tag, _} -> collect(Parent, [Tag | Tags]);
        {report, From} ->
            erlang:trace_delivered(From),
            receive {trace_delivered, _, _} -> ok end,
            Rest = flush(Parent),
            From ! {events, lists:reverse(Tags, Rest)},
            collect(Parent, [])
    end.

flush(Parent) ->
    receive {trace, Parent, Tag, _} -> [Tag | flush(Parent)] after 0 -> [] end.
