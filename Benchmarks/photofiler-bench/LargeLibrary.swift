import CCrypto
import Foundation
import Glibc
import PhotoFilerCatalog
import PhotoFilerFiling
import PhotoFilerMedia
import PhotoFilerMediaTypes
import PhotoFilerSystem

/// A library of `count` assets made directly (rows through `Catalog`, small real roll
/// files and album links on disk, so the start-up reconcile finds them all), to time
/// the daemon's start-up and `list` on a large catalog.
enum LargeLibrary {
    static let album = "QQ"

    static func make(at root: String, count: Int) throws {
        let start = now()
        let library = try PhotoLibrary(root: BytePath(root), log: Logger(minimumLevel: .error))
        let catalog = library.catalog
        let albumRecord = try catalog.createAlbum(name: album, folderName: BytePath(album), at: 0)
        let albumFolder = "\(root)/Albums/\(album)"
        try makeDirectories(albumFolder)
        var made: Set<String> = []
        var digest = [UInt8](repeating: 0, count: 32)
        let base = Date().timeIntervalSince1970 - 86_400 * 400
        let chunk = 5_000
        var index = 0
        while index < count {
            let upper = min(index + chunk, count)
            try catalog.transaction {
                for i in index..<upper {
                    let year = 2010 + i % 12
                    let month = 1 + (i / 12) % 12
                    let folder = String(format: "Roll/%04d/%02d", year, month)
                    if made.insert(folder).inserted { try makeDirectories("\(root)/\(folder)") }
                    let name = String(format: "IMG_%07d.jpg", i)
                    let relative = "\(folder)/\(name)"
                    let content = Array("photofiler large-library asset \(i)\n".utf8)
                    let fd = try check(
                        open("\(root)/\(relative)", O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644), "open",
                        relative)
                    _ = content.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
                    close(fd)
                    try check(link("\(root)/\(relative)", "\(albumFolder)/\(name)"), "link", name)
                    var length: UInt32 = 0
                    _ = content.withUnsafeBytes {
                        EVP_Digest($0.baseAddress, $0.count, &digest, &length, EVP_sha256(), nil)
                    }
                    let created = CaptureDate(
                        secondsSinceEpoch: Int64(base) - Int64(i) * 3600, utcOffsetSeconds: 0, source: .exif)
                    let asset = AssetRecord(
                        id: 0, rollPath: BytePath(relative),
                        hash: digest.map { String(format: "%02x", $0) }.joined(),
                        info: MediaInfo(
                            mediaType: .image, mimeType: "image/jpeg", pixelWidth: 4032, pixelHeight: 3024,
                            embeddedDate: created),
                        created: created, addedAt: base + Double(i), size: Int64(content.count),
                        originalName: BytePath(name), sourceInbox: album)
                    let id = try catalog.insertAsset(asset)
                    try catalog.addMembership(
                        asset: id, album: albumRecord.id, entryName: BytePath(name), at: base + Double(i))
                }
            }
            index = upper
        }
        say(String(format: "  made a library of %d assets in %.1f s", count, now() - start))
        // The daemon trusts a folder's stamp only once the folder's last change is older
        // than a coarse timestamp tick (3 s, FolderWalk), and every folder here changed
        // until just now: a start at once reads them all, as three starts in a row did
        // (0.95 s to READY at 100,000 assets against 0.04 s). The figures are of a
        // library at rest, as a user's is when the daemon starts: wait the tick out.
        let atRest = now() + 3.5
        while now() < atRest { usleep(100_000) }
    }

    struct StartUp {
        var seconds: Double
        var rssKB: Int
        var peakRSSKB: Int
        var anonymousRSSKB: Int
    }

    /// Starts the daemon on the library (one empty inbox) and times spawn → READY=1.
    static func startUp(root: String, work: String, photofiler: String) throws -> StartUp {
        let inbox = "\(work)/large-inbox"
        try makeDirectories(inbox)
        let socket = try NotifySocket(path: "\(work)/large-notify.sock")
        let start = now()
        let child = try Child(
            photofiler, ["watch", "--library", root, "--inbox", "\(album)=\(inbox)", "--settle", "0"],
            environment: ["NOTIFY_SOCKET": socket.path], log: "\(work)/large-log")
        defer { child.stop() }
        guard socket.wait(for: "READY=1", timeout: 120, alive: { child.isRunning }) else {
            throw BenchFailure("photofiler did not start on the large library; see \(work)/large-log")
        }
        let seconds = now() - start
        socket.drainInBackground()
        let sample = ProcessSample.read(pid: child.pid)
        return StartUp(
            seconds: seconds, rssKB: sample?.rssKB ?? 0, peakRSSKB: sample?.peakRSSKB ?? 0,
            anonymousRSSKB: sample?.anonymousRSSKB ?? 0)
    }

    /// `photofiler list --album QQ --limit 100 --json`, wall time of the whole command:
    /// the median of five runs after one warm-up (the first run after the daemon's
    /// start-up pays for cold caches; a user's `list` seldom does).
    static func list(root: String, photofiler: String) throws -> Double {
        var times: [Double] = []
        for _ in 0..<6 {
            let run = try timedRun(
                photofiler, ["list", "--library", root, "--album", album, "--limit", "100", "--json"])
            guard run.status == 0,
                let items = try? JSONSerialization.jsonObject(with: run.output) as? [Any], items.count == 100
            else {
                throw BenchFailure("photofiler list failed on the large library (exit \(run.status))")
            }
            times.append(run.seconds)
        }
        return times.dropFirst().sorted()[2]
    }
}
