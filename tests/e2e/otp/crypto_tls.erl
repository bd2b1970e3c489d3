-module(crypto_tls).
-export([main/0]).

%% OTP's crypto (its NIF library through beamlet's erl_nif.h) and ssl over beamlet's sockets:
%% hashes, HMAC, AES-GCM and AES-CTR with fixed keys, strong_rand_bytes, RSA and ECDSA
%% signatures made and verified with public_key, then a TLS 1.3 and a TLS 1.2 echo on
%% 127.0.0.1 with a certificate chain public_key makes at run time.
main() ->
    io:format("sha256: ~s~n", [hex(crypto:hash(sha256, <<"abc">>))]),
    io:format("sha512/md5: ~s ~s~n", [hex(crypto:hash(sha512, "abc")), hex(crypto:hash(md5, [<<"a">>, "bc"]))]),
    H = crypto:hash_init(sha3_256),
    io:format("sha3-256 in parts: ~s~n", [hex(crypto:hash_final(crypto:hash_update(crypto:hash_update(H, <<"ab">>), <<"c">>)))]),
    io:format("hmac: ~s~n", [hex(crypto:mac(hmac, sha256, <<"key">>, <<"The quick brown fox">>))]),
    Key = binary:copy(<<16#2b>>, 16), IV = binary:copy(<<7>>, 12),
    {CT, Tag} = crypto:crypto_one_time_aead(aes_128_gcm, Key, IV, <<"attack at dawn">>, <<"hdr">>, true),
    io:format("aes-gcm: ~s tag ~s~n", [hex(CT), hex(Tag)]),
    io:format("  decrypted: ~p~n", [crypto:crypto_one_time_aead(aes_128_gcm, Key, IV, CT, <<"hdr">>, Tag, false)]),
    io:format("  wrong tag: ~p~n", [crypto:crypto_one_time_aead(aes_128_gcm, Key, IV, CT, <<"hdr">>, binary:copy(<<0>>, 16), false)]),
    Ctr = crypto:crypto_init(aes_128_ctr, Key, binary:copy(<<1>>, 16), true),
    io:format("aes-ctr in two updates: ~s~n", [hex(<<(crypto:crypto_update(Ctr, <<"hello ">>))/binary, (crypto:crypto_update(Ctr, <<"world">>))/binary>>)]),
    io:format("strong_rand_bytes: ~p ~p~n", [byte_size(crypto:strong_rand_bytes(32)), crypto:strong_rand_bytes(0)]),
    io:format("bad argument: ~p~n", [try crypto:hash(no_such_hash, <<>>) catch error:E -> E end]),
    #{server_config := SC, client_config := CC} =
        public_key:pkix_test_data(#{server_chain => #{root => [{key, {rsa, 2048, 65537}}], peer => [{key, {rsa, 2048, 65537}}]},
                                    client_chain => #{root => [{key, {namedCurve, secp256r1}}], peer => [{key, {namedCurve, secp256r1}}]}}),
    {_, ServerKeyDer} = proplists:get_value(key, SC),
    RsaKey = public_key:der_decode('RSAPrivateKey', ServerKeyDer),
    RsaPub = {'RSAPublicKey', element(3, RsaKey), element(4, RsaKey)},
    Sig = public_key:sign(<<"message">>, sha256, RsaKey),
    io:format("rsa: ~p bytes, verifies ~p, other message ~p~n",
              [byte_size(Sig), public_key:verify(<<"message">>, sha256, Sig, RsaPub), public_key:verify(<<"other">>, sha256, Sig, RsaPub)]),
    {ECPub, ECPriv} = crypto:generate_key(ecdh, secp256r1),
    ESig = crypto:sign(ecdsa, sha256, <<"message">>, [ECPriv, secp256r1]),
    io:format("ecdsa verifies: ~p ~p~n", [crypto:verify(ecdsa, sha256, <<"message">>, ESig, [ECPub, secp256r1]),
                                          crypto:verify(ecdsa, sha256, <<"other">>, ESig, [ECPub, secp256r1])]),
    {ok, _} = application:ensure_all_started(ssl),
    [echo(Version, SC, CC) || Version <- ['tlsv1.3', 'tlsv1.2']],
    ok.

echo(Version, SC, CC) ->
    {ok, L} = ssl:listen(0, [{ip, {127, 0, 0, 1}}, {versions, [Version]}, {active, false}, binary | SC]),
    {ok, {_, Port}} = ssl:sockname(L),
    Self = self(),
    Server = spawn_link(fun() ->
        {ok, S0} = ssl:transport_accept(L),
        {ok, S} = ssl:handshake(S0),
        loop(S),
        Self ! {self(), served}
    end),
    {ok, C} = ssl:connect({127, 0, 0, 1}, Port, [{versions, [Version]}, {active, false}, binary,
                                                  {verify, verify_peer}, {server_name_indication, disable} | CC]),
    {ok, [{protocol, P}]} = ssl:connection_information(C, [protocol]),
    Big = binary:copy(<<"0123456789">>, 20000),
    ok = ssl:send(C, <<"hello">>),
    {ok, R1} = ssl:recv(C, 0),
    ok = ssl:send(C, Big),
    R2 = recv_all(C, byte_size(Big) + 5, []),
    io:format("~p: ~p, ~p bytes echoed, intact ~p~n", [P, R1, byte_size(R2), R2 =:= <<"echo:", Big/binary>>]),
    ok = ssl:close(C),
    receive {Server, served} -> ok end,
    ssl:close(L).

loop(S) ->
    case ssl:recv(S, 0) of
        {ok, D} when byte_size(D) < 100 -> ok = ssl:send(S, <<"echo:", D/binary>>), loop(S);
        {ok, D} -> ok = ssl:send(S, <<"echo:">>), loop_big(S, D);
        {error, closed} -> ok
    end.

loop_big(S, D) ->
    ok = ssl:send(S, D),
    case ssl:recv(S, 0) of
        {ok, More} -> loop_big(S, More);
        {error, closed} -> ok
    end.

recv_all(_, 0, Acc) -> iolist_to_binary(lists:reverse(Acc));
recv_all(C, Left, Acc) ->
    {ok, D} = ssl:recv(C, 0),
    recv_all(C, Left - byte_size(D), [D | Acc]).

hex(B) -> binary:encode_hex(B).
