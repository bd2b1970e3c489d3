-module(zlib_otp).
-export([main/0]).
-compile(nowarn_deprecated_function).

%% OTP's preloaded zlib module over beamlet's zlib NIFs (bif/zlib_nifs.cpp): the one-shot
%% functions, streams with every window-bits kind, dictionaries, safeInflate, the end-of-stream
%% behaviours, checksums, large data, errors (raised by the NIFs and by zlib.erl), controlling
%% processes, iolist_to_iovec/1, and OTP's compiler writing a .beam (its literal table is
%% compressed with zlib).
main() ->
    one_shot(),
    streams(),
    dictionaries(),
    safe_inflate(),
    end_of_stream(),
    checksums(),
    buffer_size(),
    large_data(),
    errors(),
    controllers(),
    many_streams(),
    iovecs(),
    compiler(),
    ok.

text() ->
    <<"The quick brown fox jumps over the lazy dog. The quick brown fox jumps over the lazy dog. "
      "Pack my box with five dozen liquor jugs.">>.

show(Label, Term) -> io:format("~s: ~p~n", [Label, Term]).

%% A caught exception as {Class, Reason, {M, F, Arity}} of its innermost frame.
attempt(F) ->
    try F() of
        V -> {ok, V}
    catch
        C:R:S -> {C, R, top(S)}
    end.

top([{M, F, A, _} | _]) when is_list(A) -> {M, F, length(A)};
top([{M, F, A, _} | _]) -> {M, F, A};
top(_) -> none.

hex(Bin) -> binary:encode_hex(erlang:md5(Bin)).

one_shot() ->
    T = text(),
    C = zlib:compress(T),
    show("compress", C),
    show("uncompress", zlib:uncompress(C) =:= T),
    show("uncompress iolist", zlib:uncompress([binary_to_list(binary:part(C, 0, 5)), binary:part(C, 5, byte_size(C) - 5)])),
    Z = zlib:zip(T),
    show("zip", Z),
    show("unzip", zlib:unzip(Z) =:= T),
    G = zlib:gzip(T),
    show("gzip", G),
    show("gunzip", zlib:gunzip(G) =:= T),
    show("gunzip concatenated", zlib:gunzip([G, zlib:gzip(<<"second">>)])),
    show("compress empty", zlib:compress(<<>>)),
    show("uncompress empty stream", zlib:uncompress(zlib:compress(<<>>))),
    show("compress iolist", zlib:compress(["abc", [$d, <<"ef">>], [[]], <<>>]) =:= zlib:compress(<<"abcdef">>)).

