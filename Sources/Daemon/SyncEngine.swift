import PhotoFilerSystem

/// A file-sync program that owns an inbox folder: it mirrors the folder with a
/// phone, so moving a file out of it deletes the photo on the phone (or, for a
/// receive-only folder, makes the engine fetch it again, for ever). Such an inbox
/// is in keep mode unless its config says `keep = false`.
public enum SyncEngine: String, Sendable, Equatable {
    case syncthing = "Syncthing"
    case nextcloud = "the Nextcloud client"

    /// The engine that syncs `folder`: its marker is in the folder or in a folder
    /// above it (an engine marks only the root of what it syncs, and an inbox may be
    /// a sub-folder of it: `~/Nextcloud/InstantUpload/Camera`). Throws when `folder`
    /// itself cannot be listed: that is not "no engine"; a folder above that cannot
    /// be listed (another user's) is passed over.
    public static func owning(_ folder: BytePath) throws(SystemError) -> SyncEngine? {
        if let engine = try marking(folder) { return engine }
        var above = folder
        while above.bytes.first == UInt8(ascii: "/"), above != BytePath("/") {
            above = above.parent
            if case .some(.some(let engine)) = try? marking(above) { return engine }
        }
        return nil
    }

    /// The engine whose marker is in `folder` itself: Syncthing's `.stfolder`, or
    /// the Nextcloud (and ownCloud) client's journal `.sync_*.db` / `._sync_*.db`.
    private static func marking(_ folder: BytePath) throws(SystemError) -> SyncEngine? {
        var found: SyncEngine? = nil
        for entry in try Sys.listDirectory(folder) {
            let name = entry.name.bytes
            if name == Array(".stfolder".utf8) { return .syncthing }
            if isJournal(name) { found = .nextcloud }
        }
        return found
    }

    /// The marker, as the log line names it.
    public var marker: String {
        switch self {
        case .syncthing: return ".stfolder"
        case .nextcloud: return ".sync_*.db"
        }
    }

    private static func isJournal(_ name: [UInt8]) -> Bool {
        let suffix = Array(".db".utf8)
        for prefix in [Array(".sync_".utf8), Array("._sync_".utf8)]
        where name.count > prefix.count + suffix.count && name.starts(with: prefix)
            && name.suffix(suffix.count).elementsEqual(suffix)
        {
            return true
        }
        return false
    }
}
