import PhotoFilerCatalog
import PhotoFilerSystem
import TestSupport
import Testing

@testable import PhotoFilerFiling

/// photofiler(1) "Deletion": what could not be looked at is not gone, an unmounted disk
/// included. A folder of the Roll or an album folder that was on a disk of its own
/// shows, once that disk is not mounted, as the empty folder below it; a Roll folder
/// moved to another disk and linked back shows as a symbolic link. None of them ends
/// an asset or a membership; each is told.
/// (The device of a mount is faked here in the stamp; `SystemFaultTests` mounts one.)
@Suite
struct UnreachableFolderTests {
    typealias Scene = FolderStampTests.Scene

    /// The stamps of the last reconcile, with `folder` recorded on another device.
    static func stampOnAnotherDevice(_ scene: Scene, folder: String = "Roll/2021/02") throws {
        let catalog = scene.library.catalog
        let stamps = try catalog.folderStamps().map { stamp in
            var stamp = stamp
            if stamp.path == BytePath(folder) { stamp.device &+= 1 }
            return stamp
        }
        try catalog.replaceFolderStamps(stamps)
    }

    /// The disk at `folder` taken away: after a first reconcile, its stamp names another
    /// device, and its entries `names` are moved to `disk/`, which is returned.
    static func unmountDisk(_ scene: Scene, at folder: String, holding names: [String]) throws -> BytePath {
        _ = try scene.reconcile()
        try stampOnAnotherDevice(scene, folder: folder)
        let away = scene.folder.file("disk")
        try Sys.makeDirectories(away)
        for name in names { try Sys.rename(scene.path("\(folder)/\(name)"), to: away.appending(name)) }
        return away
    }

    private func lookFailures(_ differences: [Difference]) -> [BytePath: LookFailure] {
        var failures: [BytePath: LookFailure] = [:]
        for case .couldNotLook(let path, let reason) in differences { failures[path] = reason }
        return failures
    }

