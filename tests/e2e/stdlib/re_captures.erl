-module(re_captures).
-export([main/0]).

%% What re:run captures: groups up to the last one set for all/all_but_first, the first set
%% group of a duplicated name (dupnames), sub-binaries of a binary subject, names once in
%% inspect's namelist; a capture name that is not chardata is badarg.
main() ->
    p(re:run("abcd", "(a)|(b)")),
    p(re:run("bcd", "(a)|(b)")),
    p(re:run("abcd", "(a)|(b)", [{capture, all_but_first, list}])),
    p(re:run("abcd", "(a)|(b)", [{capture, [1, 2], list}])),
    p(re:run("xyz", "(a)?(x)(q)?", [{capture, all, binary}])),
    p(re:run("abcd", "(a)|(b)", [global])),
    DN = "(?<DN>Mon|Fri|Sun)(?:day)?|(?<DN>Tue)(?:sday)?|(?<DN>Wed)(?:nesday)?",
    [p(re:run(Day, DN, [dupnames, {capture, ['DN'], list}])) || Day <- ["Monday", "Tuesday", "Wednesday"]],
    p(re:run("Tuesday", DN, [dupnames, {capture, all_names, list}])),
    p(re:run("SMondayX", "(?<Skrap>.)(?<DN>Mon|Fri|Sun)(?:day)?(?<Skrap2>.)|(?<DN>Tue)(?:sday)?",
             [dupnames, {capture, all_names}])),
    p(re:run("Wed", "(Mon)|(Wed)", [{capture, all_names, index}])),
    p(re:run("Wed", "(Mon)|(Wed)", [global, {capture, all_names, index}])),
    {ok, MPD} = re:compile("(?<A>A)|(?<B>B)|(?<A>C).", [dupnames]),
    p(re:inspect(MPD, namelist)),
    Bin = << <<I>> || I <- lists:seq(1, 4096) >>,
    {match, [B, C]} = re:run(Bin, "a(.+)$", [{capture, all, binary}]),
    p({byte_size(B), byte_size(C), binary:referenced_byte_size(B), binary:referenced_byte_size(C)}),
    p(catch re:run(<<"apa">>, "p", [{capture, [[<<"ap">> | $a]], binary}])),
    p(catch re:run(<<"apa">>, [<<"(p">> | 41], [])),
    p(catch re:run(<<"apa">>, "p", [unicode, {capture, [[<<"ap">> | $a]], binary}])),
    p(catch re:run(<<"apa">>, "p", [unicode, {capture, [<<"ap">> | "a"], binary}])),
    %% Characters 128..255 are classified as ISO 8859-1 does, with or without unicode.
    p(re:run([229], "\\w", [unicode])),
    p(re:run([1024], "\\w", [unicode])),
    p(re:run([1024], "\\w", [unicode, ucp])),
    p(re:run(<<"x", 16#C4, 16#E4, 16#DF, 16#D7, 16#B5, 16#AA>>, "\\w+", [global])),
    p(re:run(<<16#C4, 16#E5>>, <<16#E4, 16#C5>>, [caseless])),
    p(re:run(<<16#D7, 16#A0, 16#BF>>, "[[:punct:]]+")),
    p(re:run(<<16#DE, 16#FF>>, "[[:upper:]][[:lower:]]")),
    p(re:run(<<16#A0>>, "\\s")),
    p(catch list_to_bitstring(<<1:1>>)),
    p(list_to_bitstring([<<1:1>>, [<<1:2>>]])),
    ok.

p({'EXIT', {Reason, [{M, F, _, _} | _]}}) -> io:format("~p ~p:~p~n", [Reason, M, F]);
p(T) -> io:format("~p~n", [T]).
