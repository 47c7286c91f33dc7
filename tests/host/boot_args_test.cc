// tests/host/boot_args_test.cc - the kernel's boot-argument parser
// (lib/boot_args.h): the keys it reads, their ranges, and what a bad or
// missing value leaves (the default, and a rejected word to print).
#include <gtest/gtest.h>

#include <string>

#include "lib/boot_args.h"

using q::u64;
using q::boot::Config;
using q::boot::parse;
using q::boot::Parsed;
namespace param = q::param;
using q::sched::Knob;

namespace {

TEST(BootArgs, EmptyOrMissingGivesTheDefaults) {
    for (const char* args : {"", "   ", "console=ttyS0 quiet"}) {
        const Parsed p = parse(args);
        EXPECT_STREQ(p.config.sched, "") << args;
        EXPECT_STREQ(p.config.rq, "") << args;
        EXPECT_EQ(p.config.slice_us, 0u) << args;
        EXPECT_FALSE(p.config.knobs.has(Knob::MlfqBoost)) << args;
        EXPECT_FALSE(p.config.knobs.has(Knob::MlfqReset)) << args;
        EXPECT_FALSE(p.config.knobs.has(Knob::EevdfSleepDecay)) << args;
        EXPECT_FALSE(p.config.turn_handoff) << args;
        EXPECT_TRUE(p.config.sync_wake) << args;
        EXPECT_TRUE(p.config.pick_forfeit) << args;
        EXPECT_EQ(p.config.turn_us, 100u) << args;
        EXPECT_EQ(p.config.tick_us, 1000u) << args;
        EXPECT_EQ(p.nrejected, 0) << args;
    }
    EXPECT_EQ(parse(nullptr).nrejected, 0);
}

TEST(BootArgs, ReadsEveryKey) {
    const Parsed p = parse(
        "sched=dwrr rq=single slice=2000 mlfq_boost=0 mlfq_reset=1 turn_handoff=1 sync_wake=0 pick_forfeit=0 "
        "sleep_decay=0");
    EXPECT_STREQ(p.config.sched, "dwrr");
    EXPECT_STREQ(p.config.rq, "single");
    EXPECT_EQ(p.config.slice_us, 2000u);
    EXPECT_TRUE(p.config.knobs.has(Knob::MlfqBoost));
    EXPECT_EQ(p.config.knobs.get(Knob::MlfqBoost, 7), 0u);  // 0: never boost, not "absent"
    EXPECT_EQ(p.config.knobs.get(Knob::MlfqReset, 0), 1u);
    EXPECT_TRUE(p.config.knobs.has(Knob::EevdfSleepDecay));
    EXPECT_EQ(p.config.knobs.get(Knob::EevdfSleepDecay, 1), 0u);
    EXPECT_TRUE(p.config.turn_handoff);
    EXPECT_FALSE(p.config.sync_wake);
    EXPECT_FALSE(p.config.pick_forfeit);
    EXPECT_EQ(p.nrejected, 0);
}

// key=1 or key=0 (the last word wins); anything else is rejected, the
// default kept.
void expect_flag(const char* key, bool Config::*field, bool default_on) {
    const std::string k(key);
    EXPECT_EQ(parse((k + "=1 " + k + "=0").c_str()).config.*field, false) << key;
    EXPECT_EQ(parse((k + "=0 " + k + "=1").c_str()).config.*field, true) << key;
    for (const char* v : {"on", "", "10"}) {
        const std::string args = k + "=" + v;
        const Parsed p = parse(args.c_str());
        EXPECT_EQ(p.config.*field, default_on) << args;
        ASSERT_EQ(p.nrejected, 1) << args;
        EXPECT_STREQ(p.rejected[0].range, "1 or 0") << args;
    }
}

TEST(BootArgs, FlagsAreZeroOrOne) {
    expect_flag("turn_handoff", &Config::turn_handoff, false);
    expect_flag("sync_wake", &Config::sync_wake, true);
    expect_flag("pick_forfeit", &Config::pick_forfeit, true);
}

// key=US takes 0..100000 us; anything else is rejected, the default kept.
void expect_time_upto_100ms(const char* key, u64 Config::*field, u64 default_us) {
    for (const u64 us : {u64{0}, u64{50}, u64{4000}, u64{100000}}) {
        const std::string args = std::string(key) + "=" + std::to_string(us);
        EXPECT_EQ(parse(args.c_str()).config.*field, us) << args;
    }
    for (const char* bad : {"100001", "-1", "", "1ms"}) {
        const std::string args = std::string(key) + "=" + bad;
        const Parsed p = parse(args.c_str());
        EXPECT_EQ(p.config.*field, default_us) << args;
        ASSERT_EQ(p.nrejected, 1) << args;
        EXPECT_STREQ(p.rejected[0].range, "0..100000 us") << args;
    }
}

TEST(BootArgs, TickUsIsATimeUpTo100Ms) {
    expect_time_upto_100ms("tick_us", &Config::tick_us, 1000);                   // 0: no scheduler tick
    EXPECT_EQ(Config{}.tick_us * param::kCyclesPerUs, param::kSchedTickCycles);  // the default is the kernel's tick
}

TEST(BootArgs, TurnUsIsATimeUpTo100Ms) {
    expect_time_upto_100ms("turn_us", &Config::turn_us, 100);  // 0: no quantum
}

// Issue 23 finding 4: the default slice was xv6's 1,000,000 cycles (100 ms),
// so a wake-up that did not preempt could wait 100 ms. Now Linux's base
// slice rule, 0.75 ms x (1 + log2 harts), 8 harts counted at most;
// slice=100000 gives xv6's back for comparison.
TEST(BootArgs, TheDefaultSliceIsLinuxsBaseSliceRule) {
    const Config none = parse("").config;
    EXPECT_EQ(none.slice_cycles(1), 7'500u);  // 0.75 ms at 10 MHz
    EXPECT_EQ(none.slice_cycles(2), 15'000u);
    EXPECT_EQ(none.slice_cycles(4), 22'500u);
    EXPECT_EQ(none.slice_cycles(8), 30'000u);
    EXPECT_EQ(none.slice_cycles(64), 30'000u);
    EXPECT_EQ(parse("slice=100000").config.slice_cycles(1), 1'000'000u);  // xv6's
    EXPECT_EQ(parse("slice=2000").config.slice_cycles(4), 20'000u);       // given: the same on any hart count
}

TEST(BootArgs, OutOfRangeKeepsTheDefaultAndIsReported) {
    const Parsed p = parse("slice=5 mlfq_boost=100000001 mlfq_reset=yes sched=eevdf");
    EXPECT_EQ(p.config.slice_us, 0u);
    EXPECT_FALSE(p.config.knobs.has(Knob::MlfqBoost));
    EXPECT_FALSE(p.config.knobs.has(Knob::MlfqReset));
    EXPECT_STREQ(p.config.sched, "eevdf");  // the good word still counts
    ASSERT_EQ(p.nrejected, 3);
    EXPECT_STREQ(p.rejected[0].word, "slice=5");
    EXPECT_STREQ(p.rejected[0].range, "100..1000000 us");
    EXPECT_STREQ(p.rejected[1].word, "mlfq_boost=100000001");
    EXPECT_STREQ(p.rejected[1].range, "0..100000000 us");  // a policy knob's range (lib/sched/knobs.h)
    EXPECT_STREQ(p.rejected[2].word, "mlfq_reset=yes");
}

TEST(BootArgs, NotANumberIsRejected) {
    for (const char* args : {"slice=", "slice=1e3", "slice=-100", "slice=2000us", "slice=99999999999999999999"}) {
        const Parsed p = parse(args);
        EXPECT_EQ(p.config.slice_us, 0u) << args;
        EXPECT_EQ(p.nrejected, 1) << args;
    }
    EXPECT_EQ(parse("slice=100").config.slice_us, 100u);  // both ends are in range
    EXPECT_EQ(parse("slice=1000000").config.slice_us, 1'000'000u);
}

TEST(BootArgs, LastWordWinsAndARejectedOneDoesNotUndoAGoodOne) {
    EXPECT_EQ(parse("slice=2000 slice=3000").config.slice_us, 3000u);
    const Parsed p = parse("slice=2000 slice=7");
    EXPECT_EQ(p.config.slice_us, 2000u);
    EXPECT_EQ(p.nrejected, 1);
}

TEST(BootArgs, KeysMatchWholeWordsOnly) {
    const Parsed p = parse("xsched=rr schedx=rr sched rq_mode=single slicer=4000");
    EXPECT_STREQ(p.config.sched, "");
    EXPECT_STREQ(p.config.rq, "");
    EXPECT_EQ(p.config.slice_us, 0u);
    EXPECT_EQ(p.nrejected, 0);
}

TEST(BootArgs, LongValuesAreCutOrRejectedNeverOverrun) {
    const std::string name(100, 'x');
    const Parsed p = parse(("sched=" + name).c_str());
    EXPECT_STREQ(p.config.sched, "");  // too long for any policy name
    ASSERT_EQ(p.nrejected, 1);
    EXPECT_EQ(std::string(p.rejected[0].word), ("sched=" + name).substr(0, 31));
    std::string many;
    for (int i = 0; i < 10; i++) many += "slice=1 ";
    EXPECT_EQ(parse(many.c_str()).nrejected, 10);  // counted past the kept ones
}

}  // namespace

namespace {

TEST(BootArgs, VmPolicyIsFifoOrClock) {
    EXPECT_STREQ(parse("").config.vm, "");
    EXPECT_STREQ(parse("vm=fifo").config.vm, "fifo");
    EXPECT_STREQ(parse("vm=fifo vm=clock").config.vm, "clock");  // the last word wins
    const Parsed p = parse("vm=lru");
    EXPECT_STREQ(p.config.vm, "");
    ASSERT_EQ(p.nrejected, 1);
    EXPECT_STREQ(p.rejected[0].word, "vm=lru");
    EXPECT_STREQ(p.rejected[0].range, "fifo or clock");
}

}  // namespace
