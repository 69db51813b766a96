import CGExiv2
import CGExiv2Reference
import Foundation
import LivePhotoFixtures
import TestSupport
import Testing

@testable import PhotoFilerMedia
@testable import PhotoFilerSystem

/// The filing path reads metadata with exiv2 itself (CGExiv2Guard/exiv2_reader.h)
/// rather than gexiv2 (issue 15: gexiv2's open lists every preview). Nothing a file
/// is filed by may change: every test file is read both ways.
@Suite struct ExifReaderEquivalenceTests {
    @Test func everyTestFileReadsTheSameThroughExiv2AsThroughGExiv2() throws {
        try MediaLibraries.start()
        let folder = try TemporaryFolder()
        var files = try [
            Fixtures.corpus, Fixtures.root.appending("heif-orientation"), FuzzRegressionTests.inputs,
        ]
        .flatMap(Self.everyFile)
        files += try Self.everyFile(in: FuzzRegressionTests.examples)
        // The corpus has no iPhone still (Apple MakerNote) and no motion photo (XMP in a registered
        // namespace).
        let jpeg = try readFile(FuzzRegressionTests.examples.appending("sunset.jpg"))
        let still = try LivePhotoFixtures.appleStill(
            jpeg, contentIdentifier: LivePhotoReaderTests.identifier, taken: "2023:12:01 12:34:56", in: folder
        )
        let motion = try LivePhotoFixtures.googleMotionPhoto(
            jpeg, video: Array(repeating: 7, count: 64), in: folder)
        var contents = try files.map { (name: $0.display, bytes: try readFile($0)) }
        contents += [("Apple still", still), ("motion photo", motion)]
        #expect(contents.count > 30)

        var read = 0
        for (name, bytes) in contents {
            // As a TIFF (previews listed, image data end) and as any other image.
            for isTIFF in [true, false] {
                let (exiv2, gexiv2) = bytes.withUnsafeBytes {
                    (
                        ExifMetadata.read(bytes: $0, isTIFF: isTIFF),
                        GExiv2Reference.read(bytes: $0, isTIFF: isTIFF)
                    )
                }
                let label = "\(name), isTIFF: \(isTIFF)"
                switch (exiv2, gexiv2) {
                case (.success(let new), .success(let old)):
                    read += 1
                    #expect(Self.fields(new) == Self.fields(old), "\(label)")
                case (.failure(let new), .failure) where name.hasSuffix(Self.failsOnlyListingPreviews):
                    #expect(new.reason == "exiv2 failed on its metadata: Overflow in addition", "\(label)")
                case (.failure, .failure): break
                case (.success, .failure(let old))
                where !isTIFF && name.hasSuffix(Self.failsOnlyListingPreviews):
                    #expect(old.reason == "exiv2 failed on its metadata", "\(label)")
                case (.success, .failure(let old)):
                    Issue.record("\(label): gexiv2 failed (\(old.reason)), exiv2 reads it")
                case (.failure(let new), .success):
                    Issue.record("\(label): exiv2 failed (\(new.reason)), gexiv2 reads it")
                }
            }
        }
        #expect(read > 20)
        let apple = still.withUnsafeBytes { ExifMetadata.read(bytes: $0) }
        #expect((try? apple.get())?.contentIdentifier == LivePhotoReaderTests.identifier)
        let announced = motion.withUnsafeBytes { ExifMetadata.read(bytes: $0) }
        #expect((try? announced.get())?.motionPhoto?.microVideoOffset == 64)
    }

    /// The fuzzer's TIFF: exiv2 throws std::overflow_error listing its previews,
    /// which gexiv2's open does and which a TIFF's read keeps doing for that reason.
    static let failsOnlyListingPreviews = "FuzzInputs/exiv2-overflow-error.tiff"

