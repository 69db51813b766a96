import Foundation
import Glibc
import TestSupport
import Testing

@testable import PhotoFilerDecoders
@testable import PhotoFilerMedia
@testable import PhotoFilerMediaTypes
@testable import PhotoFilerSandbox
@testable import PhotoFilerSystem

/// The helper pool against real `photofiler-helper-light` and `photofiler-helper`
/// processes (built beside this test binary): the lockdown, the answers, and what a
/// hostile file costs (issue 10).
@Suite struct HelperPoolTests {
    static let examples: BytePath = BytePath(#filePath).parent.parent.parent.parent.appending(
        "examples/pictures")

    /// A shorter deadline for the hang test (long enough for the allocation bomb to
    /// reach its limit on a loaded machine).
    static func pool(deadline: Double = 10, idle: Double = 60) -> HelperPool {
        var settings = HelperPool.Settings()
        settings.deadlineSeconds = deadline
        settings.idleSeconds = idle
        return HelperPool(settings: settings)
    }

    /// Opens each file and asks `pool` about all of them in one batch.
    static func inspect(_ paths: [BytePath], with pool: HelperPool) throws -> [Result<MediaInfo, MediaError>]
    {
        let fds = try paths.map { try Sys.openForReading($0) }
        defer { for fd in fds { fd.close() } }
        let files = try zip(fds, paths).map { fd, path in
            MediaFile(fd: fd, path: path, size: try fd.status().size)
        }
        return pool.inspect(files).wait()
    }

    static var examplePaths: [BytePath] {
        get throws {
            try Sys.listDirectory(examples).map { examples.appending($0.name) }.sorted {
                $0.display < $1.display
            }
        }
    }

    /// A JPEG, read by the light helper alone.
    static let jpeg = examples.appending("harbour.jpg")
    /// A PNG: its CRCs take libvips, so the light helper hands it on.
    static let png = examples.appending("Screenshot_20240105-093000.png")

    /// The helpers of `kind` that `pool` started to read one file (a JPEG for the
    /// light ones, a PNG for the full ones).
    static func startedHelpers(_ pool: HelperPool, _ kind: HelperKind) throws -> [pid_t] {
        let answers = try inspect([kind == .light ? jpeg : png], with: pool)
        #expect((try? answers[0].get()) != nil, "\(answers)")
        let pids = pool.helperPIDs(kind)
        #expect(!pids.isEmpty)
        return pids
    }

    /// The names of the shared objects a process maps.
    static func mappedFiles(_ pid: pid_t) throws -> Set<String> {
        let maps = String(decoding: try readFile(BytePath("/proc/\(pid)/maps")), as: UTF8.self)
        return Set(maps.split(separator: "\n").compactMap { $0.split(separator: "/").last.map(String.init) })
    }

    @Test(arguments: HelperKind.allCases)
    func helpersAreLockedDownAndCannotOpenAFile(kind: HelperKind) throws {
        let pool = Self.pool()
        defer { pool.stop() }
        for pid in try Self.startedHelpers(pool, kind) {
            let status = String(decoding: try readFile(BytePath("/proc/\(pid)/status")), as: UTF8.self)
            let lines = status.split(separator: "\n").map { $0.split(separator: "\t").joined(separator: " ") }
            #expect(lines.contains("NoNewPrivs: 1"), "\(status)")
            #expect(lines.contains("Seccomp: 2"), "\(status)")
        }
        for path in ["/etc/passwd", try Self.examplePaths[0].display] {
            let opened = pool.probeOpen(BytePath(path), in: kind)
            #expect(opened == .success(EPERM), "opening \(path) inside the sandbox: \(opened)")
        }
    }

