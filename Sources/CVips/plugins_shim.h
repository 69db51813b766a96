#include <link.h>
#include <stdio.h>
#include <string.h>
#include <gmodule.h>
#include <vips/vips.h>
#include <libheif/heif.h>

// The decoders' plug-ins, loaded at start-up (a helper, which may open no file
// once it is locked down, cannot load them later). Swift could make these calls,
// but libheif's return a struct by value that is checked here in one line, the
// module folder is found in the dynamic linker's list, and a module must be opened
// through GModule (whose g_module_check_init registers its loaders): so a few
// lines of C keep the Swift side to paths and names.

/// libheif (1.14 on) loads its decoders as plugins, with dlopen, on its first
/// initialisation; it counts its users, so they stay loaded.
static inline void photofiler_heif_initialize(void) {
    struct heif_error error = heif_init(NULL);
    (void)error;  // a libheif without plugins decodes nothing: each file says so
}

/// Loads one libheif plugin file; 0 when it loaded.
static inline int photofiler_heif_load_plugin(const char *path) {
    const struct heif_plugin_info *info = NULL;
    struct heif_error error = heif_load_plugin(path, &info);
    return error.code == heif_error_Ok ? 0 : -1;
}

/// The folder vips_init loads libvips' modules from when VIPSHOME does not move
/// it: "vips-modules-MAJOR.MINOR" beside the libvips that is mapped, found in the
/// dynamic linker's list of loaded objects (`_r_debug`, its debugger interface).
/// Not vips_guess_libdir: it keeps its first answer, so asking it would pin the
/// folder before VIPSHOME is set. 0 when found.
static inline int photofiler_vips_module_folder(char *out, size_t size) {
    for (const struct link_map *object = _r_debug.r_map; object != NULL; object = object->l_next) {
        const char *slash = object->l_name != NULL ? strrchr(object->l_name, '/') : NULL;
        if (slash == NULL || strncmp(slash + 1, "libvips.so", strlen("libvips.so")) != 0) continue;
        int length = snprintf(out, size, "%.*s/vips-modules-%d.%d", (int)(slash - object->l_name),
                              object->l_name, vips_version(0), vips_version(1));
        return length > 0 && (size_t)length < size ? 0 : -1;
    }
    return -1;
}

/// Loads one libvips module as vips_init does (GModule, lazy binding; the module
/// makes itself resident and registers its loaders). 0 when it loaded.
static inline int photofiler_vips_load_module(const char *path) {
    return g_module_open(path, G_MODULE_BIND_LAZY) != NULL ? 0 : -1;
}
