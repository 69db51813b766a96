import Foundation
import Glibc
import PhotoFilerSystem
import TestSupport
import Testing

/// The catalog deleted or damaged while the daemon is stopped: the next start
/// rebuilds it from the files (as `check --repair` does) and says so (issue 4).
@Suite struct CatalogLossTests {
    enum Loss: String, CaseIterable, CustomTestStringConvertible {
        case deleted, corrupted
        var testDescription: String { rawValue }
    }

    @Test(arguments: Loss.allCases)
    func theNextStartRebuildsTheCatalog(loss: Loss) throws {
        let folder = try TemporaryFolder()
        let qq = folder.file("QQ")
        let wechat = folder.file("WeChat")
        let staging = folder.file("staging")
        let library = folder.file("library")
        for path in [qq, wechat, staging] { try Sys.makeDirectories(path) }
        let arguments = [
            "--inbox", "QQ=\(qq.display)", "--inbox", "WeChat=\(wechat.display)", "--settle", "20",
        ]

        var originals = Set<String>()
        var daemon = try DaemonProcess(library: library, arguments: arguments)
        for n in 0..<20 {
            let bytes = Pictures.unique(n)
            originals.insert(Pictures.hash(bytes))
            try Pictures.drop(
                bytes, at: (n % 4 == 0 ? wechat : qq).appending("IMG_\(n).jpg"), staging: staging)
        }
        // One content in both albums.
        try Pictures.drop(Pictures.unique(1), at: wechat.appending("again.jpg"), staging: staging)
        #expect(
            waitUntil(timeout: 30) {
                Invariants.regularFiles(under: qq, excluding: nil).isEmpty
                    && Invariants.regularFiles(under: wechat, excluding: nil).isEmpty
            }, "\(daemon.log)")
        #expect(daemon.terminate() == 0)
        let before = try Invariants(library: library, inboxes: [qq, wechat], originals: originals).check()
        #expect(before.isClean, "\(before)")

        let catalog = library.appending(".photofiler/catalog.sqlite")
        for suffix in ["-wal", "-shm"] { try Sys.unlinkIfPresent(BytePath(catalog.display + suffix)) }
        switch loss {
        case .deleted:
            try Sys.unlink(catalog)
        case .corrupted:
            try Sys.unlink(catalog)
            try writeFile(catalog, [UInt8](repeating: 0x42, count: 8192))
        }

        daemon = try DaemonProcess(library: library, arguments: arguments)
        #expect(daemon.log.contains("rebuilt"), "the start says so: \(daemon.log)")
        #expect(daemon.terminate() == 0)
        let after = try Invariants(library: library, inboxes: [qq, wechat], originals: originals).check()
        #expect(after.isClean, "\(after)")
        #expect(after.rollFiles == 20 && after.albumEntries == before.albumEntries, "\(after)")
        let albums = try #require(
            try Binary.run("albums", "--library", library.display, "--json").json() as? [[String: Any]])
        let counts = Dictionary(
            albums.compactMap { album in (album["name"] as? String).map { ($0, album["count"] as? Int ?? -1) }
            },
            uniquingKeysWith: { a, _ in a })
        #expect(counts["QQ"] == 15 && counts["WeChat"] == 6, "\(counts)")
        print("CatalogLossTests(\(loss)): \(after)")
    }
}
