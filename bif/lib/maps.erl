%% beamlet standard library: module `maps`.
%%
%% Written for beamlet; aims to behave like OTP 25's maps module.
%%
%% get/2, find/2, from_list/1, is_key/2, keys/1, merge/2, put/3, remove/2,
%% take/2, to_list/1, update/3, values/1, size/1, from_keys/2 and new/0 are
%% native BIFs inside the VM; the definitions below are placeholders only.
%% Inside this module they must always be called fully qualified
%% (maps:to_list/1 ...) so that the native implementation is used.
%%
%% Iteration order everywhere is the order of maps:to_list/1.
%% An iterator is [0 | Map] (as printed by OTP 25 for small maps); next/1
%% turns it into a chain {K1, V1, {K2, V2, ... none}}.

-module(maps).

-compile({no_auto_import, [size/1]}).

-export([get/2, find/2, from_list/1, is_key/2, keys/1, merge/2, put/3,
         remove/2, take/2, to_list/1, update/3, values/1, size/1,
         from_keys/2, new/0]).

-export([get/3, map/2, filter/2, filtermap/2, fold/3, foreach/2, with/2,
         without/2, update_with/3, update_with/4, intersect/2,
         intersect_with/3, merge_with/3, groups_from_list/2,
         groups_from_list/3, iterator/1, next/1]).

%%% ------------------------------------------------------------------
%%% Native BIF placeholders (never executed inside beamlet).
%%% ------------------------------------------------------------------

get(_A1, _A2) -> erlang:nif_error(undef).
find(_A1, _A2) -> erlang:nif_error(undef).
from_list(_A1) -> erlang:nif_error(undef).
is_key(_A1, _A2) -> erlang:nif_error(undef).
keys(_A1) -> erlang:nif_error(undef).
merge(_A1, _A2) -> erlang:nif_error(undef).
put(_A1, _A2, _A3) -> erlang:nif_error(undef).
remove(_A1, _A2) -> erlang:nif_error(undef).
take(_A1, _A2) -> erlang:nif_error(undef).
to_list(_A1) -> erlang:nif_error(undef).
update(_A1, _A2, _A3) -> erlang:nif_error(undef).
values(_A1) -> erlang:nif_error(undef).
size(_A1) -> erlang:nif_error(undef).
from_keys(_A1, _A2) -> erlang:nif_error(undef).
new() -> erlang:nif_error(undef).

%%% ------------------------------------------------------------------
%%% Lookup and update helpers
%%% ------------------------------------------------------------------

get(Key, Map, Default) when is_map(Map) ->
    case Map of
        #{Key := Value} -> Value;
        #{} -> Default
    end;
get(_Key, Map, _Default) ->
    erlang:error({badmap, Map}).

update_with(Key, Fun, Map) when is_function(Fun, 1), is_map(Map) ->
    case Map of
        #{Key := Value} -> Map#{Key := Fun(Value)};
        #{} -> erlang:error({badkey, Key})
    end;
update_with(_Key, _Fun, Map) ->
    erlang:error(map_or_badarg(Map)).

update_with(Key, Fun, Init, Map) when is_function(Fun, 1), is_map(Map) ->
    case Map of
        #{Key := Value} -> Map#{Key := Fun(Value)};
        #{} -> Map#{Key => Init}
    end;
update_with(_Key, _Fun, _Init, Map) ->
    erlang:error(map_or_badarg(Map)).

with(Keys, Map) when is_list(Keys), is_map(Map) ->
    maps:from_list(with_1(Keys, Map));
with(_Keys, Map) ->
    erlang:error(map_or_badarg(Map)).

with_1([K | Ks], Map) ->
    case Map of
        #{K := V} -> [{K, V} | with_1(Ks, Map)];
        #{} -> with_1(Ks, Map)
    end;
with_1([], _) -> [].

without(Keys, Map) when is_list(Keys), is_map(Map) ->
    without_1(Keys, Map);
without(_Keys, Map) ->
    erlang:error(map_or_badarg(Map)).

without_1([K | Ks], Map) -> without_1(Ks, maps:remove(K, Map));
without_1([], Map) -> Map.

map_or_badarg(Map) when is_map(Map) -> badarg;
map_or_badarg(Other) -> {badmap, Other}.

%%% ------------------------------------------------------------------
%%% Combining maps
%%% ------------------------------------------------------------------

