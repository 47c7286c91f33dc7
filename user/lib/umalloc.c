/* user/lib/umalloc.c - malloc and free over sbrk.
 *
 * A circular, address-ordered free list of blocks (the classic K&R design).
 * Every block starts with a 16-byte header holding its size in header
 * units, so returned pointers are 16-byte aligned. malloc takes the first
 * block that fits, splitting off the tail; when none fits it grows the heap
 * with sbrk by at least kMinUnits units and frees the new piece into the
 * list. free inserts in address order and merges with both neighbours, so
 * the heap does not fragment into ever smaller pieces. Memory is never given
 * back to the kernel. malloc returns 0 when sbrk fails or the request is
 * too large for sbrk's int argument. Threads may call both at once: one
 * futex mutex (user/lib/thread.c) guards the list.
 */
#include "user/user.h"

typedef union header {
    struct {
        union header* next;
        unsigned long units; /* block size, header included */
    } s;
    char align[16];
} Header;

enum { kMinUnits = 4096 };

static Header base;
static Header* freep;
static struct umutex lock = UMUTEX_INIT;

static void free_locked(void* p) {
    Header* b = (Header*)p - 1;
    Header* q = freep;
    /* Find q with q < b < q->next, allowing for the wrap-around. */
    while (!(b > q && b < q->s.next)) {
        if (q >= q->s.next && (b > q || b < q->s.next)) break;
        q = q->s.next;
    }
    if (b + b->s.units == q->s.next) { /* merge with the upper neighbour */
        b->s.units += q->s.next->s.units;
        b->s.next = q->s.next->s.next;
    } else {
        b->s.next = q->s.next;
    }
    if (q + q->s.units == b) { /* merge with the lower neighbour */
        q->s.units += b->s.units;
        q->s.next = b->s.next;
    } else {
        q->s.next = b;
    }
    freep = q;
}

static Header* grow(unsigned long units) {
    if (units < kMinUnits) units = kMinUnits;
    unsigned long bytes = units * sizeof(Header);
    if (bytes > 0x7fffffffUL) return 0;
    char* p = sbrk((int)bytes);
    if (p == (char*)-1) return 0;
    Header* h = (Header*)p;
    h->s.units = units;
    free_locked(h + 1);
    return freep;
}

void free(void* p) {
    if (p == 0) return;
    umutex_lock(&lock);
    free_locked(p);
    umutex_unlock(&lock);
}

static void* malloc_locked(unsigned int nbytes) {
    unsigned long units = ((unsigned long)nbytes + sizeof(Header) - 1) / sizeof(Header) + 1;
    if (freep == 0) {
        base.s.next = freep = &base;
        base.s.units = 0;
    }
    Header* prev = freep;
    for (Header* p = prev->s.next;; prev = p, p = p->s.next) {
        if (p->s.units >= units) {
            if (p->s.units == units) {
                prev->s.next = p->s.next;
            } else { /* hand out the tail of the block */
                p->s.units -= units;
                p += p->s.units;
                p->s.units = units;
            }
            freep = prev;
            return (void*)(p + 1);
        }
        if (p == freep && (p = grow(units)) == 0) return 0;
    }
}

void* malloc(unsigned int nbytes) {
    umutex_lock(&lock);
    void* p = malloc_locked(nbytes);
    umutex_unlock(&lock);
    return p;
}
