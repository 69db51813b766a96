import Foundation
import Glibc
import TestSupport
import Testing

@testable import PhotoFilerSystem

/// The daemon parses no byte itself (issue 10, photofiler(1) "Untrusted bytes"): its helpers
/// do, locked down; a file that crashes, hangs or exhausts one is reported once and
/// left in its inbox while everything around it is filed; a helper killed from
/// outside costs nothing.
@Suite struct SandboxDaemonTests {
    static let decoders = ["libexiv2", "libgexiv2", "libvips", "libheif", "libavformat", "libmagic"]

    /// The running helpers of `daemon` (children named photofiler-helper).
    static func helpers(of daemon: DaemonProcess) -> [pid_t] {
        let entries = (try? Sys.listDirectory("/proc")) ?? []
        return entries.compactMap { entry -> pid_t? in
            guard let pid = pid_t(entry.name.display),
                let stat = try? readFile(BytePath("/proc/\(pid)/stat"))
            else { return nil }
            let text = String(decoding: stat, as: UTF8.self)
            // "pid (comm) state ppid …"; comm is cut at 15 bytes.
            guard let close = text.lastIndex(of: ")"), text.contains("(photofiler-help") else { return nil }
            let fields = text[text.index(after: close)...].split(separator: " ")
            return fields.count > 1 && pid_t(fields[1]) == daemon.pid ? pid : nil
        }
    }

    static func status(_ pid: pid_t) -> [String] {
        let text = String(decoding: (try? readFile(BytePath("/proc/\(pid)/status"))) ?? [], as: UTF8.self)
        return text.split(separator: "\n").map { $0.split(separator: "\t").joined(separator: " ") }
    }

