import PhotoFilerMediaTypes
import PhotoFilerSystem

/// An asset's stable id: assigned once, never changed, never reused (AUTOINCREMENT).
public typealias AssetID = Int64
/// An album's stable id: albums are found by it, never by title.
public typealias AlbumID = Int64

/// One asset as the catalog knows it.
public struct AssetRecord: Sendable, Equatable {
    public var id: AssetID
    /// Relative to the library root, e.g. `Roll/2023/12/IMG_0001.jpg`; kept relative so a
    /// moved or renamed library keeps its assets.
    public var rollPath: BytePath
    /// SHA-256 of the content, 64 lowercase hex digits.
    public var hash: String
    public var info: MediaInfo
    /// The resolved capture date (photofiler(1) "Capture date" already applied).
    public var created: CaptureDate
    /// When it entered the library, seconds since the epoch (UTC).
    public var addedAt: Double
    public var size: Int64
    /// The file name it arrived with, as bytes.
    public var originalName: BytePath
    /// The inbox (album name) or `save` that brought it; nil when rebuilt from disk.
    public var sourceInbox: String?
    public var favorite: Bool
    /// Hidden from every listing but the Hidden smart album and `info` (`photofiler hide`).
    public var hidden: Bool
    /// Set while the asset is deleted (in Recently Deleted, or its roll file removed).
    public var deletedAt: Double?
    /// Relative path under `Recently Deleted/` while the bytes are kept there; nil when the
    /// bytes are gone (the roll file was removed by hand).
    public var trashPath: BytePath?
    /// A Live Photo's video (subtype `live`); a motion photo's comes from its `info`.
    public var liveVideo: LiveVideoRecord?

    public init(
        id: AssetID, rollPath: BytePath, hash: String, info: MediaInfo, created: CaptureDate,
        addedAt: Double, size: Int64, originalName: BytePath, sourceInbox: String?,
        favorite: Bool = false, hidden: Bool = false, deletedAt: Double? = nil, trashPath: BytePath? = nil,
        liveVideo: LiveVideoRecord? = nil
    ) {
        self.id = id
        self.rollPath = rollPath
        self.hash = hash
        self.info = info
        self.created = created
        self.addedAt = addedAt
        self.size = size
        self.originalName = originalName
        self.sourceInbox = sourceInbox
        self.favorite = favorite
        self.hidden = hidden
        self.deletedAt = deletedAt
        self.trashPath = trashPath
        self.liveVideo = liveVideo ?? info.live.embeddedVideo.map(LiveVideoRecord.init(embedded:))
    }

    public var isDeleted: Bool { deletedAt != nil }

    /// Where its bytes are now (relative): in Recently Deleted while it waits there,
    /// else its roll path.
    public var currentPath: BytePath { trashPath ?? rollPath }
}

/// A user album: a folder under `Albums/` whose entries link to roll files.
public struct AlbumRecord: Sendable, Equatable, Hashable {
    public var id: AlbumID
    /// NFC-normalised; compared exactly.
    public var name: String
    /// The folder's name under `Albums/` (the name's UTF-8 bytes).
    public var folderName: BytePath
    public var createdAt: Double

    public init(id: AlbumID, name: String, folderName: BytePath, createdAt: Double) {
        self.id = id
        self.name = name
        self.folderName = folderName
        self.createdAt = createdAt
    }
}

/// An asset's place in an album.
public struct MembershipRecord: Sendable, Equatable {
    public var assetID: AssetID
    public var albumID: AlbumID
    /// The entry's file name inside the album folder.
    public var entryName: BytePath
    public var addedAt: Double
    /// Set when the entry was removed (by hand or `rm --album`): the membership has
    /// ended and no scan of a keep-mode inbox brings it back.
    public var removedAt: Double?
    /// A Live Photo's second entry in the album: the link to its paired video.
    public var videoEntryName: BytePath?
    /// The entry was a symbolic link when its asset went to Recently Deleted
    /// (`restore` makes it again as one); false until then.
    public var symbolic: Bool

    public init(
        assetID: AssetID, albumID: AlbumID, entryName: BytePath, addedAt: Double, removedAt: Double? = nil,
        videoEntryName: BytePath? = nil, symbolic: Bool = false
    ) {
        self.assetID = assetID
        self.albumID = albumID
        self.entryName = entryName
        self.addedAt = addedAt
        self.removedAt = removedAt
        self.videoEntryName = videoEntryName
        self.symbolic = symbolic
    }

    public var isActive: Bool { removedAt == nil }
}

/// The albums the catalog computes rather than stores, in the order a phone lists
/// its media types (`albums` lists each, even when empty).
public enum SmartAlbum: String, Sendable, CaseIterable {
    case videos = "Videos"
    case livePhotos = "Live Photos"
    case animated = "Animated"
    case screenshots = "Screenshots"
    case panoramas = "Panoramas"
    case selfies = "Selfies"
    case portraits = "Portraits"
    case bursts = "Bursts"
    case slomo = "Slo-mo"
    case timelapse = "Time-lapse"
    case raw = "RAW"
    case recentlyAdded = "Recently Added"
    case favorites = "Favorites"
    case hidden = "Hidden"
    case recentlyDeleted = "Recently Deleted"
}

/// An album with what `photofiler albums` shows of it.
public struct AlbumSummary: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        case user(AlbumRecord)
        case smart(SmartAlbum)
    }
    public var kind: Kind
    /// Members that are not deleted (for Recently Deleted: the deleted assets).
    public var count: Int
    /// The newest added member, nil when empty.
    public var cover: AssetID?

    public init(kind: Kind, count: Int, cover: AssetID?) {
        self.kind = kind
        self.count = count
        self.cover = cover
    }

    public var name: String {
        switch kind {
        case .user(let album): return album.name
        case .smart(let smart): return smart.rawValue
        }
    }
}

/// What `list` asks for. Deleted assets are left out unless the smart album is Recently Deleted,
/// hidden ones unless it is Hidden.
public struct AssetQuery: Sendable, Equatable {
    public enum Sort: String, Sendable { case added, created }

    public var album: AlbumID?
    public var smartAlbum: SmartAlbum?
    public var mediaType: MediaType?
    public var sort: Sort
    public var limit: Int?
    /// "Now", for Recently Added (30 days).
    public var now: Double
    /// The gallery's narrower views (a page after a cursor, a month, a search).
    public var refinements = AssetRefinements()

    public init(
        album: AlbumID? = nil, smartAlbum: SmartAlbum? = nil, mediaType: MediaType? = nil,
        sort: Sort = .added, limit: Int? = nil, now: Double
    ) {
        self.album = album
        self.smartAlbum = smartAlbum
        self.mediaType = mediaType
        self.sort = sort
        self.limit = limit
        self.now = now
    }
}
