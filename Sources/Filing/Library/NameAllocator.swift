import PhotoFilerSystem

/// Finds a free name in a folder without check-then-act races: every attempt is a
/// `link`/`symlink` that fails with EEXIST rather than replace, and the next
/// candidate is tried (`IMG_0001.jpg`, `IMG_0001-1.jpg`, `IMG_0001-2.jpg` …).
public enum NameAllocator {
    /// The longest name Linux file systems accept.
    package static let maximumNameBytes = 255

    /// The `attempt`-th candidate for `name`: the name itself first, then a numbered
    /// suffix before the extension, shortening the stem so the result fits 255 bytes.
    /// Leading dots are dropped (`save .IMG_1.jpg` files `IMG_1.jpg`): a dot name in
    /// the Roll or an album is a file manager's or a sync engine's, not the library's
    /// (`LibraryLayout.isForeignName`).
    public static func candidate(for name: BytePath, attempt: Int) -> BytePath {
        let undotted = name.bytes.drop { $0 == UInt8(ascii: ".") }
        let bytes = undotted.isEmpty ? ArraySlice("unnamed".utf8) : undotted
        // The first candidate of a name that fits is the name: no copy (one is made for every file filed).
        if attempt == 0, bytes.count == name.bytes.count, bytes.count <= maximumNameBytes { return name }
        var stem = bytes
        var ext = bytes[bytes.endIndex...]
        if let dot = bytes.lastIndex(of: UInt8(ascii: ".")), dot > bytes.startIndex,
            bytes.endIndex - dot <= 16
        {
            stem = bytes[..<dot]
            ext = bytes[dot...]
        }
        let suffix: [UInt8] = attempt == 0 ? [] : Array("-\(attempt)".utf8)
        let room = maximumNameBytes - suffix.count - ext.count
        var result: [UInt8] = []
        result.reserveCapacity(min(stem.count, room) + suffix.count + ext.count)
        result.append(contentsOf: stem.count > room ? truncateKeepingUTF8(stem, to: room) : stem)
        result.append(contentsOf: suffix)
        result.append(contentsOf: ext)
        return BytePath(bytes: result)
    }

    /// Tries `place(candidate)` with successive candidates until one does not exist.
    /// `place` must fail with EEXIST when the name is taken (link, symlink, O_EXCL).
    public static func allocate(
        preferred name: BytePath, place: (BytePath) throws(SystemError) -> Void
    ) throws(SystemError) -> BytePath {
        var attempt = 0
        while true {
            let candidate = candidate(for: name, attempt: attempt)
            do {
                try place(candidate)
                return candidate
            } catch  where error.errno == .exists {
                attempt += 1
                if attempt > 100_000 { throw error }
            }
        }
    }

    /// Hard-links `file` into `folder` under `preferred` or a free variant, as
    /// `allocate` does, except that a candidate already naming this very file (same
    /// device and inode: the link of an attempt that a crash cut short) is taken as
    /// it is, so that trying again never makes a second name for one file.
    package static func hardLink(_ file: BytePath, into folder: BytePath, preferred: BytePath)
        throws(SystemError) -> BytePath
    {
        // Looked at only once a name is taken: most links take the first candidate.
        var original: FileStatus?
        return try allocate(preferred: preferred) { (candidate) throws(SystemError) in
            let name = folder.appending(candidate)
            do throws(SystemError) {
                try Sys.link(file, to: name)
            } catch  where error.errno == .exists {
                let linked: FileStatus
                if let original {
                    linked = original
                } else {
                    linked = try Sys.status(file)
                }
                original = linked
                guard let there = try Sys.statusIfExists(name), there.isSameFile(as: linked) else {
                    throw error
                }
            }
        }
    }

    /// `hardLink`'s rule for a relative symbolic link: a candidate that already is a
    /// symbolic link to `target` is taken as it is.
    package static func symbolicLink(to target: BytePath, into folder: BytePath, preferred: BytePath)
        throws(SystemError) -> BytePath
    {
        try allocate(preferred: preferred) { (candidate) throws(SystemError) in
            let name = folder.appending(candidate)
            do throws(SystemError) {
                try Sys.symbolicLink(target: target, at: name)
            } catch  where error.errno == .exists {
                guard try Sys.statusIfExists(name)?.isSymbolicLink == true, try Sys.readLink(name) == target
                else { throw error }
            }
        }
    }

    /// Cuts at a byte count without splitting a UTF-8 sequence (non-UTF-8 bytes cut anywhere).
    private static func truncateKeepingUTF8(_ bytes: ArraySlice<UInt8>, to count: Int) -> ArraySlice<UInt8> {
        guard bytes.count > count else { return bytes }
        var end = bytes.startIndex + max(count, 0)
        // Back up over continuation bytes (10xxxxxx) so a character is never split.
        while end > bytes.startIndex, end < bytes.endIndex, bytes[end] & 0xC0 == 0x80 { end -= 1 }
        return bytes[..<end]
    }
}
