// tests/unit/bif/term_format_test.cpp — ~w, ~p and io_lib:format output checked against OTP 25's erl.
//
// Every expected string below was produced by the real erl (io_lib:write/2, io_lib_pretty:print/2
// and io_lib:format/2 on the same terms); "BADARG" marks formats for which io_lib:format raises.
#include "bif/term_format.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <initializer_list>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "vm/atom_table.hpp"
#include "vm/binary.hpp"
#include "vm/module.hpp"
#include "vm/term.hpp"

namespace beamlet::bif {
namespace {

using vm::Subtag;
using vm::Word;

// Builds terms in a plain word buffer (no Process needed).
class Heap {
public:
    Heap() { m_words.reserve(CAPACITY); }

    Term atom(std::string_view utf8) { return vm::atom(utf8); }
    Term num(std::int64_t v) { return vm::make_small(v); }
    Term flt(double v) { return vm::make_float_on(alloc(vm::FLOAT_WORDS), v); }
    // A bignum from its magnitude limbs, least significant first.
    Term big(bool negative, std::initializer_list<Word> limbs) {
        Word* hp = alloc(1 + limbs.size());
        hp[0] = vm::make_header(limbs.size(), negative ? Subtag::NegBig : Subtag::PosBig);
        std::copy(limbs.begin(), limbs.end(), hp + 1);
        return vm::make_boxed(hp);
    }
    Term list(std::initializer_list<Term> items, Term tail = vm::NIL) {
        std::vector<Term> v(items);
        return list_of(v, tail);
    }
    Term list_of(const std::vector<Term>& items, Term tail = vm::NIL) {
        Term l = tail;
        for (auto it = items.rbegin(); it != items.rend(); ++it) l = vm::make_cons_on(alloc(2), *it, l);
        return l;
    }
    // A string: a list of the characters of [s].
    Term str(std::u32string_view s, Term tail = vm::NIL) {
        std::vector<Term> v;
        for (char32_t c : s) v.push_back(num(c));
        return list_of(v, tail);
    }
    Term seq(int from, int to) {
        std::vector<Term> v;
        for (int i = from; i <= to; ++i) v.push_back(num(i));
        return list_of(v);
    }
    Term tuple(std::initializer_list<Term> items) {
        Word* hp = alloc(1 + items.size());
        hp[0] = vm::make_arityval(items.size());
        std::copy(items.begin(), items.end(), hp + 1);
        return vm::make_boxed(hp);
    }
    // A map from pairs already in key order (flatmaps keep their keys sorted).
    Term map(std::initializer_list<std::pair<Term, Term>> pairs) {
        Word n = pairs.size();
        Word* keys = alloc(1 + n);
        keys[0] = vm::make_arityval(n);
        Word* hp = alloc(vm::MAP_HEADER_WORDS + n);
        hp[0] = vm::make_header(n + 2, Subtag::Map);
        hp[1] = n;
        hp[2] = vm::make_boxed(keys);
        Word i = 0;
        for (auto& [k, v] : pairs) {
            keys[1 + i] = k;
            hp[3 + i++] = v;
        }
        return vm::make_boxed(hp);
    }
    // A heap binary of the bytes of [bytes].
    Term bin(std::string_view bytes) {
        Word data_words = (bytes.size() + 7) / 8;
        Word* hp = alloc(2 + data_words);
        hp[0] = vm::make_header(1 + data_words, Subtag::HeapBin);
        hp[1] = bytes.size();
        std::memcpy(hp + 2, bytes.data(), bytes.size());
        return vm::make_boxed(hp);
    }
    Term bin_of(const std::vector<int>& bytes) {
        std::string s;
        for (int b : bytes) s.push_back(char(b));
        return bin(s);
    }
    // A bitstring: all of [bytes] but the last, then the top [extra_bits] bits of the last.
    Term bits(std::string_view bytes, Word extra_bits) {
        Term owner = bin(bytes);
        Word* hp = alloc(vm::SUB_BIN_WORDS);
        hp[0] = vm::make_header(vm::SUB_BIN_WORDS - 1, Subtag::SubBin);
        hp[1] = bytes.size() - 1;
        hp[2] = 0;
        hp[3] = extra_bits;
        hp[4] = owner;
        return vm::make_boxed(hp);
    }
    Term ref(Word id0, Word id1, Word id2) {
        Word* hp = alloc(vm::REF_WORDS);
        hp[0] = vm::make_header(3, Subtag::Ref);
        hp[1] = id0;
        hp[2] = id1;
        hp[3] = id2;
        return vm::make_boxed(hp);
    }
    Term local_fun(const vm::FunEntry* entry) {
        Word* hp = alloc(3);
        hp[0] = vm::make_header(2, Subtag::Fun);
        hp[1] = reinterpret_cast<Word>(entry);
        hp[2] = vm::make_pid(0);
        return vm::make_boxed(hp);
    }
    Term export_fun(const vm::Export* e) {
        Word* hp = alloc(2);
        hp[0] = vm::make_header(1, Subtag::Export);
        hp[1] = reinterpret_cast<Word>(e);
        return vm::make_boxed(hp);
    }

private:
    static constexpr std::size_t CAPACITY = 1 << 16;

