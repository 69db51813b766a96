import Foundation
import Glibc
import PhotoFilerSystem
import TestSupport
import Testing

/// photofiler(1) "Content decides": camera RAW files (CR2, CR3, CRW, NEF, ARW, ORF, RW2, RAF,
/// PEF) are images of subtype `raw`, known by their content (exiv2's own type
/// detection where libmagic says octet-stream or TIFF), with EXIF date and size.
@Suite struct CameraRawTests {
    @Test(arguments: RawFixtures.all.map(\.name))
    func cameraRawIsFiledAsARawImage(name: String) throws {
        let fixture = try #require(RawFixtures.all.first { $0.name == name })
        let library = try TestLibrary()
        // Under a name that says nothing: the bytes decide.
        let input = try library.input(bytes: fixture.bytes, name: "photo.bin")
        let ids = try library.save([input], album: "Camera")
        #expect(ids.count == 1)
        let asset = try #require(try library.list().first)
        #expect(asset["mediaType"] as? String == "image")
        #expect(asset["subtypes"] as? [String] == ["raw"], "\(asset)")
        #expect(asset["mimeType"] as? String == fixture.mimeType, "\(asset)")
        #expect((asset["width"] as? NSNumber)?.intValue == Int(RawFixtures.width), "\(asset)")
        #expect((asset["height"] as? NSNumber)?.intValue == Int(RawFixtures.height), "\(asset)")
        #expect((asset["created"] as? String)?.hasPrefix("2021-03-04T05:06:07") == true, "\(asset)")
        #expect(asset["createdSource"] as? String != "modificationTime", "\(asset)")
    }

    /// CR3: known by its `crx ` brand; exiv2 0.27 cannot read its metadata, so it is
    /// filed with the date its name or mtime gives.
    @Test func canonCR3IsFiledAsARawImage() throws {
        let library = try TestLibrary()
        let input = try library.input(bytes: RawFixtures.cr3, name: "IMG_0001.CR3")
        #expect(try library.save([input]).count == 1)
        let asset = try #require(try library.list().first)
        #expect(asset["subtypes"] as? [String] == ["raw"], "\(asset)")
        #expect(asset["mimeType"] as? String == "image/x-canon-cr3", "\(asset)")
    }
}
