-module(std_base64).
-export([main/0]).

%% base64: encode/decode (binaries and lists), encode_to_string, decode_to_string,
%% mime_decode, mime_decode_to_string (which skip invalid characters), padding rules,
%% whitespace handling, all byte values round-trip, and errors on bad input.
main() ->
    Inputs = [<<>>, <<"f">>, <<"fo">>, <<"foo">>, <<"foob">>, <<"fooba">>, <<"foobar">>,
              <<0, 255, 128, 1>>, <<"Hello, World!">>, "a list", [1, 2, 3]],
    lists:foreach(fun(I) ->
        E = base64:encode(I),
        io:format("~w -> ~p ~p ~p~n", [I, E, base64:encode_to_string(I), base64:decode(E)])
    end, Inputs),
    All = list_to_binary(lists:seq(0, 255)),
    t(all_bytes, fun() -> base64:encode(All) end),
    t(all_bytes_roundtrip, fun() -> base64:decode(base64:encode(All)) =:= All end),
    t(decode_list, fun() -> base64:decode("Zm9vYmFy") end),
    t(decode_to_string, fun() -> base64:decode_to_string(<<"Zm9vYmFy">>) end),
    t(decode_to_string_list, fun() -> base64:decode_to_string("Zm8=") end),
    t(decode_whitespace, fun() -> base64:decode(<<"Zm9v\nYmFy\r\n">>) end),
    t(decode_spaces, fun() -> base64:decode(<<" Zm 9v YmFy ">>) end),
    t(decode_no_padding, fun() -> base64:decode(<<"Zm8">>) end),
    t(decode_no_padding2, fun() -> base64:decode(<<"Zg">>) end),
    t(decode_bad_char, fun() -> base64:decode(<<"Zm9v!mFy">>) end),
    t(decode_bad_len, fun() -> base64:decode(<<"Z">>) end),
    t(decode_bad_pad, fun() -> base64:decode(<<"Zm==Zm9v">>) end),
    t(decode_extra_pad, fun() -> base64:decode(<<"Zm9v====">>) end),
    t(decode_url_chars, fun() -> base64:decode(<<"-_-_">>) end),
    t(decode_bad_list, fun() -> base64:decode("Zm9v$") end),
    t(mime_decode, fun() -> base64:mime_decode(<<"Zm9v!YmFy">>) end),
    t(mime_decode_junk, fun() -> base64:mime_decode(<<"Z#m$9%v^Y&m*F(y)">>) end),
    t(mime_decode_list, fun() -> base64:mime_decode("Zm 9v\tYm\nFy") end),
    t(mime_decode_to_string, fun() -> base64:mime_decode_to_string(<<"SGVsbG8=junk">>) end),
    t(mime_decode_pad_mid, fun() -> base64:mime_decode(<<"Zg==Zg==">>) end),
    t(mime_decode_no_pad, fun() -> base64:mime_decode(<<"Zm8">>) end),
    t(encode_bad, fun() -> base64:encode(foo) end),
    t(encode_bad_list, fun() -> base64:encode([256]) end),
    t(decode_bad_type, fun() -> base64:decode(123) end),
    t(long_roundtrip, fun() ->
        B = list_to_binary([X rem 251 || X <- lists:seq(1, 3001)]),
        E = base64:encode(B),
        {byte_size(E), binary:part(E, 0, 16), binary:part(E, byte_size(E) - 8, 8), base64:decode(E) =:= B,
         base64:mime_decode(E) =:= B} end),
    ok.

t(Label, F) ->
    R = try {ok, F()} catch C:E -> {error, C, E} end,
    io:format("~s: ~p~n", [Label, R]).
