import Foundation
import PhotoFilerCatalog
import PhotoFilerMediaTypes
import PhotoFilerSystem

/// What the pipeline does with one inspected file, decided before anything is
/// written: the pure part of filing, from what the catalog and the group know.
package enum FilingPlan: Equatable, Sendable {
    /// Keep mode: this inbox path was filed before with these very bytes (only its
    /// times or mode changed); nothing is filed, its new times are remembered.
    case alreadySeen
    /// New content: a roll file and a row.
    case new
    /// The content of an asset in Recently Deleted came back: that asset is restored.
    /// (Boxed, like `join`: a record is some 360 bytes, and a plan is in each of a
    /// group's items, most of them new.)
    indirect case restore(AssetRecord)
    /// Known live content (or a Live Photo's video): that asset joins the album.
    indirect case join(AssetRecord)
    /// The same content as the file at this position of the group, filed before it
    /// in the same transaction: it joins that asset.
    case sameAsEarlier(Int)

    /// photofiler(1) "Never lose, never duplicate", in order: keep mode's bytes unchanged at
    /// their path; the same content earlier in the group; a live asset (or a Live
    /// Photo whose video this is); a deleted asset, or a deleted Live Photo whose
    /// video this is and whose still's bytes are in Recently Deleted (its
    /// bytes dropped again bring it back); else new.
    package static func decide(
        hash: String, mode: TransferMode, lastFiledHashAtPath: String?, liveVideoOwner: AssetRecord?,
        existing: AssetRecord?, earlierInGroup: (position: Int, plan: FilingPlan)?
    ) -> FilingPlan {
        if mode == .keep, lastFiledHashAtPath == hash { return .alreadySeen }
        if let earlier = earlierInGroup {
            switch earlier.plan {
            case .new, .restore: return .sameAsEarlier(earlier.position)
            case .join, .alreadySeen, .sameAsEarlier: break
            }
        }
        if let owner = liveVideoOwner, !owner.isDeleted { return .join(owner) }
        if let existing, !existing.isDeleted { return .join(existing) }
        if let owner = restorable(byItsVideo: liveVideoOwner) { return .restore(owner) }
        if let existing { return .restore(existing) }
        return .new
    }

    /// `owner` when it is a deleted Live Photo whose still's bytes Recently Deleted
    /// keeps: its video dropped again brings it back, and in a group the video
    /// counts as that still's content (the two together bring it back once).
    package static func restorable(byItsVideo owner: AssetRecord?) -> AssetRecord? {
        guard let owner, owner.isDeleted, owner.trashPath != nil else { return nil }
        return owner
    }

    /// True when this file's own bytes are linked into the Roll.
    package var placesBytes: Bool {
        switch self {
        case .new, .restore: return true
        case .alreadySeen, .join, .sameAsEarlier: return false
        }
    }

    /// The position of the earlier file of the group whose asset this one joins.
    package var earlierPosition: Int? {
        if case .sameAsEarlier(let position) = self { return position }
        return nil
    }
}

/// What a new asset is, before it has a roll path: the one place its capture date
/// is resolved (photofiler(1) "Capture date": embedded, then a date in the name, then the
/// mtime) and its record is built, for filing and for the reconcile's adoption.
package struct AssetDraft: Sendable, Equatable {
    package let hash: String
    package let size: Int64
    package let info: MediaInfo
    package let originalName: BytePath
    package let modificationNanoseconds: Int64
    package let sourceInbox: String?
    /// Resolved once, when the draft is made: with no plausible date at all it is
    /// the time of filing, and the roll folder and the row must agree on it.
    package let created: CaptureDate

    package init(
        hash: String, size: Int64, info: MediaInfo, originalName: BytePath, modificationNanoseconds: Int64,
        sourceInbox: String?, now: Date = Date()
    ) {
        self.hash = hash
        self.size = size
        self.info = info
        self.originalName = originalName
        self.modificationNanoseconds = modificationNanoseconds
        self.sourceInbox = sourceInbox
        self.created = CaptureDates.resolve(
            embedded: info.embeddedDate, fileName: originalName,
            modificationSeconds: modificationNanoseconds / 1_000_000_000, now: now)
    }

    /// The row to insert once the bytes are at `rollPath`.
    package func record(rollPath: BytePath, addedAt: Double) -> AssetRecord {
        AssetRecord(
            id: 0, rollPath: rollPath, hash: hash, info: info, created: created, addedAt: addedAt, size: size,
            originalName: originalName, sourceInbox: sourceInbox)
    }
}

/// How a group makes its writes durable: one `syncfs` for a large group (all of it
/// lies on the library's file system, and one call costs far less than an `fsync`
/// per file), else an `fdatasync` per file and an `fsync` per touched folder, so that a single
/// drop never waits for other programs' writes to the same disk.
package enum GroupDurability: Equatable, Sendable {
    case perFile
    case wholeFileSystem

    /// From this many files whose bytes enter the Roll, a group syncs the file system.
    package static let syncfsGroupSize = 8

    package init(filesPlacingBytes count: Int) {
        self = count >= Self.syncfsGroupSize ? .wholeFileSystem : .perFile
    }

    /// Step 2 of filing for `files`, which lie on the file system of `library`: one
    /// `syncfs` for a large group, else an `fdatasync` each (their bytes and size;
    /// their new names are made durable by their folders' `fsync`).
    package static func makeBytesDurable(_ files: [FileDescriptor], library: BytePath) throws(SystemError) {
        switch GroupDurability(filesPlacingBytes: files.count) {
        case .wholeFileSystem:
            try Sys.syncFileSystem(containing: library)
        case .perFile:
            for fd in files { try fd.syncData() }
        }
    }
}

/// Memberships planned in one group, so that the same content twice into one album
/// links once (keyed by the asset's content hash: a new asset has no id yet).
package struct PlannedMemberships: Sendable {
    private struct Membership: Hashable, Sendable {
        let album: AlbumID
        let hash: String
    }

    private var planned: Set<Membership> = []

    package init() {}

    /// True the first time this content is planned into this album.
    package mutating func claim(hash: String, album: AlbumID) -> Bool {
        planned.insert(Membership(album: album, hash: hash)).inserted
    }
}
