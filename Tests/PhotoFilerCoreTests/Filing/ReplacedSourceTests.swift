import Foundation
import Glibc
import TestSupport
import Testing

@testable import PhotoFilerCatalog
@testable import PhotoFilerFiling
@testable import PhotoFilerSystem

/// A source saved again between its inspection and its link or its removal: the
/// daemon's pipeline inspects a group while the one before is filed, so the gap is
/// real. An app saves again by a rename over the name (another inode) or by writing
/// into the same file (the same inode, another size and mtime).
@Suite
struct ReplacedSourceTests {
    enum Replacement: String, CaseIterable, CustomTestStringConvertible {
        case renamedOver = "renamed over"
        case rewrittenInPlace = "rewritten in place"
        var testDescription: String { rawValue }
    }

    /// A library and an inbox, with `Landscape_1.jpg` in the inbox as `photo.jpg`.
    struct Scene {
        let folder: TemporaryFolder
        let library: PhotoLibrary
        let inbox: BytePath
        let source: BytePath
        let request: FilingRequest

        init() throws {
            folder = try TemporaryFolder()
            library = try PhotoLibrary(root: folder.file("library"), log: Logger(minimumLevel: .error))
            inbox = folder.file("inbox")
            try Sys.makeDirectories(inbox)
            source = inbox.appending("photo.jpg")
            try copyFile(Fixtures.corpus("Landscape_1.jpg"), to: source)
            request = FilingRequest(
                source: source, album: try AlbumName(validating: "QQ"), origin: "QQ", mode: .move, link: .hard
            )
        }

        /// The app saves another picture under the source's name, as `how` says;
        /// returns its hash.
        func saveAgain(_ how: Replacement) throws -> String {
            let picture = Fixtures.corpus("Landscape_6.jpg")
            switch how {
            case .renamedOver:
                let replacement = inbox.appending(".photo.jpg.part")
                try copyFile(picture, to: replacement)
                try Sys.rename(replacement, to: source)
            case .rewrittenInPlace:
                let before = try Sys.status(source)
                let handle = try #require(FileHandle(forWritingAtPath: source.display))
                try handle.truncate(atOffset: 0)
                try handle.write(contentsOf: Data(contentsOf: URL(fileURLWithPath: picture.display)))
                try handle.close()
                let after = try Sys.status(source)
                #expect(after.isSameFile(as: before) && after.size != before.size)
            }
            return try sha256(of: source)
        }

        /// The same picture as the source filed first from another name: its asset.
        func fileTheSamePictureFirst() throws -> AssetRecord {
            let first = inbox.appending("first.jpg")
            try copyFile(Fixtures.corpus("Landscape_1.jpg"), to: first)
            var firstRequest = request
            firstRequest.source = first
            return try #require(try library.filer.file([firstRequest])[0].get().asset)
        }
    }

    /// The Roll would link the file the inspection read (or, renamed over, the new
    /// one) with other bytes under the hash of the first.
    @Test(arguments: Replacement.allCases)
    func aSourceSavedAgainAfterItsInspectionIsNotFiledUnderTheOldHash(_ how: Replacement) throws {
        let scene = try Scene()
        let (library, source, request) = (scene.library, scene.source, scene.request)
        let inspections = library.filer.inspector.inspect([request])
        let newHash = try scene.saveAgain(how)

        let results = library.filer.file(inspected: inspections, requests: [request])
        guard case .failure(.changedWhileFiling(let path)) = results[0] else {
            Issue.record("filed anyway: \(results[0])")
            return
        }
        #expect(path == source)
        #expect(try library.catalog.assetFootprints().isEmpty)
        #expect(regularFiles(under: library.layout.roll).isEmpty)
        #expect(try sha256(of: source) == newHash, "the new bytes stay in the inbox")

        // Filed again, the new bytes go in under their own hash.
        let again = library.filer.file([request])
        let asset = try #require(try again[0].get().asset)
        #expect(asset.hash == newHash)
        #expect(try Sys.statusIfExists(source) == nil)
    }

    /// A known picture again (its filing makes no roll link, only a membership),
    /// saved again before the source is removed: the new bytes are in no other
    /// file, so they stay.
    @Test(arguments: Replacement.allCases)
    func aSourceSavedAgainBeforeItsRemovalStaysInItsInbox(_ how: Replacement) throws {
        let scene = try Scene()
        let (library, source, request) = (scene.library, scene.source, scene.request)
        let known = try scene.fileTheSamePictureFirst()

        let inspections = library.filer.inspector.inspect([request])
        let newHash = try scene.saveAgain(how)

        let results = library.filer.file(inspected: inspections, requests: [request])
        #expect(try results[0].get().asset?.id == known.id, "the inspected bytes are the known asset's")
        #expect(try sha256(of: source) == newHash, "the picture saved again stays in the inbox")
        #expect(try results[0].get().sourceStayedChanged, "the daemon is told to look at it again")

        let again = library.filer.file([request])
        #expect(try again[0].get().asset?.hash == newHash)
        #expect(try library.catalog.assetFootprints().count == 2)
    }

    /// The bytes of an asset in Recently Deleted dropped again bring it back; saved
    /// over before the link, the Roll would take the other picture as that asset.
    @Test func aSourceRenamedOverBeforeItBringsAnAssetBackRestoresNothing() throws {
        let scene = try Scene()
        let (library, request) = (scene.library, scene.request)
        let known = try scene.fileTheSamePictureFirst()
        _ = try library.lifecycle.moveToRecentlyDeleted(known.id)

        let inspections = library.filer.inspector.inspect([request])
        let newHash = try scene.saveAgain(.renamedOver)

        let results = library.filer.file(inspected: inspections, requests: [request])
        guard case .failure(.changedWhileFiling) = results[0] else {
            Issue.record("restored anyway: \(results[0])")
            return
        }
        #expect(try library.catalog.asset(id: known.id)?.isDeleted == true)
        #expect(regularFiles(under: library.layout.roll).isEmpty)
        #expect(try sha256(of: scene.source) == newHash)
    }

    /// A known picture again whose times alone are set before its removal (`touch`, an
    /// app stamping the time it downloaded the file): it stays, and the daemon is told
    /// to look at it again, as no event it files on comes; filed again, it goes.
    @Test func aSourceTouchedBeforeItsRemovalIsLookedAtAgain() throws {
        let scene = try Scene()
        let (library, source, request) = (scene.library, scene.source, scene.request)
        let known = try scene.fileTheSamePictureFirst()

        let inspections = library.filer.inspector.inspect([request])
        var times = [
            timespec(tv_sec: 1_600_000_000, tv_nsec: 0), timespec(tv_sec: 1_600_000_000, tv_nsec: 0),
        ]
        #expect(source.withCString { utimensat(AT_FDCWD, $0, &times, 0) } == 0)

        let results = library.filer.file(inspected: inspections, requests: [request])
        let result = try results[0].get()
        #expect(result.asset?.id == known.id)
        #expect(result.sourceStayedChanged)
        #expect(try Sys.statusIfExists(source) != nil)

        let again = try library.filer.file([request])[0].get()
        #expect(again.asset?.id == known.id && !again.sourceStayedChanged)
        #expect(try Sys.statusIfExists(source) == nil, "gone once filed again")
    }
}
