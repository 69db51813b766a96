import Glibc
import PhotoFilerCatalog
import PhotoFilerMediaTypes
import PhotoFilerSystem

extension Filer {
    /// Step 1 on the filer's own queue, for a request the inspector left to it (keep
    /// and copy modes, another file system, another user's file): keep mode's file
    /// with the size and mtime it was filed with is skipped without being read (nil);
    /// any other is read by a helper and hashed, and copied (synced) into
    /// `.photofiler/tmp` while hashing when its source must stay or cannot be linked,
    /// so the file is read once. Returns the file, its descriptor open, and the copy.
    /// `stop` is asked between reads (`Errno.cancelled` once it says so).
    func stage(_ request: FilingRequest, stop: () -> Bool) throws(FilingError) -> (
        file: InspectedFile, copy: BytePath?
    )? {
        let (source, fd, before) = try inspector.openSource(request)
        var handedOver = false
        defer { if !handedOver { fd.close() } }
        if request.mode == .keep {
            let seen = try catalogCall { () throws(CatalogError) in
                try catalog.hasSeenSource(
                    path: source, size: before.size, modificationNanoseconds: before.modificationNanoseconds)
            }
            if seen { return nil }
        }
        let info = try inspector.readMedia(fd, source: source, size: before.size)
        var scan = EndMarkerScans(mimeType: info.mimeType)
        var copy: BytePath? = nil
        do throws(FilingError) {
            let hashed: (hash: String, size: Int64)
            if inspector.mustCopy(request, status: before, fd: fd) {
                let path = nextTemporaryPath()
                let out = try systemCall(source) { () throws(SystemError) in
                    try Sys.createExclusive(path, mode: 0o644)
                }
                copy = path
                defer { out.close() }
                hashed = try systemCall(source) { () throws(SystemError) in
                    try inspector.copier.copy(fd, path: source, to: out, scanning: &scan, stop: stop)
                }
            } else {
                hashed = try systemCall(source) { () throws(SystemError) in
                    try inspector.copier.hash(
                        fd, path: source, scanning: &scan, size: before.size, stop: stop)
                }
            }
            try inspector.verifyEnd(scan, mimeType: info.mimeType, source: source)
            try inspector.checkUnchanged(fd, source: source, before: before, bytesRead: hashed.size)
            handedOver = true
            let file = InspectedFile(
                request: request, source: source, fd: fd, status: before, info: info, hash: hashed.hash,
                size: hashed.size)
            return (file, copy)
        } catch {
            if let copy { removeStagedCopy(copy) }
            throw error
        }
    }

    /// A copy in `.photofiler/tmp` is only ever a temporary name: once linked into the
    /// Roll (or not needed), it goes. A failure leaves a file that the next start-up
    /// clears from `.photofiler/tmp`, so it is only logged.
    func removeStagedCopy(_ path: BytePath) {
        do {
            try Sys.unlinkIfPresent(path)
        } catch {
            log.debug("The temporary copy '\(path.display)' could not be removed (\(error.errno.message)).")
        }
    }

    func nextTemporaryPath() -> BytePath {
        temporaryCounter += 1
        return layout.temporary.appending("filing-\(getpid())-\(temporaryCounter).tmp")
    }
}
