// io/drivers/spawn_driver.cpp — the spawn driver: open_port({spawn, Command} |
// {spawn_executable, File}, Options) starts an external program on pipes with posix_spawn
// (OTP's spawn driver, without OTP's erl_child_setup helper); the stream driver does the rest.
#include "io/drivers/spawn_driver.hpp"

#include <cerrno>

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

extern char** environ;

namespace beamlet::io {

using vm::PortDriver;

namespace {

// Pipe capacity asked for (Linux's default is 64 KB): fewer turns of the program, the port
// and its writer per megabyte. Beyond /proc/sys/fs/pipe-max-size the default stays.
constexpr std::size_t PIPE_BYTES = 256 * 1024;

int pidfd_open(pid_t pid) { return int(syscall(SYS_pidfd_open, pid, 0)); }

// The environment of the child: ours with [changes] applied.
std::vector<std::string> child_environment(const std::vector<std::pair<std::string, std::optional<std::string>>>& changes) {
    std::vector<std::string> env;
    for (char** e = environ; *e; ++e) env.emplace_back(*e);
    for (const auto& [name, value] : changes) {
        std::string prefix = name + "=";
        std::erase_if(env, [&](const std::string& s) { return s.compare(0, prefix.size(), prefix) == 0; });
        if (value) env.push_back(prefix + *value);
    }
    return env;
}

std::vector<char*> c_strings(std::vector<std::string>& v) {
    std::vector<char*> out;
    for (std::string& s : v) out.push_back(s.data());
    out.push_back(nullptr);
    return out;
}

}  // namespace

std::unique_ptr<PortDriver> spawn_program(const PortOptions& s, int* error) {
    int in_pipe[2] = {-1, -1};   // the program's input: we write [1]
    int out_pipe[2] = {-1, -1};  // the program's output: we read [0]
    auto fail = [&](int e) -> std::unique_ptr<PortDriver> {
        for (int fd : {in_pipe[0], in_pipe[1], out_pipe[0], out_pipe[1]})
            if (fd >= 0) ::close(fd);
        *error = e;
        return nullptr;
    };
    // What OTP checks before it forks: the file exists and may be executed. A directory
    // passes, and its exec fails in the child: the port opens and exits with status EACCES.
    // That is known here already; and the child's failure could not be heard of where vfork
    // is a fork (qemu-user: posix_spawn's child then just exits 127).
    if (s.executable && ::access(s.command.c_str(), X_OK) != 0) return fail(errno);
    struct stat st;
    if (s.executable && ::stat(s.command.c_str(), &st) == 0 && S_ISDIR(st.st_mode))
        return failed_program(s, EACCES);
    if (s.out && pipe2(in_pipe, O_CLOEXEC) != 0) return fail(errno);
    if (s.in && pipe2(out_pipe, O_CLOEXEC) != 0) return fail(errno);

    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    int child_in = s.use_stdio ? 0 : 3, child_out = s.use_stdio ? 1 : 4;
    if (s.out) posix_spawn_file_actions_adddup2(&actions, in_pipe[0], child_in);
    else if (s.use_stdio) posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    if (s.in) posix_spawn_file_actions_adddup2(&actions, out_pipe[1], child_out);
    if (s.in && s.stderr_to_stdout) posix_spawn_file_actions_adddup2(&actions, out_pipe[1], 2);
    if (s.cd) posix_spawn_file_actions_addchdir_np(&actions, s.cd->c_str());
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    // The program starts with default signal handling and nothing blocked (the VM's threads
    // block or ignore some, and ignored signals survive exec).
    sigset_t none, all;
    sigemptyset(&none);
    sigfillset(&all);
    posix_spawnattr_setsigmask(&attr, &none);
    posix_spawnattr_setsigdefault(&attr, &all);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);

    std::vector<std::string> argv_strings;
    std::string path;
    if (s.executable) {
        path = s.command;
        argv_strings.push_back(s.arg0 ? *s.arg0 : s.command);
        if (s.args) argv_strings.insert(argv_strings.end(), s.args->begin(), s.args->end());
    } else {
        path = "/bin/sh";
        argv_strings = {"sh", "-c", "exec " + s.command};
    }
    std::vector<std::string> env_strings = child_environment(s.env);
    std::vector<char*> argv = c_strings(argv_strings), envp = c_strings(env_strings);
    pid_t pid = -1;
    int rc = posix_spawn(&pid, path.c_str(), &actions, &attr, argv.data(), envp.data());
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attr);
    if (rc != 0) {
        if (!s.executable) return fail(rc);
        for (int fd : {in_pipe[0], in_pipe[1], out_pipe[0], out_pipe[1]})
            if (fd >= 0) ::close(fd);
        return failed_program(s, rc);
    }

    // Our ends stay; the program's ends close here (it holds its own copies).
    for (int* fd : {&in_pipe[0], &out_pipe[1]}) close_fd(*fd);
    for (int fd : {in_pipe[1], out_pipe[0]})
        if (fd >= 0) {
            fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
            fcntl(fd, F_SETPIPE_SZ, int(PIPE_BYTES));
        }
    int pidfd = pidfd_open(pid);
    if (pidfd < 0) {
        // No pidfd (an old kernel): the status cannot be watched; the child is reaped below
        // when the port closes, if it has ended by then.
        pidfd = -1;
    } else {
        fcntl(pidfd, F_SETFD, FD_CLOEXEC);
    }
    return program_stream(s, pid, pidfd, in_pipe[1], out_pipe[0]);
}

}  // namespace beamlet::io
