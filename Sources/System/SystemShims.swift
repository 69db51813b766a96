import CSystemShims

extension Sys {
    /// Gives freed heap memory back to the system: after a start-up that built tables
    /// as large as the library, an idle daemon should not keep that peak resident.
    public static func returnFreeMemory() {
        _ = photofiler_malloc_trim(0)
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
