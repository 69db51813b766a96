import PhotoFilerSystem

/// Which contents have their thumbnails settled (both sizes made, or known to be
/// undecodable), from one listing of each shard folder under `.photofiler/thumbnails/`
/// instead of up to three `stat`s per asset: `status` on a million assets took 6.9 s
/// that way, and every daemon start did the same in the background.
///
/// A content is kept as the first 64 bits of its hash, 8 bytes an asset: two of a
/// library's hashes share them with a chance of about n²/2⁶⁵ (3 in 100 million at a
/// million assets), and the cost of that is one thumbnail left to be made on demand.
/// A listed name counts as made: thumbnails are renamed into place whole
/// (`AtomicFileWrite`), and `ThumbnailStore.ensure` still checks the file it serves.
struct SettledThumbnails {
    private var settled: Set<UInt64> = []
    /// Shard folders (two hex digits) that are there but could not be listed, or
    /// every one when `thumbnails/` itself could not be: their contents are asked
    /// file by file, since what could not be looked at is not missing. Each keeps
    /// why its listing failed, the one error to report when a file in it cannot be
    /// looked at either (not one per asset).
    private var unlisted: [String: SystemError] = [:]
    private var nothingListed: SystemError?
    private let files: ThumbnailFiles

    /// Lists every shard folder; a missing `thumbnails/` folder means nothing is made.
    /// `stop` is asked between two shards (a daemon stopping mid-scan): the shards not
    /// listed then count as pending, which no one reads, since the caller stops too.
    init(files: ThumbnailFiles, stop: () -> Bool = { false }) {
        self.files = files
        let shards: [Sys.DirectoryEntry]
        do {
            shards = try Sys.listDirectory(files.folder)
        } catch  where error.errno == .noSuchFile {
            return
        } catch {
            nothingListed = error
            return
        }
        for shard in shards where shard.name.bytes.count == 2 {
            if stop() { return }
            do {
                try record(Sys.listDirectory(files.folder.appending(shard.name)))
            } catch {
                unlisted[shard.name.display] = error
            }
        }
    }

    /// Missing at some size and not marked undecodable. Throws, as `.couldNotLook` of
    /// the folder that could not be listed, when its files could not be looked at either.
    func isPending(hash: String) throws(ThumbnailError) -> Bool {
        if let failure = nothingListed ?? (unlisted.isEmpty ? nil : unlisted[String(hash.prefix(2))]) {
            do {
                return try files.isPending(hash: hash)
            } catch {
                throw .couldNotLook(failure, isFolder: true)
            }
        }
        guard let prefix = Self.prefix(ofHex: hash.utf8) else {
            do {
                return try files.isPending(hash: hash)
            } catch {
                throw .couldNotLook(error)
            }
        }
        return !settled.contains(prefix)
    }

    /// One shard's names: `<hash>-256.jpg`, `<hash>-1024.jpg`, `<hash>.failed`.
    private mutating func record(_ entries: [Sys.DirectoryEntry]) {
        var made: [UInt64: UInt8] = [:]
        for entry in entries {
            let name = entry.name.bytes
            guard name.count > 64, let prefix = Self.prefix(ofHex: name[..<64]) else { continue }
            switch String(decoding: name[64...], as: UTF8.self) {
            case "-\(ThumbnailSize.grid.rawValue).jpg": made[prefix, default: 0] |= 1
            case "-\(ThumbnailSize.viewing.rawValue).jpg": made[prefix, default: 0] |= 2
            case ".failed": made[prefix, default: 0] |= 4
            default: continue
            }
        }
        for (prefix, sizes) in made where sizes & 3 == 3 || sizes & 4 != 0 { settled.insert(prefix) }
    }

    /// The first 16 lowercase hex digits as a number; nil when they are not that.
    private static func prefix<Digits: Collection<UInt8>>(ofHex digits: Digits) -> UInt64? {
        var value: UInt64 = 0
        var count = 0
        for digit in digits.prefix(16) {
            switch digit {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = value << 4 | UInt64(digit - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"):
                value = value << 4 | UInt64(digit - UInt8(ascii: "a") + 10)
            default: return nil
            }
            count += 1
        }
        return count == 16 ? value : nil
    }
}
