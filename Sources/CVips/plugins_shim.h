#include <link.h>
#include <gmodule.h>
#include <libheif/heif.h>

// The decoders' plug-ins, loaded at start-up (a helper, which may open no file
// once it is locked down, cannot load them later; Sources/Decoders/PhotoPlugins.swift).

/// libheif (1.14 on) loads its decoders as plugins, with dlopen, on its first
/// initialisation; it counts its users, so they stay loaded.
static inline void photofiler_heif_initialize(void) {
    struct heif_error error = heif_init(NULL);
    (void)error;  // a libheif without plugins decodes nothing: each file says so
}

/// The dynamic linker's list of loaded objects (`_r_debug`, its debugger
/// interface), where PhotoPlugins finds the libvips that is mapped. Swift 6
/// refuses to read a mutable C global, hence this accessor.
static inline const struct link_map *photofiler_loaded_objects(void) {
    return _r_debug.r_map;
}
