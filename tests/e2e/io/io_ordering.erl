-module(io_ordering).
-export([main/0]).

%% Output order between processes that all print with io:format to the same group leader:
%% io:format returns once the io server has taken the text, so a process that prints and then
%% sends a message is ahead of whatever the receiver prints next. A token passed around a ring
%% of 5 processes for 3 rounds; a chain of processes each printing then spawning the next;
%% workers that print on request in an order main chooses (the reverse of their creation);
%% a process that prints a large block (one request of 2000 lines) and exits at once: its
%% block is complete and before main's next line; two-line io:format calls from processes
%% released one at a time.
main() ->
    %% The ring.
    Self = self(),
    N = 5,
    Pids = [spawn(fun() -> ring_member(I) end) || I <- lists:seq(1, N)],
    Next = tl(Pids) ++ [hd(Pids)],
    [P ! {next, Nx} || {P, Nx} <- lists:zip(Pids, Next)],
    hd(Pids) ! {token, 1, 3 * N, Self},
    receive ring_done -> ok end,
    io:format("ring done~n"),

    %% The chain.
    spawn(fun() -> chain(1, 6, Self) end),
    receive chain_done -> ok end,
    io:format("chain done~n"),

    %% Workers printing in an order chosen by main.
    Workers = [spawn(fun() -> worker(I) end) || I <- lists:seq(1, 8)],
    [begin W ! {print, self()}, receive {printed, W} -> ok end end || W <- lists:reverse(Workers)],
    [W ! stop || W <- Workers],
    io:format("workers done~n"),

    %% A large block from a process that exits right after printing it.
    {B, M} = spawn_monitor(fun() ->
                                   io:format("~s", [[io_lib:format("block line ~4..0w~n", [I]) || I <- lists:seq(1, 2000)]])
                           end),
    receive {'DOWN', M, process, B, normal} -> ok end,
    io:format("after the block~n"),

    %% Multi-line requests from processes released one at a time.
    Ps = [spawn(fun() -> receive go -> io:format("~p: first line~n~p: second line~n", [I, I]), Self ! {two_lines, self()} end end)
          || I <- lists:seq(1, 4)],
    [begin P ! go, receive {two_lines, P} -> ok end end || P <- Ps],
    io:format("end~n").

ring_member(I) ->
    receive {next, Next} -> ring_loop(I, Next) end.

ring_loop(I, Next) ->
    receive
        {token, K, Max, Main} when K =< Max ->
            io:format("token ~2w at process ~w~n", [K, I]),
            Next ! {token, K + 1, Max, Main},
            ring_loop(I, Next);
        {token, _, _, Main} ->
            Main ! ring_done,
            ring_loop(I, Next)
    end.

chain(I, Max, Main) when I > Max ->
    Main ! chain_done;
chain(I, Max, Main) ->
    io:format("chain link ~w~n", [I]),
    spawn(fun() -> chain(I + 1, Max, Main) end).

worker(I) ->
    receive
        {print, From} ->
            io:format("worker ~w prints~n", [I]),
            From ! {printed, self()},
            worker(I);
        stop ->
            ok
    end.
