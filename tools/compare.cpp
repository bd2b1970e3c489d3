// tools/compare.cpp — `beamlet compare`.
#include "tools/compare.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <regex>
#include <sstream>

#include "vm/config.hpp"

extern char** environ;

namespace beamlet::tools {

namespace {

struct EngineRun {
    std::string engine;
    int status = -1;  // as waitpid gives it; -1: it could not be started
    double wall_ms = 0;
    std::string out, err;
    long long hits = 0, tracing_ns = 0;

    bool succeeded() const { return status >= 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0; }
    std::string how_it_ended() const {
        if (status < 0) return "not started";
        if (WIFSIGNALED(status)) return "killed by signal " + std::to_string(WTERMSIG(status));
        return "exit " + std::to_string(WEXITSTATUS(status));
    }
};

// Reads [out] and [err] to their ends, together (a child blocks if either pipe fills).
void drain(int out, int err, std::string* out_text, std::string* err_text) {
    pollfd fds[2] = {{out, POLLIN, 0}, {err, POLLIN, 0}};
    std::string* texts[2] = {out_text, err_text};
    int open = 2;
    char buf[65536];
    while (open) {
        if (poll(fds, 2, -1) < 0) {
            if (errno == EINTR) continue;
            break;
        }
        for (int i = 0; i < 2; ++i) {
            if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
            ssize_t n = read(fds[i].fd, buf, sizeof buf);
            if (n > 0) {
                texts[i]->append(buf, std::size_t(n));
            } else if (n == 0 || errno != EINTR) {
                close(fds[i].fd);
                fds[i].fd = -1;
                --open;
            }
        }
    }
}

// `beamlet run --engine ENGINE` of [module], as a child of this process.
EngineRun run_engine(const BootOptions& options, const std::string& module, const std::string& engine) {
    EngineRun r;
    r.engine = engine;
    std::vector<std::string> args = {"beamlet", "run", "--engine", engine, "-S",
                                     std::to_string(options.schedulers > 0 ? options.schedulers : 1)};
    for (const std::string& p : options.code_path) {
        args.push_back("--pa");
        args.push_back(p);
    }
    for (const std::string& p : options.code_path_z) {
        args.push_back("--pz");
        args.push_back(p);
    }
    args.push_back(module);
    std::vector<char*> argv;
    for (std::string& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    std::string stats = "BEAMLET_TRACE_STATS=1";
    std::vector<char*> envp;
    for (char** e = environ; *e; ++e)
        if (std::strncmp(*e, "BEAMLET_TRACE_STATS=", 20) != 0) envp.push_back(*e);
    envp.push_back(stats.data());
    envp.push_back(nullptr);

    int out[2], err[2];
    if (pipe2(out, O_CLOEXEC) != 0) return r;
    if (pipe2(err, O_CLOEXEC) != 0) {
        close(out[0]);
        close(out[1]);
        return r;
    }
    // BEAMLET_SELF: what runs this beamlet again, when /proc/self/exe cannot (a cross build's
    // tests run beamlet through an emulator's wrapper script: tools/aarch64.sh).
    const char* self = vm::config().self && !vm::config().self->empty() ? vm::config().self->c_str() : "/proc/self/exe";
    pid_t parent = getpid();
    auto start = std::chrono::steady_clock::now();
    pid_t child = fork();
    if (child == 0) {
        // Only async-signal-safe calls from here to the exec. The child dies with this
        // process (a compare that is killed leaves nothing running).
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != parent) _exit(127);
        dup2(out[1], 1);
        dup2(err[1], 2);
        execve(self, argv.data(), envp.data());
        _exit(127);
    }
    close(out[1]);
    close(err[1]);
    if (child < 0) {
        close(out[0]);
        close(err[0]);
        return r;
    }
    drain(out[0], err[0], &r.out, &r.err);
    while (waitpid(child, &r.status, 0) < 0 && errno == EINTR) {
    }
    r.wall_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    // The last "beamlet-trace-stats hits=N ns=T" line on stderr (see tools/boot.cpp); the rest
    // of stderr is shown, marked with the engine.
    std::istringstream lines(r.err);
    for (std::string line; std::getline(lines, line);)
        if (line.rfind("beamlet-trace-stats ", 0) == 0)
            std::sscanf(line.c_str(), "beamlet-trace-stats hits=%lld ns=%lld", &r.hits, &r.tracing_ns);
        else
            std::fprintf(stderr, "[%s] %s\n", engine.c_str(), line.c_str());
    return r;
}

// [text] without the lines that [ignore] matches; [*ignored] counts them.
std::vector<std::string> kept_lines(const std::string& text, const std::vector<std::regex>& ignore,
                                    std::size_t* ignored) {
    std::vector<std::string> kept;
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);) {
        bool masked = std::any_of(ignore.begin(), ignore.end(), [&](const std::regex& re) {
            return std::regex_search(line, re);
        });
        if (masked) ++*ignored;
        else kept.push_back(std::move(line));
    }
    return kept;
}

}  // namespace

