%% erts_debug:size/1 (OTP's Erlang over erts_internal:term_type/1 and map_to_tuple_keys/1)
%% and flat_size/1 on terms whose heap layout beamlet shares with OTP: lists, tuples, floats,
%% bignums, small maps (keys tuple counted once), shared subterms counted once by size/1.
%% (Not here: refs, binaries and funs, laid out differently; maps built with literal keys,
%% whose keys tuple OTP's loader shares.)
-module(erts_debug_size).
-export([main/0]).

main() ->
    A = [a, b],
    Shared = [A, A],
    Tuple = {1, 2.5, "xy"},
    Map = #{a => 1, b => {x, y}, c => [1, 2, 3]},
    Terms = [A, Shared, Tuple, Map, 1 bsl 70, -(1 bsl 130), {Map, Map}, [Tuple, Tuple]],
    [io:format("~p: size ~p flat ~p~n", [T, erts_debug:size(T), erts_debug:flat_size(T)]) || T <- Terms],
    io:format("term_type ~p~n", [[erts_internal:term_type(T) || T <- [Map, Tuple, A, 1.5, 1 bsl 70, a, 1, self()]]]),
    io:format("keys ~p~n", [erts_internal:map_to_tuple_keys(Map)]),
    {'EXIT', {Reason, _}} = (catch erts_internal:map_to_tuple_keys(x)),
    io:format("not a map ~p~n", [Reason]).
