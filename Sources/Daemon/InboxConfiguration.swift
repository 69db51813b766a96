import PhotoFilerFiling
import PhotoFilerSystem

/// One watched folder and the album it feeds.
public struct InboxConfiguration: Hashable, Sendable {
    public var name: AlbumName
    /// Absolute and tidy (`~` expanded, no `//`, no trailing `/`), so that two
    /// spellings of one folder are found to be the same inbox.
    public var path: BytePath
    /// `keep = true`: leave the files in place; nil = not said (move).
    public var keep: Bool?
    /// This inbox's link kind; nil = the library's.
    public var link: LinkKind?
    /// Where the inbox was declared, for messages about it; not part of its identity.
    public var source: ConfigurationSource?

    public init(
        name: AlbumName, path: BytePath, keep: Bool? = nil, link: LinkKind? = nil,
        source: ConfigurationSource? = nil
    ) {
        self.name = name
        self.path = path
        self.keep = keep
        self.link = link
        self.source = source
    }

    /// This inbox at its folder's own path when `path` itself is a symbolic link to
    /// a folder (`~/Downloads` on another disk): the watcher follows no link, so it
    /// watches the folder the link leads to. Anything else is kept as it is (a
    /// missing inbox, a link to nothing: the watch says what is wrong).
    public func followingLinkedRoot() -> InboxConfiguration {
        guard case .some(.some(let status)) = try? Sys.statusIfExists(path), status.isSymbolicLink,
            case .some(let target) = try? Sys.realPath(path),
            case .some(.some(let targetStatus)) = try? Sys.statusIfExists(target), targetStatus.isDirectory
        else { return self }
        var resolved = self
        resolved.path = target
        return resolved
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.name == rhs.name && lhs.path == rhs.path && lhs.keep == rhs.keep && lhs.link == rhs.link
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(path)
        hasher.combine(keep)
        hasher.combine(link)
    }

    /// Reads the value of `--inbox NAME=DIR`: split at the first `=` (so a folder
    /// may contain `=`, an album name may not), `~` expanded, a relative folder
    /// taken from `workingDirectory` (the process's own when nil). The folder keeps
    /// its bytes from argv on: a name that is not UTF-8 is watched as it is.
    public static func parse(
        flag value: BytePath, environment: [String: String] = ProcessEnvironment.current,
        workingDirectory: BytePath? = nil
    ) throws(ConfigurationError) -> InboxConfiguration {
        let source = ConfigurationSource.option("--inbox \(value.display)")
        guard let equals = value.bytes.firstIndex(of: UInt8(ascii: "=")) else {
            throw .badInboxOption(at: source, reason: .missingEquals)
        }
        let rawPath = BytePath(bytes: Array(value.bytes[(equals + 1)...]))
        if rawPath.isEmpty { throw .badInboxOption(at: source, reason: .missingFolder) }
        let name: AlbumName
        do {
            name = try AlbumName(validatingBytes: value.bytes[..<equals])
        } catch {
            throw .badAlbumName(at: source, problem: error)
        }
        let base = workingDirectory ?? Sys.currentDirectory()
        let path = PathExpansion.absolute(rawPath, base: base, environment: environment)
        return InboxConfiguration(name: name, path: path, source: source)
    }
}

extension Configuration {
    /// The daemon's inboxes with each linked root followed (`followingLinkedRoot`).
    public func followingLinkedInboxes() -> Configuration {
        var resolved = self
        resolved.inboxes = inboxes.map { $0.followingLinkedRoot() }
        return resolved
    }
}
