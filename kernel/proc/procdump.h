// kernel/proc/procdump.h - the ^P process listing.
#pragma once

namespace q {
void procdump();
}
