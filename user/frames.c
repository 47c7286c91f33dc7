/* user/frames.c - a software-rendered rotating 3D scene; prints frames/s.
 *
 *   frames [-t SECONDS] [-f FRAMES]
 *
 * Renders a flat-shaded rotating cube into an in-memory 320x200 32-bit
 * framebuffer: a gradient background, the cube's 12 triangles transformed
 * with 2.14 fixed-point rotation (sin/cos from an integer table built at
 * start-up from a Taylor series), perspective projection, back-face culling
 * and edge-function rasterisation. Integer arithmetic only (the kernel does
 * not save FP registers). The scene rotates by a fixed angle per frame, so
 * the work per frame is the same under every scheduler.
 *
 * Runs for SECONDS of the fine clock (default 3) or FRAMES frames, then
 * prints one line:
 *   frames: fps=F.F frames=N ms=M checksum=X
 * (the checksum of the last frame; equal frame counts give equal sums).
 *
 * When the framebuffer device works (QEMU started with -device ramfb, e.g.
 * `make qemu-gfx`), every frame is also written to /fb (major FRAMEBUFFER,
 * created with mknod when missing) in one write of the whole frame, which
 * the device always places at offset 0; the fps figure then includes that
 * copy. Without it (open or the first write fails) frames runs as before.
 * -h prints the usage line and exits 0; a bad argument prints it, exit 1. */
#include "kernel/fcntl.h"
#include "kernel/types.h"
#include "user/args.h"
#include "user/benchutil.h"
#include "user/user.h"

#define W 320
#define H 200
#define ONE 16384 /* 2.14 fixed point */
#define ANGLES 1024

static unsigned int fb[H][W];
static int sintab[ANGLES]; /* sin(2*pi*i/ANGLES) * ONE */

/* sin(x) for x in [0, pi/2] given in Q30, by Taylor series in Q30. */
static long sin_q30(long x) {
    const long one = 1L << 30;
    long x2 = (x * (x >> 15)) >> 15; /* x^2 in Q30 */
    long term = x, sum = x;
    for (int n = 1; n <= 6; n++) {
        term = -((term * (x2 >> 15)) >> 15) / ((2 * n) * (2 * n + 1));
        sum += term;
    }
    (void)one;
    return sum;
}

static void build_table(void) {
    /* pi/2 in Q30 = 1686629713 */
    const long half_pi = 1686629713L;
    const int quarter = ANGLES / 4;
    for (int i = 0; i <= quarter; i++) {
        long x = half_pi * i / quarter;
        int s = (int)(sin_q30(x) >> 16); /* Q30 -> Q14 */
        sintab[i] = s;
        sintab[ANGLES / 2 - i] = s;
        if (i) sintab[ANGLES - i] = -s;
        sintab[ANGLES / 2 + i] = -s;
    }
}

static int isin(int a) { return sintab[a & (ANGLES - 1)]; }
static int icos(int a) { return sintab[(a + ANGLES / 4) & (ANGLES - 1)]; }

static const int cube_v[8][3] = {
    {-1, -1, -1}, {1, -1, -1}, {1, 1, -1}, {-1, 1, -1}, {-1, -1, 1}, {1, -1, 1}, {1, 1, 1}, {-1, 1, 1},
};
/* Faces as quads (counter-clockwise seen from outside) and their normals. */
static const int cube_f[6][4] = {
    {0, 3, 2, 1}, {4, 5, 6, 7}, {0, 1, 5, 4}, {3, 7, 6, 2}, {0, 4, 7, 3}, {1, 2, 6, 5},
};
static const int cube_n[6][3] = {
    {0, 0, -1}, {0, 0, 1}, {0, -1, 0}, {0, 1, 0}, {-1, 0, 0}, {1, 0, 0},
};
static const unsigned int face_rgb[6] = {0xff4040, 0x40ff40, 0x4040ff, 0xffff40, 0x40ffff, 0xff40ff};

static void rotate(const int in[3], int ax, int ay, int out[3]) {
    /* about Y, then about X; inputs in Q14 */
    int sx = isin(ax), cx = icos(ax), sy = isin(ay), cy = icos(ay);
    int x = (in[0] * cy + in[2] * sy) >> 14;
    int z = (-in[0] * sy + in[2] * cy) >> 14;
    int y = (in[1] * cx - z * sx) >> 14;
    int z2 = (in[1] * sx + z * cx) >> 14;
    out[0] = x;
    out[1] = y;
    out[2] = z2;
}

static unsigned int shade(unsigned int rgb, int level /* 0..256 */) {
    unsigned int r = ((rgb >> 16) & 0xff) * (unsigned int)level >> 8;
    unsigned int g = ((rgb >> 8) & 0xff) * (unsigned int)level >> 8;
    unsigned int b = (rgb & 0xff) * (unsigned int)level >> 8;
    return (r << 16) | (g << 8) | b;
}

static int edge(int ax, int ay, int bx, int by, int px, int py) {
    return (bx - ax) * (py - ay) - (by - ay) * (px - ax);
}

