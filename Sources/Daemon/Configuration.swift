import PhotoFilerFiling
import PhotoFilerSystem

/// What the daemon and the commands are told to do, from the config file and
/// the command line.
///
/// Every setting is optional so that "not said" stays distinguishable from
/// "said the default": that is what lets flags override the file (`merging`)
/// and lets a SIGHUP re-read keep the command line's word. The `effective…`
/// accessors apply photofiler.conf(5)'s defaults at the point of use.
public struct Configuration: Hashable, Sendable {
    /// The default quiet period before a file is filed (`--settle`).
    public static let defaultSettleMilliseconds = 300
    /// The default period of the cheap inbox rescan (`--rescan`); 0 = never.
    public static let defaultRescanMinutes = 60
    /// The longest settle (an hour) and rescan interval (a year) the flags and the
    /// config file take alike.
    public static let settleMilliseconds = 0...3_600_000
    public static let rescanMinutes = 0...525_600

    /// `[library] path` or `--library`; already `~`-expanded and absolute.
    /// Use `LibraryLocation.resolve` rather than reading this directly, as the
    /// environment sits between the flag and the file.
    public var libraryPath: BytePath?
    /// How album entries refer to roll files, for inboxes that do not say.
    public var link: LinkKind?
    public var settleMilliseconds: Int?
    public var rescanMinutes: Int?
    /// `--keep`: only the command line sets it, and it then wins over every
    /// inbox's own `keep` (flags override the file).
    public var keep: Bool?
    public var inboxes: [InboxConfiguration]
    /// The config file these settings were read from, for SIGHUP and messages.
    public var configFile: BytePath?
    /// `[library] desktop-thumbnails`: whether thumbnails also go to the desktop's
    /// cache (`$XDG_CACHE_HOME/thumbnails`); on unless the file says false.
    public var desktopThumbnails: Bool?

    public init(
        libraryPath: BytePath? = nil, link: LinkKind? = nil, settleMilliseconds: Int? = nil,
        rescanMinutes: Int? = nil, keep: Bool? = nil, inboxes: [InboxConfiguration] = [],
        configFile: BytePath? = nil
    ) {
        self.libraryPath = libraryPath
        self.link = link
        self.settleMilliseconds = settleMilliseconds
        self.rescanMinutes = rescanMinutes
        self.keep = keep
        self.inboxes = inboxes
        self.configFile = configFile
    }

    public var effectiveSettleMilliseconds: Int { settleMilliseconds ?? Self.defaultSettleMilliseconds }
    public var effectiveRescanMinutes: Int { rescanMinutes ?? Self.defaultRescanMinutes }
    public var effectiveDesktopThumbnails: Bool { desktopThumbnails ?? true }

    /// The link kind for one inbox: its own, else the library's, else hard.
    public func effectiveLink(for inbox: InboxConfiguration) -> LinkKind {
        inbox.link ?? link ?? .hard
    }

    /// Whether one inbox keeps its files: `--keep`, else its own `keep`, else keep
    /// when a sync engine owns its folder (`SyncEngine`), else move.
    public func effectiveKeep(for inbox: InboxConfiguration, syncedBy engine: SyncEngine? = nil) -> Bool {
        keep ?? inbox.keep ?? (engine != nil)
    }

    /// These settings (the file's) with `flags` laid over them: every setting the
    /// flags give wins, and `--inbox` adds to the file's inboxes.
    ///
    /// A `--link` flag also clears the file's per-inbox `link` (and `--keep`
    /// the per-inbox `keep`), since a flag overrides the file however specific
    /// the file's line is. An `--inbox` that repeats a file inbox exactly is
    /// dropped; one that gives the same folder another name is refused.
    public func merging(flags: Configuration) throws(ConfigurationError) -> Configuration {
        var result = self
        if let value = flags.libraryPath { result.libraryPath = value }
        if let value = flags.settleMilliseconds { result.settleMilliseconds = value }
        if let value = flags.rescanMinutes { result.rescanMinutes = value }
        if let value = flags.link {
            result.link = value
            for index in result.inboxes.indices { result.inboxes[index].link = nil }
        }
        if let value = flags.keep {
            result.keep = value
            for index in result.inboxes.indices { result.inboxes[index].keep = nil }
        }
        for inbox in flags.inboxes {
            if let existing = result.inboxes.first(where: { $0.path == inbox.path }) {
                if existing.name == inbox.name { continue }
                throw .duplicateInbox(
                    at: inbox.source ?? .option("--inbox \(inbox.name)=\(inbox.path.display)"),
                    path: inbox.path, name: inbox.name.value, existing: existing.name.value)
            }
            result.inboxes.append(inbox)
        }
        if flags.configFile != nil { result.configFile = flags.configFile }
        return result
    }
}