streams() ->
    T = text(),
    lists:foreach(
      fun({Level, Bits}) ->
              Z = zlib:open(),
              ok = zlib:deflateInit(Z, Level, deflated, Bits, 8, default),
              C = iolist_to_binary(zlib:deflate(Z, T, finish)),
              ok = zlib:deflateEnd(Z),
              ok = zlib:inflateInit(Z, Bits),
              Plain = iolist_to_binary(zlib:inflate(Z, C)),
              ok = zlib:inflateEnd(Z),
              ok = zlib:close(Z),
              io:format("level ~p bits ~p: ~p bytes ~s ~p~n", [Level, Bits, byte_size(C), hex(C), Plain =:= T])
      end,
      [{L, B} || L <- [none, best_speed, default, best_compression, 0, 1, 5, 9], B <- [-15, 15, 31]]),
    %% deflate in pieces, with sync and full flushes, and deflateParams in the middle.
    Z = zlib:open(),
    ok = zlib:deflateInit(Z),
    P1 = zlib:deflate(Z, <<"first part, ">>),
    P2 = zlib:deflate(Z, [<<"second part, ">>], sync),
    ok = zlib:deflateParams(Z, best_compression, filtered),
    P3 = zlib:deflate(Z, "third part", full),
    ok = zlib:deflateParams(Z, none, default),
    P4 = zlib:deflate(Z, <<"fourth">>, finish),
    show("pieces", [iolist_to_binary(P) || P <- [P1, P2, P3, P4]]),
    ok = zlib:deflateEnd(Z),
    show("pieces inflated", zlib:uncompress([P1, P2, P3, P4])),
    %% deflateReset and inflateReset let a stream be used again.
    ok = zlib:deflateInit(Z, 1),
    _ = zlib:deflate(Z, <<"dropped">>),
    ok = zlib:deflateReset(Z),
    C = iolist_to_binary(zlib:deflate(Z, <<"kept">>, finish)),
    show("after deflateReset", {C, zlib:uncompress(C)}),
    ok = zlib:deflateEnd(Z),
    ok = zlib:inflateInit(Z),
    _ = zlib:inflate(Z, binary:part(C, 0, 4)),
    ok = zlib:inflateReset(Z),
    show("after inflateReset", zlib:inflate(Z, C)),
    ok = zlib:inflateEnd(Z),
    %% strategies
    lists:foreach(
      fun(S) ->
              ok = zlib:deflateInit(Z, default, deflated, 15, 9, S),
              D = iolist_to_binary(zlib:deflate(Z, T, finish)),
              ok = zlib:deflateEnd(Z),
              io:format("strategy ~p: ~p ~p~n", [S, byte_size(D), zlib:uncompress(D) =:= T])
      end,
      [default, filtered, huffman_only, rle]),
    %% memory levels and small windows
    lists:foreach(
      fun({Mem, Bits}) ->
              ok = zlib:deflateInit(Z, default, deflated, Bits, Mem, default),
              D = iolist_to_binary(zlib:deflate(Z, T, finish)),
              ok = zlib:deflateEnd(Z),
              ok = zlib:inflateInit(Z, Bits),
              Back = iolist_to_binary(zlib:inflate(Z, D)),
              ok = zlib:inflateEnd(Z),
              io:format("mem ~p bits ~p: ~p ~p~n", [Mem, Bits, byte_size(D), Back =:= T])
      end,
      [{1, 9}, {9, 9}, {4, -9}, {8, 25}]),
    %% inflateInit with 47 (32 + 15): zlib or gzip, detected from the header.
    lists:foreach(
      fun(D) ->
              ok = zlib:inflateInit(Z, 47),
              Back = iolist_to_binary(zlib:inflate(Z, D)),
              ok = zlib:inflateEnd(Z),
              show("auto header", Back =:= T)
      end,
      [zlib:compress(T), zlib:gzip(T)]),
    %% the deprecated inflateChunk
    ok = zlib:setBufSize(Z, 50),
    ok = zlib:inflateInit(Z),
    First = zlib:inflateChunk(Z, zlib:compress(T)),
    show("inflateChunk", First),
    show("inflateChunk rest", chunks(Z)),
    ok = zlib:inflateEnd(Z),
    zlib:close(Z).

chunks(Z) ->
    case zlib:inflateChunk(Z) of
        {more, D} -> [D | chunks(Z)];
        D -> [D]
    end.

dictionaries() ->
    Dict = <<"quick brown fox lazy dog liquor jugs">>,
    T = text(),
    Z = zlib:open(),
    ok = zlib:deflateInit(Z),
    Adler = zlib:deflateSetDictionary(Z, Dict),
    show("deflateSetDictionary", {Adler, Adler =:= erlang:adler32(Dict)}),
    C = iolist_to_binary(zlib:deflate(Z, T, finish)),
    ok = zlib:deflateEnd(Z),
    show("with dictionary", byte_size(C)),
    %% The default: an exception, the output so far is kept for the next call.
    ok = zlib:inflateInit(Z),
    show("inflate needs dictionary", attempt(fun() -> zlib:inflate(Z, C) end)),
    ok = zlib:inflateSetDictionary(Z, Dict),
    show("inflate after dictionary", iolist_to_binary(zlib:inflate(Z, [])) =:= T),
    show("inflateGetDictionary", zlib:inflateGetDictionary(Z)),
    ok = zlib:inflateEnd(Z),
    %% {exception_on_need_dict, false}: the need is a result.
    ok = zlib:inflateInit(Z),
    {need_dictionary, Adler2, Out} = zlib:inflate(Z, C, [{exception_on_need_dict, false}]),
    show("need_dictionary result", {Adler2, Out}),
    show("wrong dictionary", attempt(fun() -> zlib:inflateSetDictionary(Z, <<"wrong">>) end)),
    ok = zlib:inflateSetDictionary(Z, Dict),
    show("rest", iolist_to_binary(zlib:inflate(Z, [], [{exception_on_need_dict, false}])) =:= T),
    ok = zlib:inflateEnd(Z),
    %% A raw stream: the dictionary is set before inflating.
    ok = zlib:deflateInit(Z, default, deflated, -15, 8, default),
    RawAdler = zlib:deflateSetDictionary(Z, Dict),
    R = iolist_to_binary(zlib:deflate(Z, T, finish)),
    ok = zlib:deflateEnd(Z),
    show("raw dictionary adler", RawAdler),
    ok = zlib:inflateInit(Z, -15),
    ok = zlib:inflateSetDictionary(Z, Dict),
    show("raw with dictionary", iolist_to_binary(zlib:inflate(Z, R)) =:= T),
    ok = zlib:inflateEnd(Z),
    %% safeInflate reports the need as a result too.
    ok = zlib:inflateInit(Z),
    show("safeInflate need", zlib:safeInflate(Z, C)),
    ok = zlib:inflateSetDictionary(Z, Dict),
    {finished, Rest} = zlib:safeInflate(Z, []),
    show("safeInflate after dictionary", iolist_to_binary(Rest) =:= T),
    ok = zlib:inflateEnd(Z),
    zlib:close(Z).

