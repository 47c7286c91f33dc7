// lib/sched/mlfq.cc - Multi-Level Feedback Queue (see mlfq.h for the rules).
#include "lib/sched/mlfq.h"

namespace q::sched {

void Mlfq::to_top(Entity& e, u64 epoch) {
    e.mlfq.mq = 0;
    e.mlfq.used = 0;
    e.mlfq.turn = 0;
    e.mlfq.epoch = epoch;
}

void Mlfq::push(Entity& e, bool front) {
    if (e.mlfq.mq >= p_.queues) e.mlfq.mq = static_cast<u8>(p_.queues - 1);
    if (front) {
        q_[e.mlfq.mq].push_front(e);
    } else {
        q_[e.mlfq.mq].push_back(e);
    }
    e.queued = true;
    count_++;
}

void Mlfq::enqueue(Entity& e, Time now) {
    Q_ASSERT(!e.queued);
    const u64 epoch = period(now);
    if (e.mlfq.epoch != epoch) to_top(e, epoch);  // rule 5 for a task away at the boost
    bool front;
    if (e.picked) {
        front = e.mlfq.turn != 0;  // quantum left: it continues it
    } else {
        if (p_.io_reset) e.mlfq.used = e.mlfq.turn = 0;
        front = p_.io_front;
    }
    e.picked = false;
    push(e, front);
}

void Mlfq::dequeue(Entity& e) {
    Q_ASSERT(e.queued);
    q_[e.mlfq.mq].remove(e);
    e.queued = false;
    count_--;
}

void Mlfq::boost_all(u64 epoch) {
    for (Entity& e : q_[0]) to_top(e, epoch);
    for (unsigned i = 1; i < p_.queues; i++) {
        while (Entity* e = q_[i].pop_front()) {
            to_top(*e, epoch);
            q_[0].push_back(*e);
        }
    }
}

Entity* Mlfq::pick(unsigned cpu, Time now) {
    if (count_ == 0) return nullptr;
    const u64 epoch = period(now);
    if (epoch != epoch_) {
        epoch_ = epoch;
        boost_all(epoch);
    }
    for (unsigned i = 0; i < p_.queues; i++) {
        if (Entity* e = q_[i].pop_front()) {
            e->queued = false;
            count_--;
            e->cpu = static_cast<u16>(cpu);
            e->picked = true;
            return e;
        }
    }
    return nullptr;
}

void Mlfq::charge(Entity& e, Time ran) {
    if (e.mlfq.mq >= p_.queues) e.mlfq.mq = static_cast<u8>(p_.queues - 1);
    e.mlfq.used += ran;
    e.mlfq.turn += ran;
    if (e.mlfq.used >= p_.allotment[e.mlfq.mq]) {  // rule 4
        if (e.mlfq.mq + 1u < p_.queues) e.mlfq.mq++;
        e.mlfq.used = 0;
        e.mlfq.turn = 0;
    } else if (e.mlfq.turn >= p_.quantum[e.mlfq.mq]) {  // rule 2: its turn is over
        e.mlfq.turn = 0;
    }
}

void Mlfq::forget(Entity& e) {
    e.picked = false;
    e.mlfq.mq = 0;
    e.mlfq.used = e.mlfq.turn = 0;
}

usize Mlfq::queued_at(unsigned q) const { return q < p_.queues ? q_[q].size() : 0; }

}  // namespace q::sched