    /// Two reconciles in a row tell `Roll/2021/02` as not looked at, for `reason`, and
    /// end nothing of the asset in it.
    private func expectTwoReconcilesEndNothing(
        _ scene: Scene, _ reason: LookFailure, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        for _ in 0..<2 {
            let summary = try scene.reconcile()
            #expect(
                lookFailures(summary.mended) == [BytePath("Roll/2021/02"): reason],
                sourceLocation: sourceLocation)
            #expect(
                try scene.library.catalog.asset(id: scene.ids["c"]!)?.isDeleted == false,
                sourceLocation: sourceLocation)
            #expect(try scene.isMember("c", of: "QQ"), sourceLocation: sourceLocation)
        }
    }

    @Test func anEmptyFolderWhereADiskWasMountedEndsNothing() throws {
        let scene = try Scene()
        let away = try Self.unmountDisk(scene, at: "Roll/2021/02", holding: ["c.jpg"])
        try expectTwoReconcilesEndNothing(scene, .notMounted)
        let check = try scene.library.reconciler.differences(verifyHashes: true)
        #expect(lookFailures(check) == [BytePath("Roll/2021/02"): .notMounted])
        #expect(!check.contains { $0.isMissingRollFile }, "\(check)")
        let sentence = try #require(check.first { if case .couldNotLook = $0 { true } else { false } })
        #expect(sentence.description.contains("mount the disk again"))
        // Mounted again: the folder is read, and nothing was lost meanwhile.
        try Sys.rename(away.appending("c.jpg"), to: scene.path("Roll/2021/02/c.jpg"))
        #expect(try scene.reconcile().mended.isEmpty)
        #expect(try scene.reconcile().mended.isEmpty)
        #expect(try scene.isMember("c", of: "QQ"))
    }

    /// An empty folder where a disk is not mounted holds nothing moved there: a roll
    /// file removed elsewhere meanwhile is a removal, as it would be without it.
    @Test func aDiskNotMountedHoldsBackNoRemovalElsewhere() throws {
        let scene = try Scene()
        _ = try scene.reconcile()
        try Self.stampOnAnotherDevice(scene)
        try Sys.unlink(scene.path("Roll/2021/02/c.jpg"))
        try Sys.unlink(scene.path("Roll/2020/01/b.jpg"))
        let summary = try scene.reconcile()
        #expect(lookFailures(summary.mended) == [BytePath("Roll/2021/02"): .notMounted])
        #expect(try scene.library.catalog.asset(id: scene.ids["b"]!)?.isDeleted == true)
        #expect(try scene.library.catalog.asset(id: scene.ids["c"]!)?.isDeleted == false)
    }

    @Test func anEmptyAlbumFolderWhereADiskWasMountedEndsNoMembership() throws {
        let scene = try Scene()
        let away = try Self.unmountDisk(scene, at: "Albums/QQ", holding: ["a.jpg", "c.jpg"])
        for _ in 0..<2 {
            let summary = try scene.reconcile()
            #expect(lookFailures(summary.mended) == [BytePath("Albums/QQ"): .notMounted])
            #expect(try scene.isMember("a", of: "QQ") && scene.isMember("c", of: "QQ"))
        }
        let check = try scene.library.reconciler.differences(verifyHashes: true)
        #expect(lookFailures(check) == [BytePath("Albums/QQ"): .notMounted], "\(check)")
        #expect(check.count == 1, "\(check)")
        for name in ["a.jpg", "c.jpg"] {
            try Sys.rename(away.appending(name), to: scene.path("Albums/QQ/\(name)"))
        }
        #expect(try scene.reconcile().mended.isEmpty)
        #expect(try scene.isMember("a", of: "QQ") && scene.isMember("c", of: "QQ"))
    }

    /// A library moved whole to another disk: every folder's device changed alike,
    /// so a folder emptied meanwhile is a folder emptied, not a disk gone.
    @Test func aLibraryMovedToAnotherDiskIsNotADiskGone() throws {
        let scene = try Scene()
        _ = try scene.reconcile()
        let catalog = scene.library.catalog
        try catalog.replaceFolderStamps(
            try catalog.folderStamps().map { stamp in
                var stamp = stamp
                stamp.device &+= 1
                return stamp
            })
        try Sys.unlink(scene.path("Roll/2021/02/c.jpg"))
        let summary = try scene.reconcile()
        #expect(summary.mended == [.missingRollFile(asset: scene.ids["c"]!, rollPath: "Roll/2021/02/c.jpg")])
        #expect(try catalog.asset(id: scene.ids["c"]!)?.isDeleted == true)
    }

    /// The way out the sentence names: the empty folder removed, its assets are gone.
    @Test func theEmptyFolderRemovedEndsItsAssets() throws {
        let scene = try Scene()
        _ = try scene.reconcile()
        try Self.stampOnAnotherDevice(scene)
        try Sys.unlink(scene.path("Roll/2021/02/c.jpg"))
        _ = try scene.reconcile()
        #expect(try scene.library.catalog.asset(id: scene.ids["c"]!)?.isDeleted == false)
        try Sys.removeDirectory(scene.path("Roll/2021/02"))
        _ = try scene.reconcile()
        #expect(try scene.library.catalog.asset(id: scene.ids["c"]!)?.isDeleted == true)
    }

    @Test func aFolderMovedAwayAndLinkedBackEndsNothing() throws {
        let scene = try Scene()
        _ = try scene.reconcile()
        let away = scene.folder.file("nas-2021-02")
        try Sys.rename(scene.path("Roll/2021/02"), to: away)
        try Sys.symbolicLink(target: away, at: scene.path("Roll/2021/02"))
        try expectTwoReconcilesEndNothing(scene, .symbolicLink)
        let check = try scene.library.reconciler.differences(verifyHashes: false)
        #expect(lookFailures(check) == [BytePath("Roll/2021/02"): .symbolicLink])
        // Moved back in place of the link: as it was.
        try Sys.unlink(scene.path("Roll/2021/02"))
        try Sys.rename(away, to: scene.path("Roll/2021/02"))
        #expect(try scene.reconcile().mended.isEmpty)
        #expect(try scene.isMember("c", of: "QQ"))
    }

    /// A link that never was a folder of the Roll is no roll file, and no obstacle:
    /// it does not hold back the removal of a file elsewhere.
    @Test func aNewLinkInTheRollIsLeftOut() throws {
        let scene = try Scene()
        _ = try scene.reconcile()
        try Sys.symbolicLink(target: scene.folder.path, at: scene.path("Roll/elsewhere"))
        try Sys.unlink(scene.path("Roll/2020/01/b.jpg"))
        let summary = try scene.reconcile()
        #expect(summary.mended == [.missingRollFile(asset: scene.ids["b"]!, rollPath: "Roll/2020/01/b.jpg")])
        #expect(try scene.library.catalog.asset(id: scene.ids["b"]!)?.isDeleted == true)
    }
}