int compare_engines(const BootOptions& options, const std::string& module, const CompareOptions& compare) {
    std::vector<std::regex> ignore;
    for (const std::string& pattern : compare.ignore) {
        try {
            ignore.emplace_back(pattern);
        } catch (const std::regex_error& e) {
            std::fprintf(stderr, "beamlet compare: bad --ignore regex '%s': %s\n", pattern.c_str(), e.what());
            return 2;
        }
    }
    std::fflush(stdout);
    std::vector<EngineRun> runs;
    for (const char* engine : {"interp", "jit"}) runs.push_back(run_engine(options, module, engine));

    std::printf("%-7s %8s %10s %12s %10s  %s\n", "engine", "wall ms", "bp hits", "tracing ms", "ns/hit", "ended");
    for (const EngineRun& r : runs)
        std::printf("%-7s %8.1f %10lld %12.3f %10.1f  %s\n", r.engine.c_str(), r.wall_ms, r.hits, r.tracing_ns / 1e6,
                    r.hits ? double(r.tracing_ns) / double(r.hits) : 0.0, r.how_it_ended().c_str());
    std::printf("(bp hits: breakpoints reached in function headers and export entries, counted where either "
                "engine enters the tracing layer)\n");
    if (runs[0].hits != runs[1].hits)
        std::printf("breakpoint hits differ: with more than one scheduler the processes interleave differently "
                    "from run to run; with -S 1 the engines should agree (a bug otherwise)\n");

    std::size_t ignored_a = 0, ignored_b = 0;
    std::vector<std::string> a = kept_lines(runs[0].out, ignore, &ignored_a);
    std::vector<std::string> b = kept_lines(runs[1].out, ignore, &ignored_b);
    bool identical = a == b;
    std::string masked = ignore.empty() ? "" : ", " + std::to_string(ignored_a) + " + " + std::to_string(ignored_b) +
                                                   " lines ignored";
    if (identical) {
        std::printf("outputs identical (%zu lines%s)\n", a.size(), masked.c_str());
    } else {
        std::size_t n = 0;
        while (n < a.size() && n < b.size() && a[n] == b[n]) ++n;
        std::printf("outputs differ at line %zu (of those compared%s):\n  interp: %s\n  jit:    %s\n", n + 1,
                    masked.c_str(), n < a.size() ? a[n].c_str() : "<end>", n < b.size() ? b[n].c_str() : "<end>");
    }
    bool failed = false;
    for (const EngineRun& r : runs)
        if (!r.succeeded()) {
            std::printf("FAILED: the program failed under %s (%s)\n", r.engine.c_str(), r.how_it_ended().c_str());
            failed = true;
        }
    return identical && !failed ? 0 : 1;
}

}  // namespace beamlet::tools
