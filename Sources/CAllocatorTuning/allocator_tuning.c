#include "allocator_tuning.h"

// Any C library header defines `__GLIBC__` where the library is glibc: it must come before the check.
#include <stdlib.h>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

int vitrine_tune_allocator(int arenas) {
#if defined(__GLIBC__)
    int applied = arenas > 0 ? mallopt(M_ARENA_MAX, arenas) : 1;
    // A fixed threshold, so glibc stops moving it up as big blocks are freed; above a harvested page's body
    // (hundreds of KB of rich EDM), which would otherwise be mapped, faulted in and unmapped page after page.
    return applied && mallopt(M_MMAP_THRESHOLD, 1024 * 1024);
#else
    (void)arenas;
    return 0;
#endif
}

void vitrine_release_free_memory(void) {
#if defined(__GLIBC__)
    malloc_trim(0);
#endif
}
