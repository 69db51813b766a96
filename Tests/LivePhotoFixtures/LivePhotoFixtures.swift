import CGExiv2
import Foundation
import PhotoFilerMedia
import PhotoFilerSystem
import TestSupport

/// Live Photo halves and motion photos made for the tests: the corpus holds no
/// real pair. The still gets what an iPhone writes (Make `Apple`, an Apple
/// MakerNote whose tag 0x0011 is the content identifier) through gexiv2; the
/// video gets the QuickTime key through Debian's `ffmpeg` (make deps installs it).
public enum LivePhotoFixtures {
    /// An Apple MakerNote as an iPhone lays it out: signature, version, `MM`, one
    /// big-endian IFD (offsets from the MakerNote's start) with tag 0x0001 and 0x0011.
    public static func appleMakerNote(contentIdentifier: String) -> [UInt8] {
        let value = Array(contentIdentifier.utf8) + [0]
        var note = Array("Apple iOS".utf8) + [0, 0, 1, UInt8(ascii: "M"), UInt8(ascii: "M")]
        let entries = 2
        let valueOffset = note.count + 2 + 12 * entries + 4
        func u16(_ v: Int) -> [UInt8] { [UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        func u32(_ v: Int) -> [UInt8] { u16(v >> 16) + u16(v & 0xFFFF) }
        note += u16(entries)
        note += u16(0x0001) + u16(9) + u32(1) + u32(14)  // MakerNoteVersion, SLONG, in place
        note += u16(0x0011) + u16(2) + u32(value.count) + u32(valueOffset)
        note += u32(0)  // no next IFD
        return note + value
    }

    /// `jpeg` made an iPhone still carrying `contentIdentifier`, taken at `taken`
    /// (EXIF `YYYY:MM:DD HH:MM:SS`).
    public static func appleStill(
        _ jpeg: [UInt8], contentIdentifier: String, taken: String, in folder: TemporaryFolder
    )
        throws -> [UInt8]
    {
        try appleStill(
            jpeg, makerNote: appleMakerNote(contentIdentifier: contentIdentifier), taken: taken, in: folder)
    }

    /// `jpeg` made an iPhone still carrying the Apple MakerNote `makerNote`.
    public static func appleStill(
        _ jpeg: [UInt8], makerNote note: [UInt8], taken: String, in folder: TemporaryFolder
    )
        throws -> [UInt8]
    {
        let path = folder.file("still-\(UUID().uuidString).jpg")
        try writeFile(path, jpeg)
        try edit(path) { metadata in
            try set(metadata, "Exif.Image.Make", "Apple")
            try set(metadata, "Exif.Image.Model", "iPhone 15 Pro")
            try set(metadata, "Exif.Photo.DateTimeOriginal", taken)
            try set(metadata, "Exif.Photo.MakerNote", note.map(String.init).joined(separator: " "))
        }
        return try readFile(path)
    }

    /// A Google motion photo: `jpeg` with XMP `GCamera:MicroVideo` and
    /// `MicroVideoOffset` (the video's length), and `video` appended after its end.
    public static func googleMotionPhoto(_ jpeg: [UInt8], video: [UInt8], in folder: TemporaryFolder) throws
        -> [UInt8]
    {
        let path = folder.file("motion-\(UUID().uuidString).jpg")
        try writeFile(path, jpeg)
        try edit(path) { metadata in
            try set(metadata, "Xmp.GCamera.MicroVideo", "1")
            try set(metadata, "Xmp.GCamera.MicroVideoVersion", "1")
            try set(metadata, "Xmp.GCamera.MicroVideoOffset", "\(video.count)")
        }
        return try readFile(path) + video
    }

    /// A one-second QuickTime movie (or MP4) from ffmpeg's test pattern, with the
    /// Live Photo key when `contentIdentifier` is given, created at `created`
    /// (ISO 8601 with an offset). `variant` makes the bytes differ.
    public static func movie(
        contentIdentifier: String?, created: String, container: String = "mov", variant: Int = 0,
        in folder: TemporaryFolder
    ) throws -> [UInt8] {
        let path = folder.file("movie-\(UUID().uuidString).\(container)")
        var arguments = [
            "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=duration=1:size=64x48:rate=10",
            "-c:v", "mpeg4", "-movflags", "use_metadata_tags",
            "-metadata", "com.apple.quicktime.creationdate=\(created)",
            "-metadata", "comment=photofiler test \(variant)",
        ]
        if let contentIdentifier {
            arguments += ["-metadata", "com.apple.quicktime.content.identifier=\(contentIdentifier)"]
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
        process.arguments = arguments + [path.display]
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw FixtureError(
                "ffmpeg exited with \(process.terminationStatus); install it with 'make deps'.")
        }
        return try readFile(path)
    }

    public struct FixtureError: Error, CustomStringConvertible {
        public let description: String
        init(_ description: String) { self.description = description }
    }

    /// Serialises the fixtures' use of exiv2, which tests call from many threads at
    /// once: its XMP namespace registry is process-wide and not thread-safe (a
    /// namespace registered while another thread reads the registry crashed a run).
    /// The motion photos' namespaces are registered by `MediaLibraries.start`, once a
    /// process, as for the media tests' own readers: never again while one reads.
    private static let exiv2 = NSLock()

    private static func edit(_ path: BytePath, _ body: (OpaquePointer) throws -> Void) throws {
        exiv2.lock()
        defer { exiv2.unlock() }
        do {
            try MediaLibraries.start()
        } catch {
            throw FixtureError("exiv2 could not start: \(error)")
        }
        guard let metadata = gexiv2_metadata_new() else { throw FixtureError("gexiv2_metadata_new failed") }
        defer { g_object_unref(UnsafeMutableRawPointer(metadata)) }
        var error: UnsafeMutablePointer<GError>?
        guard gexiv2_metadata_open_path(metadata, path.display, &error) != 0 else {
            throw FixtureError("gexiv2 could not open '\(path.display)': \(message(&error))")
        }
        try body(OpaquePointer(metadata))
        guard gexiv2_metadata_save_file(metadata, path.display, &error) != 0 else {
            throw FixtureError("gexiv2 could not save '\(path.display)': \(message(&error))")
        }
    }

    private static func set(_ metadata: OpaquePointer, _ tag: String, _ value: String) throws {
        var error: UnsafeMutablePointer<GError>?
        let handle = UnsafeMutablePointer<GExiv2Metadata>(metadata)
        guard gexiv2_metadata_try_set_tag_string(handle, tag, value, &error) != 0 else {
            throw FixtureError("gexiv2 could not set \(tag): \(message(&error))")
        }
    }

    private static func message(_ error: inout UnsafeMutablePointer<GError>?) -> String {
        guard let pointer = error else { return "no reason given" }
        defer {
            g_error_free(pointer)
            error = nil
        }
        return pointer.pointee.message.map { String(cString: $0) } ?? "no reason given"
    }
}
