import PhotoFilerGLib
import PhotoFilerMediaTypes
import PhotoFilerSystem

/// The freedesktop thumbnail cache (`$XDG_CACHE_HOME/thumbnails/`, spec 0.9) that
/// GNOME Files, Dolphin and Thunar read before decoding a picture themselves:
/// one PNG per path that shows a file, per size, named by the MD5 of its URI.
public struct DesktopThumbnailCache: Sendable {
    /// The four sizes and their folders.
    public enum Size: Int, Sendable, CaseIterable {
        case normal = 128
        case large = 256
        case xLarge = 512
        case xxLarge = 1024

        var folderName: String {
            switch self {
            case .normal: return "normal"
            case .large: return "large"
            case .xLarge: return "x-large"
            case .xxLarge: return "xx-large"
            }
        }
    }

    /// `$XDG_CACHE_HOME/thumbnails`.
    public let root: BytePath

    public init(root: BytePath) { self.root = root }

    /// The sizes worth writing now. GNOME Files reads one size for every zoom level,
    /// chosen by the largest monitor scale: `large` at 1, `x-large` at 2, `xx-large`
    /// above; it makes only that size's folder. Dolphin (KIO) reads the size of its icon
    /// size times the screen's pixel ratio (`normal` up to 128 px icons, `large` up to
    /// 256 px, its largest, at a ratio of 1), and makes `normal/` and `large/` at its
    /// first thumbnail, `x-large/` and `xx-large/` only on a screen whose ratio is above 1.
    /// So `large` always, and each other size once its folder is there: a file manager
    /// that reads it has made it. Each PNG is most of the cost of an entry (zlib).
    func wantedSizes() -> [Size] {
        Size.allCases.filter { size in
            // A folder that cannot be looked at is not asked for: nothing is written there.
            size == .large || (try? Sys.statusIfExists(root.appending(size.folderName))) != nil
        }
    }

    /// What one path that shows a file needs written: its keys and the sizes
    /// still missing.
    struct Entry {
        var text: [PNGText]
        var missing: [(size: Size, path: BytePath)]
    }

    /// The entry for `absolute` (a roll file or album entry), or nil when all of
    /// `sizes` are there (or the path is gone). `Thumb::MTime` and `Thumb::Size` are the
    /// file's, following a symbolic album entry to its roll file as a file manager does.
    /// What could not be looked at (the path, or a size's PNG) is not missing: it is
    /// left out, and the first such failure is kept in `unreadable` for the caller to report.
    func entry(for absolute: BytePath, sizes: [Size], unreadable: inout SystemError?) -> Entry? {
        guard let uri = FileURI.of(absolute) else { return nil }
        let status: FileStatus
        do {
            guard let found = try Sys.statusIfExists(absolute, followLinks: true) else { return nil }
            status = found
        } catch {
            unreadable = unreadable ?? error
            return nil
        }
        let name = FileURIDigest.md5(uri) + ".png"
        var missing: [(size: Size, path: BytePath)] = []
        for size in sizes {
            let path = root.appending(size.folderName).appending(name)
            do {
                if try Sys.statusIfExists(path) == nil { missing.append((size, path)) }
            } catch {
                unreadable = unreadable ?? error
            }
        }
        guard !missing.isEmpty else { return nil }
        let text = [
            PNGText(key: "Thumb::URI", value: uri),
            PNGText(key: "Thumb::MTime", value: String(status.modificationNanoseconds / 1_000_000_000)),
            PNGText(key: "Thumb::Size", value: String(status.size)),
            PNGText(key: "Software", value: "photofiler"),
        ]
        return Entry(text: text, missing: missing)
    }

    /// Writes one PNG: a temporary name in the same folder (mode 0600), then a
    /// rename, so a file manager never reads half of one. Folders are 0700 (spec).
    func write(_ bytes: [UInt8], to path: BytePath) throws(SystemError) {
        _ = try Sys.makeDirectories(path.parent, mode: 0o700)
        try AtomicFileWrite.write(bytes, to: path, temporaryIn: path.parent, mode: 0o600)
    }
}