    Word* alloc(Word n) {
        EXPECT_LE(m_words.size() + n, CAPACITY);  // the buffer must never move
        m_words.resize(m_words.size() + n);
        return m_words.data() + m_words.size() - n;
    }

    std::vector<Word> m_words;
};

std::string w(Term t, int depth = -1) { return chars_to_utf8(write_term_chars(t, depth)); }

std::string p(Term t, int column = 1, int line_length = 80, int depth = -1) {
    PrintOptions options;
    options.column = column;
    options.line_length = line_length;
    options.depth = depth;
    return chars_to_utf8(print_term_chars(t, options));
}

// io_lib:format with an ASCII [fmt]; "BADARG" when OTP raises badarg.
std::string f(Heap& h, std::string_view fmt, std::initializer_list<Term> args) {
    std::u32string chars(fmt.begin(), fmt.end());
    auto out = format_chars(std::u32string_view(chars), h.list(args));
    return out ? chars_to_utf8(*out) : "BADARG";
}

Term person(Heap& h) {
    return h.tuple({h.atom("person"), h.str(U"Joe Armstrong"), h.num(42),
                    h.list({h.tuple({h.atom("email"), h.str(U"joe@example.com")}),
                            h.tuple({h.atom("langs"),
                                     h.list({h.atom("erlang"), h.atom("prolog"), h.atom("c"), h.atom("smalltalk")})})}),
                    h.map({{h.atom("city"), h.str(U"Stockholm")},
                           {h.atom("country"), h.str(U"Sweden")},
                           {h.atom("zip"), h.num(12345)}})});
}

// ---- ~w ---------------------------------------------------------------------------------------------

TEST(TermFormat, WriteQuotesAtomsLikeIoLib) {
    Heap h;
    std::vector<Term> atoms;
    for (const char* a : {"after", "begin", "cond", "let", "maybe", "else", "ß", "ÿ", "a÷", "aÀ", "Abc", "_a", "a b",
                          "", "a\nb", "a'b", "a\\b", "é", "aé@_1", "ok", "tab\there", "\x7f", "\xC2\x80",
                          "привет"})
        atoms.push_back(h.atom(a));
    Term list = h.list_of(atoms);
    EXPECT_EQ(w(list),
              "['after','begin','cond','let',maybe,else,ß,ÿ,'a÷',aÀ,'Abc','_a','a b','','a\\nb',"
              "'a\\'b','a\\\\b',é,aé@_1,ok,'tab\\there','\\d','\\200',"
              "'\\x{43F}\\x{440}\\x{438}\\x{432}\\x{435}\\x{442}']");
    EXPECT_EQ(chars_to_utf8(write_term_chars(list, -1, true)),
              "['after','begin','cond','let',maybe,else,ß,ÿ,'a÷',aÀ,'Abc','_a','a b','','a\\nb',"
              "'a\\'b','a\\\\b',é,aé@_1,ok,'tab\\there','\\d','\\200','привет']");
}

TEST(TermFormat, WriteIntegersIncludingBignums) {
    Heap h;
    Term t = h.list({h.num(0), h.num(-1), h.num(123456789), h.num(vm::MAX_SMALL), h.num(vm::MIN_SMALL),
                     h.big(false, {0, 1}), h.big(true, {0, 1}), h.big(false, {0, Word(1) << 36})});
    EXPECT_EQ(w(t),
              "[0,-1,123456789,576460752303423487,-576460752303423488,18446744073709551616,"
              "-18446744073709551616,1267650600228229401496703205376]");
}

TEST(TermFormat, WriteFloatsInShortestRoundTripForm) {
    Heap h;
    std::vector<Term> v;
    for (double d : {0.1, 1.0e-10, 123456789.0, 1.0e20, -0.0, 1.0e15, 0.001, 0.0001, 1.0e-5, 1.2345678901234568e16,
                     9007199254740992.0, 5.0e-324, 1.7976931348623157e308, 100.0, 1000.0, 0.0, 1.5, -2.25, 1.0e100,
                     123.456})
        v.push_back(h.flt(d));
    EXPECT_EQ(w(h.list_of(v)),
              "[0.1,1.0e-10,123456789.0,1.0e20,-0.0,1.0e15,0.001,0.0001,1.0e-5,1.2345678901234568e16,"
              "9.007199254740992e15,5.0e-324,1.7976931348623157e308,100.0,1.0e3,0.0,1.5,-2.25,1.0e100,"
              "123.456]");
    EXPECT_EQ(float_to_shortest(0.30000000000000004), "0.30000000000000004");
}

TEST(TermFormat, WriteListsTuplesMaps) {
    Heap h;
    Term lists = h.list({vm::NIL, h.seq(1, 3), h.list({h.atom("a")}, h.atom("b")), h.str(U"abc"),
                         h.list({h.list({h.num(1)}), h.list({h.num(2), h.list({h.num(3)})})}),
                         h.list({h.num(1), h.num(2)}, h.num(3))});
    EXPECT_EQ(w(lists), "[[],[1,2,3],[a|b],[97,98,99],[[1],[2,[3]]],[1,2|3]]");
    Term tuples = h.list({h.tuple({}), h.tuple({h.atom("a"), h.num(1), h.str(U"x")}), h.tuple({h.tuple({})})});
    EXPECT_EQ(w(tuples), "[{},{a,1,[120]},{{}}]");
    Term maps = h.list({h.map({}), h.map({{h.atom("a"), h.num(1)}, {h.atom("b"), h.num(2)}}),
                        h.map({{h.num(1), h.atom("x")}, {h.atom("a"), h.list({h.atom("y")})}}),
                        h.map({{h.tuple({h.atom("k")}), h.map({})}})});
    EXPECT_EQ(w(maps), "[#{},#{a => 1,b => 2},#{1 => x,a => [y]},#{{k} => #{}}]");
}

TEST(TermFormat, WriteBinariesAndBitstrings) {
    Heap h;
    Term t = h.list({h.bin(""), h.bin("\x01\x02\x03"), h.bin("abc"), h.bits("\x20", 3), h.bits("\x01\x40", 3),
                     h.bits(std::string_view("\xFF\x00", 2), 1)});
    EXPECT_EQ(w(t), "[<<>>,<<1,2,3>>,<<97,98,99>>,<<1:3>>,<<1,2:3>>,<<255,0:1>>]");
}

TEST(TermFormat, WriteCutsAtDepthLikeIoLib) {
    Heap h;
    Term ab = h.map({{h.atom("a"), h.num(1)}, {h.atom("b"), h.num(2)}});
    EXPECT_EQ(w(h.seq(1, 4), 3), "[1,2|...]");
    EXPECT_EQ(w(h.tuple({h.num(1), h.num(2), h.num(3), h.num(4)}), 3), "{1,2,...}");
    EXPECT_EQ(w(ab, 1), "#{}");
    EXPECT_EQ(w(ab, 2), "#{a => 1,...}");
    EXPECT_EQ(w(ab, 3), "#{a => 1,b => 2,...}");
    EXPECT_EQ(w(h.bin("\x01\x02\x03\x04"), 3), "<<1,2,...>>");
    EXPECT_EQ(w(h.str(U"abcdefghijkl"), 3), "[97,98|...]");
    Term nested = h.list({h.tuple({h.atom("a"), h.list({h.atom("b"), h.tuple({h.atom("c"), h.atom("d")})})}),
                          h.atom("x")});
    EXPECT_EQ(w(nested, 4), "[{a,[...]},x]");
    EXPECT_EQ(w(nested, 0), "...");
}

TEST(TermFormat, WritePidsPortsRefsFuns) {
    Heap h;
    vm::FunEntry entry;
    entry.module_name = h.atom("mymod");
    entry.index = 3;
    entry.old_uniq = 12345;
    vm::Export map_export;
    map_export.module = h.atom("lists");
    map_export.function = h.atom("map");
    map_export.arity = 2;
    vm::Export quoted_export;
    quoted_export.module = h.atom("Foo");
    quoted_export.function = h.atom("bar");
    quoted_export.arity = 1;
    Term t = h.list({vm::make_pid(42), vm::make_port(7), h.ref(1, 2, 3), h.local_fun(&entry),
                     h.export_fun(&map_export), h.export_fun(&quoted_export)});
    EXPECT_EQ(w(t), "[<0.42.0>,#Port<0.7>,#Ref<0.3.2.1>,#Fun<mymod.3.12345>,fun lists:map/2,fun 'Foo':bar/1]");
    // The layout erl gives a list of atoms of the same printed lengths.
    EXPECT_EQ(p(t), "[<0.42.0>,#Port<0.7>,#Ref<0.3.2.1>,#Fun<mymod.3.12345>,fun lists:map/2,\n"
                    " fun 'Foo':bar/1]");
}

TEST(TermFormat, LatinOneByteApi) {
    Heap h;
    EXPECT_EQ(write_term(h.list({h.atom("é"), h.str(U"é")})), "[\xE9,[233]]");
    EXPECT_EQ(print_term(h.str(U"é")), "\"\xE9\"");
    EXPECT_EQ(print_term(h.seq(1, 30), 60, 80),
              "[1,2,3,4,5,6,7,8,9,\n"
              "                                                            10,11,12,13,14,15,\n"
              "                                                            16,17,18,19,20,21,\n"
              "                                                            22,23,24,25,26,27,\n"
              "                                                            28,29,30]");
    EXPECT_EQ(chars_to_latin1_output(U"a\u00FF\u0100\U0001F600"), "a\xFF\\x{100}\\x{1F600}");
}

// ---- ~p ---------------------------------------------------------------------------------------------

TEST(TermFormat, PrintStringsWithEscapes) {
    Heap h;
    Term t = h.list({h.str(U"abc"), h.str(U"tab\t\"q\" \\ \n é \x1b\v\b\f\r"),
                     h.list({h.num(1), h.num(200), h.num(300)}),
                     h.str(U"ab", h.atom("c")), vm::NIL, h.list({h.num('a'), h.num(-1)})});
    EXPECT_EQ(p(t), "[\"abc\",\"tab\\t\\\"q\\\" \\\\ \\n é \\e\\v\\b\\f\\r\",[1,200,300],[97,98|c],[],[97,-1]]");
}

TEST(TermFormat, PrintBreaksLongListsAtLineLength) {
    Heap h;
    EXPECT_EQ(p(h.seq(1, 50)), "[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,\n"
                               " 29,30,31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50]");
}

TEST(TermFormat, PrintTaggedTupleAlignsAfterTheTag) {
    Heap h;
    Term t = person(h);
    EXPECT_EQ(p(t), "{person,\"Joe Armstrong\",42,\n"
                    "        [{email,\"joe@example.com\"},{langs,[erlang,prolog,c,smalltalk]}],\n"
                    "        #{city => \"Stockholm\",country => \"Sweden\",zip => 12345}}");
    EXPECT_EQ(p(t, 40), "{person,\"Joe Armstrong\",42,\n"
                        "                                        [{email,\"joe@example.com\"},\n"
                        "                                         {langs,[erlang,prolog,c,smalltalk]}],\n"
                        "                                        #{city => \"Stockholm\",\n"
                        "                                          country => \"Sweden\",zip => 12345}}");
    EXPECT_EQ(p(t, 1, 40), "{person,\"Joe Armstrong\",42,\n"
                           "        [{email,\"joe@example.com\"},\n"
                           "         {langs,[erlang,prolog,c,\n"
                           "                 smalltalk]}],\n"
                           "        #{city => \"Stockholm\",\n"
                           "          country => \"Sweden\",\n"
                           "          zip => 12345}}");
    EXPECT_EQ(p(t, 1, 80, 3), "{person,[...],...}");
}

TEST(TermFormat, PrintListOfTuplesOnePerLine) {
    Heap h;
    std::vector<Term> nodes;
    for (int i = 1; i <= 4; ++i)
        nodes.push_back(h.tuple({h.atom("node"), h.num(i),
                                 h.list({h.tuple({h.atom("child"), h.num(i * 10), h.str(U"leaf")}),
                                         h.tuple({h.atom("child"), h.num(i * 10 + 1), h.bin("bin")})})}));
    EXPECT_EQ(p(h.list_of(nodes)), "[{node,1,[{child,10,\"leaf\"},{child,11,<<\"bin\">>}]},\n"
                                   " {node,2,[{child,20,\"leaf\"},{child,21,<<\"bin\">>}]},\n"
                                   " {node,3,[{child,30,\"leaf\"},{child,31,<<\"bin\">>}]},\n"
                                   " {node,4,[{child,40,\"leaf\"},{child,41,<<\"bin\">>}]}]");
}

TEST(TermFormat, PrintMapsBreakAfterArrow) {
    Heap h;
    Term long_values = h.map({{h.atom("alpha"), h.seq(1, 30)},
                              {h.atom("beta"),
                               h.tuple({h.atom("tuple"), h.str(U"with a fairly long string inside it")})},
                              {h.atom("gamma"), h.map({{h.atom("nested"), h.atom("map")}})}});
    EXPECT_EQ(p(long_values), "#{alpha =>\n"
                              "      [1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,\n"
                              "       27,28,29,30],\n"
                              "  beta => {tuple,\"with a fairly long string inside it\"},\n"
                              "  gamma => #{nested => map}}");
    Term complex_keys = h.map({{h.tuple({h.atom("complex"), h.atom("key")}), h.seq(1, 3)},
                               {h.str(U"string key"), h.seq(1, 25)},
                               {h.list({h.atom("list"), h.atom("key")}), h.atom("value")}});
    EXPECT_EQ(p(complex_keys), "#{{complex,key} => [1,2,3],\n"
                               "  \"string key\" =>\n"
                               "      [1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25],\n"
                               "  [list,key] => value}");
}

TEST(TermFormat, PrintBreaksBinaries) {
    Heap h;
    std::vector<int> bytes;
    for (int i = 0; i < 100; ++i) bytes.push_back(i);
    EXPECT_EQ(p(h.bin_of(bytes)), "<<0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,\n"
                                  "  29,30,31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50,51,52,53,\n"
                                  "  54,55,56,57,58,59,60,61,62,63,64,65,66,67,68,69,70,71,72,73,74,75,76,77,78,\n"
                                  "  79,80,81,82,83,84,85,86,87,88,89,90,91,92,93,94,95,96,97,98,99>>");
    std::string with_bits;
    for (int i = 100; i <= 140; ++i) with_bits.push_back(char(i));
    with_bits.push_back(char(5 << 5));
    EXPECT_EQ(p(h.bits(with_bits, 3)),
              "<<100,101,102,103,104,105,106,107,108,109,110,111,112,113,114,115,116,117,118,\n"
              "  119,120,121,122,123,124,125,126,127,128,129,130,131,132,133,134,135,136,137,\n"
              "  138,139,140,5:3>>");
    Term strings = h.list({h.bin("hello"), h.bin("abc\ndef"), h.bin("\xE4"), h.bin(std::string_view("abc\0", 4)),
                           h.bits("\xF0", 7)});
    EXPECT_EQ(p(strings), "[<<\"hello\">>,<<\"abc\\ndef\">>,<<\"ä\">>,<<97,98,99,0>>,<<120:7>>]");
}

TEST(TermFormat, PrintLongTagsAndNarrowLines) {
    Heap h;
    Term long_tag = h.tuple({h.atom("a_very_long_record_tag_name"), h.seq(1, 20),
                             h.str(U"a string that is long enough"),
                             h.tuple({h.atom("x"), h.atom("y"), h.atom("z")}), h.map({{h.atom("k"), h.atom("v")}})});
    EXPECT_EQ(p(long_tag), "{a_very_long_record_tag_name,[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,\n"
                           "                              20],\n"
                           "                             \"a string that is long enough\",\n"
                           "                             {x,y,z},\n"
                           "                             #{k => v}}");
    Term narrow = h.tuple({h.atom("some_tag"),
                           h.list({h.atom("alpha"), h.atom("beta"), h.atom("gamma"), h.atom("delta")}),
                           h.tuple({h.atom("nested_tag"), h.str(U"string value"), h.num(12345)})});
    EXPECT_EQ(p(narrow, 1, 30), "{some_tag,\n"
                                "    [alpha,beta,gamma,delta],\n"
                                "    {nested_tag,\n"
                                "        \"string value\",\n"
                                "        12345}}");
}

TEST(TermFormat, PrintImproperAndDeepTerms) {
    Heap h;
    Term improper = h.list({h.seq(1, 10)},
                           h.tuple({h.atom("tail"), h.str(U"this is the tail of an improper list that is long")}));
    EXPECT_EQ(p(improper), "[[1,2,3,4,5,6,7,8,9,10]|\n"
                           " {tail,\"this is the tail of an improper list that is long\"}]");
    Term deep = h.atom("bottom");
    for (int i = 1; i <= 12; ++i) deep = h.tuple({h.atom("level"), h.num(i), deep});
    EXPECT_EQ(p(deep), "{level,12,\n"
                       " {level,11,\n"
                       "  {level,10,\n"
                       "   {level,9,\n"
                       "    {level,8,\n"
                       "     {level,7,\n"
                       "      {level,6,{level,5,{level,4,{level,3,{level,2,{level,1,bottom}}}}}}}}}}}}");
}

TEST(TermFormat, PrintCutsAtDepth) {
    Heap h;
    EXPECT_EQ(p(h.seq(1, 10), 1, 80, 4), "[1,2,3|...]");
    EXPECT_EQ(p(h.bin("abcdefghijklmnopq"), 1, 80, 3), "<<\"abcdefgh\"...>>");
    EXPECT_EQ(p(h.str(U"abcdefghijklmnopq"), 1, 80, 3), "\"abcdefghijklmnopq\"");
    EXPECT_EQ(p(h.map({{h.atom("a"), h.num(1)}, {h.atom("b"), h.num(2)}, {h.atom("c"), h.num(3)}}), 1, 80, 3),
              "#{a => 1,b => 2,...}");
    EXPECT_EQ(p(h.seq(1, 3), 1, 80, 0), "...");
}

TEST(TermFormat, PrintModifiers) {
    Heap h;
    EXPECT_EQ(f(h, "~lp", {h.list({h.str(U"abc"), h.bin("abc")})}), "[[97,98,99],<<97,98,99>>]");
    EXPECT_EQ(f(h, "~tp|~p", {h.bin("\xC3\xA4"), h.bin("\xC3\xA4")}), "<<\"ä\"/utf8>>|<<\"Ã¤\">>");
    EXPECT_EQ(f(h, "~0p", {h.seq(1, 40)}),
              "[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32,"
              "33,34,35,36,37,38,39,40]");
}

// ---- io_lib:format ----------------------------------------------------------------------------------

TEST(TermFormat, FormatBasicDirectives) {
    Heap h;
    EXPECT_EQ(f(h, "~p ~w ~s ~~ ~c~n", {h.atom("x"), h.str(U"ab"), h.str(U"cd"), h.num('z')}), "x [97,98] cd ~ z\n");
    EXPECT_EQ(f(h, "~5~|~3n|~i|", {h.atom("foo")}), "~~~~~|\n"
                                                    "\n"
                                                    "\n"
                                                    "||");
    Term iolist = h.list({h.bin("a"), h.str(U"b"), h.list({h.num('c')}, h.bin("d"))});
    EXPECT_EQ(f(h, "~s|~s|~s", {h.bin("bin"), iolist, h.atom("atom")}), "bin|abcd|atom");
}

TEST(TermFormat, FormatFieldWidthPrecisionAndPadding) {
    Heap h;
    Term abc = h.str(U"abc");
    EXPECT_EQ(f(h, "|~10s|~-10s|~.2s|~10.2s|~10.5.xs|~5.2.*c|", {abc, abc, abc, abc, abc, h.num('-'), h.num('a')}),
              "|       abc|abc       |ab|        ab|xxxxxabcxx|---aa|");
    Term ab = h.str(U"ab");
    EXPECT_EQ(f(h, "|~*s|~-*s|~.*s|~*.*s|", {h.num(5), ab, h.num(5), ab, h.num(1), ab, h.num(5), h.num(1), ab}),
              "|   ab|ab   |a|    a|");
    Term a = h.atom("abc");
    EXPECT_EQ(f(h, "|~10w|~-10w|~2w|~10.2w|", {a, a, a, a}), "|       abc|abc       |**|        **|");
    Term c = h.num('a');
    EXPECT_EQ(f(h, "~c|~5c|~.5c|~5.2c|~-5.2c|~c|~c", {c, c, c, c, c, h.num(256 + 'a'), h.num(-1)}),
              "a|aaaaa|aaaaa|   aa|aa   |a|ÿ");
}

TEST(TermFormat, FormatFloats) {
    Heap h;
    Term pi = h.flt(3.14159);
    EXPECT_EQ(f(h, "~e ~f ~g ~.2e ~.1f ~.1f ~.3f ~15.3f| ~-15.3f| ~3.3f|",
                {h.flt(1.0), h.flt(1.0), h.flt(1.0), h.flt(123.456), h.flt(0.25), h.flt(0.35), h.flt(-0.0), pi, pi,
                 pi}),
              "1.00000e+0 1.000000 1.00000 1.2e+2 0.3 0.3 -0.000           3.142| 3.142          | ***|");
    EXPECT_EQ(f(h, "~g ~g ~g ~g ~g ~g ~g ~.1g ~.2g ~.3g",
                {h.flt(0.05), h.flt(0.5), h.flt(5.0), h.flt(50.0), h.flt(500.0), h.flt(5000.0), h.flt(50000.0),
                 h.flt(0.5), h.flt(5.0), h.flt(99999.0)}),
              "5.00000e-2 0.500000 5.00000 50.0000 500.000 5000.00 5.00000e+4 0.5 5.0 1.00e+5");
    EXPECT_EQ(f(h, "~e ~.3e ~.3f ~.20f ~f ~e",
                {h.flt(9.9999999), h.flt(9.9999), h.flt(9.9999), h.flt(0.1), h.flt(1.0e20), h.flt(1.0e-300)}),
              "1.00000e+1 1.00e+1 10.000 0.10000000000000000555 100000000000000000000.000000 1.00000e-300");
}

TEST(TermFormat, FormatIntegersInBases) {
    Heap h;
    EXPECT_EQ(f(h, "~b ~.16b ~.16B ~.36B ~.2B ~3b|",
                {h.num(10), h.num(255), h.num(255), h.big(false, {0xAB54A98CEB1F0AD2}), h.num(-5), h.num(12345)}),
              "10 ff FF 2LSOHXAWJUI8I -101 ***|");
    Term ff = h.num(255);
    EXPECT_EQ(f(h, "~x ~.16x ~.16X ~+ ~.16+ ~.16# ~.16# ~8.16#| ~-8.16#|",
                {ff, h.str(U"0x"), ff, h.str(U"0x"), h.num(-255), h.atom("0x"), ff, ff, ff, h.num(-255), ff, ff}),
              "0x255 0xff -0xFF 10#255 16#ff 16#FF -16#FF    16#FF| 16#FF   |");
}

TEST(TermFormat, FormatTracksColumnForPrint) {
    Heap h;
    Term l30 = h.seq(1, 30);
    EXPECT_EQ(f(h, "abc~p", {l30}), "abc[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,\n"
                                    "    28,29,30]");
    EXPECT_EQ(f(h, "abc\tde~p", {l30}), "abc\tde[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,\n"
                                        "           26,27,28,29,30]");
    EXPECT_EQ(f(h, "abc\n~p", {l30}), "abc\n"
                                      "[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,\n"
                                      " 29,30]");
    EXPECT_EQ(f(h, "~w ~p", {h.seq(1, 20), l30}),
              "[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20] [1,2,3,4,5,6,7,8,9,10,11,\n"
              "                                                      12,13,14,15,16,17,18,19,\n"
              "                                                      20,21,22,23,24,25,26,27,\n"
              "                                                      28,29,30]");
    EXPECT_EQ(f(h, "~20p|~.10p", {h.seq(1, 20), h.seq(1, 20)}),
              "[1,2,3,4,5,6,7,8,\n"
              " 9,10,11,12,13,14,\n"
              " 15,16,17,18,19,\n"
              " 20]|[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20]");
}

TEST(TermFormat, FormatUnicodeModifier) {
    Heap h;
    EXPECT_EQ(f(h, "~ts|~tc|~ts", {h.bin("\xC3\xA4"), h.num(1024), h.list({h.num(1087), h.num(1088)})}), "ä|Ѐ|пр");
    EXPECT_EQ(f(h, "~s", {h.bin("\xC3\xA4")}), "Ã¤");
}

TEST(TermFormat, FormatRejectsWhatIoLibRejects) {
    Heap h;
    EXPECT_EQ(f(h, "~q", {h.num(1)}), "BADARG");
    EXPECT_EQ(f(h, "~p ~p", {h.num(1)}), "BADARG");
    EXPECT_EQ(f(h, "~p", {h.num(1), h.num(2)}), "BADARG");
    EXPECT_EQ(f(h, "~-20p", {h.atom("x")}), "BADARG");
    EXPECT_EQ(f(h, "~.1e", {h.flt(1.0)}), "BADARG");
    EXPECT_EQ(f(h, "~f", {h.num(1)}), "BADARG");
    EXPECT_EQ(f(h, "~s", {h.list({h.num(256)})}), "BADARG");
    EXPECT_EQ(f(h, "~.37b", {h.num(1)}), "BADARG");
    std::string why;
    EXPECT_FALSE(format_chars(U"~p", h.list({h.num(1)}, h.atom("improper")), &why));
    EXPECT_FALSE(why.empty());
}

TEST(TermFormat, FormatAcceptsBinaryAndAtomFormats) {
    Heap h;
    auto bin_format = format_chars(h.bin("bin ~p"), h.list({h.num(1)}));
    ASSERT_TRUE(bin_format);
    EXPECT_EQ(chars_to_utf8(*bin_format), "bin 1");
    auto atom_format = format_chars(h.atom("atom ~p"), h.list({h.num(1)}));
    ASSERT_TRUE(atom_format);
    EXPECT_EQ(chars_to_utf8(*atom_format), "atom 1");
    EXPECT_EQ(format("~s~n", h.list({h.str(U"\u00e9\u0100")})), std::nullopt);
    EXPECT_EQ(format("~ts~n", h.list({h.str(U"\u00e9\u0100")})), "\xE9\\x{100}\n");
}

}  // namespace
}  // namespace beamlet::bif
