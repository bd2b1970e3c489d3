%% tests/e2e/lang/purged_fun.erl — a fun whose code is purged no longer runs that code, as in
%% OTP: its call goes through error_handler:undefined_lambda/3, which loads the module again
%% (the fun then runs in the new code) or fails with undef. While the purge is pending, a
%% caller of such a fun is suspended in erts_code_purger:pending_purge_lambda/3 until the
%% purge completes or a soft purge gives up (driven here through erts_code_purger's own test
%% requests, as OTP's code_SUITE does). Also check_process_code/3's options.
-module(purged_fun).
-export([main/0]).

-define(M, purged_fun_target).

main() ->
    Dir = filename:join(tmp_dir(), "purged_fun_" ++ os:getpid()),
    ok = filelib:ensure_dir(filename:join(Dir, "x")),
    Beam = filename:join(Dir, atom_to_list(?M) ++ ".beam"),
    {ok, ?M, Bin} = compile:forms(forms(), [binary]),
    ok = file:write_file(Beam, Bin),
    true = code:add_patha(Dir),

    %% Purged, the module still on the path: the call loads it again and runs there.
    F1 = load_and_make(Bin, 1),
    gone(),
    io:format("reloaded by the call: ~p ~p~n", [F1(10), erlang:module_loaded(?M)]),
    io:format("name after: ~p~n", [is_atom(element(2, erlang:fun_info(F1, name)))]),

    %% Purged, no file: undef from error_handler:undefined_lambda/3.
    F2 = load_and_make(Bin, 2),
    gone(),
    ok = file:delete(Beam),
    io:format("no code anywhere: ~p~n", [catch_call(F2)]),
    io:format("name: ~p~n", [erlang:fun_info(F2, name)]),
    ok = file:write_file(Beam, Bin),

    %% Deleted, not purged: the old code still runs the fun.
    F3 = load_and_make(Bin, 3),
    true = erlang:delete_module(?M),
    io:format("old code runs: ~p~n", [F3(10)]),
    true = erlang:purge_module(?M),

    %% A soft purge that fails (a process still runs the old code): callers wait, then run
    %% the old code; the purge answers false.
    pending(Bin, false),
    %% A hard purge: the process running the old code is killed; the waiting callers go on
    %% once the code is purged, and the call loads the module again.
    pending(Bin, true),

    %% check_process_code/3.
    {module, ?M} = code:load_binary(?M, Beam, Bin),
    Self = self(),
    Runner = spawn(fun() -> ?M:call_then_sleep(fun() -> Self ! asleep end) end),
    receive asleep -> ok end,
    true = erlang:delete_module(?M),
    io:format("sync: ~p~n", [erlang:check_process_code(Runner, ?M, [{allow_gc, false}])]),
    Ref = make_ref(),
    io:format("async: ~p~n", [erlang:check_process_code(Runner, ?M, [{async, Ref}])]),
    receive {check_process_code, Ref, R} -> io:format("async answer: ~p~n", [R]) end,
    exit(Runner, kill),
    Ref2 = make_ref(),
    async = erlang:check_process_code(Runner, ?M, [{async, Ref2}]),
    receive {check_process_code, Ref2, R2} -> io:format("after kill: ~p~n", [R2]) end,
    io:format("bad option: ~p~n", [catch_bad(fun() -> erlang:check_process_code(self(), ?M, [bad]) end)]),
    io:format("improper: ~p~n", [catch_bad(fun() -> erlang:check_process_code(self(), ?M, [{async, 1} | x]) end)]),
    io:format("not a pid: ~p~n", [catch_bad(fun() -> erlang:check_process_code(x, ?M, []) end)]),
    true = erlang:purge_module(?M),
    file:delete(Beam),
    file:del_dir(Dir),
    ok.

pending(Bin, Hard) ->
    F = load_and_make(Bin, 4),
    Self = self(),
    Sleeper = spawn(fun() -> ?M:call_then_sleep(fun() -> Self ! asleep end) end),
    receive asleep -> ok end,
    true = erlang:delete_module(?M),
    Ref = make_ref(),
    erts_code_purger ! {test_purge, ?M, self(), Hard, Ref},
    receive {started, Ref} -> ok end,
    Caller = fun(N) ->
                     spawn_monitor(fun() ->
                                           Before = erlang:fun_info(F, name),
                                           V = F(N),
                                           After = erlang:fun_info(F, name),
                                           exit({V, Before, is_atom(element(2, After))})
                                   end)
             end,
    {P1, M1} = Caller(100),
    ok = wait_suspended(P1),
    io:format("~p: waiting in ~p, ~p~n",
              [Hard, element(2, process_info(P1, current_function)), process_info(P1, status)]),
    erts_code_purger ! {continue, Ref},
    receive {continued, Ref} -> ok end,
    {P2, M2} = Caller(200),
    ok = wait_suspended(P2),
    io:format("~p: second caller ~p~n", [Hard, element(2, process_info(P2, current_function))]),
    erts_code_purger ! {complete, Ref},
    receive {test_purge, Res, Ref} -> io:format("~p: purge answered ~p~n", [Hard, Res]) end,
    io:format("~p: callers ~p ~p~n", [Hard, down(P1, M1), down(P2, M2)]),
    case Hard of
        true -> io:format("~p: old code runner killed: ~p~n", [Hard, not is_process_alive(Sleeper)]);
        false -> exit(Sleeper, kill)
    end,
    gone().

wait_suspended(P) -> wait_suspended(P, 200).
wait_suspended(_, 0) -> timeout;
wait_suspended(P, N) ->
    case process_info(P, status) of
        {status, suspended} -> ok;
        _ -> receive after 10 -> wait_suspended(P, N - 1) end
    end.

down(P, M) ->
    receive {'DOWN', M, process, P, R} -> R after 5000 -> timeout end.

load_and_make(Bin, N) ->
    {module, ?M} = code:load_binary(?M, "purged_fun_target.beam", Bin),
    ?M:make(N).

%% No current or old code left for the module.
gone() ->
    code:purge(?M),
    code:delete(?M),
    code:purge(?M).

catch_call(F) ->
    try F(1) catch error:undef:S -> {undef, hd(S)} end.

catch_bad(F) ->
    try F() catch error:badarg -> badarg end.

tmp_dir() ->
    case os:getenv("TMPDIR") of
        false -> "/tmp";
        D -> D
    end.

forms() ->
    Text = ["-module(purged_fun_target).",
            "-export([make/1, call_then_sleep/1]).",
            "make(K) -> fun(X) -> X + K end.",
            "call_then_sleep(Notify) -> Notify(), receive wake -> ok end."],
    [begin
         {ok, Toks, _} = erl_scan:string(T),
         {ok, Form} = erl_parse:parse_form(Toks),
         Form
     end || T <- Text].
