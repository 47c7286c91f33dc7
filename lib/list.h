// lib/list.h - intrusive circular doubly linked list.
//
// Used by the scheduling policies' queues (lib/sched: rr's FIFO, the
// levels of dwrr/idwrr/stride/lottery, mlfq's queues, eevdf's member list,
// the simulator's batch policies) and the buffer cache (kernel/fs/bio.cc:
// the free list, the hash chains and the slab list); the free page list
// (lib/page_pool.h) and sleep channels are not lists. The node lives inside
// the object, so linking and unlinking never allocate; a node is on at most
// one list at a time, and nodes cannot be copied. Invariants: an unlinked
// node points to itself (so remove() of an unlinked node does nothing); a
// List's sentinel is never handed out as an element. A List has no lock:
// its owner's lock guards it. size() walks the list (O(n)).
#pragma once

#include "lib/types.h"

namespace q {

struct ListNode {
    ListNode* prev = this;
    ListNode* next = this;

    ListNode() = default;
    ListNode(const ListNode&) = delete;
    ListNode& operator=(const ListNode&) = delete;

    bool linked() const { return next != this; }
    void unlink() {
        prev->next = next;
        next->prev = prev;
        prev = next = this;
    }
    // Insert this node after `at`.
    void insert_after(ListNode& at) {
        next = at.next;
        prev = &at;
        at.next->prev = this;
        at.next = this;
    }
    void insert_before(ListNode& at) { insert_after(*at.prev); }
};

// A list of T linked through the member T::*Node.
template <typename T, ListNode T::*Node>
class List {
  public:
    List() = default;
    List(const List&) = delete;
    List& operator=(const List&) = delete;

    bool empty() const { return !head_.linked(); }
    void push_back(T& item) { (item.*Node).insert_before(head_); }
    void push_front(T& item) { (item.*Node).insert_after(head_); }
    static void remove(T& item) { (item.*Node).unlink(); }
    T* front() { return empty() ? nullptr : from_node(head_.next); }
    // The head of a list known to be non-empty (the caller checked).
    T& first() { return *from_node(head_.next); }
    // The element after `item` (linked here), or null after the last.
    T* next(T& item) {
        ListNode* n = (item.*Node).next;
        return n == &head_ ? nullptr : from_node(n);
    }
    T* pop_front() {
        T* t = front();
        if (t) remove(*t);
        return t;
    }
    usize size() const {
        usize n = 0;
        for (const ListNode* p = head_.next; p != &head_; p = p->next) n++;
        return n;
    }

    class Iter {
      public:
        explicit Iter(ListNode* n) : n_(n) {}
        T& operator*() const { return *from_node(n_); }
        Iter& operator++() {
            n_ = n_->next;
            return *this;
        }
        bool operator!=(const Iter& o) const { return n_ != o.n_; }

      private:
        ListNode* n_;
    };
    Iter begin() { return Iter(head_.next); }
    Iter end() { return Iter(&head_); }

    static T* from_node(ListNode* n) {
        // Offset of the member within T, computed on static raw storage
        // (constant-initialised, so no guard variable and no constructor).
        alignas(T) static unsigned char probe[sizeof(T)];
        T* t = reinterpret_cast<T*>(probe);
        const auto off = reinterpret_cast<char*>(&(t->*Node)) - reinterpret_cast<char*>(t);
        return reinterpret_cast<T*>(reinterpret_cast<char*>(n) - off);
    }

  private:
    ListNode head_;
};

}  // namespace q
