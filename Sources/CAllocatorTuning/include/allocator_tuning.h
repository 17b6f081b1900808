#ifndef VITRINE_ALLOCATOR_TUNING_H
#define VITRINE_ALLOCATOR_TUNING_H

/// Keeps the C allocator's footprint near what the process holds (glibc; elsewhere nothing). By default glibc
/// gives each of up to 8 threads per core an arena of its own, and raises the size from which a block gets pages
/// of its own (`mmap`) up to 32 MB as big blocks are freed; the freed space of arenas stays in the process.
/// An export renders on every core and lets go of tens of megabytes at a time (a part of the catalog), so with
/// those defaults it holds far more than it uses. This allows `arenas` arenas and keeps blocks of 1 MB and more
/// in pages of their own, given back when freed. Call it early, before the work's threads allocate.
/// Returns 1 when glibc accepts both settings; 0 elsewhere, or when it refuses one.
int vitrine_tune_allocator(int arenas);

/// Gives the pages of the allocator's free space back to the system (glibc; elsewhere nothing).
void vitrine_release_free_memory(void);

#endif
