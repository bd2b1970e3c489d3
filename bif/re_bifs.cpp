// bif/re_bifs.cpp — the BIFs of OTP's re module (version/0, compile/1,2, run/2,3,
// internal_run/4, inspect/2) over PCRE2, as OTP's are over PCRE. re.beam (split/replace and
// the rest) is OTP's own, running on these.
//
// A compiled pattern is OTP's shape, {re_pattern, Groups, Unicode, UseCRLF, Bin}; Bin holds
// what compiled it (options and source), and the PCRE2 code itself lives in a VM-wide cache
// keyed by that binary, so a pattern compiled once is never compiled again, and a pattern sent
// to another process or stored in ETS stays valid. Offsets are in bytes, as in OTP.
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "bif/bifs.hpp"
#include "vm/binary.hpp"
#include "vm/bignum.hpp"

namespace beamlet::bif {

using namespace vm;

namespace {

// What a pattern is compiled with: PCRE2 compile flags, newline and \R conventions.
struct CompileSpec {
    std::uint32_t flags = 0;
    std::uint32_t newline = PCRE2_NEWLINE_LF;  // OTP's default
    std::uint32_t bsr = PCRE2_BSR_UNICODE;
    bool operator==(const CompileSpec&) const = default;
};

// re:run's options beyond compiling.
enum class CaptureSet { All, AllButFirst, First, None, AllNames, Listed };
enum class CaptureType { Index, List, Binary };
struct RunSpec {
    CompileSpec compile;
    bool compile_options = false;  // any compile option given (not allowed with a compiled RE)
    bool newline_given = false;
    std::uint32_t match_flags = 0;
    bool global = false, report_errors = false;
    std::size_t offset = 0;
    CaptureSet capture = CaptureSet::All;
    Term capture_list = NIL;
    CaptureType type = CaptureType::Index;
    std::uint32_t match_limit = 0, depth_limit = 0;  // 0: PCRE2's default
};

// ---- the pattern cache -----------------------------------------------------------------------

struct CodeDeleter {
    void operator()(pcre2_code* c) const { pcre2_code_free(c); }
};

struct PatternCache {
    std::mutex mutex;
    std::unordered_map<std::string, std::shared_ptr<pcre2_code>> codes;
};

PatternCache& cache() {
    static PatternCache* c = new PatternCache();  // never destroyed: schedulers may still match at exit
    return *c;
}

// The binary of a compiled pattern: "BLRE", the spec, then the source.
std::string pattern_key(const CompileSpec& spec, const std::string& source) {
    std::string key = "BLRE";
    for (std::uint32_t v : {spec.flags, spec.newline, spec.bsr}) key.append(reinterpret_cast<const char*>(&v), sizeof v);
    return key + source;
}

bool parse_key(const std::string& key, CompileSpec* spec, std::string* source) {
    constexpr std::size_t header = 4 + 3 * sizeof(std::uint32_t);
    if (key.size() < header || key.compare(0, 4, "BLRE") != 0) return false;
    std::uint32_t v[3];
    std::memcpy(v, key.data() + 4, sizeof v);
    *spec = CompileSpec{v[0], v[1], v[2]};
    *source = key.substr(header);
    return true;
}

// ---- Latin-1 character tables ------------------------------------------------------------------

// OTP's PCRE classifies characters 128..255 as ISO 8859-1 does (its tables were made in a
// Latin-1 locale): \w, [[:alpha:]] and caseless matching know à, Ä, ß, ÿ, µ... without ucp.
// PCRE2 makes tables for the current locale only, so they are made in the C locale and the
// Latin-1 half filled in. The layout (PCRE2's pcre2_internal.h: lower-case map, case-flip map,
// ten class bitmaps, character types) is checked against what the C locale put there; if it
// does not look as expected, PCRE2's built-in tables are used.
class Latin1Tables {
public:
    static const std::uint8_t* get() {
        static Latin1Tables tables;
        return tables.m_ok ? tables.m_bytes.data() : nullptr;
    }

private:
    enum : std::size_t { LCC = 0, FCC = 256, CBITS = 512, CTYPES = 832, LENGTH = 1088 };
    enum : std::size_t { SPACE = 0, XDIGIT = 32, DIGIT = 64, UPPER = 96, LOWER = 128, WORD = 160,
                         GRAPH = 192, PRINT = 224, PUNCT = 256, CNTRL = 288 };
    std::array<std::uint8_t, LENGTH> m_bytes{};
    bool m_ok = false;

    bool bit(std::size_t map, unsigned c) const { return m_bytes[CBITS + map + c / 8] & (1u << (c % 8)); }
    void set(std::size_t map, unsigned c) { m_bytes[CBITS + map + c / 8] |= std::uint8_t(1u << (c % 8)); }