    /// A JPEG is read by the light helper, which maps libmagic and exiv2 and no
    /// decoder, and no full helper starts for it; a PNG and a video go on to a full
    /// helper, and their answers are that reader's (`sandboxedAnswersMatchTheReaderInProcess`).
    @Test func theLightHelperReadsJPEGsAndHandsOnWhatNeedsADecoder() throws {
        let pool = Self.pool()
        defer { pool.stop() }
        let light = try Self.startedHelpers(pool, .light)
        #expect(pool.helperPIDs(.full).isEmpty, "a JPEG started a full helper")
        for pid in light {
            let mapped = try Self.mappedFiles(pid)
            #expect(mapped.contains { $0.hasPrefix("libmagic.so") }, "\(mapped.sorted())")
            #expect(mapped.contains { $0.hasPrefix("libexiv2.so") }, "\(mapped.sorted())")
            for decoder in ["libvips.so", "libheif.so", "libavformat.so", "libavcodec.so"] {
                #expect(!mapped.contains { $0.hasPrefix(decoder) }, "the light helper maps \(decoder)")
            }
        }
        let video = Fixtures.corpus("with-gps.mp4")
        let answers = try Self.inspect([Self.png, video, Self.jpeg], with: pool)
        #expect(answers.map { (try? $0.get())?.mediaType } == [.image, .video, .image], "\(answers)")
        let full = pool.helperPIDs(.full)
        #expect(!full.isEmpty)
        for pid in full { #expect(try Self.mappedFiles(pid).contains { $0.hasPrefix("libvips.so") }) }
    }

    /// A helper maps libvips' HEIF module and libheif's decoders, and none of the
    /// plug-ins it does not use (each start paid for them: PhotoPlugins), even when
    /// the process that starts it has read pictures itself: `vips_init` leaves
    /// `VIPSHOME` in that process's environment, and the helper inherits it.
    @Test func helpersLoadOnlyThePluginsTheyUse() throws {
        _ = try MediaReader(decoders: try LibraryDecoders())
        #expect(ProcessEnvironment.current["VIPSHOME"] != nil, "vips_init in this process sets VIPSHOME")
        let pool = Self.pool()
        defer { pool.stop() }
        for pid in try Self.startedHelpers(pool, .full) {
            // The plug-ins among the mapped files, by name (the failure lists only them).
            let plugins = try Self.mappedFiles(pid).filter {
                $0.hasPrefix("vips-") || $0.hasPrefix("libheif-")
            }
            #expect(plugins.contains("vips-heif.so"), "helper \(pid) maps \(plugins.sorted())")
            #expect(plugins.contains("libheif-libde265.so"), "helper \(pid) maps \(plugins.sorted())")
            for unused in [
                "vips-magick.so", "vips-poppler.so", "vips-openslide.so", "vips-jxl.so", "libheif-x265.so",
            ] {
                #expect(!plugins.contains(unused), "helper \(pid) maps \(unused): \(plugins.sorted())")
            }
        }
    }

    /// The sandboxed answers are exactly what the same reader says in process, for
    /// the examples and the corpus: nothing the lockdown forbids was needed.
    @Test func sandboxedAnswersMatchTheReaderInProcess() throws {
        let paths = try Self.examplePaths + CorpusManifest.entries.map { Fixtures.corpus($0.file) }
        let pool = Self.pool()
        defer { pool.stop() }
        let sandboxed = try Self.inspect(paths, with: pool)
        let reader = try MediaReader(decoders: try LibraryDecoders())
        for (path, answer) in zip(paths, sandboxed) {
            let fd = try Sys.openForReading(path)
            defer { fd.close() }
            let local = Result { () throws(MediaError) in
                try reader.read(fd, path: path, size: try! fd.status().size)
            }
            #expect(answer == local, "\(path.display)")
        }
        #expect(sandboxed.filter { (try? $0.get()) != nil }.count >= paths.count / 2)
    }

    @Test func aHostileFileCostsOnlyItself() throws {
        let folder = try TemporaryFolder()
        var paths = try Self.examplePaths
        let hostile = ["crash": "CRASH", "hang": "HANG", "allocate": "ALLOCATE"].map {
            name, word -> BytePath in
            let path = folder.file("\(name).jpg")
            try? writeFile(path, Array("PHOTOFILER-TEST-\(word)\n".utf8) + Array(repeating: 0, count: 64))
            return path
        }
        paths.insert(hostile[0], at: 1)
        paths.insert(hostile[1], at: 3)
        paths.append(hostile[2])
        let pool = Self.pool(deadline: 8)
        defer { pool.stop() }
        let answers = try Self.inspect(paths, with: pool)
        for (path, answer) in zip(paths, answers) {
            switch (path.lastComponent.display, answer) {
            case ("crash.jpg", .failure(.readerFailed(_, let what))):
                #expect(what.contains("crashed"), "\(what)")
            case ("hang.jpg", .failure(.readerTimedOut(_, let seconds))):
                #expect(seconds == 8)
            case ("allocate.jpg", .failure(.readerFailed(_, let what))):
                #expect(what.contains("memory"), "\(what)")
            case (let name, .success) where !["crash.jpg", "hang.jpg", "allocate.jpg"].contains(name):
                break
            default:
                Issue.record("\(path.display): \(answer)")
            }
        }
        // And the pool carries on with fresh helpers.
        #expect(
            try Self.inspect(Array(try Self.examplePaths.prefix(2)), with: pool).allSatisfy {
                (try? $0.get()) != nil
            })
    }

