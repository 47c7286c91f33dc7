"""tests/guest/extra_image.py - a disk image of build/fs.img's files plus more.

Suites whose programs are built only for them (fptest, the qcc-compiled
libc tests: mk/user.mk and mk/tests.mk add them to GUEST_DEPS, not to the default image)
boot from `build_image(workdir, extra)`: every file build/fs.list names,
plus the extra host files, through build/mkfs (qemu.make_known_image, the
same fresh image every Guest boots by default). mkfs drops one leading `_`
from each base name.
"""
import os

from qemu import make_known_image


def build_image(workdir, extra, name="extra.img"):
    return make_known_image(os.path.join(workdir, name), extra)
