%% samples/bakery.erl — a bakery of actors to look at from the command line (it does not trace
%% itself): three customers order from the counter (a registered server), which has the oven
%% bake each order (knead, prove, bake: nested calls that take their time) and hands it back.
%% The README's pictures are `beamlet trace` of this program:
%%
%%   beamlet trace -S 1 samples/bakery.erl bakery:bake bakery:knead bakery:prove bakery:in_oven \
%%       bakery:work bakery:buy -e send,receive,running -f chrome -o bakery.json
%%   beamlet trace -S 1 samples/bakery.erl -e send,receive -f seq -o bakery-seq.svg
%%   beamlet trace -S 1 samples/bakery.erl bakery -f flame -o bakery-flame.svg
%%
%% (The Chrome trace names single functions rather than 'bakery:*': return tracing, which a
%% timeline needs, keeps a frame for every call as OTP's return_trace does, so a tail-recursive
%% loop such as the counter's would nest deeper with every order.)
-module(bakery).
-export([main/0, counter/1, oven/0, customer/3]).

main() ->
    Oven = spawn_link(?MODULE, oven, []),
    register(counter, spawn_link(?MODULE, counter, [Oven])),
    Orders = [{alice, [bread, croissant]}, {bob, [baguette]}, {carol, [croissant, bread, bun]}],
    Self = self(),
    [spawn(?MODULE, customer, [Name, Items, Self]) || {Name, Items} <- Orders],
    Bags = [receive {home, Name, Bag} -> {Name, Bag} end || _ <- Orders],
    [io:format("~p took home ~p~n", [Name, Bag]) || {Name, Bag} <- lists:sort(Bags)],
    counter ! close,
    ok.

customer(Name, Items, Home) ->
    Bag = [buy(Item) || Item <- Items],
    Home ! {home, Name, Bag}.

buy(Item) ->
    counter ! {order, self(), Item},
    receive {ready, Item, Loaf} -> Loaf end.

%% The counter takes orders one at a time and passes them to the oven.
counter(Oven) ->
    receive
        {order, Customer, Item} ->
            Oven ! {bake, self(), Item},
            receive {baked, Item, Loaf} -> Customer ! {ready, Item, Loaf} end,
            counter(Oven);
        close ->
            Oven ! off
    end.

oven() ->
    receive
        {bake, From, Item} ->
            From ! {baked, Item, bake(Item)},
            oven();
        off ->
            ok
    end.

bake(Item) ->
    Dough = knead(recipe(Item)),
    Risen = prove(Dough),
    {Item, in_oven(Risen)}.

recipe(bread) -> 24;
recipe(baguette) -> 22;
recipe(croissant) -> 20;
recipe(bun) -> 12.

knead(N) -> work(N * 2).
prove(N) -> work(N).
in_oven(N) -> work(N * 3).

%% Work that takes time (BIFs only, so that 'bakery:*' traces the bakery, not the work).
work(N) -> erlang:crc32(binary:copy(<<N>>, N * 20000)) rem 1000.
