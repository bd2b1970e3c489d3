// bif/io_bifs.cpp — io:format/put_chars/nl and io_lib:format/write/print.
#include "bif/bifs.hpp"
#include "bif/term_format.hpp"
#include "vm/atom_table.hpp"

namespace beamlet::bif {

using namespace vm;

namespace {

// A list of the characters [chars], allocated on [p].
Term chars_to_list(Process* p, const Chars& chars) {
    Term* hp = p->alloc(2 * chars.size());
    Term l = NIL;
    for (std::size_t i = chars.size(); i-- > 0;) {
        l = make_cons_on(hp, make_small(SWord(chars[i])), l);
        hp += 2;
    }
    return l;
}

Term format_to_stdout(Process* p, Term format, Term args) {
    auto chars = format_chars(format, args);
    if (!chars) return p->badarg();
    p->vm.write_stdout(chars_to_latin1_output(*chars));
    return atoms::ok;
}

}  // namespace

Term bif_io_format1(Process* p, Term* a) { return format_to_stdout(p, a[0], NIL); }
Term bif_io_format2(Process* p, Term* a) { return format_to_stdout(p, a[0], a[1]); }

Term bif_io_put_chars(Process* p, Term* a) {
    std::string bytes;
    if (is_atom(a[0])) bytes = atom_text(a[0]);
    else if (!iolist_to_bytes(a[0], &bytes)) {
        // Unicode characters (> 255) in a chardata list: print them as UTF-8 would be wrong on a
        // Latin-1 device; OTP raises badarg for them with the default encoding.
        return p->badarg();
    }
    p->vm.write_stdout(bytes);
    return atoms::ok;
}

Term bif_io_nl(Process* p, Term*) {
    p->vm.write_stdout("\n");
    return atoms::ok;
}

Term bif_io_lib_format(Process* p, Term* a) {
    auto chars = format_chars(a[0], a[1]);
    if (!chars) return p->badarg();
    return chars_to_list(p, *chars);
}

Term bif_io_lib_write(Process* p, Term* a) { return chars_to_list(p, write_term_chars(a[0])); }
Term bif_io_lib_print(Process* p, Term* a) {
    PrintOptions o;
    return chars_to_list(p, print_term_chars(a[0], o));
}

}  // namespace beamlet::bif
