#ifndef VITRINE_FOLDER_EXCHANGE_H
#define VITRINE_FOLDER_EXCHANGE_H

/// Swaps two paths on one file system in a single atomic step (Linux `renameat2(RENAME_EXCHANGE)`, macOS
/// `renamex_np(RENAME_SWAP)`): at every instant each path names one whole tree, the old or the new.
/// Returns 0, or -1 with `errno` set (`EINVAL`/`ENOSYS`/`ENOTSUP` where the file system or kernel cannot).
int vitrine_exchange_paths(const char *first, const char *second);

/// What tells one folder from every other, across renames: its device, inode and birth time (`statx`; 0 where the
/// file system keeps none), in `identity[0...3]`. The path is not followed when it is a link.
/// Returns 0, or -1 with `errno` set.
int vitrine_folder_identity(const char *path, unsigned long long identity[4]);

#endif
