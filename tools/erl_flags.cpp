// tools/erl_flags.cpp — erl's flags on beamlet's command line (tools/erl_flags.hpp).
//
// erl hands every flag erlexec does not know to init, each with all the words up to the next
// flag; beamlet's target is a word too, so here each flag takes at most a fixed number of
// values: -boot, -config, -mode, -shutdown_time, -args_file, -enable-feature and
// -disable-feature one, -boot_var and -env two, and any other -App (kernel, stdlib, sasl, an
// application of the user's) a Par and a Val.
// -s and -run take every word up to the next flag, as on erl, and -extra all that follows.
#include "tools/erl_flags.hpp"

#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

namespace beamlet::tools {
namespace {

// Words of an args file or an ERL_*FLAGS variable: whitespace-separated, # to end of line a
// comment (as erlexec reads them).
std::vector<std::string> split_words(std::string_view text, bool comments) {
    std::vector<std::string> words;
    std::string word;
    bool in_comment = false;
    for (char c : text) {
        if (in_comment) {
            if (c == '\n') in_comment = false;
            continue;
        }
        if (comments && c == '#' && word.empty()) {
            in_comment = true;
            continue;
        }
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
            if (!word.empty()) words.push_back(std::move(word));
            word.clear();
        } else {
            word.push_back(c);
        }
    }
    if (!word.empty()) words.push_back(std::move(word));
    return words;
}

// An environment variable's words (ERL_AFLAGS, ERL_FLAGS, ERL_ZFLAGS).
std::vector<std::string> env_words(const char* name) {
    const char* value = std::getenv(name);
    return value ? split_words(value, false) : std::vector<std::string>();
}

// How many values follow an erl flag beamlet takes; -1 when [flag] is not one of them.
int erl_flag_values(const std::string& flag) {
    for (const char* f : {"-boot", "-config", "-mode", "-shutdown_time", "-args_file", "-name", "-sname", "-setcookie",
                          "-connect_all", "-start_epmd", "-epmd_port", "-proto_dist", "-epmd_module",
                          "-enable-feature", "-disable-feature"})
        if (flag == f) return 1;
    if (flag == "-hidden") return 0;
    if (flag == "-boot_var" || flag == "-env") return 2;
    // -App Par Val: a lower-case word (beamlet's own short options are one letter).
    if (flag.size() < 3 || flag[0] != '-' || flag[1] < 'a' || flag[1] > 'z') return -1;
    for (char c : flag.substr(1))
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return -1;
    return 2;
}

// erl's flags beamlet has no place for (beamlet is not a daemon, a heart, or erl's make).
bool is_unsupported_erl_flag(const std::string& flag) {
    for (const char* f : {"-detached", "-heart", "-make", "-man", "-compile", "-version"})
        if (flag == f) return true;
    return false;
}

// beamlet's own options that take a value: their value is not `beamlet run`'s program.
bool is_beamlet_option_with_value(const std::string& word) {
    for (const char* o : {"-p", "-a", "--pa", "-pa", "--pz", "-pz", "-S", "--schedulers", "--engine", "--log-level"})
        if (word == o) return true;
    return false;
}

bool expand_args_file(const std::string& file, std::vector<std::string>* into, int depth, std::string* error) {
    std::ifstream in(file);
    if (!in) {
        char cwd[4096];
        const char* here = ::getcwd(cwd, sizeof cwd) ? cwd : ".";
        *error = "Failed to open arguments file \"" + file + "\" at \"" + here + "\": " + std::strerror(errno);
        return false;
    }
    std::stringstream text;
    text << in.rdbuf();
    std::vector<std::string> words = split_words(text.str(), true);
    for (std::size_t i = 0; i < words.size(); ++i) {
        if (words[i] == "-args_file" && i + 1 < words.size()) {
            if (depth > 16) {
                *error = "Too deep nesting of arguments files: \"" + words[i + 1] + "\"";
                return false;
            }
            if (!expand_args_file(words[i + 1], into, depth + 1, error)) return false;
            ++i;
            continue;
        }
        into->push_back(words[i]);
    }
    return true;
}

}  // namespace

