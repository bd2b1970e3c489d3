-module(std_uri_string).
-export([main/0]).

%% uri_string: parse (full URIs, relative references, IPv6 hosts, userinfo, ports, empty
%% components, binaries), recompose, normalize (map and string), resolve, transcode,
%% compose_query/dissect_query (incl. encoding options), quote/unquote, and error tuples for
%% bad input.
main() ->
    URIs = ["https://user:pw@www.example.com:8080/a/b/../c?q=1&r=two#frag",
            "http://[::1]:80/path", "mailto:someone@example.org", "file:///etc/hosts",
            "//host.only/p", "/just/a/path?x", "relative/path", "?only=query", "#onlyfrag", "",
            "foo://example.com:/", "HTTP://Example.COM/%7Euser/%41", "urn:isbn:0451450523",
            <<"https://bin.example/x?y=z">>, "http://a/b c", "http://host:port/"],
    lists:foreach(fun(U) ->
        P = uri_string:parse(U),
        io:format("~p ->~n  ~p~n", [U, P]),
        case P of
            M when is_map(M) -> io:format("  recompose: ~p~n", [uri_string:recompose(M)]);
            _ -> ok
        end
    end, URIs),
    t(normalize1, fun() -> uri_string:normalize("HTTP://www.Example.COM:80/a/./b/../c/%7efoo") end),
    t(normalize2, fun() -> uri_string:normalize("https://example.com:443/") end),
    t(normalize_map, fun() -> uri_string:normalize("http://a.b/%41%2f", [return_map]) end),
    t(normalize_bin, fun() -> uri_string:normalize(<<"HTTP://X.Y/./z">>) end),
    Base = "http://a/b/c/d;p?q",
    lists:foreach(fun(R) -> t("resolve " ++ R, fun() -> uri_string:resolve(R, Base) end) end,
                  ["g:h", "g", "./g", "g/", "/g", "//g", "?y", "g?y", "#s", "g#s", "..", "../g", "../../../g", "", "g;x?y#s"]),
    t(resolve_rel_base, fun() -> uri_string:resolve("g", "relative/base") end),
    t(transcode, fun() -> uri_string:transcode(<<"foo%00%00%00%F6bar"/utf32>>, [{in_encoding, utf32}, {out_encoding, utf8}]) end),
    t(transcode_latin1, fun() -> uri_string:transcode("foo%C3%B6bar", [{in_encoding, utf8}, {out_encoding, latin1}]) end),
    t(compose_query, fun() -> uri_string:compose_query([{"foo bar", "1"}, {"city", "Stockholm & more"}, {"flag", true}]) end),
    t(compose_query_sep, fun() -> uri_string:compose_query([{"a", "1"}, {"b", "2"}], [{separator, escaped_amp}]) end),
    t(compose_query_bin, fun() -> uri_string:compose_query([{<<"k">>, <<"v w">>}]) end),
    t(dissect_query, fun() -> uri_string:dissect_query("foo+bar=1&city=Stockholm%20%26%20more&flag") end),
    t(dissect_query_bin, fun() -> uri_string:dissect_query(<<"a=1;b=2&c=%41">>) end),
    t(dissect_query_bad, fun() -> uri_string:dissect_query("a=%zz") end),
    t(quote, fun() -> {uri_string:quote("a b/c"), uri_string:quote(<<"x/y z">>, "/"), uri_string:unquote("a%20b%2Fc")} end),
    t(recompose_bad, fun() -> uri_string:recompose(#{scheme => "http", host => "h", port => notaport}) end),
    t(parse_bad_type, fun() -> uri_string:parse(12345) end),
    ok.

t(Label, F) ->
    R = try {ok, F()} catch C:E -> {error, C, E} end,
    io:format("~s: ~p~n", [Label, R]).
