%% beamlet standard library: module `lists`.
%%
%% Written for beamlet; aims to behave like OTP 25's lists module
%% (results, ordering, sort stability and error reasons).
%%
%% reverse/2, member/2, keyfind/3, keymember/3 and keysearch/3 are native
%% BIFs inside the VM; the definitions below are placeholders only.  Inside
%% this module those five must always be called fully qualified
%% (lists:reverse/2 ...) so that the native implementation is used.

-module(lists).

-export([reverse/2, member/2, keyfind/3, keymember/3, keysearch/3]).

-export([all/2, any/2, append/1, append/2, concat/1, delete/2, droplast/1,
         dropwhile/2, duplicate/2, enumerate/1, enumerate/2, filter/2,
         filtermap/2, flatlength/1, flatmap/2, flatten/1, flatten/2,
         foldl/3, foldr/3, foreach/2, join/2, keydelete/3, keymap/3,
         keymerge/3, keyreplace/4, keysort/2, keystore/4, keytake/3,
         last/1, map/2, mapfoldl/3, mapfoldr/3, max/1, merge/1, merge/2,
         merge/3, merge3/3, min/1, nth/2, nthtail/2, partition/2, prefix/2,
         reverse/1, search/2, seq/2, seq/3, sort/1, sort/2, split/2,
         splitwith/2, sublist/2, sublist/3, subtract/2, suffix/2, sum/1,
         takewhile/2, ukeymerge/3, ukeysort/2, umerge/1, umerge/2,
         umerge/3, umerge3/3, uniq/1, uniq/2, unzip/1, unzip3/1, usort/1, usort/2,
         zf/2, zip/2, zip3/3, zipwith/3, zipwith3/4]).

%%% ------------------------------------------------------------------
%%% Native BIF placeholders (never executed inside beamlet).
%%% ------------------------------------------------------------------

reverse(_A1, _A2) -> erlang:nif_error(undef).
member(_A1, _A2) -> erlang:nif_error(undef).
keyfind(_A1, _A2, _A3) -> erlang:nif_error(undef).
keymember(_A1, _A2, _A3) -> erlang:nif_error(undef).
keysearch(_A1, _A2, _A3) -> erlang:nif_error(undef).

%%% ------------------------------------------------------------------
%%% Basic list functions
%%% ------------------------------------------------------------------

reverse([] = L) -> L;
reverse([_] = L) -> L;
reverse([A, B]) -> [B, A];
reverse([A, B | Rest]) -> lists:reverse(Rest, [B, A]).

append(L1, L2) -> L1 ++ L2.

append([]) -> [];
append([L]) -> L;
append([L | Ls]) -> L ++ append(Ls).

subtract(L1, L2) -> L1 -- L2.

concat(Things) -> flatmap(fun to_chars/1, Things).

to_chars(X) when is_atom(X) -> atom_to_list(X);
to_chars(X) when is_integer(X) -> integer_to_list(X);
to_chars(X) when is_float(X) -> float_to_list(X);
to_chars(X) when is_list(X) -> X.

nth(1, [X | _]) -> X;
nth(N, [_ | T]) when N > 1 -> nth(N - 1, T).

nthtail(1, [_ | T]) -> T;
nthtail(N, [_ | T]) when N > 1 -> nthtail(N - 1, T);
nthtail(0, L) when is_list(L) -> L.

last([X | Rest]) -> last_1(X, Rest).

last_1(_, [X | Rest]) -> last_1(X, Rest);
last_1(X, []) -> X.

droplast([_]) -> [];
droplast([X | Rest]) -> [X | droplast(Rest)].

prefix([X | P], [X | L]) -> prefix(P, L);
prefix([], L) when is_list(L) -> true;
prefix([_ | _], L) when is_list(L) -> false.

suffix(Suffix, List) ->
    Skip = length(List) - length(Suffix),
    Skip >= 0 andalso nthtail(Skip, List) =:= Suffix.

delete(X, [X | Rest]) -> Rest;
delete(X, [Y | Rest]) -> [Y | delete(X, Rest)];
delete(_, []) -> [].

duplicate(N, X) when is_integer(N), N >= 0 -> duplicate_1(N, X, []).

