import Foundation
import Glibc
import PhotoFilerSystem
import TestSupport
import Testing

/// photofiler(1) "Thumbnails": "A file that cannot be decoded gets no thumbnail and one log
/// line; it is still filed." A file of a supported format whose bytes are broken
/// inside (a TIFF without its required fields, a PNG whose chunk CRC is wrong) is
/// whole: it is filed, of unknown size, and "save it again" is not said of it.
@Suite struct DamagedFileTests {
    /// A little-endian TIFF whose only IFD has an ImageWidth and nothing else: no
    /// ImageLength, no strips (what exiv2's corpus calls a "missing required field").
    static let damagedTIFF: [UInt8] = {
        var bytes: [UInt8] = [0x49, 0x49, 0x2A, 0x00, 0x08, 0x00, 0x00, 0x00]
        bytes += [0x01, 0x00]  // one entry
        bytes += [0x00, 0x01, 0x03, 0x00, 0x01, 0x00, 0x00, 0x00, 0x10, 0x00, 0x00, 0x00]  // ImageWidth 16
        bytes += [0x00, 0x00, 0x00, 0x00]  // no next IFD
        return bytes + [UInt8](repeating: 0, count: 64)
    }()

    @Test func aDamagedTIFFIsFiledWithoutAThumbnailAndOneLine() throws {
        let library = try TestLibrary()
        let input = try library.input(bytes: Self.damagedTIFF, name: "scan.tiff")
        let result = try library.run(bytes: [BytePath("save"), BytePath("--album"), BytePath("Scans"), input])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1, "one log line: \(result.stderr)")
        #expect(result.stderr.contains("cannot be decoded"), "\(result.stderr)")
        #expect(result.stderr.contains("it stays filed"), "\(result.stderr)")
        #expect(!result.stderr.contains("save it again"), "not cut: \(result.stderr)")

        let listed = try library.list()
        #expect(listed.count == 1)
        let asset = try #require(listed.first)
        #expect(asset["mediaType"] as? String == "image")
        #expect(asset["albums"] as? [String] == ["Scans"])
        #expect((asset["width"] as? NSNumber)?.intValue == 0)
        #expect(asset["thumbnail"] is NSNull, "no thumbnail: \(asset)")
        #expect(asset["hash"] as? String == Pictures.sha256(Self.damagedTIFF))

        let thumb = try library.run("thumb", "1", "-o", library.folder.file("t.jpg").display)
        #expect(thumb.status == 1)
        #expect(thumb.stderr.split(separator: "\n").count == 1, "one sentence: \(thumb.stderr)")
        let check = try library.run("check")
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
    }

    /// The daemon files a PNG whose chunk CRC is wrong into its album, says one line
    /// of its thumbnail, and removes it from the inbox as any filed file.
    @Test func theDaemonFilesADamagedPNG() throws {
        let scene = try DaemonScene()
        let daemon = try scene.start()
        let png = try readFile(Fixtures.corpus("bad/bad_crc.png"))  // its IHDR's CRC is wrong
        try scene.dropByRename(png, as: "broken.png", into: scene.inbox())
        #expect(scene.waitForAlbum(count: 1), "\(daemon.log)")
        #expect(
            waitUntil(timeout: 30) { daemon.log.contains("cannot be decoded") },
            "one line says it has no thumbnail: \(daemon.log)")
        #expect(daemon.terminate() == 0)
        let log = daemon.log
        #expect(log.split(separator: "\n").count { $0.contains("cannot be decoded") } == 1, "\(log)")
        #expect(!log.contains("damaged"), "not refused: \(log)")
        #expect((try? Sys.statusIfExists(scene.inbox().appending("broken.png"))) ?? nil == nil)
        let assets = try scene.contents.assets()
        #expect(assets.count == 1)
        #expect(assets.first?["hash"] as? String == Pictures.sha256(png))
    }
}
