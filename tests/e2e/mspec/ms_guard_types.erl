%% tests/e2e/mspec/ms_guard_types.erl — type-test guards in trace match specs: each clause
%% tags the argument with the first type test that is true ({message, Tag}); values for which
%% no guard holds give no call message. Also several guards in a clause, {is_record, T, Name,
%% Size} and guards on two arguments.
-module(ms_guard_types).
-export([main/0, f/1, g/2]).

f(X) -> X.
g(X, Y) -> {X, Y}.

main() ->
    %% (OTP 25 rejects is_boolean and is_bitstring in match specs; see ms_invalid.)
    Tests = [is_atom, is_integer, is_float, is_number, is_list, is_tuple, is_map,
             is_binary, is_pid, is_reference, is_port, is_function],
    MS = [{['$1'], [{T, '$1'}], [{message, T}]} || T <- Tests],
    1 = erlang:trace_pattern({?MODULE, f, 1}, MS, [local]),
    Values = [true, abc, 42, -7, 1.5, [], [1, 2], {}, {a, b}, #{}, <<"bin">>, <<1:3>>,
              self(), make_ref(), fun f/1, fun() -> ok end],
    show("first true type test", run(fun() -> lists:foreach(fun f/1, Values) end)),
    %% Several guards in one clause must all be true.
    MS2 = [{['$1'], [{is_number, '$1'}, {is_integer, '$1'}], [{message, int_number}]}],
    1 = erlang:trace_pattern({?MODULE, f, 1}, MS2, [local]),
    show("two guards (both must hold)", run(fun() -> [f(V) || V <- [1, 2.0, a]] end)),
    %% {is_record, Term, Name, Size} (only the 3-argument form is accepted).
    MS3 = [{['$1'], [{is_record, '$1', rec, 3}], [{message, rec3}]},
           {['$1'], [{is_record, '$1', rec, 2}], [{message, rec2}]}],
    1 = erlang:trace_pattern({?MODULE, f, 1}, MS3, [local]),
    show("is_record", run(fun() -> [f(V) || V <- [{rec, 1, 2}, {rec, 1}, {other, 1, 2}, rec, {}]] end)),
    %% Guards comparing two arguments' types.
    MS4 = [{['$1', '$2'], [{is_atom, '$1'}, {is_list, '$2'}], [{message, atom_list}]},
           {['$1', '$2'], [{is_tuple, '$1'}], [{message, tuple_any}]}],
    1 = erlang:trace_pattern({?MODULE, g, 2}, MS4, [local]),
    show("two args", run(fun() -> g(a, []), g(a, b), g({}, b), g(1, [x]) end)),
    ok.

show(Label, Msgs) ->
    io:format("~s:~n", [Label]),
    lists:foreach(fun(M) -> io:format("  ~w~n", [M]) end, Msgs).

run(Fun) ->
    W = spawn(fun() -> receive go -> Fun() end end),
    Ref = monitor(process, W),
    1 = erlang:trace(W, true, [call]),
    W ! go,
    receive {'DOWN', Ref, process, W, _} -> ok end,
    collect(W).

%% The argument itself may contain pids/refs/funs: print only its type tag.
collect(W) ->
    receive
        {trace, W, call, {M, F, Args}} -> [{call, {M, F, [kind(A) || A <- Args]}} | collect(W)];
        {trace, W, call, {M, F, Args}, Extra} -> [{call, {M, F, [kind(A) || A <- Args]}, Extra} | collect(W)]
    after 50 -> []
    end.

kind(P) when is_pid(P) -> pid;
kind(R) when is_reference(R) -> ref;
kind(F) when is_function(F) -> 'fun';
kind(X) -> X.
