%% dist_trace_peer's program with a peer of the VM that runs it: beamlet with beamlet (erl with
%% erl for the expected output).
-module(dist_trace_peer_same).
-export([main/0]).

main() -> dist_trace_peer:run("dist_trace_peer_same", same).
