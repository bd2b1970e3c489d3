%% bif/lib/beamlet_cli_trace.erl — the Erlang half of `beamlet trace` and `beamlet profile`
%% (tools/cli_trace.hpp): call patterns compiled to match specs, a trace session of its own whose
%% tracer is the native module beamlet_cli_tracer, the selection of processes, the program's
%% start, and the end of the trace (a limit, the time limit, or the program's end). For
%% `beamlet profile`: call_count, call_time and call_memory on the patterns, read back into
%% tables at the end.
%%
%% With --node, the nodes' processes are traced instead of a program's (redbug-style): this VM
%% is a hidden node, OTP's dbg puts its relay on each node as the tracer there (erlang:trace/3
%% and trace_pattern/3 are called on the node itself), and its tracer here hands each trace
%% message to the writer (beamlet:cli_trace_event/1). The run ends at a limit, or when a node
%% goes down; the nodes are left as they were.
%%
%% Pattern syntax (as redbug's): Module, Module:Function, Module:*, Module:Function/Arity,
%% Module:Function(ArgPatterns) [when Guards] — each optionally followed by
%% "-> Action; Action" with the actions return, exception, caller and stack.
-module(beamlet_cli_trace).
-export([start/2, main_exited/0, compile_pattern/1, main/0]).

-define(SERVER, beamlet_cli_trace).

%% Sets the trace up and starts the program (StartMain() -> Pid); returns once it runs.
start(Spec, StartMain) ->
    Self = self(),
    Server = spawn(fun() -> server(Spec, StartMain, Self) end),
    Ref = erlang:monitor(process, Server),
    receive
        {Server, started} -> erlang:demonitor(Ref, [flush]), ok;
        {'DOWN', Ref, process, Server, Reason} ->
            beamlet:cli_trace_note(io_lib:format("failed: ~p", [Reason])),
            erlang:halt(2)
    end.

%% The program's main process exited: the trace ends (profile: the tables are written).
main_exited() ->
    case whereis(?SERVER) of
        undefined -> ok;
        Server ->
            Ref = erlang:monitor(process, Server),
            Server ! {stop, main_exited, self()},
            receive
                {Server, done} -> erlang:demonitor(Ref, [flush]), ok;
                {'DOWN', Ref, process, Server, _} -> ok
            end
    end.

%% The program of `beamlet trace --node`: nothing runs here; the trace is the nodes'.
main() ->
    receive after infinity -> ok end.

%% ---- the server: owns the session ----

server(Spec, StartMain, Parent) ->
    register(?SERVER, self()),
    case maps:get(nodes, Spec) of
        [] -> local(Spec, StartMain, Parent);
        Nodes -> remote(Nodes, Spec, StartMain, Parent)
    end.

local(Spec, StartMain, Parent) ->
    Kind = maps:get(kind, Spec),
    Patterns = case {Kind, maps:get(patterns, Spec)} of
                   {profile, []} -> default_profile_patterns(maps:get(module, Spec));
                   {_, Ps} -> Ps
               end,
    Compiled = [compile_or_stop(P) || P <- Patterns],
    Session = trace:session_create(beamlet_cli, {beamlet_cli_tracer, []}, []),
    Returns = maps:get(returns, Spec),
    [set_pattern(Session, Kind, P, Returns, maps:get(global, Spec)) || P <- Compiled],
    beamlet:cli_trace_calls_return(Kind =:= trace andalso Compiled =/= [] andalso
                                   (Returns orelse lists:all(fun returns/1, Compiled))),
    Flags = flags(Spec, Compiled),
    trace_new_ports(Session, Flags),
    SeqTrace = lists:member(seq_trace, maps:get(events, Spec)),
    with_seq_token(SeqTrace, fun() -> select_processes(Session, maps:get(procs, Spec), Flags, StartMain) end),
    Parent ! {self(), started},
    Limit = maps:get(time_limit, Spec),
    wait(Session, Spec, Compiled, Limit).

wait(Session, Spec, Compiled, Limit) ->
    receive
        {stop, limit} ->
            stop(Session),
            beamlet:cli_trace_finish(limit),
            stopped(Spec, Compiled, Session);
        {stop, main_exited, From} ->
            finish(Session, Spec, Compiled, main_exited),
            From ! {self(), done}
    after Limit ->
        stop(Session),
        beamlet:cli_trace_finish(time_limit),
        stopped(Spec, Compiled, Session)
    end.

%% Tracing stopped early; the program runs on. At its end only the profile's tables remain.
stopped(Spec, Compiled, Session) ->
    receive
        {stop, main_exited, From} -> From ! {self(), done};
        {stop, limit} -> stopped(Spec, Compiled, Session)
    end.

finish(Session, Spec, Compiled, Why) ->
    case maps:get(kind, Spec) of
        profile -> write_profile(Session, Spec, Compiled);
        trace -> ok
    end,
    stop(Session),
    beamlet:cli_trace_finish(Why).

%% The session ends; every event of it has reached the tracer by then. seq_trace's system
%% tracer is let go if it is still this trace's.
stop(Session) ->
    _ = trace:session_destroy(Session),
    case seq_trace:get_system_tracer() of
        {beamlet_cli_tracer, _} -> _ = seq_trace:set_system_tracer(false);
        _ -> ok
    end,
    ok.

%% -e seq_trace: this trace becomes seq_trace's system tracer and the main process starts with
%% a token (label beamlet) that follows every message it sends, as seq_trace's would.
with_seq_token(false, Start) -> Start();
with_seq_token(true, Start) ->
    case seq_trace:get_system_tracer() of
        false -> ok;
        Other -> beamlet:cli_trace_note(io_lib:format("seq_trace's system tracer was ~p; now this trace", [Other]))
    end,
    _ = seq_trace:set_system_tracer({beamlet_cli_tracer, []}),
    [_ = seq_trace:set_token(Flag, true) || Flag <- [send, 'receive', print]],
    _ = seq_trace:set_token(label, beamlet),
    try Start() after seq_trace:set_token([]) end.

compile_or_stop(Pattern) ->
    case compile_pattern(Pattern) of
        {ok, Compiled} -> Compiled;
        {error, Text} ->
            beamlet:cli_trace_note(Text),
            erlang:halt(2)
    end.

set_pattern(Session, profile, {MFA, _MS, _Text}, _Returns, _Global) ->
    ensure_loaded(MFA),
    trace:function(Session, MFA, true, [call_count, call_time, call_memory]);
set_pattern(Session, trace, {MFA, MS, Text}, Returns, Global) ->
    ensure_loaded(MFA),
    MS1 = case Returns of
              true -> [{Head, Guard, with_exception_trace(Body)} || {Head, Guard, Body} <- MS];
              false -> MS
          end,
    Where = case Global of true -> [global]; false -> [local] end,
    case trace:function(Session, MFA, MS1, Where) of
        0 -> beamlet:cli_trace_note(["pattern '", Text, "' matches no function"]);
        _ -> ok
    end.

%% Whether a pattern's every clause reports returns.
returns({_, MS, _}) ->
    lists:all(fun({_, _, Body}) ->
                      lists:member({return_trace}, Body) orelse lists:member({exception_trace}, Body)
              end, MS).

with_exception_trace(Body) ->
    case lists:member({exception_trace}, Body) of
        true -> Body;
        false -> Body ++ [{exception_trace}]
    end.

ensure_loaded({'_', _, _}) -> ok;
ensure_loaded({M, _, _}) -> _ = code:ensure_loaded(M), ok.

%% The process flags: call when there are patterns, then the events asked for.
flags(Spec, Compiled) ->
    Calls = case {maps:get(kind, Spec), Compiled} of
                {profile, _} -> [call];
                {trace, []} -> [];
                {trace, _} -> [call]
            end,
    Events = [event_flag(E) || E <- maps:get(events, Spec)],
    lists:usort(Calls ++ lists:append(Events)).

event_flag(send) -> [send];

event_flag('receive') -> ['receive'];
event_flag(procs) -> [procs];
event_flag(running) -> [running];
event_flag(gc) -> [garbage_collection];
event_flag(garbage_collection) -> [garbage_collection];
event_flag(ports) -> [ports];
event_flag(seq_trace) -> [].

%% -e ports: the ports the program opens (its sockets among them) are traced too, with the
%% port events asked for (open, closed, links; sends and receives with -e send,receive).
trace_new_ports(Session, Flags) ->
    case lists:member(ports, Flags) of
        true ->
            PortFlags = [F || F <- Flags, lists:member(F, [ports, send, 'receive'])],
            _ = trace:port(Session, new, true, PortFlags),
            ok;
        false -> ok
    end.

%% Who is traced: main (the program's main process and everything it spawns), all, new, or a
%% registered name (traced once it is registered).
select_processes(Session, "main", Flags, StartMain) ->
    Inherit = [set_on_spawn | Flags],
    _ = trace:process(Session, new, true, Inherit),
    Main = StartMain(),
    _ = trace:process(Session, new, false, Inherit),
    Main;
select_processes(Session, "all", Flags, StartMain) ->
    _ = trace:process(Session, all, true, Flags),
    StartMain();
select_processes(Session, "new", Flags, StartMain) ->
    _ = trace:process(Session, new, true, Flags),
    StartMain();
select_processes(Session, Name, Flags, StartMain) ->
    Main = StartMain(),
    Self = self(),
    spawn_link(fun() -> watch_name(Session, list_to_atom(Name), Flags, Self) end),
    Main.

watch_name(Session, Name, Flags, Server) ->
    case whereis(Name) of
        Pid when is_pid(Pid) -> _ = trace:process(Session, Pid, true, Flags), unlink(Server);
        _ -> timer:sleep(2), watch_name(Session, Name, Flags, Server)
    end.

%% ---- --node: other nodes traced through dbg ----

remote(Nodes, Spec, StartMain, Parent) ->
    Compiled = [compile_or_stop(P) || P <- maps:get(patterns, Spec)],
    [connect_or_stop(N) || N <- Nodes],
    %% Names are read once, before the trace starts: a call to a node later would be traced.
    Known = maps:from_list(lists:append([registered_names(N) || N <- Nodes])),
    {ok, _} = dbg:tracer(process, {fun event/2, {Known, #{}}}),
    Relays = [{N, relay(N)} || N <- Nodes],
    Returns = maps:get(returns, Spec),
    Where = case maps:get(global, Spec) of true -> [global]; false -> [local] end,
    Patterns = [{MFA, case Returns of
                          true -> [{H, G, with_exception_trace(B)} || {H, G, B} <- MS];
                          false -> MS
                      end, Text} || {MFA, MS, Text} <- Compiled],
    [remote_pattern(Nodes, P, Where) || P <- Patterns],
    beamlet:cli_trace_calls_return(Compiled =/= [] andalso (Returns orelse lists:all(fun returns/1, Compiled))),
    Flags = flags(Spec, Compiled),
    SeqTrace = lists:member(seq_trace, maps:get(events, Spec)),
    [begin
         remote_processes(N, Relay, maps:get(procs, Spec), Flags),
         SeqTrace andalso erpc:call(N, seq_trace, set_system_tracer, [Relay]),
         monitor_node(N, true)
     end || {N, Relay} <- Relays],
    _ = StartMain(),
    Parent ! {self(), started},
    Stop = fun(Why) ->
                   [catch remote_clear(N, Relay, Flags, Patterns, Where) || {N, Relay} <- Relays],
                   _ = catch dbg:stop(),
                   beamlet:cli_trace_finish(Why),
                   erlang:halt(0)
           end,
    receive
        {stop, limit} -> Stop(limit);
        {nodedown, N} -> Stop(list_to_atom("stopped: " ++ atom_to_list(N) ++ " went down"))
    after maps:get(time_limit, Spec) -> Stop(time_limit)
    end.

%% dbg's handler here: a trace message from a node to the writer, with the names known for
%% the pids it shows first ([Seen]: those met so far).
event(Msg, {Known, Seen}) when is_tuple(Msg) ->
    New = lists:usort([P || P <- pids_of(Msg), is_pid(P), not is_map_key(P, Seen)]),
    Names = [{P, Name} || P <- New, {ok, Name} <- [maps:find(P, Known)]],
    _ = catch beamlet:cli_trace_event(Msg, Names),
    {Known, maps:merge(Seen, maps:from_keys(New, true))};
event(_, State) -> State.

%% The pids an event names: its tracee and the term (a spawn's, a link's), a send's receiver,
%% seq_trace's sender and receiver.
pids_of({seq_trace, _, {_, _, From, To, _}}) -> [From, To];
pids_of({seq_trace, _, {_, _, From, To, _}, _}) -> [From, To];
pids_of(Msg) when tuple_size(Msg) >= 4 ->
    [element(2, Msg), element(4, Msg) | [element(5, Msg) || tuple_size(Msg) >= 5]];
pids_of(_) -> [].

%% The registered processes of [Node]: [{Pid, Name}].
registered_names(Node) ->
    Names = erpc:call(Node, erlang, registered, []),
    Pids = erpc:call(Node, lists, map, [fun erlang:whereis/1, Names]),
    [{Pid, atom_to_list(Name)} || {Pid, Name} <- lists:zip(Pids, Names), is_pid(Pid)].

connect_or_stop(Node) ->
    case net_kernel:connect_node(Node) of
        true -> ok;
        _ ->
            beamlet:cli_trace_note(io_lib:format("cannot connect to ~ts (is it running, with this cookie?)", [Node])),
            erlang:halt(2)
    end.

%% dbg's relay on [Node]: the tracer there.
relay(Node) ->
    case dbg:n(Node) of
        {ok, Node} -> ok;
        Error ->
            beamlet:cli_trace_note(io_lib:format("cannot trace ~ts: ~p", [Node, Error])),
            erlang:halt(2)
    end,
    {ok, Relay} = dbg:get_tracer(Node),
    Relay.

remote_pattern(Nodes, {{M, _, _} = MFA, MS, Text}, Where) ->
    Matched = [begin
                   M =:= '_' orelse erpc:call(N, code, ensure_loaded, [M]),
                   erpc:call(N, erlang, trace_pattern, [MFA, MS, Where])
               end || N <- Nodes],
    case lists:sum(Matched) of
        0 -> beamlet:cli_trace_note(["pattern '", Text, "' matches no function"]);
        _ -> ok
    end.

remote_processes(Node, Relay, Procs, Flags) ->
    Which = case Procs of
                "all" -> all;
                "new" -> new;
                Name ->
                    case erpc:call(Node, erlang, whereis, [list_to_atom(Name)]) of
                        undefined ->
                            beamlet:cli_trace_note(io_lib:format("no process is named ~ts on ~ts", [Name, Node])),
                            none;
                        Pid -> Pid
                    end
            end,
    Which =:= none orelse erpc:call(Node, erlang, trace, [Which, true, [{tracer, Relay} | Flags]]),
    %% Not the relay itself: its sends are the trace's.
    Which =:= all andalso erpc:call(Node, erlang, trace, [Relay, false, [all]]).

%% The node as it was: no trace flags of this trace, no patterns, seq_trace's system tracer
%% let go if it is still the relay.
remote_clear(Node, Relay, Flags, Patterns, Where) ->
    _ = erpc:call(Node, erlang, trace, [all, false, Flags]),
    [_ = erpc:call(Node, erlang, trace_pattern, [MFA, false, Where]) || {MFA, _, _} <- Patterns],
    case erpc:call(Node, seq_trace, get_system_tracer, []) of
        Relay -> _ = erpc:call(Node, seq_trace, set_system_tracer, [false]);
        _ -> ok
    end,
    ok.

%% ---- patterns ----

%% A pattern (a string) as {MFA, MatchSpec, Text}, or {error, OneLineText}.
compile_pattern(Text) ->
    case erl_scan:string(Text, {1, 1}) of
        {error, {{_, Col}, Mod, Desc}, _} -> bad(Text, Col, Mod:format_error(Desc));
        {ok, Tokens, _} ->
            case brackets(Tokens, []) of
                {error, Col, Why} -> bad(Text, Col, Why);
                ok ->
                    {Head, Actions} = split_actions(Tokens, 0, []),
                    case actions(Actions, Text) of
                        {error, _} = E -> E;
                        {ok, Body} -> head(Head, Body, Text)
                    end
            end
    end.

%% Brackets that do not pair up, found before parsing (whose errors would point elsewhere).
brackets([], []) -> ok;
brackets([], [Open | _]) -> {error, column(Open), "'" ++ atom_to_list(element(1, Open)) ++ "' is never closed"};
brackets([{T, _} = Tok | Rest], Open) when T =:= '('; T =:= '['; T =:= '{'; T =:= '<<' ->
    brackets(Rest, [Tok | Open]);
brackets([{T, _} = Tok | Rest], Open) when T =:= ')'; T =:= ']'; T =:= '}'; T =:= '>>' ->
    case Open of
        [{O, _} | More] when {O, T} =:= {'(', ')'}; {O, T} =:= {'[', ']'}; {O, T} =:= {'{', '}'};
                             {O, T} =:= {'<<', '>>'} ->
            brackets(Rest, More);
        _ -> {error, column(Tok), "unexpected '" ++ atom_to_list(T) ++ "'"}
    end;
brackets([_ | Rest], Open) -> brackets(Rest, Open).

%% The head's tokens and the actions' tokens (after a "->" outside brackets).
split_actions([], _, Acc) -> {lists:reverse(Acc), []};
split_actions([{'->', _} | Rest], 0, Acc) -> {lists:reverse(Acc), Rest};
split_actions([{T, _} = Tok | Rest], Depth, Acc) when T =:= '('; T =:= '['; T =:= '{'; T =:= '<<' ->
    split_actions(Rest, Depth + 1, [Tok | Acc]);
split_actions([{T, _} = Tok | Rest], Depth, Acc) when T =:= ')'; T =:= ']'; T =:= '}'; T =:= '>>' ->
    split_actions(Rest, Depth - 1, [Tok | Acc]);
split_actions([Tok | Rest], Depth, Acc) -> split_actions(Rest, Depth, [Tok | Acc]).

actions(Tokens, Text) -> actions(Tokens, Text, []).
actions([], _Text, Acc) -> {ok, one_message(lists:reverse(Acc))};
actions([{Sep, _} | Rest], Text, Acc) when Sep =:= ';'; Sep =:= ',' -> actions(Rest, Text, Acc);
actions([{atom, _, return} | Rest], Text, Acc) -> actions(Rest, Text, [{return_trace} | Acc]);
actions([{atom, _, exception} | Rest], Text, Acc) -> actions(Rest, Text, [{exception_trace} | Acc]);
actions([{atom, _, caller} | Rest], Text, Acc) -> actions(Rest, Text, [{message, {caller}} | Acc]);
actions([{atom, _, stack} | Rest], Text, Acc) -> actions(Rest, Text, [{message, {process_dump}} | Acc]);
actions([Tok | _], Text, _) ->
    bad(Text, column(Tok), "unknown action " ++ token_text(Tok) ++ " (return, exception, caller, stack)").

%% caller and stack together: one message with both ({Caller, ProcessDump}).
one_message(Body) ->
    case [M || {message, M} <- Body] of
        [_, _ | _] = Messages -> [A || A <- Body, element(1, A) =/= message] ++ [{message, {list_to_tuple(Messages)}}];
        _ -> Body
    end.

%% Module, Module:Function, Module:*, Module:Function/Arity, Module:Function(Args) when G.
head([{atom, _, M}], Body, Text) -> {ok, {{M, '_', '_'}, [{'_', [], Body}], Text}};
head([{atom, _, M}, {':', _}, {'*', _}], Body, Text) -> {ok, {{M, '_', '_'}, [{'_', [], Body}], Text}};
head([{atom, _, M}, {':', _}, {atom, _, F}], Body, Text) -> {ok, {{M, F, '_'}, [{'_', [], Body}], Text}};
head([{atom, _, M}, {':', _}, {atom, _, F}, {'/', _}, {integer, _, A}], Body, Text) ->
    {ok, {{M, F, A}, [{'_', [], Body}], Text}};
head([{atom, _, _}, {':', _}, {atom, _, _}, {'/', _} = Slash | Rest], _Body, Text) ->
    Where = case Rest of [] -> Slash; [Tok | _] -> Tok end,
    bad(Text, column(Where), "expected an arity (an integer) after '/'");
head([{atom, _, M}, {':', _}, {atom, _, F}, {'(', L} | Rest], Body, Text) ->
    call_head(M, F, L, Rest, Body, Text);
head([], _Body, Text) -> bad(Text, 1, "expected Module, Module:Function, Module:Function/Arity or Module:Function(Args)");
head([{atom, _, _}, {':', _} | _] = Tokens, _Body, Text) ->
    bad(Text, column(lists:nth(min(3, length(Tokens)), Tokens)),
        "expected a function name, *, /Arity or (Args) after ':'");
head([Tok | _], _Body, Text) -> bad(Text, column(Tok), "expected a module name, not " ++ token_text(Tok)).

%% M:F(Args) [when Guards]: the arguments and guards as a dbg fun, made a match spec by
%% ms_transform (as dbg:fun2ms does); the actions are its clauses' body.
call_head(M, F, L, Rest, Body, Text) ->
    Loc = {1, 1},
    Fun = [{'fun', Loc}, {'(', L}, {'[', L} | open_args(Rest)] ++
          [{'->', Loc}, {atom, Loc, true}, {'end', Loc}, {dot, Loc}],
    case erl_parse:parse_exprs(Fun) of
        {error, {{_, Col}, Mod, Desc}} -> bad(Text, Col, lists:flatten(Mod:format_error(Desc)));
        {error, {_, Mod, Desc}} -> bad(Text, 1, lists:flatten(Mod:format_error(Desc)));
        {ok, [{'fun', _, {clauses, [{clause, _, [Args], _, _}] = Clauses}}]} ->
            Arity = list_length(Args),
            %% ms_transform raises on some heads it cannot translate (a remote call in an
            %% argument, found by fuzzing): those are bad patterns too.
            try ms_transform:transform_from_shell(dbg, Clauses, []) of
                {error, [{_, [{{_, Col}, _, Desc} | _]} | _], _} ->
                    bad(Text, Col, lists:flatten(ms_transform:format_error(Desc)));
                {error, _, _} -> bad(Text, 1, "not a match specification");
                MS -> {ok, {{M, F, Arity}, [{Head, Guard, Body} || {Head, Guard, _} <- MS], Text}}
            catch
                error:_ -> bad(Text, 1, "not a match specification")
            end;
        {ok, _} -> bad(Text, 1, "not a call pattern")
    end.

%% The argument tokens with the list closed before the closing parenthesis (the fun takes the
%% list of arguments): "(A, B) when G" becomes "([A, B]) when G".
open_args(Tokens) -> close_list(Tokens, 0).
close_list([{')', L} | Rest], 0) -> [{']', L}, {')', L} | Rest];
close_list([{T, _} = Tok | Rest], D) when T =:= '('; T =:= '['; T =:= '{'; T =:= '<<' -> [Tok | close_list(Rest, D + 1)];
close_list([{T, _} = Tok | Rest], D) when T =:= ')'; T =:= ']'; T =:= '}'; T =:= '>>' -> [Tok | close_list(Rest, D - 1)];
close_list([Tok | Rest], D) -> [Tok | close_list(Rest, D)];
close_list([], _) -> [].

list_length({nil, _}) -> 0;
list_length({cons, _, _, T}) -> 1 + list_length(T);
list_length(_) -> '_'.

column({_, {_, Col}}) -> Col;
column({_, {_, Col}, _}) -> Col;
column(_) -> 1.

token_text({atom, _, A}) -> "'" ++ atom_to_list(A) ++ "'";
token_text({var, _, V}) -> atom_to_list(V);
token_text({integer, _, I}) -> integer_to_list(I);
token_text({T, _, _}) -> atom_to_list(T);
token_text({T, _}) -> "'" ++ atom_to_list(T) ++ "'".

%% "bad pattern 'Text' at column N: Why" — the column is the pattern's own.
bad(Text, Col, Why) ->
    {error, lists:flatten(io_lib:format("bad pattern '~ts' at column ~w: ~ts", [Text, Col, Why]))}.

%% ---- profile ----

%% Every module in the main module's directory (the program's own code).
default_profile_patterns(Module) ->
    case code:which(Module) of
        File when is_list(File) ->
            Dir = filename:dirname(File),
            Mods = [list_to_atom(filename:basename(F, ".beam")) || F <- filelib:wildcard("*.beam", Dir)],
            [atom_to_list(M) || M <- lists:usort([Module | Mods])];
        _ -> [atom_to_list(Module)]
    end.

write_profile(Session, Spec, _Compiled) ->
    %% erlang:loaded/0, not code:all_loaded/0: on OTP's boot the code server lists only what
    %% it loaded itself, and the program's module was loaded before it started.
    Funs = [{M, F, A} || M <- erlang:loaded(),
                         {F, A} <- functions(M),
                         traced(Session, {M, F, A})],
    Rows = [row(Session, MFA) || MFA <- Funs],
    Used = [R || {_, Calls, _, _} = R <- Rows, Calls > 0],
    Text = case maps:get(per_process, Spec) of
               false -> table("beamlet profile", [{MFA, C, T, Mem} || {MFA, C, T, Mem} <- Used], Spec);
               true -> per_process(Session, Funs, Spec)
           end,
    beamlet:cli_trace_write(Text).

functions(M) ->
    try erlang:get_module_info(M, functions) catch _:_ -> [] end.  % not M:module_info/1: it is traced

traced(Session, MFA) ->
    case trace:info(Session, MFA, call_count) of
        {call_count, N} when is_integer(N) -> true;
        _ -> false
    end.

%% {MFA, Calls, Microseconds, Words} summed over processes.
row(Session, MFA) ->
    {call_count, Calls} = trace:info(Session, MFA, call_count),
    Us = case trace:info(Session, MFA, call_time) of
             {call_time, L} when is_list(L) -> lists:sum([S * 1000000 + U || {_, _, S, U} <- L]);
             _ -> 0
         end,
    Words = case trace:info(Session, MFA, call_memory) of
                {call_memory, M} when is_list(M) -> lists:sum([W || {_, _, W} <- M]);
                _ -> 0
            end,
    {MFA, Calls, Us, Words}.

per_process(Session, Funs, Spec) ->
    Per = lists:foldl(
            fun(MFA, Acc) ->
                    Times = case trace:info(Session, MFA, call_time) of
                                {call_time, L} when is_list(L) -> [{P, C, S * 1000000 + U} || {P, C, S, U} <- L];
                                _ -> []
                            end,
                    Mems = case trace:info(Session, MFA, call_memory) of
                               {call_memory, M} when is_list(M) -> [{P, W} || {P, _, W} <- M];
                               _ -> []
                           end,
                    lists:foldl(fun({P, C, Us}, A) ->
                                        W = proplists:get_value(P, Mems, 0),
                                        maps:update_with(P, fun(Rs) -> [{MFA, C, Us, W} | Rs] end, [{MFA, C, Us, W}], A)
                                end, Acc, Times)
            end, #{}, Funs),
    [table(io_lib:format("beamlet profile of ~p", [P]), Rows, Spec) || {P, Rows} <- lists:sort(maps:to_list(Per))].

%% A tprof-like table: calls, time and memory per function, with shares of the total.
table(Title, Rows, Spec) ->
    Sorted = sort_rows(Rows, maps:get(sort, Spec)),
    TotalCalls = lists:sum([C || {_, C, _, _} <- Rows]),
    TotalUs = lists:sum([T || {_, _, T, _} <- Rows]),
    TotalWords = lists:sum([W || {_, _, _, W} <- Rows]),
    Head = io_lib:format("~n****** ~ts: ~w functions, ~w calls, ~w us, ~w words ******~n~-44s ~10s ~12s ~7s ~10s ~12s ~7s~n",
                         [Title, length(Rows), TotalCalls, TotalUs, TotalWords,
                          "FUNCTION", "CALLS", "TIME (us)", "[%]", "us/CALL", "MEM (words)", "[%]"]),
    Lines = [io_lib:format("~-44ts ~10w ~12w ~7s ~10s ~12w ~7s~n",
                           [mfa(MFA), C, T, pct(T, TotalUs), per_call(T, C), W, pct(W, TotalWords)])
             || {MFA, C, T, W} <- Sorted],
    [Head, Lines].

%% Largest first by the key asked for, then by time, calls and name (a stable order for ties).
sort_rows(Rows, name) -> lists:keysort(1, Rows);
sort_rows(Rows, Key) ->
    Order = fun({MFA, C, T, W}) ->
                    case Key of
                        calls -> {-C, -T, MFA};
                        memory -> {-W, -T, MFA};
                        _time -> {-T, -C, MFA}
                    end
            end,
    [R || {_, R} <- lists:sort([{Order(R), R} || R <- Rows])].

mfa({M, F, A}) -> io_lib:format("~w:~w/~w", [M, F, A]).

pct(_, 0) -> "  0.00";
pct(X, Total) -> io_lib:format("~6.2f", [100 * X / Total]).

per_call(_, 0) -> "-";
per_call(T, C) -> io_lib:format("~.2f", [T / C]).
