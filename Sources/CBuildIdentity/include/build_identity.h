#ifndef VITRINE_BUILD_IDENTITY_H
#define VITRINE_BUILD_IDENTITY_H

#include <stddef.h>

/// Copies the running executable's build identity (the ELF `NT_GNU_BUILD_ID` note on Linux, the Mach-O `LC_UUID` on
/// macOS) into `buffer`, and returns its length; 0 when it has none, or `capacity` is too small.
size_t vitrine_build_identity(unsigned char *buffer, size_t capacity);

#endif
