// lib/boot_args.cc - boot-argument parsing (see boot_args.h). Freestanding:
// the kernel and the host tests link the same code, so it uses no C
// library, only the small helpers below.
#include "lib/boot_args.h"

namespace q::boot {

namespace {

usize length(const char* s) {
    usize n = 0;
    while (s[n]) n++;
    return n;
}

void copy_cut(char* out, usize n, const char* s, usize len) {
    if (n == 0) return;
    const usize k = len < n - 1 ? len : n - 1;
    for (usize i = 0; i < k; i++) out[i] = s[i];
    out[k] = 0;
}

// Whole decimal number, no sign, at most 10^12 (no overflow); false otherwise.
bool to_u64(const char* s, u64* v) {
    if (!*s) return false;
    u64 x = 0;
    for (; *s; s++) {
        if (*s < '0' || *s > '9' || x > 1'000'000'000'000ull) return false;
        x = x * 10 + static_cast<u64>(*s - '0');
    }
    *v = x;
    return true;
}

bool number_in(const char* s, u64 lo, u64 hi, u64* v) { return to_u64(s, v) && *v >= lo && *v <= hi; }

// A number of lo..hi into *field (kept as it was if rejected).
bool store_number(const char* v, u64 lo, u64 hi, u64* field) {
    u64 x = 0;
    if (!number_in(v, lo, hi, &x)) return false;
    *field = x;
    return true;
}

// A 0 or 1 flag.
bool to_flag(const char* v, bool* out) {
    if ((v[0] != '0' && v[0] != '1') || v[1] != 0) return false;
    *out = v[0] == '1';
    return true;
}

// One key the kernel reads: store its value, or say it is out of range.
struct Key {
    const char* name;
    const char* range;                            // shown when rejected
    bool (*store)(Config& c, const char* value);  // false: rejected, c unchanged
};

bool store_sched(Config& c, const char* v) {
    copy_cut(c.sched, sizeof(c.sched), v, length(v));
    return true;
}
bool store_rq(Config& c, const char* v) {
    copy_cut(c.rq, sizeof(c.rq), v, length(v));
    return true;
}
bool store_slice(Config& c, const char* v) { return store_number(v, 100, 1'000'000, &c.slice_us); }
bool store_turn_handoff(Config& c, const char* v) { return to_flag(v, &c.turn_handoff); }
bool store_sync_wake(Config& c, const char* v) { return to_flag(v, &c.sync_wake); }
bool store_tick_us(Config& c, const char* v) { return store_number(v, 0, 100'000, &c.tick_us); }
bool store_turn_us(Config& c, const char* v) { return store_number(v, 0, 100'000, &c.turn_us); }
bool store_pick_forfeit(Config& c, const char* v) { return to_flag(v, &c.pick_forfeit); }
// A policy's knob (lib/sched/knobs.h): a flag is exactly 0 or 1, a time a
// number in its range.
bool store_knob(Config& c, unsigned i, const char* v) {
    const sched::KnobSpec& spec = sched::kKnobs[i];
    u64 x = 0;
    if (spec.unit == sched::KnobUnit::Flag) {
        bool on = false;
        if (!to_flag(v, &on)) return false;
        x = on;
    } else if (!number_in(v, 0, spec.max, &x)) {
        return false;
    }
    c.knobs.set(static_cast<sched::Knob>(i), x);
    return true;
}

bool store_vm(Config& c, const char* v) {
    const usize n = length(v);
    const bool fifo = n == 4 && v[0] == 'f' && v[1] == 'i' && v[2] == 'f' && v[3] == 'o';
    const bool clock = n == 5 && v[0] == 'c' && v[1] == 'l' && v[2] == 'o' && v[3] == 'c' && v[4] == 'k';
    if (!fifo && !clock) return false;
    copy_cut(c.vm, sizeof(c.vm), v, n);
    return true;
}

constexpr Key kKeys[] = {
    {"sched", "a policy name", store_sched},        {"rq", "percpu or single", store_rq},
    {"slice", "100..1000000 us", store_slice},      {"vm", "fifo or clock", store_vm},
    {"tick_us", "0..100000 us", store_tick_us},     {"turn_handoff", "1 or 0", store_turn_handoff},
    {"turn_us", "0..100000 us", store_turn_us},     {"sync_wake", "1 or 0", store_sync_wake},
    {"pick_forfeit", "1 or 0", store_pick_forfeit},
};

// Does the word [w, w+len) start with `key=`?
bool has_key(const char* w, usize len, const char* key) {
    const usize k = length(key);
    if (len <= k || w[k] != '=') return false;
    for (usize i = 0; i < k; i++) {
        if (w[i] != key[i]) return false;
    }
    return true;
}

// Calls f(word, len) for each space-separated word of args.
template <typename F>
void for_each_word(const char* args, F f) {
    const char* s = args;
    while (*s) {
        while (*s == ' ') s++;
        const char* w = s;
        while (*s && *s != ' ') s++;
        if (s > w) f(w, static_cast<usize>(s - w));
    }
}

void reject(Parsed& p, const char* w, usize len, const char* range) {
    if (p.nrejected < Parsed::kMaxRejected) {
        Rejected& r = p.rejected[p.nrejected];
        copy_cut(r.word, sizeof(r.word), w, len);
        r.range = range;
    }
    p.nrejected++;
}

}  // namespace

Parsed parse(const char* args) {
    Parsed p;
    if (!args) return p;
    for_each_word(args, [&](const char* w, usize len) {
        char value[32];
        // The value after `key=`; false if too long for the buffer (wrong
        // for every key).
        auto value_of = [&](const char* key) {
            const usize k = length(key) + 1;
            copy_cut(value, sizeof(value), w + k, len - k);
            return len - k < sizeof(value);
        };
        for (const Key& key : kKeys) {
            if (!has_key(w, len, key.name)) continue;
            if (!value_of(key.name) || !key.store(p.config, value)) reject(p, w, len, key.range);
        }
        for (unsigned i = 0; i < sched::kKnobCount; i++) {
            const sched::KnobSpec& spec = sched::kKnobs[i];
            if (!has_key(w, len, spec.name)) continue;
            if (!value_of(spec.name) || !store_knob(p.config, i, value)) reject(p, w, len, spec.range);
        }
    });
    return p;
}

}  // namespace q::boot