    /// Every field of `ExifMetadata`, as text (it is not Equatable: the product never compares two).
    static func fields(_ exif: ExifMetadata) -> [String] {
        [
            "\(exif.pixelWidth)x\(exif.pixelHeight)", "\(exif.orientation)",
            "\(exif.dateTimeOriginal as Any)",
            "\(exif.offsetTimeOriginal as Any)", "\(exif.xmpDateTimeOriginal as Any)",
            "\(exif.xmpDateCreated as Any)", "\(exif.userComments)", "\(exif.isDNG)",
            "\(exif.mimeType as Any)",
            "\(exif.imageDataEnd as Any)", "\(exif.contentIdentifier as Any)", "\(exif.motionPhoto as Any)",
        ]
    }

    static func everyFile(in folder: BytePath) throws -> [BytePath] {
        try Sys.listDirectory(folder).sorted { $0.name.display < $1.name.display }.flatMap { entry in
            let path = folder.appending(entry.name)
            return try Sys.status(path).isDirectory ? try everyFile(in: path) : [path]
        }
    }
}

/// The gexiv2 0.14 calls `ExifMetadata.read` made before (Tests/CGExiv2Reference),
/// every look-up included.
final class GExiv2Reference: ExifTags {
    private let handle: UnsafeMutablePointer<GExiv2Metadata>
    let pixelWidth: Int
    let pixelHeight: Int
    let orientation: Int
    let mimeType: String?
    let hasXMP = true
    let hasEXIF = true

    private init(_ handle: UnsafeMutablePointer<GExiv2Metadata>) {
        self.handle = handle
        var thrown: CInt = 0
        var error: UnsafeMutablePointer<GError>?
        pixelWidth = Int(pf_gexiv2_get_pixel_width(handle, &thrown))
        pixelHeight = Int(pf_gexiv2_get_pixel_height(handle, &thrown))
        orientation = Int(pf_gexiv2_try_get_orientation(handle, &error, &thrown).rawValue)
        _ = Self.consume(&error)
        let type = pf_gexiv2_get_mime_type(handle, &thrown)
        mimeType = thrown == 0 ? type.map { String(cString: $0) } : nil
    }

    deinit { g_object_unref(UnsafeMutableRawPointer(handle)) }

    static func read(bytes: UnsafeRawBufferPointer, isTIFF: Bool) -> Result<
        ExifMetadata, ExifMetadata.ExifFailure
    > {
        guard let handle = gexiv2_metadata_new() else {
            return .failure(ExifMetadata.ExifFailure(reason: "gexiv2_metadata_new failed"))
        }
        var error: UnsafeMutablePointer<GError>?
        var thrown: CInt = 0
        let data = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self)
        guard pf_gexiv2_open_buf(handle, data, bytes.count, &error, &thrown) != 0, thrown == 0 else {
            g_object_unref(UnsafeMutableRawPointer(handle))
            let reason = thrown != 0 ? "exiv2 failed on its metadata" : consume(&error)
            return .failure(ExifMetadata.ExifFailure(reason: reason ?? "exiv2 could not read it"))
        }
        return .success(ExifMetadata(tags: GExiv2Reference(handle), isTIFF: isTIFF))
    }

    func tagString(_ key: String) -> String? {
        var error: UnsafeMutablePointer<GError>?
        var thrown: CInt = 0
        let value = pf_gexiv2_try_get_tag_string(handle, key, &error, &thrown)
        _ = Self.consume(&error)
        guard let value else { return nil }
        defer { g_free(value) }
        return String(cString: value)
    }

    func tagBytes(_ key: String) -> [UInt8]? {
        var error: UnsafeMutablePointer<GError>?
        var thrown: CInt = 0
        let raw = pf_gexiv2_try_get_tag_raw(handle, key, &error, &thrown)
        _ = Self.consume(&error)
        guard let raw, thrown == 0 else { return nil }
        defer { g_bytes_unref(raw) }
        var size = 0
        guard let data = g_bytes_get_data(raw, &size), size > 0 else { return nil }
        return Array(UnsafeRawBufferPointer(start: data, count: size))
    }

    /// Frees a GError, returning its message.
    private static func consume(_ error: inout UnsafeMutablePointer<GError>?) -> String? {
        guard let pointer = error else { return nil }
        let message = pointer.pointee.message.map { String(cString: $0) }
        g_error_free(pointer)
        error = nil
        return message
    }
}
