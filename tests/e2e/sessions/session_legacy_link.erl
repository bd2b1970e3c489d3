%% The legacy session's set_on_link through link/1. erl 25 passes erlang:trace/3's
%% set_on_link flags on through spawn_link only; OTP 27 through link/1 as well
%% (trace_session_SUITE:test_set_on_link checks it with the legacy session next to others).
%% beamlet follows erl 25 until the program creates a session and OTP 27 while one is alive.
-module(session_legacy_link).
-export([main/0]).

main() ->
    Tracer = spawn_link(fun() -> collect([]) end),
    1 = erlang:trace(self(), true, [procs, set_on_link, {tracer, Tracer}]),
    show("no session", link_child(Tracer)),
    S = trace:session_create(other, Tracer, []),
    show("a session alive", link_child(Tracer)),
    true = trace:session_destroy(S),
    show("session destroyed", link_child(Tracer)),
    1 = erlang:trace(self(), false, [procs, set_on_link]),
    ok.

%% Links to a fresh process with link/1 and answers its flags once it has handled the link
%% signal, and the events the tracer got about it once it has ended.
link_child(Tracer) ->
    Me = self(),
    Child = spawn(fun() -> receive go -> Me ! went end, receive stop -> ok end end),
    link(Child),
    Child ! go,
    receive went -> ok end,
    {flags, Flags} = erlang:trace_info(Child, flags),
    unlink(Child),
    Mon = monitor(process, Child),
    Child ! stop,
    %% The child's getting_unlinked and exit events are made when it handles the unlink and
    %% exits: wait for its end before asking for the events delivered so far.
    receive {'DOWN', Mon, process, Child, normal} -> ok end,
    Ref = erlang:trace_delivered(all),
    receive {trace_delivered, all, Ref} -> ok end,
    Tracer ! {dump, self()},
    Events = receive {events, E} -> E end,
    Name = fun(P) when P =:= Me -> main; (P) when P =:= Child -> child; (X) -> X end,
    {lists:sort(Flags),
     [{Name(Who), What, Name(Arg)} || {trace, Who, What, Arg} <- Events, What =/= spawn]}.

show(Label, {Flags, Events}) ->
    io:format("~s: child flags ~p~n", [Label, Flags]),
    [io:format("  ~p ~p ~p~n", [Who, What, Arg]) || {Who, What, Arg} <- Events].

collect(Acc) ->
    receive
        {dump, From} -> From ! {events, lists:reverse(Acc)}, collect([]);
        M -> collect([M | Acc])
    end.
