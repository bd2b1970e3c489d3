%% tests/e2e/boot/boot_preloaded.erl — what OTP's preloaded modules and the real boot give a
%% program (BEAMLET_BOOT=otp): erlang.erl's Erlang-written functions (spawn/2, spawn_link/2,
%% spawn_monitor/2, spawn_opt/3, garbage_collect/2), erts_internal:cmp_term/2, erlang:pre_loaded/0,
%% code:which/1 and is_loaded/1 from OTP's code server, init's arguments, the registered
%% system processes, erl_prim_loader.
-module(boot_preloaded).
-export([main/0]).

main() ->
    Self = self(),
    P1 = spawn(node(), fun() -> Self ! {self(), spawned} end),
    receive {P1, What1} -> io:format("spawn/2: ~p~n", [What1]) end,
    process_flag(trap_exit, true),
    P2 = spawn_link(node(), fun() -> exit(bye) end),
    receive {'EXIT', P2, R2} -> io:format("spawn_link/2: ~p~n", [R2]) end,
    {P3, M3} = spawn_monitor(node(), fun() -> exit(gone) end),
    receive {'DOWN', M3, process, P3, R3} -> io:format("spawn_monitor/2: ~p~n", [R3]) end,
    P4 = spawn_opt(node(), fun() -> Self ! {self(), opt} end, []),
    receive {P4, What4} -> io:format("spawn_opt/3: ~p~n", [What4]) end,
    P5 = spawn(node(), lists, seq, [1, 3]),
    io:format("spawn/4 pid: ~p~n", [is_pid(P5)]),
    io:format("garbage_collect/2: ~p~n", [garbage_collect(self(), [{type, major}])]),
    Sleeper = spawn(fun() -> receive _ -> ok end end),
    io:format("garbage_collect/2 async: ~p~n", [garbage_collect(Sleeper, [{async, req}])]),
    receive {garbage_collect, req, GcRes} -> io:format("async result: ~p~n", [GcRes]) end,
    io:format("garbage_collect/2 bad: ~p~n", [reason(catch garbage_collect(self(), [bad]))]),
    io:format("cmp_term: ~p~n", [[erts_internal:cmp_term(A, B) || {A, B} <- [{1, 1.0}, {1.0, 1}, {a, a}, {[], {}}]]]),
    io:format("pre_loaded: ~p~n", [lists:sort(erlang:pre_loaded())]),
    io:format("is_loaded(erlang): ~p~n", [code:is_loaded(erlang)]),
    io:format("which(init): ~p~n", [code:which(init)]),
    io:format("which(lists): ~p~n", [code:which(lists) =:= filename:join(code:lib_dir(stdlib, ebin), "lists.beam")]),
    io:format("which(nothing): ~p~n", [code:which(no_such_module_here)]),
    io:format("ensure_loaded(nothing): ~p~n", [code:ensure_loaded(no_such_module_here)]),
    io:format("root: ~p~n", [init:get_argument(root) =:= {ok, [[code:root_dir()]]}]),
    io:format("progname: ~p~n", [init:get_argument(progname)]),
    io:format("noshell: ~p~n", [init:get_argument(noshell)]),
    io:format("registered: ~p~n", [[N || N <- [init, erts_code_purger, erl_prim_loader, code_server, file_server_2,
                                              application_controller, kernel_sup, user, standard_error, logger,
                                              global_name_server, inet_db, rex, erl_signal_server],
                                         is_pid(whereis(N))]]),
    {ok, Bin, _} = erl_prim_loader:get_file(code:which(lists)),
    io:format("prim_loader get_file: ~p~n", [binary:part(Bin, 0, 4)]),
    {ok, Names} = erl_prim_loader:list_dir(code:lib_dir(stdlib)),
    io:format("prim_loader list_dir: ~p~n", [lists:member("ebin", Names)]),
    io:format("undef: ~p~n", [reason(catch no_such_module_here:f(1))]),
    ok.

reason({'EXIT', {Reason, [{M, F, A, _} | _]}}) -> {Reason, M, F, if is_list(A) -> length(A); true -> A end};
reason(Other) -> Other.
