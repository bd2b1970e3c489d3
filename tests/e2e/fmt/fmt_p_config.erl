-module(fmt_p_config).
-export([main/0]).

%% A large application-config-like term printed with ~p (mixed lists, tuples, strings, maps, binaries).
main() ->
    Cfg = [{kernel, [{logger_level, info},
                     {logger, [{handler, default, logger_std_h,
                                #{config => #{file => "log/app.log", max_no_bytes => 10485760, max_no_files => 5},
                                  formatter => {logger_formatter, #{template => [time, " ", level, ": ", msg, "\n"]}}}}]}]},
           {my_app, [{port, 8080},
                     {workers, 16},
                     {routes, [{"/", index_handler, []},
                               {"/api/v1/users/:id", user_handler, [{methods, [get, put, delete]}]},
                               {"/static/[...]", static_handler, {priv_dir, my_app, "static"}}]},
                     {secret, <<"s3cr3t-k3y-that-is-quite-long-indeed-0123456789">>},
                     {ratios, [0.25, 0.5, 0.75, 1.0]},
                     {empty, []}]}],
    io:format("~p~n", [Cfg]),
    io:format("~p~n", [proplists_like(Cfg)]),
    ok.

proplists_like(Cfg) ->
    [{App, [K || {K, _} <- Env]} || {App, Env} <- Cfg].