safe_inflate() ->
    Big = iolist_to_binary([integer_to_list(N) ++ " " || N <- lists:seq(1, 20000)]),
    C = zlib:compress(Big),
    Z = zlib:open(),
    ok = zlib:inflateInit(Z),
    Sizes = safe_loop(Z, zlib:safeInflate(Z, C), []),
    show("safeInflate sizes", {byte_size(C), Sizes, lists:sum(Sizes) =:= byte_size(Big)}),
    ok = zlib:inflateEnd(Z),
    zlib:close(Z).

safe_loop(Z, {continue, Out}, Acc) -> safe_loop(Z, zlib:safeInflate(Z, []), [iolist_size(Out) | Acc]);
safe_loop(_Z, {finished, Out}, Acc) -> lists:reverse([iolist_size(Out) | Acc]).

end_of_stream() ->
    A = zlib:compress(<<"first stream">>),
    B = zlib:compress(<<"second stream">>),
    Z = zlib:open(),
    lists:foreach(
      fun(Eos) ->
              ok = zlib:inflateInit(Z, 15, Eos),
              R = attempt(fun() -> iolist_to_binary(zlib:inflate(Z, [A, B])) end),
              E = attempt(fun() -> zlib:inflateEnd(Z) end),
              io:format("eos ~p: ~p ~p~n", [Eos, R, E])
      end,
      [cut, reset, error]),
    %% after the end of a stream, cut drops later input
    ok = zlib:inflateInit(Z),
    X1 = zlib:inflate(Z, A),
    X2 = zlib:inflate(Z, <<"trailing garbage">>),
    show("cut later input", {X1, X2, zlib:inflateEnd(Z)}),
    zlib:close(Z).

