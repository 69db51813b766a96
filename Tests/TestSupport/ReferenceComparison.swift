import Foundation
import PhotoFilerSystem

/// Compares a picture photofiler made with a reference decoder's picture of the same
/// file: the same displayed size within a pixel, and the pixels alike when both are
/// shrunk to 32×32 (area average, by Debian's `ffmpeg`, which reads PNG and JPEG alike).
///
/// The measure is the mean absolute difference of the 32×32 versions, 0–255: of their
/// grey (BT.601 luma) for the shape (a turn, a mirror, a crop, a blank move it far) and
/// of their red, green and blue samples for the colour (swapped channels, a wrong matrix).
public enum ReferenceComparison {
    /// The side of the small versions compared.
    public static let side = 32

    /// One picture file as compared: its size and its 32×32 RGB version (row by row).
    public struct Picture: Sendable {
        public var width: Int
        public var height: Int
        public var small: [UInt8]

        /// The same small version mirrored left to right: what a mirrored decode would give.
        public var mirrored: Picture {
            var copy = self
            for row in 0..<side {
                for column in 0..<side {
                    for channel in 0..<3 {
                        copy.small[(row * side + column) * 3 + channel] =
                            small[(row * side + side - 1 - column) * 3 + channel]
                    }
                }
            }
            return copy
        }

        /// The same small version turned half a turn.
        public var halfTurned: Picture {
            var copy = self
            let pixels = side * side
            for pixel in 0..<pixels {
                for channel in 0..<3 {
                    copy.small[pixel * 3 + channel] = small[(pixels - 1 - pixel) * 3 + channel]
                }
            }
            return copy
        }
    }

    /// How far two pictures' small versions are apart, each 0 (the same) to 255.
    public struct Difference: Sendable, CustomStringConvertible {
        public var grey: Double
        public var colour: Double
        public var description: String {
            "grey MAD \(grey.formatted(.number.precision(.fractionLength(2)))), "
                + "colour MAD \(colour.formatted(.number.precision(.fractionLength(2))))"
        }
    }

    /// Reads a picture file (PNG, JPEG, any format ffmpeg decodes).
    public static func picture(_ path: BytePath) throws -> Picture {
        let probe = try run(
            "ffprobe",
            [
                "-v", "error", "-select_streams", "v:0", "-show_entries", "stream=width,height", "-of",
                "csv=p=0", path.display,
            ])
        let size = String(decoding: probe, as: UTF8.self).split(whereSeparator: { $0 == "," || $0 == "\n" })
            .compactMap { Int($0) }
        guard size.count == 2 else {
            throw ComparisonError("ffprobe reads no picture size in '\(path.display)'.")
        }
        let small = try run(
            "ffmpeg",
            [
                "-nostdin", "-v", "error", "-i", path.display, "-frames:v", "1", "-vf",
                "scale=\(side):\(side):flags=area,format=rgb24", "-f", "rawvideo", "-",
            ])
        guard small.count == side * side * 3 else {
            throw ComparisonError(
                "ffmpeg made \(small.count) bytes of '\(path.display)', not a 32×32 picture.")
        }
        return Picture(width: size[0], height: size[1], small: small)
    }

    public static func difference(_ one: Picture, _ other: Picture) -> Difference {
        var grey = 0.0
        var colour = 0.0
        for pixel in 0..<side * side {
            let a = one.small[pixel * 3..<pixel * 3 + 3].map(Double.init)
            let b = other.small[pixel * 3..<pixel * 3 + 3].map(Double.init)
            grey += abs(luma(a) - luma(b))
            colour += zip(a, b).map { abs($0 - $1) }.reduce(0, +) / 3
        }
        let count = Double(side * side)
        return Difference(grey: grey / count, colour: colour / count)
    }

    /// The size a `width`×`height` picture takes with its longest edge made `edge`, never
    /// enlarged (a thumbnail's rule), to the nearest pixel.
    public static func fitted(width: Int, height: Int, edge: Int) -> (width: Int, height: Int) {
        let scale = min(1, Double(edge) / Double(max(width, height)))
        return (
            max(1, Int((Double(width) * scale).rounded())), max(1, Int((Double(height) * scale).rounded()))
        )
    }

    /// Whether two sizes are the same within a pixel each way.
    public static func sameSize(_ one: (width: Int, height: Int), _ other: (width: Int, height: Int)) -> Bool
    {
        abs(one.width - other.width) <= 1 && abs(one.height - other.height) <= 1
    }

    /// ffmpeg's picture of `video` as a player shows it, as a PNG at `output`: the frame
    /// `seconds` after the start (the last frame when the video is shorter), turned by
    /// its display matrix (ffmpeg's autorotate) and with non-square pixels made square.
    /// False when ffmpeg decodes no frame of it (no video stream, broken).
    public static func videoFrame(_ video: BytePath, at seconds: Double, to output: BytePath) throws -> Bool {
        let square = "scale=w='round(iw*sar)':h=ih,setsar=1"
        let common = ["-nostdin", "-v", "error", "-y"]
        _ = try? run(
            "ffmpeg",
            common + [
                "-ss", String(seconds), "-i", video.display, "-frames:v", "1", "-vf", square, output.display,
            ])
        if try Sys.statusIfExists(output).map({ $0.size > 0 }) == true { return true }
        // Past the last frame (a one-frame clip): the last one, as photofiler takes it.
        _ = try? run("ffmpeg", common + ["-i", video.display, "-vf", square, "-update", "1", output.display])
        return try Sys.statusIfExists(output).map { $0.size > 0 } == true
    }

    /// A tenth of the video's duration, in seconds (ffprobe's container duration), 0 when unknown.
    public static func tenthOfDuration(_ video: BytePath) throws -> Double {
        let output = try run(
            "ffprobe", ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", video.display])
        let text = String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return (Double(text) ?? 0) / 10
    }

    /// Runs `/usr/bin/PROGRAM ARGUMENTS…` to the end; its stdout, or an error with its stderr.
    public static func run(_ program: String, _ arguments: [String]) throws -> [UInt8] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/" + program)
        process.arguments = arguments
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        do {
            try process.run()
        } catch {
            throw ComparisonError("\(program) could not start (\(error)); install it with 'make deps'.")
        }
        // Both pipes read to their end at once: a program that fills one while the
        // other is read would wait forever.
        nonisolated(unsafe) var errors = Data()
        let drained = DispatchGroup()
        DispatchQueue.global().async(group: drained) {
            errors = stderr.fileHandleForReading.readDataToEndOfFile()
        }
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        drained.wait()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw ComparisonError(
                "\(program) \(arguments.joined(separator: " ")) exited with \(process.terminationStatus): "
                    + String(decoding: errors, as: UTF8.self))
        }
        return Array(output)
    }

    public struct ComparisonError: Error, CustomStringConvertible {
        public let description: String
        init(_ description: String) { self.description = description }
    }

    private static func luma(_ rgb: [Double]) -> Double { 0.299 * rgb[0] + 0.587 * rgb[1] + 0.114 * rgb[2] }
}
