// lib/fs/fifo_rule.h - when a blocking FIFO open may return (pure, host-tested).
//
// POSIX: open(fifo, O_RDONLY) waits until some process has it open for
// writing, and O_WRONLY waits for a reader; O_RDWR never waits. The opener
// attaches first (its own side's count goes up, waking the peer's openers),
// then sleeps until this rule holds. The rule is not "a peer is open now":
// a peer may open and close again between two of the sleeper's checks
// (it attached, saw us, returned, wrote and closed while we were not yet
// running), and the sleeper would then wait for ever for a peer that has
// come and gone. So the peer side counts its opens (a free-running u32),
// and the opener returns if the peer was open when it attached, is open
// now, or has opened at least once since (its open count moved).
#pragma once

#include "lib/types.h"

namespace q::fs {

// The peer side as the opener saw it when it attached.
struct FifoPeerSnapshot {
    u32 open_count;  // peer Files open at attach
    u32 opens;       // the peer side's free-running open counter at attach
};

constexpr FifoPeerSnapshot fifo_snapshot(u32 peers_open, u32 peer_opens) { return {peers_open, peer_opens}; }

// May the opener, which attached seeing `at`, return now that the peer
// side has `peers_open` open Files and has been opened `peer_opens` times?
constexpr bool fifo_open_may_return(FifoPeerSnapshot at, u32 peers_open, u32 peer_opens) {
    return at.open_count > 0 || peers_open > 0 || peer_opens != at.opens;
}

}  // namespace q::fs
