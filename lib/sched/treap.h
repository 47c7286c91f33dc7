// lib/sched/treap.h - an intrusive treap of Entities: stride's pass order
// and lottery's running ticket sums, in O(log n) expected per operation.
//
// Design. A binary search tree in Key::less order whose shape is also a
// max-heap of priorities (Seidel and Aragon). A node's priority is a hash of
// its seq, which its policy numbers uniquely at each enqueue, so the shape
// is that of a random binary search tree whatever order the keys arrive in:
// expected depth O(log n), deterministic for a given history. The hash is
// splitmix64's finalizer, a bijection, so no two queued entities tie.
//   insert: descend to a leaf by key, then rotate the node up while its
//           priority beats its parent's;
//   erase:  rotate the node down under its higher-priority child until it
//           is a leaf, then unlink it;
//   a rotation keeps the in-order sequence, so Key order is never disturbed.
// Augment: Key::pull(n) recomputes n's summary from its children (lottery:
// the tickets in n's subtree; stride keeps none). A rotation pulls the two
// nodes it moves, lower one first; insert and erase then pull every ancestor
// of the changed place, and refresh(n) does the same after n's own value
// changed in place (lottery's reweight).
//
// Hooks: Entity::left/right/parent, shared with the EEVDF tree (an entity is
// queued in one policy at a time). An entity not in a treap has null links.
//
// Invariants (check()): in-order is strictly increasing in Key::less; every
// node's priority is above its children's; child->parent links agree;
// Key::pulled(n) holds for every node. No allocation, no recursion but in
// check() (host tests).
#pragma once

#include "lib/sched/policy.h"

namespace q::sched {

template <typename Key>
class Treap {
  public:
    constexpr Treap() = default;

    bool empty() const { return root_ == nullptr; }
    Entity* root() const { return root_; }

    // The least entity in Key order, or null.
    Entity* first() const {
        Entity* n = root_;
        while (n && n->left) n = n->left;
        return n;
    }

    // z is not in any tree; its key (and seq) must not change until erase.
    void insert(Entity& z) {
        Entity* parent = nullptr;
        Entity** link = &root_;
        while (*link) {
            parent = *link;
            link = Key::less(z, *parent) ? &parent->left : &parent->right;
        }
        z.left = z.right = nullptr;
        z.parent = parent;
        *link = &z;
        Key::pull(z);
        while (z.parent && prio(z) > prio(*z.parent)) rotate_up(z);
        refresh_from(z.parent);
    }

    void erase(Entity& z) {
        while (z.left || z.right) {
            Entity* c = z.left;
            if (!c || (z.right && prio(*z.right) > prio(*c))) c = z.right;
            rotate_up(*c);  // z goes one level down, under c
        }
        Entity* p = z.parent;
        *link_to(z) = nullptr;
        z.parent = nullptr;
        refresh_from(p);
    }

    // n's own summary input changed (lottery: its tickets): pull it and its
    // ancestors.
    void refresh(Entity& n) { refresh_from(&n); }

    // True if every invariant holds.
    bool check() const { return check_node(root_, nullptr, nullptr, nullptr); }

  private:
    static u64 prio(const Entity& e) {
        u64 z = e.seq + 0x9e3779b97f4a7c15ull;
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        return z ^ (z >> 31);
    }

    static void refresh_from(Entity* n) {
        for (; n; n = n->parent) Key::pull(*n);
    }

    // The link that points at n: its parent's left or right, or the root.
    Entity** link_to(const Entity& n) {
        Entity* p = n.parent;
        return !p ? &root_ : (p->left == &n ? &p->left : &p->right);
    }

    // x takes its parent's place; the parent becomes x's child on the other
    // side and adopts x's inner subtree.
    void rotate_up(Entity& x) {
        Entity* p = x.parent;
        *link_to(*p) = &x;
        x.parent = p->parent;
        if (p->left == &x) {
            p->left = x.right;
            if (x.right) x.right->parent = p;
            x.right = p;
        } else {
            p->right = x.left;
            if (x.left) x.left->parent = p;
            x.left = p;
        }
        p->parent = &x;
        Key::pull(*p);
        Key::pull(x);
    }

    // n's subtree lies strictly between lo and hi (either may be null).
    static bool check_node(const Entity* n, const Entity* parent, const Entity* lo, const Entity* hi) {
        if (!n) return true;
        if (n->parent != parent || !Key::pulled(*n)) return false;
        if ((lo && !Key::less(*lo, *n)) || (hi && !Key::less(*n, *hi))) return false;
        if (parent && prio(*n) > prio(*parent)) return false;
        return check_node(n->left, n, lo, n) && check_node(n->right, n, n, hi);
    }

    Entity* root_ = nullptr;
};

}  // namespace q::sched
