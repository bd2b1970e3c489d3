%% re:run/2,3 with a large binary subject in unicode mode checks its UTF-8 a time slice at a
%% time, scheduled out in erlang:re_run_trap/3 as erts is; the results are those of one call.
-module(re_subject_trapping).
-export([main/0]).

main() ->
    Bin = binary:copy(<<"abc\n">>, 100000),
    io:format("yields at least five: ~p~n", [trap_outs(fun() -> {match, [{1, 1}]} = re:run(Bin, <<"b">>, [unicode]) end) >= 5]),
    io:format("~p~n", [re:run(Bin, <<"c\\n$">>, [unicode])]),
    {ok, MP} = re:compile(<<"(a)(b)">>, [unicode]),
    io:format("~p~n", [re:run(Bin, MP, [{offset, 399990}, {capture, all, binary}])]),
    io:format("~p~n", [length(element(2, re:run(Bin, <<"a">>, [unicode, global])))]),
    Utf8 = binary:copy(<<"å∑😀x"/utf8>>, 50000),
    io:format("~p~n", [re:run(Utf8, <<"😀x$"/utf8>>, [unicode])]),
    %% (Bad UTF-8 far into such a subject: beamlet answers badarg; erl 25.2 never returns.)
    io:format("~p~n", [error_frame(fun re:run/3, [<<Bin/binary, 16#FF, "b">>, <<"b\\xff">>, []])]).

trap_outs(Fun) ->
    Go = make_ref(),
    {P, M} = spawn_opt(fun() -> receive Go -> Fun() end end, [monitor]),
    1 = erlang:trace(P, true, [running]),
    P ! Go,
    receive {'DOWN', M, process, P, normal} -> ok end,
    TD = erlang:trace_delivered(P),
    receive {trace_delivered, P, TD} -> ok end,
    count(P, 0).

count(P, N) ->
    receive
        {trace, P, out, {erlang, re_run_trap, 3}} -> count(P, N + 1);
        {trace, P, _, _} -> count(P, N)
    after 0 -> N
    end.

error_frame(Fun, Args) ->
    try apply(Fun, Args) of Result -> {result, Result}
    catch error:Reason:Stack ->
        [{M, F, FrameArgs, _} | _] = Stack,
        {Reason, M, F, FrameArgs =:= Args}
    end.
