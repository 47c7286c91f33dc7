// lib/sched/eevdf_tree.cc - augmented red-black tree (see eevdf_tree.h).
//
// Augment maintenance: after linking or unlinking, min_vruntime is
// recomputed along the path from the lowest changed node to the root;
// rotations recompute the two nodes they move (the lower one first), which
// is enough because a rotation does not change the set below the top node.
#include "lib/sched/eevdf_tree.h"

namespace q::sched {

void EevdfTree::recompute(Entity* n) {
    i64 m = n->eevdf.vruntime;
    if (n->left && n->left->eevdf.min_vruntime < m) m = n->left->eevdf.min_vruntime;
    if (n->right && n->right->eevdf.min_vruntime < m) m = n->right->eevdf.min_vruntime;
    n->eevdf.min_vruntime = m;
}

// Recompute from n towards the root, stopping at `stop` or at the first node
// whose minimum did not change: its ancestors' subtrees changed only below
// it, so their minima did not change either. Returns where it stopped.
Entity* EevdfTree::propagate(Entity* n, Entity* stop) {
    for (; n != stop; n = n->parent) {
        const i64 old = n->eevdf.min_vruntime;
        recompute(n);
        if (n->eevdf.min_vruntime == old) break;
    }
    return n;
}

void EevdfTree::rotate_left(Entity* x) {
    Entity* y = x->right;
    x->right = y->left;
    if (y->left) y->left->parent = x;
    replace_child(x->parent, x, y);
    y->left = x;
    x->parent = y;
    y->eevdf.min_vruntime = x->eevdf.min_vruntime;  // y's subtree is x's old one
    recompute(x);
}

void EevdfTree::rotate_right(Entity* x) {
    Entity* y = x->left;
    x->left = y->right;
    if (y->right) y->right->parent = x;
    replace_child(x->parent, x, y);
    y->right = x;
    x->parent = y;
    y->eevdf.min_vruntime = x->eevdf.min_vruntime;  // y's subtree is x's old one
    recompute(x);
}

void EevdfTree::insert_slow(Entity& z) {
    // z.seq is above every queued seq (precondition), so (deadline, seq)
    // order puts z after every entity with its deadline: compare deadlines
    // only. A deadline at or after the last one lands as the last node's
    // right child, where the descent would end anyway: skip the descent.
    // pred, the last node the descent went right at, is z's predecessor.
    Entity* parent = nullptr;
    Entity* pred = nullptr;
    Entity** link = &root_;
    const i64 d = z.eevdf.deadline;
    if (last_ && d >= last_->eevdf.deadline) {
        parent = pred = last_;
        link = &last_->right;
    } else {
        while (Entity* x = *link) {
            parent = x;
            if (d < x->eevdf.deadline) {
                link = &x->left;
            } else {
                pred = x;
                link = &x->right;
            }
        }
    }
    if (pred && pred->eevdf.deadline == d && pred->eevdf.vruntime == z.eevdf.vruntime) {
        // Join pred's group at the end of its ring: the key does not change.
        join(pred, z);
        hint_ = pred;
        return;
    }
    z.eevdf.gnext = z.eevdf.gprev = &z;
    link_node(&z, parent, link);
    hint_ = &z;
}

// Link z (with its ring) as a new leaf at *link under parent, and rebalance.
void EevdfTree::link_node(Entity* z, Entity* parent, Entity** link) {
    if (!parent) {
        first_ = last_ = z;
    } else if (parent == last_ && link == &parent->right) {
        last_ = z;
    } else if (parent == first_ && link == &parent->left) {
        first_ = z;
    }
    z->parent = parent;
    z->left = z->right = nullptr;
    z->eevdf.red = true;
    z->eevdf.min_vruntime = z->eevdf.vruntime;
    *link = z;
    // A new leaf only lowers minima: stop at the first ancestor it does not.
    for (Entity* a = parent; a && z->eevdf.vruntime < a->eevdf.min_vruntime; a = a->parent)
        a->eevdf.min_vruntime = z->eevdf.vruntime;
    insert_fixup(z);
}

void EevdfTree::insert_fixup(Entity* z) {
    while (is_red(z->parent)) {
        Entity* p = z->parent;
        Entity* g = p->parent;  // exists: a red node is never the root
        // The analyzer cannot see that invariant (the root is black).
        const bool left_side = (p == g->left);  // NOLINT(clang-analyzer-core.NullDereference)
        Entity* uncle = left_side ? g->right : g->left;
        if (is_red(uncle)) {
            p->eevdf.red = false;
            uncle->eevdf.red = false;
            g->eevdf.red = true;
            z = g;
            continue;
        }
        if (left_side) {
            if (z == p->right) {
                z = p;
                rotate_left(z);
                p = z->parent;
            }
            p->eevdf.red = false;
            g->eevdf.red = true;
            rotate_right(g);
        } else {
            if (z == p->left) {
                z = p;
                rotate_right(z);
                p = z->parent;
            }
            p->eevdf.red = false;
            g->eevdf.red = true;
            rotate_left(g);
        }
    }
    root_->eevdf.red = false;
}

void EevdfTree::erase_node(Entity* z) {
    if (z == hint_) hint_ = nullptr;
    if (z == last_) {  // the new last is its predecessor (z has no right child)
        Entity* p = z->left;
        if (p) {
            while (p->right) p = p->right;
        } else {
            p = z->parent;
        }
        last_ = p;
    }
    if (z == first_) {  // the new first is its successor (z has no left child)
        Entity* p = z->right;
        if (p) {
            while (p->left) p = p->left;
        } else {
            p = z->parent;
        }
        first_ = p;
    }
    Entity* x = nullptr;
    Entity* xparent = nullptr;
    bool removed_red = z->eevdf.red;
    if (!z->left || !z->right) {
        x = z->left ? z->left : z->right;
        xparent = z->parent;
        replace_child(z->parent, z, x);
        // Every ancestor lost exactly z: early stop is exact.
        propagate(xparent, nullptr);
    } else {
        Entity* y = z->right;
        while (y->left) y = y->left;  // successor
        removed_red = y->eevdf.red;
        x = y->right;
        if (y->parent == z) {
            xparent = y;
        } else {
            xparent = y->parent;
            replace_child(y->parent, y, x);
            y->right = z->right;
            y->right->parent = y;
        }
        replace_child(z->parent, z, y);
        y->left = z->left;
        y->left->parent = y;
        y->eevdf.red = z->eevdf.red;
        // Between y's old place and its new one, subtrees lost y (early stop
        // exact below y); y's new subtree lost z, so y starts from z's old
        // minimum and is always recomputed; above y, ancestors lost z.
        y->eevdf.min_vruntime = z->eevdf.min_vruntime;
        if (xparent != y) propagate(xparent, y);
        propagate(y, nullptr);
    }
    if (!removed_red) erase_fixup(x, xparent);
    z->left = z->right = z->parent = nullptr;
    z->eevdf.red = false;
}

void EevdfTree::erase_fixup(Entity* x, Entity* parent) {
    while (x != root_ && !is_red(x)) {
        if (x == parent->left) {
            Entity* w = parent->right;
            if (is_red(w)) {
                w->eevdf.red = false;
                parent->eevdf.red = true;
                rotate_left(parent);
                w = parent->right;
            }
            if (!is_red(w->left) && !is_red(w->right)) {
                w->eevdf.red = true;
                x = parent;
                parent = x->parent;
            } else {
                if (!is_red(w->right)) {
                    w->left->eevdf.red = false;
                    w->eevdf.red = true;
                    rotate_right(w);
                    w = parent->right;
                }
                w->eevdf.red = parent->eevdf.red;
                parent->eevdf.red = false;
                w->right->eevdf.red = false;
                rotate_left(parent);
                x = root_;
            }
        } else {
            Entity* w = parent->left;
            if (is_red(w)) {
                w->eevdf.red = false;
                parent->eevdf.red = true;
                rotate_right(parent);
                w = parent->left;
            }
            if (!is_red(w->left) && !is_red(w->right)) {
                w->eevdf.red = true;
                x = parent;
                parent = x->parent;
            } else {
                if (!is_red(w->left)) {
                    w->right->eevdf.red = false;
                    w->eevdf.red = true;
                    rotate_left(w);
                    w = parent->left;
                }
                w->eevdf.red = parent->eevdf.red;
                parent->eevdf.red = false;
                w->left->eevdf.red = false;
                rotate_right(parent);
                x = root_;
            }
        }
    }
    if (x) x->eevdf.red = false;
}

int EevdfTree::check_node(const Entity* n, const Entity* parent) {
    if (!n) return 1;
    if (n->parent != parent) return -1;
    if (n->eevdf.red && (is_red(n->left) || is_red(n->right))) return -1;
    if (n->left && less(*n, *n->left)) return -1;
    if (n->right && less(*n->right, *n)) return -1;
    i64 m = n->eevdf.vruntime;
    if (n->left && n->left->eevdf.min_vruntime < m) m = n->left->eevdf.min_vruntime;
    if (n->right && n->right->eevdf.min_vruntime < m) m = n->right->eevdf.min_vruntime;
    if (m != n->eevdf.min_vruntime) return -1;
    if (!n->eevdf.gnext || !n->eevdf.gprev) return -1;
    const Entity* prev = n;
    for (const Entity* g = n->eevdf.gnext; g != n; prev = g, g = g->eevdf.gnext) {
        if (!g || g->eevdf.gprev != prev || g->seq <= prev->seq) return -1;
        if (g->eevdf.deadline != n->eevdf.deadline || g->eevdf.vruntime != n->eevdf.vruntime) return -1;
        if (g->left || g->right || g->parent) return -1;
    }
    if (n->eevdf.gprev != prev) return -1;
    int hl = check_node(n->left, n);
    int hr = check_node(n->right, n);
    if (hl < 0 || hr < 0 || hl != hr) return -1;
    return hl + (n->eevdf.red ? 0 : 1);
}

// In-order walk: consecutive nodes with equal deadlines hold consecutive runs
// of seqs (the earlier group's last member comes before the later head).
// The hint, if any, is a node and no node after it has its deadline.
bool EevdfTree::check_runs(const Entity* n, const Entity*& prev, bool& hint_seen) const {
    if (!n) return true;
    if (!check_runs(n->left, prev, hint_seen)) return false;
    if (prev && prev->eevdf.deadline == n->eevdf.deadline && (prev->eevdf.gprev->seq >= n->seq || prev == hint_))
        return false;
    if (n == hint_) hint_seen = true;
    prev = n;
    return check_runs(n->right, prev, hint_seen);
}

int EevdfTree::check() const {
    if (is_red(root_)) return -1;
    const Entity* last = root_;
    while (last && last->right) last = last->right;
    if (last != last_) return -1;
    const Entity* first = root_;
    while (first && first->left) first = first->left;
    if (first != first_) return -1;
    const int h = check_node(root_, nullptr);
    const Entity* prev = nullptr;
    bool hint_seen = false;
    if (h < 0 || !check_runs(root_, prev, hint_seen) || (hint_ && !hint_seen)) return -1;
    return h;
}

}  // namespace q::sched
