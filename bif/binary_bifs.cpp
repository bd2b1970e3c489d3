// bif/binary_bifs.cpp — the BIFs of OTP's binary.beam (searching, splitting, slicing and
// unsigned encoding), with OTP's leftmost-longest rule for several patterns.
//
// A compiled pattern (compile_pattern/1) is OTP's opaque {bm, Ref} (one pattern) or {ac, Ref}
// (several), Ref a magic reference to the patterns' bytes; match/split take it and the
// uncompiled forms alike.
#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "bif/bifs.hpp"
#include "vm/binary.hpp"
#include "vm/bignum.hpp"
#include "vm/magic.hpp"

namespace beamlet::bif {

using namespace vm;

namespace {

// The bytes of binary [t], or nullopt if it is not a binary.
std::optional<std::string> bytes_of(Term t) {
    if (!is_binary(t)) return std::nullopt;
    BitView v = bit_view(t);
    std::string out(v.size_bytes(), '\0');
    if (v.is_aligned()) {
        std::copy(v.aligned_bytes(), v.aligned_bytes() + v.size_bytes(), out.begin());
    } else {
        copy_bits(v.bytes, v.bit_offset, reinterpret_cast<std::uint8_t*>(out.data()), 0, v.bit_size);
    }
    return out;
}

// The patterns of a compiled pattern, behind its magic reference.
struct CompiledPattern {
    std::vector<std::string> needles;
};

void destroy_pattern(MagicHandle* h) { delete static_cast<CompiledPattern*>(h->data); }

// The needles of a pattern: a non-empty binary, a non-empty list of them, or a compiled one
// ({bm, Ref} holds one, {ac, Ref} several).
bool patterns_of(Term t, std::vector<std::string>* out) {
    BEAMLET_CACHED_ATOM(am_bm, "bm");
    BEAMLET_CACHED_ATOM(am_ac, "ac");
    if (is_tuple(t)) {
        if (tuple_arity(t) != 2 || (tuple_element(t, 0) != am_bm && tuple_element(t, 0) != am_ac)) return false;
        Term ref = tuple_element(t, 1);
        if (!is_magic_ref(ref) || magic_handle(ref)->destructor != destroy_pattern) return false;
        const auto* compiled = static_cast<const CompiledPattern*>(magic_handle(ref)->data);
        if ((compiled->needles.size() == 1) != (tuple_element(t, 0) == am_bm)) return false;
        *out = compiled->needles;
        return true;
    }
    if (is_binary(t)) {
        auto b = bytes_of(t);
        if (b->empty()) return false;
        out->push_back(*b);
        return true;
    }
    Term l = t;
    for (; is_list(l); l = cdr(l)) {
        auto b = bytes_of(car(l));
        if (!b || b->empty()) return false;
        out->push_back(*b);
    }
    return is_nil(l) && !out->empty();
}

struct Match {
    std::size_t pos, len;
};

// The leftmost match at or after [from] within [end], the longest of those starting there.
std::optional<Match> find_first(const std::string& hay, const std::vector<std::string>& needles, std::size_t from,
                                std::size_t end) {
    std::optional<Match> best;
    for (const std::string& n : needles) {
        if (n.size() > end - std::min(from, end)) continue;
        std::size_t at = hay.find(n, from);
        if (at == std::string::npos || at + n.size() > end) continue;
        if (!best || at < best->pos || (at == best->pos && n.size() > best->len)) best = Match{at, n.size()};
    }
    return best;
}

// {scope, {Start, Length}} among [opts] (a negative length counts back); false for bad options.
// [global], [trim], [trim_all] are taken when [flags] is given.
struct Options {
    std::size_t start = 0, end = 0;
    bool global = false, trim = false, trim_all = false;
};

bool parse_options(Term opts, std::size_t size, Options* o, bool allow_split_flags) {
    BEAMLET_CACHED_ATOM(am_scope, "scope");
    BEAMLET_CACHED_ATOM(am_global, "global");
    BEAMLET_CACHED_ATOM(am_trim, "trim");
    BEAMLET_CACHED_ATOM(am_trim_all, "trim_all");
    o->start = 0;
    o->end = size;
    Term l = opts;
    for (; is_list(l); l = cdr(l)) {
        Term opt = car(l);
        if (allow_split_flags && opt == am_global) o->global = true;
        else if (allow_split_flags && opt == am_trim) o->trim = true;
        else if (allow_split_flags && opt == am_trim_all) o->trim_all = true;
        else if (is_tuple(opt) && tuple_arity(opt) == 2 && tuple_element(opt, 0) == am_scope) {
            Term part = tuple_element(opt, 1);
            if (!is_tuple(part) || tuple_arity(part) != 2 || !is_small(tuple_element(part, 0)) ||
                !is_small(tuple_element(part, 1)))
                return false;
            SWord start = small_value(tuple_element(part, 0)), len = small_value(tuple_element(part, 1));
            if (len < 0) {
                start += len;
                len = -len;
            }
            if (start < 0 || std::size_t(start + len) > size) return false;
            o->start = std::size_t(start);
            o->end = std::size_t(start + len);
        } else {
            return false;
        }
    }
    return is_nil(l);
}

Term part_tuple(Process* p, const Match& m) {
    return make_tuple_on(p, {make_small(SWord(m.pos)), make_small(SWord(m.len))});
}

Term do_match(Process* p, Term* a, Term opts, bool all) {
    auto hay = bytes_of(a[0]);
    std::vector<std::string> needles;
    Options o;
    if (!hay || !patterns_of(a[1], &needles) || !parse_options(opts, hay->size(), &o, false)) return p->badarg();
    std::vector<Match> found;
    for (std::size_t from = o.start;;) {
        auto m = find_first(*hay, needles, from, o.end);
        if (!m) break;
        found.push_back(*m);
        if (!all) break;
        from = m->pos + m->len;
    }
    if (!all) return found.empty() ? atom("nomatch") : part_tuple(p, found[0]);
    Term l = NIL;
    for (auto it = found.rbegin(); it != found.rend(); ++it) l = make_cons_on(p->alloc(2), part_tuple(p, *it), l);
    return l;
}

Term do_split(Process* p, Term* a, Term opts) {
    auto hay = bytes_of(a[0]);
    std::vector<std::string> needles;
    Options o;
    if (!hay || !patterns_of(a[1], &needles) || !parse_options(opts, hay->size(), &o, true)) return p->badarg();
    std::vector<std::pair<std::size_t, std::size_t>> parts;  // {offset, length}
    std::size_t rest = 0;
    for (std::size_t from = o.start;;) {
        auto m = find_first(*hay, needles, from, o.end);
        if (!m) break;
        parts.emplace_back(rest, m->pos - rest);
        rest = m->pos + m->len;
        from = rest;
        if (!o.global) break;
    }
    parts.emplace_back(rest, hay->size() - rest);
    if (o.trim_all) {
        parts.erase(std::remove_if(parts.begin(), parts.end(), [](auto& pr) { return pr.second == 0; }), parts.end());
    } else if (o.trim) {
        while (!parts.empty() && parts.back().second == 0) parts.pop_back();
    }
    Term l = NIL;
    for (auto it = parts.rbegin(); it != parts.rend(); ++it)
        l = make_cons_on(p->alloc(2), make_sub_binary(p, a[0], it->first * 8, it->second * 8), l);
    return l;
}

}  // namespace

Term bif_binary_compile_pattern(Process* p, Term* a) {
    std::vector<std::string> needles;
    if (is_tuple(a[0]) || !patterns_of(a[0], &needles)) return p->badarg();
    bool single = needles.size() == 1;
    Term ref = new_magic_ref(p, new CompiledPattern{std::move(needles)}, destroy_pattern);
    return make_tuple_on(p, {atom(single ? "bm" : "ac"), ref});
}

Term bif_binary_match2(Process* p, Term* a) { return do_match(p, a, NIL, false); }
Term bif_binary_match3(Process* p, Term* a) { return do_match(p, a, a[2], false); }
Term bif_binary_matches2(Process* p, Term* a) { return do_match(p, a, NIL, true); }
Term bif_binary_matches3(Process* p, Term* a) { return do_match(p, a, a[2], true); }
Term bif_binary_split2(Process* p, Term* a) { return do_split(p, a, NIL); }
Term bif_binary_split3(Process* p, Term* a) { return do_split(p, a, a[2]); }

Term bif_binary_at(Process* p, Term* a) {
    auto b = bytes_of(a[0]);
    if (!b || !is_small(a[1]) || small_value(a[1]) < 0 || std::size_t(small_value(a[1])) >= b->size())
        return p->badarg();
    return make_small(static_cast<unsigned char>((*b)[std::size_t(small_value(a[1]))]));
}

Term bif_binary_first(Process* p, Term* a) {
    auto b = bytes_of(a[0]);
    if (!b || b->empty()) return p->badarg();
    return make_small(static_cast<unsigned char>(b->front()));
}

Term bif_binary_last(Process* p, Term* a) {
    auto b = bytes_of(a[0]);
    if (!b || b->empty()) return p->badarg();
    return make_small(static_cast<unsigned char>(b->back()));
}

// binary:part/2,3 are erlang:binary_part/2,3 (bif/erlang_ops.cpp).

Term bif_binary_copy1(Process* p, Term* a) {
    auto b = bytes_of(a[0]);
    if (!b) return p->badarg();
    return make_binary(p, *b);
}

Term bif_binary_copy2(Process* p, Term* a) {
    auto b = bytes_of(a[0]);
    if (!b || !is_small(a[1]) || small_value(a[1]) < 0) return p->badarg();
    std::string out;
    for (SWord i = 0; i < small_value(a[1]); ++i) out += *b;
    return make_binary(p, out);
}

Term bif_binary_referenced_byte_size(Process* p, Term* a) {
    if (!is_binary(a[0])) return p->badarg();
    const Term* obj = boxed_ptr(a[0]);
    if (header_subtag(obj[0]) == Subtag::SubBin) {
        Term orig = obj[4];
        if (is_boxed(orig) && header_subtag(boxed_header(orig)) == Subtag::RefcBin)
            return make_small(SWord(reinterpret_cast<const BinaryBuf*>(boxed_ptr(orig)[2])->size_bytes));
        return make_small(SWord(bit_view(orig).size_bytes()));
    }
    if (header_subtag(obj[0]) == Subtag::RefcBin)
        return make_small(SWord(reinterpret_cast<const BinaryBuf*>(obj[2])->size_bytes));
    return make_small(SWord(bit_view(a[0]).size_bytes()));
}

Term bif_binary_list_to_bin(Process* p, Term* a) {
    std::string bytes;
    // An iolist, but not a bare binary (as erlang:list_to_binary/1).
    if (!is_list(a[0]) && !is_nil(a[0])) return p->badarg();
    if (!iolist_to_bytes(a[0], &bytes)) return p->badarg();
    return make_binary(p, bytes);
}

namespace {

Term common_affix(Process* p, Term list, bool suffix) {
    std::vector<std::string> bins;
    Term l = list;
    for (; is_list(l); l = cdr(l)) {
        auto b = bytes_of(car(l));
        if (!b) return p->badarg();
        bins.push_back(*b);
    }
    if (!is_nil(l) || bins.empty()) return p->badarg();
    std::size_t n = 0;
    for (;; ++n) {
        bool same = true;
        for (const std::string& b : bins) {
            if (n >= b.size()) return make_small(SWord(n));
            char c = suffix ? b[b.size() - 1 - n] : b[n];
            char c0 = suffix ? bins[0][bins[0].size() - 1 - n] : bins[0][n];
            same = same && c == c0;
        }
        if (!same) return make_small(SWord(n));
    }
}

bool endianness(Term t, bool* little) {
    if (t == atom("big")) *little = false;
    else if (t == atom("little")) *little = true;
    else return false;
    return true;
}

}  // namespace

Term bif_binary_longest_common_prefix(Process* p, Term* a) { return common_affix(p, a[0], false); }
Term bif_binary_longest_common_suffix(Process* p, Term* a) { return common_affix(p, a[0], true); }

namespace {

Term encode_unsigned(Process* p, Term n, bool little) {
    if (!is_integer(n)) return p->badarg();
    mpz_t z;
    mpz_init(z);
    integer_to_mpz(n, z);
    if (mpz_sgn(z) < 0) {
        mpz_clear(z);
        return p->badarg();
    }
    std::string bytes((mpz_sizeinbase(z, 2) + 7) / 8, '\0');
    if (bytes.empty()) bytes.assign(1, '\0');
    else mpz_export(bytes.data(), nullptr, 1, 1, 1, 0, z);
    mpz_clear(z);
    if (little) std::reverse(bytes.begin(), bytes.end());
    return make_binary(p, bytes);
}

Term decode_unsigned(Process* p, Term bin, bool little) {
    auto b = bytes_of(bin);
    if (!b) return p->badarg();
    std::string be = *b;
    if (little) std::reverse(be.begin(), be.end());
    mpz_t z;
    mpz_init(z);
    if (!be.empty()) mpz_import(z, be.size(), 1, 1, 1, 0, be.data());
    Term r = mpz_to_integer(p, z);
    mpz_clear(z);
    return r;
}

}  // namespace

Term bif_binary_encode_unsigned1(Process* p, Term* a) { return encode_unsigned(p, a[0], false); }
Term bif_binary_encode_unsigned2(Process* p, Term* a) {
    bool little;
    if (!endianness(a[1], &little)) return p->badarg();
    return encode_unsigned(p, a[0], little);
}
Term bif_binary_decode_unsigned1(Process* p, Term* a) { return decode_unsigned(p, a[0], false); }
Term bif_binary_decode_unsigned2(Process* p, Term* a) {
    bool little;
    if (!endianness(a[1], &little)) return p->badarg();
    return decode_unsigned(p, a[0], little);
}

}  // namespace beamlet::bif
