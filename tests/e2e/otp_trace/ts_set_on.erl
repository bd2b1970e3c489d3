-module(ts_set_on).
-export([main/0]).

%% Port of trace_SUITE set_on_spawn, set_on_first_spawn, set_on_link, set_on_first_link.
%% A parent model process (spawn_link'ed) is traced with [send, Inherit] (tracer = main) and
%% asked to spawn children with spawn_link(erlang, apply, [Fun, []]) (so spawn and link
%% inheritance both apply). Each child is checked with is_send_traced: the child sends a
%% message to an untraced listener; after the listener confirmed it and after
%% trace_delivered(Child), the child is send-traced iff exactly {trace, Child, send, Msg,
%% Listener} arrived. The parent's {spawned, Child} reply is always traced (it stays traced).
%% - set_on_spawn / set_on_link: all children and grandchildren (children of child1) are
%%   traced, and inherit the flag itself (flags [send, set_on_spawn|set_on_link]).
%% - set_on_first_spawn / set_on_first_link: only child1 is traced, with flags [send]
%%   (the flag is not passed on), and the parent loses it (parent flags [send]).

main() ->
    process_flag(trap_exit, true),
    Main = self(),
    Listener = spawn_link(fun() -> listener(Main) end),
    put(names, [{Main, main}, {Listener, listener}]),
    lists:foreach(fun(F) -> section(F, Listener) end,
                  [set_on_spawn, set_on_first_spawn, set_on_link, set_on_first_link]),
    Left = receive M -> norm(M) after 100 -> nothing end,
    io:format("left in queue: ~p~n", [Left]),
    ok.

section(Flag, Listener) ->
    io:format("~p:~n", [Flag]),
    Parent = spawn_link(erlang, apply, [fun process/0, []]),
    name(Parent, parent),
    io:format("  trace parent [send, ~p]: ~p~n", [Flag, erlang:trace(Parent, true, [send, Flag])]),
    io:format("  parent send traced: ~p~n", [is_send_traced(Parent, Listener, father)]),
    Gens = case Flag of
               set_on_spawn -> [2, 2];
               set_on_link -> [2, 2];
               _ -> [3, 0]
           end,
    [N1, N2] = Gens,
    Children = spawn_children(Parent, N1, child),
    flags("  parent", Parent),
    [check(C) || C <- Children],
    case N2 of
        0 -> ok;
        _ ->
            Grand = spawn_children(hd(Children), N2, grandchild),
            [check(C) || C <- Grand]
    end,
    %% Stop the whole family (all linked to the parent or to child1); main traps exits.
    unlink(Parent),
    Mon = erlang:monitor(process, Parent),
    exit(Parent, kill),
    receive {'DOWN', Mon, _, _, _} -> ok end,
    ok.

check(C) ->
    Name = atom_to_list(norm(C)),
    flags("  " ++ Name, C),
    io:format("  ~s send traced: ~p~n", [Name, is_send_traced(C, whereis_listener(), list_to_atom(Name))]).

whereis_listener() -> hd([P || {P, listener} <- get(names)]).

is_send_traced(P, Listener, Msg) ->
    P ! {send_please, Listener, Msg},
    receive {heard, Msg} -> ok end,
    case events(P) of
        [{trace, P, send, Msg, Listener}] -> true;
        [] -> false;
        Other -> {unexpected, norm(Other)}
    end.

%% Asks Parent (send traced) to spawn Number children; prints the parent's traced reply.
spawn_children(Parent, Number, Prefix) ->
    [begin
         Parent ! {spawn_please, self(), fun process/0},
         Child = receive {spawned, C} -> C end,
         name(Child, list_to_atom(atom_to_list(Prefix) ++ integer_to_list(I))),
         io:format("  ~p spawned ~p, traced reply: ~w~n", [norm(Parent), norm(Child), norm(events(Parent))]),
         Child
     end || I <- lists:seq(1, Number)].

process() ->
    receive
        {spawn_please, ReplyTo, Fun} ->
            Pid = spawn_link(erlang, apply, [Fun, []]),
            ReplyTo ! {spawned, Pid},
            process();
        {send_please, To, What} -> To ! What, process();
        _Other -> process()
    end.

listener(Main) ->
    receive M -> Main ! {heard, M}, listener(Main) end.

flags(Label, P) ->
    {flags, F} = erlang:trace_info(P, flags),
    io:format("~s flags: ~p~n", [Label, lists:sort(F)]).

events(P) ->
    Ref = erlang:trace_delivered(P),
    receive {trace_delivered, P, Ref} -> ok end,
    take(P).

take(P) ->
    receive
        M when element(1, M) =:= trace, element(2, M) =:= P -> [M | take(P)]
    after 0 -> []
    end.

name(P, N) -> put(names, [{P, N} | get(names)]).

norm(P) when is_pid(P) ->
    case lists:keyfind(P, 1, get(names)) of {P, N} -> N; false -> other_pid end;
norm(R) when is_reference(R) -> ref;
norm(F) when is_function(F) -> 'fun';
norm(T) when is_tuple(T) -> list_to_tuple(norm(tuple_to_list(T)));
norm([H | T]) -> [norm(H) | norm(T)];
norm(X) -> X.
