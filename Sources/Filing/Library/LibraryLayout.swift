import Foundation
import PhotoFilerCatalog
import PhotoFilerMediaTypes
import PhotoFilerSystem

/// Where everything lives inside one library folder (ARCHITECTURE.md "The library on disk").
///
/// Catalog rows store paths relative to `root`, so a library that is moved or
/// renamed keeps its assets.
public struct LibraryLayout: Sendable, Hashable {
    /// Absolute, without a trailing slash.
    public let root: BytePath

    public static let rollFolderName: BytePath = "Roll"
    public static let albumsFolderName: BytePath = "Albums"
    public static let recentlyDeletedFolderName: BytePath = "Recently Deleted"
    public static let internalFolderName: BytePath = ".photofiler"

    public init(root: BytePath) {
        self.root = LibraryLayout.absolute(root)
    }

    public var roll: BytePath { root.appending(Self.rollFolderName) }
    public var albums: BytePath { root.appending(Self.albumsFolderName) }
    public var recentlyDeleted: BytePath { root.appending(Self.recentlyDeletedFolderName) }
    /// Private to photofiler: the catalog, the lock, temporary files.
    public var internalFolder: BytePath { root.appending(Self.internalFolderName) }
    /// The only place a partial file may ever exist (same file system as the Roll, so a
    /// finished copy is linked into place, never written there).
    public var temporary: BytePath { internalFolder.appending("tmp") }
    public var catalogPath: BytePath { internalFolder.appending("catalog.sqlite") }
    public var lockPath: BytePath { internalFolder.appending("daemon.lock") }
    /// Held shared while a deletion links into Recently Deleted and records it, and
    /// exclusively to remove the names such a change left when cut short.
    public var recentlyDeletedLockPath: BytePath { internalFolder.appending("recently-deleted.lock") }

    /// A dot name, which photofiler never gives to a roll folder, a roll file or an
    /// album entry (`NameAllocator` drops leading dots): a file manager's
    /// `.directory` or `.DS_Store`, a sync engine's `.stfolder` or `.stversions/`.
    /// The comparisons of the Roll and the albums leave such folders alone, and such
    /// files unless the catalog has them (filed under that name by an older version):
    /// neither adopted nor reported, as an inbox leaves them.
    public static func isForeignName(_ name: BytePath) -> Bool {
        name.bytes.first == UInt8(ascii: ".")
    }

    /// An absolute path for a path stored relative to the root.
    public func absolute(_ relative: BytePath) -> BytePath { root.appending(relative) }

    /// The path relative to the root, or nil when it lies outside the library.
    public func relative(_ absolute: BytePath) -> BytePath? {
        let path = LibraryLayout.normalize(LibraryLayout.absolute(absolute))
        guard path.isWithin(root), path != root else { return nil }
        return path.relative(from: root)
    }

    /// `Roll/YYYY/MM`, relative, for a capture date shown in its own offset (else `timeZone`).
    public func rollFolder(for date: CaptureDate, timeZone: TimeZone = .current) -> BytePath {
        let offset =
            date.utcOffsetSeconds
            ?? timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(date.secondsSinceEpoch)))
        // Civil arithmetic, not a Calendar and String(format:): this runs for every filed file.
        let (year, month) = CivilDate.yearAndMonth(
            ofSecondsSinceEpoch: date.secondsSinceEpoch + Int64(offset))
        return Self.rollFolderName.appending(Self.zeroPadded(year, width: 4))
            .appending(Self.zeroPadded(month, width: 2))
    }

    private static func zeroPadded(_ value: Int, width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    /// The folder of a user album.
    public func albumFolder(_ album: AlbumRecord) -> BytePath {
        albums.appending(album.folderName)
    }

    /// Creates the library's folders when missing.
    public func create() throws(SystemError) {
        for folder in [root, roll, albums, recentlyDeleted, internalFolder, temporary] {
            try Sys.makeDirectories(folder)
        }
    }

    /// Makes a path absolute against the working directory (no symlink resolution).
    public static func absolute(_ path: BytePath) -> BytePath {
        if path.isAbsolute { return normalize(path) }
        return normalize(Sys.currentDirectory().appending(path))
    }

    /// Removes `.` components, resolves `..` textually and drops trailing slashes.
    public static func normalize(_ path: BytePath) -> BytePath {
        // Paths from the watcher and from `readdir` are spelled normally already:
        // each filed file is asked here twice, and is then spared the rebuild.
        if isNormal(path) { return path }
        var parts: [BytePath] = []
        for part in path.components {
            if part.bytes == [UInt8(ascii: ".")] { continue }
            if part.bytes == [UInt8(ascii: "."), UInt8(ascii: ".")] {
                if !parts.isEmpty { parts.removeLast() }
                continue
            }
            parts.append(part)
        }
        var bytes: [UInt8] = path.isAbsolute ? [UInt8(ascii: "/")] : []
        for (index, part) in parts.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: "/")) }
            bytes.append(contentsOf: part.bytes)
        }
        return BytePath(bytes: bytes.isEmpty ? Array(".".utf8) : bytes)
    }

    /// True when `normalize` would give `path` back as it is: `/`, or components that
    /// are neither empty (`//`, a trailing slash) nor `.` nor `..`. One pass, nothing
    /// allocated: it is asked of every file filed.
    private static func isNormal(_ path: BytePath) -> Bool {
        let bytes = path.bytes
        let slash = UInt8(ascii: "/")
        if bytes.count == 1, bytes[0] == slash { return true }
        var start = path.isAbsolute ? 1 : 0
        for end in start...bytes.count where end == bytes.count || bytes[end] == slash {
            let component = bytes[start..<end]
            let dots = component.count <= 2 && component.allSatisfy { $0 == UInt8(ascii: ".") }
            if component.isEmpty || dots { return false }
            start = end + 1
        }
        return true
    }
}
