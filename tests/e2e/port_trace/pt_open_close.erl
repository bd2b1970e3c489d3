%% tests/e2e/port_trace/pt_open_close.erl — the life of a port under the `ports`, `send` and
%% `'receive'` flags (erlang:trace(new_ports, ...)): open/5 names the opener and the driver
%% (for spawn ports the command line as an atom, for spawn_executable the path), then
%% getting_linked to the opener; port_close/1 is traced as a received {Pid, close} followed
%% by closed normal; a {Pid, close} message also shows the reply, traced as `send closed`
%% (the bare atom, not {Port, closed}, although the owner gets {Port, closed}); a port that
%% is already closing makes port_close/1 badarg without any event.
%% running_ports is not set here (pt_running has the in/out events).
-module(pt_open_close).
-export([main/0]).
-import(e2e_port_trace, [run/3, upto_exit/1]).

-define(FLAGS, [ports, send, 'receive']).

main() ->
    run("port_close/1", ?FLAGS,
        fun() ->
                P = open_port({spawn, "cat"}, []),
                R = port_close(P),
                {[{P, port}], [], [{port_close, R}, {inbox, upto_exit(P)}]}
        end),
    run("{Pid, close} message", ?FLAGS,
        fun() ->
                P = open_port({spawn, "cat"}, []),
                P ! {self(), close},
                {[{P, port}], [], [{inbox, upto_exit(P)}]}
        end),
    run("driver names", ?FLAGS,
        fun() ->
                P1 = open_port({spawn, "cat -n"}, []),
                P2 = open_port({spawn_executable, "/bin/cat"}, []),
                P3 = open_port({spawn, "cat"}, [binary]),
                Names = [element(2, erlang:port_info(P, name)) || P <- [P1, P2, P3]],
                [true = port_close(P) || P <- [P1, P2, P3]],
                Inbox = [upto_exit(P) || P <- [P1, P2, P3]],
                {[{P1, p1}, {P2, p2}, {P3, p3}], [], [{names, Names}, {inbox, Inbox}]}
        end),
    run("close twice", ?FLAGS,
        fun() ->
                P = open_port({spawn, "cat"}, []),
                P ! {self(), close},
                R = try port_close(P) catch error:E -> {error, E} end,
                {[{P, port}], [], [{port_close, R}, {inbox, upto_exit(P)}]}
        end),
    run("open and close in another process", ?FLAGS,
        fun() ->
                Self = self(),
                O = spawn(fun() ->
                                  P = open_port({spawn, "cat"}, []),
                                  Self ! {port, P},
                                  receive close -> port_close(P) end,
                                  Self ! closed
                          end),
                P = receive {port, P0} -> P0 end,
                O ! close,
                receive closed -> ok end,
                {[{P, port}], [{O, o}], []}
        end),
    ok.
