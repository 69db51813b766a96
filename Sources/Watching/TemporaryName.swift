import PhotoFilerSystem

/// The one rule for names that are never filed from an inbox: downloads in progress
/// and editor or app scratch files. The debouncer and the catch-up scan ask here, so
/// a rule change happens in one place (`save` files what it is named).
public enum TemporaryName {
    private static let suffixes: [[UInt8]] = [".part", ".crdownload", ".tmp", ".download"].map {
        Array($0.utf8)
    }

    /// True when the last component of `path` is a temporary or hidden name
    /// (`*.part`, `*.crdownload`, `*.tmp`, `*.download`, `.*`, `~*`; suffixes
    /// compared ignoring ASCII case, since Windows-made names vary), or a sync
    /// engine's (Syncthing's `.syncthing.*.tmp` and `~syncthing~*.tmp`, the
    /// Nextcloud client's `*.~*`).
    public static func matches(_ path: BytePath) -> Bool {
        let name = path.lastComponent.bytes
        guard let first = name.first else { return true }
        if first == UInt8(ascii: ".") || first == UInt8(ascii: "~") { return true }
        if zip(name, name.dropFirst()).contains(where: { $0 == UInt8(ascii: ".") && $1 == UInt8(ascii: "~") })
        {
            return true
        }
        let lowered = name.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }
        return suffixes.contains { suffix in
            lowered.count > suffix.count && lowered.suffix(suffix.count).elementsEqual(suffix)
        }
    }

    /// True when `path` lies in a hidden folder below `root` (Syncthing's
    /// `.stversions/`, a desktop's `.Trash-1000/`): old versions and deleted
    /// files, never new pictures.
    public static func isInHiddenFolder(_ path: BytePath, below root: BytePath) -> Bool {
        let inner = path.componentRanges.dropLast().dropFirst(root.componentRanges.count)
        return inner.contains { path.bytes[$0.lowerBound] == UInt8(ascii: ".") }
    }
}
