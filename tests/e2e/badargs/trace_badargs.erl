-module(trace_badargs).
-export([main/0, f/1, g/0]).

%% Issue 17: every BIF of the trace family called with a wide, generated set of bad arguments
%% (atoms, the right atom in the wrong place, integers small/big/negative, floats, [], improper
%% lists, 10000-deep lists and tuples, maps, binaries, bitstrings, pids (self, a dead one),
%% a port, a ref, funs, strings, flag lists with one bad flag, {M,F,A} with bad elements,
%% malformed match specs, bad tracer options), with a few valid calls mixed in. Each call is
%% made through apply/3 inside try/catch and prints one line:
%%     Index BIF(ArgLabel, ...) Result
%% where Result is {value, V} (pids, ports, refs and funs in V replaced by atoms; a count that
%% depends on how many processes, ports or loaded functions the system has replaced by 'count')
%% or {Class, Shape}: the error's class and the top-level shape of its reason (badarg, or
%% {badarg, ...} as badarg_tuple), so that only what OTP guarantees is compared.
%% After every call that returned a value, all tracing state is reset (process/port flags,
%% every trace pattern, on_load/send/'receive' patterns, the sequential trace token and system
%% tracer, the system monitor) and the mailbox is flushed, so no call depends on an earlier one.
%% BIFs covered (OTP 25): erlang:trace/3, trace_pattern/2,3, trace_info/2, trace_delivered/1,
%% match_spec_test/3, seq_trace/2, seq_trace_info/1, seq_trace_print/1,2, system_monitor/1,2,
%% and seq_trace:set_token/1,2, get_token/1, set_system_tracer/1 (which call them).
%% erlang:system_profile/2 is left out (beamlet does not implement it).

f(X) -> X.
g() -> ok.

main() ->
    Env = setup(),
    reset(),
    Calls = calls(Env),
    N = run(Calls, 1, Env),
    reset(),
    cleanup(Env),
    io:format("calls: ~b~n", [N - 1]).

%% ---------------------------------------------------------------------------------------------
%% environment

setup() ->
    W = spawn(fun() -> worker() end),
    Dead = spawn(fun() -> ok end),
    wait_dead(Dead),
    Port = open_port({spawn, "cat"}, [binary]),
    Closed = open_port({spawn, "cat"}, [binary]),
    port_close(Closed),
    Ref = make_ref(),
    DeepList = lists:foldl(fun(_, A) -> [A] end, [], lists:seq(1, 10000)),
    DeepImproper = lists:foldl(fun(_, A) -> [A | b] end, a, lists:seq(1, 10000)),
    DeepTuple = lists:foldl(fun(_, A) -> {A} end, a, lists:seq(1, 10000)),
    DeepPair = lists:foldl(fun(_, A) -> {a, A} end, a, lists:seq(1, 10000)),
    #{w => W, dead => Dead, port => Port, ref => Ref, self => self(),
      deep_list => DeepList, deep_improper => DeepImproper, deep_tuple => DeepTuple,
      deep_pair => DeepPair, closed => Closed}.

worker() ->
    receive stop -> ok; _ -> worker() end.