duplicate_1(0, _, Acc) -> Acc;
duplicate_1(N, X, Acc) -> duplicate_1(N - 1, X, [X | Acc]).

seq(From, To) when is_integer(From), is_integer(To), From - 1 =< To ->
    seq_down(To - From + 1, To, []).

seq_down(0, _, Acc) -> Acc;
seq_down(N, X, Acc) -> seq_down(N - 1, X - 1, [X | Acc]).

seq(From, To, Step) when is_integer(From), is_integer(To), is_integer(Step) ->
    if
        Step > 0, From - Step =< To; Step < 0, From - Step >= To ->
            Count = (To - From + Step) div Step,
            seq_step(Count, From + Step * (Count - 1), Step, []);
        Step =:= 0, From =:= To ->
            [From];
        true ->
            erlang:error(badarg, [From, To, Step])
    end;
seq(From, To, Step) ->
    erlang:error(badarg, [From, To, Step]).

seq_step(0, _, _, Acc) -> Acc;
seq_step(N, X, Step, Acc) -> seq_step(N - 1, X - Step, Step, [X | Acc]).

sum(L) -> sum_1(L, 0).

sum_1([X | Rest], Acc) -> sum_1(Rest, Acc + X);
sum_1([], Acc) -> Acc.

max([X | Rest]) -> max_1(Rest, X).

max_1([X | Rest], Best) when X > Best -> max_1(Rest, X);
max_1([_ | Rest], Best) -> max_1(Rest, Best);
max_1([], Best) -> Best.

min([X | Rest]) -> min_1(Rest, X).

min_1([X | Rest], Best) when X < Best -> min_1(Rest, X);
min_1([_ | Rest], Best) -> min_1(Rest, Best);
min_1([], Best) -> Best.

sublist(List, Len) when is_integer(Len), is_list(List) -> sublist_1(List, Len).

sublist_1([X | Rest], Len) when Len > 0 -> [X | sublist_1(Rest, Len - 1)];
sublist_1(_, 0) -> [];
sublist_1(List, Len) when is_list(List), Len > 0 -> [].

sublist(List, 1, Len) when is_list(List), is_integer(Len), Len >= 0 ->
    sublist(List, Len);
sublist([], Start, _Len) when is_integer(Start), Start >= 2 ->
    [];
sublist([_ | Rest], Start, Len) when is_integer(Start), Start >= 2 ->
    sublist(Rest, Start - 1, Len).

split(N, List) when is_integer(N), N >= 0, is_list(List) ->
    case split_1(N, List, []) of
        {_, _} = Res -> Res;
        Err -> erlang:error(Err, [N, List])
    end;
split(N, List) ->
    erlang:error(badarg, [N, List]).

split_1(0, Rest, Acc) -> {reverse(Acc), Rest};
split_1(N, [X | Rest], Acc) -> split_1(N - 1, Rest, [X | Acc]);
split_1(_, [], _) -> badarg.

join(_, []) -> [];
join(Sep, [X | Rest]) -> [X | join_1(Sep, Rest)].

join_1(_, []) -> [];
join_1(Sep, [X | Rest]) -> [Sep, X | join_1(Sep, Rest)].

flatten(List) when is_list(List) -> flat(List, []).

flatten(List, Tail) when is_list(List), is_list(Tail) -> flat(List, Tail).

flat([X | Rest], Tail) when is_list(X) -> flat(X, flat(Rest, Tail));
flat([X | Rest], Tail) -> [X | flat(Rest, Tail)];
flat([], Tail) -> Tail.

flatlength(List) -> flatlen(List, 0).

flatlen([X | Rest], N) when is_list(X) -> flatlen(X, flatlen(Rest, N));
flatlen([_ | Rest], N) -> flatlen(Rest, N + 1);
flatlen([], N) -> N.

enumerate(List) -> enumerate(1, List).

enumerate(Index, List) when is_integer(Index), is_list(List) ->
    enum_1(Index, List).

enum_1(I, [X | Rest]) -> [{I, X} | enum_1(I + 1, Rest)];
enum_1(_, []) -> [].

%%% ------------------------------------------------------------------
%%% Zipping
%%% ------------------------------------------------------------------

