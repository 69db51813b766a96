import CSystemShims

extension Sys {
    /// Gives freed heap memory back to the system: after a start-up that built tables
    /// as large as the library, an idle daemon should not keep that peak resident.
    public static func returnFreeMemory() {
        _ = photofiler_malloc_trim(0)
    }

    /// At most `count` malloc arenas. glibc gives a thread that meets a locked arena
    /// a new one, each reserving 64 MiB of address space, up to eight per core: a
    /// process under `RLIMIT_AS` with many threads (the decoders') must not let
    /// contention spend its limit. Called before any thread starts.
    public static func limitMallocArenas(_ count: Int) {
        _ = photofiler_limit_malloc_arenas(CInt(count))
    }

    /// Large allocations mapped on their own, always. glibc otherwise raises the
    /// threshold to the size of each large block freed (up to 32 MiB), so a decoder's
    /// next planes come from the heap, where freed pages stay resident: a 48-megapixel
    /// HEIC's thumbnail peaked 70 MB higher that way (measured in the helper).
    public static func mapLargeAllocations(from bytes: Int) {
        _ = photofiler_fix_malloc_mmap_threshold(CInt(bytes))
    }

    /// Freed memory at the top of the heap kept for reuse up to `bytes`. Fixing the
    /// mmap threshold also fixes this one at glibc's 128 KiB, and a helper reading
    /// one file after another then gave its heap back and faulted it in again for
    /// every file (three `brk` calls a file, measured with `strace -f` on a burst).
    public static func keepFreedHeap(upTo bytes: Int) {
        _ = photofiler_fix_malloc_trim_threshold(CInt(bytes))
    }

    /// `syncfs`: makes everything written to the file system holding `path` durable in
    /// one call — file contents and folder entries alike. A group of files filed
    /// together pays this once instead of an `fsync` per file and per folder.
    public static func syncFileSystem(containing path: BytePath) throws(SystemError) {
        let fd = try openDirectory(path)
        defer { fd.close() }
        try FaultInjection.mutating("syncfs") { () throws(SystemError) in
            try check("syncfs", path) { photofiler_syncfs(fd.rawValue) }
        }
    }
}
