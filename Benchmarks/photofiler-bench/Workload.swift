import CGExiv2
import CVips
import Dispatch
import Foundation
import Glibc
import Synchronization

/// One generated picture: its name, the inbox it is dropped into, its EXIF date.
struct Picture: Sendable {
    var name: String
    var inbox: Int
    var year: Int
    var month: Int
}

/// N distinct real JPEGs (20–60 KB of encoded noise with a printed label, each with its
/// own EXIF DateTimeOriginal), made once with libvips and gexiv2 and kept in a cache
/// folder, then copied fresh for every contender.
struct Workload {
    static let inboxNames = ["QQ", "WeChat", "Weibo"]
    /// Bump when the generator changes so old caches are not reused.
    static let version = 1

    let folder: String
    let pictures: [Picture]

    /// Generates (or reuses) `count` pictures under `cacheRoot`.
    static func make(count: Int, cacheRoot: String) throws -> Workload {
        let folder = "\(cacheRoot)/v\(version)-\(count)"
        let pictures = (0..<count).map { index -> Picture in
            var random = SplitMix(seed: UInt64(index))
            return Picture(
                name: String(format: "photo_%06d.jpg", index), inbox: index % 3,
                year: 2015 + Int(random.next() % 10), month: 1 + Int(random.next() % 12))
        }
        let done = "\(folder)/.complete"
        if FileManager.default.fileExists(atPath: done) {
            return Workload(folder: folder, pictures: pictures)
        }
        removeTree(folder)
        try makeDirectories(folder)
        guard vips_init(CommandLine.arguments[0]) == 0 else { throw BenchFailure("libvips did not start") }
        vips_cache_set_max(0)
        guard gexiv2_initialize() != 0 else { throw BenchFailure("gexiv2 did not start") }
        let start = now()
        let failures = Mutex<[String]>([])
        let workers = max(ProcessInfo.processInfo.activeProcessorCount, 1)
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            var index = worker
            while index < count {
                do {
                    try generate(
                        index: index, picture: pictures[index], path: "\(folder)/\(pictures[index].name)")
                } catch {
                    failures.withLock { $0.append("\(error)") }
                    return
                }
                index += workers
            }
        }
        if let first = failures.withLock({ $0.first }) { throw BenchFailure(first) }
        _ = FileManager.default.createFile(atPath: done, contents: nil)
        say(String(format: "  generated %d JPEGs in %.1f s (cached in %@)", count, now() - start, folder))
        return Workload(folder: folder, pictures: pictures)
    }

    private static func generate(index: Int, picture: Picture, path: String) throws {
        var random = SplitMix(seed: UInt64(index) &* 7919 &+ 17)
        let width = 256 + Int(random.next() % 160)
        let height = 192 + Int(random.next() % 120)
        let sigma = 14 + Double(random.next() % 18)
        let mean = 90 + Double(random.next() % 80)
        var noise: UnsafeMutablePointer<VipsImage>?
        var label: UnsafeMutablePointer<VipsImage>?
        var merged: UnsafeMutablePointer<VipsImage>?
        var pixels: UnsafeMutablePointer<VipsImage>?
        defer {
            for image in [noise, label, merged, pixels] { if let image { g_object_unref(image) } }
        }
        guard photofiler_vips_gaussnoise(&noise, Int32(width), Int32(height), mean, sigma) == 0,
            photofiler_vips_text(&label, "photofiler bench #\(index)", Int32(width - 20), 72) == 0,
            photofiler_vips_insert(noise, label, &merged, 10, Int32(10 + Int(random.next() % 40))) == 0,
            photofiler_vips_cast_uchar(merged, &pixels) == 0,
            photofiler_vips_jpegsave(pixels, path, Int32(72 + Int(random.next() % 20))) == 0
        else {
            throw BenchFailure("libvips could not make '\(path)': \(String(cString: vips_error_buffer()))")
        }
        let metadata = gexiv2_metadata_new()
        defer { g_object_unref(metadata) }
        var error: UnsafeMutablePointer<GError>?
        let day = 1 + Int(random.next() % 28)
        let date = String(
            format: "%04d:%02d:%02d %02d:%02d:%02d", picture.year, picture.month, day,
            Int(random.next() % 24),
            Int(random.next() % 60), Int(random.next() % 60))
        guard gexiv2_metadata_open_path(metadata, path, &error) != 0,
            gexiv2_metadata_try_set_tag_string(metadata, "Exif.Photo.DateTimeOriginal", date, &error) != 0,
            gexiv2_metadata_try_set_tag_string(metadata, "Exif.Image.Model", "photofiler-bench", &error) != 0,
            gexiv2_metadata_save_file(metadata, path, &error) != 0
        else {
            let message = error.map { String(cString: $0.pointee.message) } ?? "unknown"
            if let error { g_error_free(error) }
            throw BenchFailure("gexiv2 could not date '\(path)': \(message)")
        }
    }

    /// Copies every picture into `staging/` (a fresh, unsynced copy per contender, as
    /// an app would have written it), then syncs so that no contender pays for the
    /// staging's write-back. Returns the staged paths and their inbox indices.
    func stage(into staging: String, pictures selection: ArraySlice<Picture>) throws -> [(
        path: String, picture: Picture
    )] {
        try makeDirectories(staging)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 4096)
        defer { buffer.deallocate() }
        var staged: [(String, Picture)] = []
        staged.reserveCapacity(selection.count)
        for picture in selection {
            let path = "\(staging)/\(picture.name)"
            try copyFile("\(folder)/\(picture.name)", to: path, buffer: buffer)
            staged.append((path, picture))
        }
        sync()
        return staged
    }
}

/// A small deterministic random generator (SplitMix64), so a workload is the same every run.
struct SplitMix {
    private var state: UInt64
    init(seed: UInt64) { state = seed &+ 0x9E37_79B9_7F4A_7C15 }
    mutating func next() -> UInt64 {
        state = state &+ 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
