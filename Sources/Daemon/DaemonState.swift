import Foundation
import Glibc
import PhotoFilerFiling
import PhotoFilerSystem

/// What a running daemon tells `photofiler status`: a small JSON file,
/// `.photofiler/daemon-state.json`, replaced whole by a rename whenever it changes.
///
/// A file rather than a socket because it costs the daemon nothing while idle (no
/// listener, no thread) and a reader never waits on it; the rename means a reader
/// sees the old state or the new one, never half of one. Whether a daemon runs is
/// the lock's word (`DaemonProbe`), not this file's: a crash leaves it behind.
public struct DaemonState: Codable, Equatable, Sendable {
    public struct Inbox: Codable, Equatable, Sendable {
        public enum State: String, Codable, Sendable {
            /// Watched, with its sub-folders.
            case watching
            /// The folder does not exist; watched again when it reappears.
            case missing
            /// The folder exists but cannot be watched (permissions, the watch limit).
            case error
        }
        public var name: String
        public var path: String
        /// The exact bytes, only when the path is not valid UTF-8.
        public var pathBase64: String?
        public var state: State
        /// Files seen and not yet filed: settling, or queued for filing.
        public var waiting: Int
    }

    public var pid: Int32
    /// When the daemon started, in seconds since 1970.
    public var since: Double
    public var version: String
    public var inboxes: [Inbox]
    public var lastError: String?
    /// Folders the daemon watches with inotify (one watch each).
    public var watches: Int

    public static func path(in layout: LibraryLayout) -> BytePath {
        layout.internalFolder.appending("daemon-state.json")
    }

    /// Writes the state to a temporary name beside the file, then renames it over
    /// the file. Not fsynced: it describes this run only, and a crash ends the run.
    public func publish(in layout: LibraryLayout) throws(DaemonStateError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let bytes: [UInt8]
        do {
            bytes = Array(try encoder.encode(self))
        } catch {
            throw .encoding("\(error)")
        }
        do {
            try write(bytes, in: layout)
        } catch {
            throw .system(error)
        }
    }

    private func write(_ bytes: [UInt8], in layout: LibraryLayout) throws(SystemError) {
        let target = Self.path(in: layout)
        let temporary = layout.internalFolder.appending("daemon-state.json.new")
        let fd = try Sys.open(
            temporary, flags: O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, mode: 0o644)
        defer { fd.close() }
        let failure = bytes.withUnsafeBytes { raw -> SystemError? in
            do throws(SystemError) {
                try fd.writeAll(raw)
                return nil
            } catch {
                return error
            }
        }
        if let failure { throw failure }
        try Sys.rename(temporary, to: target)
    }

    /// The state last published in this library; nil when there is none or it
    /// cannot be read. Only what `status` shows depends on it (the lock says
    /// whether a daemon runs), so an unreadable file costs the details, nothing more.
    public static func read(in layout: LibraryLayout) -> DaemonState? {
        guard let fd = try? Sys.openForReading(path(in: layout)) else { return nil }
        defer { fd.close() }
        guard let bytes = try? fd.readToEnd() else { return nil }
        return try? JSONDecoder().decode(DaemonState.self, from: Data(bytes))
    }

    /// Removes the file when the daemon stops. One left behind (it could not be
    /// removed) is harmless: `status` reads it only while its pid holds the lock.
    public static func withdraw(in layout: LibraryLayout) {
        try? Sys.unlinkIfPresent(path(in: layout))
    }
}

/// Why the daemon's state file was not written.
public enum DaemonStateError: Error, Sendable, CustomStringConvertible {
    /// The state could not be encoded as JSON (the encoder's words).
    case encoding(String)
    case system(SystemError)

    public var description: String {
        switch self {
        case .encoding(let reason): return "The daemon state could not be encoded as JSON: \(reason)."
        case .system(let error): return "The daemon state file could not be written: \(error)."
        }
    }
}
