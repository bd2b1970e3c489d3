%% beamlet dis golden: binary construction and matching, bit syntax, a binary comprehension.
-module(dis_binaries).
-export([main/0, parse/1]).

main() ->
    Bin = <<1:8, 300:16/big, 7:3, 0:5, "abc", 2.5/float>>,
    io:format("~p~n", [{parse(Bin), << <<(X + 1)>> || <<X>> <= <<"hal">> >>}]).

parse(<<Tag:8, Len:16/big, Flags:3, _:5, Name:3/binary, F:64/float, Rest/bits>>) ->
    {Tag, Len, Flags, Name, F, bit_size(Rest)};
parse(_) -> error.
