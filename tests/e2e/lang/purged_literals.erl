%% tests/e2e/lang/purged_literals.erl — a purged module's literals are given up as OTP gives up
%% a literal area: OTP's erts_literal_area_collector has every process copy onto its heap
%% what it still references there (a hibernated process too, whose heap then grows), and a
%% process whose max_heap_size the copies pass is killed. Large literal binaries are
%% reference-counted, so a process that holds one only owns it once it is copied.
-module(purged_literals).
-export([main/0, woken/1, big_copy/0]).

-define(M, purged_literals_target).

main() ->
    {ok, ?M, Bin} = compile:forms(forms(), [binary]),
    Self = self(),

    %% A process that holds the literals, waiting in a receive.
    {module, ?M} = code:load_binary(?M, "purged_literals_target.beam", Bin),
    Holder = spawn(fun() -> hold(Self) end),
    receive {holding, Holder} -> ok end,
    io:format("binaries owned before: ~w~n", [owned(Holder)]),
    purge(),
    idle(),
    io:format("binaries owned after: ~w~n", [owned(Holder)]),
    Holder ! {check, self()},
    receive {checked, Holder, R1} -> io:format("intact after the purge: ~p~n", [R1]) end,

    %% A hibernated process: its heap grows by the copies, and stays compact.
    {module, ?M} = code:load_binary(?M, "purged_literals_target.beam", Bin),
    {Hib, Mon} = spawn_monitor(fun() -> hibernated(Self) end),
    receive {holding, Hib} -> ok end,
    wait_hibernated(Hib),
    [{heap_size, H0}, {total_heap_size, T0}] = process_info(Hib, [heap_size, total_heap_size]),
    purge(),
    idle(),
    [{heap_size, H1}, {total_heap_size, T1}] = process_info(Hib, [heap_size, total_heap_size]),
    io:format("hibernated: compact before ~p, grew ~p, compact after ~p~n", [H0 =:= T0, H1 > H0, H1 =:= T1]),
    Hib ! wake,
    receive {'DOWN', Mon, process, Hib, Reason} -> io:format("woken: ~p~n", [Reason]) end,

    %% max_heap_size counts the copies.
    {module, ?M} = code:load_binary(?M, "purged_literals_target.beam", Bin),
    {Small, SMon} = spawn_opt(fun() -> hold(Self) end,
                              [monitor, {max_heap_size, #{size => 1000, kill => true, error_logger => false}}]),
    receive {holding, Small} -> ok end,
    purge(),
    receive {'DOWN', SMon, process, Small, SR} -> io:format("over max_heap_size: ~p~n", [SR])
    after 5000 -> io:format("over max_heap_size: still alive~n")
    end,
    ok.

hold(Parent) ->
    Big = ?M:big(),
    List = ?M:list(),
    Parent ! {holding, self()},
    receive
        {check, From} ->
            From ! {checked, self(), {byte_size(Big), erlang:md5(Big) =:= erlang:md5(?MODULE:big_copy()),
                                      length(List), lists:sum(List)}}
    end.

hibernated(Parent) ->
    Held = {?M:big(), ?M:list()},
    Parent ! {holding, self()},
    erlang:hibernate(?MODULE, woken, [Held]).

woken({Big, List}) ->
    exit({byte_size(Big), length(List)}).

big_copy() -> binary:copy(<<"0123456789">>, 20).

wait_hibernated(P) ->
    case process_info(P, current_function) of
        {current_function, {erlang, hibernate, 3}} -> ok;
        _ -> receive after 5 -> wait_hibernated(P) end
    end.

owned(P) ->
    {binary, Bins} = process_info(P, binary),
    [Size || {_, Size, _} <- Bins].

purge() ->
    true = code:delete(?M),
    _ = code:purge(?M),
    ok.

%% The literal area collector has finished (as OTP's suites ask it).
idle() ->
    [Collector] = [P || P <- processes(),
                        process_info(P, initial_call) =:= {initial_call, {erts_literal_area_collector, start, 0}}],
    idle(Collector).
idle(Collector) ->
    Ref = make_ref(),
    Collector ! {get_status, Ref, self()},
    receive
        {Ref, idle} -> ok;
        {Ref, _} -> receive after 10 -> idle(Collector) end
    end.

forms() ->
    Text = ["-module(purged_literals_target).",
            "-export([big/0, list/0]).",
            "big() -> <<\"01234567890123456789012345678901234567890123456789012345678901234567890123456789"
            "01234567890123456789012345678901234567890123456789012345678901234567890123456789"
            "0123456789012345678901234567890123456789\">>.",
            "list() -> " ++ lists:flatten(io_lib:format("~w", [lists:seq(1, 1500)])) ++ "."],
    [begin
         {ok, Toks, _} = erl_scan:string(T),
         {ok, Form} = erl_parse:parse_form(Toks),
         Form
     end || T <- Text].