intersect(Map1, Map2) when is_map(Map1), is_map(Map2) ->
    intersect_with(fun(_, _, V2) -> V2 end, Map1, Map2);
intersect(Map1, Map2) ->
    erlang:error(first_badmap(Map1, Map2)).

intersect_with(Fun, Map1, Map2)
  when is_function(Fun, 3), is_map(Map1), is_map(Map2) ->
    case map_size(Map1) =< map_size(Map2) of
        true ->
            maps:from_list(isect_left(maps:to_list(Map1), Map2, Fun));
        false ->
            maps:from_list(isect_right(maps:to_list(Map2), Map1, Fun))
    end;
intersect_with(Fun, Map1, Map2) when is_function(Fun, 3) ->
    erlang:error(first_badmap(Map1, Map2));
intersect_with(_Fun, _Map1, _Map2) ->
    erlang:error(badarg).

%% Walk the pairs of Map1, looking keys up in Map2.
isect_left([{K, V1} | Rest], Map2, Fun) ->
    case Map2 of
        #{K := V2} -> [{K, Fun(K, V1, V2)} | isect_left(Rest, Map2, Fun)];
        #{} -> isect_left(Rest, Map2, Fun)
    end;
isect_left([], _, _) -> [].

%% Walk the pairs of Map2, looking keys up in Map1.
isect_right([{K, V2} | Rest], Map1, Fun) ->
    case Map1 of
        #{K := V1} -> [{K, Fun(K, V1, V2)} | isect_right(Rest, Map1, Fun)];
        #{} -> isect_right(Rest, Map1, Fun)
    end;
isect_right([], _, _) -> [].

merge_with(Fun, Map1, Map2)
  when is_function(Fun, 3), is_map(Map1), is_map(Map2) ->
    case map_size(Map1) =< map_size(Map2) of
        true -> mw_into_right(maps:to_list(Map1), Map2, Fun);
        false -> mw_into_left(maps:to_list(Map2), Map1, Fun)
    end;
merge_with(Fun, Map1, Map2) when is_function(Fun, 3) ->
    erlang:error(first_badmap(Map1, Map2));
merge_with(_Fun, _Map1, _Map2) ->
    erlang:error(badarg).

%% Pairs come from Map1 and are added into Map2.
mw_into_right([{K, V1} | Rest], Acc, Fun) ->
    case Acc of
        #{K := V2} -> mw_into_right(Rest, Acc#{K := Fun(K, V1, V2)}, Fun);
        #{} -> mw_into_right(Rest, Acc#{K => V1}, Fun)
    end;
mw_into_right([], Acc, _) -> Acc.

%% Pairs come from Map2 and are added into Map1.
mw_into_left([{K, V2} | Rest], Acc, Fun) ->
    case Acc of
        #{K := V1} -> mw_into_left(Rest, Acc#{K := Fun(K, V1, V2)}, Fun);
        #{} -> mw_into_left(Rest, Acc#{K => V2}, Fun)
    end;
mw_into_left([], Acc, _) -> Acc.

first_badmap(Map1, Map2) when is_map(Map1) -> {badmap, Map2};
first_badmap(Map1, _) -> {badmap, Map1}.

%%% ------------------------------------------------------------------
%%% Traversal (maps or iterators)
%%% ------------------------------------------------------------------

map(Fun, MapOrIter) when is_function(Fun, 2) ->
    maps:from_list(map_1(Fun, pairs(MapOrIter)));
map(_Fun, _MapOrIter) ->
    erlang:error(badarg).

map_1(Fun, [{K, V} | Rest]) -> [{K, Fun(K, V)} | map_1(Fun, Rest)];
map_1(_, []) -> [].

filter(Pred, MapOrIter) when is_function(Pred, 2) ->
    maps:from_list(filter_1(Pred, pairs(MapOrIter)));
filter(_Pred, _MapOrIter) ->
    erlang:error(badarg).

filter_1(Pred, [{K, V} = P | Rest]) ->
    case Pred(K, V) of
        true -> [P | filter_1(Pred, Rest)];
        false -> filter_1(Pred, Rest)
    end;
filter_1(_, []) -> [].

filtermap(Fun, MapOrIter) when is_function(Fun, 2) ->
    maps:from_list(filtermap_1(Fun, pairs(MapOrIter)));
filtermap(_Fun, _MapOrIter) ->
    erlang:error(badarg).

