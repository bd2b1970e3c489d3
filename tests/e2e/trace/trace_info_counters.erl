%% trace_info after pause/restart/false on counters, and meta after a module-wide meta off, as
%% erl answers: pause and restart insert no breakpoint, and start a counter that a function's
%% breakpoint lacks.
-module(trace_info_counters).
-export([main/0, f/1, g/1]).
f(X) -> X.
g(X) -> X.
show(Tag, T) -> io:format("~s ~p~n", [Tag, T]).
main() ->
    show("local", erlang:trace_pattern({?MODULE, f, 1}, true, [local])),
    show("pause f", erlang:trace_pattern({?MODULE, f, 1}, pause, [call_count])),
    show("cc f", erlang:trace_info({?MODULE, f, 1}, call_count)),
    show("restart g", erlang:trace_pattern({?MODULE, g, 1}, restart, [call_count])),
    show("cc g", erlang:trace_info({?MODULE, g, 1}, call_count)),
    show("all g", erlang:trace_info({?MODULE, g, 1}, all)),
    show("pause g", erlang:trace_pattern({?MODULE, g, 1}, pause, [call_time])),
    show("all g", erlang:trace_info({?MODULE, g, 1}, all)),
    show("meta", erlang:trace_pattern({?MODULE, '_', '_'}, true, [{meta, self()}])),
    {meta, Pid} = erlang:trace_info({?MODULE, f, 1}, meta),
    show("meta is self", Pid =:= self()),
    show("meta off", erlang:trace_pattern({?MODULE, '_', '_'}, false, [meta])),
    show("meta f", erlang:trace_info({?MODULE, f, 1}, meta)),
    show("meta g", erlang:trace_info({?MODULE, g, 1}, meta)),
    show("meta_match_spec f", erlang:trace_info({?MODULE, f, 1}, meta_match_spec)),
    show("all f", erlang:trace_info({?MODULE, f, 1}, all)),
    show("cc on", erlang:trace_pattern({?MODULE, f, 1}, true, [call_count])),
    f(1), f(2),
    show("cc f", erlang:trace_info({?MODULE, f, 1}, call_count)),
    show("pause", erlang:trace_pattern({?MODULE, f, 1}, pause, [call_count])),
    f(1),
    show("cc f", erlang:trace_info({?MODULE, f, 1}, call_count)),
    show("restart", erlang:trace_pattern({?MODULE, f, 1}, restart, [call_count])),
    show("cc f", erlang:trace_info({?MODULE, f, 1}, call_count)),
    f(1),
    show("cc f", erlang:trace_info({?MODULE, f, 1}, call_count)),
    show("true again", erlang:trace_pattern({?MODULE, f, 1}, true, [call_count])),
    show("cc f", erlang:trace_info({?MODULE, f, 1}, call_count)),
    show("pause time", erlang:trace_pattern({?MODULE, f, 1}, pause, [call_time])),
    show("ct f", erlang:trace_info({?MODULE, f, 1}, call_time)),
    show("off", erlang:trace_pattern({?MODULE, f, 1}, false, [call_count])),
    show("cc f", erlang:trace_info({?MODULE, f, 1}, call_count)),
    show("all f", erlang:trace_info({?MODULE, f, 1}, all)),
    erlang:trace_pattern({?MODULE, '_', '_'}, false, [local, call_time]),
    show("all f", erlang:trace_info({?MODULE, f, 1}, all)),
    ok.
