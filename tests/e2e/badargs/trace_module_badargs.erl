-module(trace_module_badargs).
-export([main/0, f/1]).

%% Issue 17: the OTP 27 `trace` module (session_create/3, session_destroy/1, session_info/1,
%% process/4, port/4, function/4, send/3, recv/3, info/3, delivered/2) called with a
%% generated set of bad arguments (the same kinds as trace_badargs.erl: atoms, the right atom
%% in the wrong place, integers, floats, [], improper and 10000-deep lists and tuples, maps,
%% binaries, pids, ports, refs, funs, bad flag lists, bad {M,F,A}, malformed match specs,
%% bad session handles), and a short sequence of valid calls. One line per call:
%%     Index Function(ArgLabel, ...) Result
%% with Result {value, V} (pids, ports, refs, funs and session handles in V replaced by atoms,
%% counts of all processes/ports/functions by 'count') or {Class, Shape} (the reason's
%% top-level shape, as in trace_badargs.erl).
%%
%% HOW THE EXPECTED FILE IS DERIVED. There is no OTP 27 here: the installed erl is OTP 25,
%% which has no `trace` module. When main/0 finds no trace module (erl 25), it does not call
%% one: it computes each call's OTP 27 result with model/2 below, and tests/regen_expected.sh
%% writes that as trace_module_badargs.expected. Under beamlet (which has the trace module)
%% the real calls are made and compared with it. model/2 is OTP 27 written out:
%%  - the Erlang wrappers of OTP 27's trace.erl (kernel 10.x) as they are: process/4 and
%%    port/4 map all/existing/new (and accept processes/existing_processes/new_processes,
%%    ports/...) and anything else is a case_clause turned into badarg by
%%    error_with_inherited_info/3; process/4 and port/4 first run
%%    ensure_tracer_module_loaded(tracer, FlagList), function/4, send/3 and recv/3
%%    ensure_tracer_module_loaded(meta, FlagList), outside their try, so {tracer, M, S} /
%%    {meta, M, S} with a module that does not exist raise error:undef (as OTP 25's
%%    erlang:trace/3 does, trace_badargs.expected); delivered/2 ignores its session argument
%%    (`delivered(_Session, Tracee) -> erlang:trace_delivered(Tracee)`); session_info(all)
%%    lists every session, the legacy one ({legacy, default}) included;
%%  - erts/emulator/beam/erl_bif_trace.c (OTP 27): term_to_session/3 (a session is
%%    {MagicRef, {Name, Id}} or its weak part {Name, Id}; anything else is badarg; a destroyed
%%    session is badarg everywhere except that session_destroy/1 answers false for its strong
%%    handle; its weak handle is no longer found once the session is unlinked: badarg);
%%    trace_session_create/4 (Opts must be [], Name an atom, Tracer undefined or what
%%    erts_term_to_tracer accepts: a local pid, dead or alive, a port, or {Module, State} of a
%%    module with tracer NIFs, none of which exists here); erts_trace_flags/5 and the flag loop
%%    of trace_pattern/5 refuse every tuple ({tracer, ...}, {meta, ...}) in a session that has
%%    a tracer; call_memory is a local-kind flag like call_count; trace_info/4 and
%%    trace_info_sessions/3 (session_info of any other atom than all, new, new_processes,
%%    new_ports, on_load, send, 'receive' and any is badarg; of a tuple that is not {M,F,Arity}
%%    badarg; of a function that does not exist undefined);
%%  - everything else in those paths is the same C code as OTP 25's erlang:trace/3,
%%    trace_pattern/3, trace_info/2 and trace_delivered/1, so the model calls OTP 25's BIFs on
%%    the legacy session for it (with call_memory replaced by call_count, which the flag loop
%%    treats alike) and resets them after each call. trace_badargs.expected records what those
%%    BIFs do on erl 25.
%% The valid sequence at the end (valid/1) is written by hand from the OTP 27 documentation of
%% each function (return values 1 / 0 / true / false, {flags, L}, {traced, local}, the trace
%% messages {trace, Pid, call, {M, F, Args}} and {trace, Pid, return_from, {M, F, A}, V}).
%% What rests on the source rather than on the documentation: delivered/2 with any session
%% argument returns a ref (delivered/2 lines with a bad session); a dead pid is a valid session
%% tracer (session_create/3(name,dead,nil)); a destroyed session's weak handle is badarg in
%% session_destroy/1 (src_dead_weak, "src session_destroy(weak) after"); session_info(any)
%% lists all sessions (src_any); {tracer, Mod, State} / {meta, Mod, State} with a module that
%% does not exist is undef (src_fl_tracer_nomod, src_fl_meta_nomod); bad handles such as
%% {OtherRef, WeakHandle} or {} are badarg, not false, in session_destroy/1.