zip([X | Xs], [Y | Ys]) -> [{X, Y} | zip(Xs, Ys)];
zip([], []) -> [].

zip3([X | Xs], [Y | Ys], [Z | Zs]) -> [{X, Y, Z} | zip3(Xs, Ys, Zs)];
zip3([], [], []) -> [].

unzip(Pairs) -> unzip_1(Pairs, [], []).

unzip_1([{X, Y} | Rest], Xs, Ys) -> unzip_1(Rest, [X | Xs], [Y | Ys]);
unzip_1([], Xs, Ys) -> {reverse(Xs), reverse(Ys)}.

unzip3(Triples) -> unzip3_1(Triples, [], [], []).

unzip3_1([{X, Y, Z} | Rest], Xs, Ys, Zs) ->
    unzip3_1(Rest, [X | Xs], [Y | Ys], [Z | Zs]);
unzip3_1([], Xs, Ys, Zs) ->
    {reverse(Xs), reverse(Ys), reverse(Zs)}.

zipwith(F, [X | Xs], [Y | Ys]) -> [F(X, Y) | zipwith(F, Xs, Ys)];
zipwith(F, [], []) when is_function(F, 2) -> [].

zipwith3(F, [X | Xs], [Y | Ys], [Z | Zs]) ->
    [F(X, Y, Z) | zipwith3(F, Xs, Ys, Zs)];
zipwith3(F, [], [], []) when is_function(F, 3) -> [].

%%% ------------------------------------------------------------------
%%% Higher-order functions
%%% ------------------------------------------------------------------

%% all/2, any/2, map/2 and foldl/3 check the fun first and then
%% dispatch on the list with a case (as OTP 25 does), so a non-list
%% argument gives {case_clause, X}.
all(Pred, List) when is_function(Pred, 1) ->
    case List of
        [X | Rest] -> all_1(Pred, X, Rest);
        [] -> true
    end.

all_1(Pred, X, Rest) ->
    case Pred(X) of
        true -> all_2(Pred, Rest);
        false -> false
    end.

all_2(Pred, [X | Rest]) -> all_1(Pred, X, Rest);
all_2(_, []) -> true.

any(Pred, List) when is_function(Pred, 1) ->
    case List of
        [X | Rest] -> any_1(Pred, X, Rest);
        [] -> false
    end.

any_1(Pred, X, Rest) ->
    case Pred(X) of
        true -> true;
        false -> any_2(Pred, Rest)
    end.

any_2(Pred, [X | Rest]) -> any_1(Pred, X, Rest);
any_2(_, []) -> false.

map(F, List) when is_function(F, 1) ->
    case List of
        [X | Rest] -> [F(X) | map_1(F, Rest)];
        [] -> []
    end.

map_1(F, [X | Rest]) -> [F(X) | map_1(F, Rest)];
map_1(_, []) -> [].

flatmap(F, [X | Rest]) when is_function(F, 1) -> F(X) ++ flatmap(F, Rest);
flatmap(F, []) when is_function(F, 1) -> [].

foldl(F, Acc, List) when is_function(F, 2) ->
    case List of
        [X | Rest] -> foldl_1(F, F(X, Acc), Rest);
        [] -> Acc
    end.

foldl_1(F, Acc, [X | Rest]) -> foldl_1(F, F(X, Acc), Rest);
foldl_1(_, Acc, []) -> Acc.

foldr(F, Acc, [X | Rest]) -> F(X, foldr(F, Acc, Rest));
foldr(F, Acc, []) when is_function(F, 2) -> Acc.

filter(Pred, List) when is_function(Pred, 1) ->
    [X || X <- List, Pred(X)].

partition(Pred, List) -> partition_1(Pred, List, [], []).

partition_1(Pred, [X | Rest], Yes, No) when is_function(Pred, 1) ->
    case Pred(X) of
        true -> partition_1(Pred, Rest, [X | Yes], No);
        false -> partition_1(Pred, Rest, Yes, [X | No])
    end;
partition_1(Pred, [], Yes, No) when is_function(Pred, 1) ->
    {reverse(Yes), reverse(No)}.