    Latin1Tables() {
        const std::uint8_t* c_tables = pcre2_maketables(nullptr);  // in the C locale: no locale was set
        if (!c_tables) return;
        std::memcpy(m_bytes.data(), c_tables, LENGTH);
        pcre2_maketables_free(nullptr, c_tables);
        const std::uint8_t* ctypes = m_bytes.data() + CTYPES;
        std::uint8_t word = ctypes['_'], letter = ctypes['A'] & ~word, lower = ctypes['a'] & ~ctypes['A'];
        m_ok = m_bytes[LCC + 'A'] == 'a' && m_bytes[FCC + 'a'] == 'A' && bit(UPPER, 'A') && !bit(UPPER, 'a') &&
               bit(LOWER, 'z') && bit(WORD, '_') && bit(DIGIT, '7') && bit(SPACE, ' ') && bit(PUNCT, '!') &&
               bit(CNTRL, 127) && bit(GRAPH, '~') && bit(PRINT, ' ') && !bit(GRAPH, ' ') && bit(XDIGIT, 'f') &&
               word && letter && !bit(WORD, 0xE5);
        if (!m_ok) return;
        for (unsigned c = 0x80; c < 0x100; ++c) {
            bool is_upper = (c >= 0xC0 && c <= 0xDE && c != 0xD7);
            bool is_lower = c == 0xB5 || (c >= 0xDF && c != 0xF7);
            bool is_alpha = is_upper || is_lower || c == 0xAA || c == 0xBA;
            if (c < 0xA0) set(CNTRL, c);
            if (c >= 0xA0) set(PRINT, c);
            if (c >= 0xA0) set(GRAPH, c);  // as glibc's Latin-1 locale: no-break space too
            if (c >= 0xA0 && !is_alpha) set(PUNCT, c);
            if (is_upper) set(UPPER, c);
            if (is_lower) set(LOWER, c);
            if (is_alpha) set(WORD, c);
            m_bytes[LCC + c] = std::uint8_t(is_upper ? c + 32 : c);
            m_bytes[FCC + c] = std::uint8_t(is_upper ? c + 32 : is_lower && c >= 0xE0 && c != 0xFF ? c - 32 : c);
            m_bytes[CTYPES + c] = std::uint8_t(is_alpha ? (letter | word | (is_lower ? lower : 0)) : 0);
        }
    }
};

// PCRE2 10.42 builds a UTF-8 pattern's start-byte bitmap for \w, \d, \s from the space
// class's bits above 127, whatever the class (pcre2_study.c, set_type_bits), so with the
// Latin-1 tables `\w` could never start a match at é. The bitmap only filters where a match
// may start: letting in the lead bytes of U+0080..U+00FF (0xC2, 0xC3) as well is always correct.
void admit_latin1_starts(pcre2_code* code) {
    const std::uint8_t* bitmap = nullptr;
    if (pcre2_pattern_info(code, PCRE2_INFO_FIRSTBITMAP, &bitmap) != 0 || !bitmap) return;
    auto* bits = const_cast<std::uint8_t*>(bitmap);  // inside the compiled pattern, which we own
    for (unsigned lead : {0xC2u, 0xC3u}) bits[lead / 8] |= std::uint8_t(1u << (lead % 8));
}

struct CompileError {
    std::string message;
    std::size_t offset = 0;
};

// OTP 25's re is PCRE 8: where PCRE2 words a compile error differently, the text erl gives
// (erl_stdlib_errors and programs match on it). The offset stays PCRE2's.
const char* pcre8_error_text(int code) {
    switch (code) {
    case PCRE2_ERROR_QUANTIFIER_INVALID: return "nothing to repeat";
    case PCRE2_ERROR_MISSING_CLOSING_PARENTHESIS: return "missing )";
    case PCRE2_ERROR_MISSING_COMMENT_CLOSING: return "missing ) after comment";
    case PCRE2_ERROR_UNMATCHED_CLOSING_PARENTHESIS: return "unmatched parentheses";
    case PCRE2_ERROR_MISSING_CONDITION_CLOSING: return "malformed number or name after (?(";
    case PCRE2_ERROR_CODE_POINT_TOO_BIG: return "character value in \\x{} or \\o{} is too large";
    case PCRE2_ERROR_UNSUPPORTED_ESCAPE_SEQUENCE: return "PCRE does not support \\L, \\l, \\N{name}, \\U, or \\u";
    case PCRE2_ERROR_CALLOUT_NUMBER_TOO_BIG: return "number after (?C is > 255";
    case PCRE2_ERROR_MISSING_NAME_TERMINATOR: return "syntax error in subpattern name (missing terminator)";
    case PCRE2_ERROR_DUPLICATE_SUBPATTERN_NAME: return "two named subpatterns have the same name";
    case PCRE2_ERROR_INVALID_SUBPATTERN_NAME: return "group name must start with a non-digit";
    case PCRE2_ERROR_UNKNOWN_UNICODE_PROPERTY: return "unknown property name after \\P or \\p";
    case PCRE2_ERROR_PARENS_QUERY_R_MISSING_CLOSING: return "(?R or (?[+-]digits must be followed by )";
    case PCRE2_ERROR_DEFINE_TOO_MANY_BRANCHES: return "DEFINE group contains more than one branch";
    case PCRE2_ERROR_PARENTHESES_NEST_TOO_DEEP: return "regular expression is too complicated";
    case PCRE2_ERROR_SUBPATTERN_NAME_EXPECTED: return "unrecognized character after (?<";
    default: return nullptr;
    }
}

// The capturing groups of a pattern, roughly as PCRE 8 counts them: ( not followed by ?,
// and the named forms (?<name>, (?'name', (?P<name>; none in a class or after a backslash.
std::size_t capture_groups(const std::string& source) {
    std::size_t groups = 0;
    bool in_class = false;
    for (std::size_t i = 0; i < source.size(); ++i) {
        char c = source[i];
        if (c == '\\') {
            ++i;
        } else if (in_class) {
            if (c == ']') in_class = false;
        } else if (c == '[') {
            in_class = true;
            if (i + 1 < source.size() && source[i + 1] == '^') ++i;
            if (i + 1 < source.size() && source[i + 1] == ']') ++i;
        } else if (c == '(') {
            std::string_view rest = std::string_view(source).substr(i + 1);
            bool named = rest.starts_with("?P<") || rest.starts_with("?'") ||
                         (rest.starts_with("?<") && rest.size() > 2 && rest[2] != '=' && rest[2] != '!');
            if (!rest.starts_with("?") || named) ++groups;
        }
    }
    return groups;
}

// Where PCRE 8 and PCRE2 read a pattern differently, PCRE2 is given what PCRE 8 meant:
//  - a hyphen after a class escape or a POSIX class in a character class ([\d-z],
//    [[:alpha:]-z]) is a literal hyphen to PCRE 8, an invalid range to PCRE2: it is escaped;
//  - \8 and \9 that are not back references (fewer groups) are the digits themselves to
//    PCRE 8 (as Perl since 5.18), a reference to a missing group to PCRE2: the digit is kept;
//  - letter escapes PCRE 8 does not know (\i, \q...), and in a class \B, \R, \X, \z...,
//    are the letters to PCRE 8 (without PCRE_EXTRA, as OTP compiles), errors to PCRE2: the
//    letter is kept.
// [inserted] receives the positions (in the original) where a character went in (a
// backslash) or, as a negative offset, out, so that error offsets can be mapped back.
std::string pcre8_compatible_pattern(const std::string& source, std::vector<std::ptrdiff_t>* inserted) {
    std::string out;
    out.reserve(source.size());
    const std::size_t n = source.size();
    const std::size_t groups = capture_groups(source);
    bool in_class = false;
    std::size_t class_body = 0;  // where the class's members start (a ] there is a member)
    auto hyphen_after_class_item = [&](std::size_t& i) {
        if (i < n && source[i] == '-' && i + 1 < n && source[i + 1] != ']') {
            inserted->push_back(std::ptrdiff_t(i));
            out += "\\-";
            ++i;
        }
    };
    for (std::size_t i = 0; i < n;) {
        char c = source[i];
        if (c == '\\' && i + 1 < n) {
            char e = source[i + 1];
            if (e == 'Q') {  // \Q...\E: all literal
                std::size_t end = source.find("\\E", i + 2);
                end = end == std::string::npos ? n : end + 2;
                out.append(source, i, end - i);
                i = end;
                continue;
            }
            bool unknown_letter = std::strchr("FIJMOTYijmqy", e) != nullptr;
            if (e != '\0' && (unknown_letter || (in_class && std::strchr("ABCGKNRXZz", e)))) {
                inserted->push_back(-std::ptrdiff_t(i) - 1);
                out += e;
                i += 2;
                continue;
            }
            if (e == '8' || e == '9') {
                std::size_t end = i + 1;
                while (end < n && source[end] >= '0' && source[end] <= '9') ++end;
                std::size_t number = std::stoul(source.substr(i + 1, std::min<std::size_t>(end - i - 1, 9)));
                if (in_class || number > groups) {
                    inserted->push_back(-std::ptrdiff_t(i) - 1);
                    out += e;
                    i += 2;
                    continue;
                }
            }
            std::size_t end = i + 2;
            bool class_escape = std::strchr("dDwWsShHvV", e) != nullptr;
            if ((e == 'p' || e == 'P') && end < n) {
                class_escape = true;
                if (source[end] == '{') {
                    std::size_t close = source.find('}', end);
                    end = close == std::string::npos ? n : close + 1;
                } else {
                    ++end;
                }
            }
            out.append(source, i, end - i);
            i = end;
            if (in_class && class_escape) hyphen_after_class_item(i);
            continue;
        }
        if (!in_class) {
            out += c;
            ++i;
            if (c == '[') {
                in_class = true;
                if (i < n && source[i] == '^') out += source[i++];
                class_body = i;
            }
            continue;
        }
        if (c == '[' && i + 1 < n && (source[i + 1] == ':' || source[i + 1] == '.' || source[i + 1] == '=')) {
            std::size_t close = source.find(std::string{source[i + 1], ']'}, i + 2);
            if (close != std::string::npos) {
                out.append(source, i, close + 2 - i);
                i = close + 2;
                hyphen_after_class_item(i);
                continue;
            }
        }
        if (c == ']' && i != class_body) in_class = false;
        out += c;
        ++i;
    }
    return out;
}

std::shared_ptr<pcre2_code> compile(const CompileSpec& spec, const std::string& source, CompileError* error) {
    std::string key = pattern_key(spec, source);
    PatternCache& c = cache();
    {
        std::lock_guard lock(c.mutex);
        auto it = c.codes.find(key);
        if (it != c.codes.end()) return it->second;
    }
    pcre2_compile_context* context = pcre2_compile_context_create(nullptr);
    pcre2_set_newline(context, spec.newline);
    pcre2_set_bsr(context, spec.bsr);
    if (const std::uint8_t* tables = Latin1Tables::get()) pcre2_set_character_tables(context, tables);
    // erl's PCRE 8 runs out of compile workspace at 799 nested groups; PCRE2's own limit
    // (250) stops it earlier. Past this one PCRE2 reports what erl's does (pcre8_error_text).
    pcre2_set_parens_nest_limit(context, 798);
    // PCRE 8 takes \K in a lookaround; PCRE2 rejects it unless told.
    pcre2_set_compile_extra_options(context, PCRE2_EXTRA_ALLOW_LOOKAROUND_BSK);
    std::vector<std::ptrdiff_t> changes;
    std::string pattern = pcre8_compatible_pattern(source, &changes);
    int code;
    PCRE2_SIZE at;
    pcre2_code* compiled = pcre2_compile(reinterpret_cast<PCRE2_SPTR>(pattern.data()), pattern.size(), spec.flags,
                                         &code, &at, context);
    pcre2_compile_context_free(context);
    if (!compiled) {
        PCRE2_UCHAR text[256];
        pcre2_get_error_message(code, text, sizeof text);
        const char* pcre8 = pcre8_error_text(code);
        // The original's offset: back over each character put in before it, on over each taken out.
        std::ptrdiff_t shift = 0;
        for (std::ptrdiff_t change : changes) {
            std::ptrdiff_t where = (change < 0 ? -change - 1 : change) + shift;
            if (where >= std::ptrdiff_t(at)) break;
            shift += change < 0 ? -1 : 1;
        }
        at = PCRE2_SIZE(std::ptrdiff_t(at) - shift);
        *error = {pcre8 ? pcre8 : reinterpret_cast<const char*>(text), at};
        return nullptr;
    }
    if ((spec.flags & PCRE2_UTF) && !(spec.flags & PCRE2_UCP)) admit_latin1_starts(compiled);
    std::shared_ptr<pcre2_code> shared(compiled, CodeDeleter{});
    std::lock_guard lock(c.mutex);
    if (c.codes.size() > 4096) c.codes.clear();  // a bound for programs that build patterns at run time
    return c.codes.emplace(key, shared).first->second;
}

std::uint32_t capture_count(const pcre2_code* code) {
    std::uint32_t n = 0;
    pcre2_pattern_info(code, PCRE2_INFO_CAPTURECOUNT, &n);
    return n;
}

// ---- terms -------------------------------------------------------------------------------------

// Subjects and patterns: iodata, or (with [unicode]) chardata, as bytes.
bool text_of(Term t, bool unicode, std::string* out) {
    if (!unicode) return iolist_to_bytes(t, out);
    // (term, whether it is the whole or a list's tail: a binary or a list, never a character)
    std::vector<std::pair<Term, bool>> stack{{t, true}};
    while (!stack.empty()) {
        auto [x, tail] = stack.back();
        stack.pop_back();
        if (is_binary(x)) {
            std::string bytes;
            if (!iolist_to_bytes(x, &bytes)) return false;
            *out += bytes;
        } else if (is_list(x)) {
            stack.push_back({cdr(x), true});
            stack.push_back({car(x), false});
        } else if (is_small(x) && !tail) {
            SWord c = small_value(x);
            if (c < 0 || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF)) return false;
            put_utf8(std::uint32_t(c), *out);
        } else if (!is_nil(x)) {
            return false;
        }
    }
    return true;
}

bool is_compiled(Term re) {
    return is_tuple(re) && tuple_arity(re) == 5 && tuple_element(re, 0) == atom("re_pattern") &&
           is_binary(tuple_element(re, 4));
}

Term compiled_term(Process* p, const CompileSpec& spec, const std::string& source, const pcre2_code* code) {
    bool crlf = spec.newline == PCRE2_NEWLINE_CRLF || spec.newline == PCRE2_NEWLINE_ANY ||
                spec.newline == PCRE2_NEWLINE_ANYCRLF;
    return make_tuple_on(p, {atom("re_pattern"), make_small(SWord(capture_count(code))),
                             make_small((spec.flags & PCRE2_UTF) != 0), make_small(crlf),
                             make_binary(p, pattern_key(spec, source))});
}

// ---- options -------------------------------------------------------------------------------

bool newline_of(Term t, std::uint32_t* out) {
    if (t == atom("cr")) *out = PCRE2_NEWLINE_CR;
    else if (t == atom("lf")) *out = PCRE2_NEWLINE_LF;
    else if (t == atom("crlf")) *out = PCRE2_NEWLINE_CRLF;
    else if (t == atom("anycrlf")) *out = PCRE2_NEWLINE_ANYCRLF;
    else if (t == atom("any")) *out = PCRE2_NEWLINE_ANY;
    else if (t == atom("nul")) *out = PCRE2_NEWLINE_NUL;
    else return false;
    return true;
}

// A compile option [o] into [spec]; false if [o] is not one.
bool compile_option(Term o, CompileSpec* spec) {
    static const std::pair<const char*, std::uint32_t> flags[] = {
        {"unicode", PCRE2_UTF},          {"anchored", PCRE2_ANCHORED},
        {"caseless", PCRE2_CASELESS},    {"dollar_endonly", PCRE2_DOLLAR_ENDONLY},
        {"dotall", PCRE2_DOTALL},        {"extended", PCRE2_EXTENDED},
        {"firstline", PCRE2_FIRSTLINE},  {"multiline", PCRE2_MULTILINE},
        {"no_auto_capture", PCRE2_NO_AUTO_CAPTURE}, {"dupnames", PCRE2_DUPNAMES},
        {"ungreedy", PCRE2_UNGREEDY},    {"no_start_optimize", PCRE2_NO_START_OPTIMIZE},
        {"ucp", PCRE2_UCP},              {"never_utf", PCRE2_NEVER_UTF},
    };
    if (is_atom(o)) {
        for (const auto& [name, flag] : flags)
            if (o == atom(name)) {
                spec->flags |= flag;
                return true;
            }
        if (o == atom("bsr_anycrlf")) spec->bsr = PCRE2_BSR_ANYCRLF;
        else if (o == atom("bsr_unicode")) spec->bsr = PCRE2_BSR_UNICODE;
        else return false;
        return true;
    }
    if (is_tuple(o) && tuple_arity(o) == 2 && tuple_element(o, 0) == atom("newline"))
        return newline_of(tuple_element(o, 1), &spec->newline);
    return false;
}

bool capture_set(Term t, RunSpec* spec) {
    if (t == atom("all")) spec->capture = CaptureSet::All;
    else if (t == atom("all_but_first")) spec->capture = CaptureSet::AllButFirst;
    else if (t == atom("first")) spec->capture = CaptureSet::First;
    else if (t == atom("none")) spec->capture = CaptureSet::None;
    else if (t == atom("all_names")) spec->capture = CaptureSet::AllNames;
    else if (is_list(t) || is_nil(t)) {
        for (Term l = t; !is_nil(l); l = cdr(l)) {
            if (!is_list(l)) return false;
            Term e = car(l);
            if (!(is_small(e) && small_value(e) >= 0) && !is_atom(e) && !is_list(e) && !is_binary(e)) return false;
        }
        spec->capture = CaptureSet::Listed;
        spec->capture_list = t;
    } else {
        return false;
    }
    return true;
}

bool run_options(Term opts, RunSpec* spec) {
    Term l = opts;
    for (; is_list(l); l = cdr(l)) {
        Term o = car(l);
        if (compile_option(o, &spec->compile)) {
            spec->compile_options = true;
            if (is_tuple(o)) spec->newline_given = true;
            // anchored is a run option as well: it applies to this match either way.
            if (o == atom("anchored")) spec->match_flags |= PCRE2_ANCHORED;
            continue;
        }
        if (o == atom("global")) spec->global = true;
        else if (o == atom("notbol")) spec->match_flags |= PCRE2_NOTBOL;
        else if (o == atom("noteol")) spec->match_flags |= PCRE2_NOTEOL;
        else if (o == atom("notempty")) spec->match_flags |= PCRE2_NOTEMPTY;
        else if (o == atom("notempty_atstart")) spec->match_flags |= PCRE2_NOTEMPTY_ATSTART;
        else if (o == atom("report_errors")) spec->report_errors = true;
        else if (is_tuple(o) && tuple_arity(o) == 2) {
            Term k = tuple_element(o, 0), v = tuple_element(o, 1);
            if (k == atom("offset") && is_small(v) && small_value(v) >= 0) spec->offset = std::size_t(small_value(v));
            else if (k == atom("match_limit") && is_small(v) && small_value(v) >= 0) spec->match_limit = std::uint32_t(small_value(v));
            else if (k == atom("match_limit_recursion") && is_small(v) && small_value(v) >= 0)
                spec->depth_limit = std::uint32_t(small_value(v));
            else if (k == atom("capture") && capture_set(v, spec)) continue;
            else return false;
        } else if (is_tuple(o) && tuple_arity(o) == 3 && tuple_element(o, 0) == atom("capture")) {
            if (!capture_set(tuple_element(o, 1), spec)) return false;
            Term type = tuple_element(o, 2);
            if (type == atom("index")) spec->type = CaptureType::Index;
            else if (type == atom("list")) spec->type = CaptureType::List;
            else if (type == atom("binary")) spec->type = CaptureType::Binary;
            else return false;
        } else {
            return false;
        }
    }
    return is_nil(l);
}

// ---- matching --------------------------------------------------------------------------------

// A capture as a list: characters of UTF-8 text, or bytes.
Term chars_list(Process* p, const char* s, std::size_t n, bool unicode) {
    return unicode ? utf8_to_list(p, std::string_view(s, n)) : bytes_to_list(p, std::string_view(s, n));
}

// What one capture item refers to: its group numbers, several for a name that [dupnames]
// gives to more than one group (the first of them that is set is captured, as OTP does), none
// for a name or number the pattern does not have.
using CaptureItem = std::vector<long>;

// The groups named [name], in group order.
CaptureItem named_groups(const pcre2_code* code, const std::string& name) {
    PCRE2_SPTR first = nullptr, last = nullptr;
    int rc = pcre2_substring_nametable_scan(code, reinterpret_cast<PCRE2_SPTR>(name.c_str()), &first, &last);
    if (rc < 0) return {};
    std::uint32_t entry = 0;
    pcre2_pattern_info(code, PCRE2_INFO_NAMEENTRYSIZE, &entry);
    CaptureItem groups;
    for (PCRE2_SPTR e = first; e <= last; e += entry) groups.push_back(long((e[0] << 8) | e[1]));
    return groups;
}

// The pattern's group names, each once, sorted (PCRE2's name table order).
std::vector<std::string> group_names(const pcre2_code* code) {
    std::uint32_t count = 0, entry = 0;
    PCRE2_SPTR table = nullptr;
    pcre2_pattern_info(code, PCRE2_INFO_NAMECOUNT, &count);
    pcre2_pattern_info(code, PCRE2_INFO_NAMEENTRYSIZE, &entry);
    pcre2_pattern_info(code, PCRE2_INFO_NAMETABLE, &table);
    std::vector<std::string> names;
    for (std::uint32_t i = 0; i < count; ++i) {
        std::string name(reinterpret_cast<const char*>(table + i * entry + 2));
        if (names.empty() || names.back() != name) names.push_back(std::move(name));
    }
    return names;
}

// The capture items a capture spec asks for, in order. False if the spec is malformed.
bool capture_groups(const pcre2_code* code, const RunSpec& spec, std::vector<CaptureItem>* out) {
    std::uint32_t groups = capture_count(code);
    switch (spec.capture) {
    case CaptureSet::All:
        for (std::uint32_t i = 0; i <= groups; ++i) out->push_back({long(i)});
        return true;
    case CaptureSet::AllButFirst:
        for (std::uint32_t i = 1; i <= groups; ++i) out->push_back({long(i)});
        return true;
    case CaptureSet::First:
        out->push_back({0});
        return true;
    case CaptureSet::None:
        return true;
    case CaptureSet::AllNames:
        for (const std::string& name : group_names(code)) out->push_back(named_groups(code, name));
        return true;
    case CaptureSet::Listed:
        for (Term l = spec.capture_list; is_list(l); l = cdr(l)) {
            Term e = car(l);
            if (is_small(e)) {
                if (small_value(e) >= 0 && small_value(e) <= long(groups)) out->push_back({long(small_value(e))});
                else out->push_back({});
                continue;
            }
            std::string name;
            if (is_atom(e)) name = atom_text(e);
            else if (!text_of(e, true, &name)) return false;
            out->push_back(named_groups(code, name));
        }
        return true;
    }
    return true;
}

// One match's captures as the spec wants them.
// Binaries captured from a binary subject ([subject_bin], else 0) are sub-binaries of it.
// [pairs]: the groups up to the last one set (pcre2_match's answer); all and all_but_first
// stop there, as OTP's do.
Term captured(Process* p, const std::string& subject, Term subject_bin, const PCRE2_SIZE* ovector, int pairs,
              const std::vector<CaptureItem>& groups, const RunSpec& spec, bool unicode) {
    bool up_to_last_set = spec.capture == CaptureSet::All || spec.capture == CaptureSet::AllButFirst;
    std::vector<Term> items;
    for (const CaptureItem& candidates : groups) {
        if (up_to_last_set && candidates[0] >= pairs) break;
        bool set = false;
        std::size_t start = 0, end = 0;
        for (long g : candidates) {
            if (g < 0 || g >= pairs || ovector[2 * g] == PCRE2_UNSET) continue;
            set = true;
            start = ovector[2 * g];
            end = ovector[2 * g + 1];
            break;
        }
        switch (spec.type) {
        case CaptureType::Index:
            items.push_back(set ? make_tuple_on(p, {make_small(SWord(start)), make_small(SWord(end - start))})
                                : make_tuple_on(p, {make_small(-1), make_small(0)}));
            break;
        case CaptureType::Binary:
            if (subject_bin && end > start) items.push_back(make_sub_binary(p, subject_bin, 8 * start, 8 * (end - start)));
            else items.push_back(make_binary(p, std::string_view(subject).substr(start, end - start)));
            break;
        case CaptureType::List:
            items.push_back(chars_list(p, subject.data() + start, end - start, unicode));
            break;
        }
    }
    Term l = NIL;
    for (auto it = items.rbegin(); it != items.rend(); ++it) l = make_cons_on(p->alloc(2), *it, l);
    return l;
}

// How far the next global match starts after an empty match at [at] failed to extend: one
// character (a CRLF pair when newlines are CRLF-ish).
std::size_t step_past(const std::string& s, std::size_t at, bool unicode, std::uint32_t newline) {
    bool crlf = newline == PCRE2_NEWLINE_CRLF || newline == PCRE2_NEWLINE_ANY || newline == PCRE2_NEWLINE_ANYCRLF;
    if (crlf && at + 1 < s.size() && s[at] == '\r' && s[at + 1] == '\n') return at + 2;
    std::size_t next = at + 1;
    if (unicode)
        while (next < s.size() && (static_cast<unsigned char>(s[next]) & 0xC0) == 0x80) ++next;
    return next;
}

Term run(Process* p, Term subject_term, Term re, Term opts) {
    RunSpec spec;
    // Options are checked first: erts names them (cause badopt) whatever else is wrong.
    if (!run_options(opts, &spec)) return p->badarg(atom("badopt"));
    CompileSpec compile_spec = spec.compile;
    std::string source;
    if (is_compiled(re)) {
        std::string key;
        if (!iolist_to_bytes(tuple_element(re, 4), &key) || !parse_key(key, &compile_spec, &source)) return p->badarg();
        // A compiled pattern takes no compile options but unicode (which it must have) and a
        // newline convention (recompiled with it).
        CompileSpec given = spec.compile;
        if ((given.flags & ~(PCRE2_UTF | PCRE2_ANCHORED)) != 0) return p->badarg();
        if ((given.flags & PCRE2_UTF) && !(compile_spec.flags & PCRE2_UTF)) return p->badarg();
        if (spec.newline_given) compile_spec.newline = given.newline;
    } else {
        if (!text_of(re, (compile_spec.flags & PCRE2_UTF) != 0, &source)) return p->badarg();
    }
    bool unicode = (compile_spec.flags & PCRE2_UTF) != 0;
    std::string subject;
    if (!text_of(subject_term, unicode, &subject)) return p->badarg();
    if (spec.offset > subject.size()) return p->badarg();
    CompileError error;
    std::shared_ptr<pcre2_code> code = compile(compile_spec, source, &error);
    if (!code) {
        if (!spec.report_errors) return p->badarg();
        Term where = make_tuple_on(p, {bytes_to_list(p, error.message), make_small(SWord(error.offset))});
        return make_tuple_on(p, {atoms::error, make_tuple_on(p, {atom("compile"), where})});
    }
    std::vector<CaptureItem> groups;
    if (!capture_groups(code.get(), spec, &groups)) return p->badarg();
    Term subject_bin = is_binary(subject_term) ? subject_term : 0;

    pcre2_match_context* context = pcre2_match_context_create(nullptr);
    if (spec.match_limit) pcre2_set_match_limit(context, spec.match_limit);
    if (spec.depth_limit) pcre2_set_depth_limit(context, spec.depth_limit);
    pcre2_match_data* data = pcre2_match_data_create_from_pattern(code.get(), nullptr);
    std::vector<Term> matches;
    std::size_t at = spec.offset;
    std::uint32_t extra = 0;  // after an empty match: not empty again at the same place
    // The subject's UTF-8 is checked by the first search only (each search would check all
    // of it again; later ones start where a match ended, on a character boundary).
    std::uint32_t checked = 0;
    Term result = atom("nomatch");
    bool failed = false;
    Term failure = 0;
    while (true) {
        int rc = pcre2_match(code.get(), reinterpret_cast<PCRE2_SPTR>(subject.data()), subject.size(), at,
                             spec.match_flags | extra | checked, data, context);
        if (unicode && (rc >= 0 || rc == PCRE2_ERROR_NOMATCH)) checked = PCRE2_NO_UTF_CHECK;
        if (rc == PCRE2_ERROR_NOMATCH) {
            if (extra && at < subject.size()) {
                at = step_past(subject, at, unicode, compile_spec.newline);
                extra = 0;
                continue;
            }
            break;
        }
        if (rc < 0) {
            failed = true;
            if (rc == PCRE2_ERROR_MATCHLIMIT) failure = atom("match_limit");
            else if (rc == PCRE2_ERROR_DEPTHLIMIT) failure = atom("match_limit_recursion");
            else failure = atoms::badarg;  // invalid UTF-8, an offset inside a character, ...
            break;
        }
        const PCRE2_SIZE* ovector = pcre2_get_ovector_pointer(data);
        int pairs = rc > 0 ? rc : int(pcre2_get_ovector_count(data));  // 0: the ovector was too small
        matches.push_back(captured(p, subject, subject_bin, ovector, pairs, groups, spec, unicode));
        if (!spec.global) break;
        std::size_t start = ovector[0], end = ovector[1];
        if (end == start) {
            if (end >= subject.size()) break;
            extra = PCRE2_NOTEMPTY_ATSTART | PCRE2_ANCHORED;
        } else {
            extra = 0;
        }
        at = end;
    }
    pcre2_match_data_free(data);
    pcre2_match_context_free(context);
    if (failed) {
        if (failure == atoms::badarg) return p->badarg();
        if (!spec.report_errors) return atom("nomatch");
        return make_tuple_on(p, {atoms::error, failure});
    }
    if (matches.empty()) return result;
    // all_names of a pattern without names is no capture at all, as in OTP.
    if (spec.capture == CaptureSet::None || (spec.capture == CaptureSet::AllNames && groups.empty())) return atom("match");
    Term captures;
    if (spec.global) {
        captures = NIL;
        for (auto it = matches.rbegin(); it != matches.rend(); ++it) captures = make_cons_on(p->alloc(2), *it, captures);
    } else {
        captures = matches.front();
    }
    return make_tuple_on(p, {atom("match"), captures});
}

Term compile_bif(Process* p, Term re, Term opts) {
    CompileSpec spec;
    Term l = opts;
    for (; is_list(l); l = cdr(l))
        if (!compile_option(car(l), &spec)) return p->badarg(atom("badopt"));
    if (!is_nil(l)) return p->badarg(atom("badopt"));
    std::string source;
    if (!text_of(re, (spec.flags & PCRE2_UTF) != 0, &source)) return p->badarg();
    CompileError error;
    std::shared_ptr<pcre2_code> code = compile(spec, source, &error);
    if (!code)
        return make_tuple_on(p, {atoms::error, make_tuple_on(p, {bytes_to_list(p, error.message), make_small(SWord(error.offset))})});
    return make_tuple_on(p, {atoms::ok, compiled_term(p, spec, source, code.get())});
}

}  // namespace

