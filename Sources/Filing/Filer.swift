import Foundation
import PhotoFilerCatalog
import PhotoFilerMediaTypes
import PhotoFilerSandbox
import PhotoFilerSystem

/// Files content into the library: the one way it enters it (the pipeline's steps
/// are in `Filer+Pipeline.swift`).
///
/// Not thread-safe: it owns a catalog connection, an inspector and a buffer, so its
/// owner confines it to one serial queue.
public final class Filer: LibraryScoped {
    public let layout: LibraryLayout
    public let catalog: Catalog
    /// Opens, checks, sniffs and hashes sources (its helpers started on first use).
    package let inspector: FileInspector
    package let albums: AlbumLinker
    package let log: Logger
    /// Numbers this process's temporary copies in `.photofiler/tmp`.
    var temporaryCounter = 0
    /// Where disks were mounted at the last reconcile; nil until read (`Filer+UnmountedDisks`).
    var mountPoints: MountPoints?
    /// The clock, replaceable in tests.
    public var now: () -> Double = { Date().timeIntervalSince1970 }

    public init(layout: LibraryLayout, catalog: Catalog, helpers: HelperPool = .shared, log: Logger)
        throws(SystemError)
    {
        self.layout = layout
        self.catalog = catalog
        self.log = log
        self.albums = AlbumLinker(layout: layout, catalog: catalog, log: log)
        self.inspector = try FileInspector(layout: layout, helpers: helpers)
    }

    /// Links a roll file into an album and syncs the album folder: the entry's name
    /// (the reconcile's repairs, one entry at a time).
    package func linkAndSync(_ rollPath: BytePath, into album: AlbumRecord, kind: LinkKind, source: BytePath)
        throws(FilingError) -> BytePath
    {
        try systemCall(source) { () throws(SystemError) -> BytePath in
            let entry = try albums.link(rollPath: rollPath, into: album, kind: kind)
            try Sys.syncDirectory(layout.albumFolder(album))
            return entry
        }
    }

    /// The albums asset `id` is a member of now, each with its membership (entry
    /// names, link kind): the one walk every step that touches its entries takes.
    package func activeMemberships(of id: AssetID) throws(FilingError) -> [(
        membership: MembershipRecord, album: AlbumRecord
    )] {
        try catalogCall { () throws(CatalogError) in
            var result: [(membership: MembershipRecord, album: AlbumRecord)] = []
            for membership in try catalog.memberships(ofAsset: id) where membership.isActive {
                if let album = try catalog.album(id: membership.albumID) {
                    result.append((membership, album))
                }
            }
            return result
        }
    }

    /// The albums a restored asset goes back into, each entry of the kind it had when
    /// the asset was deleted (a deletion leaves its memberships active): the rule
    /// for `restore`, bytes dropped again, and the reconcile finishing a restore.
    package func albumsToRestore(of id: AssetID) throws(FilingError) -> [(album: AlbumRecord, kind: LinkKind)]
    {
        try activeMemberships(of: id).map { ($0.album, $0.membership.symbolic ? .symbolic : .hard) }
    }

    package func catalogCall<R>(_ body: () throws(CatalogError) -> R) throws(FilingError) -> R {
        do {
            return try body()
        } catch {
            throw .catalog(error)
        }
    }
}
