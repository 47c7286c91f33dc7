// lib/sched/eevdf_tree.h - red-black tree of Entities for EEVDF.
//
// Ordered by (deadline, seq): the in-order first node is the earliest
// deadline, ties broken FIFO by enqueue sequence. Each node is augmented with
// min_vruntime, the smallest vruntime in its subtree, so the first node (in
// deadline order) whose vruntime passes a monotone test (v <= V) is found in
// O(log n) by descending only into subtrees whose minimum passes.
//
// Invariants: red-black (root black, no red node with a red child, equal
// black height on every path); every node's min_vruntime equals
// min(vruntime, left->min_vruntime, right->min_vruntime); first_ and last_
// are the in-order first and last nodes (null iff empty); a node not in the tree has null
// left/right/parent. check() verifies all of them (tests).
#pragma once

#include "lib/sched/policy.h"

namespace q::sched {

class EevdfTree {
  public:
    constexpr EevdfTree() = default;

    bool empty() const { return root_ == nullptr; }
    const Entity* root() const { return root_; }
    // Precondition: z.seq is greater than the seq of every node in the tree
    // (Eevdf numbers enqueues in order), so z goes after equal deadlines.
    void insert(Entity& z);
    void erase(Entity& z);

    // First node in deadline order with pass(vruntime) true, where pass is
    // monotone (true for all v up to some bound); null if none.
    template <typename Pass>
    Entity* first_passing(Pass pass) const {
        if (first_ && pass(first_->vruntime)) return first_;  // the common case
        Entity* n = root_;
        while (n) {
            if (n->left && pass(n->left->min_vruntime)) {
                n = n->left;
            } else if (pass(n->vruntime)) {
                return n;
            } else if (n->right && pass(n->right->min_vruntime)) {
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
        return a.deadline < b.deadline || (a.deadline == b.deadline && a.seq < b.seq);
    }
    static bool is_red(const Entity* n) { return n && n->red; }
    static void recompute(Entity* n);
    static Entity* propagate(Entity* n, Entity* stop);
    void rotate_left(Entity* x);
    void rotate_right(Entity* x);
    void replace_child(Entity* parent, Entity* old, Entity* now);
    void insert_fixup(Entity* z);
    void erase_fixup(Entity* x, Entity* parent);
    static int check_node(const Entity* n, const Entity* parent);

    Entity* root_ = nullptr;
    Entity* first_ = nullptr;  // in-order first node (earliest deadline)
    Entity* last_ = nullptr;   // in-order last node (latest deadline)
};

}  // namespace q::sched