f(X) -> X.

%% ---------------------------------------------------------------------------------------------

main() ->
    Mode = case catch trace:session_info(all) of
               L when is_list(L) -> real;
               {'EXIT', {undef, _}} -> model
           end,
    erase(),
    Env = setup(Mode),
    N = run(Mode, calls(Env), 1, Env),
    N2 = valid(Mode, N, Env),
    cleanup(Mode, Env),
    io:format("calls: ~b~n", [N2 - 1]).

setup(Mode) ->
    C = spawn(fun() -> collector([]) end),
    W = spawn(fun() -> worker() end),
    Dead = spawn(fun() -> ok end),
    wait_dead(Dead),
    Port = open_port({spawn, "cat"}, [binary]),
    Closed = open_port({spawn, "cat"}, [binary]),
    port_close(Closed),
    %% S: the session the calls use; V: a victim for session_destroy/1's bad handles (built
    %% from its own handles, so that a wrong destroy does not take S away); D: destroyed.
    {S, V, D} = case Mode of
                    real ->
                        S0 = trace:session_create(badargs, C, []),
                        V0 = trace:session_create(victim, C, []),
                        D0 = trace:session_create(gone, C, []),
                        true = trace:session_destroy(D0),
                        {S0, V0, D0};
                    model ->
                        put({alive, s}, true),
                        put({alive, v}, true),
                        put({alive, d}, false),
                        {{make_ref(), {badargs, 0}}, {make_ref(), {victim, 1}},
                         {make_ref(), {gone, 2}}}
                end,
    DeepList = lists:foldl(fun(_, A) -> [A] end, [], lists:seq(1, 10000)),
    DeepImproper = lists:foldl(fun(_, A) -> [A | b] end, a, lists:seq(1, 10000)),
    DeepTuple = lists:foldl(fun(_, A) -> {A} end, a, lists:seq(1, 10000)),
    #{c => C, w => W, dead => Dead, port => Port, closed => Closed, self => self(),
      s => S, weak => element(2, S), v => V, vweak => element(2, V), d => D,
      dweak => element(2, D), ref => make_ref(),
      deep_list => DeepList, deep_improper => DeepImproper, deep_tuple => DeepTuple}.

