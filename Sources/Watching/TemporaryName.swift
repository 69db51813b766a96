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
        let name = path.bytes[path.lastComponentRange]
        guard let first = name.first else { return true }
        if first == UInt8(ascii: ".") || first == UInt8(ascii: "~") { return true }
        if zip(name, name.dropFirst()).contains(where: { $0 == UInt8(ascii: ".") && $1 == UInt8(ascii: "~") })
        {
            return true
        }
        return suffixes.contains { suffix in
            name.count > suffix.count
                && zip(name.suffix(suffix.count), suffix).allSatisfy { byte, lowercase in
                    (byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte) == lowercase
                }
        }
    }

    /// True when `path` lies in a hidden folder below `root` (Syncthing's
    /// `.stversions/`, a desktop's `.Trash-1000/`): old versions and deleted
    /// files, never new pictures. Asked of every file filed, so it walks the
    /// components in place.
    public static func isInHiddenFolder(_ path: BytePath, below root: BytePath) -> Bool {
        let rootCount = root.componentRanges.reduce(0) { count, _ in count + 1 }
        var previous: Range<Int>?
        var index = 0
        // A component is a folder below the root when a later one follows it.
        for range in path.componentRanges {
            if let folder = previous, index > rootCount, path.bytes[folder.lowerBound] == UInt8(ascii: ".") {
                return true
            }
            previous = range
            index += 1
        }
        return false
    }
}
