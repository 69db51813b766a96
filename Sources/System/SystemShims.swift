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
