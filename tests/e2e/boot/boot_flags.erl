%% erl's flags on the command line reach OTP's init and application controller as on erl
%% (boot_flags.erl_flags): -App Par Val, -config (a sys.config), -args_file (with comments),
%% -boot_var, -mode and -env.
-module(boot_flags).
-export([main/0]).

main() ->
    show(application:get_env(kernel, beamlet_key)),
    show(application:get_env(stdlib, from_config)),
    show(application:get_env(kernel, from_args_file)),
    show(init:get_argument(myapp)),
    show(init:get_argument(boot_var)),
    show(init:get_argument(mode)),
    show(code:get_mode()),
    show(os:getenv("BEAMLET_FLAGS_ENV")),
    show(application:get_all_env(stdlib)),
    ok.

show(X) -> io:format("~p~n", [X]).
