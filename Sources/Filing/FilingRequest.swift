import PhotoFilerCatalog
import PhotoFilerSystem

/// What happens to the inbox copy once its asset is durable in the library.
public enum TransferMode: Sendable, Equatable {
    /// Removed once the roll file, the album link and the catalog row are durable.
    case move
    /// Left in place; the same path with the same size and mtime is never filed twice,
    /// and an asset taken out of the album is not put back by its inbox copy.
    case keep
    /// Left in place, without keep's bookkeeping: `photofiler save` without `--move`.
    case copy
}

/// One file to file, and where.
public struct FilingRequest: Sendable, Equatable {
    /// Absolute path of the file to file.
    public var source: BytePath
    /// The album it joins; nil for `save` without `--album`.
    public var album: AlbumName?
    /// The inbox (or "save") it came from, recorded with the asset.
    public var origin: String?
    public var mode: TransferMode
    public var link: LinkKind

    public init(source: BytePath, album: AlbumName?, origin: String?, mode: TransferMode, link: LinkKind) {
        self.source = source
        self.album = album
        self.origin = origin
        self.mode = mode
        self.link = link
    }
}

/// What filing one file did.
public struct FilingResult: Sendable {
    public enum Outcome: Sendable, Equatable {
        /// A new asset entered the Roll.
        case filed
        /// Known content: no second roll file; `joinedAlbum` says whether the album gained it.
        case duplicate(joinedAlbum: Bool)
        /// The content of an asset in Recently Deleted came back: the asset is restored.
        case restored
        /// Keep mode: this exact inbox file (path, size, mtime) was filed before; not read.
        case alreadySeen
    }

    public var outcome: Outcome
    /// The asset (nil only for `alreadySeen`).
    public var asset: AssetRecord?
    public var album: AlbumRecord?
    /// Where the filed file is in the Roll when that is not the asset's own roll
    /// path: a Live Photo's video that joined its still.
    public var pairedVideoPath: BytePath?
    /// Move mode: the inbox file changed after it was read (saved again, or only its
    /// times touched) and stayed in its inbox; the daemon looks at it again.
    public var sourceStayedChanged = false

    /// The roll path of the file this request filed.
    public var rollPath: BytePath? { pairedVideoPath ?? asset?.rollPath }
}
