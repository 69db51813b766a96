import PhotoFilerDaemon
import PhotoFilerFiling

/// `photofiler watch`: the daemon, in the foreground, until SIGTERM or SIGINT.
struct WatchCommand: Command {
    static let name = "watch"
    static let help = """
        usage: photofiler watch [--inbox NAME=DIR]… [--link hard|symbolic] [--settle MS] [--rescan MIN] [--keep]
                                [--config FILE] [--library DIR] [--verbose]
        Watches each inbox folder and files every new photo or video into the library: the Roll, and the
        album NAME. Runs until SIGTERM or SIGINT; SIGHUP re-reads the config file. Sends READY=1 to
        $NOTIFY_SOCKET once every inbox is watched and the catch-up scan is done.
        """

    /// Settings given as flags; laid over the config file's.
    let flags: Configuration

    init(_ arguments: inout Arguments) throws(UsageError) {
        var flags = Configuration()
        for value in try arguments.values("--inbox") {
            do {
                flags.inboxes.append(try InboxConfiguration.parse(flag: value))
            } catch {
                throw UsageError(error.description)
            }
        }
        flags.link = try arguments.choice("--link", LinkKind.self)
        flags.settleMilliseconds = try arguments.integer("--settle", in: Configuration.settleMilliseconds)
        flags.rescanMinutes = try arguments.integer("--rescan", in: Configuration.rescanMinutes)
        if arguments.flag("--keep") { flags.keep = true }
        let extra = try arguments.operands()
        if !extra.isEmpty {
            throw UsageError(
                "'watch' takes no operands ('\(extra[0].display)'); give inboxes as --inbox NAME=DIR.")
        }
        self.flags = flags
    }

    func run(_ context: Context) -> Int32 {
        let configuration: Configuration
        do {
            configuration = try (context.configuration ?? Configuration()).merging(flags: flags)
                .followingLinkedInboxes()
        } catch {
            context.fail(error.description)
            return 2
        }
        if configuration.inboxes.isEmpty {
            context.log.warning(
                "No inbox is configured; give one with --inbox NAME=DIR or in the config file. Watching the library only."
            )
        }
        let configFile = configuration.configFile ?? context.configuration?.configFile
        let flags = self.flags
        guard let root = context.libraryRoot() else { return 1 }
        // Nothing in the library is ever inbox content: an inbox there could file nothing.
        if let inside = configuration.inboxes.first(where: { $0.path.isWithin(root) }) {
            context.fail(
                "The inbox '\(inside.path.display)' (\(inside.name.value)) is inside the library '\(root.display)', whose files are never inbox content; point it at a folder outside the library."
            )
            return 2
        }
        let daemon: Daemon
        do {
            daemon = try Daemon.open(
                root: root, configuration: configuration, log: context.log
            ) {
                () throws(ConfigurationError) -> Configuration in
                // Without --config, the default file is looked for again: it may have been written since.
                let file = try (configFile ?? ConfigFile.defaultPath()).map {
                    (path) throws(ConfigurationError) in try ConfigFile.load(path)
                }
                return try (file ?? Configuration()).merging(flags: flags).followingLinkedInboxes()
            }
        } catch {
            context.fail(error.description)
            return 1
        }
        daemon.run()
    }
}