    @Test func hostileFilesCostOnlyThemselvesAndTheDaemonMapsNoDecoder() throws {
        let scene = try DaemonScene()
        let daemon = try DaemonProcess(
            library: scene.library,
            arguments: ["--inbox", "QQ=\(scene.inbox().display)", "--settle", "20"],
            environment: ["PHOTOFILER_HELPER_DEADLINE_MS": "8000"])
        defer { daemon.terminate() }
        let inbox = scene.inbox()
        var good: [String] = []
        for n in 0..<10 {
            try scene.dropByRename(Pictures.unique(500 + n), as: "before-\(n).jpg", into: inbox)
            good.append("before-\(n).jpg")
        }
        let hostile = ["crash": "CRASH", "hang": "HANG", "allocate": "ALLOCATE"]
        for (name, word) in hostile {
            try scene.dropByRename(
                Array("PHOTOFILER-TEST-\(word)\n".utf8) + Pictures.unique(0), as: "\(name).jpg", into: inbox)
        }
        for n in 0..<10 {
            try scene.dropByRename(Pictures.unique(600 + n), as: "after-\(n).jpg", into: inbox)
            good.append("after-\(n).jpg")
        }
        #expect(scene.waitForAlbum(count: good.count, timeout: 60), "\(daemon.log)")
        for name in hostile.keys {
            #expect(daemon.waitForLog("\(name).jpg' could not be read", timeout: 30), "\(daemon.log)")
        }
        // An album entry comes before its group's commit and the removal of its source.
        func remaining() -> Set<String> { Set(((try? Sys.listDirectory(inbox)) ?? []).map(\.name.display)) }
        let refused = Set(hostile.keys.map { "\($0).jpg" })
        #expect(waitUntil(timeout: 60) { remaining() == refused }, "\(remaining()): \(daemon.log)")
        #expect(daemon.logLines(containing: "crash.jpg").count == 1, "\(daemon.log)")
        #expect(daemon.logLines(containing: "crashed").count == 1, "\(daemon.log)")
        #expect(daemon.logLines(containing: "hang.jpg").count == 1, "\(daemon.log)")
        #expect(daemon.logLines(containing: "allocate.jpg").count == 1, "\(daemon.log)")
        #expect(daemon.logLines(containing: "memory").count == 1, "\(daemon.log)")

        // The daemon itself has none of the decoders mapped; its helpers are locked down.
        let maps = String(decoding: try readFile(BytePath("/proc/\(daemon.pid)/maps")), as: UTF8.self)
        for library in Self.decoders {
            #expect(!maps.contains("/\(library)"), "the daemon maps \(library)")
        }
        let helpers = Self.helpers(of: daemon)
        #expect(!helpers.isEmpty)
        for pid in helpers {
            // A helper just started (the one after the crash) locks itself down once its
            // libraries are loaded; one that is gone meanwhile has nothing to show.
            #expect(
                waitUntil(timeout: 30) {
                    let status = Self.status(pid)
                    return status.isEmpty || status.contains("Seccomp: 2")
                }, "\(Self.status(pid))")
            let status = Self.status(pid)
            guard !status.isEmpty else { continue }
            #expect(status.contains("NoNewPrivs: 1"))
            #expect(status.contains("Seccomp: 2"))
            let helperMaps = String(
                decoding: (try? readFile(BytePath("/proc/\(pid)/maps"))) ?? [], as: UTF8.self)
            #expect(helperMaps.contains("/libexiv2"), "a helper is what maps the decoders")
        }
    }

    /// The gallery reads the catalog and serves files: nothing of it decodes, so
    /// `serve` maps no decoder either (it is the same executable as `save`).
    @Test func theGalleryMapsNoDecoder() throws {
        let library = try TestLibrary()
        let file = try library.input(bytes: Pictures.uniqueJPEG(1, tag: "sandbox"), name: "one.jpg")
        try library.save([file])
        let server = try GalleryProcess(library: library.root)
        let (reply, _) = try server.json("/api/assets")
        #expect(reply.status == 200)
        let maps = String(decoding: try readFile(BytePath("/proc/\(server.process.pid)/maps")), as: UTF8.self)
        for library in Self.decoders {
            #expect(!maps.contains("/\(library)"), "serve maps \(library)")
        }
    }

    @Test func helpersKilledDuringABurstLoseNothing() throws {
        let scene = try DaemonScene()
        let inbox = scene.inbox()
        let daemon = try DaemonProcess(
            library: scene.library, arguments: ["--inbox", "QQ=\(inbox.display)", "--settle", "20"])
        var originals = Set<String>()
        let burst = 1200
        for n in 0..<burst {
            let bytes = Pictures.unique(n)
            originals.insert(Pictures.hash(bytes))
            try Pictures.drop(bytes, at: inbox.appending("IMG_\(n).jpg"), staging: scene.staging)
        }
        var kills = 0
        let album = scene.library.appending("Albums/QQ")
        func filed() -> Int { (try? Sys.listDirectory(album).count) ?? 0 }
        // A file gets one more try after its helper dies, not two, so each kill waits until
        // the file a kill sent back is surely filed: filing goes in groups of up to 256,
        // one inspected while the one before is written, so two groups past the last kill.
        var filedAtKill = 0
        for target in [50, 200, 350] {
            #expect(
                waitUntil(timeout: 120) {
                    filed() >= max(target, filedAtKill > 0 ? min(filedAtKill + 512, burst) : 0)
                },
                "\(daemon.log)")
            filedAtKill = filed()
            for pid in Self.helpers(of: daemon) where kill(pid, SIGKILL) == 0 { kills += 1 }
        }
        #expect(kills >= 3)
        #expect(waitUntil(timeout: 120) { ((try? Sys.listDirectory(inbox)) ?? []).isEmpty }, "\(daemon.log)")
        #expect(daemon.terminate() == 0, "\(daemon.log)")
        let report = try Invariants(library: scene.library, inboxes: [inbox], originals: originals).check()
        #expect(report.isClean, "\(report)")
        #expect(report.rollFiles == burst, "\(report)")
        #expect(report.albumEntries == burst, "\(report)")
        // No file refused. A kill may land on a thumbnail being made (they run when filing
        // waits); that one is logged and the file stays filed, which the report shows.
        let refusals = daemon.logLines(containing: "could not be read").filter {
            !$0.contains("for a thumbnail")
        }
        #expect(refusals.isEmpty, "\(daemon.log)")
    }

    @Test func helpersEndWhenIdle() throws {
        let scene = try DaemonScene()
        let daemon = try DaemonProcess(
            library: scene.library, arguments: ["--inbox", "QQ=\(scene.inbox().display)", "--settle", "20"],
            environment: ["PHOTOFILER_HELPER_IDLE_MS": "300"])
        defer { daemon.terminate() }
        try scene.dropByRename(Pictures.unique(1), as: "one.jpg", into: scene.inbox())
        #expect(scene.waitForAlbum(count: 1), "\(daemon.log)")
        #expect(
            waitUntil(timeout: 20) { Self.helpers(of: daemon).isEmpty },
            "helpers left: \(Self.helpers(of: daemon))")
        try scene.dropByRename(Pictures.unique(2), as: "two.jpg", into: scene.inbox())
        #expect(scene.waitForAlbum(count: 2), "\(daemon.log)")
    }
}
