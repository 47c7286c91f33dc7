// lib/sched/lottery.cc - lottery scheduling (see lottery.h for the design).
#include "lib/sched/lottery.h"

namespace q::sched {

void Lottery::enqueue(Entity& e, Time) {
    Q_ASSERT(!e.queued);
    e.seq = seq_++;  // the back of the queue
    queue_.insert(e);
    e.queued = true;
    count_++;
    tickets_ += lottery_tickets(e);
}

void Lottery::dequeue(Entity& e) {
    Q_ASSERT(e.queued);
    queue_.erase(e);
    e.queued = false;
    count_--;
    tickets_ -= lottery_tickets(e);
}

// Walk down from the root: the left subtree holds the tickets numbered
// before this node's, the right subtree those after.
Entity* Lottery::holder(u64 winner) const {
    Entity* n = queue_.root();
    while (n) {
        const u64 before = LotteryOrder::sum(n->left);
        if (winner < before) {
            n = n->left;
            continue;
        }
        winner -= before;
        if (winner < lottery_tickets(*n)) return n;
        winner -= lottery_tickets(*n);
        n = n->right;
    }
    return nullptr;
}

Entity* Lottery::pick(unsigned cpu, Time) {
    if (count_ == 0) return nullptr;
    Entity* chosen = holder(rng_.below(tickets_));
    Q_ASSERT(chosen != nullptr);
    dequeue(*chosen);
    chosen->cpu = static_cast<u16>(cpu);
    return chosen;
}

void Lottery::reweight(Entity& e, u32 weight, u8 level) {
    if (e.queued) tickets_ -= lottery_tickets(e);
    e.weight = weight;
    e.level = level;
    if (e.queued) {
        tickets_ += lottery_tickets(e);
        queue_.refresh(e);
    }
}

}  // namespace q::sched
