import Foundation
import Glibc
import PhotoFilerSystem
import TestSupport
import Testing

/// SPEC "Command line": errors are one clear sentence. A damaged file's sentence
/// says what is wrong in plain words; the library's own text goes to the debug
/// log only, and "save it again" is said only of a file that really is cut.
@Suite struct DamagedFileMessageTests {
    /// A little-endian TIFF whose only IFD has an ImageWidth and nothing else: no
    /// ImageLength, no strips (what exiv2's corpus calls a "missing required field").
    static let damagedTIFF: [UInt8] = {
        var bytes: [UInt8] = [0x49, 0x49, 0x2A, 0x00, 0x08, 0x00, 0x00, 0x00]
        bytes += [0x01, 0x00]  // one entry
        bytes += [0x00, 0x01, 0x03, 0x00, 0x01, 0x00, 0x00, 0x00, 0x10, 0x00, 0x00, 0x00]  // ImageWidth 16
        bytes += [0x00, 0x00, 0x00, 0x00]  // no next IFD
        return bytes + [UInt8](repeating: 0, count: 64)
    }()

    @Test func damagedTIFFIsDescribedInPlainWords() throws {
        let library = try TestLibrary()
        let input = try library.input(bytes: Self.damagedTIFF, name: "scan.tiff")
        let result = try library.run(bytes: [BytePath("save"), input])
        #expect(result.status == 1)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1, "one sentence: \(result.stderr)")
        #expect(result.stderr.contains("'\(input.display)' is a damaged TIFF file"), "\(result.stderr)")
        for libraryWord in ["magick", "Magick", "vips", "exiv2", "@ error/", "TIFFErrors"] {
            #expect(
                !result.stderr.contains(libraryWord), "no library text (\(libraryWord)): \(result.stderr)")
        }
        #expect(!result.stderr.contains("save it again"), "not cut: \(result.stderr)")

        let verbose = try library.run(bytes: [BytePath("save"), BytePath("--verbose"), input])
        #expect(verbose.status == 1)
        #expect(
            verbose.stderr.split(separator: "\n").contains {
                $0.contains("debug") && $0.contains("scan.tiff")
            },
            "the library's words are in the debug log: \(verbose.stderr)")
    }
}
