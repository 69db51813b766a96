import PhotoFilerCatalog
import PhotoFilerSystem
import TestSupport
import Testing

@testable import PhotoFilerFiling

/// photofiler(1) "Deletion" ("an unmounted disk … no asset or membership is ended because
/// of it"), on the filing side: a photo whose Roll or album folder is the empty
/// folder where a disk is not mounted is left in its inbox, said in one sentence.
/// Filed there, it would make the folder no longer empty, and the next reconcile
/// would end every asset or membership on the disk.
/// (The device of a mount is faked in the stamp, as in `UnreachableFolderTests`.)
@Suite
struct UnmountedDiskFilingTests {
    typealias Scene = FolderStampTests.Scene

    /// A picture with no EXIF date, named for `date` (YYYYMMDD): it belongs in that month's folder.
    private func photo(_ scene: Scene, dated date: String, fixture: String) throws -> BytePath {
        let inbox = scene.folder.file("inbox")
        try Sys.makeDirectories(inbox)
        let source = inbox.appending("IMG_\(date)_120000.jpg")
        try copyFile(Fixtures.corpus(fixture), to: source)
        return source
    }

    private func file(_ scene: Scene, _ source: BytePath) throws -> Result<FilingResult, FilingError> {
        scene.library.filer.file([
            FilingRequest(
                source: source, album: try AlbumName(validating: "QQ"), origin: "QQ", mode: .move, link: .hard
            )
        ])[0]
    }

    private func expectNotMounted(
        _ result: Result<FilingResult, FilingError>, folder: String, source: BytePath, scene: Scene,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        guard case .failure(.diskNotMounted(let path, let mount)) = result else {
            Issue.record("filed, or another failure: \(result)", sourceLocation: sourceLocation)
            return
        }
        #expect(path == source && mount == scene.path(folder), sourceLocation: sourceLocation)
        #expect(
            (try? Sys.statusIfExists(source)) != nil, "the photo stays in its inbox",
            sourceLocation: sourceLocation)
        let sentence = FilingError.diskNotMounted(path: path, folder: mount).description
        #expect(sentence.contains("mount the disk again"), sourceLocation: sourceLocation)
    }

    @Test func aPhotoForAYearOnADiskNotMountedStaysInItsInbox() throws {
        let scene = try Scene()
        let away = try UnreachableFolderTests.unmountDisk(scene, at: "Roll/2021", holding: ["02"])

        let february = try photo(scene, dated: "20210215", fixture: "progressive_go_video-001.jpeg")
        expectNotMounted(try file(scene, february), folder: "Roll/2021", source: february, scene: scene)
        #expect(
            try Sys.listDirectory(scene.path("Roll/2021")).isEmpty, "nothing was made on the empty folder")
        // Another year is filed as ever.
        let january = try photo(scene, dated: "20200110", fixture: "cmyk_go_video-001.jpeg")
        guard case .success = try file(scene, january) else {
            Issue.record("a photo of 2020 was not filed")
            return
        }
        // The reconcile still tells the disk as not mounted and ends nothing on it.
        let summary = try scene.reconcile()
        #expect(summary.mended.contains { $0 == .couldNotLook(path: "Roll/2021", reason: .notMounted) })
        #expect(try scene.library.catalog.asset(id: scene.ids["c"]!)?.isDeleted == false)

        // Mounted again: the photo is filed into it.
        try Sys.rename(away.appending("02"), to: scene.path("Roll/2021/02"))
        guard case .success(let filed) = try file(scene, february) else {
            Issue.record("not filed once the disk is back")
            return
        }
        #expect(filed.rollPath?.parent == BytePath("Roll/2021/02"))
    }

    @Test func aPhotoForAnAlbumOnADiskNotMountedStaysInItsInbox() throws {
        let scene = try Scene()
        _ = try UnreachableFolderTests.unmountDisk(scene, at: "Albums/QQ", holding: ["a.jpg", "c.jpg"])
        let rollBefore = try Sys.listDirectory(scene.path("Roll/2020/01")).count

        let source = try photo(scene, dated: "20200110", fixture: "cmyk_go_video-001.jpeg")
        expectNotMounted(try file(scene, source), folder: "Albums/QQ", source: source, scene: scene)
        #expect(try Sys.listDirectory(scene.path("Albums/QQ")).isEmpty)
        #expect(
            try Sys.listDirectory(scene.path("Roll/2020/01")).count == rollBefore,
            "its roll link is taken back")
        #expect(try scene.isMember("a", of: "QQ") && scene.isMember("c", of: "QQ"))
    }
}
