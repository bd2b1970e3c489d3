%% The trace module as a loaded module (module_info/1, code:is_loaded/1) and its errors as OTP 27
%% explains them: trace_session_SUITE:error_info's calls, each failing with badarg whose top
%% frame is the trace function itself with its arguments, and exactly one "*** argument N:"
%% line in the shell's text (what OTP's error_info_lib checks). A pid and a port of another
%% node stand in for the suite's peer node.
-module(session_error_info).
-export([main/0]).

main() ->
    io:format("exports ~p~n", [lists:sort(trace:module_info(exports))]),
    {file, File} = code:is_loaded(trace),
    io:format("loaded from ~s~n", [filename:basename(File)]),
    ExternalPid = binary_to_term(<<131, 88, 119, 7, "other@x", 0:32, 5:32, 1:32>>),
    ExternalPort = binary_to_term(<<131, 89, 119, 7, "other@x", 3:32, 1:32>>),
    Tracer = spawn(fun() -> receive never -> false end end),
    S = trace:session_create(?MODULE, Tracer, []),
    Calls =
        [{process, [S, a, true, []]},
         {process, [S, ExternalPid, true, []]},
         {process, [S, self(), not_boolean, []]},
         {process, [S, self(), true, bad_flags]},
         {process, [S, self(), true, [bad_flag]]},
         {process, [S, self(), true, [call | send]]},
         {port, [S, a, true, []]},
         {port, [S, ExternalPort, true, []]},
         {port, [S, self(), not_boolean, []]},
         {port, [S, self(), true, bad_flags]},
         {port, [S, self(), true, [bad_flag]]},
         {port, [S, self(), true, [send | 'receive']]},
         {function, [S, a, true, []]},
         {function, [S, {?MODULE, '_', '_'}, not_boolean, []]},
         {function, [S, {?MODULE, '_', '_'}, true, bad_flags]},
         {function, [S, {?MODULE, '_', '_'}, true, [bad_flag]]},
         {function, [S, {?MODULE, '_', '_'}, true, [local | meta]]},
         {function, [S, {?MODULE, '_', '_'}, [{[self(), '_'], [], []}], [call_count]]},
         {send, [S, a, []]},
         {send, [S, true, bad_flags]},
         {send, [S, true, [bad_flag]]},
         {recv, [S, a, []]},
         {recv, [S, true, bad_flags]},
         {recv, [S, true, [bad_flag]]},
         {info, [bad_session, self(), flags]},
         {info, [make_ref(), self(), flags]},
         {info, [atomics:new(1, []), self(), flags]},
         {info, [S, ExternalPid, flags]},
         {info, [S, self(), bad_item]},
         {session_create, ["bad name", self(), []]},
         {session_create, [name, bad_tracer, []]},
         {session_create, [name, self(), bad_option]},
         {session_create, [name, self(), [bad_option]]},
         {session_destroy, [bad_session]},
         {session_destroy, [make_ref()]},
         {session_destroy, [atomics:new(1, [])]},
         {session_info, [ExternalPid]},
         {process, [{make_ref(), {gone, 1}}, self(), true, [call]]}],
    [check(F, Args) || {F, Args} <- Calls],
    true = trace:session_destroy(S),
    exit(Tracer, kill),
    ok.

check(F, Args) ->
    try apply(trace, F, Args) of
        Result -> io:format("~p/~p: no error (~p)~n", [F, length(Args), Result])
    catch
        error:Reason:Stack ->
            Text = unicode:characters_to_list(erl_error:format_exception(error, Reason, Stack)),
            Explanations = [string:trim(L) || L <- string:split(Text, "\n", all),
                                              string:prefix(string:trim(L), "*** argument") =/= nomatch],
            Frame = case Stack of
                        [{trace, F, Args, _} | _] -> same_call;
                        [Top | _] -> {renamed, Top}
                    end,
            io:format("~p/~p: ~p ~p ~p~n", [F, length(Args), Reason, Frame, Explanations])
    end.
