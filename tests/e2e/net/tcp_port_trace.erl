%% A socket is a port: new_ports tracing with ports, send and 'receive' shows prim_inet's
%% control requests and the driver's replies, the send command, the inet_async and inet_reply
%% messages, and the closes, as erl's tcp_inet reports them. An accepted socket takes the flags
%% but has no open event (OTP's driver_create_port). The scenario: tests/e2e/shared/e2e_socket_trace.
-module(tcp_port_trace).
-export([main/0]).

main() -> e2e_socket_trace:run([ports, send, 'receive']).
