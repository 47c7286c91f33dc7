"""tests/guest/extra_image.py - a disk image of build/fs.img's files plus more.

Suites whose programs are built only for them (fptest, the qcc-compiled
libc tests: mk/libc.mk adds them to GUEST_DEPS, not to the default image)
boot from `build_image(workdir, extra)`: every file build/fs.list names,
plus the extra host files, through build/mkfs. mkfs drops one leading `_`
from each base name.
"""
import os
import subprocess

from qemu import BUILD, ROOT


def build_image(workdir, extra, name="extra.img"):
    files = open(os.path.join(BUILD, "fs.list")).read().split()
    files = [f if os.path.isabs(f) else os.path.join(ROOT, f) for f in files]
    image = os.path.join(workdir, name)
    subprocess.run([os.path.join(BUILD, "mkfs"), image] + files + list(extra), check=True,
                   stdout=subprocess.DEVNULL)
    return image
