import Glibc
import PhotoFilerDaemon
import PhotoFilerSystem
import PhotoFilerWatching

/// The command line only: parse, call the core, print.

let overview = """
    usage: photofiler COMMAND [options]
    Files every new photo or video from apps' export folders into a Roll and per-app albums.

    commands:
      watch      the daemon: watch the inboxes and file what lands there
      save       file the given files now
      albums     list albums with count and cover
      list       list assets, newest first
      info       show one asset, by id or path
      rm         move assets to Recently Deleted, or out of an album
      restore    bring assets back from Recently Deleted
      favorite   mark assets as favorites (unfavorite to unmark)
      hide       hide assets from every listing but Hidden (unhide to show them)
      check      compare catalog and disk (--repair to fix the catalog)
      thumb      write an asset's thumbnail, or make every missing one (--all)
      export     write a Live Photo's video (--video)
      status     is a daemon running on this library, and what is it doing
      serve      the web gallery in the browser
      pick       pick assets in the browser, for scripts
      share      a link that sees one album only
      help       'photofiler help COMMAND' is 'photofiler COMMAND --help'

    Every command takes --library DIR and --json; 'photofiler COMMAND --help' says more.
    'photofiler --version' prints the version; 'man photofiler' is the manual.
    """

func runCommandLine() -> Int32 {
    let commands: [any Command.Type] = [
        SaveCommand.self, AlbumsCommand.self, ListCommand.self, InfoCommand.self, RemoveCommand.self,
        RestoreCommand.self, FavoriteCommand.self, HideCommand.self, CheckCommand.self, WatchCommand.self,
        StatusCommand.self,
        ServeCommand.self, PickCommand.self, ShareCommand.self, ExportCommand.self,
        ThumbCommand.self,
    ]
    var raw = (1..<Int(CommandLine.argc)).map { BytePath(cString: CommandLine.unsafeArgv[$0]!) }
    if raw.first?.display == "--version" {
        print("photofiler \(PhotoFilerVersion.current)")
        return 0
    }
    // `photofiler help COMMAND` is `photofiler COMMAND --help`.
    if raw.first?.display == "help", raw.count == 2 { raw = [raw[1], BytePath("--help")] }
    guard let first = raw.first, first.display != "--help", first.display != "-h", first.display != "help"
    else {
        // Asked for, the overview is the answer; no command at all is a usage error.
        if raw.isEmpty {
            Logger.standardError(verbose: false).error(
                "No command given; run 'photofiler --help' for the list of commands.")
            return 2
        }
        print(overview)
        return 0
    }
    let name = first.display
    // glibc reads its malloc tunables only as a process starts (`MallocTunables`):
    // the daemon starts again with them, before it has any thread or descriptor.
    if name == "watch", MallocTunables.shouldStartAgain {
        ProcessEnvironment.setBeforeThreads(
            "GLIBC_TUNABLES", MallocTunables.value(before: MallocTunables.inherited))
        do {
            try Sys.startAgain()
        } catch {
            // It carries on as it started: a slower malloc, nothing else.
        }
    }
    if name == "serve" || name == "pick" {
        // Before any thread exists, so no early signal is lost.
        SignalWatcher.blockTerminationSignals()
    }
    if name == "watch" {
        // Before any thread exists, so no early signal is lost; and libinotifytools
        // first, while its descriptor is below 1024 (it uses select()). The
        // descriptor table is grown now too, while growing it costs no wait.
        SignalWatcher.blockTerminationSignals()
        Sys.closeInheritedDescriptors()
        Sys.reserveDescriptorTable(Daemon.descriptorsWhenBusy)
        try? InotifyWatcher.initializeEarly()
    }
    let lookup = ["unfavorite": "favorite", "unhide": "hide"][name] ?? name
    guard let type = commands.first(where: { $0.name == lookup }) else {
        Logger.standardError(verbose: false).error(
            "Unknown command '\(name)'; run 'photofiler --help' for the list.")
        return 2
    }
    var arguments = Arguments(Array(raw.dropFirst()), command: name)
    if arguments.flag("--help") || arguments.flag("-h") {
        print(type.help)
        return 0
    }
    do {
        let library = try arguments.value("--library")
        let json = arguments.flag("--json")
        let verbose = arguments.flag("--verbose")
        let configFile = try arguments.value("--config")
        let command = try type.init(&arguments)
        let configuration = try loadConfiguration(configFile)
        let log = Logger.standardError(verbose: verbose, daemon: name == "watch")
        let context = Context(
            libraryFlag: library, configuration: configuration, json: json, verbose: verbose, log: log)
        return command.run(context)
    } catch let error as ConfigurationError {
        Logger.standardError(verbose: false).error(error.description)
        return 2
    } catch {
        Logger.standardError(verbose: false).error("\(error)")
        return 2
    }
}

/// The config file every command reads: `--config FILE`, else the default one when present.
func loadConfiguration(_ flag: BytePath?) throws(ConfigurationError) -> Configuration? {
    if let flag { return try ConfigFile.load(flag) }
    guard let path = ConfigFile.defaultPath() else { return nil }
    return try ConfigFile.load(path)
}

exit(runCommandLine())
