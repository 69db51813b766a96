import Foundation
import Glibc
import PhotoFilerCatalog
import PhotoFilerMediaTypes
import PhotoFilerSystem
import TestSupport
import Testing

@testable import PhotoFilerFiling

/// The daemon's reconcile reads only the folders changed since the last one
/// (Schema.folderStamps), and still finds every change made while it was down.
@Suite
struct FolderStampTests {
    /// A library made directly (rows and files, no helpers): `Roll/2020/01` holds
    /// a.jpg and b.jpg, `Roll/2021/02` holds c.jpg; album QQ links a and c, WeChat links b.
    final class Scene {
        let folder: TemporaryFolder
        let library: PhotoLibrary
        var ids: [String: AssetID] = [:]
        var albums: [String: AlbumRecord] = [:]
        /// The clock the reconciles see: an hour after the files were made, so every
        /// folder's last change is older than a coarse timestamp tick.
        var clock: Int64 = FolderWalk.clock() + 3_600_000_000_000

        init() throws {
            folder = try TemporaryFolder()
            library = try PhotoLibrary(root: folder.file("library"), log: Logger(minimumLevel: .error))
            let catalog = library.catalog
            for name in ["QQ", "WeChat"] {
                albums[name] = try catalog.createAlbum(name: name, folderName: BytePath(name), at: 0)
                try Sys.makeDirectories(library.layout.albums.appending(name))
            }
            for (name, folder, album) in [
                ("a", "2020/01", "QQ"), ("b", "2020/01", "WeChat"), ("c", "2021/02", "QQ"),
            ] {
                ids[name] = try placeAsset(
                    Array("folder stamp asset \(name)\n".utf8), at: BytePath("Roll/\(folder)/\(name).jpg"),
                    entry: BytePath("\(name).jpg"), album: albums[album]!, in: library)
            }
        }

        var reconciler: Reconciler {
            var reconciler = library.reconciler
            let clock = self.clock
            reconciler.clock = { clock }
            return reconciler
        }

        func reconcile() throws -> Reconciler.Summary {
            try reconciler.reconcileChangedFolders { _ in }
        }

        func path(_ relative: String) -> BytePath { library.layout.root.appending(relative) }

        func isMember(_ asset: String, of album: String) throws -> Bool {
            guard let record = try library.catalog.album(named: album) else { return false }
            return try library.catalog.membership(asset: ids[asset]!, album: record.id)?.isActive == true
        }
    }

    /// Roll, Roll/2020, Roll/2020/01, Roll/2021, Roll/2021/02, Albums/QQ, Albums/WeChat.
    static let folderCount = 7

    @Test func aQuietSecondReconcileReadsNoFolder() throws {
        let scene = try Scene()
        let first = try scene.reconcile()
        #expect(first.mended.isEmpty)
        #expect(first.foldersRead == Self.folderCount, "no stamps yet: every folder is read")
        let second = try scene.reconcile()
        #expect(second.foldersLookedAt == Self.folderCount)
        #expect(second.foldersRead == 0)
    }

