// The benchmark's floor, in C: the same work photofiler does for a burst (read and
// SHA-256 each file, rename it into the Roll, link it into its album, batched SQLite
// inserts), with nothing around it, so the ratios compare photofiler with what the
// hardware allows rather than with another program's overhead.
#ifndef PHOTOFILER_BENCH_FLOOR_H
#define PHOTOFILER_BENCH_FLOOR_H

#include <stddef.h>

/// One file of the burst: where it lies and where it goes.
struct bench_floor_file {
    const char *source;       // absolute path in its inbox
    const char *roll_folder;  // absolute Roll/YYYY/MM folder (made by the floor when missing)
    const char *album_folder; // absolute Albums/NAME folder (exists)
    const char *name;         // file name in both
    const char *album;        // album name, stored in the row
};

/// How durable the floor is.
enum bench_floor_durability {
    /// No fsync, SQLite synchronous=OFF.
    BENCH_FLOOR_NONE = 0,
    /// An fsync per file and per touched folder, SQLite synchronous=FULL.
    BENCH_FLOOR_PER_FILE = 1,
};

/// Files `count` files; returns 0, or -1 with `error` (of `error_size` bytes) set.
int bench_floor_run(const char *database, const struct bench_floor_file *files, size_t count,
                    enum bench_floor_durability durability, char *error, size_t error_size);

#endif
