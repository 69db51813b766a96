import TestSupport
import Testing

@testable import PhotoFilerFiling
@testable import PhotoFilerMediaTypes
@testable import PhotoFilerSystem

/// The scans the daemon runs while a helper has not said yet what the file is: every
/// format's side by side, the type's own chosen afterwards, as if it had run alone.
@Suite struct EndMarkerScansTests {
    static func scanned(_ file: String, with scans: EndMarkerScans) throws -> EndMarkerScans {
        let path = Fixtures.corpus(file)
        let fd = try Sys.openForReading(path)
        defer { fd.close() }
        var scans = scans
        _ = try ContentCopier(bufferSize: 4096).hash(fd, path: path, scanning: &scans)
        return scans
    }

    @Test(arguments: [
        ("Landscape_1.jpg", "image/jpeg"), ("IMG_2908.PNG", "image/png"), ("throbber.gif", "image/gif"),
        ("IMG_3539.MOV", "video/quicktime"),
    ])
    func aWholeFilePassesByItsType(file: String, mimeType: String) throws {
        let scans = try Self.scanned(file, with: .anyType)
        try scans.verify(mimeType: mimeType, path: BytePath(file))
    }

    @Test func aCutJPEGFailsSideBySideAsAlone() throws {
        let path = BytePath("truncated_half.jpg")
        for start in [EndMarkerScans.anyType, EndMarkerScans(mimeType: "image/jpeg")] {
            let scans = try Self.scanned("bad/truncated_half.jpg", with: start)
            #expect(throws: MediaError.truncated(path: path, format: "JPEG")) {
                try scans.verify(mimeType: "image/jpeg", path: path)
            }
        }
    }

    /// Another format's scan never vouches for a file: a JPEG is not a whole PNG.
    @Test func onlyTheTypesOwnScanCounts() throws {
        let scans = try Self.scanned("Landscape_1.jpg", with: .anyType)
        let path = BytePath("Landscape_1.jpg")
        #expect(throws: MediaError.truncated(path: path, format: "PNG")) {
            try scans.verify(mimeType: "image/png", path: path)
        }
    }
}
