// vm/config.cpp — reading the environment once.
#include "vm/config.hpp"

#include <cstdlib>

namespace beamlet::vm {

namespace {

std::optional<std::string> text(const char* name) {
    const char* v = std::getenv(name);
    if (!v) return std::nullopt;
    return std::string(v);
}

Config read_environment() {
    Config c;
    c.lib_dir = text("BEAMLET_LIB");
    c.otp_lib_dir = text("BEAMLET_OTP_LIB");
    c.jit_libraries = text("BEAMLET_JIT_LIBRARIES") == "1";
    if (auto hot = text("BEAMLET_JIT_HOT")) c.jit_hot_calls = std::strtoull(hot->c_str(), nullptr, 10);
    c.jit_library = text("BEAMLET_JIT_LIBRARY");
    c.jit_cache = text("BEAMLET_JIT_CACHE");
    if (auto opt = text("BEAMLET_JIT_OPT")) c.jit_optimise = std::atoi(opt->c_str()) != 0;
    c.jit_flag_breakpoints = text("BEAMLET_JIT_BREAKPOINTS") == "flag";
    c.jit_debug = text("BEAMLET_JIT_DEBUG").has_value();
    c.jit_dump = text("BEAMLET_JIT_DUMP");
    c.jit_code_sync = text("BEAMLET_JIT_CODE_SYNC");
    c.trace_stats = text("BEAMLET_TRACE_STATS").has_value();
    c.self = text("BEAMLET_SELF");
    c.xdg_cache_home = text("XDG_CACHE_HOME");
    if (auto xdg = c.xdg_cache_home; xdg && !xdg->empty()) c.cache_home = *xdg;
    else if (auto home = text("HOME"); home && !home->empty()) c.cache_home = *home + "/.cache";
    return c;
}

}  // namespace

const Config& config() {
    static const Config the_config = read_environment();
    return the_config;
}

}  // namespace beamlet::vm
