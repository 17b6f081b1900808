#define _GNU_SOURCE
#include "folder_exchange.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#if defined(__linux__)
#include <sys/syscall.h>
#ifndef RENAME_EXCHANGE
#define RENAME_EXCHANGE (1 << 1)
#endif
#endif

int vitrine_exchange_paths(const char *first, const char *second) {
#if defined(__linux__) && defined(SYS_renameat2)
    // The system call itself: glibc before 2.28 has no wrapper.
    return (int)syscall(SYS_renameat2, AT_FDCWD, first, AT_FDCWD, second, RENAME_EXCHANGE);
#elif defined(__APPLE__)
    return renamex_np(first, second, RENAME_SWAP);
#else
    (void)first;
    (void)second;
    errno = ENOSYS;
    return -1;
#endif
}

int vitrine_folder_identity(const char *path, unsigned long long identity[4]) {
#if defined(__linux__) && defined(STATX_BTIME)
    struct statx status;
    if (statx(AT_FDCWD, path, AT_SYMLINK_NOFOLLOW, STATX_INO | STATX_BTIME, &status) != 0) return -1;
    identity[0] = ((unsigned long long)status.stx_dev_major << 32) | status.stx_dev_minor;
    identity[1] = status.stx_ino;
    int born = (status.stx_mask & STATX_BTIME) != 0;
    identity[2] = born ? (unsigned long long)status.stx_btime.tv_sec : 0;
    identity[3] = born ? status.stx_btime.tv_nsec : 0;
    return 0;
#else
    struct stat status;
    if (lstat(path, &status) != 0) return -1;
    identity[0] = (unsigned long long)status.st_dev;
    identity[1] = (unsigned long long)status.st_ino;
#if defined(__APPLE__)
    identity[2] = (unsigned long long)status.st_birthtimespec.tv_sec;
    identity[3] = (unsigned long long)status.st_birthtimespec.tv_nsec;
#else
    identity[2] = 0;
    identity[3] = 0;
#endif
    return 0;
#endif
}
