import Foundation
import PhotoFilerSystem

/// libvips' own thumbnail of a file (Debian's `vips` command, libvips-tools), the
/// reference a thumbnail is held to, and the measure that compares two pictures.
///
/// The measure: both pictures scaled (aspect ignored) to 32 × 32, flattened over
/// white, made grey (Rec. 601 weights), and the mean absolute difference of the
/// 1,024 grey levels, 0–255. Scaling noise, JPEG loss and a colour profile applied
/// or not stay under 3 on the corpus; a crop of a tenth of the width gives about
/// 20, a mirror or a turn 60 and more, a blank picture the picture's own contrast.
public enum ThumbnailReference {
    /// Pictures alike: the measure stays under this.
    public static let bound = 8.0

    /// The `vips` command.
    public static let vips = BytePath("/usr/bin/vips")

    /// Writes libvips' thumbnail of `file`, fitted in `edge` × `edge` and never
    /// enlarged, as a PNG at `output`; false when libvips cannot decode it (an error
    /// on the pixels fails it, as in photofiler). A TIFF is loaded first and then
    /// thumbnailed: libvips 8.14's `thumbnail` takes a TIFF's smaller later page or
    /// SubIFD for a pyramid level and shows it even when it is below `edge`, where
    /// libvips' loader, as Pillow, shows the first page's main image.
    public static func make(of file: BytePath, edge: Int, into output: BytePath) throws -> Bool {
        let arguments =
            isTIFF(file)
            ? [
                "thumbnail_image", "\(file.display)[fail_on=error]", output.display, String(edge), "--size",
                "down",
            ]
            : [
                "thumbnail", file.display, output.display, String(edge), "--size", "down", "--fail-on",
                "error",
            ]
        return try run(arguments) == 0
    }

    /// `picture` (any file libvips reads) reduced as the measure wants it: 1,024 grey levels.
    public static func reduced(_ picture: BytePath, scratch: BytePath) throws -> [Double] {
        let raw = scratch.appending("reduced.raw")
        guard
            try run(["thumbnail", picture.display, raw.display, "32", "--height", "32", "--size", "force"])
                == 0
        else {
            throw ReferenceError(message: "vips could not reduce '\(picture.display)' to 32 x 32")
        }
        let samples = try readFile(raw)
        let bands = samples.count / 1024
        guard (1...4).contains(bands), samples.count == bands * 1024 else {
            throw ReferenceError(
                message: "vips wrote \(samples.count) bytes for 32 x 32 of '\(picture.display)'")
        }
        return (0..<1024).map { index in
            let pixel = samples[index * bands..<(index + 1) * bands].map(Double.init)
            let opacity = bands == 2 || bands == 4 ? pixel[bands - 1] / 255 : 1
            let colour = bands >= 3 ? Array(pixel[0..<3]) : [pixel[0], pixel[0], pixel[0]]
            let grey = 0.299 * colour[0] + 0.587 * colour[1] + 0.114 * colour[2]
            return grey * opacity + 255 * (1 - opacity)
        }
    }

    /// The measure between two reduced pictures.
    public static func difference(_ one: [Double], _ other: [Double]) -> Double {
        zip(one, other).reduce(0) { $0 + abs($1.0 - $1.1) } / Double(max(one.count, 1))
    }

    /// What libvips' loader calls the file: TIFFs are thumbnailed another way.
    private static func isTIFF(_ file: BytePath) -> Bool {
        guard let head = try? readFile(file).prefix(4) else { return false }
        return head.elementsEqual([0x49, 0x49, 0x2A, 0x00]) || head.elementsEqual([0x4D, 0x4D, 0x00, 0x2A])
    }

    /// Runs `vips ARGUMENTS`, its output discarded (libvips warns on stderr); its status.
    private static func run(_ arguments: [String]) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: vips.display)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }

    public struct ReferenceError: Error, CustomStringConvertible {
        public var message: String
        public var description: String { message }
    }
}
