import Foundation
import PhotoFilerCatalog
import PhotoFilerSystem
import TestSupport
import Testing

/// A catalog read that fails under a running `serve` is a failure (500), never taken
/// for "no such share", "no such asset" or "no such album", and never for "nothing
/// changed". The read is made to fail by dropping the table it needs from a second
/// connection: SQLite reads its file through its own layer, which the syscall faults
/// of `PHOTOFILER_FAIL_PATH` do not reach.
@Suite struct GalleryCatalogFailureTests {
    private static func drop(_ table: String, in library: TestLibrary) throws {
        try SQLiteConnection(path: library.catalog).execute("DROP TABLE \(table)")
    }

    @Test func aShareThatCannotBeLookedUpIsAFailureNotARefusal() throws {
        let library = try GalleryAPITests.library(count: 1)
        let token = try shareToken(library, album: "Trip")
        let server = try GalleryProcess(library: library.root)
        let auth = ["X-PhotoFiler-Token": token]
        #expect(try server.request("GET", "/api/albums", headers: auth).status == 200)
        try Self.drop("share_tokens", in: library)
        let reply = try server.request("GET", "/api/albums", headers: auth)
        #expect(reply.status == 500, "\(reply.text)")
        #expect(reply.text.contains("catalog"))
        // A refusal would expire the share's cookie; a failure leaves it for the next try.
        let page = try server.request("GET", "/albums/Trip?token=\(token)")
        #expect(page.status == 500)
        #expect(page.header("set-cookie") == nil)
    }

    @Test func anAssetThatCannotBeLookedUpIsAFailureNotUnknown() throws {
        let library = try GalleryAPITests.library(count: 1)
        let id = try #require(try library.list().compactMap(assetID).first)
        let server = try GalleryProcess(library: library.root)
        #expect(try server.request("GET", "/assets/\(id)").status == 200)
        try Self.drop("assets", in: library)
        #expect(try server.request("GET", "/assets/\(id)").status == 500)
        #expect(try server.request("GET", "/api/assets/\(id)").status == 500)
    }

    @Test func anAlbumThatCannotBeLookedUpIsAFailureNotUnknown() throws {
        let library = try GalleryAPITests.library(count: 1)
        let server = try GalleryProcess(library: library.root)
        #expect(try server.request("GET", "/api/assets?album=Trip").status == 200)
        try Self.drop("albums", in: library)
        #expect(try server.request("GET", "/api/assets?album=Trip").status == 500)
        #expect(try server.request("GET", "/api/timeline?album=Trip").status == 500)
    }

    /// The browser reconnects with the last change it saw and is sent the rest.
    @Test func aChangeLogThatCannotBeReadEndsTheStream() throws {
        let library = try GalleryAPITests.library(count: 1)
        let server = try GalleryProcess(library: library.root)
        let stream = try EventStreamReader(port: server.port)
        #expect(try stream.wait(timeout: 10) { $0.contains(/id: [0-9]+\n\n/) })
        try Self.drop("asset_changes", in: library)
        #expect(try stream.wait(timeout: 10, until: GalleryEventTests.ended), "\(stream.received)")
    }
}