cleanup(#{w := W, port := Port}) ->
    W ! stop,
    wait_dead(W),
    catch port_close(Port),
    flush().

wait_dead(P) ->
    Ref = monitor(process, P),
    receive {'DOWN', Ref, process, P, _} -> ok end.

flush() ->
    receive _ -> flush() after 0 -> ok end.

reset() ->
    _ = erlang:trace(all, false, [all]),
    _ = erlang:trace_pattern({'_', '_', '_'}, false, []),
    _ = erlang:trace_pattern({'_', '_', '_'}, false, [local, meta, call_count, call_time]),
    _ = erlang:trace_pattern(on_load, false, []),
    _ = erlang:trace_pattern(on_load, false, [local, meta, call_count, call_time]),
    _ = erlang:trace_pattern(send, true, []),
    _ = erlang:trace_pattern('receive', true, []),
    _ = erlang:seq_trace(sequential_trace_token, []),
    _ = erlang:system_flag(sequential_tracer, false),
    _ = erlang:system_monitor(undefined),
    flush(),
    ok.

%% ---------------------------------------------------------------------------------------------
%% running and printing

run([], I, _Env) -> I;
run([{M, F, Labeled} | Rest], I, Env) ->
    Args = [V || {_, V} <- Labeled],
    R = try apply(M, F, Args) of
            V -> reset(), {value, norm(count(M, F, Args, V), Env)}
        catch
            C:E -> reset(), {C, shape(E)}
        end,
    Label = [name(M, F, length(Args)), "(",
             lists:join(",", [atom_to_list(L) || {L, _} <- Labeled]), ")"],
    %% One line (a huge line width), depth-limited (the deep terms), strings as strings.
    io:format("~b ~s ~9999999P~n", [I, Label, R, 12]),
    run(Rest, I + 1, Env).

name(erlang, F, A) -> io_lib:format("~s/~b", [F, A]);
name(M, F, A) -> io_lib:format("~s:~s/~b", [M, F, A]).

%% Counts that depend on the whole system (how many processes, ports or functions are loaded)
%% rather than on the arguments.
count(erlang, trace, [Spec | _], N) when is_integer(N) ->
    case lists:member(Spec, [all, existing, processes, existing_processes,
                             ports, existing_ports]) of
        true -> count;
        false -> N
    end;
count(erlang, trace_pattern, [{'_', _, _} | _], N) when is_integer(N), N > 0 -> count;
count(_, _, _, V) -> V.

norm(T, #{self := S, w := W, dead := D, port := P}) -> norm1(T, S, W, D, P).
%% (the closed port never appears in a result: trace_info/2 answers undefined for it)

norm1(T, S, _, _, _) when T =:= S -> self_pid;
norm1(T, _, W, _, _) when T =:= W -> w_pid;
norm1(T, _, _, D, _) when T =:= D -> dead_pid;
norm1(T, _, _, _, P) when T =:= P -> the_port;
norm1(T, _, _, _, _) when is_pid(T) -> pid;
norm1(T, _, _, _, _) when is_port(T) -> port;
norm1(T, _, _, _, _) when is_reference(T) -> ref;
norm1(T, _, _, _, _) when is_function(T) -> 'fun';
norm1([H | T], S, W, D, P) -> [norm1(H, S, W, D, P) | norm1(T, S, W, D, P)];
norm1(T, S, W, D, P) when is_tuple(T) ->
    list_to_tuple([norm1(E, S, W, D, P) || E <- tuple_to_list(T)]);
norm1(T, S, W, D, P) when is_map(T) ->
    maps:from_list([{norm1(K, S, W, D, P), norm1(V, S, W, D, P)} || {K, V} <- maps:to_list(T)]);
norm1(T, _, _, _, _) -> T.

shape(A) when is_atom(A) -> A;
shape(T) when is_tuple(T), tuple_size(T) > 0, is_atom(element(1, T)) ->
    list_to_atom(atom_to_list(element(1, T)) ++ "_tuple");
shape(T) when is_tuple(T) -> tuple;
shape(L) when is_list(L) -> list;
shape(_) -> other.

%% ---------------------------------------------------------------------------------------------
%% argument sets: {Label, Value}

bad(#{w := _W, dead := Dead, port := Port, ref := Ref, self := Self,
      deep_list := DL, deep_improper := DI, deep_tuple := DT, deep_pair := DP}) ->
    [{foo, foo}, {true, true}, {false, false}, {all, all}, {call, call}, {send, send},
     {us, '_'}, {undefined, undefined}, {new, new}, {existing, existing},
     {i0, 0}, {i1, 1}, {im1, -1}, {i255, 255}, {i256, 256},
     {big, 1 bsl 70}, {nbig, -(1 bsl 70)}, {f15, 1.5}, {fm0, -0.0},
     {nil, []}, {impr_ab, [a | b]}, {impr_cs, [call | send]}, {str, "abc"},
     {deep_list, DL}, {deep_improper, DI}, {deep_tuple, DT}, {deep_pair, DP},
     {tup0, {}}, {tup3, {a, b, c}}, {map0, #{}}, {map1, #{a => 1}},
     {bin0, <<>>}, {bin3, <<1, 2, 3>>}, {bits, <<1:3>>},
     {self, Self}, {dead, Dead}, {port, Port}, {ref, Ref},
     {fun_local, fun() -> ok end}, {fun_ext, fun lists:map/2}].

%% A smaller set for cross products.
few(#{dead := Dead, deep_list := DL, self := Self}) ->
    [{foo, foo}, {im1, -1}, {big, 1 bsl 70}, {f15, 1.5}, {nil, []}, {impr_ab, [a | b]},
     {deep_list, DL}, {map1, #{a => 1}}, {bin3, <<1, 2, 3>>}, {self, Self}, {dead, Dead}].

ms_set(#{deep_list := DL, deep_tuple := DT, deep_pair := DP}) ->
    [{ms_true, true}, {ms_false, false}, {ms_nil, []}, {ms_restart, restart}, {ms_pause, pause},
     {ms_ok, [{'_', [], [true]}]},
     {ms_args, [{['$1'], [{is_integer, '$1'}], [{message, '$1'}]}]},
     {ms_return, [{'_', [], [{return_trace}]}]},
     {ms_exception, [{'_', [], [{exception_trace}]}]},
     {ms_caller, [{'_', [], [{message, {caller}}]}]},
     {ms_seq, [{'_', [], [{set_seq_token, label, 1}]}]},
     {ms_silent, [{'_', [], [{silent, true}]}]},
     {ms_trace, [{'_', [], [{trace, [send], []}]}]},
     {ms_enable, [{'_', [], [{enable_trace, send}]}]},
     {ms_tuple_head, [{{'$1', '_'}, [], [true]}]},
     {ms_display, [{'_', [], [{display, hello}]}]},
     {ms_proc_dump, [{'_', [], [{process_dump}]}]},
     {ms_self, [{'_', [], [{self}]}]},
     {ms_const_deep, [{'_', [], [{const, DL}]}]},
     {ms_two, [{[a], [], [true]}, {'_', [], [false]}]},
     %% malformed
     {ms_not_list, {'_', [], [true]}},
     {ms_improper, [{'_', [], [true]} | bad]},
     {ms_body_atom, [{'_', [], true}]},
     {ms_guard_atom, [{'_', bad, [true]}]},
     {ms_2tuple, [{'_', []}]},
     {ms_4tuple, [{'_', [], [true], x}]},
     {ms_elem_atom, [foo]},
     {ms_unbound_body, [{['$1'], [], ['$2']}]},
     {ms_unbound_guard, [{'_', [{is_atom, '$1'}], [true]}]},
     {ms_bad_guard_fun, [{'_', [{bogus_fun, 1}], [true]}]},
     {ms_guard_arity, [{'_', [{'==', 1}], [true]}]},
     {ms_bad_body_fun, [{'_', [], [{bogus_action}]}]},
     {ms_impr_head, [{[a | b], [], [true]}]},
     {ms_impr_guard, [{'_', [true | x], [true]}]},
     {ms_impr_body, [{'_', [], [true | x]}]},
     {ms_head_int, [{1, [], [true]}]},
     {ms_bad_var, [{'_', [], ['$foo']}]},
     {ms_dollar_us_head, [{['$_'], [], [true]}]},
     {ms_return_args, [{'_', [], [{return_trace, x}]}]},
     {ms_seq_bad, [{'_', [], [{set_seq_token, bogus, 1}]}]},
     {ms_deep_head, [{[DT], [], [true]}]},
     {ms_deep_pair_head, [{[DP], [], [true]}]},
     {ms_deep_list_body, [{'_', [], DL}]},
     {ms_deep_list, DL},
     {ms_map_head, [{[#{a => '$1'}], [], ['$1']}]},
     {ms_bin, <<"ms">>},
     {ms_map, #{a => 1}}].

%% A smaller match spec set for cross products with flags.
ms_few(Env) ->
    Keep = [ms_true, ms_false, ms_nil, ms_restart, ms_pause, ms_ok, ms_return, ms_trace,
            ms_improper, ms_unbound_body, ms_bad_body_fun, ms_deep_list],
    [P || {L, _} = P <- ms_set(Env), lists:member(L, Keep)].

mfa_set(#{deep_list := DL}) ->
    [{mfa_f1, {?MODULE, f, 1}}, {mfa_f_us, {?MODULE, f, '_'}}, {mfa_m_us_us, {?MODULE, '_', '_'}},
     {mfa_g0, {?MODULE, g, 0}}, {mfa_all_us, {'_', '_', '_'}},
     {mfa_nofun, {?MODULE, nofun, 1}}, {mfa_nomod, {nomod_xyz, f, 1}},
     {mfa_f0, {?MODULE, f, 0}}, {mfa_arity_m1, {?MODULE, f, -1}},
     {mfa_arity_255, {?MODULE, f, 255}}, {mfa_arity_256, {?MODULE, f, 256}},
     {mfa_arity_big, {?MODULE, f, 1 bsl 70}}, {mfa_arity_float, {?MODULE, f, 1.0}},
     {mfa_arity_atom, {?MODULE, f, foo}},
     {mfa_us_f_1, {'_', f, 1}}, {mfa_m_us_1, {?MODULE, '_', 1}}, {mfa_us_us_1, {'_', '_', 1}},
     {mfa_us_f_us, {'_', f, '_'}},
     {mfa_mod_str, {"trace_badargs", f, 1}}, {mfa_fun_str, {?MODULE, "f", 1}},
     {mfa_mod_int, {1, f, 1}}, {mfa_fun_int, {?MODULE, 1, 1}},
     {mfa_mod_pid, {self(), f, 1}}, {mfa_deep, {?MODULE, f, DL}},
     {mfa_2, {?MODULE, f}}, {mfa_4, {?MODULE, f, 1, x}}, {mfa_1, {?MODULE}},
     {mfa_list, [?MODULE, f, 1]}, {mfa_erl_bif, {erlang, self, 0}},
     {mfa_lists_map, {lists, map, 2}},
     {on_load, on_load}, {send, send}, {'receive', 'receive'}].

mfa_few(Env) ->
    Keep = [mfa_f1, mfa_m_us_us, mfa_all_us, mfa_arity_m1, mfa_us_f_1, mfa_fun_str,
            on_load, send, 'receive'],
    [P || {L, _} = P <- mfa_set(Env), lists:member(L, Keep)] ++ [{foo, foo}].

tp_flags(#{self := Self, dead := Dead, port := Port, deep_list := DL}) ->
    [{fl_nil, []}, {fl_global, [global]}, {fl_local, [local]}, {fl_meta, [meta]},
     {fl_meta_self, [{meta, Self}]}, {fl_meta_dead, [{meta, Dead}]}, {fl_meta_port, [{meta, Port}]},
     {fl_meta_atom, [{meta, foo}]}, {fl_meta_nomod, [{meta, nomod_xyz, []}]},
     {fl_meta_lists, [{meta, lists, []}]}, {fl_meta_3, [{meta, Self, x, y}]},
     %% call_memory (OTP 26+) is left out: OTP 25 refuses it (badarg), beamlet implements it
     %% on purpose (OTP 27 sessions); tests/e2e/badargs/trace_module_badargs covers it.
     {fl_call_count, [call_count]}, {fl_call_time, [call_time]},
     {fl_global_local, [global, local]}, {fl_local_meta, [local, meta]},
     {fl_count_time, [call_count, call_time]}, {fl_local_bogus, [local, bogus]},
     {fl_bogus, [bogus]}, {fl_atom, local}, {fl_impr, [local | meta]}, {fl_deep, DL},
     {fl_int, [1]}, {fl_str, ["local"]}, {fl_dup_local, lists:duplicate(10000, local)},
     {fl_tuple_local, [{local}]}, {fl_map, #{}}].

trace_flags(#{self := Self, dead := Dead, port := Port, deep_list := DL, w := W}) ->
    [{fl_nil, []}, {fl_call, [call]}, {fl_all, [all]}, {fl_send_recv, [send, 'receive']},
     {fl_procs, [procs]}, {fl_ports, [ports]}, {fl_running, [running]},
     {fl_running_procs, [running_procs, running_ports]}, {fl_exiting, [exiting]},
     {fl_gc, [garbage_collection]}, {fl_sos, [set_on_spawn, set_on_first_spawn]},
     {fl_sol, [set_on_link, set_on_first_link]}, {fl_ts, [timestamp, cpu_timestamp]},
     {fl_mono, [monotonic_timestamp, strict_monotonic_timestamp]},
     {fl_arity, [call, arity, return_to, silent]}, {fl_meta, [meta]},
     {fl_call_bogus, [call, bogus]}, {fl_bogus, [bogus]}, {fl_atom, call},
     {fl_impr, [call | send]}, {fl_impr_b, [call | b]}, {fl_deep, DL},
     {fl_tracer_self, [call, {tracer, Self}]}, {fl_tracer_w, [call, {tracer, W}]},
     {fl_tracer_dead, [call, {tracer, Dead}]}, {fl_tracer_port, [call, {tracer, Port}]},
     {fl_tracer_atom, [call, {tracer, foo}]}, {fl_tracer_nomod, [call, {tracer, nomod_xyz, []}]},
     {fl_tracer_lists, [call, {tracer, lists, []}]}, {fl_tracer_4, [call, {tracer, Self, x, y}]},
     {fl_tracer_1, [call, {tracer}]}, {fl_tracer_only, [{tracer, Self}]},
     {fl_tuple_call, [{call}]}, {fl_bin, [<<"call">>]}, {fl_str, ["call"]}, {fl_int, [call, 1]},
     {fl_nested, [[call]]}, {fl_map, #{call => true}},
     {fl_dup_send, lists:duplicate(10000, send)},
     {fl_dup_bogus, lists:duplicate(10000, send) ++ [bogus]}].

trace_flags_few(Env) ->
    Keep = [fl_nil, fl_call, fl_all, fl_procs, fl_ports, fl_call_bogus, fl_impr, fl_tracer_dead,
            fl_tracer_nomod],
    [P || {L, _} = P <- trace_flags(Env), lists:member(L, Keep)].

tracees(#{w := W, closed := Closed}) ->
    [{w, W}, {closed_port, Closed}, {processes, processes}, {existing_processes, existing_processes},
     {new_processes, new_processes}, {ports, ports}, {existing_ports, existing_ports},
     {new_ports, new_ports}].

info_items(#{deep_list := DL}) ->
    [{flags, flags}, {tracer, tracer}, {traced, traced}, {match_spec, match_spec},
     {meta, meta}, {meta_match_spec, meta_match_spec}, {call_count, call_count},
     {call_time, call_time}, {call_memory, call_memory}, {all, all}, {foo, foo}, {us, '_'},
     {i1, 1}, {nil, []}, {list_flags, [flags]}, {tup_flags, {flags}}, {send, send},
     {deep_list, DL}].

seq_keys() ->
    [{label, label}, {serial, serial}, {send, send}, {'receive', 'receive'}, {print, print},
     {timestamp, timestamp}, {monotonic_timestamp, monotonic_timestamp},
     {strict_monotonic_timestamp, strict_monotonic_timestamp},
     {sequential_trace_token, sequential_trace_token}].

seq_vals(Env) ->
    bad(Env) ++
        [{serial_ok, {1, 2}}, {serial_neg, {-1, 2}}, {serial_big, {1 bsl 70, 1}},
         {serial_3, {1, 2, 3}}, {serial_atom, {a, 1}}, {label_int, 17}].

mon_opts(#{deep_list := DL}) ->
    [{mo_nil, []}, {mo_long_gc, [{long_gc, 100}]}, {mo_long_gc0, [{long_gc, 0}]},
     {mo_long_gc_m1, [{long_gc, -1}]}, {mo_long_gc_big, [{long_gc, 1 bsl 70}]},
     {mo_long_gc_atom, [{long_gc, foo}]}, {mo_long_sched, [{long_schedule, 100}]},
     {mo_large_heap, [{large_heap, 1000000}]}, {mo_large_heap0, [{large_heap, 0}]},
     {mo_large_heap_m1, [{large_heap, -1}]}, {mo_busy_port, [busy_port]},
     {mo_busy_dist, [busy_dist_port]}, {mo_lmq, [{long_message_queue, {10, 100}}]},
     {mo_all, [busy_port, busy_dist_port, {long_gc, 10}, {large_heap, 100}]},
     {mo_bogus, [bogus]}, {mo_busy_bogus, [busy_port, bogus]}, {mo_atom, busy_port},
     {mo_impr, [busy_port | busy_dist_port]}, {mo_deep, DL}, {mo_tuple, [{long_gc}]},
     {mo_map, #{long_gc => 1}}].

%% ---------------------------------------------------------------------------------------------
%% the calls: {Module, Function, [{Label, Value}]}

cross(M, F, Sets) -> [{M, F, Args} || Args <- product(Sets)].

product([]) -> [[]];
product([S | Rest]) -> [[X | T] || X <- S, T <- product(Rest)].

calls(Env) ->
    Bad = bad(Env),
    Few = few(Env),
    Hows = [{true, true}, {false, false}, {foo, foo}, {i1, 1}, {nil, []}, {str_true, "true"}],
    Tracees = tracees(Env),
    MS = ms_set(Env),
    MFA = mfa_set(Env),
    F1 = {mfa_f1, {?MODULE, f, 1}},
    lists:append(
      [%% erlang:trace/3
       cross(erlang, trace, [Bad ++ Tracees, Hows, [{fl_call, [call]}, {fl_nil, []}]]),
       cross(erlang, trace, [Tracees ++ [P || {L, _} = P <- Bad,
                                             lists:member(L, [self, all, new, existing, port,
                                                              dead, foo])],
                             [{true, true}, {false, false}], trace_flags(Env)]),
       cross(erlang, trace, [Few, Few, trace_flags_few(Env)]),
       cross(erlang, trace, [[{w, maps:get(w, Env)}], [{true, true}], Bad]),
       %% erlang:trace_pattern/2
       cross(erlang, trace_pattern, [MFA ++ Bad, [{ms_true, true}]]),
       cross(erlang, trace_pattern, [[F1, {on_load, on_load}, {send, send},
                                      {'receive', 'receive'}], MS ++ Bad]),
       cross(erlang, trace_pattern, [mfa_few(Env), ms_few(Env)]),
       %% erlang:trace_pattern/3
       cross(erlang, trace_pattern, [mfa_few(Env), ms_few(Env), tp_flags(Env)]),
       cross(erlang, trace_pattern, [[F1], [{ms_true, true}], Bad]),
       cross(erlang, trace_pattern, [[F1], MS, [{fl_local, [local]}, {fl_meta, [meta]}]]),
       cross(erlang, trace_pattern, [Few, Few, Few]),
       %% erlang:trace_info/2
       cross(erlang, trace_info, [MFA ++ Bad ++ Tracees, info_items(Env)]),
       %% erlang:trace_delivered/1
       cross(erlang, trace_delivered, [Bad ++ Tracees]),
       %% erlang:match_spec_test/3
       cross(erlang, match_spec_test,
             [[{args_a, [a]}, {args_nil, []}, {args_int, [1]}, {tup_ab, {a, b}}, {atom, a},
               {impr_ab, [a | b]}, {map1, #{a => 1}}, {self, self()}],
              %% {display, _} would write to stdout outside the io server (order not stable)
              [P || {L, _} = P <- MS, L =/= ms_display],
              [{trace, trace}, {table, table}, {foo, foo}, {i1, 1}]]),
       cross(erlang, match_spec_test, [Bad, [{ms_ok, [{'_', [], [true]}]}], [{trace, trace}]]),
       cross(erlang, match_spec_test, [[{args_a, [a]}], [{ms_ok, [{'_', [], [true]}]}], Bad]),
       %% erlang:seq_trace/2, seq_trace_info/1, seq_trace_print/1,2
       cross(erlang, seq_trace, [seq_keys(), seq_vals(Env)]),
       cross(erlang, seq_trace, [Bad, [{true, true}, {label_int, 17}]]),
       cross(erlang, seq_trace_info, [seq_keys() ++ Bad]),
       cross(erlang, seq_trace_print, [Bad]),
       cross(erlang, seq_trace_print, [Few, [{foo, foo}]]),
       %% seq_trace module
       cross(seq_trace, set_token,
             [[{nil, []}, {tok_ok, {0, lab, 0, self(), 0}}, {tok_flags_atom, {a, lab, 0, self(), 0}},
               {tok_4, {0, lab, 0, self()}}, {tok_serial_neg, {1, lab, -1, self(), 0}},
               {tok_flags_big, {1 bsl 70, lab, 0, self(), 0}}] ++ Bad]),
       cross(seq_trace, set_token, [seq_keys() ++ Few, Few ++ [{serial_ok, {1, 2}}]]),
       cross(seq_trace, get_token, [seq_keys() ++ Bad]),
       %% [] is left out: erlang:system_flag(sequential_tracer, []) crashes OTP 25's emulator
       %% (segmentation fault, erts 13.1.5).
       cross(seq_trace, set_system_tracer,
             [[P || {L, _} = P <- Bad, L =/= nil] ++ [{mod_nomod, {nomod_xyz, []}}, {mod_lists, {lists, []}}, {tup3, {a, b, c}}]]),
       %% erlang:system_monitor/1,2
       cross(erlang, system_monitor, [Bad, mon_opts(Env)]),
       cross(erlang, system_monitor,
             [Bad ++ [{pair_ok, {self(), [busy_port]}}, {pair_bad, {self(), [bogus]}},
                      {pair_dead, {maps:get(dead, Env), [busy_port]}},
                      {pair_3, {self(), [busy_port], x}}]])
      ]).
