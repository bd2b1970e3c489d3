// tests/unit/vm/mailbox_test.cpp — MessageQueue: arrival order, the save pointer of a selective
// receive, take_current and remove_first_if at every position, receive markers.
#include <gtest/gtest.h>

#include <vector>

#include "vm/atom_table.hpp"
#include "vm/mailbox.hpp"

namespace beamlet::vm {
namespace {

Message message(SWord n) { return Message{make_small(n), nullptr}; }

// The messages' numbers, first to last.
std::vector<SWord> contents(const MessageQueue& q) {
    std::vector<SWord> out;
    q.for_each([&](const Message& m) { out.push_back(small_value(m.term)); });
    return out;
}

// The number of the current message, or -1 when the save pointer is at the end.
SWord current(MessageQueue& q) { return q.current() ? small_value(q.current()->term) : -1; }

// A queue holding messages 1..[n], save pointer at the first.
void fill(MessageQueue& q, SWord n) {
    for (SWord i = 1; i <= n; ++i) q.push_back(message(i));
}

TEST(MessageQueue, EmptyQueueHasNoCurrentMessage) {
    MessageQueue q;
    EXPECT_EQ(q.current(), nullptr);
    EXPECT_EQ(q.size(), 0u);
    EXPECT_TRUE(contents(q).empty());
}

TEST(MessageQueue, KeepsMessagesInArrivalOrder) {
    MessageQueue q;
    fill(q, 5);
    EXPECT_EQ(contents(q), (std::vector<SWord>{1, 2, 3, 4, 5}));
    EXPECT_EQ(q.size(), 5u);
    EXPECT_EQ(current(q), 1);
}

TEST(MessageQueue, SkipWalksTheSavePointerToTheEnd) {
    MessageQueue q;
    fill(q, 3);
    q.skip();
    EXPECT_EQ(current(q), 2);
    q.skip();
    EXPECT_EQ(current(q), 3);
    q.skip();
    EXPECT_EQ(q.current(), nullptr);
    EXPECT_EQ(contents(q), (std::vector<SWord>{1, 2, 3}));  // skipping removes nothing
}

TEST(MessageQueue, ResetSaveReturnsToTheFirstMessage) {
    MessageQueue q;
    fill(q, 3);
    q.skip();
    q.skip();
    q.reset_save();
    EXPECT_EQ(current(q), 1);
}

TEST(MessageQueue, MessageAppendedWhileTheSavePointerIsAtTheEndBecomesCurrent) {
    MessageQueue q;
    fill(q, 2);
    q.skip();
    q.skip();
    ASSERT_EQ(q.current(), nullptr);
    q.push_back(message(3));
    EXPECT_EQ(current(q), 3);
    q.push_back(message(4));
    EXPECT_EQ(current(q), 3);
}

TEST(MessageQueue, MessageAppendedToAnEmptyQueueBecomesCurrent) {
    MessageQueue q;
    q.push_back(message(1));
    EXPECT_EQ(current(q), 1);
}

TEST(MessageQueue, TakeCurrentAtTheStartRemovesTheFirstMessage) {
    MessageQueue q;
    fill(q, 3);
    Message m = q.take_current();
    EXPECT_EQ(small_value(m.term), 1);
    EXPECT_EQ(contents(q), (std::vector<SWord>{2, 3}));
    EXPECT_EQ(q.size(), 2u);
    EXPECT_EQ(current(q), 2);
    q.push_back(message(4));
    EXPECT_EQ(contents(q), (std::vector<SWord>{2, 3, 4}));
}

TEST(MessageQueue, TakeCurrentInTheMiddleRemovesItAndResetsTheSavePointer) {
    MessageQueue q;
    fill(q, 4);
    q.skip();
    q.skip();
    Message m = q.take_current();
    EXPECT_EQ(small_value(m.term), 3);
    EXPECT_EQ(contents(q), (std::vector<SWord>{1, 2, 4}));
    EXPECT_EQ(current(q), 1);
    q.push_back(message(5));
    EXPECT_EQ(contents(q), (std::vector<SWord>{1, 2, 4, 5}));
}

TEST(MessageQueue, TakeCurrentOfTheLastMessageKeepsLaterAppendsInOrder) {
    MessageQueue q;
    fill(q, 3);
    q.skip();
    q.skip();
    Message m = q.take_current();
    EXPECT_EQ(small_value(m.term), 3);
    EXPECT_EQ(contents(q), (std::vector<SWord>{1, 2}));
    q.push_back(message(4));
    q.push_back(message(5));
    EXPECT_EQ(contents(q), (std::vector<SWord>{1, 2, 4, 5}));
    EXPECT_EQ(q.size(), 4u);
}

TEST(MessageQueue, TakeCurrentOfAMessageAppendedAfterTheSavePointerReachedTheEnd) {
    MessageQueue q;
    fill(q, 2);
    q.skip();
    q.skip();
    q.push_back(message(3));
    ASSERT_EQ(current(q), 3);
    Message m = q.take_current();
    EXPECT_EQ(small_value(m.term), 3);
    EXPECT_EQ(contents(q), (std::vector<SWord>{1, 2}));
    EXPECT_EQ(current(q), 1);
    q.skip();
    q.skip();
    q.push_back(message(4));
    EXPECT_EQ(current(q), 4);
    EXPECT_EQ(contents(q), (std::vector<SWord>{1, 2, 4}));
}

TEST(MessageQueue, TakingTheOnlyMessageLeavesAnEmptyQueueThatAcceptsNewOnes) {
    MessageQueue q;
    q.push_back(message(1));
    q.take_current();
    EXPECT_EQ(q.size(), 0u);
    EXPECT_EQ(q.current(), nullptr);
    q.push_back(message(2));
    EXPECT_EQ(current(q), 2);
    EXPECT_EQ(contents(q), (std::vector<SWord>{2}));
}

TEST(MessageQueue, TakeCurrentReturnsEveryFieldOfTheMessage) {
    MessageQueue q;
    HeapFragment* frag = HeapFragment::create(4);
    q.push_back(Message{atoms::ok, frag, SignalKind::Exit, make_pid(9), true});
    Message m = q.take_current();
    EXPECT_EQ(m.term, atoms::ok);
    EXPECT_EQ(m.fragment, frag);
    EXPECT_EQ(m.kind, SignalKind::Exit);
    EXPECT_EQ(m.from, make_pid(9));
    EXPECT_TRUE(m.linked);
    HeapFragment::destroy(frag);
}

TEST(MessageQueue, RemoveFirstIfRemovesOnlyTheFirstMatch) {
    MessageQueue q;
    fill(q, 6);
    Message out{};
    EXPECT_TRUE(q.remove_first_if([](const Message& m) { return small_value(m.term) % 2 == 0; }, &out));
    EXPECT_EQ(small_value(out.term), 2);
    EXPECT_EQ(contents(q), (std::vector<SWord>{1, 3, 4, 5, 6}));
    EXPECT_EQ(q.size(), 5u);
}

TEST(MessageQueue, RemoveFirstIfWithoutAMatchChangesNothing) {
    MessageQueue q;
    fill(q, 3);
    q.skip();
    Message out{atoms::ok, nullptr};
    EXPECT_FALSE(q.remove_first_if([](const Message&) { return false; }, &out));
    EXPECT_EQ(out.term, atoms::ok);
    EXPECT_EQ(contents(q), (std::vector<SWord>{1, 2, 3}));
    EXPECT_EQ(current(q), 2);
}

TEST(MessageQueue, RemoveFirstIfJustBeforeTheSavePointerKeepsTheCurrentMessage) {
    MessageQueue q;
    fill(q, 4);
    q.skip();
    q.skip();
    ASSERT_EQ(current(q), 3);
    Message out{};
    ASSERT_TRUE(q.remove_first_if([](const Message& m) { return m.term == make_small(2); }, &out));
    EXPECT_EQ(current(q), 3);
    q.skip();
    EXPECT_EQ(current(q), 4);
    q.reset_save();
    EXPECT_EQ(contents(q), (std::vector<SWord>{1, 3, 4}));
}

TEST(MessageQueue, RemoveFirstIfOfTheFirstMessageWhileTheSavePointerIsOnTheSecond) {
    MessageQueue q;
    fill(q, 3);
    q.skip();
    Message out{};
    ASSERT_TRUE(q.remove_first_if([](const Message& m) { return m.term == make_small(1); }, &out));
    EXPECT_EQ(current(q), 2);
    EXPECT_EQ(contents(q), (std::vector<SWord>{2, 3}));
}

TEST(MessageQueue, RemoveFirstIfOfTheCurrentMessageMakesItsSuccessorCurrent) {
    MessageQueue q;
    fill(q, 3);
    q.skip();
    Message out{};
    ASSERT_TRUE(q.remove_first_if([](const Message& m) { return m.term == make_small(2); }, &out));
    EXPECT_EQ(current(q), 3);
    EXPECT_EQ(contents(q), (std::vector<SWord>{1, 3}));
}

TEST(MessageQueue, RemoveFirstIfOfTheLastMessageWhileTheSavePointerIsAtTheEndKeepsAppendsVisible) {
    MessageQueue q;
    fill(q, 3);
    q.skip();
    q.skip();
    q.skip();
    Message out{};
    ASSERT_TRUE(q.remove_first_if([](const Message& m) { return m.term == make_small(3); }, &out));
    EXPECT_EQ(q.current(), nullptr);
    q.push_back(message(4));
    EXPECT_EQ(current(q), 4);
    EXPECT_EQ(contents(q), (std::vector<SWord>{1, 2, 4}));
}

TEST(MessageQueue, RemoveFirstIfOfTheLastMessageThenAppendKeepsOrder) {
    MessageQueue q;
    fill(q, 2);
    Message out{};
    ASSERT_TRUE(q.remove_first_if([](const Message& m) { return m.term == make_small(2); }, &out));
    q.push_back(message(3));
    EXPECT_EQ(contents(q), (std::vector<SWord>{1, 3}));
    EXPECT_EQ(current(q), 1);
}

TEST(MessageQueue, SizeCountsAppendsAndRemovals) {
    MessageQueue q;
    fill(q, 10);
    EXPECT_EQ(q.size(), 10u);
    q.take_current();
    Message out{};
    q.remove_first_if([](const Message&) { return true; }, &out);
    EXPECT_EQ(q.size(), 8u);
    while (q.current()) q.take_current();
    EXPECT_EQ(q.size(), 0u);
    EXPECT_TRUE(contents(q).empty());
}

// ---- receive markers ----

const Word REF_A[3] = {1, 2, 3};
const Word REF_B[3] = {4, 5, 6};

TEST(MessageQueue, UsedMarkerStartsAfterTheMessagesBeforeIt) {
    MessageQueue q;
    fill(q, 3);
    q.bind_marker(q.reserve_marker(), REF_A);
    q.push_back(message(4));
    q.use_marker(REF_A);
    EXPECT_EQ(current(q), 4);
    q.clear_marker(REF_A);
    q.reset_save();
    q.use_marker(REF_A);  // cleared: no effect
    EXPECT_EQ(current(q), 1);
}

TEST(MessageQueue, MarkerOnAnEmptyQueueStartsAtTheFirstMessage) {
    MessageQueue q;
    q.bind_marker(q.reserve_marker(), REF_A);
    fill(q, 2);
    q.use_marker(REF_A);
    EXPECT_EQ(current(q), 1);
}

TEST(MessageQueue, MarkerFollowsRemovalOfTheMessageBeforeIt) {
    MessageQueue q;
    fill(q, 3);
    q.bind_marker(q.reserve_marker(), REF_A);
    q.push_back(message(4));
    // Message 3 (the marker's) goes, then message 1.
    q.skip();
    q.skip();
    EXPECT_EQ(small_value(q.take_current().term), 3);
    EXPECT_EQ(small_value(q.take_current().term), 1);
    q.use_marker(REF_A);
    EXPECT_EQ(current(q), 4);
    // Every message before the marker gone: it starts at the first.
    q.reset_save();
    EXPECT_EQ(small_value(q.take_current().term), 2);
    q.use_marker(REF_A);
    EXPECT_EQ(current(q), 4);
    EXPECT_EQ(contents(q), (std::vector<SWord>{4}));
}

TEST(MessageQueue, UnknownOrUnboundMarkersLeaveTheSavePointer) {
    MessageQueue q;
    fill(q, 2);
    Word m = q.reserve_marker();
    q.use_marker(REF_A);  // reserved, never bound
    EXPECT_EQ(current(q), 1);
    q.bind_marker(m, REF_A);
    q.use_marker(REF_B);
    EXPECT_EQ(current(q), 1);
    q.bind_marker(99, REF_B);  // no such marker
    q.use_marker(REF_B);
    EXPECT_EQ(current(q), 1);
}

TEST(MessageQueue, MarkersAreReusedOldestFirstWhenAllAreTaken) {
    MessageQueue q;
    std::vector<Word> taken;
    for (int i = 0; i < 4; ++i) taken.push_back(q.reserve_marker());
    q.bind_marker(taken[0], REF_A);
    q.push_back(message(1));
    Word again = q.reserve_marker();  // all four in use: the oldest is taken over
    EXPECT_EQ(again, taken[0]);
    q.use_marker(REF_A);  // its old binding is gone
    EXPECT_EQ(current(q), 1);
}

}  // namespace
}  // namespace beamlet::vm
