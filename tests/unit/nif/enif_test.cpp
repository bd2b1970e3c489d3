// tests/unit/nif/enif_test.cpp — the erl_nif.h functions over beamlet's terms: making and
// reading back every kind of term, maps and their iterators, binaries, exceptions,
// environments, sends, resources and time units.
#include <gtest/gtest.h>

#include <cstring>

#include "include/erl_nif.h"
#include "nif/nif.hpp"
#include "vm/atom_table.hpp"
#include "vm/binary.hpp"
#include "vm/mailbox.hpp"
#include "vm/process.hpp"
#include "vm/term_order.hpp"
#include "vm/vm.hpp"

namespace beamlet::nif {
namespace {

using vm::Term;

class Enif : public ::testing::Test {
protected:
    void SetUp() override { set_vm(&m_vm); }
    void TearDown() override { set_vm(nullptr); }

    vm::Vm m_vm;
    vm::Process m_process{m_vm, 1};
    ErlNifEnv m_env{&m_process, m_process.id, nullptr, 0, false};
    ErlNifEnv* env = &m_env;
};

TEST_F(Enif, IntegersRoundTripAndRangeChecks) {
    ErlNifSInt64 i64;
    ErlNifUInt64 u64;
    int i;
    unsigned u;
    ASSERT_TRUE(enif_get_int64(env, enif_make_int64(env, INT64_MIN), &i64));
    EXPECT_EQ(i64, INT64_MIN);
    ASSERT_TRUE(enif_get_uint64(env, enif_make_uint64(env, UINT64_MAX), &u64));
    EXPECT_EQ(u64, UINT64_MAX);
    EXPECT_FALSE(enif_get_int64(env, enif_make_uint64(env, UINT64_MAX), &i64));
    EXPECT_FALSE(enif_get_int(env, enif_make_int64(env, 1LL << 40), &i));
    EXPECT_FALSE(enif_get_uint(env, enif_make_int(env, -1), &u));
    ASSERT_TRUE(enif_get_int(env, enif_make_int(env, -7), &i));
    EXPECT_EQ(i, -7);
    double d;
    ASSERT_TRUE(enif_get_double(env, enif_make_double(env, 2.5), &d));
    EXPECT_EQ(d, 2.5);
    EXPECT_FALSE(enif_get_double(env, enif_make_int(env, 2), &d));  // integers are not floats
}

TEST_F(Enif, AtomsAndStrings) {
    ERL_NIF_TERM a = enif_make_atom(env, "hello");
    EXPECT_TRUE(enif_is_atom(env, a));
    EXPECT_TRUE(enif_is_identical(a, Term(vm::atom("hello"))));
    char buf[8];
    EXPECT_EQ(enif_get_atom(env, a, buf, sizeof buf, ERL_NIF_LATIN1), 6);
    EXPECT_STREQ(buf, "hello");
    EXPECT_EQ(enif_get_atom(env, a, buf, 5, ERL_NIF_LATIN1), 0);  // too small: fails
    ERL_NIF_TERM existing;
    EXPECT_TRUE(enif_make_existing_atom(env, "hello", &existing, ERL_NIF_LATIN1));
    EXPECT_FALSE(enif_make_existing_atom(env, "surely_not_an_atom_yet_4711", &existing, ERL_NIF_LATIN1));
    ERL_NIF_TERM s = enif_make_string(env, "abc", ERL_NIF_LATIN1);
    unsigned len;
    ASSERT_TRUE(enif_get_list_length(env, s, &len));
    EXPECT_EQ(len, 3u);
    EXPECT_EQ(enif_get_string(env, s, buf, sizeof buf, ERL_NIF_LATIN1), 4);
    EXPECT_STREQ(buf, "abc");
    EXPECT_LT(enif_get_string(env, s, buf, 3, ERL_NIF_LATIN1), 0);  // truncated: negative
}

TEST_F(Enif, TuplesAndLists) {
    ERL_NIF_TERM t = enif_make_tuple3(env, enif_make_int(env, 1), enif_make_atom(env, "x"), enif_make_list(env, 0));
    int arity;
    const ERL_NIF_TERM* elems;
    ASSERT_TRUE(enif_get_tuple(env, t, &arity, &elems));
    EXPECT_EQ(arity, 3);
    EXPECT_TRUE(enif_is_empty_list(env, elems[2]));
    ERL_NIF_TERM arr[] = {enif_make_int(env, 1), enif_make_int(env, 2), enif_make_int(env, 3)};
    ERL_NIF_TERM l = enif_make_list_from_array(env, arr, 3), rev, head, tail;
    ASSERT_TRUE(enif_make_reverse_list(env, l, &rev));
    ASSERT_TRUE(enif_get_list_cell(env, rev, &head, &tail));
    EXPECT_TRUE(enif_is_identical(head, arr[2]));
    EXPECT_FALSE(enif_get_list_cell(env, enif_make_list(env, 0), &head, &tail));
    ERL_NIF_TERM improper = enif_make_list_cell(env, arr[0], arr[1]);
    unsigned len;
    EXPECT_FALSE(enif_get_list_length(env, improper, &len));
    EXPECT_EQ(enif_compare(arr[0], arr[1]), -1);
    EXPECT_EQ(enif_compare(t, t), 0);
}

TEST_F(Enif, MapsAndIterators) {
    ERL_NIF_TERM m = enif_make_new_map(env), v;
    ASSERT_TRUE(enif_make_map_put(env, m, enif_make_atom(env, "b"), enif_make_int(env, 2), &m));
    ASSERT_TRUE(enif_make_map_put(env, m, enif_make_atom(env, "a"), enif_make_int(env, 1), &m));
    EXPECT_FALSE(enif_make_map_update(env, m, enif_make_atom(env, "c"), enif_make_int(env, 3), &v));
    size_t size;
    ASSERT_TRUE(enif_get_map_size(env, m, &size));
    EXPECT_EQ(size, 2u);
    ASSERT_TRUE(enif_get_map_value(env, m, enif_make_atom(env, "a"), &v));
    EXPECT_TRUE(enif_is_identical(v, enif_make_int(env, 1)));
    ErlNifMapIterator it;
    ASSERT_TRUE(enif_map_iterator_create(env, m, &it, ERL_NIF_MAP_ITERATOR_FIRST));
    ERL_NIF_TERM k;
    std::string keys;
    for (; !enif_map_iterator_is_tail(env, &it); enif_map_iterator_next(env, &it)) {
        ASSERT_TRUE(enif_map_iterator_get_pair(env, &it, &k, &v));
        keys += vm::atom_text(Term(k));
    }
    enif_map_iterator_destroy(env, &it);
    EXPECT_EQ(keys, "ab");  // key order
    ERL_NIF_TERM ks[] = {enif_make_int(env, 1), enif_make_int(env, 1)};
    EXPECT_FALSE(enif_make_map_from_arrays(env, ks, ks, 2, &m));  // duplicate keys
}

TEST_F(Enif, BinariesAndIolists) {
    ErlNifBinary bin;
    ASSERT_TRUE(enif_alloc_binary(100, &bin));
    std::memset(bin.data, 'x', 100);
    ERL_NIF_TERM t = enif_make_binary(env, &bin);
    ErlNifBinary seen;
    ASSERT_TRUE(enif_inspect_binary(env, t, &seen));
    EXPECT_EQ(seen.size, 100u);
    EXPECT_EQ(seen.data[99], 'x');
    ERL_NIF_TERM sub = enif_make_sub_binary(env, t, 10, 5);
    ASSERT_TRUE(enif_inspect_binary(env, sub, &seen));
    EXPECT_EQ(seen.size, 5u);
    ERL_NIF_TERM parts[] = {enif_make_int(env, 'a'), sub, enif_make_list(env, 1, enif_make_int(env, 'z'))};
    ASSERT_TRUE(enif_inspect_iolist_as_binary(env, enif_make_list_from_array(env, parts, 3), &seen));
    EXPECT_EQ(std::string(reinterpret_cast<char*>(seen.data), seen.size), "axxxxxz");
    EXPECT_FALSE(enif_inspect_iolist_as_binary(env, enif_make_atom(env, "no"), &seen));
}

TEST_F(Enif, ExceptionsAreRaisedOnce) {
    ERL_NIF_TERM reason;
    EXPECT_FALSE(enif_has_pending_exception(env, &reason));
    ERL_NIF_TERM r = enif_raise_exception(env, enif_make_atom(env, "oops"));
    EXPECT_TRUE(enif_is_exception(env, r));
    ASSERT_TRUE(enif_has_pending_exception(env, &reason));
    EXPECT_TRUE(enif_is_identical(reason, Term(vm::atom("oops"))));
}

TEST_F(Enif, OwnEnvironmentsCopyAndClear) {
    ErlNifEnv* own = enif_alloc_env();
    ASSERT_NE(own, nullptr);
    ERL_NIF_TERM t = enif_make_tuple2(env, enif_make_atom(env, "k"), enif_make_string(env, "v", ERL_NIF_LATIN1));
    ERL_NIF_TERM copy = enif_make_copy(own, t);
    EXPECT_TRUE(enif_is_identical(copy, t));
    EXPECT_NE(copy, t);  // a copy on the other heap
    enif_clear_env(own);
    EXPECT_EQ(own->heap->heap_used_words(), 0u);
    ErlNifPid self;
    EXPECT_EQ(enif_self(own, &self), nullptr);  // no calling process
    enif_free_env(own);
}

TEST_F(Enif, SendCopiesIntoTheReceiversInbox) {
    auto receiver = std::make_shared<vm::Process>(m_vm, 2);
    m_vm.add_process(receiver);
    ErlNifPid to;
    ASSERT_TRUE(enif_get_local_pid(env, Term(receiver->id), &to));
    EXPECT_TRUE(enif_is_process_alive(env, &to));
    ERL_NIF_TERM msg = enif_make_tuple2(env, enif_make_atom(env, "hi"), enif_make_int(env, 42));
    ASSERT_TRUE(enif_send(env, &to, nullptr, msg));
    ASSERT_EQ(receiver->inbox.size(), 1u);
    EXPECT_TRUE(vm::terms_exact_equal(receiver->inbox[0].term, Term(msg)));
    EXPECT_EQ(receiver->inbox[0].from, m_process.id);
    EXPECT_EQ(receiver->message_count.load(), 1u);
    m_vm.remove_process(receiver.get());
    EXPECT_FALSE(enif_is_process_alive(env, &to));
    EXPECT_FALSE(enif_send(env, &to, nullptr, msg));
}

int g_destroyed = 0;
void count_destroyed(ErlNifEnv*, void*) { ++g_destroyed; }

TEST_F(Enif, ResourcesLiveAsLongAsTheirTerms) {
    ErlNifResourceType* type = enif_open_resource_type(env, nullptr, "unit_res", count_destroyed, ERL_NIF_RT_CREATE, nullptr);
    ASSERT_NE(type, nullptr);
    EXPECT_EQ(enif_open_resource_type(env, nullptr, "unit_res", count_destroyed, ERL_NIF_RT_CREATE, nullptr), nullptr);
    void* obj = enif_alloc_resource(type, sizeof(int));
    *static_cast<int*>(obj) = 7;
    ERL_NIF_TERM t = enif_make_resource(env, obj);
    enif_release_resource(obj);  // the term holds it now
    EXPECT_TRUE(enif_is_ref(env, t));
    void* back = nullptr;
    ASSERT_TRUE(enif_get_resource(env, t, type, &back));
    EXPECT_EQ(*static_cast<int*>(back), 7);
    EXPECT_EQ(g_destroyed, 0);
    m_process.reset_heap();  // the last reference goes with the heap
    EXPECT_EQ(g_destroyed, 1);
}

TEST_F(Enif, TimeUnitsRoundTowardsMinusInfinity) {
    EXPECT_EQ(enif_convert_time_unit(1500, ERL_NIF_MSEC, ERL_NIF_SEC), 1);
    EXPECT_EQ(enif_convert_time_unit(-1500, ERL_NIF_MSEC, ERL_NIF_SEC), -2);
    EXPECT_EQ(enif_convert_time_unit(3, ERL_NIF_SEC, ERL_NIF_USEC), 3000000);
    EXPECT_GT(enif_monotonic_time(ERL_NIF_NSEC), 0);
}

}  // namespace
}  // namespace beamlet::nif