cleanup(_Mode, #{w := W, c := C, port := Port}) ->
    W ! stop,
    wait_dead(W),
    C ! stop,
    wait_dead(C),
    catch port_close(Port),
    flush().

worker() ->
    receive
        stop -> ok;
        {run, From} -> x = f(x), From ! done, worker();
        _ -> worker()
    end.

collector(Acc) ->
    receive
        stop -> ok;
        {get, From} -> From ! {msgs, lists:reverse(Acc)}, collector([]);
        M -> collector([M | Acc])
    end.

wait_dead(P) ->
    Ref = monitor(process, P),
    receive {'DOWN', Ref, process, P, _} -> ok end.

flush() ->
    receive _ -> flush() after 0 -> ok end.

%% Everything a valid call may have set, in the session (real) or in the legacy session (model).
reset(real, #{s := S}) ->
    case get(alive_real) of
        false -> ok;
        _ ->
            %% (caught: a wrong answer to an earlier call may have taken S away)
            _ = (catch trace:process(S, all, false, [all])),
            _ = (catch trace:port(S, all, false, [all])),
            _ = (catch trace:function(S, {'_', '_', '_'}, false, [])),
            _ = (catch trace:function(S, {'_', '_', '_'}, false,
                                      [local, meta, call_count, call_time, call_memory])),
            _ = (catch trace:function(S, on_load, false, [])),
            _ = (catch trace:function(S, on_load, false,
                                      [local, meta, call_count, call_time, call_memory])),
            _ = (catch trace:send(S, true, [])),
            _ = (catch trace:recv(S, true, []))
    end,
    flush();
reset(model, _) ->
    _ = erlang:trace(all, false, [all]),
    _ = erlang:trace_pattern({'_', '_', '_'}, false, []),
    _ = erlang:trace_pattern({'_', '_', '_'}, false, [local, meta, call_count, call_time]),
    _ = erlang:trace_pattern(on_load, false, []),
    _ = erlang:trace_pattern(on_load, false, [local, meta, call_count, call_time]),
    _ = erlang:trace_pattern(send, true, []),
    _ = erlang:trace_pattern('receive', true, []),
    flush().

%% ---------------------------------------------------------------------------------------------
%% running and printing

run(_Mode, [], I, _Env) -> I;
run(Mode, [{F, Labeled} | Rest], I, Env) ->
    Args = [V || {_, V} <- Labeled],
    R = call(Mode, F, Args, Env),
    print(I, F, [L || {L, _} <- Labeled], R),
    run(Mode, Rest, I + 1, Env).

call(Mode, F, Args, Env) ->
    try exec(Mode, F, Args, Env) of
        V ->
            V1 = count(F, Args, V),
            V2 = sessions(F, norm(V1, Env)),
            drop_created(Mode, F, V),
            reset(Mode, Env),
            {value, V2}
    catch
        C:E -> reset(Mode, Env), {C, shape(E)}
    end.

exec(real, F, Args, _Env) -> apply(trace, F, Args);
exec(model, F, Args, Env) -> model(F, Args, Env).

print(I, F, Labels, R) ->
    io:format("~b ~s/~b(~s) ~9999999P~n",
              [I, F, length(Labels), lists:join(",", [atom_to_list(L) || L <- Labels]), R, 12]).

%% A session made by a session_create/3 call under test is destroyed at once.
drop_created(real, session_create, {Ref, {_, _}} = S) when is_reference(Ref) ->
    true = trace:session_destroy(S);
drop_created(_, _, _) -> ok.

count(F, [_, Spec | _], N) when (F =:= process orelse F =:= port), is_integer(N), N > 0 ->
    case lists:member(Spec, [all, existing, processes, existing_processes, ports, existing_ports]) of
        true -> count;
        false -> N
    end;
count(function, [_, {'_', _, _} | _], N) when is_integer(N), N > 0 -> count;
count(session_info, [_], L) when is_list(L) -> lists:sort(L);
count(_, _, V) -> V.

norm(T, #{self := Self, w := W, dead := D, port := P, c := C, s := S, weak := SW, d := SD,
          dweak := DW, v := V, vweak := VW, closed := Cl}) ->
    Known = [{Self, self_pid}, {W, w_pid}, {D, dead_pid}, {P, the_port}, {C, tracer_pid},
             {S, strong_s}, {SW, weak_s}, {V, strong_v}, {VW, weak_v}, {SD, strong_d},
             {DW, weak_d}, {Cl, closed_port}],
    norm1(T, Known).

norm1(T, Known) ->
    case lists:keyfind(T, 1, Known) of
        {_, Name} -> Name;
        false -> norm2(T, Known)
    end.

norm2(T, _) when is_pid(T) -> pid;
norm2(T, _) when is_port(T) -> port;
norm2(T, _) when is_reference(T) -> ref;
norm2(T, _) when is_function(T) -> 'fun';
norm2([H | T], K) -> [norm1(H, K) | norm1(T, K)];
norm2(T, K) when is_tuple(T) -> list_to_tuple([norm1(E, K) || E <- tuple_to_list(T)]);
norm2(T, K) when is_map(T) -> maps:from_list([{norm1(A, K), norm1(B, K)} || {A, B} <- maps:to_list(T)]);
norm2(T, _) -> T.

%% Session handles other than the known ones: their ids are not stable.
sessions(session_create, {ref, {Name, Id}}) when is_integer(Id) -> {ref, {Name, id}};
sessions(session_info, L) when is_list(L) ->
    [case X of {Name, Id} when is_integer(Id) -> {Name, id}; _ -> X end || X <- L];
sessions(_, V) -> V.

shape(A) when is_atom(A) -> A;
shape(T) when is_tuple(T), tuple_size(T) > 0, is_atom(element(1, T)) ->
    list_to_atom(atom_to_list(element(1, T)) ++ "_tuple");
shape(T) when is_tuple(T) -> tuple;
shape(L) when is_list(L) -> list;
shape(_) -> other.

%% ---------------------------------------------------------------------------------------------
%% the model of OTP 27 (see the top of the file)

%% term_to_session/3: the live session's strong or weak handle; with AllowDead, the destroyed
%% session's strong handle too (its weak handle is gone from the session list).
session(X, AllowDead, #{s := S, weak := SW, v := V, vweak := VW, d := D, dweak := DW}) ->
    Known = [{S, SW, s}, {V, VW, v}, {D, DW, d}],
    case [{Strong, Key} || {Strong, Weak, Key} <- Known, X =:= Strong orelse X =:= Weak] of
        [{Strong, Key}] ->
            case get({alive, Key}) of
                true -> {ok, live, Key};
                false when AllowDead, X =:= Strong -> {ok, dead};
                false -> error(badarg)
            end;
        [] -> error(badarg)
    end.

live_weak(Env) ->
    [maps:get(W, Env) || {K, W} <- [{s, weak}, {v, vweak}], get({alive, K})].

%% Copied from OTP 27's trace.erl (itself a copy of erlang.erl's).
ensure_tracer_module_loaded(Flag, [{Flag, Module, State} | T]) when is_atom(Module) ->
    case erlang:module_loaded(Module) of
        false -> Module:enabled(trace_status, erlang:self(), State);
        true -> ensure_tracer_module_loaded(Flag, T)
    end;
ensure_tracer_module_loaded(Flag, [_ | T]) ->
    ensure_tracer_module_loaded(Flag, T);
ensure_tracer_module_loaded(_, _) ->
    ok.

%% erts_trace_flags/5 and trace_pattern/5's flag loop in a session that has a tracer.
no_tuples(L) when is_list(L) ->
    case lists:any(fun erlang:is_tuple/1, proper_part(L)) of
        true -> error(badarg);
        false -> ok
    end;
no_tuples(_) -> ok.

proper_part([H | T]) -> [H | proper_part(T)];
proper_part(_) -> [].

memory_as_count(L) when is_list(L) ->
    [case X of call_memory -> call_count; _ -> X end || X <- proper_part(L)] ++ improper_tail(L);
memory_as_count(X) -> X.

improper_tail([_ | T]) -> improper_tail(T);
improper_tail([]) -> [];
improper_tail(X) -> X.

model(session_create, [Name, Tracer, Opts], _Env) ->
    (Opts =:= [] andalso is_atom(Name)) orelse error(badarg),
    Ok = Tracer =:= undefined orelse is_pid(Tracer) orelse is_port(Tracer),
    Ok orelse error(badarg),
    {make_ref(), {Name, 99}};
model(session_destroy, [X], Env) ->
    case session(X, true, Env) of
        {ok, live, Key} -> put({alive, Key}, false), true;
        {ok, dead} -> false
    end;
model(session_info, [all], Env) ->
    [{legacy, default} | live_weak(Env)];
model(session_info, [any], Env) ->
    model(session_info, [all], Env);
model(session_info, [X], Env) when is_atom(X) ->
    case lists:member(X, [new, new_processes, new_ports, on_load]) of
        true -> [];
        false ->
            case lists:member(X, [send, 'receive']) of
                true -> model(session_info, [all], Env);
                false -> error(badarg)
            end
    end;
model(session_info, [X], _Env) when is_pid(X); is_port(X) ->
    %% nothing is traced in the generated calls: [] for a live process or port
    case erlang:trace_info(X, flags) of
        undefined -> undefined;
        {flags, _} -> []
    end;
model(session_info, [{M, F, A}], _Env) when is_atom(M), is_atom(F), is_integer(A) ->
    case erlang:trace_info({M, F, A}, traced) of
        {traced, undefined} -> undefined;
        {traced, false} -> []
    end;
model(session_info, [_], _Env) ->
    error(badarg);
model(process, [Sess, Procs, How, Flags], Env) ->
    ensure_tracer_module_loaded(tracer, Flags),
    P = case Procs of
            _ when is_pid(Procs) -> Procs;
            all -> processes;
            existing -> existing_processes;
            new -> new_processes;
            processes -> Procs;
            existing_processes -> Procs;
            new_processes -> Procs;
            _ -> error(badarg)
        end,
    {ok, live, _} = session(Sess, false, Env),
    no_tuples(Flags),
    erlang:trace(P, How, Flags);
model(port, [Sess, Ports, How, Flags], Env) ->
    ensure_tracer_module_loaded(tracer, Flags),
    P = case Ports of
            _ when is_port(Ports) -> Ports;
            all -> ports;
            existing -> existing_ports;
            new -> new_ports;
            ports -> Ports;
            existing_ports -> Ports;
            new_ports -> Ports;
            _ -> error(badarg)
        end,
    {ok, live, _} = session(Sess, false, Env),
    no_tuples(Flags),
    erlang:trace(P, How, Flags);
model(function, [Sess, MFA, MS, Flags], Env) ->
    ensure_tracer_module_loaded(meta, Flags),
    {ok, live, _} = session(Sess, false, Env),
    no_tuples(Flags),
    erlang:trace_pattern(MFA, MS, memory_as_count(Flags));
model(send, [Sess, MS, Flags], Env) ->
    ensure_tracer_module_loaded(meta, Flags),
    {ok, live, _} = session(Sess, false, Env),
    no_tuples(Flags),
    erlang:trace_pattern(send, MS, Flags);
model(recv, [Sess, MS, Flags], Env) ->
    ensure_tracer_module_loaded(meta, Flags),
    {ok, live, _} = session(Sess, false, Env),
    no_tuples(Flags),
    erlang:trace_pattern('receive', MS, Flags);
model(info, [Sess, What, Item], Env) ->
    {ok, live, _} = session(Sess, false, Env),
    erlang:trace_info(What, Item);
model(delivered, [_Sess, Tracee], _Env) ->
    erlang:trace_delivered(Tracee).

%% ---------------------------------------------------------------------------------------------
%% argument sets: {Label, Value}

bad(#{dead := Dead, port := Port, ref := Ref, self := Self, deep_list := DL,
      deep_improper := DI, deep_tuple := DT}) ->
    [{foo, foo}, {true, true}, {false, false}, {all, all}, {call, call}, {send, send},
     {us, '_'}, {undefined, undefined}, {new, new}, {existing, existing},
     {i0, 0}, {i1, 1}, {im1, -1}, {big, 1 bsl 70}, {f15, 1.5},
     {nil, []}, {impr_ab, [a | b]}, {str, "abc"},
     {deep_list, DL}, {deep_improper, DI}, {deep_tuple, DT},
     {tup0, {}}, {tup3, {a, b, c}}, {map1, #{a => 1}}, {bin3, <<1, 2, 3>>}, {bits, <<1:3>>},
     {self, Self}, {dead, Dead}, {port, Port}, {ref, Ref},
     {fun_local, fun() -> ok end}, {fun_ext, fun lists:map/2}].

%% Bad handles; those built from a live session's parts use session Key's (s or v).
bad_sessions(Key, #{d := D, dweak := DW, deep_list := DL, deep_tuple := DT, self := Self} = Env) ->
    S = maps:get(Key, Env),
    Weak = element(2, S),
    Strong = element(1, S),
    [{foo, foo}, {i1, 1}, {nil, []}, {tup0, {}}, {tup1, {badargs}},
     {weak_unknown, {badargs, 999999}}, {weak_not_int, {badargs, x}},
     {weak_big, {badargs, 1 bsl 70}}, {weak_name_int, {1, 0}},
     {plain_ref_weak, {make_ref(), Weak}}, {strong_other_weak, {Strong, {other, 0}}},
     {strong_atom, {Strong, foo}}, {strong_alone, Strong}, {strong_3, {Strong, Weak, x}},
     {list_s, [S]}, {str, "abc"}, {bin, <<>>}, {map, #{}}, {self, Self},
     {deep_tuple, DT}, {deep_list, DL}, {dead_strong, D}, {src_dead_weak, DW},
     {legacy, {legacy, default}}, {tup3, {a, b, c}}].

ms_set(#{deep_list := DL, deep_tuple := DT}) ->
    [{ms_true, true}, {ms_false, false}, {ms_nil, []}, {ms_restart, restart}, {ms_pause, pause},
     {ms_ok, [{'_', [], [true]}]},
     {ms_args, [{['$1'], [{is_integer, '$1'}], [{message, '$1'}]}]},
     {ms_return, [{'_', [], [{return_trace}]}]},
     {ms_caller, [{'_', [], [{message, {caller}}]}]},
     {ms_seq, [{'_', [], [{set_seq_token, label, 1}]}]},
     {ms_silent, [{'_', [], [{silent, true}]}]},
     {ms_trace, [{'_', [], [{trace, [send], []}]}]},
     {ms_not_list, {'_', [], [true]}},
     {ms_improper, [{'_', [], [true]} | bad]},
     {ms_body_atom, [{'_', [], true}]},
     {ms_guard_atom, [{'_', bad, [true]}]},
     {ms_2tuple, [{'_', []}]},
     {ms_elem_atom, [foo]},
     {ms_unbound_body, [{['$1'], [], ['$2']}]},
     {ms_bad_guard_fun, [{'_', [{bogus_fun, 1}], [true]}]},
     {ms_bad_body_fun, [{'_', [], [{bogus_action}]}]},
     {ms_impr_body, [{'_', [], [true | x]}]},
     {ms_head_int, [{1, [], [true]}]},
     {ms_deep_head, [{[DT], [], [true]}]},
     {ms_deep_list, DL},
     {ms_map, #{a => 1}}].

ms_few(Env) ->
    Keep = [ms_true, ms_false, ms_nil, ms_restart, ms_ok, ms_improper],
    [P || {L, _} = P <- ms_set(Env), lists:member(L, Keep)].

mfa_set(#{deep_list := DL}) ->
    [{mfa_f1, {?MODULE, f, 1}}, {mfa_f_us, {?MODULE, f, '_'}}, {mfa_m_us_us, {?MODULE, '_', '_'}},
     {mfa_all_us, {'_', '_', '_'}}, {mfa_nofun, {?MODULE, nofun, 1}},
     {mfa_nomod, {nomod_xyz, f, 1}}, {mfa_arity_m1, {?MODULE, f, -1}},
     {mfa_arity_256, {?MODULE, f, 256}}, {mfa_arity_big, {?MODULE, f, 1 bsl 70}},
     {mfa_arity_atom, {?MODULE, f, foo}}, {mfa_us_f_1, {'_', f, 1}}, {mfa_m_us_1, {?MODULE, '_', 1}},
     {mfa_fun_str, {?MODULE, "f", 1}}, {mfa_mod_int, {1, f, 1}}, {mfa_deep, {?MODULE, f, DL}},
     {mfa_2, {?MODULE, f}}, {mfa_4, {?MODULE, f, 1, x}}, {mfa_list, [?MODULE, f, 1]},
     {on_load, on_load}, {send, send}, {'receive', 'receive'}].

mfa_few(Env) ->
    Keep = [mfa_f1, mfa_m_us_us, mfa_us_f_1, on_load, send],
    [P || {L, _} = P <- mfa_set(Env), lists:member(L, Keep)].

fn_flags(#{self := Self, port := Port, deep_list := DL}) ->
    [{fl_nil, []}, {fl_global, [global]}, {fl_local, [local]}, {fl_meta, [meta]},
     {fl_meta_self, [{meta, Self}]}, {fl_meta_port, [{meta, Port}]},
     {src_fl_meta_nomod, [{meta, nomod_xyz, []}]}, {fl_meta_lists, [{meta, lists, []}]},
     {fl_call_count, [call_count]}, {fl_call_time, [call_time]}, {fl_call_memory, [call_memory]},
     {fl_global_local, [global, local]}, {fl_global_memory, [global, call_memory]},
     {fl_local_meta, [local, meta]}, {fl_count_memory, [call_count, call_memory]},
     {fl_local_bogus, [local, bogus]}, {fl_bogus, [bogus]}, {fl_atom, local},
     {fl_impr, [local | meta]}, {fl_deep, DL}, {fl_int, [1]}, {fl_map, #{}}].

proc_flags(#{self := Self, dead := Dead, port := Port, deep_list := DL, w := W}) ->
    [{fl_nil, []}, {fl_call, [call]}, {fl_all, [all]}, {fl_send_recv, [send, 'receive']},
     {fl_procs, [procs]}, {fl_ports, [ports]}, {fl_running, [running, exiting]},
     {fl_running_pp, [running_procs, running_ports]}, {fl_gc, [garbage_collection]},
     {fl_sos, [set_on_spawn, set_on_first_spawn, set_on_link, set_on_first_link]},
     {fl_ts, [timestamp, monotonic_timestamp, strict_monotonic_timestamp]},
     {fl_cpu_ts, [cpu_timestamp]}, {fl_arity, [call, arity, return_to, silent]},
     {fl_sched_id, [scheduler_id]}, {fl_meta, [meta]}, {fl_call_memory, [call_memory]},
     {fl_call_bogus, [call, bogus]}, {fl_atom, call}, {fl_impr, [call | send]}, {fl_deep, DL},
     {fl_tracer_self, [call, {tracer, Self}]}, {fl_tracer_w, [call, {tracer, W}]},
     {fl_tracer_dead, [call, {tracer, Dead}]}, {fl_tracer_port, [call, {tracer, Port}]},
     {fl_tracer_atom, [call, {tracer, foo}]}, {src_fl_tracer_nomod, [call, {tracer, nomod_xyz, []}]},
     {fl_tracer_lists, [call, {tracer, lists, []}]}, {fl_tuple_call, [{call}]},
     {fl_str, ["call"]}, {fl_map, #{call => true}}, {fl_dup_send, lists:duplicate(10000, send)},
     {fl_dup_bogus, lists:duplicate(10000, send) ++ [bogus]}].

proc_groups() ->
    [{processes, processes}, {existing_processes, existing_processes},
     {new_processes, new_processes}, {ports, ports}, {existing_ports, existing_ports},
     {new_ports, new_ports}].

info_items(#{deep_list := DL}) ->
    [{flags, flags}, {tracer, tracer}, {traced, traced}, {match_spec, match_spec},
     {meta, meta}, {call_count, call_count}, {call_memory, call_memory}, {all, all},
     {session, session}, {foo, foo}, {deep_list, DL}].

%% ---------------------------------------------------------------------------------------------
%% the calls: {Function, [{Label, Value}]}

cross(F, Sets) -> [{F, Args} || Args <- product(Sets)].

product([]) -> [[]];
product([S | Rest]) -> [[X | T] || X <- S, T <- product(Rest)].

calls(Env = #{w := W, port := Port, closed := Closed, c := C, self := Self}) ->
    Bad = bad(Env),
    BadS = bad_sessions(s, Env),
    S = [{s, maps:get(s, Env)}],
    Weak = [{weak, maps:get(weak, Env)}],
    Ws = [{w, W}],
    Ps = [{the_port, Port}],
    T = [{true, true}],
    F1 = [{mfa_f1, {?MODULE, f, 1}}],
    Extra = [{w, W}, {closed_port, Closed}],
    lists:append(
      [%% every function with a bad session handle
       cross(process, [BadS, Ws, T, [{fl_call, [call]}]]),
       cross(port, [BadS, Ps, T, [{fl_send, [send]}]]),
       cross(function, [BadS, F1, T, [{fl_local, [local]}]]),
       cross(send, [BadS, T, [{nil, []}]]),
       cross(recv, [BadS, T, [{nil, []}]]),
       cross(info, [BadS, Ws, [{flags, flags}]]),
       cross(delivered, [BadS, [{self, Self}]]),
       %% the weak handle is a handle
       cross(process, [Weak, Ws, T, [{fl_call, [call]}]]),
       cross(info, [Weak, Ws, [{flags, flags}]]),
       %% process/4
       cross(process, [S, Bad ++ proc_groups() ++ Extra,
                       [{true, true}, {false, false}, {foo, foo}, {nil, []}],
                       [{fl_call, [call]}, {fl_nil, []}]]),
       cross(process, [S, Ws ++ [{self, Self}, {new, new}], [{true, true}, {false, false}],
                       proc_flags(Env)]),
       %% port/4
       cross(port, [S, Bad ++ proc_groups() ++ Extra, [{true, true}, {foo, foo}],
                    [{fl_send, [send]}, {fl_nil, []}]]),
       cross(port, [S, Ps ++ [{new, new}], T, proc_flags(Env)]),
       %% function/4
       cross(function, [S, mfa_set(Env) ++ Bad, T, [{fl_local, [local]}]]),
       cross(function, [S, F1, ms_set(Env) ++ Bad, [{fl_local, [local]}, {fl_meta, [meta]}]]),
       cross(function, [S, F1, T, Bad]),
       cross(function, [S, mfa_few(Env), ms_few(Env), fn_flags(Env)]),
       %% send/3, recv/3
       cross(send, [S, ms_set(Env) ++ Bad, [{nil, []}]]),
       cross(recv, [S, ms_set(Env) ++ Bad, [{nil, []}]]),
       cross(send, [S, ms_few(Env), fn_flags(Env) ++ Bad]),
       cross(recv, [S, ms_few(Env), fn_flags(Env) ++ Bad]),
       %% info/3
       cross(info, [S, mfa_set(Env) ++ Bad ++ proc_groups() ++ Extra, info_items(Env)]),
       %% delivered/2
       cross(delivered, [S, Bad ++ proc_groups() ++ Extra]),
       %% session_create/3
       cross(session_create, [Bad, [{tracer_pid, C}], [{nil, []}]]),
       cross(session_create, [[{name, bad_name}],
                              [P || {L, _} = P <- Bad, L =/= nil] ++
                                  [{mod_nomod, {nomod_xyz, []}}, {mod_lists, {lists, []}},
                                   {tup1, {C}}, {tup3_pid, {C, x, y}}],
                              [{nil, []}]]),
       cross(session_create, [[{name, bad_name}], [{tracer_pid, C}], Bad]),
       %% session_info/1
       cross(session_info, [Bad ++ mfa_set(Env) ++ proc_groups() ++ Extra ++ [{src_any, any}]]),
       %% session_destroy/1 of bad handles (made from the victim session V), then of V
       cross(session_destroy, [bad_sessions(v, Env)]),
       cross(session_destroy, [[{v, maps:get(v, Env)}]]),
       cross(session_destroy, [[{v_again, maps:get(v, Env)}]]),
       cross(session_info, [[{all, all}]])
      ]).

%% ---------------------------------------------------------------------------------------------
%% valid calls, then the session's end: {Label, Call, OTP 27's documented result}

valid(Mode, I, Env = #{s := S, weak := SW, w := W, c := C}) ->
    %% the tracer drops what the generated calls made it receive
    C ! {get, self()},
    receive {msgs, _} -> ok end,
    MS = [{'_', [], [{return_trace}]}],
    Steps =
        [{"session_info(all) has ours", fun() -> lists:member(SW, trace:session_info(all)) end, true},
         {"process(S, w, true, [call])", fun() -> trace:process(S, W, true, [call]) end, 1},
         {"function(S, f/1, return_trace, [local])",
          fun() -> trace:function(S, {?MODULE, f, 1}, MS, [local]) end, 1},
         {"info(S, w, flags)", fun() -> trace:info(S, W, flags) end, {flags, [call]}},
         {"info(S, w, tracer)", fun() -> trace:info(S, W, tracer) end, {tracer, C}},
         {"info(S, f/1, traced)", fun() -> trace:info(S, {?MODULE, f, 1}, traced) end, {traced, local}},
         {"info(S, f/1, match_spec)", fun() -> trace:info(S, {?MODULE, f, 1}, match_spec) end,
          {match_spec, MS}},
         {"session_info(w)", fun() -> trace:session_info(W) end, [SW]},
         {"session_info(f/1)", fun() -> trace:session_info({?MODULE, f, 1}) end, [SW]},
         {"w calls f(x): the tracer's messages",
          fun() -> W ! {run, self()},
                   receive done -> ok end,
                   Ref = trace:delivered(S, W),
                   receive {trace_delivered, W, Ref} -> ok end,
                   C ! {get, self()},
                   receive {msgs, Ms} -> Ms end
          end,
          [{trace, W, call, {?MODULE, f, [x]}}, {trace, W, return_from, {?MODULE, f, 1}, x}]},
         {"process(weak, w, false, [call])", fun() -> trace:process(SW, W, false, [call]) end, 1},
         {"info(S, w, flags) after", fun() -> trace:info(S, W, flags) end, {flags, []}},
         {"function(S, f/1, false, [local])", fun() -> trace:function(S, {?MODULE, f, 1}, false, [local]) end, 1},
         {"function(S, f/1, true, [call_memory])",
          fun() -> trace:function(S, {?MODULE, f, 1}, true, [call_memory]) end, 1},
         {"info(S, f/1, call_memory)", fun() -> trace:info(S, {?MODULE, f, 1}, call_memory) end,
          {call_memory, []}},
         {"function(S, f/1, true, [call_count])",
          fun() -> trace:function(S, {?MODULE, f, 1}, true, [call_count]) end, 1},
         {"info(S, f/1, call_count)", fun() -> trace:info(S, {?MODULE, f, 1}, call_count) end,
          {call_count, 0}},
         {"function(S, on_load, true, [local])", fun() -> trace:function(S, on_load, true, [local]) end, 0},
         {"info(S, on_load, traced)", fun() -> trace:info(S, on_load, traced) end, {traced, local}},
         {"send(S, ms, [])", fun() -> trace:send(S, [{['_', hello], [], []}], []) end, 1},
         {"info(S, send, match_spec)", fun() -> trace:info(S, send, match_spec) end,
          {match_spec, [{['_', hello], [], []}]}},
         {"recv(S, false, [])", fun() -> trace:recv(S, false, []) end, 1},
         {"info(S, receive, match_spec)", fun() -> trace:info(S, 'receive', match_spec) end,
          {match_spec, false}},
         {"session_destroy(S)", fun() -> put(alive_real, false), trace:session_destroy(S) end, true},
         {"session_destroy(S) again", fun() -> trace:session_destroy(S) end, false},
         {"src session_destroy(weak) after", fun() -> trace:session_destroy(SW) end, badarg},
         {"info(S, w, flags) after destroy", fun() -> trace:info(S, W, flags) end, badarg},
         {"process(S, w, true, [call]) after destroy", fun() -> trace:process(S, W, true, [call]) end, badarg},
         {"session_info(w) after destroy", fun() -> trace:session_info(W) end, []},
         {"session_info(all) after destroy has ours",
          fun() -> lists:member(SW, trace:session_info(all)) end, false}],
    lists:foldl(
      fun({Label, Fun, Documented}, N) ->
              R = case Mode of
                      real ->
                          try Fun() of V -> {value, norm(V, Env)}
                          catch Cl:E -> {Cl, shape(E)}
                          end;
                      model when Documented =:= badarg -> {error, badarg};
                      model -> {value, norm(Documented, Env)}
                  end,
              io:format("~b valid ~s: ~9999999P~n", [N, Label, R, 12]),
              N + 1
      end, I, Steps).
