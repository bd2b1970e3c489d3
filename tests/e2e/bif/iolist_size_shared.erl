%% iolist_size/1 counts without copying: a list that shares one sublist over and over is
%% terabytes long (binary_SUITE:t_iolist_size builds them up to 2^37 bytes; here 2^40); its size is an
%% integer past 32 bits. Then the inputs that are badarg.
-module(iolist_size_shared).
-export([main/0]).

main() ->
    Base = <<0:(1 bsl 20)/unit:8>>,
    show([iolist_size(double(N, Base)) || N <- [0, 1, 10, 12, 20]]),
    show(iolist_size([double(12, Base), 1, <<2, 3>> | <<4>>])),
    show(iolist_size([[[], <<1, 2>> | <<3>>], [], 255])),
    show(iolist_size(<<1, 2, 3>>)),
    Sub = binary:part(<<"abcdef">>, 1, 3),
    <<_:3, Odd/bitstring>> = <<"abcdef">>,
    <<Unaligned:16/bitstring, _/bitstring>> = Odd,
    show(iolist_size([Sub, Unaligned, Sub])),
    [show(catch iolist_size(X))
     || X <- [[1 | 2], <<1:7>>, [<<1:7>>], [256], [-1], [a], 1.0, [[1, 2] | foo], [Base | 3]]].

%% Base doubled N times, sharing each half: 2^N times the size of Base.
double(0, Base) -> Base;
double(N, Base) -> L = double(N - 1, Base), [L, L].

show({'EXIT', {Reason, [{M, F, Args, _} | _]}}) -> io:format("~p ~p:~p/~p~n", [Reason, M, F, length(Args)]);
show(X) -> io:format("~p~n", [X]).
