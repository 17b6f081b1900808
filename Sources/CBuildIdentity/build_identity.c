#define _GNU_SOURCE
#include "build_identity.h"

#include <string.h>

#if defined(__linux__)
#include <elf.h>
#include <link.h>

struct found {
    unsigned char *buffer;
    size_t capacity;
    size_t length;
};

// The main program is the first object `dl_iterate_phdr` reports; its PT_NOTE segments hold the build id.
static int visit(struct dl_phdr_info *info, size_t size, void *data) {
    (void)size;
    struct found *found = data;
    for (int index = 0; index < info->dlpi_phnum; index++) {
        const ElfW(Phdr) *header = &info->dlpi_phdr[index];
        if (header->p_type != PT_NOTE) continue;
        const unsigned char *note = (const unsigned char *)(info->dlpi_addr + header->p_vaddr);
        const unsigned char *end = note + header->p_memsz;
        while (note + sizeof(ElfW(Nhdr)) <= end) {
            const ElfW(Nhdr) *entry = (const ElfW(Nhdr) *)note;
            const unsigned char *name = note + sizeof(ElfW(Nhdr));
            const unsigned char *description = name + ((entry->n_namesz + 3) & ~3u);
            const unsigned char *next = description + ((entry->n_descsz + 3) & ~3u);
            if (next > end) break;
            if (entry->n_type == NT_GNU_BUILD_ID && entry->n_namesz == 4 && memcmp(name, "GNU", 4) == 0) {
                if (entry->n_descsz <= found->capacity) {
                    memcpy(found->buffer, description, entry->n_descsz);
                    found->length = entry->n_descsz;
                }
                return 1;
            }
            note = next;
        }
    }
    return 1;
}

size_t vitrine_build_identity(unsigned char *buffer, size_t capacity) {
    struct found found = {buffer, capacity, 0};
    dl_iterate_phdr(visit, &found);
    return found.length;
}

#elif defined(__APPLE__)
#include <mach-o/dyld.h>
#include <mach-o/loader.h>

size_t vitrine_build_identity(unsigned char *buffer, size_t capacity) {
    const struct mach_header_64 *header = (const struct mach_header_64 *)_dyld_get_image_header(0);
    if (header == NULL || header->magic != MH_MAGIC_64 || capacity < 16) return 0;
    const unsigned char *command = (const unsigned char *)(header + 1);
    for (uint32_t index = 0; index < header->ncmds; index++) {
        const struct load_command *load = (const struct load_command *)command;
        if (load->cmd == LC_UUID) {
            memcpy(buffer, ((const struct uuid_command *)load)->uuid, 16);
            return 16;
        }
        command += load->cmdsize;
    }
    return 0;
}

#else
size_t vitrine_build_identity(unsigned char *buffer, size_t capacity) {
    (void)buffer;
    (void)capacity;
    return 0;
}
#endif