Term bif_re_version(Process* p, Term*) {
    char version[64];
    pcre2_config(PCRE2_CONFIG_VERSION, version);
    return make_binary(p, std::string_view(version));
}

Term bif_re_compile1(Process* p, Term* a) { return compile_bif(p, a[0], NIL); }
Term bif_re_compile2(Process* p, Term* a) { return compile_bif(p, a[0], a[1]); }
namespace {
// A large binary subject of a unicode match is checked for UTF-8 a slice at a time before
// the match, as erts checks it (the caller is scheduled out in erlang:re_run_trap/3 in
// between): UTF8_BYTES_PER_REDUCTION bytes a reduction. A subject that does not pass goes to
// run() all the same, whose match reports it as PCRE2 does; one that passes is checked again
// there (a linear pass, short next to the slices that went before).
constexpr std::size_t UTF8_BYTES_PER_REDUCTION = 8;

// Whether a match of [re] with [opts] reads its subject as UTF-8.
bool unicode_match(Term re, Term opts) {
    if (is_compiled(re)) {
        std::string key, source;
        CompileSpec spec;
        return iolist_to_bytes(tuple_element(re, 4), &key) && parse_key(key, &spec, &source) && (spec.flags & PCRE2_UTF);
    }
    for (Term l = opts; is_list(l); l = cdr(l))
        if (car(l) == atoms::unicode) return true;
    return false;
}

// The end of the valid UTF-8 in [bytes] from [at], looking at no more than about [budget]
// bytes (a character is never cut): where it stopped, or where invalid bytes start.
std::size_t valid_utf8_until(const std::uint8_t* bytes, std::size_t size, std::size_t at, std::size_t budget) {
    std::size_t stop = std::min(size, at + budget);
    while (at < stop) {
        std::uint8_t c = bytes[at];
        std::size_t len = c < 0x80 ? 1 : (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : (c & 0xF8) == 0xF0 ? 4 : 0;
        if (len == 0 || at + len > size) return at;
        std::uint32_t cp = len == 1 ? c : c & (0x7F >> len);
        for (std::size_t k = 1; k < len; ++k) {
            if ((bytes[at + k] & 0xC0) != 0x80) return at;
            cp = (cp << 6) | (bytes[at + k] & 0x3F);
        }
        static constexpr std::uint32_t shortest[] = {0, 0, 0x80, 0x800, 0x10000};
        if (cp < shortest[len] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return at;
        at += len;
    }
    return at;
}

// x0 = the subject, x1 = the pattern, x2 = the options (of re:run/[arity]); [checked] bytes
// passed so far.
Term run_checking_subject(Process* p, Term* x, Word arity, std::size_t checked) {
    if (is_binary(x[0])) {
        BitView v = bit_view(x[0]);
        std::size_t size = v.size_bytes();
        std::size_t budget = std::size_t(std::max<SWord>(p->slice_reds, 1)) * UTF8_BYTES_PER_REDUCTION;
        if (size - checked > budget && unicode_match(x[1], x[2])) {
            std::size_t upto = valid_utf8_until(v.aligned_bytes(), size, checked, budget);
            charge_work(p, upto - checked, UTF8_BYTES_PER_REDUCTION);
            if (upto > checked && upto < size)
                return trap_yield(p, p->vm.exports.get(atoms::erlang, atom("re_run_trap"), 3),
                                  [arity, upto](Process* q, Term* y) { return run_checking_subject(q, y, arity, upto); },
                                  3);
        }
    }
    Term result = run(p, x[0], x[1], x[2]);
    if (result == THE_NON_VALUE && checked > 0) return name_trapped_bif_error(p, atom("re"), atom("run"), x, arity);
    return result;
}
}  // namespace

Term bif_re_run2(Process* p, Term* a) {
    a[2] = NIL;
    return run_checking_subject(p, a, 2, 0);
}
Term bif_re_run3(Process* p, Term* a) { return run_checking_subject(p, a, 3, 0); }
Term bif_re_internal_run4(Process* p, Term* a) { return run(p, a[0], a[1], a[2]); }

// re:inspect(MP, namelist): {namelist, Names}, the group names sorted, each once.
Term bif_re_inspect(Process* p, Term* a) {
    if (!is_compiled(a[0]) || a[1] != atom("namelist")) return p->badarg();
    std::string key, source;
    CompileSpec spec;
    if (!iolist_to_bytes(tuple_element(a[0], 4), &key) || !parse_key(key, &spec, &source)) return p->badarg();
    CompileError error;
    std::shared_ptr<pcre2_code> code = compile(spec, source, &error);
    if (!code) return p->badarg();
    std::vector<std::string> all = group_names(code.get());
    Term names = NIL;
    for (auto it = all.rbegin(); it != all.rend(); ++it) names = make_cons_on(p->alloc(2), make_binary(p, *it), names);
    return make_tuple_on(p, {atom("namelist"), names});
}

}  // namespace beamlet::bif
