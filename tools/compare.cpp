// tools/compare.cpp — `beamlet compare`.
#include "tools/compare.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

namespace beamlet::tools {

namespace {

struct EngineRun {
    std::string engine;
    int status = -1;
    double wall_ms = 0;
    std::string out;
    long long hits = 0, tracing_ns = 0;
};

std::string read_file(const std::filesystem::path& path) {
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

std::string quote(const std::string& s) {
    std::string q = "'";
    for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
}

EngineRun run_engine(const std::string& self, const BootOptions& options, const std::string& module,
                     const std::string& engine, const std::filesystem::path& dir) {
    EngineRun r;
    r.engine = engine;
    std::string cmd = "BEAMLET_TRACE_STATS=1 " + quote(self) + " run --engine " + engine + " -S " +
                      std::to_string(options.schedulers > 0 ? options.schedulers : 1);
    for (const std::string& p : options.code_path) cmd += " --pa " + quote(p);
    auto out = dir / (engine + ".out"), err = dir / (engine + ".err");
    cmd += " " + quote(module) + " >" + quote(out.string()) + " 2>" + quote(err.string());
    auto start = std::chrono::steady_clock::now();
    r.status = std::system(cmd.c_str());
    r.wall_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    r.out = read_file(out);
    // The last "beamlet-trace-stats hits=N ns=T" line on stderr (see tools/boot.cpp).
    std::istringstream lines(read_file(err));
    for (std::string line; std::getline(lines, line);)
        if (line.rfind("beamlet-trace-stats ", 0) == 0) std::sscanf(line.c_str(), "beamlet-trace-stats hits=%lld ns=%lld", &r.hits, &r.tracing_ns);
        else std::fprintf(stderr, "[%s] %s\n", engine.c_str(), line.c_str());
    return r;
}

}  // namespace

int compare_engines(const std::string& self, const BootOptions& options, const std::string& module) {
    std::filesystem::path dir = std::filesystem::temp_directory_path() / ("beamlet-compare-" + std::to_string(getpid()));
    std::filesystem::create_directories(dir);
    std::vector<EngineRun> runs;
    for (const char* engine : {"interp", "jit"}) runs.push_back(run_engine(self, options, module, engine, dir));
    std::filesystem::remove_all(dir);

    std::printf("%-7s %8s %10s %12s %10s %6s\n", "engine", "wall ms", "bp hits", "tracing ms", "ns/hit", "exit");
    for (const EngineRun& r : runs)
        std::printf("%-7s %8.1f %10lld %12.3f %10.1f %6d\n", r.engine.c_str(), r.wall_ms, r.hits, r.tracing_ns / 1e6,
                    r.hits ? double(r.tracing_ns) / double(r.hits) : 0.0, WEXITSTATUS(r.status));
    const std::string& a = runs[0].out;
    const std::string& b = runs[1].out;
    if (a == b) {
        std::size_t lines = std::count(a.begin(), a.end(), '\n');
        std::printf("outputs identical (%zu lines)\n", lines);
        return 0;
    }
    // The first line that differs.
    std::istringstream ia(a), ib(b);
    std::string la, lb;
    for (int n = 1;; ++n) {
        bool ea = !std::getline(ia, la), eb = !std::getline(ib, lb);
        if (ea && eb) break;
        if (ea != eb || la != lb) {
            std::printf("outputs differ at line %d:\n  interp: %s\n  jit:    %s\n", n, ea ? "<end>" : la.c_str(),
                        eb ? "<end>" : lb.c_str());
            break;
        }
    }
    return 1;
}

}  // namespace beamlet::tools
