import Foundation
import TestSupport
import Testing

@testable import PhotoFilerCatalog
@testable import PhotoFilerFiling
@testable import PhotoFilerSystem

/// A source saved again under its name (a rename over it) between its inspection
/// and its link: the daemon's pipeline inspects a group while the one before is
/// filed, so the gap is real.
@Suite
struct ReplacedSourceTests {
    @Test func aSourceRenamedOverAfterItsInspectionIsNotFiledUnderTheOldHash() throws {
        let folder = try TemporaryFolder()
        let library = try PhotoLibrary(root: folder.file("library"), log: Logger(minimumLevel: .error))
        let inbox = folder.file("inbox")
        try Sys.makeDirectories(inbox)
        let source = inbox.appending("photo.jpg")
        try copyFile(Fixtures.corpus("Landscape_1.jpg"), to: source)
        let request = FilingRequest(
            source: source, album: try AlbumName(validating: "QQ"), origin: "QQ", mode: .move, link: .hard)

        let inspections = library.filer.inspector.inspect([request])
        // The app saves another picture under the same name.
        let replacement = inbox.appending(".photo.jpg.part")
        try copyFile(Fixtures.corpus("Landscape_6.jpg"), to: replacement)
        try Sys.rename(replacement, to: source)
        let newHash = try sha256(of: source)

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

    /// A known picture again (its filing makes no roll link, only a membership), and
    /// another saved over its name before the source is removed: that one stays.
    @Test func aSourceRenamedOverBeforeItsRemovalStaysInItsInbox() throws {
        let folder = try TemporaryFolder()
        let library = try PhotoLibrary(root: folder.file("library"), log: Logger(minimumLevel: .error))
        let inbox = folder.file("inbox")
        try Sys.makeDirectories(inbox)
        let first = inbox.appending("first.jpg")
        try copyFile(Fixtures.corpus("Landscape_1.jpg"), to: first)
        let album = try AlbumName(validating: "QQ")
        let known = try #require(
            try library.filer.file([
                FilingRequest(source: first, album: album, origin: "QQ", mode: .move, link: .hard)
            ])[0].get().asset)

        let source = inbox.appending("photo.jpg")
        try copyFile(Fixtures.corpus("Landscape_1.jpg"), to: source)
        let request = FilingRequest(source: source, album: album, origin: "QQ", mode: .move, link: .hard)
        let inspections = library.filer.inspector.inspect([request])
        let replacement = inbox.appending(".photo.jpg.part")
        try copyFile(Fixtures.corpus("Landscape_6.jpg"), to: replacement)
        try Sys.rename(replacement, to: source)
        let newHash = try sha256(of: source)

        let results = library.filer.file(inspected: inspections, requests: [request])
        #expect(try results[0].get().asset?.id == known.id, "the inspected bytes are the known asset's")
        #expect(try sha256(of: source) == newHash, "the picture saved over it stays in the inbox")

        let again = library.filer.file([request])
        #expect(try again[0].get().asset?.hash == newHash)
        #expect(try library.catalog.assetFootprints().count == 2)
    }
}