filtermap(F, [X | Rest]) when is_function(F, 1) ->
    case F(X) of
        false -> filtermap(F, Rest);
        true -> [X | filtermap(F, Rest)];
        {true, Y} -> [Y | filtermap(F, Rest)]
    end;
filtermap(F, []) when is_function(F, 1) -> [].

zf(F, List) -> filtermap(F, List).

foreach(F, [X | Rest]) when is_function(F, 1) -> F(X), foreach(F, Rest);
foreach(F, []) when is_function(F, 1) -> ok.

mapfoldl(F, Acc0, [X | Rest]) when is_function(F, 2) ->
    {Y, Acc1} = F(X, Acc0),
    {Ys, Acc2} = mapfoldl(F, Acc1, Rest),
    {[Y | Ys], Acc2};
mapfoldl(F, Acc, []) when is_function(F, 2) -> {[], Acc}.

mapfoldr(F, Acc0, [X | Rest]) ->
    {Ys, Acc1} = mapfoldr(F, Acc0, Rest),
    {Y, Acc2} = F(X, Acc1),
    {[Y | Ys], Acc2};
mapfoldr(F, Acc, []) when is_function(F, 2) -> {[], Acc}.

takewhile(Pred, [X | Rest]) when is_function(Pred, 1) ->
    case Pred(X) of
        true -> [X | takewhile(Pred, Rest)];
        false -> []
    end;
takewhile(Pred, []) when is_function(Pred, 1) -> [].

dropwhile(Pred, [X | Rest] = List) when is_function(Pred, 1) ->
    case Pred(X) of
        true -> dropwhile(Pred, Rest);
        false -> List
    end;
dropwhile(Pred, []) when is_function(Pred, 1) -> [].

splitwith(Pred, List) when is_function(Pred, 1) -> splitwith_1(Pred, List, []).

splitwith_1(Pred, [X | Rest] = List, Taken) ->
    case Pred(X) of
        true -> splitwith_1(Pred, Rest, [X | Taken]);
        false -> {reverse(Taken), List}
    end;
splitwith_1(_, [], Taken) ->
    {reverse(Taken), []}.

search(Pred, [X | Rest]) when is_function(Pred, 1) ->
    case Pred(X) of
        true -> {value, X};
        false -> search(Pred, Rest)
    end;
search(Pred, []) when is_function(Pred, 1) -> false.

