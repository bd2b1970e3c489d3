%% dist_erl_peer's program with a peer of the VM that runs it: beamlet with beamlet (erl with
%% erl for the expected output).
-module(dist_same_peer).
-export([main/0]).

main() -> dist_erl_peer:run("dist_same_peer", same).
