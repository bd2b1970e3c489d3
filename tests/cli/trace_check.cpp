// tests/cli/trace_check.cpp — checks the files `beamlet trace` writes, with parsers that are not
// beamlet's own (nlohmann/json, expat): a test oracle independent of the writers.
//
//   trace_check chrome FILE [--open]   Chrome Trace Event format: a JSON array (the closing
//                                      bracket may be missing, as the format allows) of events
//                                      with known phases and their fields; every E closes an
//                                      open B of its thread with the same name; every flow end
//                                      follows its start. --open: slices may stay open (a run
//                                      cut short).
//   trace_check jsonl FILE             JSON lines: one object per line with "t" and "event".
//   trace_check svg FILE               well-formed XML with an <svg> root, a shape and a text.
//   trace_check folded FILE            folded stacks: "frame;frame;... count" per line.
//
// Prints one "ok ..." line with what it counted, or the first fault, and exits 1.
#include <expat.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace {

using nlohmann::json;

int fault(const std::string& file, const std::string& what) {
    std::printf("trace_check: %s: %s\n", file.c_str(), what.c_str());
    return 1;
}

std::string read_all(const std::string& path, bool* ok) {
    std::ifstream in(path, std::ios::binary);
    *ok = bool(in);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

int check_chrome(const std::string& file, const std::string& text, bool allow_open) {
    std::string body = text;
    while (!body.empty() && std::isspace(static_cast<unsigned char>(body.back()))) body.pop_back();
    bool closed = !body.empty() && body.back() == ']';
    if (!closed) body += "\n]";
    json events = json::parse(body, nullptr, false);
    if (events.is_discarded()) return fault(file, "not JSON");
    if (!events.is_array()) return fault(file, "not a JSON array of events");
    std::map<std::pair<long long, long long>, std::vector<std::string>> open;  // (pid, tid): B names
    std::set<long long> threads;
    std::set<std::string> flows_started;
    std::size_t slices = 0, instants = 0, flows = 0, metadata = 0;
    static const std::set<std::string> phases = {"B", "E", "X", "i", "I", "s", "t", "f", "M", "C"};
    for (std::size_t n = 0; n < events.size(); ++n) {
        const json& e = events[n];
        std::string at = "event " + std::to_string(n) + " " + e.dump().substr(0, 200) + ": ";
        if (!e.is_object()) return fault(file, at + "not an object");
        if (!e.contains("ph") || !e["ph"].is_string() || !phases.count(e["ph"].get<std::string>()))
            return fault(file, at + "no known \"ph\"");
        std::string ph = e["ph"];
        // process_name metadata names a process: it needs no thread.
        if (!e.contains("pid") || !e["pid"].is_number_integer() ||
            ((ph != "M" || e.contains("tid")) && (!e.contains("tid") || !e["tid"].is_number_integer())))
            return fault(file, at + "\"pid\" and \"tid\" must be integers");
        if (ph != "M" && (!e.contains("ts") || !e["ts"].is_number()))
            return fault(file, at + "no numeric \"ts\"");
        if (e.contains("args") && !e["args"].is_object()) return fault(file, at + "\"args\" is not an object");
        auto key = std::make_pair(e["pid"].get<long long>(), e.contains("tid") ? e["tid"].get<long long>() : -1);
        if (ph == "M") {
            if (!e.contains("name") || !e.contains("args") || !e["args"].contains("name"))
                return fault(file, at + "metadata without name and args.name");
            ++metadata;
        } else if (ph == "B") {
            if (!e.contains("name") || !e["name"].is_string()) return fault(file, at + "B without a name");
            open[key].push_back(e["name"]);
            threads.insert(key.second);
        } else if (ph == "E") {
            std::vector<std::string>& stack = open[key];
            if (stack.empty()) return fault(file, at + "E with no open B on its thread");
            if (e.contains("name") && e["name"] != stack.back())
                return fault(file, at + "E named " + e["name"].dump() + " closes B named \"" + stack.back() + "\"");
            stack.pop_back();
            ++slices;
        } else if (ph == "s" || ph == "f" || ph == "t") {
            if (!e.contains("id")) return fault(file, at + "flow event without an id");
            std::string id = e["id"].dump();
            if (ph == "s" && !flows_started.insert(id).second) return fault(file, at + "flow id started twice");
            if (ph == "f") {
                if (!flows_started.count(id)) return fault(file, at + "flow end before its start");
                ++flows;
            }
        } else if (ph == "i" || ph == "I") {
            if (!e.contains("name")) return fault(file, at + "instant without a name");
            ++instants;
            threads.insert(key.second);
        }
    }
    std::size_t still_open = 0;
    for (auto& [k, stack] : open) still_open += stack.size();
    if (still_open && !allow_open)
        return fault(file, std::to_string(still_open) + " slices never closed");
    std::printf("ok chrome %zu events: %zu slices, %zu instants, %zu flows, %zu threads, %zu metadata%s%s\n",
                events.size(), slices, instants, flows, threads.size(), metadata, closed ? "" : ", unterminated",
                still_open ? (", " + std::to_string(still_open) + " open").c_str() : "");
    return 0;
}

int check_jsonl(const std::string& file, const std::string& text) {
    std::istringstream lines(text);
    std::size_t n = 0;
    std::map<std::string, std::size_t> kinds;
    for (std::string line; std::getline(lines, line);) {
        ++n;
        json e = json::parse(line, nullptr, false);
        std::string at = "line " + std::to_string(n) + ": ";
        if (e.is_discarded() || !e.is_object()) return fault(file, at + "not a JSON object");
        if (!e.contains("t") || !e["t"].is_number()) return fault(file, at + "no numeric \"t\"");
        if (!e.contains("event") || !e["event"].is_string()) return fault(file, at + "no \"event\"");
        ++kinds[e["event"].get<std::string>()];
    }
    if (!n) return fault(file, "no events");
    std::string summary;
    for (auto& [k, c] : kinds) summary += " " + k + "=" + std::to_string(c);
    std::printf("ok jsonl %zu events:%s\n", n, summary.c_str());
    return 0;
}

struct SvgStats {
    int depth = 0;
    std::string root;
    std::size_t elements = 0, shapes = 0, texts = 0;
    bool in_text = false;
    std::string text;
};

int check_svg(const std::string& file, const std::string& text) {
    XML_Parser parser = XML_ParserCreate("UTF-8");
    SvgStats stats;
    XML_SetUserData(parser, &stats);
    XML_SetElementHandler(
        parser,
        [](void* data, const XML_Char* name, const XML_Char**) {
            auto* s = static_cast<SvgStats*>(data);
            std::string n = name;
            if (s->elements++ == 0) s->root = n;
            static const std::set<std::string> shapes = {"rect", "line", "path", "polyline", "polygon", "circle",
                                                         "ellipse"};
            if (shapes.count(n)) ++s->shapes;
            if (n == "text") {
                s->in_text = true;
                s->text.clear();
            }
        },
        [](void* data, const XML_Char* name) {
            auto* s = static_cast<SvgStats*>(data);
            if (std::string(name) == "text") {
                if (s->text.find_first_not_of(" \t\n") != std::string::npos) ++s->texts;
                s->in_text = false;
            }
        });
    XML_SetCharacterDataHandler(parser, [](void* data, const XML_Char* chars, int len) {
        auto* s = static_cast<SvgStats*>(data);
        if (s->in_text) s->text.append(chars, std::size_t(len));
    });
    bool ok = XML_Parse(parser, text.data(), int(text.size()), 1) == XML_STATUS_OK;
    std::string error = ok ? "" : std::string(XML_ErrorString(XML_GetErrorCode(parser))) + " at line " +
                                      std::to_string(XML_GetCurrentLineNumber(parser));
    XML_ParserFree(parser);
    if (!ok) return fault(file, "not well-formed XML: " + error);
    if (stats.root != "svg") return fault(file, "the root element is <" + stats.root + ">, not <svg>");
    if (!stats.shapes) return fault(file, "no shape");
    if (!stats.texts) return fault(file, "no text");
    std::printf("ok svg %zu elements: %zu shapes, %zu texts\n", stats.elements, stats.shapes, stats.texts);
    return 0;
}

int check_folded(const std::string& file, const std::string& text) {
    std::istringstream lines(text);
    std::size_t n = 0;
    unsigned long long total = 0;
    for (std::string line; std::getline(lines, line);) {
        ++n;
        std::size_t space = line.rfind(' ');
        std::string at = "line " + std::to_string(n) + ": ";
        if (space == std::string::npos || space == 0) return fault(file, at + "not \"stack count\"");
        std::string count = line.substr(space + 1);
        if (count.empty() || count.find_first_not_of("0123456789") != std::string::npos || count == "0")
            return fault(file, at + "the count is not a positive integer");
        std::string stack = line.substr(0, space);
        if (stack.find(";;") != std::string::npos || stack.back() == ';') return fault(file, at + "an empty frame");
        total += std::stoull(count);
    }
    if (!n) return fault(file, "no stacks");
    std::printf("ok folded %zu stacks, %llu in all\n", n, total);
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 3) {
        std::fprintf(stderr, "usage: trace_check chrome|jsonl|svg|folded FILE [--open]\n");
        return 2;
    }
    std::string kind = argv[1], file = argv[2];
    bool ok = false;
    std::string text = read_all(file, &ok);
    if (!ok) return fault(file, "cannot read");
    if (kind == "chrome") return check_chrome(file, text, argc > 3 && std::string(argv[3]) == "--open");
    if (kind == "jsonl") return check_jsonl(file, text);
    if (kind == "svg") return check_svg(file, text);
    if (kind == "folded") return check_folded(file, text);
    std::fprintf(stderr, "trace_check: unknown kind %s\n", kind.c_str());
    return 2;
}