uniq(List) -> uniq_1(List, #{}).

uniq_1([X | Rest], Seen) ->
    case is_map_key(X, Seen) of
        true -> uniq_1(Rest, Seen);
        false -> [X | uniq_1(Rest, Seen#{X => []})]
    end;
uniq_1([], _) -> [].

uniq(F, List) when is_function(F, 1) -> uniq_2(List, F, #{}).

uniq_2([X | Rest], F, Seen) ->
    K = F(X),
    case is_map_key(K, Seen) of
        true -> uniq_2(Rest, F, Seen);
        false -> [X | uniq_2(Rest, F, Seen#{K => []})]
    end;
uniq_2([], _, _) -> [].

%%% ------------------------------------------------------------------
%%% Tuple-list functions
%%% ------------------------------------------------------------------

keydelete(Key, N, List) when is_integer(N), N > 0 -> keydelete_1(Key, N, List).

keydelete_1(Key, N, [T | Rest]) when element(N, T) == Key -> Rest;
keydelete_1(Key, N, [T | Rest]) -> [T | keydelete_1(Key, N, Rest)];
keydelete_1(_, _, []) -> [].

keyreplace(Key, N, List, New) when is_integer(N), N > 0, is_tuple(New) ->
    keyreplace_1(Key, N, List, New).

keyreplace_1(Key, N, [T | Rest], New) when element(N, T) == Key -> [New | Rest];
keyreplace_1(Key, N, [T | Rest], New) -> [T | keyreplace_1(Key, N, Rest, New)];
keyreplace_1(_, _, [], _) -> [].

keystore(Key, N, List, New) when is_integer(N), N > 0, is_tuple(New) ->
    keystore_1(Key, N, List, New).

keystore_1(Key, N, [T | Rest], New) when element(N, T) == Key -> [New | Rest];
keystore_1(Key, N, [T | Rest], New) -> [T | keystore_1(Key, N, Rest, New)];
keystore_1(_, _, [], New) -> [New].

keytake(Key, N, List) when is_integer(N), N > 0 -> keytake_1(Key, N, List, []).

keytake_1(Key, N, [T | Rest], Before) when element(N, T) == Key ->
    {value, T, lists:reverse(Before, Rest)};
keytake_1(Key, N, [T | Rest], Before) ->
    keytake_1(Key, N, Rest, [T | Before]);
keytake_1(_, _, [], _) -> false.

keymap(F, N, [T | Rest]) ->
    [setelement(N, T, F(element(N, T))) | keymap(F, N, Rest)];
keymap(F, N, []) when is_integer(N), N >= 1, is_function(F, 1) -> [].

%%% ------------------------------------------------------------------
%%% Sorting (stable natural merge sort) and merging
%%% ------------------------------------------------------------------

%% sort/1: standard term order.
sort([] = L) -> L;
sort([_] = L) -> L;
sort([X, Y | Rest]) -> merge_all(runs(X, Y, Rest, [])).

%% Split into maximal non-decreasing or strictly decreasing runs;
%% returns the runs (each ascending) in original order.
runs(X, Y, Rest, Runs) when X =< Y -> run_up(Y, Rest, [Y, X], Runs);
runs(X, Y, Rest, Runs) -> run_down(Y, Rest, [Y, X], Runs).

run_up(Last, [Z | Rest], Acc, Runs) when Last =< Z ->
    run_up(Z, Rest, [Z | Acc], Runs);
run_up(_, Rest, Acc, Runs) ->
    runs_next(Rest, [reverse(Acc) | Runs]).

run_down(Last, [Z | Rest], Acc, Runs) when Last > Z ->
    run_down(Z, Rest, [Z | Acc], Runs);
run_down(_, Rest, Acc, Runs) ->
    runs_next(Rest, [Acc | Runs]).

runs_next([], Runs) -> reverse(Runs);
runs_next([X], Runs) -> reverse([[X] | Runs]);
runs_next([X, Y | Rest], Runs) -> runs(X, Y, Rest, Runs).

merge_all([Run]) -> Run;
merge_all(Runs) -> merge_all(merge_pairs(Runs, [])).

merge_pairs([A, B | Rest], Acc) -> merge_pairs(Rest, [m2(A, B, []) | Acc]);
merge_pairs([A], Acc) -> reverse([A | Acc]);
merge_pairs([], Acc) -> reverse(Acc).

%% Stable merge in term order; elements of the first list win ties.
m2([X | Xs], [Y | _] = Ys, Acc) when X =< Y -> m2(Xs, Ys, [X | Acc]);
m2([_ | _] = Xs, [Y | Ys], Acc) -> m2(Xs, Ys, [Y | Acc]);
m2([], Ys, Acc) -> lists:reverse(Acc, Ys);
m2(Xs, [], Acc) -> lists:reverse(Acc, Xs).

%% usort/1: standard term order, keeps the first of ==-equal elements.
usort([] = L) -> L;
usort([_] = L) -> L;
usort([X | Rest]) -> umerge_all(uruns(X, Rest, [])).

uruns(X, [Y | Rest], Runs) when X < Y -> urun_up(Y, Rest, [Y, X], Runs);
uruns(X, [Y | Rest], Runs) when X == Y -> uruns(X, Rest, Runs);
uruns(X, [Y | Rest], Runs) -> urun_down(Y, Rest, [Y, X], Runs);
uruns(X, [], Runs) -> reverse([[X] | Runs]).

urun_up(Last, [Z | Rest], Acc, Runs) when Last < Z ->
    urun_up(Z, Rest, [Z | Acc], Runs);
urun_up(Last, [Z | Rest], Acc, Runs) when Last == Z ->
    urun_up(Last, Rest, Acc, Runs);
urun_up(_, Rest, Acc, Runs) ->
    uruns_next(Rest, [reverse(Acc) | Runs]).

urun_down(Last, [Z | Rest], Acc, Runs) when Last > Z ->
    urun_down(Z, Rest, [Z | Acc], Runs);
urun_down(_, Rest, Acc, Runs) ->
    uruns_next(Rest, [Acc | Runs]).

uruns_next([], Runs) -> reverse(Runs);
uruns_next([X | Rest], Runs) -> uruns(X, Rest, Runs).

umerge_all([Run]) -> Run;
umerge_all(Runs) -> umerge_all(umerge_pairs(Runs, [])).

umerge_pairs([A, B | Rest], Acc) -> umerge_pairs(Rest, [um2(A, B, []) | Acc]);
umerge_pairs([A], Acc) -> reverse([A | Acc]);
umerge_pairs([], Acc) -> reverse(Acc).

%% Unique merge in term order: on ==, the first list's element is kept
%% and the second list's element is dropped.
um2([X | Xs], [Y | _] = Ys, Acc) when X < Y -> um2(Xs, Ys, [X | Acc]);
um2([X | Xs], [Y | Ys], Acc) when X == Y -> um2(Xs, Ys, [X | Acc]);
um2([_ | _] = Xs, [Y | Ys], Acc) -> um2(Xs, Ys, [Y | Acc]);
um2([], Ys, Acc) -> lists:reverse(Acc, Ys);
um2(Xs, [], Acc) -> lists:reverse(Acc, Xs).

%% sort/2 with an ordering fun: F(A, B) is true when A =< B.
sort(F, []) when is_function(F, 2) -> [];
sort(F, [_] = L) when is_function(F, 2) -> L;
sort(F, [X, Y | Rest]) -> merge_all_f(F, fruns(F, X, Y, Rest, [])).

fruns(F, X, Y, Rest, Runs) ->
    case F(X, Y) of
        true -> frun_up(F, Y, Rest, [Y, X], Runs);
        false -> frun_down(F, Y, Rest, [Y, X], Runs)
    end.

frun_up(F, Last, [Z | Rest] = L, Acc, Runs) ->
    case F(Last, Z) of
        true -> frun_up(F, Z, Rest, [Z | Acc], Runs);
        false -> fruns_next(F, L, [reverse(Acc) | Runs])
    end;
frun_up(F, _, Rest, Acc, Runs) ->
    fruns_next(F, Rest, [reverse(Acc) | Runs]).

frun_down(F, Last, [Z | Rest] = L, Acc, Runs) ->
    case F(Last, Z) of
        false -> frun_down(F, Z, Rest, [Z | Acc], Runs);
        true -> fruns_next(F, L, [Acc | Runs])
    end;
frun_down(F, _, Rest, Acc, Runs) ->
    fruns_next(F, Rest, [Acc | Runs]).

fruns_next(_, [], Runs) -> reverse(Runs);
fruns_next(_, [X], Runs) -> reverse([[X] | Runs]);
fruns_next(F, [X, Y | Rest], Runs) -> fruns(F, X, Y, Rest, Runs).

merge_all_f(_, [Run]) -> Run;
merge_all_f(F, Runs) -> merge_all_f(F, merge_pairs_f(F, Runs, [])).

merge_pairs_f(F, [A, B | Rest], Acc) ->
    merge_pairs_f(F, Rest, [fm2(F, A, B, []) | Acc]);
merge_pairs_f(_, [A], Acc) -> reverse([A | Acc]);
merge_pairs_f(_, [], Acc) -> reverse(Acc).

fm2(F, [X | Xs] = XL, [Y | Ys] = YL, Acc) ->
    case F(X, Y) of
        true -> fm2(F, Xs, YL, [X | Acc]);
        false -> fm2(F, XL, Ys, [Y | Acc])
    end;
fm2(_, [], Ys, Acc) -> lists:reverse(Acc, Ys);
fm2(_, Xs, [], Acc) -> lists:reverse(Acc, Xs).

%% usort/2: like sort/2 but of elements A, B with F(A,B) and F(B,A)
%% only the first is kept.
usort(F, []) when is_function(F, 2) -> [];
usort(F, [_] = L) when is_function(F, 2) -> L;
usort(F, [X | Rest]) when is_function(F, 2) -> umerge_all_f(F, ufruns(F, X, Rest, [])).

ufruns(F, X, [Y | Rest], Runs) ->
    case F(X, Y) of
        true ->
            case F(Y, X) of
                true -> ufruns(F, X, Rest, Runs);
                false -> ufrun_up(F, Y, Rest, [Y, X], Runs)
            end;
        false ->
            ufrun_down(F, Y, Rest, [Y, X], Runs)
    end;
ufruns(_, X, [], Runs) ->
    reverse([[X] | Runs]).

ufrun_up(F, Last, [Z | Rest] = L, Acc, Runs) ->
    case F(Last, Z) of
        true ->
            case F(Z, Last) of
                true -> ufrun_up(F, Last, Rest, Acc, Runs);
                false -> ufrun_up(F, Z, Rest, [Z | Acc], Runs)
            end;
        false ->
            ufruns_next(F, L, [reverse(Acc) | Runs])
    end;
ufrun_up(F, _, Rest, Acc, Runs) ->
    ufruns_next(F, Rest, [reverse(Acc) | Runs]).

ufrun_down(F, Last, [Z | Rest] = L, Acc, Runs) ->
    case F(Last, Z) of
        false -> ufrun_down(F, Z, Rest, [Z | Acc], Runs);
        true -> ufruns_next(F, L, [Acc | Runs])
    end;
ufrun_down(F, _, Rest, Acc, Runs) ->
    ufruns_next(F, Rest, [Acc | Runs]).

ufruns_next(_, [], Runs) -> reverse(Runs);
ufruns_next(F, [X | Rest], Runs) -> ufruns(F, X, Rest, Runs).

umerge_all_f(_, [Run]) -> Run;
umerge_all_f(F, Runs) -> umerge_all_f(F, umerge_pairs_f(F, Runs, [])).

umerge_pairs_f(F, [A, B | Rest], Acc) ->
    umerge_pairs_f(F, Rest, [ufm2(F, A, B, []) | Acc]);
umerge_pairs_f(_, [A], Acc) -> reverse([A | Acc]);
umerge_pairs_f(_, [], Acc) -> reverse(Acc).

ufm2(F, [X | Xs] = XL, [Y | Ys] = YL, Acc) ->
    case F(X, Y) of
        true ->
            case F(Y, X) of
                true -> ufm2(F, Xs, Ys, [X | Acc]);
                false -> ufm2(F, Xs, YL, [X | Acc])
            end;
        false ->
            ufm2(F, XL, Ys, [Y | Acc])
    end;
ufm2(_, [], Ys, Acc) -> lists:reverse(Acc, Ys);
ufm2(_, Xs, [], Acc) -> lists:reverse(Acc, Xs).

%% Key sorts: ordering on element N of each tuple.
keysort(N, List) when is_integer(N), N > 0 ->
    case List of
        [] -> List;
        [_] -> List;
        [_, _ | _] -> sort(key_le(N), List)
    end.

ukeysort(N, List) when is_integer(N), N > 0 ->
    case List of
        [] -> List;
        [_] -> List;
        [_, _ | _] -> usort(key_le(N), List)
    end.

key_le(N) -> fun(A, B) -> element(N, A) =< element(N, B) end.

%% Merging already sorted lists.
%% (The argument checks mirror OTP 25: e.g. merge(X, []) returns X
%% unchecked while merge([], foo) is a function_clause.)
merge(Xs, []) -> Xs;
merge(Xs, [_ | _] = Ys) -> m2(Xs, Ys, []).

merge3(Xs, Ys, Zs) -> merge(Xs, merge(Ys, Zs)).

merge(Lists) -> merge_list(drop_empty(Lists)).

merge_list([]) -> [];
merge_list([L]) -> L;
merge_list([L | Ls]) -> merge(L, merge_list(Ls)).

drop_empty([[] | Ls]) -> drop_empty(Ls);
drop_empty([L | Ls]) -> [L | drop_empty(Ls)];
drop_empty([]) -> [].

merge(F, Xs, []) when is_function(F, 2) -> Xs;
merge(F, Xs, [_ | _] = Ys) when is_function(F, 2) -> fm2(F, Xs, Ys, []).

%% Unique merges.  On (possibly invalid) input they behave like OTP:
%% ties go to the first list, and an element of the second list is
%% dropped when it is equal to the element of the first list that was
%% output immediately before it.
umerge([], Ys) -> Ys;
umerge(Xs, Ys) -> uc(Xs, Ys, none, []).

uc([X | Xs], [Y | _] = Ys, _, Acc) when X =< Y -> uc(Xs, Ys, {prev, X}, [X | Acc]);
uc(Xs, [Y | Ys], {prev, P}, Acc) when P == Y -> uc(Xs, Ys, none, Acc);
uc(Xs, [Y | Ys], _, Acc) -> uc(Xs, Ys, none, [Y | Acc]);
uc(Xs, [], _, Acc) when is_list(Xs) -> lists:reverse(Acc, Xs).

umerge3(Xs, Ys, []) -> umerge(Xs, Ys);
umerge3(Xs, Ys, Zs) -> umerge(Xs, umerge(Ys, Zs)).

umerge(Lists) -> umerge_list(drop_empty(Lists)).

umerge_list([]) -> [];
umerge_list([L]) -> L;
umerge_list([L | Ls]) -> umerge(L, umerge_list(Ls)).

umerge(F, [], Ys) when is_function(F, 2) -> Ys;
umerge(F, Xs, Ys) when is_function(F, 2) -> ucf(F, Xs, Ys, none, []).

ucf(F, [X | Xs1] = Xs, [Y | Ys1] = Ys, Prev, Acc) ->
    case F(X, Y) of
        true ->
            ucf(F, Xs1, Ys, {prev, X}, [X | Acc]);
        false ->
            case Prev of
                {prev, P} ->
                    case F(Y, P) of
                        true -> ucf(F, Xs, Ys1, none, Acc);
                        false -> ucf(F, Xs, Ys1, none, [Y | Acc])
                    end;
                none ->
                    ucf(F, Xs, Ys1, none, [Y | Acc])
            end
    end;
ucf(F, [], [Y | Ys1], {prev, P}, Acc) ->
    case F(Y, P) of
        true -> lists:reverse(Acc, Ys1);
        false -> lists:reverse(Acc, [Y | Ys1])
    end;
ucf(_, [], Ys, none, Acc) -> lists:reverse(Acc, Ys);
ucf(_, Xs, [], _, Acc) when is_list(Xs) -> lists:reverse(Acc, Xs).

%% keymerge/3: stable merge on element N; ties go to the first list.
keymerge(N, Xs, Ys) when is_integer(N), N > 0 ->
    case Ys of
        [Y | Ys1] -> km(N, Xs, Y, element(N, Y), Ys1, []);
        [] -> Xs
    end.

km(N, [X | Xs1] = Xs, Y, KY, Ys, Acc) ->
    case element(N, X) =< KY of
        true ->
            km(N, Xs1, Y, KY, Ys, [X | Acc]);
        false ->
            case Ys of
                [Y1 | Ys1] -> km(N, Xs, Y1, element(N, Y1), Ys1, [Y | Acc]);
                [] -> lists:reverse(Acc, [Y | Xs])
            end
    end;
km(_, [], Y, _, Ys, Acc) ->
    lists:reverse(Acc, [Y | Ys]).

%% ukeymerge/3: like umerge/2 but comparing element N.
ukeymerge(N, Xs, Ys) when is_integer(N), N > 0 ->
    case Xs of
        [X | _] -> _ = element(N, X), ukm(N, Xs, Ys, none, []);
        [] -> Ys
    end.

ukm(N, [X | Xs1] = Xs, [Y | Ys1] = Ys, Prev, Acc) ->
    KX = element(N, X),
    KY = element(N, Y),
    if
        KX =< KY -> ukm(N, Xs1, Ys, {prev, KX}, [X | Acc]);
        true ->
            case Prev of
                {prev, KP} when KP == KY -> ukm(N, Xs, Ys1, none, Acc);
                _ -> ukm(N, Xs, Ys1, none, [Y | Acc])
            end
    end;
ukm(N, [], [Y | Ys1] = Ys, Prev, Acc) ->
    case Prev of
        {prev, KP} ->
            case KP == element(N, Y) of
                true -> lists:reverse(Acc, Ys1);
                false -> lists:reverse(Acc, Ys)
            end;
        none ->
            lists:reverse(Acc, Ys)
    end;
ukm(_, Xs, [], _, Acc) when is_list(Xs) -> lists:reverse(Acc, Xs).