bool extract_erl_flags(std::vector<std::string>& args, ErlFlags* out, std::string* error) {
    if (args.size() < 2) return true;
    const std::string& sub = args[1];
    bool run = sub == "run", shell = sub == "shell", erl = sub == "erl";
    if (!run && !shell && !erl && sub != "trace" && sub != "profile") return true;
    // As erlexec orders them: ERL_AFLAGS, the command line, ERL_FLAGS, ERL_ZFLAGS. The last
    // two are flags only: [tail] is where they start (a program's arguments end there).
    std::vector<std::string> words = env_words("ERL_AFLAGS");
    words.insert(words.end(), args.begin() + 2, args.end());
    std::size_t tail = words.size();
    for (const char* var : {"ERL_FLAGS", "ERL_ZFLAGS"}) {
        std::vector<std::string> more = env_words(var);
        words.insert(words.end(), more.begin(), more.end());
    }
    std::vector<std::string> rest(args.begin(), args.begin() + 2);
    // As erlexec: ERL_EPMD_PORT names the port of epmd for OTP's erl_epmd (-epmd_port).
    if (const char* port = std::getenv("ERL_EPMD_PORT"); port && *port)
        out->init_flags.insert(out->init_flags.end(), {"-epmd_port", port});
    auto plain = [&](std::size_t k) { return k < words.size() && !words[k].empty() && words[k][0] != '-'; };
    auto to_init = [&](std::size_t from, std::size_t to) {
        out->init_flags.insert(out->init_flags.end(), words.begin() + std::ptrdiff_t(from), words.begin() + std::ptrdiff_t(to));
    };
    for (std::size_t i = 0; i < words.size(); ++i) {
        const std::string& w = words[i];
        if (erl && w == "-extra") {  // init's plain arguments, all of them as they are
            to_init(i, words.size());
            break;
        }
        if (w == "--" && !erl) {  // beamlet's own: everything after it is beamlet's
            rest.insert(rest.end(), words.begin() + std::ptrdiff_t(i), words.end());
            break;
        }
        if (w.size() >= 2 && w[0] == '+') {
            // erl's emulator flags: +S N[:M] sets the schedulers, as beamlet's -S; the others
            // are the emulator's own (beamlet has its options for what they set) and are
            // skipped with their value, as in ERL_FLAGS.
            bool attached = w[1] == 'S' && w.size() > 2 && std::isdigit(static_cast<unsigned char>(w[2]));
            bool no_value = attached || w == "+B" || w == "+Bc" || w == "+Bd" || w == "+Bi" || w == "+c" || w == "+d";
            std::string value = attached ? w.substr(2) : "";
            if (!no_value && plain(i + 1) && words[i + 1][0] != '+') value = words[++i];
            if (w[1] == 'S' && (attached || w.size() == 2) && !value.empty())
                out->schedulers = std::atoi(value.substr(0, value.find(':')).c_str());
            continue;
        }
        if (erl && w != "-env" && w != "-args_file" && !is_unsupported_erl_flag(w)) {
            // erl's command line: init parses it (flags, their values, plain arguments).
            if (w == "-noshell") out->noshell = true;
            else out->init_flags.push_back(w);
            if (w == "-s" || w == "-run" || w == "-eval") out->runs_functions = true;
            continue;
        }
        if (w.empty() || w[0] != '-') {
            rest.push_back(w);
            // beamlet run PROGRAM ARGS...: the rest of the command line is the program's.
            if (run && i < tail) {
                out->program_args.assign(words.begin() + std::ptrdiff_t(i + 1), words.begin() + std::ptrdiff_t(tail));
                i = tail - 1;
            }
            continue;
        }
        if (is_beamlet_option_with_value(w)) {
            rest.push_back(w);
            if (i + 1 < words.size()) rest.push_back(words[++i]);
            continue;
        }
        if (w == "-noshell" && run) continue;  // beamlet run is erl -noshell
        if (is_unsupported_erl_flag(w) || ((w == "-s" || w == "-run" || w == "-eval" || w == "-extra") && !run && !shell) ||
            (w == "-remsh" && !shell)) {
            *error = "erl's " + w + " has no place in beamlet " + sub;
            return false;
        }
        if (w == "-s" || w == "-run") {  // -s Mod [Func [Arg...]]: every word up to the next flag
            std::size_t end = i + 1;
            while (plain(end)) ++end;
            to_init(i, end);
            out->runs_functions = true;
            i = end - 1;
            continue;
        }
        if (w == "-extra") {  // the rest: init's plain arguments
            to_init(i, words.size());
            break;
        }
        if (w == "-noinput") {
            rest.push_back(w);
            continue;
        }
        int n = w == "-eval" || w == "-remsh" ? 1 : w == "-noshell" ? 0 : erl_flag_values(w);
        if (n < 0) {
            rest.push_back(w);
            continue;
        }
        if (w == "-eval") out->runs_functions = true;
        // Its values: up to [n] words, fewer when a flag comes first (init then reports the
        // flag as erl's does: -boot_var alone is invalid_boot_var_argument).
        std::size_t values = 0;
        while (values < std::size_t(n) && i + 1 + values < words.size() && words[i + 1 + values][0] != '-')
            ++values;
        // -App Par Val Par2 Val2 ...: more pairs, as long as both words of one are there (a
        // word alone at the end is beamlet run's target).
        if (w != "-boot_var" && w != "-env" && n == 2 && values == 2)
            while (plain(i + 1 + values) && plain(i + 2 + values)) values += 2;
        if (w == "-args_file" || w == "-env") {  // erlexec's own: all values or nothing
            if (values < std::size_t(n)) {
                *error = w + " wants " + (n == 1 ? "a value" : "two values");
                return false;
            }
        }
        if (w == "-args_file") {
            std::vector<std::string> expanded;
            if (!expand_args_file(words[i + 1], &expanded, 0, error)) return false;
            words.erase(words.begin() + std::ptrdiff_t(i), words.begin() + std::ptrdiff_t(i) + 2);
            words.insert(words.begin() + std::ptrdiff_t(i), expanded.begin(), expanded.end());
            if (i < tail) tail = tail + expanded.size() - 2;
            --i;
            continue;
        }
        if (w == "-env") out->env.emplace_back(words[i + 1], words[i + 2]);
        else to_init(i, i + 1 + values);
        i += values;
    }
    args = std::move(rest);
    return true;
}

}  // namespace beamlet::tools
