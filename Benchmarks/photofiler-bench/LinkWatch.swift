import Foundation
import Glibc
import Synchronization

/// Watches the album folders (and the inboxes) with inotify on its own thread and
/// stamps, with the monotonic clock, when each album link appears and when each
/// inbox file goes away. This is how "the last album link" is timed without polling.
final class LinkWatch: @unchecked Sendable {
    private struct State {
        var links: [String: Double] = [:]
        var gone: [String: Double] = [:]
    }
    private let fd: CInt
    private let albums: String
    private let state = Mutex(State())
    private let condition = NSCondition()
    /// wd → (folder, kind). Touched only by the reading thread after `init`.
    private var folders: [CInt: (path: String, isAlbum: Bool)] = [:]
    private let folderLock = NSLock()
    private var thread: Thread?
    private let stopped = Atomic<Bool>(false)

    /// `albums`: the library's `Albums/` (created if missing); `inboxes`: folders whose removals count.
    init(albums: String, inboxes: [String]) throws {
        self.albums = albums
        fd = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        try check(fd, "inotify_init1", albums)
        try makeDirectories(albums)
        try add(albums, mask: UInt32(IN_CREATE | IN_MOVED_TO | IN_ONLYDIR), isAlbum: false)
        for inbox in inboxes {
            try add(inbox, mask: UInt32(IN_DELETE | IN_MOVED_FROM), isAlbum: false)
        }
        for name in (try? FileManager.default.contentsOfDirectory(atPath: albums)) ?? [] {
            try watchAlbum("\(albums)/\(name)")
        }
        let thread = Thread { [self] in self.loop() }
        thread.stackSize = 1 << 20
        self.thread = thread
        thread.start()
    }

    deinit { close(fd) }

    func stop() {
        stopped.store(true, ordering: .relaxed)
    }

    private func add(_ path: String, mask: UInt32, isAlbum: Bool) throws {
        let wd = inotify_add_watch(fd, path, mask)
        try check(wd, "inotify_add_watch", path)
        folderLock.lock()
        folders[wd] = (path, isAlbum)
        folderLock.unlock()
    }

    /// Watches a new album folder, then lists it: links made before the watch count too.
    private func watchAlbum(_ path: String) throws {
        try add(path, mask: UInt32(IN_CREATE | IN_MOVED_TO), isAlbum: true)
        let stamp = now()
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        record(names.map { "\(path)/\($0)" }, at: stamp, link: true)
    }

    private func record(_ paths: [String], at time: Double, link: Bool) {
        guard !paths.isEmpty else { return }
        state.withLock { state in
            for path in paths {
                let name = String(path[path.index(after: path.lastIndex(of: "/")!)...])
                if link {
                    if state.links[name] == nil { state.links[name] = time }
                } else if state.gone[name] == nil {
                    state.gone[name] = time
                }
            }
        }
        condition.lock()
        condition.broadcast()
        condition.unlock()
    }

    private func loop() {
        let size = 1 << 16
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 8)
        defer { buffer.deallocate() }
        while !stopped.load(ordering: .relaxed) {
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            if poll(&poller, 1, 200) <= 0 { continue }
            let count = read(fd, buffer, size)
            let stamp = now()
            if count <= 0 { continue }
            var offset = 0
            var links: [String] = []
            var gone: [String] = []
            while offset < count {
                let event = (buffer + offset).assumingMemoryBound(to: inotify_event.self).pointee
                let nameStart = buffer + offset + MemoryLayout<inotify_event>.size
                let name = event.len > 0 ? String(cString: nameStart.assumingMemoryBound(to: CChar.self)) : ""
                offset += MemoryLayout<inotify_event>.size + Int(event.len)
                folderLock.lock()
                let folder = folders[event.wd]
                folderLock.unlock()
                guard let folder else { continue }
                let path = "\(folder.path)/\(name)"
                if event.mask & UInt32(IN_Q_OVERFLOW) != 0 {
                    FileHandle.standardError.write(
                        Data("photofiler-bench: inotify overflow in the link watch\n".utf8))
                } else if folder.path == albums {
                    if event.mask & UInt32(IN_ISDIR) != 0 { try? watchAlbum(path) }
                } else if folder.isAlbum {
                    links.append(path)
                } else {
                    gone.append(path)
                }
            }
            record(links, at: stamp, link: true)
            record(gone, at: stamp, link: false)
        }
    }

    var linkCount: Int { state.withLock { $0.links.count } }

    func linkTime(_ name: String) -> Double? { state.withLock { $0.links[name] } }
    func goneTime(_ name: String) -> Double? { state.withLock { $0.gone[name] } }

    /// Waits until `names` all have an album link and are gone from their inbox.
    /// Returns the latest of those times, or nil on timeout.
    ///
    /// Each batch the reading thread records wakes this one. Until as many links (and
    /// removals) are recorded as there are names it cannot be done, so it looks no
    /// further: the timer must not spend, on a 2-core machine, the CPU of the contender
    /// it times on dictionary look-ups of thousands of names at every wake.
    func waitForAll(_ names: [String], timeout: Double, needGone: Bool = true) -> Double? {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while true {
            let done: Double? = state.withLock { state in
                guard state.links.count >= names.count, !needGone || state.gone.count >= names.count else {
                    return nil
                }
                var latest = 0.0
                for name in names {
                    guard let link = state.links[name] else { return nil }
                    latest = max(latest, link)
                    if needGone {
                        guard let gone = state.gone[name] else { return nil }
                        latest = max(latest, gone)
                    }
                }
                return latest
            }
            if let done { return done }
            if !condition.wait(until: deadline) { return nil }
        }
    }

    /// The latest link time over `names` (those that have one).
    func lastLink(_ names: [String]) -> Double {
        state.withLock { state in names.compactMap { state.links[$0] }.max() ?? 0 }
    }
}
