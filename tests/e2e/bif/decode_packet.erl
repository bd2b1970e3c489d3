-module(decode_packet).
-export([main/0]).

%% erlang:decode_packet/3: every packet type, {more, _}, {error, invalid}, badarg, the
%% options, HTTP request/response/header/eoh/error lines and their _bin variants, sub-binary
%% and bitstring input.
main() ->
    %% Length-prefixed and framed types.
    t(raw, <<1, 2, 3>>, []),
    t(0, <<>>, []),
    t(1, <<3, "abcde">>, []),
    t(1, <<0>>, []),
    t(2, <<0, 5, "abc">>, []),
    t(2, <<0>>, []),
    t(4, <<0, 0, 0, 2, "hi", "rest">>, []),
    t(4, <<127, 255, 255, 251, 1>>, []),
    t(4, <<127, 255, 255, 252, 1>>, []),
    t(4, <<255, 255, 255, 255, 1>>, [{packet_size, 4294967295}]),
    t(sunrm, <<128, 0, 0, 2, "ab", "c">>, []),
    t(asn1, <<4, 3, "abc", "d">>, []),
    t(asn1, <<16#1f, 16#81, 16#81, 5, 2, 1, 2, 3>>, []),
    t(asn1, <<4, 16#82, 0, 2, 9, 9, 9>>, []),
    t(asn1, <<4, 16#85, 0, 0, 0, 0, 0>>, []),
    t(asn1, <<4, 16#80, 1>>, []),
    t(asn1, <<16#1f, 16#81>>, []),
    t(cdr, <<"GIOP", 1, 2, 0, 0, 0, 0, 0, 3, "abc", "d">>, []),
    t(cdr, <<"GIOP", 1, 2, 1, 0, 3, 0, 0, 0, "abc">>, []),
    t(cdr, <<"GIOX", 1, 2, 1, 0, 3, 0, 0, 0, "abc">>, []),
    t(fcgi, <<1, 5, 0, 1, 0, 3, 2, 0, "abc", "pp", "r">>, []),
    t(fcgi, <<2, 5, 0, 1, 0, 3, 2, 0, "abc", "pp">>, []),
    t(fcgi, <<1, 5, 0, 1, 0, 3, 2, 0, "ab">>, []),
    t(tpkt, <<3, 0, 0, 7, "abc", "d">>, []),
    t(tpkt, <<3, 0, 0, 3>>, []),
    t(tpkt, <<2, 0, 0, 4>>, []),
    t(ssl_tls, <<22, 3, 1, 0, 2, 1, 2, 3>>, []),
    t(ssl_tls, <<128, 5, 1, 3, 1, 9, 9, 3>>, []),
    t(ssl_tls, <<22, 3, 1, 0>>, []),
    t(ssl_tls, <<22, 3, 1, 0, 9, 1>>, []),

    %% Lines.
    t(line, <<"one\ntwo">>, []),
    t(line, <<"no end">>, []),
    t(line, <<"abcdef\n">>, [{line_length, 3}]),
    t(line, <<"abc">>, [{line_length, 3}]),
    t(line, <<"abcdef\n">>, [{packet_size, 3}]),
    t(line, <<"abc">>, [{packet_size, 3}]),
    t(line, <<"a,b">>, [{line_delimiter, $,}]),
    t(line, <<"a", 0, "b">>, [{line_delimiter, 0}]),

    %% Limits.
    t(2, <<0, 3, "abcd">>, [{packet_size, 2}]),
    t(2, <<0, 3, "abcd">>, [{packet_size, 3}]),
    t(2, <<0, 3, "abcd">>, [{packet_size, 0}, {line_length, 1}]),

    %% HTTP requests.
    t(http, <<"GET / HTTP/1.1\r\nHost: x\r\n">>, []),
    t(http_bin, <<"GET / HTTP/1.1\r\nHost: x\r\n">>, []),
    t(http, <<"OPTIONS * HTTP/1.0\r\n">>, []),
    t(http, <<"FOO /x HTTP/1.1\n">>, []),
    t(http_bin, <<"FOO /x HTTP/1.1\n">>, []),
    t(http, <<"get /x\r\n">>, []),
    t(http, <<"POST http://example.com:8080/a?b=c HTTP/1.0\r\n">>, []),
    t(http_bin, <<"POST http://example.com:8080/a?b=c HTTP/1.0\r\n">>, []),
    t(http, <<"GET HTTPS://example.com HTTP/1.1\r\n">>, []),
    t(http_bin, <<"GET https://example.com HTTP/1.1\r\n">>, []),
    t(http, <<"GET http://h:0/ HTTP/1.1\r\n">>, []),
    t(http, <<"GET http://h:8a/ HTTP/1.1\r\n">>, []),
    t(http, <<"GET http://[::1]:4000/x HTTP/1.1\r\n">>, []),
    t(http, <<"GET ftp://a.b/c HTTP/1.1\r\n">>, []),
    t(http_bin, <<"GET ftp://a.b/c HTTP/1.1\r\n">>, []),
    t(http, <<"GET something HTTP/1.1\r\n">>, []),
    t(http_bin, <<"GET something HTTP/1.1\r\n">>, []),
    t(http, <<"GET\t/\tHTTP/12.34x\r\n">>, []),
    t(http, <<"GET / HTTP/1\r\n">>, []),
    t(http, <<"GET / XTTP/1.1\r\n">>, []),
    t(http, <<" GET / HTTP/1.1\r\n">>, []),
    t(http_bin, <<"GET: / HTTP/1.1\r\n">>, []),
    t(http, <<"GET / HTTP/1.1">>, []),
    t(http, <<"GET / HTTP/1.1">>, [{packet_size, 5}]),
    t(http, <<"GET / HTTP/1.1">>, [{line_length, 5}]),
    t(http, <<"GET / HTTP/1.1\r\n">>, [{packet_size, 15}]),
    t(http, <<"\r\n">>, []),

    %% HTTP responses.
    t(http, <<"HTTP/1.1 200 OK\r\nServer: x\r\n">>, []),
    t(http_bin, <<"HTTP/1.0 404 Not Found\n">>, []),
    t(http, <<"HTTP/1.1 200\r\n">>, []),
    t(http_bin, <<"HTTP/1.1 200\r\n">>, []),
    t(http, <<"HTTP/1.1  200  OK  \r\n">>, []),
    t(http, <<"HTTP/1.1 \r\n">>, []),
    t(http, <<"HTTP/1.1 200OK\r\n">>, []),
    t(http, <<"HTTP/x 200 OK\r\n">>, []),
    t(http, <<"HTTP/99999999999.1 200 OK\r\n">>, []),

    %% HTTP headers.
    t(httph, <<"Host: example.com\r\n\r\n">>, []),
    t(httph_bin, <<"hOST: example.com\r\n\r\n">>, []),
    t(httph, <<"Content-Type:text/html\r\nX">>, []),
    t(httph, <<"CONTENT-type: a\r\n\r\n">>, []),
    t(httph_bin, <<"www-authenticate: a\r\n\r\n">>, []),
    t(httph, <<"x-my-header: v\r\n\r\n">>, []),
    t(httph_bin, <<"x-my-header: v\r\n\r\n">>, []),
    t(httph, <<"Content--Type: a\r\n\r\n">>, []),
    t(httph, <<"Content---Type: a\r\n\r\n">>, []),
    t(httph, <<"a_b.c: 1\r\n\r\n">>, []),
    t(httph, <<(binary:copy(<<"a">>, 60))/binary, ": long\r\n\r\n">>, []),
    t(httph_bin, <<(binary:copy(<<"b">>, 51))/binary, ": long\r\n\r\n">>, []),
    t(httph, <<": empty name\r\n\r\n">>, []),
    t(httph, <<"Host:   \t \r\n\r\n">>, []),
    t(httph, <<"Multi: one\r\n two\r\n\tthree\r\nNext: x\r\n">>, []),
    t(httph_bin, <<"Multi: one\r\n two\r\n\r\n">>, []),
    t(httph, <<"Multi: one\r\n two\r\n">>, []),
    t(httph, <<"Host: x\r\n">>, []),
    t(httph, <<"X: y\r\n z\r\n\r\n">>, [{packet_size, 9}]),
    t(httph, <<"X: y\r\n z\r\n\r\n">>, [{packet_size, 10}]),
    t(httph, <<"\r\n">>, []),
    t(httph_bin, <<"\n">>, []),
    t(httph, <<"\r\nrest">>, []),
    t(httph, <<"Host : x\r\n\r\n">>, []),
    t(httph_bin, <<"Host\t: x\r\n\r\n">>, []),
    t(httph, <<"Host\r\n\r\n">>, []),
    t(httph, <<"Caf", 127, ": x\r\n\r\n">>, []),
    io:format("~w~n", [erlang:decode_packet(httph, <<"Caf", 233, ": x\r\n\r\n">>, [])]),
    io:format("~w~n", [erlang:decode_packet(http, <<"G", 233, "T / HTTP/1.1\r\n">>, [])]),
    t(http, <<"Host: x\r\n">>, []),

    %% Bad arguments.
    t(3, <<"a">>, []),
    t(unknown, <<"a">>, []),
    t("line", <<"a">>, []),
    t(raw, "abc", []),
    t(raw, abc, []),
    t(raw, <<"a">>, x),
    t(raw, <<"a">>, [x]),
    t(raw, <<"a">>, [{packet_size, -1}]),
    t(raw, <<"a">>, [{packet_size, 1.0}]),
    t(raw, <<"a">>, [{packet_size, 4294967296}]),
    t(raw, <<"a">>, [{packet_size, 1 bsl 70}]),
    t(raw, <<"a">>, [{packet_size, 1, 2}]),
    t(raw, <<"a">>, [{line_length, false}]),
    t(raw, <<"a">>, [{packet_size, 1}, {bogus, 1}]),
    t(raw, <<"a">>, [{line_delimiter, $a}]),
    t(http, <<"a">>, [{line_delimiter, $a}]),
    t(line, <<"a">>, [{line_delimiter, 256}]),
    t(line, <<"a">>, [{line_delimiter, -1}]),

    %% Bitstrings and sub-binaries: trailing bits stay in Rest; unaligned input still parses.
    t(raw, <<1, 2, 3:4>>, []),
    t(1, <<1, 2, 3:4>>, []),
    t(raw, <<1:4>>, []),
    t(line, <<"a\nb", 3:4>>, []),
    t(http, <<"GET / HTTP/1.1\r\n", 3:4>>, []),
    <<_:3, Unaligned/bits>> = <<0:3, "Host: x\r\n\r\n", 5:5>>,
    t(httph_bin, Unaligned, []),
    t(1, Unaligned, []),
    <<_:8, Sub:17/binary, _/binary>> = <<"xGET /a HTTP/1.0\r\nyz">>,
    t(http_bin, Sub, []),
    %% A request followed through its headers with the returned Rest.
    walk(http_bin, <<"GET /index.html HTTP/1.1\r\nHost: a\r\nAccept: */*\r\nX-Y: z\r\n\r\nbody">>),
    walk(http, <<"HTTP/1.0 301 Moved\r\nLocation: /b\r\nContent-Length: 0\r\n\r\n">>),
    ok.

t(Type, Bin, Opts) ->
    Result = try erlang:decode_packet(Type, Bin, Opts)
             catch error:Reason -> {error_raised, Reason}
             end,
    io:format("~p ~p ~p ->~n    ~p~n", [Type, Bin, Opts, Result]).

walk(Type, Bin) ->
    case erlang:decode_packet(Type, Bin, []) of
        {ok, http_eoh, Rest} ->
            io:format("  eoh, body ~p~n", [Rest]);
        {ok, Packet, Rest} ->
            io:format("  ~p~n", [Packet]),
            walk(headers(Type), Rest);
        Other ->
            io:format("  stop ~p~n", [Other])
    end.

headers(http) -> httph;
headers(http_bin) -> httph_bin;
headers(Type) -> Type.
