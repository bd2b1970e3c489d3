%% running_ports on sockets: each control request, command and close is a turn of the port
%% (in/out with the operation, as erl names it); a passive socket that nobody reads from has no
%% I/O turn when data or a close arrives (inet selects nothing then), and opening one is no I/O
%% turn either (no spawn acknowledgement). The scenario: tests/e2e/shared/e2e_socket_trace.
-module(tcp_running_ports).
-export([main/0]).

main() -> e2e_socket_trace:run([running_ports]).
