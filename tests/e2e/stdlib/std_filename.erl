-module(std_filename).
-export([main/0]).

%% filename: join/1,2, split, basename/1,2, dirname, extension, rootname/1,2, absname/2
%% (explicit base only), absname_join, nativename, pathtype, flatten, binaries, deep lists.
main() ->
    Paths = ["/usr/local/bin/erl", "foo/bar.erl", "bar.tar.gz", "/", "", ".", "..", "a/b/",
             "/a//b///c", ".bashrc", "dir.d/file", "dir.d/", "a/.b", "x/y.z/w",
             <<"/bin/path/x.beam">>, <<"rel.txt">>, ["ab", $c, "/", [<<"de">>], "f.g"], ["dir", [$/, ["sub"]], "/f.", "erl"], [usr, "/", x]],
    lists:foreach(fun(P) ->
        io:format("~p:~n", [P]),
        t("  basename", fun() -> filename:basename(P) end),
        t("  dirname", fun() -> filename:dirname(P) end),
        t("  extension", fun() -> filename:extension(P) end),
        t("  rootname", fun() -> filename:rootname(P) end),
        t("  split", fun() -> filename:split(P) end),
        t("  pathtype", fun() -> filename:pathtype(P) end),
        t("  flatten", fun() -> filename:flatten(P) end)
    end, Paths),
    t(join2_a, fun() -> filename:join("a", "b") end),
    t(join2_abs, fun() -> filename:join("a", "/b") end),
    t(join2_trailing, fun() -> filename:join("a/", "b/") end),
    t(join2_dots, fun() -> filename:join("a/./", "../b") end),
    t(join2_bin, fun() -> filename:join(<<"a">>, "b") end),
    t(join2_bin2, fun() -> filename:join("a", <<"b">>) end),
    t(join2_atom, fun() -> filename:join(usr, local) end),
    t(join1, fun() -> filename:join(["/usr", "local", "bin"]) end),
    t(join1_abs_mid, fun() -> filename:join(["a", "/b", "c"]) end),
    t(join1_one, fun() -> filename:join(["x"]) end),
    t(join1_slashes, fun() -> filename:join(["//a//", "b//", "c"]) end),
    t(join1_empty_elem, fun() -> filename:join(["a", "", "c"]) end),
    t(join1_empty, fun() -> filename:join([]) end),
    t(join_split_roundtrip, fun() -> filename:join(filename:split("/a/b/c.d")) end),
    t(basename2, fun() -> filename:basename("/src/kalle.erl", ".erl") end),
    t(basename2_nomatch, fun() -> filename:basename("/src/kalle.beam", ".erl") end),
    t(basename2_ext_only, fun() -> filename:basename(".erl", ".erl") end),
    t(basename2_bin, fun() -> filename:basename(<<"/src/kalle.erl">>, <<".erl">>) end),
    t(basename2_mixed, fun() -> filename:basename(<<"/src/kalle.erl">>, ".erl") end),
    t(rootname2, fun() -> filename:rootname("/jam.src/kalle.erl", ".erl") end),
    t(rootname2_nomatch, fun() -> filename:rootname("/jam.src/foo.beam", ".erl") end),
    t(rootname2_bin, fun() -> filename:rootname(<<"a/b.erl">>, ".erl") end),
    t(absname2, fun() -> filename:absname("foo", "/usr/local") end),
    t(absname2_dotdot, fun() -> filename:absname("../x", "/usr/local") end),
    t(absname2_abs, fun() -> filename:absname("/etc/x", "/usr/local") end),
    t(absname1_abs, fun() -> filename:absname("/etc/./x/") end),
    t(absname_join, fun() -> filename:absname_join("/usr/local", "bin") end),
    t(nativename, fun() -> filename:nativename("/usr/local//bin/") end),
    t(basedir_bad, fun() -> filename:basedir(bogus, "app") end),
    t(join_bad, fun() -> filename:join(1, "a") end),
    t(basename_bad, fun() -> filename:basename({a}) end),
    t(split_bad, fun() -> filename:split(42) end),
    ok.

t(Label, F) ->
    R = try {ok, F()} catch C:E -> {error, C, E} end,
    io:format("~s: ~p~n", [Label, R]).