/* Fill a triangle given in screen pixels, counter-clockwise (area > 0). */
static void fill_tri(const int* a, const int* b, const int* c, unsigned int color) {
    int minx = a[0], maxx = a[0], miny = a[1], maxy = a[1];
    const int* v[2] = {b, c};
    for (int i = 0; i < 2; i++) {
        if (v[i][0] < minx) minx = v[i][0];
        if (v[i][0] > maxx) maxx = v[i][0];
        if (v[i][1] < miny) miny = v[i][1];
        if (v[i][1] > maxy) maxy = v[i][1];
    }
    if (minx < 0) minx = 0;
    if (miny < 0) miny = 0;
    if (maxx > W - 1) maxx = W - 1;
    if (maxy > H - 1) maxy = H - 1;
    for (int y = miny; y <= maxy; y++) {
        int w0 = edge(b[0], b[1], c[0], c[1], minx, y);
        int w1 = edge(c[0], c[1], a[0], a[1], minx, y);
        int w2 = edge(a[0], a[1], b[0], b[1], minx, y);
        int d0 = -(c[1] - b[1]), d1 = -(a[1] - c[1]), d2 = -(b[1] - a[1]);
        unsigned int* row = fb[y];
        for (int x = minx; x <= maxx; x++) {
            if ((w0 | w1 | w2) >= 0) row[x] = color;
            w0 += d0;
            w1 += d1;
            w2 += d2;
        }
    }
}

static void render(int frame) {
    /* background: vertical gradient */
    for (int y = 0; y < H; y++) {
        unsigned int c = (unsigned int)(y * 255 / H);
        unsigned int px = (c >> 2) << 8 | (c >> 1);
        unsigned int* row = fb[y];
        for (int x = 0; x < W; x++) row[x] = px;
    }
    int ax = frame * 3, ay = frame * 5;
    int sv[8][2];
    for (int i = 0; i < 8; i++) {
        int in[3] = {cube_v[i][0] * ONE, cube_v[i][1] * ONE, cube_v[i][2] * ONE}, r[3];
        rotate(in, ax, ay, r);
        int z = r[2] + 4 * ONE; /* camera at distance 4 */
        sv[i][0] = W / 2 + (r[0] * 200) / z;
        sv[i][1] = H / 2 - (r[1] * 200) / z;
    }
    for (int f = 0; f < 6; f++) {
        int n[3] = {cube_n[f][0] * ONE, cube_n[f][1] * ONE, cube_n[f][2] * ONE}, rn[3];
        rotate(n, ax, ay, rn);
        /* light from the viewer, a little above: (0, 0.5, -1) normalised-ish */
        int lit = (-rn[2] * 14 + rn[1] * 6) / 16; /* Q14 */
        int level = 48 + (lit > 0 ? lit * 208 / ONE : 0);
        unsigned int color = shade(face_rgb[f], level);
        const int* p0 = sv[cube_f[f][0]];
        const int* p1 = sv[cube_f[f][1]];
        const int* p2 = sv[cube_f[f][2]];
        const int* p3 = sv[cube_f[f][3]];
        /* screen y points down: a visible face has negative area here */
        int area = edge(p0[0], p0[1], p1[0], p1[1], p2[0], p2[1]);
        if (area >= 0) continue;
        fill_tri(p0, p2, p1, color);
        fill_tri(p0, p3, p2, color);
    }
}

static unsigned int checksum(void) {
    unsigned int s = 0;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) s = s * 31 + fb[y][x];
    return s;
}

/* A descriptor of the framebuffer device, or -1 when there is none. */
static int open_fb(void) {
    int fd = open("/fb", O_WRONLY);
    if (fd < 0) {
        mknod("/fb", FRAMEBUFFER, 0); /* may race another frames: retry the open either way */
        fd = open("/fb", O_WRONLY);
    }
    return fd;
}

int main(int argc, char* argv[]) {
    static const char usage[] = "frames [-t SECONDS] [-f FRAMES]";
    int seconds = 3, maxframes = 0;
    usage_on_help(argc, argv, usage);
    for (int i = 1; i < argc; i++) {
        int* dst = 0;
        if (strcmp(argv[i], "-t") == 0) dst = &seconds;
        else if (strcmp(argv[i], "-f") == 0) dst = &maxframes;
        if (!dst || i + 1 >= argc || !parse_int(argv[++i], dst) || *dst < 0) usage_exit(usage, 1);
    }
    if (seconds == 0 && maxframes == 0) seconds = 3;
    build_table();
    int fbfd = open_fb();
    const unsigned long start = rdtime();
    const unsigned long end = start + (unsigned long)seconds * BENCH_TICKS_PER_SEC;
    int frames = 0;
    for (;;) {
        render(frames);
        if (fbfd >= 0 && write(fbfd, fb, sizeof fb) != (int)sizeof fb) {
            close(fbfd); /* no display (or it failed): just render */
            fbfd = -1;
        }
        frames++;
        if (maxframes && frames >= maxframes) break;
        if (seconds && rdtime() >= end) break;
    }
    unsigned long ticks = rdtime() - start;
    if (ticks == 0) ticks = 1;
    /* fps with one decimal: frames * 10 * ticks_per_sec / ticks */
    unsigned long fps10 = (unsigned long)frames * 10UL * BENCH_TICKS_PER_SEC / ticks;
    char a[32];
    bench_fixed(fps10, 10, 1, a);
    printf("frames: fps=%s frames=%d ms=%lu checksum=%x\n", a, frames, ticks / (BENCH_TICKS_PER_SEC / 1000),
           checksum());
    exit(0);
}
