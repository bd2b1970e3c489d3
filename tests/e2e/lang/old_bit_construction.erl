%% Binaries built by pre-OTP 25 code: this module is compiled as OTP 22-24's compiler (and
%% OTP 25's no_bs_create_bin option, used for Debian's Elixir and rebar3) compiles it, with
%% bs_init2, bs_init_bits, bs_append, bs_private_append and the bs_put_* instructions, which
%% the loader turns into bs_create_bin.
-module(old_bit_construction).
-compile([no_bs_create_bin, no_type_opt]).
-export([main/0]).

show(Label, X) -> io:format("~s: ~p~n", [Label, X]).

err(F) -> try F() catch C:R -> {C, R} end.

ints(A, B, C) -> <<A:8, B:16/little, C:32/signed-big, A:3, B:5, C:64/native>>.
floats(F) -> <<F/float, F:32/float, F:64/float-little>>.
bins(B, N) -> <<B/binary, B:N/binary, B/bits, "tail">>.
sized(X, N, U) -> <<X:N/unit:8>> = <<X:(N*8)>>, {<<X:N/unit:8>>, U}.
utf(C) -> <<C/utf8, C/utf16, C/utf16-little, C/utf32, C/utf32-little>>.
bits(A) -> <<A:1, 0:2, A:13>>.
append(Acc, L) -> lists:foldl(fun(I, Bin) -> <<Bin/binary, I:8, "-">> end, Acc, L).
comprehension(L) -> << <<(X * 2):16>> || X <- L >>.
bit_comprehension(L) -> << <<X:3>> || X <- L >>.
strings(S) -> <<"abc", S/binary, "def">>.
dynamic(Size, V) -> <<V:Size>>.

main() ->
    show("integers", ints(5, 300, -70000)),
    show("floats", floats(1.5)),
    show("binaries", bins(<<"xyz">>, 2)),
    show("unit", sized(258, 2, 8)),
    show("utf", utf(16#1F600)),
    show("bits", bits(1)),
    show("append", append(<<"start:">>, [1, 2, 3])),
    show("append to a bitstring", err(fun() -> append(<<1:3>>, [9]) end)),
    show("comprehension", comprehension([1, 2, 3])),
    show("bit comprehension", bit_comprehension([1, 2, 3, 4, 5])),
    show("strings", strings(<<"-">>)),
    show("dynamic size", [dynamic(S, 255) || S <- [0, 1, 7, 9, 64]]),
    show("bad integer", err(fun() -> ints(a, 1, 2) end)),
    show("bad size", err(fun() -> dynamic(-1, 1) end)),
    show("bad size type", err(fun() -> dynamic(x, 1) end)),
    show("bad float", err(fun() -> floats(x) end)),
    show("bad binary", err(fun() -> bins(<<1:3>>, 1) end)),
    show("short binary", err(fun() -> bins(<<"x">>, 5) end)),
    show("bad code point", err(fun() -> utf(16#D800) end)),
    show("bad append", err(fun() -> append(notabinary, [1]) end)),
    ok.
