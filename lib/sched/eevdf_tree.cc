// lib/sched/eevdf_tree.cc - augmented red-black tree (see eevdf_tree.h).
//
// Augment maintenance: after linking or unlinking, min_vruntime is
// recomputed along the path from the lowest changed node to the root;
// rotations recompute the two nodes they move (the lower one first), which
// is enough because a rotation does not change the set below the top node.
#include "lib/sched/eevdf_tree.h"

namespace q::sched {

void EevdfTree::recompute(Entity* n) {
    i64 m = n->vruntime;
    if (n->left && n->left->min_vruntime < m) m = n->left->min_vruntime;
    if (n->right && n->right->min_vruntime < m) m = n->right->min_vruntime;
    n->min_vruntime = m;
}

void EevdfTree::propagate(Entity* n) {
    for (; n; n = n->parent) recompute(n);
}

void EevdfTree::replace_child(Entity* parent, Entity* old, Entity* now) {
    if (!parent) {
        root_ = now;
    } else if (parent->left == old) {
        parent->left = now;
    } else {
        parent->right = now;
    }
    if (now) now->parent = parent;
}

void EevdfTree::rotate_left(Entity* x) {
    Entity* y = x->right;
    x->right = y->left;
    if (y->left) y->left->parent = x;
    replace_child(x->parent, x, y);
    y->left = x;
    x->parent = y;
    recompute(x);
    recompute(y);
}

void EevdfTree::rotate_right(Entity* x) {
    Entity* y = x->left;
    x->left = y->right;
    if (y->right) y->right->parent = x;
    replace_child(x->parent, x, y);
    y->right = x;
    x->parent = y;
    recompute(x);
    recompute(y);
}

void EevdfTree::insert(Entity& z) {
    Entity* parent = nullptr;
    for (Entity* x = root_; x;) {
        parent = x;
        x = less(z, *x) ? x->left : x->right;
    }
    z.parent = parent;
    z.left = z.right = nullptr;
    z.red = true;
    z.min_vruntime = z.vruntime;
    if (!parent) {
        root_ = &z;
    } else if (less(z, *parent)) {
        parent->left = &z;
    } else {
        parent->right = &z;
    }
    // A new leaf only lowers minima: stop at the first ancestor it does not.
    for (Entity* a = parent; a && z.vruntime < a->min_vruntime; a = a->parent) a->min_vruntime = z.vruntime;
    insert_fixup(&z);
}

void EevdfTree::insert_fixup(Entity* z) {
    while (is_red(z->parent)) {
        Entity* p = z->parent;
        Entity* g = p->parent;  // exists: a red node is never the root
        const bool left_side = (p == g->left);
        Entity* uncle = left_side ? g->right : g->left;
        if (is_red(uncle)) {
            p->red = false;
            uncle->red = false;
            g->red = true;
            z = g;
            continue;
        }
        if (left_side) {
            if (z == p->right) {
                z = p;
                rotate_left(z);
                p = z->parent;
            }
            p->red = false;
            g->red = true;
            rotate_right(g);
        } else {
            if (z == p->left) {
                z = p;
                rotate_right(z);
                p = z->parent;
            }
            p->red = false;
            g->red = true;
            rotate_left(g);
        }
    }
    root_->red = false;
}

void EevdfTree::erase(Entity& zr) {
    Entity* z = &zr;
    Entity* x = nullptr;
    Entity* xparent = nullptr;
    bool removed_red = z->red;
    if (!z->left || !z->right) {
        x = z->left ? z->left : z->right;
        xparent = z->parent;
        replace_child(z->parent, z, x);
    } else {
        Entity* y = z->right;
        while (y->left) y = y->left;  // successor
        removed_red = y->red;
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
        y->red = z->red;
    }
    propagate(xparent);
    if (!removed_red) erase_fixup(x, xparent);
    z->left = z->right = z->parent = nullptr;
    z->red = false;
}

void EevdfTree::erase_fixup(Entity* x, Entity* parent) {
    while (x != root_ && !is_red(x)) {
        if (x == parent->left) {
            Entity* w = parent->right;
            if (is_red(w)) {
                w->red = false;
                parent->red = true;
                rotate_left(parent);
                w = parent->right;
            }
            if (!is_red(w->left) && !is_red(w->right)) {
                w->red = true;
                x = parent;
                parent = x->parent;
            } else {
                if (!is_red(w->right)) {
                    w->left->red = false;
                    w->red = true;
                    rotate_right(w);
                    w = parent->right;
                }
                w->red = parent->red;
                parent->red = false;
                w->right->red = false;
                rotate_left(parent);
                x = root_;
            }
        } else {
            Entity* w = parent->left;
            if (is_red(w)) {
                w->red = false;
                parent->red = true;
                rotate_right(parent);
                w = parent->left;
            }
            if (!is_red(w->left) && !is_red(w->right)) {
                w->red = true;
                x = parent;
                parent = x->parent;
            } else {
                if (!is_red(w->left)) {
                    w->right->red = false;
                    w->red = true;
                    rotate_left(w);
                    w = parent->left;
                }
                w->red = parent->red;
                parent->red = false;
                w->left->red = false;
                rotate_right(parent);
                x = root_;
            }
        }
    }
    if (x) x->red = false;
}

int EevdfTree::check_node(const Entity* n, const Entity* parent) {
    if (!n) return 1;
    if (n->parent != parent) return -1;
    if (n->red && (is_red(n->left) || is_red(n->right))) return -1;
    if (n->left && less(*n, *n->left)) return -1;
    if (n->right && less(*n->right, *n)) return -1;
    i64 m = n->vruntime;
    if (n->left && n->left->min_vruntime < m) m = n->left->min_vruntime;
    if (n->right && n->right->min_vruntime < m) m = n->right->min_vruntime;
    if (m != n->min_vruntime) return -1;
    int hl = check_node(n->left, n);
    int hr = check_node(n->right, n);
    if (hl < 0 || hr < 0 || hl != hr) return -1;
    return hl + (n->red ? 0 : 1);
}

int EevdfTree::check() const {
    if (is_red(root_)) return -1;
    return check_node(root_, nullptr);
}

}  // namespace q::sched