checksums() ->
    A = <<"hello ">>,
    B = <<"world, and more">>,
    CA = erlang:crc32(A), CB = erlang:crc32(B),
    AA = erlang:adler32(A), AB = erlang:adler32(B),
    show("crc32", {CA, CB, erlang:crc32(<<A/binary, B/binary>>)}),
    show("crc32_combine", erlang:crc32_combine(CA, CB, byte_size(B))),
    show("adler32", {AA, AB, erlang:adler32(<<A/binary, B/binary>>)}),
    show("adler32_combine", erlang:adler32_combine(AA, AB, byte_size(B))),
    show("combine edges", [erlang:crc32_combine(0, 0, 0), erlang:crc32_combine(16#FFFFFFFF, 16#FFFFFFFF, 16#FFFFFFFF),
                           erlang:adler32_combine(1, 1, 0), erlang:adler32_combine(16#FFFFFFFF, 0, 7)]),
    show("combine badarg", [attempt(fun() -> erlang:crc32_combine(X, 0, 0) end) || X <- [-1, 1 bsl 32, a, 1.0]]
         ++ [attempt(fun() -> erlang:adler32_combine(0, 0, X) end) || X <- [-1, 1 bsl 32, 1 bsl 70]]),
    Z = zlib:open(),
    show("zlib checksums", {zlib:crc32(Z, A), zlib:crc32(Z, CA, B), zlib:adler32(Z, A), zlib:adler32(Z, AA, B),
                            zlib:crc32_combine(Z, CA, CB, byte_size(B)), zlib:adler32_combine(Z, AA, AB, byte_size(B))}),
    show("crc32 before init", attempt(fun() -> zlib:crc32(Z) end)),
    %% crc32/1: the plain text's CRC, kept for raw streams only.
    ok = zlib:deflateInit(Z, default, deflated, -15, 8, default),
    D = zlib:deflate(Z, <<A/binary, B/binary>>, finish),
    show("raw deflate crc32", zlib:crc32(Z) =:= erlang:crc32(<<A/binary, B/binary>>)),
    ok = zlib:deflateEnd(Z),
    ok = zlib:inflateInit(Z, -15),
    _ = zlib:inflate(Z, D),
    show("raw inflate crc32", zlib:crc32(Z) =:= erlang:crc32(<<A/binary, B/binary>>)),
    ok = zlib:inflateEnd(Z),
    ok = zlib:deflateInit(Z),
    _ = zlib:deflate(Z, A, finish),
    show("zlib deflate crc32", zlib:crc32(Z)),
    ok = zlib:deflateEnd(Z),
    show("checksum badarg", [attempt(fun() -> zlib:crc32(not_a_stream, A) end),
                             attempt(fun() -> zlib:adler32(Z, a, A) end),
                             attempt(fun() -> zlib:crc32_combine(Z, a, 0, 0) end)]),
    zlib:close(Z).

buffer_size() ->
    Z = zlib:open(),
    show("getBufSize", zlib:getBufSize(Z)),
    show("setBufSize", zlib:setBufSize(Z, 1 bsl 16)),
    show("getBufSize after", zlib:getBufSize(Z)),
    show("setBufSize bad", [attempt(fun() -> zlib:setBufSize(Z, S) end) || S <- [16, 1 bsl 24, a]]),
    zlib:close(Z).

%% A few hundred KB of random and of compressible data, deterministic.
large_data() ->
    rand:seed(exsss, {1, 2, 3}),
    Random = rand:bytes(200000),
    Words = {<<"alpha ">>, <<"beta ">>, <<"gamma ">>, <<"delta ">>, <<"epsilon ">>},
    Text = iolist_to_binary([element(rand:uniform(5), Words) || _ <- lists:seq(1, 40000)]),
    show("inputs", {byte_size(Random), hex(Random), byte_size(Text), hex(Text)}),
    lists:foreach(
      fun({Name, Data}) ->
              C = zlib:compress(Data),
              Z = zlib:zip(Data),
              G = zlib:gzip(Data),
              io:format("~s: compress ~p ~s zip ~p ~s gzip ~p ~s~n",
                        [Name, byte_size(C), hex(C), byte_size(Z), hex(Z), byte_size(G), hex(G)]),
              io:format("~s: back ~p ~p ~p~n",
                        [Name, zlib:uncompress(C) =:= Data, zlib:unzip(Z) =:= Data, zlib:gunzip(G) =:= Data])
      end,
      [{"random", Random}, {"text", Text}]),
    %% a stream fed in many small and large pieces; the chunks it answers in
    S = zlib:open(),
    ok = zlib:deflateInit(S, best_speed),
    Pieces = [binary:part(Text, N, min(3000, byte_size(Text) - N)) || N <- lists:seq(0, byte_size(Text) - 1, 3000)],
    Out0 = [zlib:deflate(S, P) || P <- Pieces],
    Out = Out0 ++ [zlib:deflate(S, Random, finish)],
    show("deflate after finish", attempt(fun() -> zlib:deflate(S, <<"more">>) end)),
    show("deflateEnd with input left", attempt(fun() -> zlib:deflateEnd(S) end)),
    Flat = lists:flatten(Out),
    Compressed = iolist_to_binary(Out),
    show("pieces", {length(Pieces), length(Flat), byte_size(Compressed), hex(Compressed)}),
    ok = zlib:inflateInit(S),
    Back = zlib:inflate(S, Compressed),
    ok = zlib:inflateEnd(S),
    show("pieces back", {length(lists:flatten(Back)), iolist_to_binary(Back) =:= <<Text/binary, Random/binary>>}),
    zlib:close(S).

errors() ->
    show("uncompress garbage", attempt(fun() -> zlib:uncompress(<<"garbage garbage garbage">>) end)),
    show("uncompress short", attempt(fun() -> zlib:uncompress(<<"ab">>) end)),
    show("uncompress not iodata", attempt(fun() -> zlib:uncompress(an_atom) end)),
    show("unzip garbage", attempt(fun() -> zlib:unzip(<<255, 255, 255, 255, 255, 255, 255, 255>>) end)),
    show("gunzip garbage", attempt(fun() -> zlib:gunzip(<<"not gzip data at all">>) end)),
    show("gunzip truncated", attempt(fun() -> zlib:gunzip(binary:part(zlib:gzip(text()), 0, 30)) end)),
    show("compress bad", attempt(fun() -> zlib:compress([1, 2, 300]) end)),
    show("compress bitstring", attempt(fun() -> zlib:compress(<<1:3>>) end)),
    Z = zlib:open(),
    show("deflate before init", attempt(fun() -> zlib:deflate(Z, <<"x">>) end)),
    show("inflate before init", attempt(fun() -> zlib:inflate(Z, <<"x">>) end)),
    show("deflateEnd before init", attempt(fun() -> zlib:deflateEnd(Z) end)),
    show("inflateGetDictionary before init", attempt(fun() -> zlib:inflateGetDictionary(Z) end)),
    show("bad level", attempt(fun() -> zlib:deflateInit(Z, 10) end)),
    show("bad method", attempt(fun() -> zlib:deflateInit(Z, default, stored, 15, 8, default) end)),
    show("bad window bits", attempt(fun() -> zlib:deflateInit(Z, default, deflated, 7, 8, default) end)),
    show("bad memlevel", attempt(fun() -> zlib:deflateInit(Z, default, deflated, 15, 10, default) end)),
    show("bad strategy", attempt(fun() -> zlib:deflateInit(Z, default, deflated, 15, 8, fast) end)),
    show("bad eos", attempt(fun() -> zlib:inflateInit(Z, 15, never) end)),
    show("zlib rejects raw 8", attempt(fun() -> zlib:deflateInit(Z, default, deflated, -8, 8, default) end)),
    ok = zlib:deflateInit(Z),
    show("deflateInit twice", attempt(fun() -> zlib:deflateInit(Z) end)),
    show("inflateInit while deflating", attempt(fun() -> zlib:inflateInit(Z) end)),
    show("inflate while deflating", attempt(fun() -> zlib:inflate(Z, <<"x">>) end)),
    show("bad flush", attempt(fun() -> zlib:deflate(Z, <<"x">>, later) end)),
    show("deflate not iodata", attempt(fun() -> zlib:deflate(Z, {tuple}) end)),
    show("deflateSetDictionary bad", attempt(fun() -> zlib:deflateSetDictionary(Z, [a]) end)),
    _ = zlib:deflate(Z, <<"unfinished">>),
    show("deflateEnd unfinished", attempt(fun() -> zlib:deflateEnd(Z) end)),
    ok = zlib:inflateInit(Z),
    _ = zlib:inflate(Z, binary:part(zlib:compress(text()), 0, 10)),
    show("inflateEnd unfinished", attempt(fun() -> zlib:inflateEnd(Z) end)),
    ok = zlib:inflateInit(Z),
    show("inflate garbage", attempt(fun() -> zlib:inflate(Z, <<"this is not deflate data">>) end)),
    show("inflateEnd after error", attempt(fun() -> zlib:inflateEnd(Z) end)),
    show("close", zlib:close(Z)),
    show("close twice", attempt(fun() -> zlib:close(Z) end)),
    show("deflateInit closed", attempt(fun() -> zlib:deflateInit(Z) end)),
    show("inflateInit closed", attempt(fun() -> zlib:inflateInit(Z) end)),
    show("deflate closed", attempt(fun() -> zlib:deflate(Z, <<"x">>) end)),
    show("getBufSize closed", attempt(fun() -> zlib:getBufSize(Z) end)),
    show("not a stream", [attempt(fun() -> zlib:deflateInit(make_ref()) end),
                          attempt(fun() -> zlib:close(self()) end),
                          attempt(fun() -> zlib:inflate(atomics:new(1, []), <<"x">>) end),
                          attempt(fun() -> zlib:set_controlling_process(zlib:open(), not_a_pid) end)]).

%% Only the controlling process may use a stream; it can hand it over.
controllers() ->
    Z = zlib:open(),
    ok = zlib:deflateInit(Z),
    Self = self(),
    Other = fun(F) ->
                    spawn(fun() -> Self ! {self(), attempt(F)} end),
                    receive {_, R} -> R end
            end,
    show("deflate elsewhere", Other(fun() -> zlib:deflate(Z, <<"x">>) end)),
    show("close elsewhere", Other(fun() -> zlib:close(Z) end)),
    show("inflateReset elsewhere", Other(fun() -> zlib:inflateReset(Z) end)),
    Worker = spawn(fun() ->
                           receive {go, From} -> ok end,
                           R = attempt(fun() -> iolist_to_binary(zlib:deflate(Z, <<"from the worker">>, finish)) end),
                           From ! {done, R, zlib:set_controlling_process(Z, From)}
                   end),
    show("hand over", zlib:set_controlling_process(Z, Worker)),
    show("after hand over", attempt(fun() -> zlib:deflate(Z, <<"x">>) end)),
    Worker ! {go, self()},
    receive
        {done, {ok, C}, Back} ->
            show("worker", {C, Back}),
            show("handed back", zlib:deflateEnd(Z)),
            show("worker data", zlib:uncompress(C))
    end,
    zlib:close(Z),
    %% compressing in parallel, one stream per process
    Pids = [spawn_monitor(fun() -> exit({result, N, zlib:uncompress(zlib:compress(binary:copy(<<N>>, 100000)))
                                                  =:= binary:copy(<<N>>, 100000)}) end)
            || N <- lists:seq(1, 8)],
    show("parallel", [receive {'DOWN', Ref, process, Pid, {result, _, R}} -> R end || {Pid, Ref} <- Pids]),
    pass_around().

%% A stream handed back and forth between two processes (on two schedulers under -S 2) while a
%% third keeps trying to use it.
pass_around() ->
    Z = zlib:open(),
    ok = zlib:deflateInit(Z),
    Self = self(),
    Intruder = spawn(fun() -> intrude(Z, 0, 0) end),
    Peer = spawn(fun() -> peer(Z, Self) end),
    Parts = pass(Z, Peer, 300, []),
    Intruder ! {stop, self()},
    receive {intruder, Used, Refused} -> show("intruder", {Used, Refused > 0}) end,
    Last = zlib:deflate(Z, <<>>, finish),
    ok = zlib:deflateEnd(Z),
    Data = zlib:uncompress([lists:reverse(Parts), Last]),
    show("passed around", {byte_size(Data), hex(Data)}),
    zlib:close(Z).

intrude(Z, Used, Refused) ->
    receive
        {stop, From} -> From ! {intruder, Used, Refused}
    after 0 ->
        try zlib:deflate(Z, <<"intruder">>) of
            _ -> intrude(Z, Used + 1, Refused)
        catch
            error:not_on_controlling_process -> intrude(Z, Used, Refused + 1)
        end
    end.

peer(Z, Owner) ->
    receive
        {turn, Acc} ->
            Out = zlib:deflate(Z, binary:copy(<<"peer ">>, 100)),
            ok = zlib:set_controlling_process(Z, Owner),
            Owner ! {back, [Out | Acc]},
            peer(Z, Owner);
        stop ->
            ok
    end.

pass(_Z, Peer, 0, Acc) ->
    Peer ! stop,
    Acc;
pass(Z, Peer, N, Acc) ->
    Out = zlib:deflate(Z, binary:copy(<<"owner ">>, 100)),
    ok = zlib:set_controlling_process(Z, Peer),
    Peer ! {turn, [Out | Acc]},
    receive {back, Acc2} -> pass(Z, Peer, N - 1, Acc2) end.

%% Streams left to the garbage collector, some in the middle of their work.
many_streams() ->
    [begin
         Z = zlib:open(),
         case N rem 3 of
             0 -> ok = zlib:deflateInit(Z), _ = zlib:deflate(Z, <<"pending">>);
             1 -> ok = zlib:inflateInit(Z), _ = zlib:inflate(Z, binary:part(zlib:compress(text()), 0, 20));
             2 -> ok
         end
     end || N <- lists:seq(1, 300)],
    erlang:garbage_collect(),
    show("many streams", done).

iovecs() ->
    Sizes = fun(X) -> [byte_size(B) || B <- erlang:iolist_to_iovec(X)] end,
    show("iovec", [erlang:iolist_to_iovec([]), erlang:iolist_to_iovec(<<>>), erlang:iolist_to_iovec(<<"ab">>),
                   erlang:iolist_to_iovec([1, 2, <<3>>, [4 | <<5>>]])]),
    show("iovec sizes", [Sizes([binary:copy(<<1>>, 100) || _ <- lists:seq(1, 200)]),
                         Sizes([lists:duplicate(100, 1) || _ <- lists:seq(1, 200)]),
                         Sizes([binary:copy(<<0>>, S) || S <- [200, 400, 100, 1000, 50, 300, 300]]),
                         Sizes([<<1, 2, 3>>, binary:copy(<<7>>, 1000), <<9>>]),
                         Sizes([binary:part(binary:copy(<<"x">>, 1000), 1, 998), [[[<<"y">>]]], 10])]),
    show("iovec data", iolist_to_binary(erlang:iolist_to_iovec([<<"a">>, [[$b], <<"cd">>], $e | <<"fg">>]))),
    show("iovec badarg", [attempt(fun() -> erlang:iolist_to_iovec(X) end)
                          || X <- [a, <<1:1>>, [256], [-1], [a], [<<1:7>>], [1 | 2], [[1] | a]]]).

tiny_source() ->
    "-module(tiny).\n"
    "-export([f/0, g/1]).\n"
    "f() -> [{hello, \"world\", 1.5, <<\"bin\">>}, #{a => 1}, lists:seq(1, 40)].\n"
    "g(X) -> lists:map(fun(Y) -> Y * X end, [1, 2, 3]).\n".

forms(Source) ->
    {ok, Tokens, _} = erl_scan:string(Source),
    split_forms(Tokens, []).

split_forms([], []) -> [];
split_forms([{dot, _} = Dot | Rest], Acc) ->
    {ok, Form} = erl_parse:parse_form(lists:reverse([Dot | Acc])),
    [Form | split_forms(Rest, [])];
split_forms([T | Rest], Acc) -> split_forms(Rest, [T | Acc]).

compiler() ->
    Forms = forms(tiny_source()),
    {ok, tiny, Beam} = compile:forms(Forms, [binary, deterministic]),
    show("compile:forms", {byte_size(Beam), hex(Beam)}),
    {ok, tiny, Compressed} = compile:forms(Forms, [binary, deterministic, compressed]),
    show("compile:forms compressed", {byte_size(Compressed), hex(Compressed)}),
    show("beam_lib on compressed", beam_lib:chunks(Compressed, [exports])),
    {module, tiny} = code:load_binary(tiny, "tiny.beam", Beam),
    show("tiny", {tiny:f(), tiny:g(7)}),
    %% compile:file from a source file, as erlc +deterministic compiles it
    Dir = filename:join("/tmp", "zlib_otp_" ++ os:getpid()),
    ok = file:make_dir(Dir),
    Source = filename:join(Dir, "tiny.erl"),
    ok = file:write_file(Source, tiny_source()),
    {ok, tiny, FromFile} = compile:file(Source, [binary, deterministic]),
    {ok, tiny} = compile:file(Source, [deterministic, {outdir, Dir}]),
    {ok, Written} = file:read_file(filename:join(Dir, "tiny.beam")),
    show("compile:file", {byte_size(FromFile), hex(FromFile), Written =:= FromFile}),
    ok = file:delete(Source),
    ok = file:delete(filename:join(Dir, "tiny.beam")),
    ok = file:del_dir(Dir).
