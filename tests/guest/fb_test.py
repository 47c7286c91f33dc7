"""tests/guest/fb_test.py - the framebuffer device, checked on QEMU's screen.

Boots a headless guest with a display device (virtio-gpu on virtio-mmio
slot 1; also ramfb when this QEMU accepts it on riscv virt, 8.0 and later)
and a monitor socket, runs `frames -t 2`, takes a `screendump` and checks
the picture: 320x200, many colours, and in the middle pixels that are not
the background gradient (the cube). Then boots without a display: the
kernel says so and frames still renders and prints its fps line. After
each boot the shell still answers and fsck finds the disk clean. One
`PASS name` / `FAIL name: why` line per check (tests/guest/qemu.py's
Suite: a failed boot keeps its console transcript). Takes about 15 s.
"""
import os
import re
import shutil
import socket
import subprocess
import tempfile
import time

from qemu import BUILD, Suite

FRAMES_RE = re.compile(r"frames: fps=([\d.]+) frames=(\d+) ms=(\d+) checksum=([0-9a-f]+)")
W, H = 320, 200

suite = Suite("fb", show=True)
report = suite.check


def qemu_version():
    out = subprocess.run(["qemu-system-riscv64", "--version"], stdout=subprocess.PIPE, text=True).stdout
    m = re.search(r"version (\d+)\.(\d+)", out)
    return (int(m.group(1)), int(m.group(2))) if m else (0, 0)


def screendump(sock_path, ppm):
    """Ask the monitor for a screendump; return (width, height, rgb bytes) or None."""
    s = socket.socket(socket.AF_UNIX)
    s.settimeout(10)
    s.connect(sock_path)
    try:
        s.sendall(b"screendump %s\n" % ppm.encode())
        deadline = time.time() + 10
        while time.time() < deadline:
            if os.path.exists(ppm) and os.path.getsize(ppm) >= W * H * 3:
                break
            time.sleep(0.1)
        time.sleep(0.2)  # let QEMU finish the file
    finally:
        s.close()
    if not os.path.exists(ppm):
        return None
    data = open(ppm, "rb").read()
    parts = data.split(b"\n", 3)  # P6, "w h", 255, pixels (QEMU writes no comments)
    if len(parts) < 4 or parts[0] != b"P6":
        return None
    w, h = map(int, parts[1].split())
    return w, h, parts[3]


def background(y):
    """frames' background colour on row y: a vertical gradient (user/frames.c render)."""
    c = y * 255 // H
    return (0, c >> 2, c >> 1)


def display_checks(name, device_args, banner):
    tmp = tempfile.mkdtemp(prefix="quanta-fb-")
    try:
        display_run(name, device_args, banner, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def display_run(name, device_args, banner, tmp):
    sock_path = os.path.join(tmp, "monitor.sock")
    ppm = os.path.join(tmp, "shot.ppm")
    extra = device_args + ["-monitor", "unix:%s,server,nowait" % sock_path]
    with suite.boot(2, tag=name, extra_args=extra) as g:
        boot = g.log[0]
        report(banner in boot, name + "-detected", repr(boot[-300:]))
        out = g.run("frames -t 2", timeout=60)
        m = FRAMES_RE.search(out)
        report(m is not None and int(m.group(2)) > 0 and float(m.group(1)) > 0, name + "-frames-fps",
               m.group(0) if m else repr(out))
        shot = screendump(sock_path, ppm)
        if shot is None:
            report(False, name + "-screendump", "no PPM written")
            return
        w, h, px = shot
        report((w, h) == (W, H) and len(px) >= W * H * 3, name + "-screen-size", "%dx%d" % (w, h))
        if (w, h) != (W, H) or len(px) < W * H * 3:
            return
        colours = {px[i:i + 3] for i in range(0, W * H * 3, 3)}
        report(len(colours) >= 20, name + "-screen-colours", "%d distinct colours" % len(colours))
        # The cube sits in the middle: most of the central 120x80 is not background.
        total = cube = 0
        for y in range(H // 2 - 40, H // 2 + 40):
            bg = bytes(background(y))
            for x in range(W // 2 - 60, W // 2 + 60):
                total += 1
                if px[(y * W + x) * 3:(y * W + x) * 3 + 3] != bg:
                    cube += 1
        report(cube * 2 > total, name + "-screen-cube", "%d of %d central pixels off the background" % (cube, total))
        # The edges are background: the picture is frames' scene, not noise.
        edge = sum(1 for y in range(H) if px[(y * W) * 3:(y * W) * 3 + 3] == bytes(background(y)))
        report(edge > H * 9 // 10, name + "-screen-background", "%d of %d left-edge pixels" % (edge, H))
        # Keep a copy for people to look at.
        keep = os.path.join(BUILD, "fb_test-%s.ppm" % name)
        try:
            open(keep, "wb").write(open(ppm, "rb").read())
        except OSError:
            pass


def main():
    display_checks("virtio-gpu", ["-device", "virtio-gpu-device,bus=virtio-mmio-bus.1"],
                   "fb: 320x200 XRGB8888 on virtio-gpu")
    if qemu_version() >= (8, 0):  # 7.x refuses -device ramfb on riscv virt (fw_cfg made too late)
        display_checks("ramfb", ["-device", "ramfb"], "fb: 320x200 XRGB8888 on ramfb")
    with suite.boot(2, tag="no-display") as g:
        report("fb: no framebuffer" in g.log[0], "no-display-detected", repr(g.log[0][-300:]))
        out = g.run("frames -f 5", timeout=60)
        m = FRAMES_RE.search(out)
        report(m is not None and m.group(2) == "5", "no-display-frames", m.group(0) if m else repr(out))


if __name__ == "__main__":
    main()