    @Test func anUnchangedFolderIsNotRead() throws {
        let scene = try Scene()
        _ = try scene.reconcile()
        // Bytes changed in place leave the folder's entries and times alone: a read
        // of the folder would see the new size, a folder not read cannot.
        let file = try Sys.openOrCreate(scene.path("Roll/2020/01/a.jpg"))
        defer { file.close() }
        try Array("more bytes at the end\n".utf8).withUnsafeBytes { try file.writeAll($0) }
        let summary = try scene.reconcile()
        #expect(summary.foldersRead == 0)
        #expect(summary.mended.isEmpty, "\(summary.mended)")
        // `check` reads everything.
        let check = try scene.library.reconciler.differences(verifyHashes: true)
        #expect(
            check.contains {
                if case .wrongHash(scene.ids["a"]!, _, _, _) = $0 { return true } else { return false }
            })
    }

    @Test func aFileRemovedFromTheRollWhileDownIsReconciled() throws {
        let scene = try Scene()
        _ = try scene.reconcile()
        try Sys.unlink(scene.path("Roll/2020/01/b.jpg"))
        let summary = try scene.reconcile()
        #expect(summary.mended == [.missingRollFile(asset: scene.ids["b"]!, rollPath: "Roll/2020/01/b.jpg")])
        #expect(try scene.library.catalog.asset(id: scene.ids["b"]!)?.isDeleted == true)
        #expect(summary.foldersRead < Self.folderCount, "the unchanged folders are not read")
        #expect(try scene.reconcile().mended.isEmpty)
    }

    @Test func aLinkAddedToAnAlbumWhileDownIsReconciled() throws {
        let scene = try Scene()
        _ = try scene.reconcile()
        try Sys.link(scene.path("Roll/2021/02/c.jpg"), to: scene.path("Albums/WeChat/c.jpg"))
        let summary = try scene.reconcile()
        #expect(
            summary.mended == [
                .linkWithoutMembership(asset: scene.ids["c"]!, albumFolder: "WeChat", entryName: "c.jpg")
            ])
        #expect(try scene.isMember("c", of: "WeChat"))
        #expect(summary.foldersRead == 1, "only Albums/WeChat changed")
    }

    @Test func anAlbumFolderRenamedWhileDownIsReconciled() throws {
        let scene = try Scene()
        _ = try scene.reconcile()
        try Sys.rename(scene.path("Albums/QQ"), to: scene.path("Albums/Holiday"))
        _ = try scene.reconcile()
        #expect(try !scene.isMember("a", of: "QQ") && !scene.isMember("c", of: "QQ"))
        #expect(try scene.isMember("a", of: "Holiday") && scene.isMember("c", of: "Holiday"))
        #expect(try scene.reconcile().mended.isEmpty)
    }

    @Test func anMtimeSetBackStillMakesTheFolderRead() throws {
        let scene = try Scene()
        _ = try scene.reconcile()
        let folder = scene.path("Roll/2020/01")
        let before = try Sys.status(folder)
        try Sys.unlink(folder.appending("b.jpg"))
        // `touch -d`: the old mtime back; the kernel moves ctime on regardless.
        var times = [
            timespec(
                tv_sec: Int(before.modificationNanoseconds / 1_000_000_000),
                tv_nsec: Int(before.modificationNanoseconds % 1_000_000_000)),
            timespec(
                tv_sec: Int(before.modificationNanoseconds / 1_000_000_000),
                tv_nsec: Int(before.modificationNanoseconds % 1_000_000_000)),
        ]
        #expect(folder.withCString { utimensat(AT_FDCWD, $0, &times, 0) } == 0)
        #expect(try Sys.status(folder).modificationNanoseconds == before.modificationNanoseconds)
        let summary = try scene.reconcile()
        #expect(summary.mended == [.missingRollFile(asset: scene.ids["b"]!, rollPath: "Roll/2020/01/b.jpg")])
    }

    @Test func aFolderChangedWithinACoarseTickOfTheWalkIsReadAgain() throws {
        let scene = try Scene()
        // The walk happens right after the files were made: on a file system with
        // coarse times, another entry could still come in the same tick unseen.
        scene.clock = FolderWalk.clock()
        _ = try scene.reconcile()
        scene.clock += 3_600_000_000_000
        #expect(try scene.reconcile().foldersRead == Self.folderCount)
        #expect(try scene.reconcile().foldersRead == 0)
    }

    @Test func aRepairWithoutStampsLeavesTheChangedFolderToBeRead() throws {
        let scene = try Scene()
        _ = try scene.reconcile()
        // As if the process died after the repair committed, before the stamps were stored.
        try Sys.unlink(scene.path("Roll/2021/02/c.jpg"))
        try scene.reconciler.repair(try scene.reconciler.differences(verifyHashes: false))
        let summary = try scene.reconcile()
        #expect(summary.mended.isEmpty)
        #expect(summary.foldersRead >= 1, "Roll/2021/02 no longer matches its stamp")
        #expect(try scene.library.catalog.asset(id: scene.ids["c"]!)?.isDeleted == true)
    }

    @Test func aDeletionRecordedBeforeItsFileWentIsSeenAgain() throws {
        let scene = try Scene()
        _ = try scene.reconcile()
        // `rm` records the deletion first; had it died then, the roll file stays
        // in a folder whose times did not move.
        try scene.library.catalog.markDeleted(scene.ids["a"]!, at: 1_700_000_100, trashPath: nil)
        let summary = try scene.reconcile()
        #expect(summary.foldersRead >= 1)
        #expect(summary.mended.contains(.rollFileWithoutRow(rollPath: "Roll/2020/01/a.jpg")))
        #expect(
            try scene.library.catalog.asset(id: scene.ids["a"]!)?.isDeleted == false,
            "the files are the truth")
    }

    @Test func aMembershipEndedBeforeItsEntryWentIsSeenAgain() throws {
        let scene = try Scene()
        _ = try scene.reconcile()
        try scene.library.catalog.endMembership(
            asset: scene.ids["c"]!, album: scene.albums["QQ"]!.id, at: 1_700_000_100)
        let summary = try scene.reconcile()
        #expect(summary.foldersRead == 1, "Albums/QQ is read again")
        #expect(try scene.isMember("c", of: "QQ"), "the entry is still there")
    }

    @Test func aFolderChangedDuringTheReconcileIsReadAgain() throws {
        let scene = try Scene()
        _ = try scene.reconcile()
        _ = try scene.reconcile()
        // The clock is read right after each folder's times are: on the sixth folder
        // (Albums/QQ, after the Roll's five) a link is added just then, after the
        // times that said "unchanged" were taken.
        final class Calls: @unchecked Sendable { var count = 0 }
        let calls = Calls()
        var reconciler = scene.library.reconciler
        let clock = scene.clock
        let roll = scene.path("Roll/2020/01/b.jpg")
        let entry = scene.path("Albums/QQ/b.jpg")
        reconciler.clock = {
            calls.count += 1
            if calls.count == 6 { try? Sys.link(roll, to: entry) }
            return clock
        }
        _ = try reconciler.reconcileChangedFolders { _ in }
        #expect(calls.count >= 6)
        let next = try scene.reconcile()
        #expect(next.foldersRead == 1, "Albums/QQ's stored times are from before the change")
        #expect(try scene.isMember("b", of: "QQ"))
        // The folders of what was mended are read once more, then trusted.
        #expect(try scene.reconcile().foldersRead >= 1)
        #expect(try scene.reconcile().foldersRead == 0)
    }
}