    /// Helpers killed from outside together (`pkill`, the OOM killer) cost no file:
    /// the file a killed helper was on is tried again on a helper started since, not
    /// on one the same kill is about to end (the daemon's burst test refused a file so).
    @Test func aFileWhoseHelperIsKilledIsTriedOnAHelperStartedSince() throws {
        var settings = HelperPool.Settings()
        settings.helpers = 2
        let pool = HelperPool(settings: settings)
        defer { pool.stop() }
        pool.prepare()
        #expect(waitUntil(timeout: 20) { pool.helperPIDs(.light).count == 2 })
        let helpers = pool.helperPIDs(.light)
        // Stopped, they hold what they are sent; the file goes to the first, both idle.
        for pid in helpers { kill(pid, SIGSTOP) }
        let fd = try Sys.openForReading(Self.jpeg)
        defer { fd.close() }
        let reads = pool.inspect([MediaFile(fd: fd, path: Self.jpeg, size: try fd.status().size)])
        #expect(pool.helperPIDs(.light) == helpers)
        kill(helpers[0], SIGKILL)
        #expect(waitUntil(timeout: 20) { !pool.helperPIDs(.light).contains(helpers[0]) })
        kill(helpers[1], SIGKILL)
        let answer = reads.wait()[0]
        #expect((try? answer.get()) != nil, "\(answer)")
    }

    /// glibc reads its tunables as a process starts: the helper's environment carries
    /// photofiler's malloc cache size (`MallocTunables`).
    @Test func helpersStartWithTheMallocTunables() throws {
        let pool = Self.pool()
        defer { pool.stop() }
        for pid in try Self.startedHelpers(pool, .light) {
            let environment = try readFile(BytePath("/proc/\(pid)/environ")).split(separator: 0)
            let tunables = environment.filter { $0.starts(with: Array("GLIBC_TUNABLES=".utf8)) }
            #expect(
                tunables.map { String(decoding: $0, as: UTF8.self) }.allSatisfy {
                    $0.hasPrefix("GLIBC_TUNABLES=\(MallocTunables.setting)")
                } && tunables.count == 1,
                "helper \(pid): \(tunables.map { String(decoding: $0, as: UTF8.self) })")
        }
    }

    @Test func idleHelpersEnd() throws {
        let pool = Self.pool(idle: 0.2)
        defer { pool.stop() }
        _ = try Self.inspect(try Self.examplePaths, with: pool)
        let pids = pool.helperPIDs
        #expect(!pids.isEmpty)
        #expect(waitUntil(timeout: 10) { pool.helperPIDs.isEmpty })
        for pid in pids { #expect(kill(pid, 0) == -1 && errno == ESRCH, "helper \(pid) is still there") }
        // The next file starts a helper again.
        #expect(
            try Self.inspect(Array(try Self.examplePaths.prefix(1)), with: pool).allSatisfy {
                (try? $0.get()) != nil
            })
    }

    @Test func messagesRoundTripAndNonsenseIsRefused() throws {
        var info = MediaInfo(
            mediaType: .video, mimeType: "video/mp4", subtypes: ["live"], pixelWidth: 1920, pixelHeight: 1080,
            orientation: 6,
            embeddedDate: CaptureDate(
                secondsSinceEpoch: 1_700_000_000, utcOffsetSeconds: 3600, source: .container),
            duration: 2.5, frameCount: 1)
        // A Live Photo's identifier and a motion photo's video travel too.
        info.live.contentIdentifier = "6F1C6C6E-2A4B-4B8E-9C0D-1E2F3A4B5C6D"
        info.live.embeddedVideo = EmbeddedVideo(offset: 4096, length: 123_456, duration: 1.5)
        #expect(try MediaInfo(wire: info.wire) == info)
        var spaced = info
        spaced.live.contentIdentifier = "not an identifier"
        #expect(throws: WireError.self) { try MediaInfo(wire: spaced.wire) }
        let refusal = MediaError.damaged(path: "a.png", format: "PNG", reason: "CRC")
        #expect(try MediaError(wire: refusal.wire, path: "a.png") == refusal)
        let handedOn = MediaError.needsDecoders(path: "a.png", library: "libvips")
        #expect(try MediaError(wire: handedOn.wire, path: "a.png") == handedOn)
        let large = MediaError.tooLarge(path: "a.tif", format: "TIFF", size: 300 << 20, limit: 256 << 20)
        #expect(try MediaError(wire: large.wire, path: "a.tif") == large)
        let request = HelperRequest.inspect(id: 7, path: "x.jpg", size: 42)
        #expect(try HelperRequest.decode(request.encoded).get() == request)
        // Every cut of a valid answer is refused, never read past its end.
        let answer = HelperAnswer(id: 3, outcome: .value, body: info.wire, notes: ["exiv2 warning: x"])
            .encoded
        for length in 0..<answer.count {
            #expect(throws: WireError.self) { try HelperAnswer.decode(Array(answer.prefix(length))) }
        }
        #expect(throws: WireError.self) { try MediaInfo(wire: Array(info.wire.dropLast())) }
    }
}
