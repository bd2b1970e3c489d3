%% The error_info a failed BIF carries in its stack frame, as erts adds it: the module that
%% explains it (erl_erts_errors for erlang, erts_internal, atomics, counters, persistent_term;
%% erl_stdlib_errors for lists, maps, binary, ets, math, re, unicode; erl_kernel_errors for
%% os) and erts's cause where it gives one (ets: id, type, access, badkey, already_exists;
%% trace/3 and trace_pattern/2,3, OTP's Erlang over erts_internal's: badopt, match_spec,
%% call_count, none; trace_info/2: badopt for what names no tracee or a remote one).
-module(bif_error_info).
-export([main/0]).

info(F) ->
    try F() of
        R -> {returned, R}
    catch
        error:Reason:S ->
            [{M, Fn, _, I} | _] = S,
            {Reason, M, Fn, proplists:get_value(error_info, I)}
    end.

main() ->
    T = ets:new(t, [named_table, protected]),
    P = ets:new(p, [private]),
    Self = self(),
    Cases =
        [fun() -> ets:insert(a, b) end, fun() -> math:sqrt(id(a)) end,
         fun() -> os:getenv(1) end, fun() -> re:run(1, 2) end,
         fun() -> persistent_term:get(bif_error_info_no_such_key) end,
         fun() -> atomics:new(a, b) end, fun() -> counters:new(a, b) end,
         fun() -> binary:split(1, 2) end, fun() -> maps:from_list(a) end,
         fun() -> lists:member(a, b) end, fun() -> lists:reverse(1, 2) end,
         fun() -> erlang:atom_to_list(id(1)) end, fun() -> erts_internal:map_next(1, 2, 3) end,
         fun() -> os:putenv(1, 2) end, fun() -> erts_debug:set_internal_state(foo, bar) end,
         fun() -> ets:insert(T, b) end, fun() -> ets:new(t, [named_table]) end,
         fun() -> ets:new(x, [foo]) end, fun() -> ets:lookup_element(T, a, 2) end,
         fun() -> ets:update_counter(T, a, 1) end, fun() -> ets:select(T, [{x}]) end,
         fun() -> ets:first(1.0) end, fun() -> ets:lookup(no_such_table, 1) end,
         fun() -> erlang:trace_pattern({a, b, c, d}, true, [local]) end,
         fun() -> erlang:trace_pattern({a, b, c}, foo, [local]) end,
         fun() -> erlang:trace_pattern({a, b, c}, true, [foo]) end,
         fun() -> erlang:trace_pattern({a, b, c}, true, foo) end,
         fun() -> erlang:trace_pattern({a, b, c}, [{x}], [local]) end,
         fun() -> erlang:trace_pattern({a, b, c}, true, [global, local]) end,
         fun() -> erlang:trace_pattern({a, b, c}, [{'_', [], []}], [call_count]) end,
         fun() -> erlang:trace_pattern(send, true, [local]) end,
         fun() -> erlang:trace_pattern(send, foo, []) end,
         fun() -> erlang:trace_pattern({a, b, c}, true, [{meta, foo, bar, baz}]) end,
         fun() -> erlang:trace(self(), true, [no_such_flag]) end,
         fun() -> erlang:trace(self(), true, foo) end,
         fun() -> erlang:trace(not_a_pid, true, [call]) end,
         fun() -> erlang:trace(self(), maybe, [call]) end,
         fun() -> erlang:trace(self(), true, [{tracer, not_a_pid}]) end,
         fun() -> erlang:trace(self(), true, [cpu_timestamp]) end,
         fun() -> erlang:trace(self(), true, [call | foo]) end,
         fun() -> erlang:trace_pattern(send, true, foo) end,
         fun() -> erlang:trace_pattern(send, true, [foo]) end,
         fun() -> erlang:trace_pattern(send, true, [global | x]) end,
         fun() -> erlang:trace_pattern('receive', true, [{meta, x}]) end,
         fun() -> erlang:trace_pattern('receive', true, [call_count]) end,
         fun() -> erlang:trace_pattern(send, foo, bar) end,
         fun() -> erlang:trace_info(remote_pid(), flags) end,
         fun() -> erlang:trace_info(remote_port(), flags) end,
         fun() -> erlang:trace_info(foo, flags) end,
         fun() -> erlang:trace_info(1, flags) end,
         fun() -> erlang:trace_info({a, b}, flags) end,
         fun() -> erlang:trace_info({1, 2, 3}, flags) end,
         fun() -> erlang:trace_info(self(), bad_item) end,
         fun() -> erlang:trace(remote_pid(), true, [call]) end],
    [io:format("~p~n", [info(F)]) || F <- Cases],
    spawn(fun() ->
                  Self ! [info(fun() -> ets:insert(T, {a}) end), info(fun() -> ets:lookup(P, a) end),
                          info(fun() -> ets:delete(T) end)]
          end),
    receive R -> io:format("~p~n", [R]) end,
    ok.

id(X) -> X.

%% A pid and a port of a node this one has never seen.
remote_pid() -> binary_to_term(<<131, 88, 119, 7, "other@x", 0:32, 5:32, 1:32>>).
remote_port() -> binary_to_term(<<131, 89, 119, 7, "other@x", 3:32, 1:32>>).
