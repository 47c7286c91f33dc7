// sim/fluid.h - the capped fluid (GPS) scheduler's arithmetic: how much
// service one task of each level has received, given which tasks are
// runnable each tick. fluid_world.h decides who is runnable (the tasks'
// own demand) and builds the reference schedule on it.
//
// Each tick, the C cores' capacity is poured over the runnable tasks in
// proportion to weight, but no task can use more than one core: water-
// filling. Levels are visited heaviest first; a level whose tasks would get
// w * B / W >= 1 core (B cores left, W the weight of the tasks not yet
// capped) is capped at exactly one core per task and taken out of B and W;
// the first level below that, and every lighter one, is uncapped and earns
// w * B / W per tick. All tasks of a level (one weight) are capped or not
// together. With n <= C runnable tasks every task gets a whole core.
//
// Service is kept per level, for one task of that level, as an integer in
// units of 2^-64 ticks: S_l = w_l * G + D_l, where G advances by
// B * 2^64 / W per tick (the uncapped rate per unit of weight; quotient and
// remainder, the remainder carried exactly, so G is the exact floor while
// the runnable set stays the same) and a capped level's D_l makes up the
// difference to exactly 2^64 per tick. A task's service over a runnable
// interval is S_l(end) - S_l(start). Only G moves per tick (plus one update
// per capped level), so the cost per tick does not grow with the number of
// tasks. Error: when the runnable set changes, G's fraction (< 1 unit) is
// dropped, so a task's service is low by < w * 2^-64 ticks per change of
// the runnable set (< 5e-9 ticks after 1e9 changes at weight 88761); it
// never drifts with magnitude as a double accumulator does.
// Bounds: G < ticks * 2^64 and w * G < 2^127 for ticks < 2^40 and w < 2^17.
#pragma once

#include <cstdint>

#include "lib/sched/policy.h"

namespace schedsim {

using i128 = __int128;

class FluidReference {
  public:
    static constexpr i128 kOne = static_cast<i128>(1) << 64;  // one tick
    // A pseudo-level of weight 0 whose service is always 0 (fluid_world.h
    // files a task that is not runnable under it, so that a task's service
    // is one formula without a branch).
    static constexpr unsigned kNone = q::sched::kLevels;

    FluidReference(const uint32_t* level_weight, unsigned cores) : cores_(cores) {
        for (unsigned l = 0; l < q::sched::kLevels; l++) {
            weight_[l] = level_weight[l];
            order_[l] = l;
        }
        weight_[kNone] = 0;  // slot_[kNone] stays {0, 0}: service(kNone) == 0
        for (unsigned l = 0; l < q::sched::kLevels; l++) slot_[l].w = weight_[l];
        // Heaviest first (insertion sort: 40 entries, once).
        for (unsigned i = 1; i < q::sched::kLevels; i++) {
            for (unsigned j = i; j > 0 && weight_[order_[j]] > weight_[order_[j - 1]]; j--) {
                const unsigned x = order_[j];
                order_[j] = order_[j - 1];
                order_[j - 1] = x;
            }
        }
    }

    void add(unsigned level) {
        count_[level]++;
        dirty_ = true;
    }
    void remove(unsigned level) {
        count_[level]--;
        dirty_ = true;
    }

    // One tick (or `ticks` ticks) of the current runnable set.
    void advance(uint64_t ticks = 1) {
        if (dirty_) fill();
        const i128 g0 = g_;
        if (ticks == 1) {
            g_ += dg_;
            rem_ += drem_;
            if (rem_ >= w_) {
                rem_ -= w_;
                g_++;
            }
        } else {
            const i128 total = static_cast<i128>(ticks) * drem_ + rem_;
            g_ += static_cast<i128>(ticks) * dg_ + total / w_;
            rem_ = total % w_;
        }
        if (ncapped_ == 0) return;
        const i128 dg = g_ - g0;
        for (unsigned i = 0; i < ncapped_; i++) {
            const unsigned l = capped_[i];
            slot_[l].d += static_cast<i128>(ticks) * kOne - static_cast<i128>(weight_[l]) * dg;
        }
    }

    // Service of one task of `level` (or kNone: 0) since the start, in
    // 2^-64 ticks. G >= 0 and the weight is 32 bits: one 64x64 and one
    // 64x32 multiply, not a full 128-bit product.
    i128 service(unsigned level) const { return service_plus(level, 0, 0); }
    // service(level) + base - whole ticks, in one pass (the lag sample's
    // arithmetic: base is a task's offset, whole its executed ticks).
    i128 service_plus(unsigned level, i128 base, uint64_t whole) const {
        using u128 = unsigned __int128;
        const Slot& s = slot_[level];
        const u128 g = static_cast<u128>(g_);
        const u128 p = static_cast<u128>(s.w) * static_cast<uint64_t>(g);
        const uint64_t hi = static_cast<uint64_t>(p >> 64) + s.w * static_cast<uint64_t>(g >> 64) - whole;
        const u128 v = (static_cast<u128>(hi) << 64) | static_cast<uint64_t>(p);
        return static_cast<i128>(v + static_cast<u128>(s.d + base));
    }

    static double ticks(i128 units) {
        const bool neg = units < 0;
        const unsigned __int128 u = static_cast<unsigned __int128>(neg ? -units : units);
        const double whole = static_cast<double>(static_cast<uint64_t>(u >> 64));
        const double frac = static_cast<double>(static_cast<uint64_t>(u)) * 0x1.0p-64;
        return neg ? -(whole + frac) : whole + frac;
    }

  private:
    // Water-filling over the runnable levels (see the top of the file).
    void fill() {
        dirty_ = false;
        ncapped_ = 0;
        i128 b = cores_, w = 0;
        for (unsigned l = 0; l < q::sched::kLevels; l++) w += static_cast<i128>(count_[l]) * weight_[l];
        for (unsigned i = 0; i < q::sched::kLevels; i++) {
            const unsigned l = order_[i];
            if (count_[l] == 0) continue;
            if (static_cast<i128>(weight_[l]) * b < w) break;  // w_l * B / W < 1: uncapped
            capped_[ncapped_++] = l;
            b -= count_[l];
            w -= static_cast<i128>(count_[l]) * weight_[l];
        }
        // G advances by (b * kOne) / w per tick: the quotient, plus the
        // remainder carried exactly while the set stays the same.
        w_ = w > 0 ? w : 1;
        dg_ = w > 0 ? (b * kOne) / w : 0;
        drem_ = w > 0 ? (b * kOne) % w : 0;
        rem_ = 0;  // < one unit (2^-64 ticks per unit of weight) dropped
    }

    unsigned cores_;
    uint32_t weight_[q::sched::kLevels + 1];
    unsigned order_[q::sched::kLevels];  // levels, heaviest first
    uint64_t count_[q::sched::kLevels] = {};
    unsigned capped_[q::sched::kLevels] = {};  // the first ncapped_
    unsigned ncapped_ = 0;
    bool dirty_ = true;
    i128 g_ = 0, dg_ = 0;
    i128 w_ = 1, drem_ = 0, rem_ = 0;  // G's exact fractional part, in 1/w_ units
    // Per level (and kNone): its weight and D_l, side by side (one record
    // per lag sample).
    struct Slot {
        i128 d = 0;
        uint64_t w = 0;
    };
    Slot slot_[q::sched::kLevels + 1];
};

}  // namespace schedsim