filtermap_1(Fun, [{K, V} = P | Rest]) ->
    case Fun(K, V) of
        true -> [P | filtermap_1(Fun, Rest)];
        {true, NewV} -> [{K, NewV} | filtermap_1(Fun, Rest)];
        false -> filtermap_1(Fun, Rest)
    end;
filtermap_1(_, []) -> [].

fold(Fun, Init, MapOrIter) when is_function(Fun, 3) ->
    fold_1(Fun, Init, pairs(MapOrIter));
fold(_Fun, _Init, _MapOrIter) ->
    erlang:error(badarg).

fold_1(Fun, Acc, [{K, V} | Rest]) -> fold_1(Fun, Fun(K, V, Acc), Rest);
fold_1(_, Acc, []) -> Acc.

foreach(Fun, MapOrIter) when is_function(Fun, 2) ->
    foreach_1(Fun, pairs(MapOrIter));
foreach(_Fun, _MapOrIter) ->
    erlang:error(badarg).

foreach_1(Fun, [{K, V} | Rest]) -> Fun(K, V), foreach_1(Fun, Rest);
foreach_1(_, []) -> ok.

%% The remaining key/value pairs of a map or an iterator, in order.
%% Like OTP 25: an argument that is neither a map nor a valid iterator
%% gives {badmap, Arg}; a malformed tail inside an iterator gives badarg.
pairs(Map) when is_map(Map) ->
    maps:to_list(Map);
pairs({_, _, _} = Iter) ->
    iter_pairs(Iter, []);
pairs(none) ->
    [];
pairs([0 | Map]) when is_map(Map) ->
    maps:to_list(Map);
pairs(Other) ->
    erlang:error({badmap, Other}).

iter_pairs({K, V, Next}, Acc) -> iter_pairs(Next, [{K, V} | Acc]);
iter_pairs(none, Acc) -> lists:reverse(Acc, []);
iter_pairs([0 | Map], Acc) when is_map(Map) -> lists:reverse(Acc, maps:to_list(Map));
iter_pairs(_, _) -> erlang:error(badarg).

%%% ------------------------------------------------------------------
%%% Iterators
%%% ------------------------------------------------------------------

iterator(Map) when is_map(Map) -> [0 | Map];
iterator(Other) -> erlang:error({badmap, Other}).

next({K, V, Next}) -> {K, V, Next};
next(none) -> none;
next([0 | Map]) when is_map(Map) -> chain(maps:to_list(Map));
next(_) -> erlang:error(badarg).

chain([{K, V} | Rest]) -> {K, V, chain(Rest)};
chain([]) -> none.

%%% ------------------------------------------------------------------
%%% Grouping
%%% ------------------------------------------------------------------

groups_from_list(KeyFun, List) when is_function(KeyFun, 1) ->
    case reversed(List) of
        bad -> erlang:error(badarg);
        Rev -> group_1(Rev, KeyFun, #{})
    end;
groups_from_list(_KeyFun, _List) ->
    erlang:error(badarg).

group_1([X | Rest], KeyFun, Acc) ->
    K = KeyFun(X),
    case Acc of
        #{K := Group} -> group_1(Rest, KeyFun, Acc#{K := [X | Group]});
        #{} -> group_1(Rest, KeyFun, Acc#{K => [X]})
    end;
group_1([], _, Acc) -> Acc.

groups_from_list(KeyFun, ValueFun, List)
  when is_function(KeyFun, 1), is_function(ValueFun, 1) ->
    case reversed(List) of
        bad -> erlang:error(badarg);
        Rev -> group_2(Rev, KeyFun, ValueFun, #{})
    end;
groups_from_list(_KeyFun, _ValueFun, _List) ->
    erlang:error(badarg).

group_2([X | Rest], KeyFun, ValueFun, Acc) ->
    K = KeyFun(X),
    V = ValueFun(X),
    case Acc of
        #{K := Group} -> group_2(Rest, KeyFun, ValueFun, Acc#{K := [V | Group]});
        #{} -> group_2(Rest, KeyFun, ValueFun, Acc#{K => [V]})
    end;
group_2([], _, _, Acc) -> Acc.

%% Reverse a proper list; 'bad' for anything else.
reversed(List) -> reversed_1(List, []).

reversed_1([X | Rest], Acc) -> reversed_1(Rest, [X | Acc]);
reversed_1([], Acc) -> Acc;
reversed_1(_, _) -> bad.
