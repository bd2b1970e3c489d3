// vm/mailbox.hpp — MessageQueue: a process's private message queue, a singly linked list
// with OTP's save pointer (a pointer to the link that leads to the current message), so that
// a selective receive skips, resumes and removes in O(1) per message.
#pragma once

#include <cstddef>
#include <utility>

#include "vm/heap.hpp"
#include "vm/term.hpp"

namespace beamlet::vm {

// What travels through a process's inbox: messages and the signals that must stay ordered
// with them (OTP's signal queue).
enum class SignalKind : std::uint8_t {
    Message,      // [term] is the message
    Exit,         // exit signal from [from] with reason [term]; [linked]: sent because of a link
    // [from] linked to (unlinked from) this process. link/1 and unlink/1 update both sides at
    // once; the signal only brings the getting_linked (getting_unlinked) trace event, in order
    // with [from]'s messages, as OTP's link signals do.
    Link,
    Unlink,
    InfoRequest,  // process_info: [term] is {Ref, Item}; reply to [from]
    GcRequest,    // erlang:garbage_collect/1: [term] is Ref; reply {Ref, true} to [from] when done
    // erts_internal:request_system_task/3: [term] is {Task, ReqId, Arg} (garbage_collect,
    // check_process_code, copy_literals); reply {Task, ReqId, Result} to [from] when done.
    SystemTask,
    // Copy what is referenced of a literal area being released: [term] is not a term but the
    // LiteralRelease* (vm/literal_area.hpp); no fragment. A process that never handles it
    // (it dies first) still calls literal_release_done.
    CopyLiterals,
};

// Process priorities, as OTP's: max and high processes run before any normal one; low ones
// share normal's queue and run once for every eight normal runs (Schedulers::pop_front).
enum class Priority : std::uint8_t { Max, High, Normal, Low };

// A message or signal: the term and the heap fragment it was built in (null if it needs none).
struct Message {
    Term term;
    HeapFragment* fragment;
    SignalKind kind = SignalKind::Message;
    Term from = 0;
    bool linked = false;
    // A system task's (GcRequest, SystemTask, check_process_code's InfoRequest): the priority it
    // runs at, the requester's unless asked otherwise (Low: no more urgent than the process's).
    Priority priority = Priority::Low;
    // seq_trace: the sender's token, in [fragment] (NIL: a process without one sent it, which
    // clears the receiver's token; 0: sent by the runtime, which leaves it), and the reset
    // epoch it belongs to (seq_trace:reset_trace/0 voids older tokens).
    Term seq_token = 0;
    Word seq_epoch = 0;
};

class MessageQueue {
public:
    MessageQueue() = default;
    ~MessageQueue();
    MessageQueue(const MessageQueue&) = delete;
    MessageQueue& operator=(const MessageQueue&) = delete;

    // Appends [m]; a receive whose save pointer is at the end sees it next.
    void push_back(const Message& m);
    // The message at the save pointer, or null when the receive has looked at them all.
    Message* current() { return *m_save ? &(*m_save)->message : nullptr; }
    // Moves the save pointer past the current message (loop_rec_end).
    void skip() { m_save = &(*m_save)->next; }
    // Puts the save pointer back at the first message (after a receive ends).
    void reset_save() { m_save = &m_first; }
    // Unlinks the current message and returns it; the save pointer goes back to the first.
    Message take_current();
    // Removes the first message [pred] accepts (keeping the save pointer valid); true if any.
    template <typename Pred>
    bool remove_first_if(Pred pred, Message* out);
    std::size_t size() const { return m_size; }

    // Where native code finds the save pointer and a node's message term and next link (the
    // JIT's loop_rec and loop_rec_end read them directly).
    struct Layout {
        std::size_t save, node_term, node_next;
    };
    static Layout layout();

    // Receive markers (OTP's recv_marker_* instructions): a marker reserved just before a
    // request's reference is made remembers where the queue ends; bound to the reference, it
    // lets the receive of the reply start there, skipping the older messages, which cannot
    // hold the new reference. A marker is a small slot number; slots are reused oldest first.
    Word reserve_marker();
    void bind_marker(Word marker, const Word ref_id[3]);
    // Moves the save pointer to the marker bound to [ref_id], if any.
    void use_marker(const Word ref_id[3]);
    void clear_marker(const Word ref_id[3]);
    // Calls [fn(message)] for each message, first to last.
    template <typename Fn>
    void for_each(Fn fn) const {
        for (Node* n = m_first; n; n = n->next) fn(std::as_const(n->message));
    }
    template <typename Fn>
    void for_each(Fn fn) {
        for (Node* n = m_first; n; n = n->next) fn(n->message);
    }

private:
    struct Node {
        Message message;
        Node* next;
    };
    void unlink(Node** link);
    // The node whose [next] field [link] is.
    static Node* node_of_link(Node** link) {
        return reinterpret_cast<Node*>(reinterpret_cast<char*>(link) - offsetof(Node, next));
    }
    struct Marker {
        Node* after;  // the last message when it was reserved (null: from the first)
        Word ref_id[3];
        bool in_use, bound;
    };
    Marker* bound_marker(const Word ref_id[3]);
    static constexpr Word MARKERS = 4;

    Node* m_first = nullptr;
    Node** m_last = &m_first;   // the link where the next message goes
    Node** m_save = &m_first;   // the link to the current message of a receive
    std::size_t m_size = 0;
    Marker m_markers[MARKERS] = {};
    Word m_markers_in_use = 0;
    Word m_next_marker = 0;
};

template <typename Pred>
bool MessageQueue::remove_first_if(Pred pred, Message* out) {
    for (Node** link = &m_first; *link; link = &(*link)->next) {
        if (!pred((*link)->message)) continue;
        *out = (*link)->message;
        unlink(link);
        return true;
    }
    return false;
}

}  // namespace beamlet::vm
