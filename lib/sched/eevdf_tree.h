// lib/sched/eevdf_tree.h - red-black tree of Entity groups for EEVDF.
//
// Queued entities with equal deadline and equal vruntime may form a group: a
// ring (gnext/gprev) in enqueue (seq) order whose first member, the head, is
// the tree node; the other members have null tree links. Nodes are ordered by
// (deadline, head seq). A group's members share their vruntime, so they are
// all eligible or none, and its head has the group's smallest seq: the head
// of the first group (in node order) whose vruntime passes is exactly the
// first entity in (deadline, seq) order that passes, so the pick order is the
// one of a tree of single entities. When tasks run in lockstep (same weight,
// same history: the usual case for CPU-bound tasks of one priority) the tree
// holds a few nodes per priority instead of one per task.
//
// Each node is augmented with min_vruntime, the smallest vruntime in its
// subtree, so the first node whose vruntime passes a monotone test (v <= V)
// is found in O(log n) by descending only into subtrees whose minimum passes.
//
// insert: O(log n); a new entity joins the group just before its place in
// order when that group has its deadline and vruntime (the new entity has the
// largest seq, so it goes at the end of the ring and the key is unchanged).
// A group gains members only while it is the last node with its deadline, so
// groups are runs of the (deadline, seq) order: every member of a group comes
// before the head of any later node with the same deadline.
// erase: a member leaves its ring in O(1); a head's next member takes over the
// node in O(1) (by the runs property the key stays in order); a head alone is
// erased from the tree (O(log n)).
//
// Invariants: red-black (root black, no red node with a red child, equal
// black height on every path); (deadline, head seq) order; every node's
// min_vruntime equals min(vruntime, left->min_vruntime, right->min_vruntime);
// first_ and last_ are the in-order first and last nodes (null iff empty);
// hint_ is null or a node that is the last node with its deadline;
// every ring member shares its head's deadline and vruntime, seqs increase
// along the ring from the head, groups are runs of (deadline, seq), members other than the head and entities not
// in the tree have null left/right/parent. check() verifies all of them.
#pragma once

#include "lib/sched/policy.h"

namespace q::sched {

class EevdfTree {
  public:
    constexpr EevdfTree() = default;

    bool empty() const { return root_ == nullptr; }
    const Entity* root() const { return root_; }
    // Precondition: z.seq is greater than the seq of every queued entity
    // (Eevdf numbers enqueues in order), so z goes after equal deadlines.
    // The hint (the node the last insert went to) is the last node with its
    // deadline, so z's place is right after it when z has its deadline: z
    // joins it without a descent when the vruntime matches too.
    void insert(Entity& z) {
        if (hint_ && hint_->eevdf.deadline == z.eevdf.deadline && hint_->eevdf.vruntime == z.eevdf.vruntime) {
            join(hint_, z);
        } else {
            insert_slow(z);
        }
    }

    void erase(Entity& z) {
        Entity* n = z.eevdf.gnext;
        if (n == &z) {  // alone: its node leaves the tree
            erase_node(&z);
            z.eevdf.gnext = z.eevdf.gprev = nullptr;
            return;
        }
        Entity* p = z.eevdf.gprev;
        p->eevdf.gnext = n;
        n->eevdf.gprev = p;
        z.eevdf.gnext = z.eevdf.gprev = nullptr;
        // z was the head: n, next by seq, takes over the node. The key stays
        // in order: a group gains members only while it is the last node
        // with its deadline, so every member's seq is below the head seq of
        // any later node with that deadline (groups are runs of the
        // (deadline, seq) order). A member leaves the node unchanged.
        if (is_node(&z)) take_over(&z, n);
    }

    // First entity in (deadline, seq) order with pass(vruntime) true, where
    // pass is monotone (true for all v up to some bound); null if none.
    template <typename Pass>
    Entity* first_passing(Pass pass) const {
        if (first_ && pass(first_->eevdf.vruntime)) return first_;  // the common case
        Entity* n = root_;
        while (n) {
            if (n->left && pass(n->left->eevdf.min_vruntime)) {
                n = n->left;
            } else if (pass(n->eevdf.vruntime)) {
                return n;
            } else if (n->right && pass(n->right->eevdf.min_vruntime)) {
                n = n->right;
            } else {
                return nullptr;
            }
        }
        return nullptr;
    }

    // Black height if all invariants hold, -1 otherwise.
    int check() const;

  private:
    static bool less(const Entity& a, const Entity& b) {
        return a.eevdf.deadline < b.eevdf.deadline || (a.eevdf.deadline == b.eevdf.deadline && a.seq < b.seq);
    }
    static bool is_red(const Entity* n) { return n && n->eevdf.red; }
    static void recompute(Entity* n);
    static Entity* propagate(Entity* n, Entity* stop);
    bool is_node(const Entity* z) const { return z->parent || root_ == z; }
    // Append z to the ring of g (a node): z's seq is the largest.
    static void join(Entity* g, Entity& z) {
        Entity* tail = g->eevdf.gprev;
        z.eevdf.gprev = tail;
        z.eevdf.gnext = g;
        tail->eevdf.gnext = &z;
        g->eevdf.gprev = &z;
        z.left = z.right = z.parent = nullptr;
        z.eevdf.red = false;
    }
    // n takes z's place in the tree: same links, colour and subtree minimum
    // (the subtree's set of vruntimes is unchanged: n has z's vruntime).
    void take_over(Entity* z, Entity* n) {
        n->left = z->left;
        n->right = z->right;
        n->eevdf.red = z->eevdf.red;
        n->eevdf.min_vruntime = z->eevdf.min_vruntime;
        if (n->left) n->left->parent = n;
        if (n->right) n->right->parent = n;
        replace_child(z->parent, z, n);
        if (first_ == z) first_ = n;
        if (last_ == z) last_ = n;
        if (hint_ == z) hint_ = n;
        z->left = z->right = z->parent = nullptr;
        z->eevdf.red = false;
    }
    void replace_child(Entity* parent, Entity* old, Entity* now) {
        if (!parent) {
            root_ = now;
        } else if (parent->left == old) {
            parent->left = now;
        } else {
            parent->right = now;
        }
        if (now) now->parent = parent;
    }
    void insert_slow(Entity& z);
    void link_node(Entity* z, Entity* parent, Entity** link);
    void erase_node(Entity* z);
    void rotate_left(Entity* x);
    void rotate_right(Entity* x);
    void insert_fixup(Entity* z);
    void erase_fixup(Entity* x, Entity* parent);
    static int check_node(const Entity* n, const Entity* parent);
    bool check_runs(const Entity* n, const Entity*& prev, bool& hint_seen) const;

    Entity* root_ = nullptr;
    Entity* first_ = nullptr;  // in-order first node (earliest deadline)
    Entity* last_ = nullptr;   // in-order last node (latest deadline)
    Entity* hint_ = nullptr;   // node of the last insert, or null if erased
};

}  // namespace q::sched
